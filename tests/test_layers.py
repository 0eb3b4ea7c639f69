"""The package is layered, and its modules import each other without circles (this test reads
every import statement, at module level and inside functions alike).

    _util  <-  core  <-  games  <-  registry  <-  envs  <-  agents  <-  arena  <-  training  <-  cli

A module may import its own layer and the layers below it. ``interop`` sits above ``arena``,
beside ``training``: neither imports the other. ``testing`` may import anything below ``cli``.
Nothing imports ``testing``, ``interop`` or ``cli``, with one exception: a game's ``scenario``
module builds on ``boardgames_rl.testing.scenario``, which imports only what lies below the games.
Nothing in the package imports the lab (``lab/``, and the old ``benchmarks/``, ``experiments/``).

``envs`` lies below ``agents``: the agents use the policy features of :mod:`boardgames_rl.envs`,
and the envs take ``Agent`` objects. The one call upward: ``SingleAgentEnv(opponents="heuristic")``
turns a spec string into its agent with the agent registry, imported inside the function that
needs it (never at module level).

No circles: the module import graph has no cycle except among the modules of one game package
(``boardgames_rl/games/<game>/``: an engine and its naming, legality and rendering may use each
other), and no module imports another's private (``_``-prefixed) name, outside one game package.

The contract (``core``) and ``_util`` import numpy, ``mypy_extensions`` (the compiler's class
options, ``mypyc_attr``) and the standard library only at module level (optional packages only
inside the function that needs them), and the games never import
gymnasium or pettingzoo. The top-level ``boardgames_rl/__init__.py`` is the public API above
``envs`` and ``agents``; ``boardgames_rl/state_checks.py`` belongs to the registry's layer and
``boardgames_rl/compiled.py`` (which build of the engines runs) to ``_util``'s.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "boardgames_rl"

RANK = {
    "_util": 0,
    "core": 1,
    "games": 2,
    "registry": 3,
    "envs": 4,
    "agents": 5,
    "api": 5.5,  # boardgames_rl/__init__.py
    "arena": 6,
    "training": 7,
    "interop": 7,
    "testing": 8,
    "cli": 9,
}
TOP_LEVEL_MODULES = {"registry": "registry", "state_checks": "registry", "compiled": "_util"}
"""Single-file modules directly in ``boardgames_rl/`` and the layer each belongs to."""
SIBLINGS = {frozenset({"training", "interop"})}
NOT_IMPORTABLE = {"testing", "interop", "cli"}  # by any other layer
LAB = {"lab", "benchmarks", "experiments"}
"""Top-level packages of the lab (never installed): the package imports none of them."""

SPEC_STRINGS = ("boardgames_rl/envs/single_agent.py", "boardgames_rl.agents.registry")
"""The one call upward: ``SingleAgentEnv(opponents="heuristic")`` builds its agents with the
agent registry, imported inside the function that needs it (never at module level)."""
SCENARIO_HELPERS = "boardgames_rl.testing.scenario"
"""Importable by a game's ``scenario`` module (``boardgames_rl.games.<game>.scenario``)."""


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    name = ".".join(rel.parts)
    return name.removesuffix(".__init__")


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "api"
    return TOP_LEVEL_MODULES.get(parts[1], parts[1])


def _game_package(module: str) -> str | None:
    """``boardgames_rl.games.<game>`` for a module of one game package, else None."""
    parts = module.split(".")
    return ".".join(parts[:3]) if len(parts) >= 3 and parts[1] == "games" else None


def _imports(path: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every absolute import in ``path``; ``from a
    import b`` gives ``a.b`` when that is a module of the package, else ``a``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    top_level = {id(node) for node in tree.body}
    for node in tree.body:  # `if TYPE_CHECKING:` / try blocks at module level count as top level
        if isinstance(node, ast.If | ast.Try):
            top_level |= {id(n) for n in ast.walk(node)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno, id(node) in top_level) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = id(node) in top_level
            for a in node.names:
                full = f"{node.module}.{a.name}"
                out.append((full if full in MODULE_NAMES else node.module, node.lineno, top))
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}:{node.lineno}: use absolute imports")
    return out


MODULES = sorted(PACKAGE.rglob("*.py"))
NATIVE_MODULES = {
    _module_name(p) for p in PACKAGE.rglob("*.pyi") if not p.with_suffix(".py").exists()
}
"""Extension modules written in C (``core.native_draws``), known by their stubs: an import of one
is an edge to it, not to its package."""
MODULE_NAMES = {_module_name(p) for p in MODULES} | NATIVE_MODULES


