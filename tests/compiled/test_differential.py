"""The compiled and the pure-Python engines play the same games (issue 44, deliverable 2).

Every game and player count (and each variant that changes the rules) plays the same seeded
random games in both builds, in two processes, comparing at every step the player on move, the
mask, the rewards, every seat's observation, the state vector, ``to_dict`` and an information-set
sample (:mod:`boardgames_rl.testing.differential`). The lab's ``lab/benchmarks/differential.py``
runs a million steps a game; this is the short run.
"""

from __future__ import annotations

import os

import pytest

from boardgames_rl.compiled import PURE_ENV, build_info
from boardgames_rl.testing.differential import compare_builds, first_difference, trace

SETUPS = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_flutterstone", {"num_players": 3}),
    ("castle_flutterstone", {"num_players": 4, "pesky_ghosts": True}),
    ("castle_flutterstone", {"num_players": 2, "landing_model": "v1"}),
    ("castle_nightingale", {}),
    ("castle_nightingale", {"side": "B"}),
    ("night_of_the_ninja", {"num_players": 4}),
    ("night_of_the_ninja", {"num_players": 6}),
    ("night_of_the_ninja", {"num_players": 9}),
    ("night_of_the_ninja", {"num_players": 11}),
    ("white_castle", {"num_players": 2}),
    ("white_castle", {"num_players": 3}),
    ("white_castle", {"num_players": 4}),
]


@pytest.mark.skipif(
    os.environ.get(PURE_ENV) == "1", reason="a pure-build session: no compiled build to compare"
)
@pytest.mark.parametrize(("name", "config"), SETUPS, ids=lambda v: str(v))
def test_both_builds_play_the_same_games(name, config):
    result = compare_builds(name, config, seed=11, steps=1200, timeout=600)
    assert result.same, result.line()
    assert result.games >= 2, result.line()


def test_a_difference_is_found():
    """The comparison can fail: two different seeds are two different games, named by seed."""
    a = trace("white_castle", {"num_players": 2}, seed=0, steps=150)
    b = trace("white_castle", {"num_players": 2}, seed=1, steps=150)
    assert first_difference(a, a) is None
    found = first_difference(a, b)
    assert found is not None and found["seed"] == 0
    cut = dict(a, games=a["games"][:-1])
    assert first_difference(a, cut) == {"games": [len(a["games"]), len(a["games"]) - 1]}


def test_the_trace_is_this_process_build_and_repeats():
    once = trace("castle_flutterstone", {"num_players": 3}, seed=5, steps=200, per_step=True)
    again = trace("castle_flutterstone", {"num_players": 3}, seed=5, steps=200, per_step=True)
    assert once["build"] == build_info()["build"]
    assert once["games"] == again["games"]
    assert sum(g["steps"] for g in once["games"]) == once["steps"] == 200
    assert all(len(g["steps_sha"]) == g["steps"] for g in once["games"])
