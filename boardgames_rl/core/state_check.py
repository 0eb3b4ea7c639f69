"""Deprecated: the state checker moved beside the registry, to :mod:`boardgames_rl.state_checks`
(:func:`boardgames_rl.load_state` runs it), and the helpers a game's ``state_checks`` use
(``ints_within``, ``is_permutation``, ``flat``) to :mod:`boardgames_rl.core.dict_checks`. This
alias goes in the next release; each name it gives warns (DeprecationWarning)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from boardgames_rl.core import dict_checks

_HELPERS = ("ints_within", "is_permutation", "flat")


def __getattr__(name: str) -> Any:
    if name in _HELPERS:
        new: Any = dict_checks
    elif name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    else:  # the checker lives above core now: found at use, never imported by the contract
        new = importlib.import_module("boardgames_rl.state_checks")
    public = name.removeprefix("_") if name == "_time_limit" else name
    if not hasattr(new, public):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"{__name__}.{name} moved to {new.__name__}.{public}: import it from there ({__name__} "
        "goes in the next release)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(new, public)
