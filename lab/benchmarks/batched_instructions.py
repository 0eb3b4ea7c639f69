"""Instructions per learner step of the batched env, both builds: the batched-env column of
``throughput.py`` counted by callgrind, which the machine's load does not move.

    python lab/benchmarks/batched_instructions.py        # the four games' issue setups
    python lab/benchmarks/batched_instructions.py --games night_of_the_ninja:num_players=9

For each setup and build, one process builds ``throughput.py``'s batched env (``num_envs``
slots in this process, learner seat 0, random opponents played inside, ``main_steps``), resets
it and makes ``--warm`` step calls, then ``--calls`` more, driven by ``throughput.py``'s cheap
``RandomActions`` (its own cost is a small share): once with the extra calls and once without,
under ``valgrind --tool=callgrind``. The difference, divided by the learner steps of the extra
calls, is one warm learner step (the env's step, its random opponents, the observations and
masks written into its buffers, the copies it returns). A setup takes a minute or two per build.
The JSON (``--out``) holds every figure, the ratio of the builds and the commit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone
    sys.path.insert(0, str(REPO_ROOT))

from lab.benchmarks.callgrind import BUILDS, collected, measure  # noqa: E402

GAMES = [
    "castle_flutterstone:num_players=2",
    "castle_nightingale",
    "night_of_the_ninja:num_players=5",
    "white_castle:num_players=2",
]
"""The setups measured by default (one per game; ``--games`` takes any)."""

STEPS = """
import sys
import numpy as np
from lab.benchmarks.throughput import RandomActions, make_batched_env, targets_for
game = targets_for(sys.argv[1])[0].game
num_envs, warm, calls = (int(x) for x in sys.argv[2:5])
env = make_batched_env(game, num_envs, 0, 0)
env.reset()
draw = RandomActions(num_envs, int(env.single_action_space.n), np.random.default_rng(0))
for _ in range(warm + calls):
    env.step(draw(np.asarray(env.action_masks())))
env.close()
"""
"""The measured process: ``warm + calls`` step calls of the batched env."""


def per_learner_step(game: str, build: str, num_envs: int, warm: int, calls: int) -> float:
    """Instructions of one warm learner step (the extra calls' over their learner steps)."""
    counts = [
        collected(
            "batched_instructions", STEPS, [game, str(num_envs), str(warm), str(c)], build, game
        )
        for c in (0, calls)
    ]
    return (counts[1] - counts[0]) / (calls * num_envs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", nargs="+", default=GAMES, metavar="NAME[:k=v,...]")
    p.add_argument("--builds", nargs="+", default=list(BUILDS), choices=BUILDS)
    p.add_argument("--num-envs", type=int, default=64, help="slots (default 64)")
    p.add_argument("--warm", type=int, default=5, help="step calls before counting (default 5)")
    p.add_argument("--calls", type=int, default=20, help="step calls counted (default 20)")
    p.add_argument("--out", type=Path, help="a JSON file for the figures (default: none)")
    a = p.parse_args(argv)
    if a.num_envs < 1 or a.warm < 0 or a.calls < 1:
        p.error("--num-envs and --calls must be >= 1, --warm >= 0")
    measure(
        "batched_instructions",
        a.games,
        a.builds,
        lambda game, build: per_learner_step(game, build, a.num_envs, a.warm, a.calls),
        (1e3, "k instructions a learner step"),
        "instructions per learner step of the batched env (callgrind)",
        {"num_envs": a.num_envs, "warm": a.warm, "calls": a.calls},
        a.out,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
