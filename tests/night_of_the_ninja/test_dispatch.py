"""The explicit dispatch tables of Night of the Ninja agree (issue 12 point 3).

The engine (``NightOfTheNinjaState.STAGE_RUNNERS`` / ``DECISION_HANDLERS``), the legality table
(``legal.LEGAL_ACTIONS``), the naming table (``naming.NAMING``) and the heuristic's table
(``NightOfTheNinjaHeuristic.DECISION_RULES``) hold the same decision kinds, those of
``state.DECISIONS``; no handler method is left out of its table; and every decision kind and
engine stage reached in seeded random play at 4, 5, 7 and 11 players and in round mode is in
all of them, is answered by the heuristic with a legal action, and names its legal actions
distinctly.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.games.night_of_the_ninja.heuristic import NightOfTheNinjaHeuristic
from boardgames_rl.games.night_of_the_ninja.legal import LEGAL_ACTIONS
from boardgames_rl.games.night_of_the_ninja.naming import NAMING
from boardgames_rl.games.night_of_the_ninja.state import DECISIONS, NightOfTheNinjaState
from boardgames_rl.registry import make_game
from boardgames_rl.testing.random_play import random_action

CONFIGS = (
    {"num_players": 4},
    {"num_players": 5},
    {"num_players": 7},
    {"num_players": 11},
    {"num_players": 6, "mode": "round"},
)
GAMES = 12
ROUND_MODE_UNREACHABLE = {"thief_target", "sm_swap"}
"""Kinds that need Honor tokens from an earlier round (a Thief needs a player holding more
tokens than it, a Spirit Merchant's swap two players holding tokens): never in round mode."""

TABLES = {
    "state.DECISION_HANDLERS": NightOfTheNinjaState.DECISION_HANDLERS,
    "legal.LEGAL_ACTIONS": LEGAL_ACTIONS,
    "naming.NAMING": NAMING,
    "heuristic.DECISION_RULES": NightOfTheNinjaHeuristic.DECISION_RULES,
}


def key(config: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items())


def methods(cls, prefix: str) -> set:
    """The functions defined in ``cls`` whose name starts with ``prefix``."""
    return {f for name, f in vars(cls).items() if name.startswith(prefix) and callable(f)}


def test_every_table_has_exactly_the_decision_kinds():
    """The decision kinds, the engine's handlers, the legality, naming and heuristic tables hold
    the same set of kinds."""
    assert len(set(DECISIONS)) == len(DECISIONS)
    for name, table in TABLES.items():
        assert set(table) == set(DECISIONS), name


def test_no_handler_method_is_left_out_of_its_table():
    """Every ``_stage_*`` / ``_on_*`` method of the state is in ``STAGE_RUNNERS`` /
    ``DECISION_HANDLERS`` (under its own name), and every table entry is such a method."""
    runners = NightOfTheNinjaState.STAGE_RUNNERS
    assert set(runners.values()) == methods(NightOfTheNinjaState, "_stage_")
    assert all(f.__name__ == f"_stage_{stage}" for stage, f in runners.items())
    handlers = NightOfTheNinjaState.DECISION_HANDLERS
    assert set(handlers.values()) == methods(NightOfTheNinjaState, "_on_")
    assert all(f.__name__ == f"_on_{kind}" for kind, f in handlers.items())
    rules = NightOfTheNinjaHeuristic.DECISION_RULES
    assert all(f.__name__ == f"_{kind}" for kind, f in rules.items())
    assert all(f is getattr(NightOfTheNinjaHeuristic, f.__name__) for f in rules.values())


def play_and_collect(config: dict, monkeypatch) -> tuple[set[str], set[str]]:
    """Decision kinds and engine stages reached in ``GAMES`` seeded random games; at the first
    decision of each kind the heuristic answers and the legal actions' names are checked."""
    stages: set[str] = set()

    def recording(stage, runner):
        def run(state):
            stages.add(stage)
            runner(state)

        return run

    table = NightOfTheNinjaState.STAGE_RUNNERS
    monkeypatch.setattr(
        NightOfTheNinjaState, "STAGE_RUNNERS", {k: recording(k, f) for k, f in table.items()}
    )
    game = make_game("night_of_the_ninja", **config)
    agent = NightOfTheNinjaHeuristic(samples=8)
    kinds: set[str] = set()
    for seed in range(GAMES):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            kind = state.decision["kind"]
            for name, table in TABLES.items():
                assert kind in table, (name, kind)
            if kind not in kinds:
                kinds.add(kind)
                legal = [int(a) for a in state.legal_actions()]
                names = [state.action_name(a) for a in legal]
                assert len(set(names)) == len(names), (kind, names)
                p = state.current_player
                assert int(agent.act(state.info_set(p), np.random.default_rng(seed))) in legal
            state.apply(random_action(state, rng))
    assert agent.fallbacks == 0
    return kinds, stages


@pytest.mark.parametrize("config", CONFIGS, ids=key)
def test_every_kind_reached_in_random_play_is_in_every_table(config, monkeypatch):
    """Seeded random play reaches every decision kind (in round mode every one that does not need
    tokens from an earlier round) and every engine stage; each is in all the tables."""
    kinds, stages = play_and_collect(config, monkeypatch)
    missing = set(DECISIONS) - kinds
    if config.get("mode") == "round":
        assert missing == ROUND_MODE_UNREACHABLE
    else:
        assert missing == set()
    assert stages == set(NightOfTheNinjaState.STAGE_RUNNERS)
