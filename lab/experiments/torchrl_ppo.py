"""Train PPO with TorchRL on one game, through TorchRL's ``PettingZooWrapper`` with masks.

Needs the ``[torchrl]`` extra. Every knob is a flag::

    python lab/experiments/torchrl_ppo.py --game white_castle --iterations 50 --out runs/torchrl_wc
    python lab/experiments/torchrl_ppo.py --game night_of_the_ninja --config '{"num_players": 5}'
    python lab/experiments/torchrl_ppo.py --help

Read top to bottom:

1. the env is :func:`boardgames_rl.interop.torchrl.make_env` (TorchRL's ``PettingZooWrapper``
   over our AEC env, every seat in the group ``"players"``);
2. the actor samples from TorchRL's ``MaskedCategorical`` over the legal-action mask, the critic
   values every seat's observation; both are shared by all seats;
3. a ``Collector`` gathers ``--frames`` env steps per iteration (games are reset
   inside it; the seed stream starts at ``--seed``);
4. advantages: TorchRL's ``vec_generalized_advantage_estimate`` per seat over the whole batch
   (a seat's value is learned at every step, its reward is the game's return at the end);
5. the PPO update: clipped policy loss and entropy bonus over the decisions of the seat on move
   only (the ``("players", "mask")`` entry; the other seats' actions are never played), value
   loss over every seat; ``--epochs`` passes of ``--minibatch`` rows;
6. after training, ``--eval-games`` seeded games are played greedily and every action of the
   seat on move is checked against its mask; ``--out`` saves both networks' state dicts.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", required=True, help="registry name, e.g. white_castle")
    p.add_argument("--config", default="{}", help="the game's configuration as a JSON object")
    p.add_argument("--iterations", type=int, default=20, help="collect + update rounds")
    p.add_argument("--frames", type=int, default=2000, help="env steps per iteration")
    p.add_argument("--minibatch", type=int, default=256, help="rows per gradient step")
    p.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--lambda", dest="lambda_", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2, help="PPO ratio clip")
    p.add_argument("--entropy", type=float, default=0.01, help="entropy bonus coefficient")
    p.add_argument("--value-coef", type=float, default=0.5, help="value loss coefficient")
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--hidden", default="256,256", help="comma-separated hidden layer sizes")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--torch-threads", type=int, default=1, help="torch intra-op threads (small nets: 1)"
    )
    p.add_argument("--eval-games", type=int, default=5, help="seeded games played after training")
    p.add_argument("--out", default=None, help="directory for the trained networks")
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
    for name in ("iterations", "frames", "minibatch", "epochs", "torch_threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    return args


def advantages(batch: Any, critic: Any, gamma: float, lambda_: float) -> None:
    """Write ``("players", "advantage")`` and ``("players", "value_target")`` into ``batch``
    (GAE per seat; time is the batch's first dimension)."""
    import torch
    from torchrl.objectives.value.functional import vec_generalized_advantage_estimate

    from boardgames_rl.interop.torchrl import GROUP, VALUE

    with torch.no_grad():
        critic(batch)
        critic(batch["next"])
        seat_major = {  # [T, n, 1] -> [n, T, 1]: GAE runs along dim -2
            "value": batch[VALUE],
            "next_value": batch["next"][VALUE],
            "reward": batch["next"][GROUP, "reward"],
            "done": batch["next"][GROUP, "done"],
            "terminated": batch["next"][GROUP, "terminated"],
        }
        t = {k: v.transpose(0, 1) for k, v in seat_major.items()}
        adv, target = vec_generalized_advantage_estimate(
            gamma, lambda_, t["value"], t["next_value"], t["reward"], t["done"], t["terminated"]
        )
    batch.set((GROUP, "advantage"), adv.transpose(0, 1))
    batch.set((GROUP, "value_target"), target.transpose(0, 1))


def ppo_update(batch: Any, actor: Any, critic: Any, optimizer: Any, args: Any) -> dict[str, float]:
    """``args.epochs`` passes of clipped PPO over ``batch``; the mean losses of the last pass."""
    import torch

    from boardgames_rl.interop.torchrl import ACTING, ACTION, GROUP, LOG_PROB, OBS

    params = [*actor.parameters(), *critic.parameters()]
    rows = batch.shape[0]
    stats: dict[str, list[float]] = {"policy": [], "value": [], "entropy": []}
    for _ in range(args.epochs):
        stats = {k: [] for k in stats}
        for idx in torch.randperm(rows).split(args.minibatch):
            mb = batch[idx]
            acting = mb[ACTING]  # [B, n]: the seat on move
            if not acting.any():
                continue
            dist = actor.get_dist(mb)
            log_prob = dist.log_prob(mb[ACTION])
            ratio = torch.exp(log_prob - mb[LOG_PROB])[acting]
            adv = mb[GROUP, "advantage"].squeeze(-1)[acting]
            if adv.numel() > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            clipped = ratio.clamp(1 - args.clip, 1 + args.clip)
            policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
            entropy = dist.entropy()[acting].mean()
            value = critic.module(mb[OBS])
            value_loss = (value - mb[GROUP, "value_target"]).pow(2).mean()
            loss = policy_loss + args.value_coef * value_loss - args.entropy * entropy
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, args.max_grad_norm)
            optimizer.step()
            stats["policy"].append(policy_loss.item())
            stats["value"].append(value_loss.item())
            stats["entropy"].append(entropy.item())
    return {k: round(float(np.mean(v)), 5) if v else float("nan") for k, v in stats.items()}