def test_every_module_has_a_known_layer() -> None:
    unknown = {_layer(_module_name(p)) for p in MODULES} - set(RANK)
    assert not unknown, f"add these packages to the layer table: {sorted(unknown)}"


def _upward(
    here: str, imports: list[tuple[str, int, bool]], path: Path = PACKAGE, module: str = ""
) -> list[str]:
    bad = []
    for target, line, top in imports:
        if target.split(".")[0] in LAB:
            bad.append(f"line {line}: {target} (the lab is not part of the package)")
            continue
        if not target.startswith("boardgames_rl"):
            continue
        there = _layer(target)
        if there == here:
            continue
        if target == SCENARIO_HELPERS and module.endswith(".scenario") and _game_package(module):
            continue
        if there in NOT_IMPORTABLE:
            bad.append(f"line {line}: {target} ({there} is imported by nothing)")
        elif frozenset({here, there}) in SIBLINGS:
            bad.append(f"line {line}: {target} ({here} and {there} are siblings)")
        elif RANK[there] > RANK[here]:
            if not top and (str(path), target) == (
                str(PACKAGE.parent / SPEC_STRINGS[0]),
                SPEC_STRINGS[1],
            ):
                continue
            bad.append(f"line {line}: {target} ({there} is above {here})")
    return bad


@pytest.mark.parametrize("path", MODULES, ids=[_module_name(p) for p in MODULES])
def test_imports_respect_the_layers(path: Path) -> None:
    module = _module_name(path)
    here = _layer(module)
    bad = _upward(here, _imports(path), path, module)
    assert not bad, f"{module} ({here}) imports upward:\n  " + "\n  ".join(bad)


def test_the_scenario_helpers_stand_below_the_games() -> None:
    """Games may import :data:`SCENARIO_HELPERS`, so it imports nothing at or above the games."""
    path = PACKAGE / "testing" / "scenario.py"
    bad = [
        f"line {line}: {target}"
        for target, line, _ in _imports(path)
        if target.startswith("boardgames_rl") and RANK[_layer(target)] >= RANK["games"]
    ]
    assert not bad, f"{SCENARIO_HELPERS} imports from the games' layer or above: {bad}"


STDLIB = set(sys.stdlib_module_names)


@pytest.mark.parametrize(
    "path",
    [p for p in MODULES if _layer(_module_name(p)) in {"_util", "core"}],
    ids=lambda p: _module_name(p),
)
def test_the_contract_imports_numpy_only(path: Path) -> None:
    bad = [
        f"line {line}: {target}"
        for target, line, top in _imports(path)
        if top
        and target.split(".")[0] not in STDLIB
        and target.split(".")[0] not in {"numpy", "mypy_extensions", "boardgames_rl", "__future__"}
    ]
    assert not bad, f"{_module_name(path)} imports more than numpy at module level: {bad}"


@pytest.mark.parametrize(
    "path",
    [p for p in MODULES if _layer(_module_name(p)) in {"_util", "core", "games", "registry"}],
    ids=lambda p: _module_name(p),
)
def test_rules_code_never_imports_the_environment_libraries(path: Path) -> None:
    bad = [
        f"line {line}: {target}"
        for target, line, _ in _imports(path)
        if target.split(".")[0] in {"gymnasium", "pettingzoo", "torch", "stable_baselines3"}
    ]
    assert not bad, f"{_module_name(path)}: {bad} (adapters live in boardgames_rl.envs)"


def test_no_module_is_found_by_a_name_built_from_a_string() -> None:
    """Hooks are declared in each game's GameSpec; nothing calls ``import_module(f"...")``."""
    bad = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", None))
                in {"import_module", "__import__"}
                and node.args
                and isinstance(node.args[0], ast.JoinedStr | ast.BinOp)
            ):
                bad.append(f"{_module_name(path)}:{node.lineno}")
    assert not bad, f"module names built from strings: {bad}"


