"""Training speed: MaskablePPO steps/s on every game beside SB3 PPO on ``CartPole-v1``.

Run from the repository root::

    python benchmarks/training_speed.py                       # 20k learner steps per workload
    python benchmarks/training_speed.py --timesteps 4096 --n-envs 4

Every workload trains with the same hyperparameters (``--n-envs``, ``--n-steps``,
``--batch-size``, ``--n-epochs``, ``--net``) in the same process and run, so the **ratio** to
CartPole (an env that costs almost nothing) says how much slower training is on our games. The
time spent inside the environments (``reset``/``step``/``action_masks``, opponents' moves
included; the learner's opponents are uniform random agents) is measured separately: its share of
the wall time says whether the env or the learner (rollout inference + gradient updates) is the
bottleneck. Results go to ``benchmarks/results/training_speed.json`` and print as a markdown table.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import torch as th

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # work from a source checkout
    sys.path.insert(0, str(REPO_ROOT))

from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from boardgames_rl.registry import make_game  # noqa: E402
from boardgames_rl.training.envs import make_learner_env  # noqa: E402

WORKLOADS: list[tuple[str, dict[str, Any]]] = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_nightingale", {}),
    ("white_castle", {"num_players": 2}),
    ("night_of_the_ninja", {"num_players": 5}),
]
"""The measured game configurations: the 2-player ones, and Night of the Ninja with 5 players."""


class EnvTimer(gym.Wrapper):
    """Accumulates the wall time spent inside the wrapped env (shared counter)."""

    def __init__(self, env: gym.Env, clock: list[float]):
        super().__init__(env)
        self.clock = clock

    def reset(self, **kwargs):
        t = time.perf_counter()
        out = self.env.reset(**kwargs)
        self.clock[0] += time.perf_counter() - t
        return out

    def step(self, action):
        t = time.perf_counter()
        out = self.env.step(action)
        self.clock[0] += time.perf_counter() - t
        return out

    def action_masks(self):
        t = time.perf_counter()
        out = self.env.get_wrapper_attr("action_masks")()
        self.clock[0] += time.perf_counter() - t
        return out


def measure(label: str, make_env, algo, args: argparse.Namespace) -> dict[str, Any]:
    """Train ``args.timesteps`` steps (after a short un-timed warm-up) and time it."""
    clock = [0.0]
    venv = DummyVecEnv([lambda: EnvTimer(make_env(), clock) for _ in range(args.n_envs)])
    model = algo(
        "MlpPolicy",
        venv,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        seed=args.seed,
        device="cpu",
        policy_kwargs={"net_arch": args.net},
    )
    model.learn(args.n_steps * args.n_envs)  # warm-up: one rollout and update, not timed
    clock[0] = 0.0
    start = time.perf_counter()
    model.learn(args.timesteps, reset_num_timesteps=False)
    wall = time.perf_counter() - start
    steps = args.timesteps + (-args.timesteps) % (args.n_steps * args.n_envs)  # whole rollouts
    venv.close()
    return {
        "workload": label,
        "steps": steps,
        "wall_s": round(wall, 3),
        "steps_per_s": round(steps / wall, 1),
        "env_s": round(clock[0], 3),
        "env_share": round(clock[0] / wall, 3),
        "env_steps_per_s": round(steps / clock[0], 1) if clock[0] > 0 else None,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--timesteps", type=int, default=20_000, help="timed learner steps")
    p.add_argument("--n-envs", type=int, default=4)
    p.add_argument("--n-steps", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--n-epochs", type=int, default=5)
    p.add_argument("--net", default="128,128")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(REPO_ROOT / "benchmarks/results/training_speed.json"))
    args = p.parse_args(argv)
    args.net = [int(x) for x in args.net.split(",")]
    th.set_num_threads(1)

    rows = [measure("CartPole-v1 (SB3 PPO)", lambda: gym.make("CartPole-v1"), PPO, args)]
    for name, config in WORKLOADS:
        game = make_game(name, **config)
        label = f"{name} {game.num_players}p"
        rows.append(
            measure(label, lambda g=game: make_learner_env(g, "random", None), MaskablePPO, args)
        )
    base = rows[0]["steps_per_s"]
    for r in rows:
        r["ratio_to_cartpole"] = round(r["steps_per_s"] / base, 3)

    lines = [
        "| workload | steps/s | ratio to CartPole | env share of time | env-only steps/s |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['workload']} | {r['steps_per_s']:.0f} | {r['ratio_to_cartpole']:.2f} | "
            f"{100 * r['env_share']:.0f}% | {r['env_steps_per_s'] or 0:.0f} |"
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
        },
        "opponents": "random",
        "results": rows,
        "table": table,
    }
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
