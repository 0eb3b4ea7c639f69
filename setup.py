"""The compiled build: the rules engines compiled by mypyc from their own (typed) Python source.

``pip install .`` and ``pip install -e .`` run this. The modules in ``COMPILED`` are compiled to C
extension modules beside their ``.py`` files; the package then imports the compiled ones. If the
compiler is missing or a compile fails, the install goes on and the package runs the same ``.py``
files (the pure build), saying why once at import. ``BOARDGAMES_RL_PURE=1`` at install time builds
nothing; at run time it makes the package import the ``.py`` files even where a compiled build
exists (``boardgames_rl/compiled.py``).

A successful build writes ``boardgames_rl/_compiled.json``: the compiler's version and the
sha256 of every compiled module's source. At import, a source that no longer matches (an edited
engine in an editable install) makes the package run the pure build and say so, so an edit is
never silently shadowed by an old compiled copy.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

COMPILED = [
    # The game contract and the plain-data state every engine builds on.
    "boardgames_rl/core/draws.py",
    "boardgames_rl/core/game.py",
    "boardgames_rl/core/plain_state.py",
    "boardgames_rl/core/record.py",
    # The search agents' inner loops: the ISMCTS tree and the playouts.
    "boardgames_rl/agents/playout.py",
    "boardgames_rl/agents/search_tree.py",
    # Castle Flutterstone's engine, and its value function (ISMCTS's cut-off ``evaluate``).
    "boardgames_rl/games/castle_flutterstone/actions.py",
    "boardgames_rl/games/castle_flutterstone/ai/value.py",
    "boardgames_rl/games/castle_flutterstone/flight.py",
    "boardgames_rl/games/castle_flutterstone/infoset.py",
    "boardgames_rl/games/castle_flutterstone/legal.py",
    "boardgames_rl/games/castle_flutterstone/movement.py",
    "boardgames_rl/games/castle_flutterstone/observation.py",
    "boardgames_rl/games/castle_flutterstone/state.py",
    # Castle Nightingale's engine, its value function (ISMCTS's cut-off ``evaluate``) and the
    # heuristic's path search with its geometry (the search's root prior).
    "boardgames_rl/games/castle_nightingale/actions.py",
    "boardgames_rl/games/castle_nightingale/ai/geometry.py",
    "boardgames_rl/games/castle_nightingale/ai/paths.py",
    "boardgames_rl/games/castle_nightingale/ai/value.py",
    "boardgames_rl/games/castle_nightingale/board.py",
    "boardgames_rl/games/castle_nightingale/infoset.py",
    "boardgames_rl/games/castle_nightingale/legal.py",
    "boardgames_rl/games/castle_nightingale/observation.py",
    "boardgames_rl/games/castle_nightingale/paths.py",
    "boardgames_rl/games/castle_nightingale/state.py",
    # Night of the Ninja's engine.
    "boardgames_rl/games/night_of_the_ninja/actions.py",
    # ... and its heuristic's rules, the rollout policy of its ISMCTS (``ai/agent.py`` stays
    # interpreted: the agent is a ``core.agent.Agent``).
    "boardgames_rl/games/night_of_the_ninja/ai/beliefs.py",
    "boardgames_rl/games/night_of_the_ninja/ai/draft.py",
    "boardgames_rl/games/night_of_the_ninja/ai/night.py",
    "boardgames_rl/games/night_of_the_ninja/ai/rollout.py",
    "boardgames_rl/games/night_of_the_ninja/ai/tables.py",
    "boardgames_rl/games/night_of_the_ninja/ai/tricksters.py",
    "boardgames_rl/games/night_of_the_ninja/ai/value.py",
    "boardgames_rl/games/night_of_the_ninja/ai/view.py",
    "boardgames_rl/games/night_of_the_ninja/cards.py",
    "boardgames_rl/games/night_of_the_ninja/events.py",
    "boardgames_rl/games/night_of_the_ninja/infoset.py",
    "boardgames_rl/games/night_of_the_ninja/legal.py",
    "boardgames_rl/games/night_of_the_ninja/observation.py",
    "boardgames_rl/games/night_of_the_ninja/state.py",
    # The White Castle's engine, with its data tables and effect constructors (``data.py``) and
    # its value function, ISMCTS's cut-off ``evaluate`` (``ai/agent.py`` stays interpreted: the
    # agent is a ``core.agent.Agent``; ``ai/lookahead.py`` serves its root prior only, not the
    # search's iterations).
    "boardgames_rl/games/white_castle/actions.py",
    "boardgames_rl/games/white_castle/ai/value.py",
    "boardgames_rl/games/white_castle/data.py",
    "boardgames_rl/games/white_castle/infoset.py",
    "boardgames_rl/games/white_castle/legal.py",
    "boardgames_rl/games/white_castle/observation.py",
    "boardgames_rl/games/white_castle/scoring.py",
    "boardgames_rl/games/white_castle/state.py",
]
"""The modules compiled, as paths from the repository's root."""

NATIVE = ["boardgames_rl/core/native_draws.c", "boardgames_rl/core/native_masks.c"]
"""C helpers built with the compiled modules (not from Python source): ``core.draws``' draws from
a numpy bit generator through its capsule, numpy's own algorithms without a ctypes call per word
(``native_draws.c`` says why), and ``core.masks``' listing of a byte mask's legal actions. The
package uses them only in the compiled build."""


