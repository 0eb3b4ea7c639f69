"""Old import paths kept for one release: a module that moved leaves a small module behind whose
``__getattr__`` gives the new module's names with a :class:`DeprecationWarning`.

A module or a name that moved out of the package, to the lab (never installed, so never imported
by the package), leaves one line instead: :func:`modules_moved_to_lab`,
:func:`names_moved_to_lab`."""

from __future__ import annotations

import importlib
import importlib.abc
import sys
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


class MovedToLabError(ImportError):
    """A module or a name that left the package for the lab (``lab/`` in a clone of the
    repository, never installed): its one line says where it went and what replaces it. Not a
    ``ModuleNotFoundError``: ``from package import module`` would put Python's own line in its
    place."""


def moved_to_lab_line(old: str, lab_path: str, instead: str) -> str:
    """The one line: ``<old> moved to the lab: <lab_path>; <instead>``."""
    return f"{old} moved to the lab: {lab_path}; {instead}"


class LabMoves(importlib.abc.MetaPathFinder):
    """A finder, last on ``sys.meta_path``, that answers an import of a module that moved to the
    lab with :class:`MovedToLabError` (the module is no longer a file of the package, so no other
    finder finds it; without this, Python would say only "No module named ...")."""

    def __init__(self, moves: dict[str, tuple[str, str]]):
        self.moves = dict(moves)  # old module -> (lab path, what replaces it)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname in self.moves:
            lab_path, instead = self.moves[fullname]
            raise MovedToLabError(moved_to_lab_line(fullname, lab_path, instead), name=fullname)
        return None


def modules_moved_to_lab(moves: dict[str, tuple[str, str]]) -> None:
    """Answer imports of the modules ``moves`` names (old module -> (lab path, what replaces
    it)) with one line saying where each went (a :class:`LabMoves` finder appended to
    ``sys.meta_path``, once per set of modules)."""
    for finder in sys.meta_path:
        if isinstance(finder, LabMoves) and finder.moves == moves:
            return
    sys.meta_path.append(LabMoves(moves))


def names_moved_to_lab(old: str, moves: dict[str, tuple[str, str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``old``, whose names ``moves`` (name -> (lab path, what
    replaces it)) left for the lab: using one raises :class:`MovedToLabError` with one line
    (not an ``AttributeError``: ``from old import name`` would drop the line)."""

    def __getattr__(name: str) -> Any:
        if name in moves:
            lab_path, instead = moves[name]
            raise MovedToLabError(moved_to_lab_line(f"{old}.{name}", lab_path, instead), name=old)
        raise AttributeError(f"module {old!r} has no attribute {name!r}")

    return __getattr__
