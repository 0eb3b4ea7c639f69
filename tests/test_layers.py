"""The package is layered, and the layers are acyclic (this test reads every import statement).

    core  <-  games  <-  registry  <-  {envs, agents}  <-  arena  <-  training  <-  cli

A module may import its own layer and the layers below it; ``envs`` and ``agents`` are siblings
and do not import each other; ``testing`` may import anything below ``cli``; nothing imports
``testing`` or ``cli``. The contract (``core``) imports numpy and the standard library only at
module level (optional packages only inside the function that needs them), and the games never
import gymnasium or pettingzoo. The top-level ``boardgames_rl/__init__.py`` is the public API
above ``envs`` and ``agents``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "boardgames_rl"

RANK = {
    "_util": -1,
    "core": 0,
    "games": 1,
    "registry": 2,
    "envs": 3,
    "agents": 3,
    "api": 3.5,  # boardgames_rl/__init__.py
    "arena": 4,
    "training": 5,
    "testing": 5.5,
    "interop": 5,
    "cli": 6,
}
SIBLINGS = {frozenset({"envs", "agents"})}
SPEC_STRINGS = ("boardgames_rl/envs/single_agent.py", "boardgames_rl.agents.registry")
"""The one call across the siblings: ``SingleAgentEnv(opponents="heuristic")`` builds its agents
with the agent registry, imported inside the function that needs it (never at module level)."""
NOT_IMPORTABLE = {"testing", "cli"}  # by any other layer
SCENARIO_HELPERS = "boardgames_rl.testing.scenario"
"""Importable by a game's ``scenario`` module (``boardgames_rl.games.<game>.scenario``)."""


TOP_LEVEL_MODULES = {"registry": "registry", "state_checks": "registry"}
"""Single-file modules directly in ``boardgames_rl/`` and the layer each belongs to."""


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "api"
    return TOP_LEVEL_MODULES.get(parts[1], parts[1])


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    name = ".".join(rel.parts)
    return name.removesuffix(".__init__")


def _imports(path: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every absolute import in ``path``."""
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
            if node.module == "boardgames_rl":  # `from boardgames_rl import games` is a submodule
                for a in node.names:
                    sub = a.name in RANK and a.name != "api"
                    out.append(
                        (f"boardgames_rl.{a.name}" if sub else "boardgames_rl", node.lineno, top)
                    )
            else:
                out.append((node.module, node.lineno, top))
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}:{node.lineno}: use absolute imports")
    return out


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_known_layer() -> None:
    unknown = {_layer(_module_name(p)) for p in MODULES} - set(RANK)
    assert not unknown, f"add these packages to the layer table: {sorted(unknown)}"


def _upward(here: str, imports: list[tuple[str, int, bool]], path: Path = PACKAGE) -> list[str]:
    bad = []
    for target, line, top in imports:
        if not target.startswith("boardgames_rl"):
            continue
        there = _layer(target)
        if there == here:
            continue
        module = _module_name(path) if path.suffix == ".py" else ""
        game_scenario = module.startswith("boardgames_rl.games.") and module.endswith(".scenario")
        if target == SCENARIO_HELPERS and game_scenario:
            continue
        if there in NOT_IMPORTABLE:
            bad.append(f"line {line}: {target} ({there} is imported by nothing)")
        elif frozenset({here, there}) in SIBLINGS:
            if not top and (str(path), target) == (
                str(PACKAGE.parent / SPEC_STRINGS[0]),
                SPEC_STRINGS[1],
            ):
                continue
            bad.append(f"line {line}: {target} ({here} and {there} are siblings)")
        elif RANK[there] > RANK[here]:
            bad.append(f"line {line}: {target} ({there} is above {here})")
    return bad


@pytest.mark.parametrize("path", MODULES, ids=[_module_name(p) for p in MODULES])
def test_imports_respect_the_layers(path: Path) -> None:
    here = _layer(_module_name(path))
    bad = _upward(here, _imports(path), path)
    assert not bad, f"{_module_name(path)} ({here}) imports upward:\n  " + "\n  ".join(bad)


STDLIB = set(sys.stdlib_module_names)


@pytest.mark.parametrize(
    "path",
    [p for p in MODULES if _layer(_module_name(p)) == "core"],
    ids=lambda p: _module_name(p),
)
def test_the_contract_imports_numpy_only(path: Path) -> None:
    bad = [
        f"line {line}: {target}"
        for target, line, top in _imports(path)
        if top
        and target.split(".")[0] not in STDLIB
        and target.split(".")[0] not in {"numpy", "boardgames_rl", "__future__"}
    ]
    assert not bad, f"{_module_name(path)} imports more than numpy at module level: {bad}"


@pytest.mark.parametrize(
    "path",
    [p for p in MODULES if _layer(_module_name(p)) in {"core", "games", "registry"}],
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


def test_the_layer_check_catches_upward_and_sibling_imports() -> None:
    """The checker itself: the imports it must refuse are refused."""
    assert _upward("core", [("boardgames_rl.registry", 1, True)])
    assert _upward("games", [("boardgames_rl.agents.registry", 1, False)])  # lazy imports too
    assert _upward("envs", [("boardgames_rl.agents", 1, True)])
    single_agent = PACKAGE.parent / SPEC_STRINGS[0]
    assert not _upward("envs", [(SPEC_STRINGS[1], 1, False)], single_agent)  # the one exception
    assert _upward("envs", [(SPEC_STRINGS[1], 1, True)], single_agent)  # at module level: no
    assert _upward("envs", [(SPEC_STRINGS[1], 1, False)], PACKAGE / "envs" / "vector.py")
    assert _upward("arena", [("boardgames_rl.testing", 1, True)])
    assert not _upward("arena", [("boardgames_rl.envs.aec", 1, True), ("numpy", 2, True)])
