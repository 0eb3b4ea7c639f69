"""Which build of the engines this process runs: compiled (mypyc) or pure Python.

The rules engines are plain typed Python (the source ``docs/rules`` points to). ``pip install``
also compiles them with mypyc where a C compiler is present (``setup.py``); the compiled modules
sit beside their ``.py`` files and Python imports them first. This module, imported before any
engine, decides once per process which build runs:

* ``BOARDGAMES_RL_PURE=1`` in the environment: the pure build, compiled modules or not;
* no compiled build installed (no compiler, or a source tree never built): the pure build;
* a compiled module whose source changed since the build (an edited engine in an editable
  install): the pure build, with one warning saying which file and how to rebuild, so an edit is
  never shadowed by an old compiled copy;
* otherwise the compiled build.

For the pure build, an import hook loads every ``boardgames_rl`` module from its ``.py`` file.
:func:`build_info` says which build runs and why. Both builds play the same games from the same
seeds (``tests/compiled/test_differential.py``, ``lab/benchmarks/differential.py``).

This module imports only the standard library and is never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import stat
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PURE_ENV = "BOARDGAMES_RL_PURE"
"""The environment variable that forces the pure build (``1``; ``0`` or unset: compiled if
built)."""

_PACKAGE = "boardgames_rl"
_ROOT = Path(__file__).resolve().parent
_MANIFEST = _ROOT / "_compiled.json"
_MANIFEST_LIMIT = 1 << 20
"""The largest manifest read (the real one is a few kilobytes)."""
_MODULE_NAME = re.compile(r"boardgames_rl(\.[A-Za-z_][A-Za-z0-9_]*)+")
"""What a module the manifest names must look like: a dotted name inside the package."""


def _pure_requested() -> bool:
    value = os.environ.get(PURE_ENV, "")
    if value not in ("", "0", "1"):
        raise ValueError(
            f"{PURE_ENV} must be 1 (run the pure-Python engines) or 0 / unset (the compiled "
            f"ones where built), got {value!r}"
        )
    return value == "1"


def _extension_of(module: str) -> Path | None:
    """The compiled extension file of ``module`` beside its source, if there is one."""
    parts = module.split(".")
    folder = _ROOT.joinpath(*parts[1:-1])
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = folder / (parts[-1] + suffix)
        if candidate.is_file():
            return candidate
    return None


def _source_of(module: str) -> Path:
    """A compiled module's source: its ``.py`` file, or the ``.c`` file of a C helper."""
    parts = module.split(".")
    source = _ROOT.joinpath(*parts[1:-1]) / (parts[-1] + ".py")
    if not source.exists():
        helper = source.with_suffix(".c")
        if helper.exists():
            return helper
    return source


def _read_manifest() -> str:
    """The manifest's text: a regular file (a link is not followed, a FIFO not waited on) of at
    most :data:`_MANIFEST_LIMIT` bytes, else ``OSError`` / ``ValueError``."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(_MANIFEST, flags)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError("not a regular file")
        data = f.read(_MANIFEST_LIMIT + 1)
    if len(data) > _MANIFEST_LIMIT:
        raise ValueError(f"larger than {_MANIFEST_LIMIT} bytes")
    return data.decode("utf-8")


def _decide() -> tuple[str, str, str, tuple[str, ...]]:
    """(build, reason, compiler, compiled modules) for this process."""
    if _pure_requested():
        return "pure", f"{PURE_ENV}=1", "", ()
    if not os.path.lexists(_MANIFEST):
        return "pure", "no compiled build installed (no C compiler at install time?)", "", ()
    try:
        manifest = json.loads(_read_manifest())
        compiler = str(manifest["compiler"])
        modules: dict[str, str] = dict(manifest["modules"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        return "pure", f"unreadable {_MANIFEST.name} ({e})", "", ()
    for module, digest in sorted(modules.items()):
        if not _MODULE_NAME.fullmatch(module):
            return "pure", f"{_MANIFEST.name} names a module outside the package", "", ()
        source = _source_of(module)
        if _extension_of(module) is None:
            return "pure", f"{module} has no compiled extension", "", ()
        try:
            current = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            return "pure", f"{source} is missing", "", ()
        if current != digest:
            reason = (
                f"{source.relative_to(_ROOT.parent)} changed since the compiled build; "
                "running the pure-Python engines (rebuild with `pip install -e .`)"
            )
            warnings.warn(f"boardgames_rl: {reason}", RuntimeWarning, stacklevel=3)
            return "pure", reason, "", ()
    return "compiled", "built and up to date", compiler, tuple(sorted(modules))


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Loads every module of the package from its ``.py`` file, but those in ``compiled``: a
    compiled file left from another build (a module since dropped from the list) never runs."""

    def __init__(self, compiled: tuple[str, ...]):
        self.compiled = frozenset(compiled)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(_PACKAGE + ".") or fullname in self.compiled:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return spec
        assert spec.origin is not None
        source = Path(spec.origin).parent / (fullname.rsplit(".", 1)[-1] + ".py")
        if not source.is_file():
            if source.with_suffix(".c").is_file():  # a C helper: the compiled build's only
                raise ImportError(
                    f"{fullname} is part of the compiled build, which this process does not "
                    f"run ({REASON})",
                    name=fullname,
                )
            return spec
        return importlib.util.spec_from_file_location(fullname, source)


BUILD, REASON, COMPILER, MODULES = _decide()
sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_SourceFirst"]
sys.meta_path.insert(0, _SourceFirst(MODULES))


def _is_extension(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension file."""
    spec = getattr(module, "__spec__", None)
    return isinstance(spec, importlib.machinery.ModuleSpec) and isinstance(
        spec.loader, importlib.machinery.ExtensionFileLoader
    )


def build_info() -> dict[str, Any]:
    """Which build of the engines this process runs, and why.

    Returns:
        A dict with the keys ``"build"`` (``"compiled"`` or ``"pure"``), ``"reason"`` (why),
        ``"compiler"`` (e.g. ``"mypyc 2.4.1"``; empty for the pure build), ``"modules"`` (the
        compiled modules' names) and ``"loaded_compiled"`` (those of them loaded compiled in
        this process now).
    """
    loaded = sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith(_PACKAGE + ".") and _is_extension(module)
    )
    return {
        "build": BUILD,
        "reason": REASON,
        "compiler": COMPILER,
        "modules": list(MODULES),
        "loaded_compiled": loaded,
    }
