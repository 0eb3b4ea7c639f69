"""Train PPO with RLlib (new API stack) on one game: a shared policy or one policy per seat.

Needs the ``[rllib]`` extra. Every knob is a flag::

    python lab/experiments/rllib_ppo.py --game white_castle --policies per-seat --iterations 50
    python lab/experiments/rllib_ppo.py --game night_of_the_ninja --config '{"num_players": 5}' \\
        --env-runners 2 --batch 4000 --out runs/rllib_ninja
    python lab/experiments/rllib_ppo.py --help

The env is :class:`boardgames_rl.interop.rllib.RLlibMultiAgentEnv` (one agent per seat, only the
seat on move observed, the game's returns at the end) and the model is
:class:`~boardgames_rl.interop.rllib.MaskedPPOTorchRLModule` (illegal actions' logits masked in
every forward pass). After training, ``--eval-games`` seeded games are played with the trained
policies (greedy, every seat) and the script checks that every action was legal; ``--out``
saves an RLlib checkpoint (``Algorithm.from_checkpoint(path)`` restores it).

By default Ray starts a private local instance (``--address local``); pass ``--address auto``
or ``ray://host:10001`` to use an existing cluster.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True, help="registry name, e.g. white_castle")
    p.add_argument("--config", default="{}", help="the game's configuration as a JSON object")
    p.add_argument("--policies", default="shared", choices=["shared", "per-seat"])
    p.add_argument("--iterations", type=int, default=20, help="algo.train() calls")
    p.add_argument("--batch", type=int, default=2000, help="train_batch_size_per_learner")
    p.add_argument("--minibatch", type=int, default=256, help="minibatch_size")
    p.add_argument("--epochs", type=int, default=4, help="num_epochs per training batch")
    p.add_argument(
        "--fragment",
        default="auto",
        help="rollout_fragment_length: 'auto' (batch / env runners) or an int dividing the batch",
    )
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--lambda", dest="lambda_", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2, help="clip_param")
    p.add_argument("--entropy", type=float, default=0.01, help="entropy_coeff")
    p.add_argument("--hidden", default="256,256", help="comma-separated hidden layer sizes")
    p.add_argument("--env-runners", type=int, default=0, help="0: sample in the driver")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local Ray")
    p.add_argument("--address", default="local", help="'local', 'auto' or a cluster address")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--torch-threads", type=int, default=1, help="torch threads of the driver (small nets: 1)"
    )
    p.add_argument("--eval-games", type=int, default=5, help="seeded games played after training")
    p.add_argument("--out", default=None, help="directory for an RLlib checkpoint")
    args = p.parse_args(argv)
    try:
        args.config = json.loads(args.config)
        if not isinstance(args.config, dict):
            raise ValueError
    except ValueError:
        p.error(f"--config must be a JSON object, got {args.config!r}")
    try:
        args.hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    except ValueError:
        p.error(f"--hidden must be comma-separated integers, got {args.hidden!r}")
    if args.fragment != "auto":
        try:
            args.fragment = int(args.fragment)
        except ValueError:
            p.error(f"--fragment must be 'auto' or an integer, got {args.fragment!r}")
        if args.fragment < 1:
            p.error("--fragment must be >= 1")
    for name in ("iterations", "batch", "minibatch", "epochs", "torch_threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    return args


def build(args: argparse.Namespace) -> Any:
    """The PPO algorithm for ``args`` (Ray must be initialised)."""
    from boardgames_rl.interop import rllib

    config = rllib.ppo_config(
        args.game, args.config, policies=args.policies, hidden=args.hidden, seed=args.seed
    )
    config = (
        config.env_runners(num_env_runners=args.env_runners, rollout_fragment_length=args.fragment)
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=args.gamma,
            lambda_=args.lambda_,
            clip_param=args.clip,
            entropy_coeff=args.entropy,
        )
    )
    return config.build_algo()


def evaluate(algo: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Play ``args.eval_games`` seeded games with the trained policies (greedy); every action
    must be in the mask. Returns the per-seat mean return and the number of decisions."""
    from boardgames_rl.interop import rllib

    env = rllib.RLlibMultiAgentEnv({"game": args.game, "config": args.config})
    totals = np.zeros(env.game.num_players)
    decisions = 0
    for g in range(args.eval_games):
        obs, _ = env.reset(seed=(args.seed, g))
        done = False
        while not done:
            ((agent, o),) = obs.items()
            module = algo.get_module(rllib.SHARED if args.policies == "shared" else agent)
            action = rllib.greedy_action(module, o)
            if o["action_mask"][action] != 1:
                raise AssertionError(f"illegal action {action} for {agent} in game {g}")
            obs, rewards, term, trunc, _ = env.step({agent: action})
            decisions += 1
            done = term["__all__"] or trunc["__all__"]
        totals += env.game_state.returns()
    n = max(args.eval_games, 1)
    return {"mean_returns": (totals / n).round(3).tolist(), "decisions": decisions}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    import ray
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(args.torch_threads)

    started = not ray.is_initialized()
    if started:
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if args.address == "local" and args.num_cpus is not None:
            kwargs["num_cpus"] = args.num_cpus
        ray.init(address=args.address, **kwargs)
    algo = None
    try:
        algo = build(args)
        history = []
        for i in range(args.iterations):
            t0 = time.process_time()
            result = algo.train()
            runners = result.get("env_runners", {})
            learners = result.get("learners", {})
            row = {
                "iteration": i + 1,
                "env_steps": runners.get("num_env_steps_sampled_lifetime"),
                "module_steps_trained": {
                    m: learners[m].get("num_module_steps_trained_lifetime")
                    for m in sorted(learners)
                    if m != "__all_modules__"
                },
                "episode_return_mean": runners.get("episode_return_mean"),
                "cpu_seconds": round(time.process_time() - t0, 2),
            }
            history.append(row)
            print(json.dumps(row), flush=True)
        report: dict[str, Any] = {"history": history, "eval": evaluate(algo, args)}
        if args.out:
            report["checkpoint"] = str(algo.save_to_path(args.out))
        print(json.dumps(report["eval"]), flush=True)
        report["algo"] = algo  # stopped on return when this call started Ray
        return report
    finally:
        if started:  # a caller that started Ray itself keeps the algorithm running
            if algo is not None:
                algo.stop()
            ray.shutdown()
        torch.set_num_threads(threads)


if __name__ == "__main__":
    main()
    sys.exit(0)
