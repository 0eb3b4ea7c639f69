"""Training speed: MaskablePPO steps/s on every game beside SB3 PPO on ``CartPole-v1``.

Run from the repository root::

    python lab/benchmarks/training_speed.py                       # 3 interleaved rounds, 8192 steps
    python lab/benchmarks/training_speed.py --timesteps 4096 --rounds 5 --no-before
    python lab/benchmarks/training_speed.py --no-maskable --no-before \
        --out lab/benchmarks/results/training_speed_script.json    # the script beside the rest

Every workload trains with the same hyperparameters (``--n-envs``, ``--n-steps``,
``--batch-size``, ``--n-epochs``, ``--net``) in the same process, so the **ratio** to CartPole (an
env that costs almost nothing) says how much slower training is on our games. Time is the
process's **CPU time** (``time.process_time``; torch runs one thread), so the figures hold on a
shared machine; rounds interleave the workloads (CartPole, then every game's "after",
"maskable", "before", "ceiling", "ceiling maskable", "script" and "script ceiling" runs, then
CartPole again before the next game; a game's
ratio divides by the mean of the CartPole runs just before and after its block) and the table
gives medians (min-max) of the per-round ratios.

* **after**: the SB3 recipe's learner (what training used before the script),
  ``FastMaskablePPO`` (``lab/recipes/sb3/fast_ppo.py``) on its ``build_vec_env``
  (``lab/recipes/sb3/envs.py``, the default ``vec="batched"``): the batched
  single-agent ``VecEnv``, in-process, learner seat drawn per game, seat feature, uniform random
  opponents from an ``OpponentPool`` (they read only the mask: no info set is built for them).
* **maskable** (``--no-maskable`` skips it): sb3-contrib's ``MaskablePPO`` on the same env (the
  previous learner, for comparison).
* **before** (``--no-before`` skips it): the previous env path with ``MaskablePPO``: SB3's
  ``DummyVecEnv`` of ``Monitor(LearnerEnv)`` with random opponents that are handed a full
  ``state.info_set(p)`` (``needs_info_set = True``), as every opponent was before.
* **ceiling** / **ceiling maskable** (``--no-ceiling`` skips both): ``FastMaskablePPO`` /
  ``MaskablePPO`` on a free env (:class:`NullEnv`) that replays observations recorded from the
  game (random play, so their sparsity is the game's) with the game's action count: the
  learner's own cost, so the best ratio any env could give with these sizes and hyperparameters.
* **script** / **script ceiling** (``--no-script`` skips both): the masked PPO script itself,
  :func:`boardgames_rl.training.ppo.train` (an :class:`~boardgames_rl.training.settings.Args`
  with the same sizes, SB3's defaults for the rest, ``random`` opponents, no evaluation, no
  intermediate checkpoint, its run folder in a temporary directory) on the env it builds, the
  :class:`~boardgames_rl.envs.vector.gym_env.BatchedVectorEnv` (the same core and opponent pool as
  "after"), or, for the ceiling, on :class:`NullVectorEnv` (the recorded observations, as
  :class:`NullEnv`) put in its place. The env class is substituted by a subclass that keeps the
  clock: the time runs from the first step of the second rollout (the first rollout and its
  update are the warm-up, as ``learn``'s above) to ``close`` after the last update, so the
  script's setup (game, run folder, network) and its end (checkpoint, plot) are not counted.

``FastMaskablePPO`` (and the SB3 env builders) are imported from whichever module under ``lab/``
defines them (``--fast-ppo MODULE`` names one).

The CPU time spent inside the env (``reset`` / ``step`` / ``action_masks``, opponents' moves
included) is measured separately: its share says whether the env or the learner (rollout
inference + gradient updates) is the bottleneck. Results go to
``lab/benchmarks/results/training_speed.json`` and print as a markdown table.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch as th

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # work from a source checkout
    sys.path.insert(0, str(REPO_ROOT))

from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.logger import Logger  # noqa: E402
from stable_baselines3.common.monitor import Monitor  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper  # noqa: E402

from boardgames_rl.core.agent import RandomAgent  # noqa: E402
from boardgames_rl.envs.policy_obs import policy_obs_size  # noqa: E402
from boardgames_rl.envs.vector.gym_env import BatchedVectorEnv  # noqa: E402
from boardgames_rl.registry import make_game  # noqa: E402
from boardgames_rl.training import ppo, settings  # noqa: E402
from boardgames_rl.training.pool import OpponentPool  # noqa: E402
from lab.provenance import provenance  # noqa: E402


def import_definition(name: str, modules: list[str]) -> Any:
    """``name`` from the first of ``modules`` that defines it, else from the first module under
    ``boardgames_rl/`` or ``lab/`` whose source defines it (the SB3 trainer's modules are moving
    out of the package)."""
    for module in modules:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    pattern = re.compile(rf"^(class|def) {name}\b", re.M)
    for top in ("boardgames_rl", "lab"):
        for path in sorted((REPO_ROOT / top).rglob("*.py")):
            if pattern.search(path.read_text(encoding="utf-8", errors="replace")):
                module = ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts)
                return getattr(importlib.import_module(module), name)
    raise ImportError(f"no module of boardgames_rl/ or lab/ defines {name}")


build_vec_env = import_definition("build_vec_env", ["boardgames_rl.training.envs"])
make_learner_env = import_definition("make_learner_env", ["boardgames_rl.training.envs"])

WORKLOADS: list[tuple[str, dict[str, Any]]] = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_nightingale", {}),
    ("white_castle", {"num_players": 2}),
    ("night_of_the_ninja", {"num_players": 5}),
]
"""The measured game configurations: the 2-player ones, and Night of the Ninja with 5 players."""
TARGETS = {"night_of_the_ninja 5p": 0.5}
"""Issue 14.3 targets of the ratio to CartPole (0.7 for every other workload)."""


class InfoSetRandomAgent(RandomAgent):
    """A uniform random agent handed a full info set (how every opponent was played before)."""

    needs_info_set = True


class NullEnv(gym.Env):
    """A free env with a game's policy observations and action count (it replays ``bank``, rows
    recorded from the game, from row ``offset`` on; a fixed mask with ~12 legal actions; 40-step
    episodes): the learner on it is its own cost for that game's sizes and observation sparsity,
    the ceiling of the ratio whatever the env costs."""

    def __init__(self, bank: np.ndarray, num_actions: int, offset: int = 0):
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, bank.shape[1:], np.float32)
        self.action_space = gym.spaces.Discrete(num_actions)
        self._bank = bank.astype(np.float32)
        self._mask = np.zeros(num_actions, bool)
        self._mask[:: max(1, num_actions // 12)] = True
        self._t = 0
        self._row = offset

    def _obs(self) -> np.ndarray:
        self._row = (self._row + 1) % len(self._bank)
        return self._bank[self._row]

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._t = 0
        return self._obs(), {}

    def step(self, action):
        self._t += 1
        return self._obs(), 0.0, self._t >= 40, False, {}

    def action_masks(self) -> np.ndarray:
        return self._mask


BANKS: dict[str, np.ndarray] = {}
"""Recorded observations per game (made once per run, before any timing)."""


def observation_bank(game: Any, args: argparse.Namespace, steps: int = 256) -> np.ndarray:
    """``steps * n_envs`` policy observations of random play in the training env."""
    key = f"{game.name} {game.num_players}"
    if key not in BANKS:
        venv = after(game, args)
        assert hasattr(venv, "action_masks")  # the batched env
        rng = np.random.default_rng(args.seed)
        obs = venv.reset()
        assert isinstance(obs, np.ndarray)  # a Box observation space
        rows = [obs]
        for _ in range(steps - 1):
            masks = venv.action_masks()
            obs = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))[0]
            assert isinstance(obs, np.ndarray)
            rows.append(obs)
        venv.close()
        BANKS[key] = np.concatenate(rows)
        assert BANKS[key].shape[1] == policy_obs_size(game)
    return BANKS[key]


def ceiling(game: Any, args: argparse.Namespace) -> VecEnv:
    bank, actions = observation_bank(game, args), game.num_actions
    step = len(bank) // args.n_envs
    return DummyVecEnv([partial(NullEnv, bank, actions, i * step) for i in range(args.n_envs)])


class NullVectorEnv(gym.vector.VectorEnv):
    """:class:`NullEnv` s side by side as the script's env: ``BatchedVectorEnv``'s constructor and
    interface (``reset(seed=)`` and ``step`` infos with ``"action_mask"``; on the step that ends
    a game, same-step autoreset with ``"final_obs"`` and ``"final_info"``; ``call``), over the
    observations recorded from ``game`` (:data:`BANKS`)."""

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}

    def __init__(self, game: Any, num_envs: int, **_: Any):
        bank = BANKS[f"{game.name} {game.num_players}"]
        self.num_envs, self._bank = num_envs, bank.astype(np.float32)
        self.single_observation_space = gym.spaces.Box(-np.inf, np.inf, bank.shape[1:], np.float32)
        self.single_action_space = gym.spaces.Discrete(game.num_actions)
        self._mask = np.zeros((num_envs, game.num_actions), bool)
        self._mask[:, :: max(1, game.num_actions // 12)] = True
        self._rows = np.arange(num_envs) * (len(bank) // num_envs)
        self._t = np.zeros(num_envs, np.int64)

    def _obs(self, which: np.ndarray | slice = slice(None)) -> np.ndarray:
        self._rows[which] = (self._rows[which] + 1) % len(self._bank)
        return self._bank[self._rows]

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[np.ndarray, dict]:
        self._t[:] = 0
        return self._obs(), {"action_mask": self._mask.copy()}

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        self._t += 1
        obs, done = self._obs(), self._t >= 40
        infos: dict[str, Any] = {"action_mask": self._mask.copy()}
        if done.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final_obs[i] = obs[i]
            length = np.where(done, self._t, 0)
            final_info = {"episode": {"r": np.zeros(self.num_envs), "l": length}}
            infos.update(final_obs=final_obs, _final_obs=done, final_info=final_info)
            infos["_final_info"] = done
            self._t[done] = 0
            obs = self._obs(done)
        return obs, np.zeros(self.num_envs, np.float32), done, np.zeros_like(done), infos

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        return (False,) * self.num_envs  # add_snapshot: no pool here


def timed_env(base: type, warm_steps: int, made: list[Any]) -> type:
    """A subclass of the script's env class ``base`` that keeps the clock of a script run: the
    CPU time spent inside it (``reset`` / ``step`` / ``call``, opponents' moves included) and the
    process's CPU time from its step ``warm_steps + 1`` (the second rollout's first) to its
    ``close`` (after the last update); each instance is appended to ``made``."""

    class Timed(base):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.env_cpu, self.steps = 0.0, 0
            self.start: float | None = None
            self.end: float | None = None
            made.append(self)

        def reset(self, **kwargs: Any) -> Any:
            t = time.process_time()
            out = super().reset(**kwargs)
            self.env_cpu += time.process_time() - t
            return out

        def step(self, actions: Any) -> Any:
            self.steps += 1
            if self.steps == warm_steps + 1:
                self.start, self.env_cpu = time.process_time(), 0.0
            t = time.process_time()
            out = super().step(actions)
            self.env_cpu += time.process_time() - t
            return out

        def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
            t = time.process_time()
            out = super().call(name, *args, **kwargs)
            self.env_cpu += time.process_time() - t
            return out

        def close(self, **kwargs: Any) -> Any:
            if self.end is None:
                self.end = time.process_time()
            return super().close(**kwargs)

    return Timed


@contextlib.contextmanager
def patched(module: Any, **values: Any) -> Any:
    """``module``'s attributes set to ``values`` for the block, then restored."""
    old = {k: getattr(module, k) for k in values}
    try:
        for k, v in values.items():
            setattr(module, k, v)
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)


