"""Castle Flutterstone pictures for the docs: the board, and the landing model over aim x force.

python experiments/flutterstone_pictures.py            # writes docs/img/*.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from matplotlib.image import imsave

from boardgames_rl.agents import make_agent
from boardgames_rl.core import make_game
from boardgames_rl.games.castle_flutterstone.landing import Effects
from boardgames_rl.games.castle_flutterstone.plots import plot_landing_heatmap, plot_landing_panels

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

# 2. Expected progress over aim x force: average player, then with eyes closed.
for name, effects in (("plain", Effects()), ("eyes_closed", Effects(eyes_closed=True))):
    fig = plot_landing_heatmap("average", effects)
    fig.savefig(out / f"castle_flutterstone_landing_{name}.png", dpi=110, bbox_inches="tight")

# 3. Every zone's probability, one panel each.
fig = plot_landing_panels("average", Effects())
fig.savefig(out / "castle_flutterstone_landing_zones.png", dpi=100, bbox_inches="tight")
print(f"pictures written to {out}/")