# ------------------------------------------------------------------------------------- circles
def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (at module level or in a function). An import
    of ``a.b.c`` is an edge to ``a.b.c`` (or the nearest enclosing module of the package); the
    packages Python initialises on the way (``a``, ``a.b``) are not edges."""
    graph: dict[str, set[str]] = {}
    for path in MODULES:
        here = _module_name(path)
        edges = graph.setdefault(here, set())
        for target, _, _ in _imports(path):
            while target and target not in MODULE_NAMES:
                target = target.rpartition(".")[0]
            if target and target != here:
                edges.add(target)
    return graph


def import_circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module (each sorted):
    every import circle lies inside one of them (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def _allowed(circle: list[str]) -> bool:
    """A circle among the modules of one game package."""
    packages = {_game_package(m) for m in circle}
    return len(packages) == 1 and None not in packages


def test_no_import_circle_outside_one_game_package() -> None:
    bad = [circle for circle in import_circles(import_graph()) if not _allowed(circle)]
    circles = "\n  ".join(" <-> ".join(c) for c in bad)
    assert not bad, (
        f"modules in an import circle (move what they share into one module):\n  {circles}"
    )


def _private_imports(path: Path) -> list[str]:
    here = _module_name(path)
    bad = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (
            isinstance(node, ast.ImportFrom) and (node.module or "").startswith("boardgames_rl")
        ):
            continue
        for a in node.names:
            module = node.module or ""
            private = a.name.startswith("_") and not a.name.startswith("__")
            same_game = _game_package(here) is not None and _game_package(here) == _game_package(
                module
            )
            if private and module != here and not same_game:
                bad.append(f"line {node.lineno}: {module}.{a.name}")
    return bad


@pytest.mark.parametrize("path", MODULES, ids=[_module_name(p) for p in MODULES])
def test_no_module_imports_another_modules_private_name(path: Path) -> None:
    bad = _private_imports(path)
    assert not bad, f"{_module_name(path)} imports private names (make them public): {bad}"


# --------------------------------------------------------------------------- the checker itself
def test_the_layer_check_catches_upward_and_sibling_imports() -> None:
    """The checker itself: the imports it must refuse are refused."""
    assert _upward("core", [("boardgames_rl.registry", 1, True)])
    assert _upward("_util", [("boardgames_rl.core.errors", 1, False)])  # lazy imports too
    assert _upward("games", [("boardgames_rl.agents.registry", 1, False)])
    assert _upward("envs", [("boardgames_rl.agents", 1, True)])
    assert not _upward("agents", [("boardgames_rl.envs.aec", 1, True)])  # envs lie below
    single_agent = PACKAGE.parent / SPEC_STRINGS[0]
    assert not _upward("envs", [(SPEC_STRINGS[1], 1, False)], single_agent)  # the one exception
    assert _upward("envs", [(SPEC_STRINGS[1], 1, True)], single_agent)  # at module level: no
    assert _upward("envs", [(SPEC_STRINGS[1], 1, False)], PACKAGE / "envs" / "vector.py")
    assert _upward("arena", [("boardgames_rl.testing", 1, True)])
    assert _upward("training", [("boardgames_rl.interop.rllib", 1, False)])  # siblings
    assert _upward("interop", [("boardgames_rl.training.ppo", 1, False)])
    assert _upward("cli", [("boardgames_rl.interop", 1, True)])  # nothing imports interop
    assert _upward("training", [("lab.recipes.train_strong", 1, False)])
    assert _upward("cli", [("benchmarks.throughput", 1, False)])
    assert not _upward("arena", [("boardgames_rl.envs.aec", 1, True), ("numpy", 2, True)])
    assert not _upward("testing", [("boardgames_rl.training.ppo", 1, True)])
    scenario = [(SCENARIO_HELPERS, 1, True)]
    assert not _upward("games", scenario, module="boardgames_rl.games.white_castle.scenario")
    assert _upward("games", scenario, module="boardgames_rl.games.white_castle.state")
    assert _upward("registry", [("boardgames_rl.envs", 1, False)], module="boardgames_rl.registry")
    assert _layer("boardgames_rl.state_checks") == "registry"


def test_the_circle_check_finds_circles_and_allows_them_only_inside_one_game() -> None:
    graph = {
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},
        "d": set(),
        "e": {"e2"},
        "e2": {"e"},
        "f": {"d"},
    }
    assert sorted(import_circles(graph)) == [["a", "b", "c"], ["e", "e2"]]
    assert import_circles({"x": {"y"}, "y": set()}) == []
    game = "boardgames_rl.games.white_castle"
    assert _allowed([f"{game}.state", f"{game}.naming"])
    assert not _allowed([f"{game}.state", "boardgames_rl.games.castle_nightingale.state"])
    assert not _allowed(["boardgames_rl.core.game", "boardgames_rl.core.state_check"])
    assert not _allowed([f"{game}.state", "boardgames_rl.core.game"])