def measure_script(name: str, config: dict[str, Any], args: argparse.Namespace, env: type) -> dict:
    """Run :func:`boardgames_rl.training.ppo.train` for one warm-up rollout and update plus
    ``args.timesteps`` steps (whole rollouts) with the benchmark's sizes on ``env`` (put in the
    place of its ``BatchedVectorEnv``) and time the part after the warm-up (CPU)."""
    rollout = args.n_steps * args.n_envs
    steps = args.timesteps + (-args.timesteps) % rollout  # whole rollouts
    made: list[Any] = []
    with tempfile.TemporaryDirectory(prefix="training_speed_") as tmp:
        run = ppo.Args(
            game=name,
            config=dict(config),
            seat="random",
            seed=args.seed,
            out=str(Path(tmp) / "run"),
            timesteps=rollout + steps,
            num_envs=args.n_envs,
            num_steps=args.n_steps,
            batch_size=args.batch_size,
            update_epochs=args.n_epochs,
            learning_rate=3e-4,  # SB3 PPO's defaults from here, as the other workloads'
            gamma=0.99,
            gae_lambda=0.95,
            clip_coef=0.2,
            ent_coef=0.0,
            vf_coef=0.5,
            max_grad_norm=0.5,
            net=list(args.net),
            opponents=["random"],
            opponent_weights=[1.0],
            eval_games=0,
            checkpoint_every=0,
            threads=1,
        )
        settings.check(run)
        quiet = contextlib.redirect_stdout(io.StringIO())
        env_class = timed_env(env, args.n_steps, made)
        no_plot = patched(ppo, BatchedVectorEnv=env_class, plot_learning_curve=lambda *a: None)
        with quiet, no_plot:
            ppo.train(run)
    (timer,) = made
    cpu = timer.end - timer.start
    return {
        "steps": steps,
        "cpu_s": cpu,
        "steps_per_cpu_s": steps / cpu,
        "env_cpu_s": timer.env_cpu,
        "env_share": timer.env_cpu / cpu,
    }


