"""``key=value`` options, parsed one way everywhere (CLI ``-c``, agent specs, benchmark targets).

Values become ``bool`` (``true``/``false``, any case), ``int``, ``float``, or stay strings;
a value containing commas becomes a list of such values (``skills=novice,average``).

Examples::

    >>> parse_value("3"), parse_value("0.5"), parse_value("True"), parse_value("A")
    (3, 0.5, True, 'A')
    >>> parse_options(["num_players=4", "pesky_ghosts=true", "skills=novice,average"])
    {'num_players': 4, 'pesky_ghosts': True, 'skills': ['novice', 'average']}
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from boardgames_rl.core.errors import InvalidConfigError


def parse_value(text: str) -> Any:
    """One option value: ``bool``, ``int``, ``float``, else the (stripped) string itself."""
    text = text.strip()
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


def parse_bool(value: Any, name: str) -> bool:
    """An on/off option of a game or agent: ``True``/``False`` (Python or numpy), ``1``/``0``, or
    one of the words ``true/false``, ``yes/no``, ``on/off``, ``1/0`` in any case.

    The one parser of every boolean option, so ``-c pesky_ghosts=no`` and
    ``pesky_ghosts="false"`` turn a variant off in every game.

    Raises:
        InvalidConfigError: anything else (``"maybe"``, ``2``, ``0.5``, ``None``), in one line
            naming ``name`` (e.g. ``"castle_flutterstone: pesky_ghosts"``).
    """
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(int(value))
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise InvalidConfigError(
        f"{name} must be true or false (or yes/no, on/off, 1/0), got {value!r:.60}"
    )


def split_option(pair: str, where: str = "option") -> tuple[str, str]:
    """``"key=value"`` -> ``("key", "value")`` (both stripped).

    Raises:
        InvalidConfigError: no ``=`` or an empty key; the message shows the expected form.
    """
    key, eq, value = pair.partition("=")
    if not eq or not key.strip():
        raise InvalidConfigError(f"{where}: expected key=value, got {pair!r}")
    return key.strip(), value.strip()


def parse_options(
    pairs: Iterable[str], where: str = "option", lists: bool = True
) -> dict[str, Any]:
    """``["a=1", "b=x,y"]`` -> ``{"a": 1, "b": ["x", "y"]}``.

    Args:
        pairs: ``key=value`` strings; empty strings are skipped.
        where: what is being parsed, for error messages (e.g. ``"agent spec 'ismcts:...'"``).
        lists: parse comma-separated values as lists (off where commas separate the pairs).

    Raises:
        InvalidConfigError: a pair without ``=`` or with an empty key.
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        if not pair.strip():
            continue
        key, value = split_option(pair, where)
        if lists and "," in value:
            options[key] = [parse_value(v) for v in value.split(",")]
        else:
            options[key] = parse_value(value)
    return options


def parse_option_string(text: str, where: str = "option") -> dict[str, Any]:
    """``"a=1,b=x"`` -> ``{"a": 1, "b": "x"}`` (commas separate the pairs, so no list values)."""
    return parse_options(text.split(","), where, lists=False)
