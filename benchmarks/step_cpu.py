"""CPU time per engine step and per AEC step of every game, beside PettingZoo's connect_four_v3.

    python benchmarks/step_cpu.py                 # 3 rounds of 6,000 steps per game, medians
    python benchmarks/step_cpu.py --rounds 5 --steps 10000 --json out.json
    python benchmarks/step_cpu.py --games castle_nightingale night_of_the_ninja

CPU time of this thread (``time.thread_time``), so the figures hold on a shared machine where
wall time does not; every round measures every game and connect_four again (interleaved), and the
table gives medians with the range of the AEC / connect_four ratio over the rounds. Random legal
play, seeded; AEC through ``pettingzoo.make`` (wrapped, as users get it) for both.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
import pettingzoo
from pettingzoo.classic import connect_four_v3

import boardgames_rl  # noqa: F401  (registers the games with PettingZoo)
from boardgames_rl.registry import make_game

CONFIGS = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_flutterstone", {"num_players": 3}),
    ("castle_flutterstone", {"num_players": 4}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"num_players": 4}),
    ("night_of_the_ninja", {"num_players": 5}),
    ("night_of_the_ninja", {"num_players": 11}),
    ("white_castle", {"num_players": 2}),
    ("white_castle", {"num_players": 4}),
]


def engine_us(name: str, config: dict, steps: int) -> float:
    game = make_game(name, **config)
    rng = np.random.default_rng(0)
    state, g = game.new_state(0), 0
    start = time.thread_time()
    for _ in range(steps):
        if state.is_terminal():
            g += 1
            state = game.new_state(g)
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    return (time.thread_time() - start) / steps * 1e6


def aec_us(env, steps: int) -> float:
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    done = 0
    start = time.thread_time()
    while done < steps:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(legal[rng.integers(len(legal))]))
            done += 1
            if done >= steps:
                break
        else:
            env.reset()
    return (time.thread_time() - start) / steps * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--json", help="write the raw figures here")
    parser.add_argument("--games", nargs="+", help="only these games (default: every one)")
    args = parser.parse_args()
    configs = [(n, c) for n, c in CONFIGS if not args.games or n in args.games]
    if not configs:
        parser.error(f"--games: none of {args.games} is one of {sorted({n for n, _ in CONFIGS})}")
    raw: dict[str, list[tuple[float, float, float]]] = {}
    for _ in range(args.rounds):
        for name, config in configs:
            c4 = aec_us(connect_four_v3.env(), args.steps // 2)
            env = pettingzoo.make("aec", f"boardgames_rl/{name}-v0", **config)
            row = (engine_us(name, config, args.steps), aec_us(env, args.steps // 2), c4)
            raw.setdefault(f"{name} {config or ''}".strip(), []).append(row)
    print("| game | engine µs/step | AEC µs/step | connect_four µs/step | AEC vs connect_four |")
    print("|---|---:|---:|---:|---|")
    for key, rows in raw.items():
        ratios = [c / a for _, a, c in rows]
        med = statistics.median
        print(
            f"| {key} | {med(r[0] for r in rows):.1f} | {med(r[1] for r in rows):.1f} | "
            f"{med(r[2] for r in rows):.1f} | {med(ratios):.2f}x "
            f"({min(ratios):.2f}–{max(ratios):.2f}) |"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(raw, f, indent=1)


if __name__ == "__main__":
    main()
