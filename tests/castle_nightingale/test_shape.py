"""The package's shape (issue 41): the text and picture views never reach the AI, and what ``?``
says is written in one module (``rules_help``), not beside the action names."""

from __future__ import annotations

import ast
from importlib import import_module
from pathlib import Path

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
