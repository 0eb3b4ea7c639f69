"""Castle Flutterstone: engine steps per second under uniform random play (no env wrapper).

Plays seeded games with ``state.legal_action_mask()`` + ``state.apply`` only and reports the best
of ``--repeats`` timings (the machine is shared, so the best run is the least disturbed one), in
wall-clock time and in CPU time of this process (less sensitive to other processes).

    python lab/experiments/flutterstone_engine_speed.py
    python lab/experiments/flutterstone_engine_speed.py -c landing_model=v1 -c pesky_ghosts=true
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardgames_rl.core.options import parse_options
from boardgames_rl.registry import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("--steps", type=int, default=50_000, help="engine steps per timing")
parser.add_argument("--repeats", type=int, default=5)
parser.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE")
args = parser.parse_args()

game = make_game("castle_flutterstone", **{"num_players": 2, **parse_options(args.config)})


def run(steps: int, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    done = 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        if state.is_terminal():
            seed += 1
            state = game.new_state(seed)
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(legal[rng.integers(legal.size)]))
        done += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


wall, cpu = zip(*(run(args.steps, 1000 * r) for r in range(args.repeats)), strict=True)
print(
    f"castle_flutterstone {game.config}: engine steps/s best {max(wall):,.0f} wall, "
    f"{max(cpu):,.0f} CPU (median {float(np.median(wall)):,.0f} / {float(np.median(cpu)):,.0f})"
    f" over {args.repeats} x {args.steps:,} steps"
)
