"""The White Castle speed: CPU µs per engine step and per AEC step beside PettingZoo's
connect_four_v3, the observation's µs, and cProfile of either loop.

Run from the repository root::

    python lab/benchmarks/white_castle_profile.py                       # 2, 3, 4 players, 5 rounds
    python lab/benchmarks/white_castle_profile.py --rounds 7 --steps 5000 --json out.json
    python lab/benchmarks/white_castle_profile.py --profile aec --players 2  # cProfile
    python lab/benchmarks/white_castle_profile.py --profile engine --players 4

CPU time of this thread (``time.thread_time``, meaningful on a shared machine). Both AEC envs come
from ``pettingzoo.make`` (the wrapped envs users get); random legal play, seeded. Every round
measures connect_four_v3 and then the configuration (engine, AEC), for every player count
(interleaved); the table gives medians and ranges over the rounds of the ratio connect_four µs /
White Castle AEC µs. Observation µs: one ``observation(current_player)`` of random-play states on
the live state (warm: the encoder's kept vectors) and on a fresh clone (cold).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import numpy as np  # noqa: E402

import boardgames_rl  # noqa: E402,F401  (registers the envs)
from boardgames_rl.games.white_castle import WhiteCastle  # noqa: E402


def _c4_env():
    import pettingzoo

    return pettingzoo.make("aec", "classic/connect_four-v3")


def _wc_env(n: int):
    import pettingzoo

    return pettingzoo.make("aec", "boardgames_rl/white_castle-v0", num_players=n)


def observation_us(n: int, steps: int = 3000, reps: int = 5) -> tuple[float, float]:
    """Median µs of one ``observation(current_player)``: ``(warm, cold)``.

    Warm: on the live state of random play, as an env calls it after every step (the state keeps
    its caches); cold: on a fresh clone of each state (no caches).
    """
    game = WhiteCastle(num_players=n)
    warm, cold = [], []
    for r in range(reps):
        rng = np.random.default_rng(r)
        s = game.new_state(r)
        spent = spent_cold = 0.0
        clock = time.thread_time
        for _ in range(steps):
            if s.is_terminal():
                s = game.new_state(int(rng.integers(1 << 30)))
            p = s.current_player
            c = s.clone()
            t = clock()
            s.observation(p)
            t1 = clock()
            c.observation(p)
            t2 = clock()
            spent += t1 - t
            spent_cold += t2 - t1
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        warm.append(spent / steps * 1e6)
        cold.append(spent_cold / steps * 1e6)
    return statistics.median(warm), statistics.median(cold)


def _cpu_engine_us(n: int, steps: int, seed: int) -> float:
    game = WhiteCastle(num_players=n)
    rng = np.random.default_rng(seed)
    state, g = game.new_state(seed), seed
    start = time.thread_time()
    for _ in range(steps):
        if state.is_terminal():
            g += 1
            state = game.new_state(g)
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
    return (time.thread_time() - start) / steps * 1e6


def _cpu_aec_us(env, steps: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
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


def cpu_table(rounds: int, steps: int, players: list[int]) -> dict:
    """CPU µs per engine step and per AEC step (``pettingzoo.make`` for both envs), every
    configuration interleaved with connect_four_v3 in each round; prints a markdown table."""
    raw: dict[int, list[tuple[float, float, float]]] = {n: [] for n in players}
    for r in range(rounds):
        for n in players:
            c4 = _cpu_aec_us(_c4_env(), steps, r)
            row = (_cpu_engine_us(n, steps, r), _cpu_aec_us(_wc_env(n), steps, r), c4)
            raw[n].append(row)
        print(f"round {r + 1}: " + ", ".join(f"{n}p {raw[n][-1]}" for n in players), flush=True)
    med = statistics.median
    print("| players | engine µs/step | AEC µs/step | c4 µs/step | c4 / AEC (median, range) |")
    print("|---|---:|---:|---:|---|")
    for n, rows in raw.items():
        ratios = [c / a for _, a, c in rows]
        eng = [e for e, _, _ in rows]
        print(
            f"| {n} | {med(eng):.1f} ({min(eng):.1f}–{max(eng):.1f}) | "
            f"{med(a for _, a, _ in rows):.1f} | {med(c for _, _, c in rows):.1f} | "
            f"{med(ratios):.2f}x ({min(ratios):.2f}–{max(ratios):.2f}) |"
        )
    return raw


def profile(what: str, n: int, steps: int, top: int) -> None:
    prof = cProfile.Profile()
    prof.enable()
    if what == "aec":
        _cpu_aec_us(_wc_env(n), steps, 0)
    else:
        _cpu_engine_us(n, steps, 0)
    prof.disable()
    out = io.StringIO()
    st = pstats.Stats(prof, stream=out)
    st.sort_stats("tottime").print_stats(top)
    print(f"{what} {n}p: {steps} steps under cProfile")
    print(out.getvalue())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=3000, help="steps per measurement")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--profile", choices=("aec", "engine"), help="cProfile instead of the table")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--json", help="write the raw figures here")
    a = ap.parse_args()
    if a.profile:
        for n in a.players:
            profile(a.profile, n, a.steps * 10, a.top)
        return 0
    raw = cpu_table(a.rounds, a.steps, a.players)
    for n in a.players:
        warm, cold = observation_us(n)
        print(
            f"observation {n}p: {warm:.1f} µs warm (live state), {cold:.1f} µs cold (fresh clone)"
        )
    if a.json:
        import json

        with open(a.json, "w") as f:
            json.dump({str(k): v for k, v in raw.items()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
