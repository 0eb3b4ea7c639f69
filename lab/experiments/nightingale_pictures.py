"""Castle Nightingale pictures for the docs: one seeded heuristic game, shown mid-turn.

python lab/experiments/nightingale_pictures.py    # writes docs/img/castle_nightingale_board*

The position: seed 1, 124 heuristic decisions in (turn 7; the ninja hidden behind three
footprint discs, vases banked, equipment used, the samurai one zone into his movement).
Writes the ninja's picture (``render_rgb(0)``, what ``render_mode="rgb_array"`` shows that
seat), the omniscient picture (``render_rgb(None)``, for an observer), and the ninja's text
board (``render(0)``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from matplotlib.image import imsave

from boardgames_rl.agents import make_agent
from boardgames_rl.registry import make_game

SEED, DECISIONS = 1, 124


def position():
    """The seeded heuristic-vs-heuristic game after ``DECISIONS`` decisions."""
    game = make_game("castle_nightingale")
    agent = make_agent("heuristic", game)
    state, rng = game.new_state(SEED), np.random.default_rng(SEED)
    for _ in range(DECISIONS):
        state.apply(agent.act(state.info_set(state.current_player), rng))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/img")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    state = position()
    imsave(out / "castle_nightingale_board.png", state.render_rgb(0))
    imsave(out / "castle_nightingale_board_omniscient.png", state.render_rgb(None))
    (out / "castle_nightingale_board.txt").write_text(state.render(0) + "\n")
    print(f"wrote {out}/castle_nightingale_board{{.png,_omniscient.png,.txt}}")


if __name__ == "__main__":
    main()
