"""Castle Flutterstone pictures for the docs: the board, and the landing model over aim x force.

python lab/experiments/flutterstone_pictures.py              # writes docs/img/*.png
python lab/experiments/flutterstone_pictures.py --board-only # only the board picture and text
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
from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState
from boardgames_rl.registry import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("--out", default="docs/img")
parser.add_argument("--board-only", action="store_true", help="only the board (png and txt)")
args = parser.parse_args()
out = Path(args.out)
out.mkdir(parents=True, exist_ok=True)

# 1. The board: a seeded 3-player game with pesky ghosts played at random (the heuristic avoids the
#    moat, so it never holds a card) up to the first flick with the ghost figure in a window and
#    a card in front of a player, seen by player_0.
game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
agent = make_agent("random", game)


def board_state(seed: int) -> CastleFlutterstoneState | None:
    """The first flick decision of game ``seed`` with the ghost in a window and a card held."""
    state, rng = game.new_state(seed), np.random.default_rng(seed)
    assert isinstance(state, CastleFlutterstoneState)
    while not state.is_terminal():
        held = any(any(r) for r in state.helpful_ready) or any(any(r) for r in state.pesky)
        if state.phase_name == "flick" and state.blocked_band and held:
            return state
        state.apply(agent.act(state.info_set(state.current_player), rng))
    return None


state = next(s for s in map(board_state, range(4, 100)) if s is not None)
imsave(out / "castle_flutterstone_board.png", state.render_rgb(0))
(out / "castle_flutterstone_board.txt").write_text(state.render(0) + "\n")
if args.board_only:
    raise SystemExit(0)

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
