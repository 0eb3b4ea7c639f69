"""CPU time per engine step and per AEC step of every game, beside PettingZoo's connect_four_v3.

    python lab/benchmarks/step_cpu.py                 # 3 rounds of 6,000 steps per game, medians
    python lab/benchmarks/step_cpu.py --rounds 5 --steps 10000 --json out.json
    python lab/benchmarks/step_cpu.py --games castle_nightingale night_of_the_ninja
    python lab/benchmarks/step_cpu.py --breakdown     # also: where an AEC step's time goes

CPU time of this thread (``time.thread_time``), so the figures hold on a shared machine where
wall time does not; every round measures every game and connect_four again (interleaved), and the
table gives medians with the range of the AEC / connect_four ratio over the rounds. Random legal
play, seeded; AEC through ``pettingzoo.make`` (wrapped, as users get it) for both.

``--breakdown`` measures, in the same rounds, the AEC loop once more with the state's
``_observation`` replaced by a constant vector, and splits an AEC step into the engine (the mask
and ``apply``, from the engine loop), the environment and wrapper around it (AEC without
observations minus the engine) and the observation (AEC minus AEC without observations). Rewards
are bookkept only on the last step of a game (part of the wrapper figure).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

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


def aec_without_observation_us(env, steps: int) -> float:
    """:func:`aec_us` with the state's ``_observation`` replaced by a constant vector."""
    env.reset(seed=0)
    cls = type(env.unwrapped.game_state)
    zero = np.zeros(env.unwrapped.game.observation_spec.size, dtype=np.float32)
    saved = cls.__dict__.get("_observation")
    cls._observation = lambda self, player: zero
    try:
        return aec_us(env, steps)
    finally:
        if saved is None:
            del cls._observation
        else:
            cls._observation = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--json", help="write the raw figures here")
    parser.add_argument("--games", nargs="+", help="only these games (default: every one)")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also split an AEC step into engine, environment/wrapper and observation",
    )
    args = parser.parse_args()
    configs = [(n, c) for n, c in CONFIGS if not args.games or n in args.games]
    if not configs:
        parser.error(f"--games: none of {args.games} is one of {sorted({n for n, _ in CONFIGS})}")
    raw: dict[str, list[tuple[float, ...]]] = {}
    for _ in range(args.rounds):
        for name, config in configs:
            c4 = aec_us(connect_four_v3.env(), args.steps // 2)
            env = pettingzoo.make("aec", f"boardgames_rl/{name}-v0", **config)
            row: tuple[float, ...] = (
                engine_us(name, config, args.steps),
                aec_us(env, args.steps // 2),
                c4,
            )
            if args.breakdown:
                row += (aec_without_observation_us(env, args.steps // 2),)
            raw.setdefault(f"{name} {config or ''}".strip(), []).append(row)
    print("| game | engine µs/step | AEC µs/step | connect_four µs/step | AEC vs connect_four |")
    print("|---|---:|---:|---:|---|")
    for key, rows in raw.items():
        ratios = [r[2] / r[1] for r in rows]
        med = statistics.median
        print(
            f"| {key} | {med(r[0] for r in rows):.1f} | {med(r[1] for r in rows):.1f} | "
            f"{med(r[2] for r in rows):.1f} | {med(ratios):.2f}x "
            f"({min(ratios):.2f}–{max(ratios):.2f}) |"
        )
    if args.breakdown:
        print()
        print(
            "| game | AEC µs/step | engine (mask + apply) | environment and wrapper | observation |"
        )
        print("|---|---:|---:|---:|---:|")
        for key, rows in raw.items():
            med = statistics.median
            aec, engine, bare = (med(r[i] for r in rows) for i in (1, 0, 3))
            parts = (engine, bare - engine, aec - bare)
            cells = " | ".join(f"{x:.1f} ({100 * x / aec:.0f}%)" for x in parts)
            print(f"| {key} | {aec:.1f} | {cells} |")
    if args.json:
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the lab's helpers
        from lab.provenance import provenance

        with open(args.json, "w") as f:
            json.dump({**raw, "provenance": provenance()}, f, indent=1)


if __name__ == "__main__":
    main()