def groups(paths: list[str]) -> list[tuple[list[str], str]]:
    """One mypyc group per game, one for ``core`` and one for ``agents``: each group is one C
    extension, so the compiler runs on the groups in parallel (``build_ext --parallel``), and an
    edit to one game
    recompiles that game only. Calls across groups go through a table of function pointers (the
    compile times and steps per second, before and after: CHANGELOG, "Compiled engines, second
    step")."""
    by_name: dict[str, list[str]] = {}
    for path in paths:
        parts = path.split("/")
        name = parts[2] if parts[1] == "games" else parts[1]
        by_name.setdefault(name, []).append(path)
    return [(members, f"boardgames_rl_{name}") for name, members in by_name.items()]


MANIFEST = "boardgames_rl/_compiled.json"


def _pure_requested() -> bool:
    value = os.environ.get("BOARDGAMES_RL_PURE", "")
    if value not in ("", "0", "1"):
        sys.exit(f"BOARDGAMES_RL_PURE must be 1 (pure Python) or 0 / unset, got {value!r}")
    return value == "1"


def _say(message: str) -> None:
    print(f"boardgames-rl: {message}", file=sys.stderr, flush=True)


_MADE: list = []


def _extensions() -> list:
    """mypyc's extension modules for ``COMPILED`` (made once per process), or none (the pure
    build) with the reason said."""
    if not _MADE:
        _MADE.append(_make_extensions())
    return _MADE[0]


def _make_extensions() -> list:
    if _pure_requested():
        _say("BOARDGAMES_RL_PURE=1: building the pure-Python package only")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as e:  # pragma: no cover - the build requirements bring mypy
        _say(f"mypyc is not importable ({e}); building the pure-Python package only")
        return []
    try:
        # -O2 rather than mypyc's default -O3: the same speed here, and the compiler is ~15% faster;
        # debug level 0: no C debug symbols (Python tracebacks keep their lines either way).
        engines = mypycify(COMPILED, opt_level="2", debug_level="0", separate=groups(COMPILED))
    except (Exception, SystemExit) as e:  # mypyc exits on type errors
        _say(f"mypyc could not compile the engines ({e!r}); building the pure-Python package only")
        return []
    helpers = [
        Extension(
            path[: -len(".c")].replace("/", "."),
            [path],
            extra_compile_args=["-O2"],
            **(_npyrandom() if path.endswith("native_draws.c") else {}),
        )
        for path in NATIVE
    ]
    return engines + helpers


def _npyrandom() -> dict:
    """The link to numpy's static library of its distributions (``numpy/random/lib``, shipped
    for compiled callers), where the build's numpy has it: ``native_draws.normals`` calls numpy's
    own standard normal from it. Without it, that one function is left out (``core.draws`` then
    asks the generator, the same draws)."""
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy is a build requirement
        return {}
    lib = Path(numpy.__file__).resolve().parent / "random" / "lib"
    if not (lib / "libnpyrandom.a").is_file():
        _say(f"numpy {numpy.__version__} has no libnpyrandom.a: normals drawn through numpy")
        return {}
    return {
        "library_dirs": [str(lib)],
        "libraries": ["npyrandom", "m"],
        "define_macros": [("BOARDGAMES_RL_NPYRANDOM", "1")],
    }


class BuildExt(build_ext):
    """``build_ext`` that runs mypyc only when extensions are built (not on every call of this
    script: pip calls it three times), never fails the install (a compile error leaves the pure
    build), and on success writes the manifest the package checks at import."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.parallel = os.cpu_count() or 1

    def finalize_options(self) -> None:
        self.distribution.ext_modules = _extensions()
        super().finalize_options()

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as e:  # no compiler, missing headers, a compile error
            _say(f"compiling the engines failed ({e}); installing the pure-Python package only")
            for ext in self.extensions:
                target = Path(self.get_ext_fullpath(ext.name))
                if target.is_file() and not target.is_symlink():
                    target.unlink()
            self.extensions = self.distribution.ext_modules = []
            return
        self._write_manifest()

    def _write_manifest(self) -> None:
        from importlib.metadata import version

        modules = {
            path[: -len(".py")].replace("/", "."): hashlib.sha256(
                (ROOT / path).read_bytes()
            ).hexdigest()
            for path in COMPILED
        }
        modules.update(
            (
                path[: -len(".c")].replace("/", "."),
                hashlib.sha256((ROOT / path).read_bytes()).hexdigest(),
            )
            for path in NATIVE
        )
        text = json.dumps(
            {"compiler": f"mypyc {version('mypy')}", "modules": modules}, indent=1, sort_keys=True
        )
        base = ROOT if self.inplace else Path(self.build_lib)
        target = base / MANIFEST
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(text + "\n")
        os.replace(tmp, target)


# A stand-in, replaced by mypyc's extensions when build_ext runs: it marks the wheel as holding
# compiled code and makes setuptools call build_ext.
PLACEHOLDER = Extension("boardgames_rl._engines", sources=[])

setup(ext_modules=[PLACEHOLDER], cmdclass={"build_ext": BuildExt})
