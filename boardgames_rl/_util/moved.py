"""Old import paths kept for one release: a module that moved leaves a small module behind whose
``__getattr__`` gives the new module's names with a :class:`DeprecationWarning`."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any


def moved_module(old: str, new: ModuleType) -> Callable[[str], Any]:
    """A module ``__getattr__`` for the old module ``old``: every public name of ``new``, each
    use warning that the name moved (the old path goes in the next release)."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__") or not hasattr(new, name):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        warnings.warn(
            f"{old}.{name} moved to {new.__name__}.{name}: import it from there ({old} goes in "
            "the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(new, name)

    return __getattr__
