"""The White Castle speed: AEC env vs PettingZoo connect_four_v3, engine steps/s, observation µs.

Run from the repository root::

    python benchmarks/white_castle_profile.py                 # ratios, 5 interleaved rounds
    python benchmarks/white_castle_profile.py --rounds 7 --seconds 1
    python benchmarks/white_castle_profile.py --profile aec --players 2   # cProfile, top functions
    python benchmarks/white_castle_profile.py --profile engine --players 4

Both AEC envs come from ``pettingzoo.make`` (the wrapped envs users get) and run the loop of
``benchmarks/README.md`` (:func:`boardgames_rl.benchmark._aec_loop`). The measurements are
interleaved (c4, White Castle 2p, White Castle 4p, engine 2p, engine 4p, then again) so a
neighbour's load hits all of them alike; the ratio of each round is taken, then the median (and
the min and max) over the rounds. Observation µs: one ``encode`` of random-play states.
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

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import numpy as np  # noqa: E402

import boardgames_rl  # noqa: E402,F401  (registers the envs)
from boardgames_rl.benchmark import _aec_loop, _engine_loop, _timed, import_baseline  # noqa: E402
from boardgames_rl.games.white_castle import WhiteCastle  # noqa: E402


def _c4_env():
    return import_baseline("connect_four_v3").env()


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
        clock = time.perf_counter
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


def ratios(rounds: int, seconds: float, players: list[int]) -> None:
    rng = np.random.default_rng(0)
    loops = {"c4": _aec_loop(_c4_env(), 0, rng)}
    for n in players:
        loops[f"aec{n}"] = _aec_loop(_wc_env(n), 0, rng)
        loops[f"engine{n}"] = _engine_loop(WhiteCastle(num_players=n), 0, rng)
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for r in range(rounds):
        for key, loop in loops.items():
            rates[key].append(_timed(loop, seconds, 0.1 * seconds).steps_per_s)
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:.0f}" for k, v in rates.items()))
    c4 = rates["c4"]
    print(f"\nconnect_four_v3 (pettingzoo.make) AEC: median {statistics.median(c4):.0f} steps/s")
    for n in players:
        rs = [a / b for a, b in zip(rates[f"aec{n}"], c4, strict=True)]
        es = rates[f"engine{n}"]
        print(
            f"white_castle {n}p AEC / c4: median {statistics.median(rs):.2f} "
            f"(min {min(rs):.2f}, max {max(rs):.2f}); AEC {statistics.median(rates[f'aec{n}']):.0f}"
            f" steps/s; engine {statistics.median(es):.0f} steps/s "
            f"(engine / c4 {statistics.median([a / b for a, b in zip(es, c4, strict=True)]):.2f})"
        )
    for n in players:
        warm, cold = observation_us(n)
        print(
            f"observation {n}p: {warm:.1f} µs warm (live state), {cold:.1f} µs cold (fresh clone)"
        )


def profile(what: str, n: int, seconds: float, top: int) -> None:
    rng = np.random.default_rng(0)
    loop = (
        _aec_loop(_wc_env(n), 0, rng)
        if what == "aec"
        else _engine_loop(WhiteCastle(num_players=n), 0, rng)
    )
    loop(time.perf_counter() + 0.2)
    prof = cProfile.Profile()
    prof.enable()
    steps, _ = loop(time.perf_counter() + seconds)
    prof.disable()
    out = io.StringIO()
    st = pstats.Stats(prof, stream=out)
    st.sort_stats("tottime").print_stats(top)
    print(f"{what} {n}p: {steps} steps under cProfile")
    print(out.getvalue())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--profile", choices=("aec", "engine"), help="cProfile instead of ratios")
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    if a.profile:
        for n in a.players:
            profile(a.profile, n, a.seconds * 3, a.top)
    else:
        ratios(a.rounds, a.seconds, a.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
