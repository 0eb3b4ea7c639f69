"""Castle Flutterstone pictures for the docs: the board, and the landing model over aim x force.

python experiments/flutterstone_pictures.py            # writes docs/img/*.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from matplotlib.image import imsave

from boardgames_rl.agents import make_agent
from boardgames_rl.games.castle_flutterstone.landing import GEOMETRY_V1, Effects
from boardgames_rl.games.castle_flutterstone.plots import (
    plot_landing_heatmap,
    plot_landing_panels,
    plot_window_heatmaps,
)
from boardgames_rl.registry import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("--out", default="docs/img")
args = parser.parse_args()
out = Path(args.out)
out.mkdir(parents=True, exist_ok=True)

# 1. The board, 40 heuristic decisions into a seeded 3-player game with pesky ghosts.
game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
state = game.new_state(4)
agent, rng = make_agent("heuristic", game), np.random.default_rng(4)
for _ in range(40):
    p = state.current_player
    state.apply(agent.act(state.info_set(p), rng))
imsave(out / "castle_flutterstone_board.png", state.render_rgb(0))
(out / "castle_flutterstone_board.txt").write_text(state.render(0) + "\n")

# 2. Landing model v2 (the default): one column per window, at the game's yaw aimed at it (the
#    windows' centres are at -15.0, 0 and +15.0 degrees): P(window) and expected progress for an
#    average player, free, with window 1 (the best one) blocked by the ghost, and eyes closed.
yaws = (-15.0, 0.0, 15.0)
for name, effects in (
    ("plain", Effects()),
    ("window1_blocked", Effects(blocked_band=1)),
    ("eyes_closed", Effects(eyes_closed=True)),
):
    fig = plot_window_heatmaps("average", effects, yaws=yaws)
    fig.savefig(out / f"castle_flutterstone_windows_{name}.png", dpi=90, bbox_inches="tight")

# 3. Every zone's probability at the best yaw of an average player (window 1).
fig = plot_landing_panels("average", Effects(), yaw=-15.0)
fig.savefig(out / "castle_flutterstone_landing_zones.png", dpi=90, bbox_inches="tight")

# 4. Landing model v1 (data sheet 7.1-7.7, config landing_model="v1"), kept for comparison:
#    expected progress over aim x force, without and with eyes closed.
for name, effects in (("plain", Effects()), ("eyes_closed", Effects(eyes_closed=True))):
    fig = plot_landing_heatmap("average", effects, geometry=GEOMETRY_V1)
    fig.savefig(out / f"castle_flutterstone_landing_v1_{name}.png", dpi=90, bbox_inches="tight")
print(f"pictures written to {out}/")