def evaluate(actor: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Play ``args.eval_games`` seeded games greedily; every action of the seat on move must be
    in its mask. Returns the per-seat mean return and the number of decisions."""
    import torch
    from torchrl.envs.utils import ExplorationType, set_exploration_type

    from boardgames_rl.interop.torchrl import ACTING, ACTION, GROUP, MASK, make_env

    totals: np.ndarray | None = None
    decisions = 0
    for g in range(args.eval_games):
        env = make_env(args.game, args.config, seed=args.seed * 1000 + g)
        limit = env._env.game.max_game_length + 1
        with torch.no_grad(), set_exploration_type(ExplorationType.DETERMINISTIC):
            played = env.rollout(limit, actor, break_when_any_done=True)
        acting = played[ACTING]
        chosen = played[ACTION][acting]
        legal = played[MASK][acting].gather(-1, chosen[:, None]).squeeze(-1)
        if not bool(legal.all()):
            raise AssertionError(f"an illegal action in evaluation game {g}")
        if not bool(played["next", "done"][-1]):
            raise AssertionError(f"evaluation game {g} did not end within {limit} steps")
        returns = played["next", GROUP, "reward"][-1].squeeze(-1).numpy()
        totals = returns if totals is None else totals + returns
        decisions += int(acting.sum())
        env.close()
    mean = (totals / max(args.eval_games, 1)).round(3).tolist() if totals is not None else []
    return {"mean_returns": mean, "decisions": decisions}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(args.torch_threads)
    try:
        return _train(args)
    finally:
        torch.set_num_threads(threads)


def _train(args: argparse.Namespace) -> dict[str, Any]:
    import torch
    from torchrl.collectors import Collector

    from boardgames_rl.interop.torchrl import make_actor_critic, make_env

    torch.manual_seed(args.seed)
    env = make_env(args.game, args.config, seed=args.seed)
    actor, critic = make_actor_critic(env, hidden=args.hidden)
    optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=args.lr)
    collector = Collector(
        env,
        actor,
        frames_per_batch=args.frames,
        total_frames=args.frames * args.iterations,
        auto_register_policy_transforms=False,  # the policy is not recurrent
    )
    history = []
    for i, batch in enumerate(collector):
        t0 = time.process_time()
        advantages(batch, critic, args.gamma, args.lambda_)
        losses = ppo_update(batch, actor, critic, optimizer, args)
        row = {
            "iteration": i + 1,
            "frames": int(batch.numel()),
            "games_ended": int(batch["next", "done"].sum()),
            **losses,
            "update_cpu_seconds": round(time.process_time() - t0, 2),
        }
        history.append(row)
        print(json.dumps(row), flush=True)
    collector.shutdown()
    report: dict[str, Any] = {"history": history, "eval": evaluate(actor, args)}
    print(json.dumps(report["eval"]), flush=True)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        path = out / "torchrl_ppo.pt"
        torch.save({"actor": actor.state_dict(), "critic": critic.state_dict()}, path)
        report["checkpoint"] = str(path)
    report["actor"], report["critic"] = actor, critic
    return report


if __name__ == "__main__":
    main()
