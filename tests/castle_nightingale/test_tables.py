"""Explicit dispatch tables (issue 12 point 3): every decision kind, stage and task is reached
through a table, and the engine's, legality, naming and heuristic tables name the same kinds.

Tables: ``state.DECISION_PLAYER`` (kind -> deciding seat; ``DECISIONS`` is its key order, the
observation's ``decision`` field), ``CastleNightingaleState.ON_DECISION`` / ``STAGES`` / ``TASKS``,
``legal.LEGAL``, ``naming.NAMING``, ``NinjaPolicy.HANDLERS`` and ``SamuraiPolicy.HANDLERS``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.games import castle_nightingale
from boardgames_rl.games.castle_nightingale.ai.ninja import NinjaPolicy
from boardgames_rl.games.castle_nightingale.ai.samurai import SamuraiPolicy
from boardgames_rl.games.castle_nightingale.data import NINJA, SAMURAI
from boardgames_rl.games.castle_nightingale.legal import LEGAL
from boardgames_rl.games.castle_nightingale.naming import NAMING
from boardgames_rl.games.castle_nightingale.state import (
    DECISION_PLAYER,
    DECISIONS,
    CastleNightingaleState,
)
from boardgames_rl.registry import game_spec, make_game

GAMES_PER_CONFIG = 60


def test_decision_tables_name_the_same_kinds_in_the_same_order():
    """The engine's handlers, the legality rules and the action names cover exactly the decision
    kinds, in the order of the observation's ``decision`` field."""
    assert tuple(DECISION_PLAYER) == DECISIONS
    assert len(set(DECISIONS)) == len(DECISIONS) == 50
    assert tuple(CastleNightingaleState.ON_DECISION) == DECISIONS
    assert tuple(LEGAL) == DECISIONS
    assert tuple(NAMING) == DECISIONS


def test_heuristic_tables_hold_every_kind_of_their_seat():
    """Each policy has a rule for every decision its seat makes, and for no other."""
    assert set(NinjaPolicy.HANDLERS) == {k for k, p in DECISION_PLAYER.items() if p == NINJA}
    assert set(SamuraiPolicy.HANDLERS) == {k for k, p in DECISION_PLAYER.items() if p == SAMURAI}
    for table in (NinjaPolicy.HANDLERS, SamuraiPolicy.HANDLERS):
        assert all(callable(h) for h in table.values())


@pytest.fixture(scope="module")
def reached() -> dict[str, set[str]]:
    """Decision kinds, stages and tasks reached in seeded random play over every test config
    (the stage and task tables wrapped to record each call)."""
    seen: dict[str, set[str]] = {"kinds": set(), "stages": set(), "tasks": set()}
    stages, tasks = dict(CastleNightingaleState.STAGES), dict(CastleNightingaleState.TASKS)

    def stage(name, fn):
        return lambda s: (seen["stages"].add(name), fn(s))[1]

    def task(name, fn):
        return lambda s, arg: (seen["tasks"].add(name), fn(s, arg))[1]

    with pytest.MonkeyPatch.context() as mp:
        for name, fn in stages.items():
            mp.setitem(CastleNightingaleState.STAGES, name, stage(name, fn))
        for name, fn in tasks.items():
            mp.setitem(CastleNightingaleState.TASKS, name, task(name, fn))
        for config in game_spec("castle_nightingale").test_configs:
            game = make_game("castle_nightingale", **config)
            for seed in range(GAMES_PER_CONFIG):
                state = game.new_state(seed)
                rng = np.random.default_rng(seed)
                while not state.is_terminal():
                    seen["kinds"].add(state.decision["kind"])
                    state.apply(int(rng.choice(state.legal_actions())))
    return seen


def test_every_kind_reached_in_random_play_is_in_every_table(reached):
    """Random play reaches every decision kind, and each one it reaches has a handler, a legality
    rule, action names and a heuristic rule."""
    heuristic = set(NinjaPolicy.HANDLERS) | set(SamuraiPolicy.HANDLERS)
    for table in (DECISION_PLAYER, CastleNightingaleState.ON_DECISION, LEGAL, NAMING, heuristic):
        assert reached["kinds"] <= set(table)
    assert reached["kinds"] == set(DECISIONS)


def test_every_stage_and_task_is_in_its_table_and_reached(reached):
    """The stage and task tables hold every stage and task the engine runs, and nothing that
    random play never runs."""
    assert reached["stages"] == set(CastleNightingaleState.STAGES)
    assert reached["tasks"] == set(CastleNightingaleState.TASKS)


def test_no_handler_is_found_by_building_its_name():
    """No ``getattr(self, f"_on_{kind}")``-style lookups are left in the game's code."""
    root = Path(castle_nightingale.__file__).parent
    pattern = re.compile(r"getattr\(\s*self\s*,\s*f[\"']")
    offenders = [
        str(p.relative_to(root)) for p in root.rglob("*.py") if pattern.search(p.read_text())
    ]
    assert offenders == []
