"""Checks of arguments given in Python: a count is an integer, never a float or a bool.

``VectorEnv(num_envs=1.5)`` would otherwise make one env and ``SingleAgentEnv(seat=True)`` would
be seat 1 (``bool`` is an ``int`` in Python); both are refused in one line instead.
"""

from __future__ import annotations

import numbers
from typing import Any, Literal

from boardgames_rl.core.errors import InvalidConfigError


def check_int(value: Any, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an ``int`` if it is an integer (Python or numpy, not a bool) within
    ``[minimum, maximum]``.

    Raises:
        InvalidConfigError: one line naming ``name``, the range and the value given.
    """
    ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if ok:
        value = int(value)
        ok = (minimum is None or value >= minimum) and (maximum is None or value <= maximum)
    if not ok:
        if minimum is not None and maximum is not None:
            want = f"an integer in [{minimum}, {maximum}]"
        elif minimum is not None:
            want = f"an integer >= {minimum}"
        else:
            want = "an integer"
        raise InvalidConfigError(f"{name} must be {want}, got {value!r:.60}")
    return int(value)


def check_seat_option(seat: Any, num_players: int) -> int | Literal["random"]:
    """A learner's seat: an integer seat in ``[0, num_players)`` or ``"random"``.

    Raises:
        InvalidConfigError: anything else (``True``, ``1.0``, ``"1"``), in one line.
    """
    if isinstance(seat, str) and seat == "random":
        return "random"
    try:
        return check_int(seat, "seat", 0, num_players - 1)
    except InvalidConfigError:
        raise InvalidConfigError(
            f"seat must be an integer in [0, {num_players}) or 'random', got {seat!r:.60}"
        ) from None