class VecTimer(VecEnvWrapper):
    """Accumulates the CPU time spent inside the wrapped VecEnv (and its ``action_masks``)."""

    def __init__(self, venv: VecEnv):
        super().__init__(venv)
        self.cpu = 0.0

    def reset(self):
        t = time.process_time()
        out = self.venv.reset()
        self.cpu += time.process_time() - t
        return out

    def step_async(self, actions):
        t = time.process_time()
        self.venv.step_async(actions)
        self.cpu += time.process_time() - t

    def step_wait(self):
        t = time.process_time()
        out = self.venv.step_wait()
        self.cpu += time.process_time() - t
        return out

    def action_masks(self) -> np.ndarray:
        t = time.process_time()
        out = self.venv.action_masks() if hasattr(self.venv, "action_masks") else None
        if out is None:
            out = np.stack(self.venv.env_method("action_masks"))
        self.cpu += time.process_time() - t
        return out

    def env_method(self, method_name, *args, indices=None, **kwargs):
        t = time.process_time()
        out = self.venv.env_method(method_name, *args, indices=indices, **kwargs)
        self.cpu += time.process_time() - t
        return out


def cartpole(args: argparse.Namespace) -> VecEnv:
    return DummyVecEnv([lambda: Monitor(gym.make("CartPole-v1")) for _ in range(args.n_envs)])


