"""The batched single-agent env: learner steps/s in-process and with worker processes.

Run from the repository root::

    python lab/benchmarks/batched_speed.py                 # N = 64, 2 workers, 5 interleaved rounds
    python lab/benchmarks/batched_speed.py --rounds 3 --cpu-seconds 1 --workers 2

For every game configuration and round (rounds interleave the configurations): the in-process
env (``num_workers=0``) and the env with ``--workers`` processes, each stepped the same number of
learner steps (``N`` slots per call, random legal actions from the masks, random opponents
inside). ``--cpu-seconds`` sets the length of each measurement (the step count is calibrated per
game). Figures:

* ``cpu0``: in-process learner steps per CPU second of this thread (``time.thread_time``);
* ``wall0`` / ``wallW``: learner steps per wall second, in-process / with workers, measured back
  to back; ``wallW/wall0`` is the speed-up on this machine as loaded at that moment;
* ``cpuW``: CPU seconds per step with workers, of the main thread and of the busiest worker
  (``/proc/<pid>/stat``); ``ideal = cpu0 time / (main + busiest worker)`` is the speed-up the
  workers give on otherwise idle cores (the main process waits while the workers step, so a
  step's critical path is the main thread's part plus the slowest worker's);
* ``wall 2w/0w, main steps``: ``wall0 / wall`` with ``main_steps=True`` (this process steps
  the first chunk and watches the shared block for the others, ``--workers - 1`` processes
  step the rest: no process wakes up to finish a step), measured in the same round;
* ``lockstep bound``: the most the workers could gain if communication cost nothing
  (:func:`lockstep_bound`): a step with workers lasts as long as the slowest worker's chunk, so
  the bound is the slots' in-process work over the slowest chunk's, summed over steps; a game
  whose steps vary a lot (a learner move alone, or a whole round of opponents' turns) has a low
  bound;
* ``env only``: ``ideal`` without the driver's CPU (the random actions, timed apart) on either
  side: the speed-up of the env itself, what a learner whose policy costs nothing would see;
* ``main 2w``: the main thread's CPU per learner step with workers (the driver's random actions,
  the checks, the signals, the copies out of shared memory), as a share of the in-process time;
* ``spin s``: ``wallW/wall0`` again with the workers' ``worker_spin`` set to each further
  ``--spin`` value (default 0: workers always sleep on their sockets), measured in the same round.

With spinning workers (the default first ``--spin``) the workers' CPU includes their spinning,
so ``ideal``, ``env only`` and ``CPU total`` overstate the work; the wall ratio is the figure.

The driver draws random legal actions with :class:`RandomActions` (cheap; its CPU counts in
every figure).

Medians (and min-max) over the rounds; JSON in ``lab/benchmarks/results/batched_speed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # work from a source checkout
    sys.path.insert(0, str(REPO_ROOT))

from boardgames_rl.envs.batched import BatchedVectorEnv  # noqa: E402
from boardgames_rl.envs.chunks import worker_chunks  # noqa: E402
from boardgames_rl.registry import make_game  # noqa: E402
from lab.benchmarks.baselines import RandomActions  # noqa: E402
from lab.provenance import provenance  # noqa: E402

TARGETS: list[tuple[str, dict[str, Any]]] = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"num_players": 5}),
    ("night_of_the_ninja", {"num_players": 11}),
    ("white_castle", {"num_players": 2}),
    ("white_castle", {"num_players": 4}),
]
TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def run_env(venv: BatchedVectorEnv, steps: int, rng: np.random.Generator) -> dict[str, float]:
    """Step ``venv`` for ``steps`` learner steps (after a warm-up); times per step."""
    actions = RandomActions(venv.num_envs, int(venv.core.single_action_space.n), rng)
    venv.reset()
    for _ in range(5):
        venv.step(actions(venv.action_masks()))
    calls = -(-steps // venv.num_envs)
    pids = [p.pid for p in venv.core._procs]
    w0 = [proc_cpu(p) for p in pids]
    driver = 0.0
    t0, c0 = time.perf_counter(), time.thread_time()
    for _ in range(calls):
        d = time.thread_time()
        chosen = actions(venv.action_masks())
        driver += time.thread_time() - d
        venv.step(chosen)
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    workers = [proc_cpu(p) - w for p, w in zip(pids, w0, strict=True)]
    n = calls * venv.num_envs
    return {
        "wall": wall / n,
        "cpu_main": cpu / n,
        "cpu_driver": driver / n,
        "cpu_worker_max": max(workers, default=0.0) / n,
        "cpu_workers": sum(workers) / n,
    }


def lockstep_bound(
    game: Any, num_envs: int, num_workers: int, steps: int, rng: np.random.Generator, seed: int
) -> float:
    """The most ``num_workers`` workers in lockstep can gain over the in-process env, for this
    game: the in-process CPU of the slots' work over that of the slowest chunk, step by step.

    A step with workers lasts as long as the slowest worker's chunk (the workers' chunks as
    :func:`~boardgames_rl.envs.chunks.worker_chunks` splits them), so even with free
    communication the speed-up is ``sum(all slots' work) / sum(slowest chunk's work)`` over the
    steps. Each slot's work is timed in an in-process env from the start of its ``_advance`` to
    the next slot's (its move, the opponents' moves, its observation and mask, a new game where
    one ended). Workers prepare each next game while they wait (``prepare_next_game``: its
    state, then with random opponents their opening moves and the learner's first observation);
    here that is done between steps, timed apart, and counted on the in-process side only, as
    the in-process env does it inside the step."""
    venv = BatchedVectorEnv(game, num_envs, seed=seed)
    clock = time.perf_counter
    stamps: list[float] = []
    slots = venv.core.envs
    for env in slots:  # a time stamp as each slot's work starts

        def timed(action: int, checked: bool = False, advance: Any = env._advance) -> Any:
            stamps.append(clock())
            return advance(action, checked)

        env._advance = timed
    chunks = worker_chunks(num_envs, num_workers)
    actions = RandomActions(num_envs, int(venv.core.single_action_space.n), rng)
    venv.reset()
    total = slowest = prefetch = 0.0
    try:
        for k in range(-20, steps):  # 20 steps of warm-up
            chosen = actions(venv.action_masks())
            stamps.clear()
            venv.core.start(chosen)
            venv.core.wait()
            stamps.append(clock())
            work = np.diff(stamps)
            per_chunk = [work[c.start : c.stop].sum() for c in chunks]
            t = clock()
            for env in slots:
                while env.prepare_next_game():
                    pass
            if k >= 0:
                total += sum(per_chunk)
                slowest += max(per_chunk)
                prefetch += clock() - t
    finally:
        venv.close()
    return (total + prefetch) / slowest


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument(
        "--cpu-seconds",
        type=float,
        default=1.5,
        help="CPU seconds of in-process stepping per measurement (steps calibrated per game)",
    )
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument(
        "--spin",
        type=float,
        nargs="+",
        default=[0.002, 0.0],
        help="workers' spin before sleeping, seconds (the first is the main figure; every other "
        "value adds a wall-ratio column)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", nargs="*", help="names (default: the issue-14 configurations)")
    p.add_argument("--out", default=str(REPO_ROOT / "lab/benchmarks/results/batched_speed.json"))
    args = p.parse_args(argv)
    targets = [t for t in TARGETS if not args.games or t[0] in args.games]
    envs = {}
    for name, config in targets:
        game = make_game(name, **config)
        label = f"{name} {game.num_players}p"
        envs[label] = (
            BatchedVectorEnv(game, args.num_envs, seed=args.seed),
            *(
                BatchedVectorEnv(
                    game, args.num_envs, seed=args.seed, num_workers=args.workers, worker_spin=spin
                )
                for spin in args.spin
            ),
            BatchedVectorEnv(  # this process as the first of the workers
                game,
                args.num_envs,
                seed=args.seed,
                num_workers=args.workers,
                worker_spin=args.spin[0],
                main_steps=True,
            ),
        )
    rng = np.random.default_rng(args.seed)
    steps = {  # calibrated: about --cpu-seconds of in-process CPU per measurement
        label: max(args.num_envs, int(args.cpu_seconds / run_env(pair[0], 512, rng)["cpu_main"]))
        for label, pair in envs.items()
    }
    raw: dict[str, list[dict[str, float]]] = {label: [] for label in envs}
    try:
        for r in range(args.rounds):
            for label, (inproc, workers, *others, mains) in envs.items():
                bound = lockstep_bound(
                    inproc.core.game,
                    args.num_envs,
                    args.workers,
                    max(100, steps[label] // args.num_envs),
                    rng,
                    args.seed,
                )
                a = run_env(inproc, steps[label], rng)
                b = run_env(workers, steps[label], rng)
                more = [run_env(v, steps[label], rng) for v in others]
                c = run_env(mains, steps[label], rng)
                raw[label].append(
                    {
                        **{
                            f"wall_ratio_spin_{spin:g}": a["wall"] / m["wall"]
                            for spin, m in zip(args.spin[1:], more, strict=True)
                        },
                        "cpu0_steps_per_s": 1 / a["cpu_main"],
                        "wall0_steps_per_s": 1 / a["wall"],
                        "wallW_steps_per_s": 1 / b["wall"],
                        "wall_ratio": a["wall"] / b["wall"],
                        "wall_ratio_main_steps": a["wall"] / c["wall"],
                        "lockstep_bound": bound,
                        "main_cpu_per_step_0": a["cpu_main"],
                        "main_cpu_per_step_W": b["cpu_main"],
                        "worker_max_cpu_per_step": b["cpu_worker_max"],
                        "ideal_ratio": a["cpu_main"] / (b["cpu_main"] + b["cpu_worker_max"]),
                        "ideal_env_ratio": (a["cpu_main"] - a["cpu_driver"])
                        / (b["cpu_main"] - b["cpu_driver"] + b["cpu_worker_max"]),
                        "overhead": (b["cpu_main"] + b["cpu_workers"]) / a["cpu_main"],
                    }
                )
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    finally:
        for pair in envs.values():
            for v in pair:
                v.close()

    def med(label: str, key: str) -> tuple[float, float, float]:
        xs = [row[key] for row in raw[label]]
        return statistics.median(xs), min(xs), max(xs)

    w = args.workers
    lines = [
        f"| game | cpu0 steps/s | wall0 steps/s | wall{w}w steps/s | wall {w}w/0w | "
        f"wall {w}w/0w, main steps | lockstep bound {w}w | ideal {w}w/0w (CPU) | env only | "
        f"CPU total {w}w / 0w | main {w}w / 0w |"
        + "".join(f" wall {w}w/0w, spin {spin:g} s |" for spin in args.spin[1:]),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * (len(args.spin) - 1),
    ]
    for label in envs:
        c0, w0, ww = med(label, "cpu0_steps_per_s"), med(label, "wall0_steps_per_s"), None
        ww = med(label, "wallW_steps_per_s")
        wr, ir, ov = med(label, "wall_ratio"), med(label, "ideal_ratio"), med(label, "overhead")
        er, lb = med(label, "ideal_env_ratio"), med(label, "lockstep_bound")
        ms = med(label, "wall_ratio_main_steps")
        share = statistics.median(
            row["main_cpu_per_step_W"] / row["main_cpu_per_step_0"] for row in raw[label]
        )
        lines.append(
            f"| {label} | {c0[0]:.0f} | {w0[0]:.0f} | {ww[0]:.0f} | {wr[0]:.2f} "
            f"({wr[1]:.2f}-{wr[2]:.2f}) | {ms[0]:.2f} ({ms[1]:.2f}-{ms[2]:.2f}) "
            f"| {lb[0]:.2f} ({lb[1]:.2f}-{lb[2]:.2f}) "
            f"| {ir[0]:.2f} ({ir[1]:.2f}-{ir[2]:.2f}) "
            f"| {er[0]:.2f} ({er[1]:.2f}-{er[2]:.2f}) | {ov[0]:.2f} "
            f"| {share:.3f} |"
            + "".join(
                " {:.2f} ({:.2f}-{:.2f}) |".format(*med(label, f"wall_ratio_spin_{spin:g}"))
                for spin in args.spin[1:]
            )
        )
    table = "\n".join(lines)
    print(table)
    result = {
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "steps_per_measurement": steps,
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_avg": os.getloadavg(),
        },
        "rounds": raw,
        "table": table,
        "provenance": provenance(),
    }
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
