"""One benchmark for all of it (issue 14.5): every game beside PettingZoo and OpenSpiel, one run.

Run from a clone, with the ``[bench]`` extra (``pip install -e '.[bench]'``; PPO also needs
``[train]``)::

    python lab/benchmarks/throughput.py                  # 5 interleaved rounds, every configuration
    python lab/benchmarks/throughput.py --quick          # a smoke run (the tests use it)
    python lab/benchmarks/throughput.py --games night_of_the_ninja:num_players=11 --rounds 3
    python -m lab.benchmarks.throughput --quick          # the same, as a module

Every figure is a ratio to a baseline measured **in the same process, in the same round**: each
round measures PettingZoo's ``connect_four_v3`` (raw and through ``pettingzoo.make``), then every
game configuration, then connect_four again, and each game figure of the round is divided by the
mean of the round's two connect_four figures. The table gives the median over the rounds and the
range (min-max). Times are CPU time of this thread (``time.thread_time``), which holds on a
shared machine where wall time does not; the one exception is the worker column, where the work
happens in other processes: it is a wall-time ratio of the in-process env and the env with
workers, both built once and stepped on through every round, measured alternately
(``--worker-pairs`` times each per round, each ``--worker-seconds`` of in-process stepping long).

Columns (``c4`` = PettingZoo connect_four_v3 AEC steps through the same user loop):

* ``eng/c4raw``: ``State.apply`` steps (random legal actions, no observation) / c4 raw steps;
* ``AEC/c4 make``: ``pettingzoo.make("aec", ...)`` env steps / c4 ``pettingzoo.make`` steps, and
  ``raw``: the bare ``GameAECEnv`` / c4 ``raw_env``;
* ``vec64/AEC``: multi-agent ``VectorEnv`` slot-steps at N = 64, in-process / AEC (make) steps;
* ``bat64/AEC``: the batched single-agent env (learner steps, random opponents played inside),
  in-process / AEC (make) steps; ``2w/0w``: the same with 2 workers (``main_steps``: this
  process and one worker process, as training runs it) / in-process (wall; actions drawn by the
  cheap ``RandomActions`` on both sides);
* ``clone``, ``sample``: CPU time of one ``State.clone()`` / ``InfoSet.sample()`` in c4 raw steps;
* ``ISMCTS``: CPU time of one ISMCTS decision (``preset=tuned``, 400 iterations) in c4 raw steps,
  the mean over the same decision states every round (the same searches: a round's figure
  varies by timing alone);
* ``PPO/CP``: the SB3 recipe's ``FastMaskablePPO`` (``lab/recipes/sb3``: MaskablePPO's
  algorithm) learner steps/s on the batched env / SB3 PPO on ``CartPole-v1``, same
  hyperparameters, interleaved.

Baseline rows give OpenSpiel's ``connect_four`` (the C++ game stepped through ``pyspiel``'s Python
API, bare and with ``observation_tensor``), OpenSpiel's ``python_tic_tac_toe`` (a game written in
Python behind the same API: the cost of OpenSpiel's Python game API) and PettingZoo's
``texas_holdem_v4`` (rlcard), each as steps / c4 raw steps. Results go to
``lab/benchmarks/results/throughput.json`` (every round's raw figures, medians and ranges).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone
    sys.path.insert(0, str(REPO_ROOT))

from boardgames_rl.core.errors import InvalidConfigError  # noqa: E402
from boardgames_rl.core.game import Game, State  # noqa: E402
from boardgames_rl.core.options import parse_option_string  # noqa: E402
from boardgames_rl.registry import game_spec, make_game  # noqa: E402
from lab.benchmarks.baselines import (  # noqa: E402
    MissingBench,
    RandomActions,
    Stepper,
    aec_stepper,
    openspiel_stepper,
    pettingzoo_classic,
    random_legal_action,
    random_legal_actions,
)
from lab.provenance import provenance  # noqa: E402

if TYPE_CHECKING:  # the PPO learners, imported where they run (--no-ppo needs neither)
    from stable_baselines3 import PPO

    from lab.recipes.sb3.fast_ppo import FastMaskablePPO

__all__ = ["main", "random_legal_action", "random_legal_actions", "targets_for"]

DEFAULT_OUT = REPO_ROOT / "lab" / "benchmarks" / "results" / "throughput.json"

DEFAULT_TARGETS = [
    "castle_flutterstone:num_players=2",
    "castle_nightingale",
    "night_of_the_ninja:num_players=5",
    "night_of_the_ninja:num_players=11",
    "white_castle:num_players=2",
    "white_castle:num_players=4",
]
"""The configurations of the issue-14 table."""

PPO_TARGETS = {
    "castle_flutterstone:num_players=2",
    "castle_nightingale",
    "night_of_the_ninja:num_players=5",
    "white_castle:num_players=2",
}
"""Where the PPO column is measured (the issue's targets: 2-player games, 5-player Ninja)."""


@dataclass
class Budget:
    """How much each measurement runs (per round)."""

    rounds: int = 5
    steps: int = 3000  # engine and AEC decisions
    vec_calls: int = 30  # VectorEnv / batched-env step calls (N slots each)
    num_envs: int = 64
    copies: int = 300  # clones and samples
    states: int = 10  # decision states from seeded random play (clone, sample and ISMCTS)
    ismcts_moves: int = 4  # ISMCTS decisions per round: the same decision states every round
    ismcts_iterations: int = 400
    ppo_steps: int = 2048  # timed learner steps per round (after one warm-up rollout)
    workers: int = 2
    worker_seconds: float = 0.6  # wall seconds of in-process stepping per workers measurement
    worker_pairs: int = 3  # in-process / workers measurements alternated per round


QUICK = Budget(
    rounds=2,
    steps=200,
    vec_calls=3,
    num_envs=8,
    copies=20,
    states=4,
    ismcts_moves=1,
    ismcts_iterations=20,
    ppo_steps=256,
    worker_seconds=0.01,
    worker_pairs=1,
)


# --------------------------------------------------------------------------- targets
@dataclass
class Target:
    """One configured game to measure."""

    spec: str
    name: str
    config: dict[str, Any]
    game: Game = field(repr=False)

    @property
    def title(self) -> str:
        n = self.game.num_players
        return f"{self.name} {n}p" + (" " + _label(self.config, n) if self.config else "")


def _label(config: dict[str, Any], num_players: int) -> str:
    rest = {k: v for k, v in config.items() if not (k == "num_players" and v == num_players)}
    return ",".join(f"{k}={v}" for k, v in rest.items())


def targets_for(spec: str) -> list[Target]:
    """``NAME`` (the game's default configuration) or ``NAME:key=value,...``."""
    name, _, rest = spec.partition(":")
    entry = game_spec(name.strip())
    try:
        config = parse_option_string(rest, f"benchmark: game {spec!r}")
    except InvalidConfigError as e:
        raise SystemExit(str(e)) from e
    return [Target(spec, entry.name, config, make_game(entry.name, **config))]


# --------------------------------------------------------------------------- timing
def cpu_seconds(fn: Callable[[], Any]) -> float:
    """CPU time of this thread spent in ``fn()`` (garbage collected first)."""
    gc.collect()
    start = time.thread_time()
    fn()
    return time.thread_time() - start


def per_step(stepper: Stepper, n: int) -> float:
    """CPU seconds per step of ``n`` steps (after a warm-up of ``n // 10 + 1`` steps)."""
    stepper(n // 10 + 1)
    done = [0]
    seconds = cpu_seconds(lambda: done.__setitem__(0, stepper(n)))
    return seconds / max(done[0], 1)


def engine_stepper(game: Game, seed: int, rng: np.random.Generator) -> Stepper:
    """``State.apply`` with the shared random pick, a new game when one ends, no observation."""
    holder = [game.new_state(seed)]
    games = [seed]

    def run(n: int) -> int:
        state = holder[0]
        for _ in range(n):
            if state.is_terminal():
                games[0] += 1
                state = game.new_state(games[0])
            state.apply(random_legal_action(state.legal_action_mask(), rng))
        holder[0] = state
        return n

    return run


def vector_stepper(venv: Any, rng: np.random.Generator) -> Stepper:
    """``VectorEnv.step`` with the shared pick on every row; counts slot-steps."""
    out = [venv.reset()]

    def run(n: int) -> int:
        calls = -(-n // venv.num_envs)
        o = out[0]
        for _ in range(calls):
            o = venv.step(random_legal_actions(o.action_mask, rng))
        out[0] = o
        return calls * venv.num_envs

    return run


# --------------------------------------------------------------------------- batched-env hook
def make_batched_env(game: Game, num_envs: int, num_workers: int, seed: int) -> Any:
    """The batched single-agent env (issue 14.2), a gymnasium ``VectorEnv``: the learner in seat
    0, random opponents played inside, ``num_workers`` workers with ``main_steps`` (this process
    one of them, as training runs it)."""
    from boardgames_rl.envs.batched import BatchedVectorEnv

    return BatchedVectorEnv(
        game, num_envs, seat=0, seed=seed, num_workers=num_workers, main_steps=True
    )


def batched_env_kind() -> str:
    return "BatchedVectorEnv (learner seat 0, random opponents inside; main_steps)"


def batched_stepper(venv: Any, rng: np.random.Generator, cheap: bool = False) -> Stepper:
    """Learner steps of the batched env (reset once, here), random legal actions drawn by
    :func:`random_legal_actions`, or with ``cheap`` by :class:`RandomActions` (0.02 ms a call at
    N = 64 against 0.34 ms: the workers column's driver, whose time runs in this process while
    no worker steps and would otherwise weigh on the speed-up it measures)."""
    venv.reset()
    n_envs = venv.num_envs
    draw = RandomActions(n_envs, int(venv.single_action_space.n), rng) if cheap else None

    def run(n: int) -> int:
        calls = -(-n // n_envs)
        for _ in range(calls):
            masks = np.asarray(venv.action_masks())
            venv.step(draw(masks) if draw is not None else random_legal_actions(masks, rng))
        return calls * n_envs

    return run


@dataclass
class WorkerPair:
    """The workers column's two envs, built once and stepped on through every round (games
    keep running: no reset, no new worker processes between measurements): the in-process
    batched env and the one with ``workers`` worker processes and ``main_steps``, each with its
    cheap-driver stepper, and ``steps``, the learner steps of one measurement (calibrated to
    :attr:`Budget.worker_seconds` of in-process stepping)."""

    envs: tuple[Any, Any]
    steppers: tuple[Stepper, Stepper]
    steps: int

    @classmethod
    def build(cls, game: Game, budget: Budget, seed: int, rng: np.random.Generator) -> WorkerPair:
        envs: list[Any] = []
        try:
            for workers in (0, budget.workers):
                envs.append(make_batched_env(game, budget.num_envs, workers, seed))
            steppers = (batched_stepper(envs[0], rng, True), batched_stepper(envs[1], rng, True))
        except BaseException:
            for env in envs:
                env.close()
            raise
        minimum = 4 * budget.vec_calls * budget.num_envs
        steps = max(minimum, round(budget.worker_seconds / wall_per_step(steppers[0], minimum)))
        return cls((envs[0], envs[1]), steppers, steps)

    def seconds_per_step(self, pairs: int) -> tuple[float, float]:
        """Wall seconds per learner step, in-process and with workers, from ``pairs``
        measurements of each taken alternately (after a short warm-up of each)."""
        totals, done = [0.0, 0.0], [0, 0]
        for stepper in self.steppers:
            stepper(self.steps // 10 + 1)
        for _ in range(pairs):
            for i, stepper in enumerate(self.steppers):
                start = time.perf_counter()
                done[i] += stepper(self.steps)
                totals[i] += time.perf_counter() - start
        return totals[0] / done[0], totals[1] / done[1]

    def close(self) -> None:
        for env in self.envs:
            env.close()


def wall_per_step(stepper: Stepper, n: int) -> float:
    """Wall seconds per step (for work done in worker processes)."""
    stepper(n // 10 + 1)
    start = time.perf_counter()
    done = stepper(n)
    return (time.perf_counter() - start) / max(done, 1)


# --------------------------------------------------------------------------- states
def decision_states(game: Game, count: int, seed: int) -> list[State]:
    """``count`` states with 2+ legal actions from seeded random play (depths 4..40)."""
    found: list[State] = []
    s = seed
    while len(found) < count:
        rng = np.random.default_rng(s)
        state = game.new_state(s)
        for _ in range(4 + 9 * (s % 5)):
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append(state)
        s += 1
    return found


def clone_seconds(states: list[State], n: int) -> float:
    def run() -> None:
        for i in range(n):
            states[i % len(states)].clone()

    return cpu_seconds(run) / n


def sample_seconds(states: list[State], n: int, rng: np.random.Generator) -> float:
    infos = [s.info_set(s.current_player) for s in states]

    def run() -> None:
        for i in range(n):
            infos[i % len(infos)].sample(rng)

    return cpu_seconds(run) / n


def ismcts_seconds(
    game: Game, states: list[State], iterations: int, moves: int, warm_up: bool
) -> float:
    """Mean CPU seconds of one ISMCTS decision (tuned preset) over the first ``moves`` decision
    states, each searched by a fresh agent with the generator of its index: the same searches in
    every round and in both builds, so the rounds differ by timing alone and the builds compare
    the same work (the total time of the same decisions: iterations per second). Before the
    first round, one untimed decision on every state: the one-off caches a decision fills
    (Castle Flutterstone's landing tables, a distribution per aim, force and effects, which its
    heuristic prior reads) are filled for all of them (``warm_up``, the first round), so a round
    times what a long tournament pays per move, not a process's first moves."""
    from boardgames_rl.agents import make_agent

    spec = f"ismcts:preset=tuned,iterations={iterations}"
    chosen = states[:moves]
    for k, warm in enumerate(chosen if warm_up else []):
        info = warm.info_set(warm.current_player)
        make_agent(spec, game).act(info, np.random.default_rng(k))
    total = 0.0
    for k, state in enumerate(chosen):
        agent = make_agent(spec, game)
        info = state.info_set(state.current_player)
        rng = np.random.default_rng(k)
        total += cpu_seconds(partial(agent.act, info, rng))
    return total / len(chosen)


# --------------------------------------------------------------------------- PPO
def ppo_steps_per_cpu_s(
    make_venv: Callable[[], Any], maskable: bool, budget: Budget, seed: int
) -> float:
    """Learner steps per CPU second of one PPO run (torch on one thread; in-process envs)."""
    import torch as th
    from stable_baselines3.common.logger import Logger

    th.set_num_threads(1)
    algo: type[FastMaskablePPO] | type[PPO]
    if maskable:  # the SB3 recipe's learner (lab/recipes/sb3): MaskablePPO's algorithm
        from lab.recipes.sb3.fast_ppo import FastMaskablePPO as algo
    else:
        from stable_baselines3 import PPO as algo
    venv = make_venv()
    n_steps = max(budget.ppo_steps // (4 * venv.num_envs), 16)
    model = algo(
        "MlpPolicy",
        venv,
        n_steps=n_steps,
        batch_size=64,
        n_epochs=2,
        seed=seed,
        device="cpu",
        policy_kwargs={"net_arch": [64, 64]},
    )
    model.set_logger(Logger(None, []))  # no SB3-<time> folder in the temporary folder
    rollout = n_steps * venv.num_envs
    model.learn(rollout)  # warm-up: one rollout and update
    steps = rollout * max(budget.ppo_steps // rollout, 1)
    seconds = cpu_seconds(lambda: model.learn(steps, reset_num_timesteps=False))
    venv.close()
    return steps / seconds


def sb3_vec(game: Game | None, seed: int) -> Any:
    """4 envs: ``CartPole-v1`` in SB3's ``DummyVecEnv`` (``game=None``) or the batched env's SB3
    facade (:class:`boardgames_rl.envs.batched_sb3.BatchedVecEnv`, in-process)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from boardgames_rl.envs.batched_sb3 import BatchedVecEnv

    if game is None:
        import gymnasium as gym

        return DummyVecEnv([lambda: gym.make("CartPole-v1") for _ in range(4)])
    return BatchedVecEnv(game, 4, seat=0, seed=seed, num_workers=0)


# --------------------------------------------------------------------------- the run
COLUMNS = [
    ("engine", "eng/c4raw"),
    ("aec_make", "AEC/c4 make"),
    ("aec_raw", "raw/c4 raw"),
    ("vec", "vec{n}/AEC"),
    ("batched", "bat{n}/AEC"),
    ("workers", "{w}w/0w"),
    ("clone", "clone"),
    ("sample", "sample"),
    ("ismcts", "ISMCTS"),
    ("ppo", "PPO/CP"),
]
BASELINE_ROWS = [
    ("openspiel_connect_four", "OpenSpiel connect_four (C++, Python API)"),
    ("openspiel_connect_four_obs", "OpenSpiel connect_four + observation_tensor"),
    ("openspiel_python_tic_tac_toe", "OpenSpiel python_tic_tac_toe (Python game API)"),
    ("texas_holdem_raw", "PettingZoo texas_holdem_v4 raw"),
]


def measure_target(
    t: Target,
    s: dict[str, Any],
    budget: Budget,
    r: int,
    seed: int,
    rng: np.random.Generator,
    errors: dict[str, list[str]],
    ppo: bool,
) -> dict[str, float]:
    """One round of every measurement of one configuration: CPU seconds per unit (wall seconds
    for ``batched_wall_*``). A failing measurement is recorded in ``errors`` and skipped."""
    g, f = t.game, {}
    n = budget.vec_calls * budget.num_envs

    def batched() -> None:
        env = make_batched_env(g, budget.num_envs, 0, seed)
        try:
            f["batched"] = per_step(batched_stepper(env, rng), n)
        finally:
            env.close()

    def workers() -> None:
        pair = s.get("workers")
        if pair is None:  # not built: its error is in the setup's report
            raise RuntimeError(s.get("workers_error", "the workers' envs were not built"))
        f["batched_wall_0w"], f["batched_wall_ww"] = pair.seconds_per_step(budget.worker_pairs)

    def ppo_ratio() -> None:
        cp = ppo_steps_per_cpu_s(lambda: sb3_vec(None, seed), False, budget, seed)
        ours = ppo_steps_per_cpu_s(lambda: sb3_vec(g, seed), True, budget, seed)
        f["ppo"] = ours / cp

    jobs: list[tuple[str, Callable[[], Any]]] = [
        ("engine", lambda: f.__setitem__("engine", per_step(s["engine"], budget.steps))),
        ("aec_raw", lambda: f.__setitem__("aec_raw", per_step(s["aec_raw"], budget.steps))),
        ("aec_make", lambda: f.__setitem__("aec_make", per_step(s["aec_make"], budget.steps))),
        ("vec", lambda: f.__setitem__("vec", per_step(s["vec"], n))),
        ("batched", batched),
        *([("workers", workers)] if budget.workers > 0 else []),
        ("clone", lambda: f.__setitem__("clone", clone_seconds(s["states"], budget.copies))),
        (
            "sample",
            lambda: f.__setitem__("sample", sample_seconds(s["states"], budget.copies, rng)),
        ),
        (
            "ismcts",
            lambda: f.__setitem__(
                "ismcts",
                ismcts_seconds(
                    g, s["states"], budget.ismcts_iterations, budget.ismcts_moves, warm_up=r == 0
                ),
            ),
        ),
    ]
    if ppo:
        jobs.append(("ppo", ppo_ratio))
    for key, job in jobs:
        try:
            job()
        except Exception as exc:  # reported beside the table and in the JSON
            errors.setdefault(key, []).append(repr(exc))
    return f


def target_ratios(f: dict[str, float], c4: dict[str, float]) -> dict[str, float]:
    """The table's ratios of one round from :func:`measure_target`'s figures (those measured)."""
    out = {}
    have = f.__contains__
    if have("engine"):
        out["engine"] = c4["raw"] / f["engine"]
    if have("aec_raw"):
        out["aec_raw"] = c4["raw"] / f["aec_raw"]
    if have("aec_make"):
        out["aec_make"] = c4["make"] / f["aec_make"]
        for key in ("vec", "batched"):
            if have(key):
                out[key] = f["aec_make"] / f[key]
    if have("batched_wall_ww"):
        out["workers"] = f["batched_wall_0w"] / f["batched_wall_ww"]
    for key in ("clone", "sample", "ismcts"):
        if have(key):
            out[key] = f[key] / c4["raw"]
    if have("ppo"):
        out["ppo"] = f["ppo"]
    return out


def run(args: argparse.Namespace, budget: Budget) -> dict[str, Any]:
    seed = args.seed
    targets = [t for spec in (args.games or DEFAULT_TARGETS) for t in targets_for(spec)]
    c4_raw_env = pettingzoo_classic("connect_four_v3", wrapped=False)
    c4_make_env = pettingzoo_classic("connect_four_v3", wrapped=True)
    holdem_env = pettingzoo_classic("texas_holdem_v4", wrapped=False)
    import pettingzoo

    import boardgames_rl  # noqa: F401  (registers the games with PettingZoo)
    from boardgames_rl.envs.aec import GameAECEnv
    from boardgames_rl.envs.vector import VectorEnv

    rng = np.random.default_rng(seed)
    c4_raw = aec_stepper(c4_raw_env(), seed, rng)
    c4_make = aec_stepper(c4_make_env(), seed, rng)
    base_steppers = {
        "openspiel_connect_four": openspiel_stepper("connect_four", rng),
        "openspiel_connect_four_obs": openspiel_stepper("connect_four", rng, observe=True),
        "openspiel_python_tic_tac_toe": openspiel_stepper("python_tic_tac_toe", rng),
        "texas_holdem_raw": aec_stepper(holdem_env(), seed, rng),
    }
    per_game: dict[str, dict[str, Any]] = {}
    for t in targets:
        g = t.game
        per_game[t.title] = {
            "engine": engine_stepper(g, seed, rng),
            "aec_raw": aec_stepper(GameAECEnv(g), seed, rng),
            "aec_make": aec_stepper(pettingzoo.make("aec", g.env_id, **t.config), seed, rng),
            "vec": vector_stepper(VectorEnv(g, budget.num_envs, seed=seed), rng),
            "states": decision_states(g, max(budget.states, budget.ismcts_moves), seed),
        }
        if budget.workers > 0:
            try:
                per_game[t.title]["workers"] = WorkerPair.build(g, budget, seed, rng)
            except Exception as exc:  # reported with the round's errors
                per_game[t.title]["workers_error"] = repr(exc)
    want_ppo = not args.no_ppo
    if want_ppo:
        try:
            import sb3_contrib  # noqa: F401
            import torch  # noqa: F401
        except ImportError:
            want_ppo = False
            print("benchmark: PPO column skipped (needs the [train] extra)", file=sys.stderr)

    raw: dict[str, dict[str, list[float]]] = {t.title: {} for t in targets}
    base_raw: dict[str, list[float]] = {}
    c4_rounds: list[dict[str, float]] = []
    errors: dict[str, dict[str, list[str]]] = {}
    started = time.perf_counter()

    def note(row: dict[str, list[float]], key: str, value: float) -> None:
        row.setdefault(key, []).append(value)

    try:
        for r in range(budget.rounds):
            c4 = {"raw": per_step(c4_raw, budget.steps), "make": per_step(c4_make, budget.steps)}
            seconds: dict[str, dict[str, float]] = {}
            for name, stepper in base_steppers.items():
                seconds[name] = {"step": per_step(stepper, budget.steps)}
            for t in targets:
                seconds[t.title] = measure_target(
                    t,
                    per_game[t.title],
                    budget,
                    r,
                    seed,
                    rng,
                    errors.setdefault(t.title, {}),
                    want_ppo and t.spec in PPO_TARGETS | set(args.games or []),
                )
            c4_end = {
                "raw": per_step(c4_raw, budget.steps),
                "make": per_step(c4_make, budget.steps),
            }
            c4 = {k: (c4[k] + c4_end[k]) / 2 for k in c4}
            c4_rounds.append(c4)
            for name in base_steppers:
                note(base_raw, name, c4["raw"] / seconds[name]["step"])
            for t in targets:
                f, row = seconds[t.title], raw[t.title]
                for key, value in target_ratios(f, c4).items():
                    note(row, key, value)
                for k, v in f.items():
                    note(row, f"seconds_{k}", v)
            if not args.no_progress:
                print(f"benchmark: round {r + 1}/{budget.rounds} done", file=sys.stderr, flush=True)
    finally:
        for items in per_game.values():
            if "workers" in items:
                items["workers"].close()

    def summary(values: list[float]) -> dict[str, float]:
        return {"median": statistics.median(values), "min": min(values), "max": max(values)}

    return {
        "benchmark": "throughput",
        "timestamp": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": _machine(),
        "settings": {
            **budget.__dict__,
            "quick": bool(args.quick),
            "seed": seed,
            "timer": "time.thread_time (CPU); the workers column: time.perf_counter (wall)",
            "batched_env": batched_env_kind(),
            "total_wall_seconds": round(time.perf_counter() - started, 1),
        },
        "connect_four_us_per_step": {
            k: summary([1e6 * c[k] for c in c4_rounds]) for k in ("raw", "make")
        },
        "baselines": {name: summary(v) | {"rounds": v} for name, v in base_raw.items()},
        "errors": {title: e for title, e in errors.items() if e},
        "games": {
            title: {
                "config": t.config,
                "num_players": t.game.num_players,
                **{k: summary(v) | {"rounds": v} for k, v in raw[title].items()},
            }
            for t in targets
            for title in [t.title]
        },
    }


def _machine() -> dict[str, Any]:
    def version(dist: str) -> str | None:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    return {
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "cpu_count": os.cpu_count(),
        "load_average_1_5_15_min": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        **{d: version(d) for d in ("boardgames-rl", "pettingzoo", "open_spiel", "rlcard", "torch")},
    }


def _cell(entry: dict[str, float] | None, unit: str) -> str:
    if entry is None:
        return "-"
    m, lo, hi = entry["median"], entry["min"], entry["max"]
    if unit == "x" or hi < 10:
        return f"{m:.2f} ({lo:.2f}-{hi:.2f})"
    return f"{m:,.0f} ({lo:,.0f}-{hi:,.0f})"


def format_table(result: dict[str, Any]) -> str:
    """The fixed-width table printed by :func:`main`."""
    st = result["settings"]
    heads = ["game"] + [label.format(n=st["num_envs"], w=st["workers"]) for _, label in COLUMNS]
    units = {"clone": "c4", "sample": "c4", "ismcts": "c4"}
    rows = []
    for title, g in result["games"].items():
        rows.append([title] + [_cell(g.get(k), units.get(k, "x")) for k, _ in COLUMNS])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            [cells[0].ljust(widths[0])]
            + [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        )

    c4 = result["connect_four_us_per_step"]
    out = [
        f"Ratios, median (min-max) of {st['rounds']} interleaved rounds, CPU time"
        f"{' [QUICK smoke run]' if st['quick'] else ''}; c4 = PettingZoo connect_four_v3 "
        f"({c4['raw']['median']:.1f} us/step raw, {c4['make']['median']:.1f} us/step make)",
        line(heads),
        line(["-" * w for w in widths]),
        *[line(r) for r in rows],
        "",
        "baselines, steps / c4 raw steps:",
    ]
    for key, label in BASELINE_ROWS:
        if key in result["baselines"]:
            out.append(f"  {label:<50} {_cell(result['baselines'][key], 'x')}")
    out += [
        "",
        f"clone, sample, ISMCTS: CPU time of one call in c4 raw steps (ISMCTS preset=tuned, "
        f"{st['ismcts_iterations']} iterations, per move); vec/bat: N={st['num_envs']}, "
        f"in-process, / AEC make; {st['workers']}w/0w: wall time, {st['batched_env']}, "
        "actions drawn by RandomActions on both sides; "
        "PPO/CP: FastMaskablePPO (the SB3 recipe; the library's script: training_speed.py) "
        "steps/s on the game / SB3 PPO on CartPole-v1 (same settings)",
    ]
    for title, failed in result.get("errors", {}).items():
        for key, messages in failed.items():
            out.append(f"error: {title} {key} ({len(messages)} round(s)): {messages[0]}")
    return "\n".join(out)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="lab/benchmarks/throughput.py",
        description="Every issue-14 ratio beside PettingZoo connect_four_v3 and OpenSpiel, "
        "interleaved rounds, CPU time, medians and ranges; writes JSON.",
    )
    p.add_argument("--games", nargs="*", metavar="NAME[:k=v,...]", help="default: the issue's six")
    p.add_argument("--quick", action="store_true", help="a smoke run (2 short rounds)")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 5; quick 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-ppo", action="store_true", help="skip the PPO column (the slowest)")
    p.add_argument("--no-progress", action="store_true", help="no 'round k/N done' lines on stderr")
    p.add_argument("--workers", type=int, help="worker processes of the worker column (default 2)")
    p.add_argument(
        "--worker-seconds",
        type=float,
        help="length of one workers-column measurement, in seconds of in-process stepping "
        "(default 0.6)",
    )
    p.add_argument(
        "--worker-pairs",
        type=int,
        help="in-process / workers measurements alternated per round (default 3)",
    )
    p.add_argument(
        "--out",
        default=None,
        help=f"JSON file (default {DEFAULT_OUT.relative_to(REPO_ROOT)}; '' none)",
    )
    return p


def main(argv: Sequence[str | os.PathLike[str]] | None = None) -> int:
    """Run, print the table, write the JSON; 0 on success."""
    args = build_parser().parse_args(None if argv is None else [os.fspath(a) for a in argv])
    budget = Budget(**(QUICK.__dict__ if args.quick else {}))
    if args.rounds is not None:
        if args.rounds < 1:
            raise SystemExit("benchmark: --rounds must be >= 1")
        budget.rounds = args.rounds
    if args.workers is not None:
        budget.workers = max(int(args.workers), 0)
    if args.worker_seconds is not None:
        if not args.worker_seconds > 0:
            raise SystemExit("benchmark: --worker-seconds must be > 0")
        budget.worker_seconds = args.worker_seconds
    if args.worker_pairs is not None:
        if args.worker_pairs < 1:
            raise SystemExit("benchmark: --worker-pairs must be >= 1")
        budget.worker_pairs = args.worker_pairs
    try:
        result = run(args, budget)
    except MissingBench:
        raise
    table = format_table(result)
    result["table"] = table
    result["provenance"] = provenance()
    print(table)
    out = DEFAULT_OUT if args.out is None else (Path(args.out) if args.out else None)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1) + "\n")
        print(f"saved {out}")
    return 1 if result["errors"] else 0  # the other figures are still reported


if __name__ == "__main__":
    sys.exit(main())