def after(game: Any, args: argparse.Namespace) -> VecEnv:
    pool = OpponentPool.from_specs(game, ["random"])
    return build_vec_env(game, "random", pool, args.n_envs, args.seed)


def before(game: Any, args: argparse.Namespace) -> VecEnv:
    def make() -> gym.Env:
        return Monitor(make_learner_env(game, "random", InfoSetRandomAgent()))

    venv = DummyVecEnv([make for _ in range(args.n_envs)])
    venv.seed(args.seed)
    return venv


def measure(venv: VecEnv, algo: Any, args: argparse.Namespace) -> dict[str, float]:
    """Train ``args.timesteps`` steps (after a short un-timed warm-up) and time it (CPU)."""
    timer = VecTimer(venv)
    model = algo(
        "MlpPolicy",
        timer,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        seed=args.seed,
        device="cpu",
        policy_kwargs={"net_arch": args.net},
    )
    model.set_logger(Logger(None, []))  # no SB3-<time> folder in the temporary folder
    model.learn(args.n_steps * args.n_envs)  # warm-up: one rollout and update, not timed
    timer.cpu = 0.0
    start = time.process_time()
    model.learn(args.timesteps, reset_num_timesteps=False)
    cpu = time.process_time() - start
    steps = args.timesteps + (-args.timesteps) % (args.n_steps * args.n_envs)  # whole rollouts
    timer.close()
    return {
        "steps": steps,
        "cpu_s": cpu,
        "steps_per_cpu_s": steps / cpu,
        "env_cpu_s": timer.cpu,
        "env_share": timer.cpu / cpu,
    }


