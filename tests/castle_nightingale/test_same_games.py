"""The heuristic split and the explicit dispatch tables (issue 12 points 3 and 6) must not change a
single game: fixed-seed random games and heuristic-vs-heuristic games hash to the values recorded
before the refactor.

* ``trajectory_hash`` (``boardgames_rl.testing.random_play``) for three seeds of every registered
  test config, and a fuller hash that adds, at every step, both seats' observations, the legal
  mask and the contextual names of the legal actions.
* ``evaluate`` (ISMCTS cut-offs) and the shaping ``potential``: the exact bytes of their values
  on 300 random-play states per test config.
* The heuristic: ``HEURISTIC_GAMES`` seeded games of the heuristic against itself per board side
  (side A default rules, side B with every variant flag); per seat, a hash of the decision kinds
  and actions it chose, and the number of times it fell back to a random action (0).

Regenerate (only for a deliberate rules or heuristic change) with
``python tests/castle_nightingale/test_same_games.py``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.games.castle_nightingale.heuristic import CastleNightingaleHeuristic, evaluate
from boardgames_rl.games.castle_nightingale.shaping import potential
from boardgames_rl.registry import game_spec, make_game
from boardgames_rl.testing.random_play import full_trajectory_hash, trajectory_hash, value_hashes

NAME = "castle_nightingale"
FIXTURE = Path(__file__).parent / "data" / "same_games.json"
SEEDS = (0, 1, 2)
HEURISTIC_GAMES = 20


def configs() -> list[dict]:
    return [dict(c) for c in game_spec(NAME).test_configs]


def heuristic_configs() -> list[dict]:
    """One config per board side: side A default rules, side B with every variant flag."""
    return [configs()[0], configs()[2]]


def key(config: dict) -> str:
    return json.dumps(config, sort_keys=True)


def heuristic_hashes(config: dict, games: int = HEURISTIC_GAMES) -> dict[str, object]:
    """Per seat: SHA-256 of (game seed, decision kind, action) over every decision it made."""
    game = make_game(NAME, **config)
    hashes = [hashlib.sha256(), hashlib.sha256()]
    agents = [CastleNightingaleHeuristic(), CastleNightingaleHeuristic()]
    returns = []
    for seed in range(games):
        state = game.new_state(seed)
        rngs = [np.random.default_rng([seed, p]) for p in range(2)]
        for agent in agents:
            agent.reset()
        while not state.is_terminal():
            p = state.current_player
            kind = state.decision["kind"]
            a = int(agents[p].act(state.info_set(p), rngs[p]))
            hashes[p].update(f"{seed}:{kind}:{a};".encode())
            state.apply(a)
        returns.append(state.returns().tolist())
    return {
        "seat_hash": [h.hexdigest() for h in hashes],
        "returns": returns,
        "fallbacks": [a.fallbacks for a in agents],
    }


def record() -> dict[str, object]:
    out: dict[str, object] = {}
    for config in configs():
        game = make_game(NAME, **config)
        out[key(config)] = {
            "trajectory_hash": [trajectory_hash(game, s) for s in SEEDS],
            "full_hash": [full_trajectory_hash(game, s) for s in SEEDS],
            "values": value_hashes(game, evaluate, potential, 300),
        }
    out["heuristic"] = {key(c): heuristic_hashes(c) for c in heuristic_configs()}
    return out


def expected() -> dict:
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("config", configs(), ids=key)
def test_fixed_seed_random_games_are_unchanged(config):
    """Same seed -> identical trajectories, observations, masks, action names and to_dict output
    as before the refactor."""
    want = expected()[key(config)]
    game = make_game(NAME, **config)
    assert [trajectory_hash(game, s) for s in SEEDS] == want["trajectory_hash"]
    assert [full_trajectory_hash(game, s) for s in SEEDS] == want["full_hash"]


@pytest.mark.parametrize("config", configs(), ids=key)
def test_evaluate_and_potential_values_are_unchanged(config):
    """``evaluate`` and ``potential`` now come from one value function: on random-play states they
    give exactly (bit for bit) the values they gave before."""
    assert (
        value_hashes(make_game(NAME, **config), evaluate, potential, 300)
        == expected()[key(config)]["values"]
    )


@pytest.mark.parametrize("config", heuristic_configs(), ids=key)
def test_fixed_seed_heuristic_games_are_unchanged(config):
    """Same seed -> the heuristic makes the same decisions as before the refactor, for both
    seats, and never falls back to a random action."""
    got = heuristic_hashes(config)
    assert got == expected()["heuristic"][key(config)]
    assert got["fallbacks"] == [0, 0]


if __name__ == "__main__":
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(record(), indent=1) + "\n")
    sys.exit(0)
