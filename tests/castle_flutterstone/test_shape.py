"""The game's shape inside (issue 41): the text and picture never import the AI, the docs'
figures are never imported by the engine, and the legality rules live in ``legal``."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

import boardgames_rl.games.castle_flutterstone as package
from boardgames_rl.games.castle_flutterstone import legal
from boardgames_rl.games.castle_flutterstone.scenario import build
from boardgames_rl.registry import make_game

ROOT = Path(package.__file__).parent
PREFIX = "boardgames_rl.games.castle_flutterstone."


def _imports(module: str) -> set[str]:
    """The game's own modules ``module`` imports (at any depth of its code), by dotted name
    relative to the package."""
    path = ROOT / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = ROOT / module.replace(".", "/") / "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(PREFIX):
                out.add(node.module[len(PREFIX) :])
            elif node.module == PREFIX[:-1]:
                out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name[len(PREFIX) :] for a in node.names if a.name.startswith(PREFIX))
    return out


def _reached(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(_imports(module))
    return seen


def test_the_walk_finds_imports_so_it_can_fail():
    assert "ai.flicks" in _reached("ai.agent")
    assert "flick_values" in _reached("render")


def test_render_never_imports_the_ai():
    reached = _reached("render")
    assert not [m for m in reached if m == "ai" or m.startswith("ai.")], reached


def test_the_engine_never_imports_the_docs_figures():
    for start in ("state", "game", "render", "legal", "observation", "infoset", "scenario"):
        assert "plots" not in _reached(start), start


def test_the_engine_asks_legal_for_the_cards_a_turn_opens_with_and_who_gets_a_pesky_card():
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    state = build(game, positions=[4, 7, 0], cards={0: ["Ghost jump"], 1: ["Ghost jump"]})
    assert legal.card_playable(state, 0, 2) and legal.can_play_a_card(state, 0)
    assert not legal.can_play_a_card(state, 1)  # the leader has no figure ahead to jump to
    assert not legal.can_receive(state, 0, 3)  # the turn player never receives
    assert legal.can_receive(state, 1, 3)
    mask = legal.legal_mask(state)
    assert mask[game.layout.play + 2] and mask[game.layout.end_play]
    assert not mask.flags.writeable and mask.dtype == np.bool_


def test_the_agents_read_the_typed_view_not_the_engines_dict():
    """The heuristic and the solver decide from ``info_set.view`` (a frozen dataclass built
    once per info set): with the engine's ``knowledge`` dict emptied they choose the same."""
    import dataclasses

    import pytest

    from boardgames_rl.games.castle_flutterstone.ai import CastleFlutterstoneHeuristic
    from boardgames_rl.games.castle_flutterstone.ai.race_agent import build_solver

    game = make_game(
        "castle_flutterstone", goal=8, bridges=[3], aim_levels=3, force_levels=4, yaws=[-15, 0]
    )
    agents = [CastleFlutterstoneHeuristic(), build_solver(game, cache=False, progress=False)]
    rng = np.random.default_rng(0)
    state = game.new_state(1)
    decisions = 0
    while not state.is_terminal() and decisions < 40:
        info = state.info_set(state.current_player)
        view = info.view
        assert info.view is view  # built once
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.phase = 0  # type: ignore[misc]
        assert view.positions == tuple(state.positions) and view.phase == state.phase
        assert sum(view.draw_pile) == len(state.draw_pile)
        for agent in agents:
            expected = agent.act(info, rng)
            info.knowledge = {}
            assert agent.act(info, rng) == expected
            info.knowledge = state.info_set(state.current_player).knowledge
        state.apply(agents[decisions % 2].act(info, rng))
        decisions += 1


def test_one_class_name_stem_and_the_old_names_still_import():
    from boardgames_rl.games import castle_flutterstone as cf
    from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstone
    from boardgames_rl.games.castle_flutterstone.heuristic import FlutterstoneHeuristic
    from boardgames_rl.games.castle_flutterstone.infoset import FlutterstoneInfoSet
    from boardgames_rl.games.castle_flutterstone.state import FlutterstoneState

    game = make_game("castle_flutterstone")
    state = game.new_state(0)
    assert type(game) is cf.CastleFlutterstoneGame is CastleFlutterstone
    assert type(state) is cf.CastleFlutterstoneState is FlutterstoneState
    assert type(state.info_set(0)) is cf.CastleFlutterstoneInfoSet is FlutterstoneInfoSet
    assert cf.CastleFlutterstoneHeuristic is FlutterstoneHeuristic
    assert type(state.info_set(0).view) is cf.CastleFlutterstoneView
    stems = {name for name in cf.__all__ if name.startswith("CastleFlutterstone")}
    assert stems == {
        "CastleFlutterstone",  # the deprecated alias of CastleFlutterstoneGame
        "CastleFlutterstoneGame",
        "CastleFlutterstoneHeuristic",
        "CastleFlutterstoneInfoSet",
        "CastleFlutterstoneState",
        "CastleFlutterstoneView",
    }


def test_the_decision_kinds_are_an_enum_and_the_state_keeps_plain_ints():
    import marshal

    from boardgames_rl.games.castle_flutterstone.data import PHASES, Phase

    assert [p.name.lower() for p in Phase] == [*PHASES, "over"]
    state = make_game("castle_flutterstone").new_state(0)
    assert type(state.phase) is int and Phase(state.phase) is Phase.FLICK
    assert state.info_set(0).view.phase is Phase.FLICK
    marshal.dumps(state.to_dict(), 2)  # plain data: an enum member would not marshal