def commit() -> str:
    """The checkout's commit (``+`` when the package or the lab differ from it), or ``""``."""
    git = ["git", "-C", str(REPO_ROOT)]
    try:
        head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True)
        diff = subprocess.run([*git, "diff", "--quiet", "HEAD", "--", "boardgames_rl", "lab"])
    except OSError:
        return ""
    dirty = diff.returncode != 0
    return head.stdout.strip() + ("+" if dirty else "")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--timesteps", type=int, default=8192, help="timed learner steps")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--n-envs", type=int, default=4)
    p.add_argument("--n-steps", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--n-epochs", type=int, default=5)
    p.add_argument("--net", default="128,128")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-before", action="store_true", help="skip the previous env path")
    p.add_argument("--no-maskable", action="store_true", help="skip MaskablePPO on the env")
    p.add_argument("--no-ceiling", action="store_true", help="skip the free-env ceilings")
    p.add_argument("--no-script", action="store_true", help="skip the masked PPO script's runs")
    p.add_argument(
        "--fast-ppo",
        metavar="MODULE",
        help="the module FastMaskablePPO is imported from (default: boardgames_rl.training."
        "fast_ppo, else the module under lab/ that defines it)",
    )
    p.add_argument("--games", nargs="*", help="names (default: every workload)")
    p.add_argument("--out", default=str(REPO_ROOT / "lab/benchmarks/results/training_speed.json"))
    args = p.parse_args(argv)
    args.net = [int(x) for x in args.net.split(",")]
    th.set_num_threads(1)
    os.environ["BOARDGAMES_RL_NO_PROGRESS"] = "1"  # the script's bar
    fast_ppo = import_definition(
        "FastMaskablePPO", [args.fast_ppo or "boardgames_rl.training.fast_ppo"]
    )
    games = []
    for name, config in WORKLOADS:
        if args.games and name not in args.games:
            continue
        game = make_game(name, **config)
        games.append((f"{name} {game.num_players}p", name, config, game))
    kinds = ["after"] + ([] if args.no_maskable else ["maskable"])
    kinds += [] if args.no_before else ["before"]
    kinds += [] if args.no_ceiling else ["ceiling", "ceiling maskable"]
    kinds += [] if args.no_script else ["script"]
    kinds += [] if args.no_script or args.no_ceiling else ["script ceiling"]

    def sb3(make_env: Callable, algo: Any) -> Callable[[str, dict, Any], dict]:
        return lambda name, config, game: measure(make_env(game, args), algo, args)

    def script(env: type) -> Callable[[str, dict, Any], dict]:
        return lambda name, config, game: measure_script(name, config, args, env)

    runs = {  # kind: measure(name, config, game)
        "after": sb3(after, fast_ppo),
        "maskable": sb3(after, MaskablePPO),
        "before": sb3(before, MaskablePPO),
        "ceiling": sb3(ceiling, fast_ppo),
        "ceiling maskable": sb3(ceiling, MaskablePPO),
        "script": script(BatchedVectorEnv),
        "script ceiling": script(NullVectorEnv),
    }
    if not args.no_ceiling:
        for _, _, _, game in games:
            observation_bank(game, args)  # recorded before any timing
    kind_of: dict[str, tuple[str, str]] = {"CartPole-v1 (SB3 PPO)": ("CartPole-v1 (SB3 PPO)", "")}
    raw: list[dict[str, Any]] = []
    for r in range(args.rounds):
        # CartPole before every game's block and after the last: each game's ratios use the
        # mean of the CartPole runs just before and just after its block (the machine's load
        # drifts within a round)
        bases = [measure(cartpole(args), PPO, args)]
        row: dict[str, Any] = {}
        for label, name, config, game in games:
            for kind in kinds:
                row[f"{label} {kind}"] = runs[kind](name, config, game)
                kind_of[f"{label} {kind}"] = (label, kind)
            bases.append(measure(cartpole(args), PPO, args))
            base = (bases[-2]["steps_per_cpu_s"] + bases[-1]["steps_per_cpu_s"]) / 2
            for kind in kinds:
                row[f"{label} {kind}"]["ratio_to_cartpole"] = (
                    row[f"{label} {kind}"]["steps_per_cpu_s"] / base
                )
            for kind, over in (("script", "after"), ("script ceiling", "ceiling")):
                if kind in kinds and over in kinds:  # the script's speed over FastMaskablePPO's
                    row[f"{label} {kind}"][f"over_{over}"] = (
                        row[f"{label} {kind}"]["steps_per_cpu_s"]
                        / row[f"{label} {over}"]["steps_per_cpu_s"]
                    )
        cart = {k: statistics.median(b[k] for b in bases) for k in bases[0]}
        row = {"CartPole-v1 (SB3 PPO)": {**cart, "ratio_to_cartpole": 1.0, "runs": bases}, **row}
        raw.append(row)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)

    def stat(key: str, field: str) -> tuple[float, float, float]:
        xs = [row[key][field] for row in raw]
        return statistics.median(xs), min(xs), max(xs)

    lines = [
        "| workload | steps/CPU s | ratio to CartPole (min-max) | target | env share of CPU |",
        "|---|---:|---:|---:|---:|",
    ]
    summary = {}
    for key in raw[0]:
        sps, ratio, share = (
            stat(key, "steps_per_cpu_s"),
            stat(key, "ratio_to_cartpole"),
            stat(key, "env_share"),
        )
        label, kind = kind_of[key]
        target = "" if key.startswith("CartPole") else f"{TARGETS.get(label, 0.7):.1f}"
        kind = kind or "after"
        if kind != "after":
            target = f"({kind})"
        summary[key] = {
            "workload": label,
            "kind": kind,
            "steps": raw[0][key]["steps"],
            "steps_per_cpu_s": round(sps[0], 1),
            "ratio_to_cartpole": round(ratio[0], 3) if ratio[0] != 1.0 else 1.0,
            "ratio_range": [round(ratio[1], 3), round(ratio[2], 3)],
            "env_share": round(share[0], 3),
        }
        lines.append(
            f"| {key} | {sps[0]:.0f} | {ratio[0]:.2f} ({ratio[1]:.2f}-{ratio[2]:.2f}) | "
            f"{target} | {100 * share[0]:.0f}% |"
        )
    script_lines = [
        "| game | script / after (min-max) | script ceiling / ceiling (min-max) |",
        "|---|---:|---:|",
    ]
    script_vs: dict[str, dict[str, Any]] = {}
    for label, *_ in games:
        cells = []
        for kind, over in (("script", "after"), ("script ceiling", "ceiling")):
            key, field = f"{label} {kind}", f"over_{over}"
            if key not in raw[0] or field not in raw[0][key]:
                cells.append("")
                continue
            med, lo, hi = stat(key, field)
            script_vs.setdefault(label, {})[f"{kind} / {over}"] = {
                "median": round(med, 3),
                "range": [round(lo, 3), round(hi, 3)],
            }
            cells.append(f"{med:.2f} ({lo:.2f}-{hi:.2f})")
        script_lines.append(f"| {label} | {' | '.join(cells)} |")
    table = "\n".join(lines)
    print(table)
    if script_vs:
        table += "\n\n" + "\n".join(script_lines)
        print("\n" + "\n".join(script_lines))
    result = {
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "torch": th.__version__,
            "torch_threads": th.get_num_threads(),
            "numpy": np.__version__,
        },
        "commit": commit(),
        "clock": "time.process_time (CPU of this process)",
        "opponents": "random",
        "learner": "after / ceiling: FastMaskablePPO; maskable / before / ceiling maskable: "
        "sb3-contrib MaskablePPO; script / script ceiling: boardgames_rl.training.ppo.train",
        "fast_ppo_module": fast_ppo.__module__,
        "results": [v for v in summary.values() if v["kind"] == "after"],  # CartPole first
        "maskable": [v for v in summary.values() if v["kind"] == "maskable"],
        "before": [v for v in summary.values() if v["kind"] == "before"],
        "ceiling": [v for v in summary.values() if v["kind"] == "ceiling"],
        "ceiling_maskable": [v for v in summary.values() if v["kind"] == "ceiling maskable"],
        "script": [v for v in summary.values() if v["kind"] == "script"],
        "script_ceiling": [v for v in summary.values() if v["kind"] == "script ceiling"],
        "script_vs_fast_maskable_ppo": script_vs,
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
