"""Old import paths kept for one release: a module that moved leaves a small module behind whose
``__getattr__`` gives the new module's names with a :class:`DeprecationWarning`."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any


def moved_module(old: str, new: ModuleType | str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for the old module ``old``: every public name of ``new``, each
    use warning that the name moved (the old path goes in the next release). ``new`` given by
    name is imported on first use (a module that moved to a higher layer: the old place never
    imports it)."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        module = importlib.import_module(new) if isinstance(new, str) else new
        if not hasattr(module, name):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        warnings.warn(
            f"{old}.{name} moved to {module.__name__}.{name}: import it from there ({old} goes "
            "in the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(module, name)

    return __getattr__
