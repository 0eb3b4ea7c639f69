"""The package split (issue 12) must not change a single game: fixed-seed random games hash to
the values recorded before the refactor, for every registered test config and for landing
model v1.

Each full hash covers, at every step: the state dict (keys in order), every seat's observation,
the legal mask, the contextual names of the legal actions, the action taken; and the returns.
Regenerate (only for a deliberate rules change) with
``python tests/castle_flutterstone/test_same_games.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from boardgames_rl.registry import game_spec, make_game
from boardgames_rl.testing.random_play import full_trajectory_hash, trajectory_hash

FIXTURE = Path(__file__).parent / "data" / "trajectory_hashes.json"
V1_CONFIGS = (
    {"landing_model": "v1"},
    {"landing_model": "v1", "num_players": 4, "pesky_ghosts": True, "play_on": True},
)
SEEDS = (0, 1, 2)


def configs() -> list[dict]:
    return [dict(c) for c in game_spec("castle_flutterstone").test_configs] + [
        dict(c) for c in V1_CONFIGS
    ]


def record() -> dict[str, dict[str, list[str]]]:
    out = {}
    for config in configs():
        game = make_game("castle_flutterstone", **config)
        out[json.dumps(config, sort_keys=True)] = {
            "trajectory_hash": [trajectory_hash(game, s) for s in SEEDS],
            "full_hash": [full_trajectory_hash(game, s) for s in SEEDS],
        }
    out["setup"] = setup_hashes()
    return out


def setup_hashes() -> list[str]:
    """Random games from hand-made positions (``FlutterstoneState.setup``)."""
    from boardgames_rl.games.castle_flutterstone.state import FlutterstoneState

    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    positions = [
        FlutterstoneState.setup(game, [3, 7, 12], turn_player=1, seed=4),
        FlutterstoneState.setup(
            game,
            [0, 14, 20],
            helpful=[[1, 0, 1], [0, 2, 0], [0, 0, 0]],
            helpful_new=[[0, 1, 0], [0, 0, 0], [1, 0, 0]],
            pesky=[[False, False, True], [True, False, False], [False] * 3],
            ghost_giver=[2, -1, -1],
            seed=7,
        ),
        FlutterstoneState.setup(game, [0, 0, 0], draw_pile=[4, 0, 5], seed=1),
    ]
    return [full_trajectory_hash(game, i, s) for i, s in enumerate(positions)]


@pytest.mark.parametrize("config", configs(), ids=lambda c: json.dumps(c, sort_keys=True))
def test_fixed_seed_games_are_unchanged(config):
    """Same seed -> identical trajectories, observations, masks, action names and to_dict
    output as before the package split, for landing models v2 and v1."""
    expected = json.loads(FIXTURE.read_text())[json.dumps(config, sort_keys=True)]
    game = make_game("castle_flutterstone", **config)
    assert [trajectory_hash(game, s) for s in SEEDS] == expected["trajectory_hash"]
    assert [full_trajectory_hash(game, s) for s in SEEDS] == expected["full_hash"]


def test_games_from_hand_made_positions_are_unchanged():
    """``setup`` positions play out exactly as before the package split."""
    assert setup_hashes() == json.loads(FIXTURE.read_text())["setup"]


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(record(), indent=1) + "\n")
    sys.exit(0)
