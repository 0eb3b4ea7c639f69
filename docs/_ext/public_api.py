"""Sphinx extension: every public name is documented, and two docstring conventions of the package.

The check: at the end of a build, each name in ``__all__`` of the modules of
:data:`PUBLIC_MODULES` must have a docstring of its own and a description on the site (in the
Python domain under its public name, or under its defining ``module.qualname``, which autodoc
records as the canonical name of a re-exported object). Each name that fails is one warning, so
``sphinx-build -W`` fails. :func:`missing` is the check itself (no Sphinx needed), for the tests.

The conventions, for docstrings of ``boardgames_rl`` only:

* an attribute's docstring is prose: napoleon would read a first line ``a: b`` as
  ``type: description`` (the fields of ``boardgames_rl.training.settings.Args``, which are also
  their ``--help`` text, read ``the learner's seat: an int, ...``), so a handler run before
  napoleon makes the line start with an empty type;
* a ``Config:`` section (a game's keyword arguments) is laid out like ``Args:``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import sys
from collections.abc import Collection, Iterable
from types import ModuleType
from typing import Any

from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging

PACKAGE = "boardgames_rl"

#: The modules whose ``__all__`` is the public surface: each name must be documented.
PUBLIC_MODULES = (
    "boardgames_rl",
    "boardgames_rl.core",
    "boardgames_rl.envs",
    "boardgames_rl.envs.vector",
    "boardgames_rl.agents",
    "boardgames_rl.arena",
    "boardgames_rl.testing",
    "boardgames_rl.cli",
    "boardgames_rl.interop.openspiel",
    "boardgames_rl.games.castle_flutterstone",
    "boardgames_rl.games.castle_nightingale",
    "boardgames_rl.games.night_of_the_ninja",
    "boardgames_rl.games.white_castle",
)

logger = logging.getLogger(__name__)


# ------------------------------------------------------------------------------------ the check
def missing(module_names: Iterable[str], documented: Collection[str]) -> list[str]:
    """One line per public name of ``module_names`` that lacks a docstring or a description on
    the site, naming the name, what it lacks and what to do.

    ``documented`` holds the full names the site describes (the Python domain's objects).
    """
    lines = []
    for module_name in module_names:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            line = _problem(module, name, documented)
            if line:
                lines.append(line)
    return lines


def _problem(module: ModuleType, name: str, documented: Collection[str]) -> str | None:
    public = f"{module.__name__}.{name}"
    if not hasattr(module, name):
        return f"{public}: listed in __all__ but not defined; remove it from __all__"
    obj = getattr(module, name)
    lacks, todo = [], []
    if not _has_docstring(module, name, obj):
        lacks.append("docstring of its own")
        todo.append(
            "write a docstring" if _is_code(obj) else "write a '#:' comment or a docstring after it"
        )
    if not {public, *_canonical_names(module, name, obj)} & set(documented):
        lacks.append("description on the site")
        todo.append(
            "add its module to a page of docs/api (automodule with :members:) or describe it "
            "there, or remove it from __all__"
        )
    if not lacks:
        return None
    return f"{public} is public (in __all__) but has no {' and no '.join(lacks)}: {'; '.join(todo)}"


def _is_code(obj: Any) -> bool:
    return inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj)


def _has_docstring(module: ModuleType, name: str, obj: Any) -> bool:
    if inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
        generated = dataclasses.is_dataclass(obj) and str(doc).startswith(f"{obj.__name__}(")
        return bool(doc and doc.strip()) and not generated
    if inspect.isroutine(obj) or inspect.ismodule(obj):
        return bool(inspect.getdoc(obj))
    return any(_attribute_doc(m, name) for m in _defining_modules(module, name, obj))


def _attribute_doc(module: ModuleType, name: str) -> list[str]:
    """The ``#:`` comment or the string after ``name = ...`` in ``module``'s source."""
    try:
        analyzer = ModuleAnalyzer.for_module(module.__name__)
        return list(analyzer.find_attr_docs().get(("", name), []))
    except Exception:  # no source (a compiled or dynamic module)
        return []


def _defining_modules(module: ModuleType, name: str, obj: Any) -> list[ModuleType]:
    """``module`` and the package's modules it may have imported ``obj`` from."""
    found = [module]
    for other in list(sys.modules.values()):
        if other is module or not getattr(other, "__name__", "").startswith(PACKAGE + "."):
            continue
        if getattr(other, name, _ABSENT) is obj:
            found.append(other)
    return found


_ABSENT = object()


def _canonical_names(module: ModuleType, name: str, obj: Any) -> list[str]:
    """Where else the site may describe ``obj``: its defining ``module.qualname`` (autodoc's
    canonical name of a re-exported class), or the same name in another of the package's modules
    that holds the same object (a re-exported function or constant)."""
    names = [f"{m.__name__}.{name}" for m in _defining_modules(module, name, obj)]
    if inspect.ismodule(obj):
        names.append(obj.__name__)
    owner, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if _is_code(obj) and isinstance(owner, str) and isinstance(qualname, str):
        names.append(f"{owner}.{qualname}")
    return names


def check_public_api(app: Any, exception: BaseException | None) -> None:
    """``build-finished``: warn once per public name the site leaves undocumented. Run at the end
    of every build, so that an incremental build that read no page still checks the code."""
    if exception is None:
        for line in missing(PUBLIC_MODULES, app.env.get_domain("py").objects):
            logger.warning(line, type="public_api", subtype="undocumented")


# ------------------------------------------------------------------------ docstring conventions
def prose_attribute_docstring(
    app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """``autodoc-process-docstring``, before napoleon: an attribute's first line is never read
    as ``type: description`` (an empty type goes first)."""
    ours = what in ("attribute", "data", "property") and name.startswith(PACKAGE + ".")
    if ours and lines and getattr(app.config, "napoleon_google_docstring", False):
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is not None:
            lines[first] = ":" + lines[first].lstrip()


def config_section(app: Any, config: Any) -> None:
    """``config-inited``: a ``Config:`` section (a game's keyword arguments) reads like
    ``Args:``."""
    sections = list(getattr(config, "napoleon_custom_sections", None) or [])
    if not any(s == "Config" or (isinstance(s, tuple) and s[0] == "Config") for s in sections):
        config.napoleon_custom_sections = [*sections, ("Config", "params_style")]


def setup(app: Any) -> dict[str, Any]:
    app.connect("config-inited", config_section)
    app.connect("autodoc-process-docstring", prose_attribute_docstring, priority=400)
    app.connect("build-finished", check_public_api)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
