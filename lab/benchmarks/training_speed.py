"""Training speed: MaskablePPO steps/s on every game beside SB3 PPO on ``CartPole-v1``.

Run from the repository root::

    python lab/benchmarks/training_speed.py                       # 3 interleaved rounds, 8192 steps
    python lab/benchmarks/training_speed.py --timesteps 4096 --rounds 5 --no-before

Every workload trains with the same hyperparameters (``--n-envs``, ``--n-steps``,
``--batch-size``, ``--n-epochs``, ``--net``) in the same process, so the **ratio** to CartPole (an
env that costs almost nothing) says how much slower training is on our games. Time is the
process's **CPU time** (``time.process_time``; torch runs one thread), so the figures hold on a
shared machine; rounds interleave the workloads (CartPole, then every game's "after",
"maskable", "before" and "ceiling" runs, then CartPole again before the next game; a game's
ratio divides by the mean of the CartPole runs just before and after its block) and the table
gives medians (min-max) of the per-round ratios.

* **after**: what training uses: :class:`~boardgames_rl.training.fast_ppo.FastMaskablePPO` on
  :func:`boardgames_rl.training.envs.build_vec_env` (the default ``vec="batched"``): the batched
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

The CPU time spent inside the env (``reset`` / ``step`` / ``action_masks``, opponents' moves
included) is measured separately: its share says whether the env or the learner (rollout
inference + gradient updates) is the bottleneck. Results go to
``lab/benchmarks/results/training_speed.json`` and print as a markdown table.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
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
from stable_baselines3.common.monitor import Monitor  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecEnvWrapper  # noqa: E402

from boardgames_rl.core.agent import RandomAgent  # noqa: E402
from boardgames_rl.envs.policy_obs import policy_obs_size  # noqa: E402
from boardgames_rl.registry import make_game  # noqa: E402
from boardgames_rl.training.envs import build_vec_env, make_learner_env  # noqa: E402
from boardgames_rl.training.fast_ppo import FastMaskablePPO  # noqa: E402
from boardgames_rl.training.pool import OpponentPool  # noqa: E402

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
        rng = np.random.default_rng(args.seed)
        rows = [venv.reset()]
        for _ in range(steps - 1):
            masks = venv.action_masks()
            rows.append(venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))[0])
        venv.close()
        BANKS[key] = np.concatenate(rows)
        assert BANKS[key].shape[1] == policy_obs_size(game)
    return BANKS[key]


def ceiling(game: Any, args: argparse.Namespace) -> VecEnv:
    bank, actions = observation_bank(game, args), game.num_actions
    step = len(bank) // args.n_envs
    return DummyVecEnv([lambda i=i: NullEnv(bank, actions, i * step) for i in range(args.n_envs)])


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
    p.add_argument("--games", nargs="*", help="names (default: every workload)")
    p.add_argument("--out", default=str(REPO_ROOT / "lab/benchmarks/results/training_speed.json"))
    args = p.parse_args(argv)
    args.net = [int(x) for x in args.net.split(",")]
    th.set_num_threads(1)
    games = []
    for name, config in WORKLOADS:
        if args.games and name not in args.games:
            continue
        game = make_game(name, **config)
        games.append((f"{name} {game.num_players}p", game))
    kinds = ["after"] + ([] if args.no_maskable else ["maskable"])
    kinds += [] if args.no_before else ["before"]
    kinds += [] if args.no_ceiling else ["ceiling", "ceiling maskable"]
    runs = {  # kind: (env maker, learner)
        "after": (after, FastMaskablePPO),
        "maskable": (after, MaskablePPO),
        "before": (before, MaskablePPO),
        "ceiling": (ceiling, FastMaskablePPO),
        "ceiling maskable": (ceiling, MaskablePPO),
    }
    if not args.no_ceiling:
        for _, game in games:
            observation_bank(game, args)  # recorded before any timing
    kind_of: dict[str, tuple[str, str]] = {"CartPole-v1 (SB3 PPO)": ("CartPole-v1 (SB3 PPO)", "")}
    raw: list[dict[str, Any]] = []
    for r in range(args.rounds):
        # CartPole before every game's block and after the last: each game's ratios use the
        # mean of the CartPole runs just before and just after its block (the machine's load
        # drifts within a round)
        bases = [measure(cartpole(args), PPO, args)]
        row: dict[str, Any] = {}
        for label, game in games:
            for kind in kinds:
                make_env, algo = runs[kind]
                row[f"{label} {kind}"] = measure(make_env(game, args), algo, args)
                kind_of[f"{label} {kind}"] = (label, kind)
            bases.append(measure(cartpole(args), PPO, args))
            base = (bases[-2]["steps_per_cpu_s"] + bases[-1]["steps_per_cpu_s"]) / 2
            for kind in kinds:
                row[f"{label} {kind}"]["ratio_to_cartpole"] = (
                    row[f"{label} {kind}"]["steps_per_cpu_s"] / base
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
    table = "\n".join(lines)
    print(table)
    result = {
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "torch": th.__version__,
            "torch_threads": th.get_num_threads(),
            "numpy": np.__version__,
        },
        "clock": "time.process_time (CPU of this process)",
        "opponents": "random",
        "learner": "after / ceiling: FastMaskablePPO; maskable / before / ceiling maskable: "
        "sb3-contrib MaskablePPO",
        "results": [v for v in summary.values() if v["kind"] == "after"],  # CartPole first
        "maskable": [v for v in summary.values() if v["kind"] == "maskable"],
        "before": [v for v in summary.values() if v["kind"] == "before"],
        "ceiling": [v for v in summary.values() if v["kind"] == "ceiling"],
        "ceiling_maskable": [v for v in summary.values() if v["kind"] == "ceiling maskable"],
        "rounds": raw,
        "table": table,
    }
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
