"""The old class names of Castle Nightingale (before issue 41's one stem), kept importable for one
release: each module that defined one ends with ``__getattr__ = renamed(__name__, globals())``
and gives the new class under the old name with a :class:`DeprecationWarning`."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any

RENAMED: dict[str, str] = {
    "NightingaleState": "CastleNightingaleState",
    "NightingaleInfoSet": "CastleNightingaleInfoSet",
    "NightingaleHeuristic": "CastleNightingaleHeuristic",
}
"""Old class name -> new name (issue 41); the old names go in the next release."""


def renamed(module: str, names: Mapping[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` giving ``names[RENAMED[old]]`` for each old name, with a warning."""

    def __getattr__(name: str) -> Any:
        new = RENAMED.get(name)
        if new is None or new not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} is renamed {new}: import {new} (the old name goes in the next "
            "release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return names[new]

    return __getattr__
