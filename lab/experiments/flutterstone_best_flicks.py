"""Castle Flutterstone: the best flick in each of the 21 profile x effect situations.

For each skill profile (skilled, average, novice) and each effect (no pesky card, eyes closed,
change hands, both, the ghost figure in window 1, 2 or 3) it prints, as a markdown table, the
flick of the game's action grid with the highest expected progress per shot (a ghost card counted
as 0.8 fields, data sheet 7.8) and its landing distribution, for one landing model.

    python lab/experiments/flutterstone_best_flicks.py                       # default model v2
    python lab/experiments/flutterstone_best_flicks.py -c landing_model=v1   # the old model
"""

from __future__ import annotations

import argparse

import numpy as np

from boardgames_rl.core.options import parse_options
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.landing import (
    SKILL_PROFILES,
    Effects,
    expected_progress,
    landing_grid,
)
from boardgames_rl.registry import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE")
parser.add_argument("--card-value", type=float, default=0.8)
args = parser.parse_args()
game = make_game("castle_flutterstone", **parse_options(args.config))
assert isinstance(game, CastleFlutterstoneGame)

EFFECTS = {
    "none": Effects(),
    "eyes closed": Effects(eyes_closed=True),
    "change hands": Effects(change_hands=True),
    "both": Effects(eyes_closed=True, change_hands=True),
    "ghost in window 1": Effects(blocked_band=1),
    "ghost in window 2": Effects(blocked_band=2),
    "ghost in window 3": Effects(blocked_band=3),
}

print(
    f"landing model {game.landing_model}, {game.layout.num_flicks} flicks "
    f"({len(game.yaws)} yaws x {len(game.aims)} elevations x {len(game.forces)} forces)\n"
)
print(
    "| profile | effect | yaw | elevation | force | E | miss / courtyard / moat / castle / window |"
)
print("|---|---|---:|---:|---:|---:|---|")
settings = set()
for profile in SKILL_PROFILES:
    for name, effects in EFFECTS.items():
        grid = landing_grid(game.yaws, game.aims, game.forces, profile, effects, game.geometry)
        e = np.asarray(expected_progress(grid, args.card_value))
        y, a, f = np.unravel_index(int(np.argmax(e)), e.shape)
        settings.add((game.yaws[y], game.aims[a]))
        dist = " / ".join(f"{p:.3f}" for p in grid[y, a, f])
        print(
            f"| {profile} | {name} | {game.yaws[y]:+g} | {game.aims[a]:g} | "
            f"{game.forces[f]:.2f} | {e[y, a, f]:.3f} | {dist} |"
        )
print(f"\ndistinct best (yaw, elevation) settings: {len(settings)}")
