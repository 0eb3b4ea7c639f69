"""The package's shape (issue 41): the text and picture views never reach the AI, what ``?`` says
is written in one module (``rules_help``), not beside the action names, the heuristic reads the
typed view of an info set, and the classes share one name stem (old names kept, warning)."""

from __future__ import annotations

import ast
import dataclasses
import re
from importlib import import_module
from pathlib import Path

import pytest

import boardgames_rl.games.castle_nightingale as package
from boardgames_rl.games.castle_nightingale import naming

PACKAGE = Path(package.__file__).parent
PREFIX = "boardgames_rl.games.castle_nightingale"


def _imports(module: str) -> set[str]:
    """The game's modules ``module`` imports (at any depth in its file, typing blocks included)."""
    path = PACKAGE.joinpath(*module.split(".")).with_suffix(".py")
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PREFIX):
            base = node.module[len(PREFIX) + 1 :]
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                inner = PACKAGE.joinpath(*sub.split("."))
                found.add(sub if inner.with_suffix(".py").exists() or inner.is_dir() else base)
    return {m for m in found if m}


def _reach(module: str) -> set[str]:
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(
            _imports(
                name
                if PACKAGE.joinpath(*name.split(".")).with_suffix(".py").exists()
                else f"{name}.__init__"
            )
        )
    return seen


def test_render_never_reaches_the_ai():
    reached = _reach("render")
    assert "state" in reached and "naming" in reached  # the walk follows imports
    assert not [m for m in reached if m == "ai" or m.startswith("ai.")], sorted(reached)


def test_rules_help_is_written_once():
    # (``from package import rules_help`` would give the function the package re-exports)
    rules_help = import_module(f"{PREFIX}.rules_help")
    assert callable(rules_help.rules_help) and package.SPEC.rules_help is rules_help.rules_help
    assert not hasattr(naming, "rules_help") and not hasattr(naming, "TURN_OUTLINE")


def test_the_ai_reads_the_typed_view_never_the_state_dict():
    """Issue 41: the heuristic reads ``info_set.view`` (a frozen dataclass built once per info
    set), never the engine's ``knowledge`` dict."""
    for path in sorted((PACKAGE / "ai").glob("*.py")):
        source = path.read_text()
        assert not re.search(r"\b(info|info_set)\.knowledge\b|k\[\"", source), path.name
    from boardgames_rl.games.castle_nightingale.infoset import (
        CastleNightingaleInfoSet,
        CastleNightingaleView,
        TurnFlags,
    )

    state = package.CastleNightingale().new_state(3)
    for _ in range(40):
        state.apply(int(state.legal_actions()[0]))
    info = state.info_set(state.current_player)
    assert isinstance(info, CastleNightingaleInfoSet)
    view = info.view
    assert isinstance(view, CastleNightingaleView) and info.view is view  # built once
    assert isinstance(view.flags, TurnFlags) and view.flags.entries == state.flags["entries"]
    assert view.player == state.current_player and view.decision == state.decision
    assert view.discs == state.discs and view.closed == state.closed
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    "module, old, new",
    [
        ("state", "NightingaleState", "CastleNightingaleState"),
        ("infoset", "NightingaleInfoSet", "CastleNightingaleInfoSet"),
        ("heuristic", "NightingaleHeuristic", "CastleNightingaleHeuristic"),
        ("ai", "NightingaleHeuristic", "CastleNightingaleHeuristic"),
        ("ai.agent", "NightingaleHeuristic", "CastleNightingaleHeuristic"),
    ],
)
def test_the_old_class_names_still_import_with_a_warning(module, old, new):
    mod = import_module(f"{PREFIX}.{module}")
    with pytest.warns(DeprecationWarning, match=new):
        assert getattr(mod, old) is getattr(mod, new)
    with pytest.raises(AttributeError):
        _ = mod.NightingaleNothing
