"""Masked PPO on one seat of a game, read top to bottom (in the spirit of CleanRL's ``ppo.py``).

.. code-block:: bash

    boardgames-rl train --game white_castle --timesteps 256 --num-steps 64 --eval-games 4 \\
        --out runs/wc
    python -m boardgames_rl.training.ppo --game castle_flutterstone --timesteps 256 \\
        --num-envs 8 --num-workers 2 --num-steps 32 --eval-games 4 --out runs/cf

(256 steps: one update, to try the commands; a run that learns takes ``--timesteps 300000``
and more, with the default ``--num-steps`` and ``--eval-games``.)

Every setting is a documented field of :class:`~boardgames_rl.training.settings.Args` (its
flag: the name with hyphens; a game may give a field its own default,
:data:`~boardgames_rl.training.settings.PER_GAME`). The loop over updates:

1. **rollout**: ``num_steps`` steps of ``num_envs`` games in the vector runtime
   (:class:`~boardgames_rl.envs.vector.gym_env.BatchedVectorEnv`: the learner's seat, the other
   seats played inside by opponents drawn per game from ``opponents`` with ``opponent_weights``;
   ``self`` is a frozen snapshot of the learner, one every ``snapshot_every`` steps);
2. **advantages** by GAE (``gamma``, ``gae_lambda``); a game cut by a time limit bootstraps
   from the value of its last observation;
3. **update**: ``update_epochs`` passes over the rollout in minibatches of ``batch_size``: the
   clipped policy loss on advantages normalised per minibatch, the value loss, the entropy
   bonus; the illegal actions' logits are lowered by 1e8 before the log-softmax (their
   probability is 0, in the rollout and in the update alike); gradients clipped to
   ``max_grad_norm``; Adam;
4. **evaluation** every ``eval_every`` steps: the greedy policy against each of
   ``eval_opponents`` in ``eval_games`` games, every seat in turn; the best so far is kept;
5. **checkpoint** every ``checkpoint_every`` steps, at the end, and on SIGINT / SIGTERM (exit
   130 / 143; rerun the same command to continue).

Same seed and flags, same model, with any ``num_workers``. A resumed run continues the
checkpoint's weights and optimiser with games and draws seeded from ``(seed, step)``.
The run folder: :mod:`boardgames_rl.training.runs`; the network:
:mod:`boardgames_rl.training.network`; stopping: :mod:`boardgames_rl.training.stopping`.
The heavier recipes (behaviour cloning, reward shaping, a residual prior, starting from a
pretrained entry) are in the lab (``lab/recipes``).
"""

from __future__ import annotations

import contextlib
import csv
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch as th

from boardgames_rl._util.progress import progress_bar
from boardgames_rl.agents.ppo import PolicyAgent, policy_from_weights
from boardgames_rl.agents.registry import make_agent, spec_for_file
from boardgames_rl.core.errors import GameError, InvalidConfigError
from boardgames_rl.core.files import open_append
from boardgames_rl.core.seeding import seed_stream
from boardgames_rl.envs.policy_obs import policy_obs_size
from boardgames_rl.envs.vector.gym_env import BatchedVectorEnv
from boardgames_rl.registry import make_game
from boardgames_rl.training.envs import PoolEnvFactory, parse_seat
from boardgames_rl.training.evaluation import EvaluationStopped, evaluate
from boardgames_rl.training.network import (
    ActorCritic,
    RolloutWeights,
    adam,
    entropy,
    masked_distribution,
    sample,
)
from boardgames_rl.training.plots import plot_learning_curve
from boardgames_rl.training.pool import OpponentPool
from boardgames_rl.training.report import duration, eval_line, report, win_rates
from boardgames_rl.training.runs import (
    FORMAT,
    keep_best,
    open_run,
    read_best,
    save,
    undo_fresh_start,
    unlock_run,
)
from boardgames_rl.training.runs import write_config as write_run_config
from boardgames_rl.training.settings import Args, parse_args, saved_args
from boardgames_rl.training.stopping import StopRequests, children_ignore_sigint

CSV_FIELDS = [
    "time/total_timesteps",
    "time/fps",
    "time/time_elapsed",
    "rollout/ep_rew_mean",
    "rollout/ep_len_mean",
    "train/policy_gradient_loss",
    "train/value_loss",
    "train/entropy_loss",
    "train/approx_kl",
    "train/clip_fraction",
    "train/explained_variance",
]
"""Columns of ``progress.csv`` (SB3's names)."""
EVAL_FIELDS = ["timesteps", "opponent", "games", "wins", "rate", "low", "high", "mean_return"]
EVAL_FIELDS.append("wall_time")
"""Columns of ``eval.csv``."""


class UpdateSettings(Protocol):
    """What :func:`update` reads of a run's settings: the fields of
    :class:`~boardgames_rl.training.settings.Args` (and of the league's settings) it uses."""

    update_epochs: int
    batch_size: int
    clip_coef: float
    ent_coef: float
    vf_coef: float
    max_grad_norm: float


class EvalSettings(Protocol):
    """What :func:`evaluate_and_keep` reads of a run's settings."""

    eval_games: int
    eval_opponents: list[str]
    seed: int


def train(args: Args) -> dict[str, Any]:
    """Train (or resume) the run ``args`` describe; returns its ``config.json``. The run folder
    is locked while it trains (a second training into it is refused in one line).

    Raises:
        InvalidConfigError: a setting or a file of the run folder that is not what it should be.
        SystemExit: 130 / 143 after SIGINT / SIGTERM, once the checkpoint is saved.
    """
    try:
        return _train(args)
    finally:
        unlock_run(Path(args.out))


def _train(args: Args) -> dict[str, Any]:
    """:func:`train`'s body (the folder's lock released by it), read top to bottom."""
    # 1. the game, the seat, the opponents, the run folder
    try:
        game = make_game(args.game, **args.config)
    except TypeError as e:  # an option the game does not have
        raise InvalidConfigError(f"-c {args.config}: {e}") from e
    seat = parse_seat(args.seat, game)
    pool = OpponentPool.from_specs(game, args.opponents, args.opponent_weights, args.max_snapshots)
    for spec in args.eval_opponents:
        make_agent(spec, game)  # a bad spec fails now, not after the first rollout
    out = Path(args.out)
    run, created = open_run(out, args.resume)
    done = run.done_steps
    interrupted = run.resumed and not run.settings.get("complete", True)
    target = int(run.settings["target_timesteps"]) if interrupted else done + args.timesteps
    settings = {"settings": saved_args(args), "target_timesteps": target, "complete": False}
    if not run.resumed:
        write_run_config(out, {"format": FORMAT, **settings, "num_timesteps": 0})

    # 2. seeds: a fresh run from `seed`, a resumed one from (seed, done): its own draws
    seeds = seed_stream((args.seed, done)) if done else seed_stream(args.seed)
    env_seed, torch_seed, batch_seed = (int(s) for s in seeds.integers(0, 2**31, 3))
    th.set_num_threads(args.threads)
    th.manual_seed(torch_seed)
    batch_rng = np.random.default_rng(batch_seed)

    # 3. the games (the vector runtime), the network and its optimiser (resumed: the checkpoint's)
    with children_ignore_sigint():  # a Ctrl-C reaches the workers too: this process decides
        envs = BatchedVectorEnv(
            game,
            args.num_envs,
            seat=seat,
            seat_feature=True,
            seed=env_seed,
            num_workers=args.num_workers,
            env_factory=PoolEnvFactory(game, seat, pool),
        )
    obs_size, num_actions = policy_obs_size(game), game.num_actions  # with the seat feature
    try:
        net = ActorCritic(obs_size, num_actions, args.net)
        optimizer = adam(net, args.learning_rate)
        if run.weights is not None:
            load_checkpoint(net, optimizer, run.weights, out)
            for g in optimizer.param_groups:
                g["lr"] = args.learning_rate
        for name, state in run.snapshots:
            envs.call("add_snapshot", name, snapshot_policy(state))
    except BaseException:
        envs.close()
        if not run.resumed:
            undo_fresh_start(out, created)
        raise
    report(start_line(args, game, seat, out, done, target, run.resumed))

    # 4. the loop: rollout, advantages, update, evaluation and checkpoint
    step, started, last_eval, last_checkpoint = done, time.perf_counter(), done, done
    snapshots = list(run.snapshots)
    episodes = Episodes()

    def checkpoint(complete: bool) -> dict[str, Any]:
        wall = run.wall_time + time.perf_counter() - started
        extra = {"complete": complete, "wall_time": round(wall, 2)}
        return save(out, step, net, optimizer, snapshots, {**settings, **extra})

    def add_snapshot() -> None:
        name = f"self-{step}"
        state = {k: v.detach().clone() for k, v in net.state_dict().items()}
        envs.call("add_snapshot", name, snapshot_policy(state))
        snapshots.append((name, state))
        del snapshots[: max(0, len(snapshots) - args.max_snapshots)]

    if pool.self_weight > 0 and not snapshots:  # the first games draw self-play too
        add_snapshot()
    buffer = Rollout.empty(args.num_steps, args.num_envs, obs_size, num_actions)
    cursor = Cursor.reset(envs, env_seed)
    bar = progress_bar(total=target, initial=done, desc="train", unit="step")

    with StopRequests(60 * args.max_minutes) as stop:
        try:
            while step < target and not stop.requested:
                # self-play: a frozen copy of the learner joins the pool every snapshot_every
                since = step - int(snapshots[-1][0][5:]) if snapshots else step
                if pool.self_weight > 0 and since >= args.snapshot_every and since > 0:
                    add_snapshot()

                # 5. rollout: num_steps steps of every game, the weights fixed
                policy = RolloutWeights(net)
                if not collect(envs, policy, buffer, cursor, episodes, args.gamma, stop):
                    break  # a signal: the unfinished rollout is dropped, the checkpoint is `step`

                # 6. advantages: GAE over the rollout
                with th.no_grad():
                    next_value = policy(cursor.obs)[1]
                advantages = gae(buffer, next_value, cursor.start, args.gamma, args.gae_lambda)
                step += buffer.size
                bar.update(buffer.size)

                # 7. update: clipped policy loss, value loss, entropy bonus, in minibatches
                stats = update(net, optimizer, buffer, advantages, args, batch_rng)
                elapsed = time.perf_counter() - started
                rate = int((step - done) / max(elapsed, 1e-9))
                row = [step, rate, round(elapsed, 2), *episodes.means(), *stats]
                append_csv(out, "progress.csv", CSV_FIELDS, row)

                # 8. evaluation and checkpoint, between updates
                if args.eval_every > 0 and step - last_eval >= args.eval_every and step < target:
                    last_eval = step
                    evaluate_and_keep(args, game, seat, net, out, step, started, stop)
                due = args.checkpoint_every > 0 and step - last_checkpoint >= args.checkpoint_every
                if due and step < target:
                    checkpoint(complete=False)
                    last_checkpoint = step
        except EvaluationStopped:
            pass  # a signal during an evaluation: the checkpoint below is the last update's
        except BaseException:
            bar.close()
            envs.close()
            raise
        bar.close()
        final: list[dict[str, Any]] = []
        if stop.signal is None and step >= target:
            # a signal during the final evaluation: saved incomplete, the rerun evaluates
            with contextlib.suppress(EvaluationStopped):
                final = evaluate_and_keep(args, game, seat, net, out, step, started, stop)
        envs.close()
        config = checkpoint(complete=step >= target and stop.signal is None)
    if stop.signal is not None:
        print(
            f"train: {stop.name}: stopped at step {step}, checkpoint saved in {out}; rerun the "
            f"same command (or --resume --out {out}) to continue",
            file=sys.stderr,
        )
        raise SystemExit(stop.exit_code)
    config["final_eval"] = final
    write_run_config(out, config)
    options = ", ".join(f"{k}={v}" for k, v in game.config.items())
    title = (
        f"{game.name} ({options}), learner seat {seat}" if options else f"{game.name}, seat {seat}"
    )
    plot_learning_curve(out, out / "learning_curve.png", title)
    for line in summary_lines(out, config, time.perf_counter() - started, step >= target):
        report(line)
    return config


# ---------------------------------------------------------------------------- the loop's parts
@dataclass
class Rollout:
    """One rollout: ``[num_steps, num_envs]`` rows of what the learner saw and did."""

    obs: th.Tensor
    legal: th.Tensor  # 1.0 where the action was legal
    actions: th.Tensor
    logprobs: th.Tensor
    rewards: th.Tensor
    starts: th.Tensor  # 1.0 where the observation is a game's first
    values: th.Tensor

    @classmethod
    def empty(cls, steps: int, envs: int, obs_size: int, num_actions: int) -> Rollout:
        rows = (steps, envs)
        return cls(
            th.zeros((*rows, obs_size)),
            th.zeros((*rows, num_actions)),
            th.zeros(rows, dtype=th.long),
            *(th.zeros(rows) for _ in range(4)),
        )

    @property
    def size(self) -> int:
        return int(self.actions.numel())


@dataclass
class Cursor:
    """Where the games stand between steps: the observations, legal actions and game starts."""

    obs: th.Tensor
    legal: th.Tensor
    start: th.Tensor

    @classmethod
    def reset(cls, envs: Any, seed: int) -> Cursor:
        obs, infos = envs.reset(seed=seed)
        legal = th.from_numpy(infos["action_mask"])
        return cls(th.from_numpy(obs), legal, th.ones(len(obs)))


@dataclass
class Episodes:
    """The returns and lengths of the learner's finished games (the last 100 are logged)."""

    returns: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)

    def means(self) -> list[float | str]:
        """Mean return and length of the last 100 games; blank before the first one ends (as
        SB3 logs it: the learning curve skips a blank cell)."""
        if not self.returns:
            return ["", ""]
        return [float(np.mean(self.returns[-100:])), float(np.mean(self.lengths[-100:]))]


def collect(
    envs: Any,
    policy: RolloutWeights,
    buffer: Rollout,
    cursor: Cursor,
    episodes: Episodes,
    gamma: float,
    stop: StopRequests,
) -> bool:
    """Fill ``buffer`` with a rollout from ``cursor`` on (``cursor`` moves on); False when a
    signal stopped it midway."""
    with th.no_grad():
        for t in range(buffer.actions.shape[0]):
            buffer.obs[t], buffer.legal[t], buffer.starts[t] = (
                cursor.obs,
                cursor.legal,
                cursor.start,
            )
            logits, value = policy(cursor.obs)
            logp, probs = masked_distribution(logits, buffer.legal[t])
            action = sample(probs)
            buffer.actions[t], buffer.values[t] = action, value
            buffer.logprobs[t] = logp.gather(1, action[:, None]).squeeze(1)
            try:
                obs, reward, term, trunc, infos = envs.step(action.numpy())
            except RuntimeError:  # a worker gone: stopped by the same signal?
                if stop.signal is None:
                    raise
                return False
            buffer.rewards[t] = th.from_numpy(reward)
            if "final_info" in infos:  # games that ended on this step
                ended = np.flatnonzero(infos["_final_info"])
                episode = infos["final_info"]["episode"]
                episodes.returns.extend(episode["r"][ended].tolist())
                episodes.lengths.extend(episode["l"][ended].tolist())
                cut = np.flatnonzero(trunc & ~term)
                if cut.size:  # a time limit, not the game's end: bootstrap from the value
                    finals = th.from_numpy(np.stack(infos["final_obs"][cut]))
                    buffer.rewards[t, cut] += gamma * policy(finals)[1]
            cursor.obs = th.from_numpy(obs)
            cursor.legal = th.from_numpy(infos["action_mask"])
            cursor.start = th.from_numpy((term | trunc).astype(np.float32))
            if stop.signal is not None:
                return False
    return True


def gae(
    buffer: Rollout, next_value: th.Tensor, next_start: th.Tensor, gamma: float, lam: float
) -> th.Tensor:
    """Generalised advantage estimates of the rollout: each step's TD error and discount at
    once, then the backward sum over steps (in numpy, whose small ops cost less)."""
    nonterminal = 1.0 - th.cat([buffer.starts[1:], next_start[None]])
    following = th.cat([buffer.values[1:], next_value[None]])
    deltas = (buffer.rewards + gamma * following * nonterminal - buffer.values).numpy()
    discounts = (gamma * lam * nonterminal).numpy()
    advantages = np.zeros_like(deltas)
    running = np.zeros(deltas.shape[1], np.float32)
    for t in reversed(range(deltas.shape[0])):
        running = deltas[t] + discounts[t] * running
        advantages[t] = running
    return th.from_numpy(advantages)


def update(
    net: ActorCritic,
    optimizer: th.optim.Optimizer,
    buffer: Rollout,
    advantages: th.Tensor,
    args: UpdateSettings,
    rng: np.random.Generator,
) -> list[float]:
    """``update_epochs`` passes over the rollout in minibatches: the clipped policy loss on
    advantages normalised per minibatch, the value loss, the entropy bonus, clipped gradients.
    Returns the means of the policy, value and entropy losses, the approximate KL, the clip
    fraction, and the explained variance (the ``train/`` columns of ``progress.csv``)."""
    obs = buffer.obs.reshape(buffer.size, -1)
    legal = buffer.legal.reshape(buffer.size, -1)
    actions, old_logprobs = buffer.actions.reshape(-1), buffer.logprobs.reshape(-1)
    returns = (advantages + buffer.values).reshape(-1)
    advantages = advantages.reshape(-1)
    stats: list[list[float]] = [[] for _ in range(5)]
    for _epoch in range(args.update_epochs):
        order = th.from_numpy(rng.permutation(buffer.size))
        for first in range(0, buffer.size, args.batch_size):
            rows = order[first : first + args.batch_size]
            logits, value = net(obs.index_select(0, rows))
            logp_all, probs_all = masked_distribution(logits, legal.index_select(0, rows))
            logp = logp_all.gather(1, actions[rows, None]).squeeze(1)
            log_ratio = logp - old_logprobs[rows]
            ratio = log_ratio.exp()
            adv = advantages[rows]
            if len(rows) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            clipped_ratio = ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
            pg_loss = -th.min(adv * ratio, adv * clipped_ratio).mean()
            v_loss = ((returns[rows] - value) ** 2).mean()
            ent_loss = -entropy(logp_all, probs_all).mean()
            loss = pg_loss + args.ent_coef * ent_loss + args.vf_coef * v_loss
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
            optimizer.step()
            with th.no_grad():
                kl = ((ratio - 1) - log_ratio).mean()
                clip_fraction = ((ratio - 1).abs() > args.clip_coef).float().mean()
                for k, x in enumerate((pg_loss, v_loss, ent_loss, kl, clip_fraction)):
                    stats[k].append(x.item())
    y, v = returns.numpy(), buffer.values.reshape(-1).numpy()
    explained = float("nan") if y.var() == 0 else float(1 - (y - v).var() / y.var())
    return [*(float(np.mean(x)) for x in stats), explained]


# ---------------------------------------------------------------------------- helpers
def snapshot_policy(state: dict[str, Any], prior: str | None = None) -> Any:
    """A frozen policy (what :class:`~boardgames_rl.agents.ppo.PolicyAgent` plays) from the
    network's weights (``prior``: a residual network's prior agent)."""
    kwargs = {"prior": prior} if prior else None
    policy = policy_from_weights(state, "a self-play snapshot", kwargs)
    policy.set_training_mode(False)
    for p in policy.parameters():
        p.requires_grad_(False)
    policy._boardgames_frozen = True
    return policy


def load_checkpoint(
    net: ActorCritic, optimizer: th.optim.Optimizer, weights: dict[str, Any], out: Path
) -> None:
    """The checkpoint's weights (and optimiser state, when saved) into ``net`` / ``optimizer``.

    Raises:
        InvalidConfigError: they are not those of this network (another --net, game or config).
    """
    try:
        net.load_state_dict(weights["policy"], strict=True)
        if "policy.optimizer" in weights:
            optimizer.load_state_dict(weights["policy.optimizer"])
            for group in optimizer.param_groups:
                group["fused"], group["foreach"] = True, None
    except (KeyError, RuntimeError, ValueError) as e:
        first = str(e).strip().splitlines()[0][:160] if str(e).strip() else type(e).__name__
        raise InvalidConfigError(
            f"--resume: {out / 'model.zip'} does not fit this network ({first}); resume with the "
            "run's own settings, or start a new run with another --out"
        ) from e


def evaluate_and_keep(
    args: EvalSettings,
    game: Any,
    seat: Any,
    net: ActorCritic,
    out: Path,
    step: int,
    started: float,
    stop: StopRequests,
) -> list[dict[str, Any]]:
    """Evaluate the greedy policy, append ``eval.csv``, keep it in ``best/`` if it is the best;
    returns the rows (none without evaluation games)."""
    if args.eval_games < 1 or not args.eval_opponents:
        return []
    policy = snapshot_policy(net.state_dict(), net.prior)
    agent = PolicyAgent(policy, deterministic=True, name="learner")
    if seat == "random":
        seats = list(range(game.num_players))
    else:  # one seat, or a league learner's seats
        seats = [int(s) for s in seat] if isinstance(seat, list) else [seat]
    rows = []
    for spec in args.eval_opponents:
        result = evaluate(
            agent, game, spec, args.eval_games, seats, args.seed, lambda: stop.signal is not None
        )
        rows.append({"timesteps": step, **result.as_dict(), "opponent": spec_for_file(spec)})
    wall = round(time.perf_counter() - started, 2)
    for row in rows:
        row["wall_time"] = wall
        append_csv(out, "eval.csv", EVAL_FIELDS, [row[k] for k in EVAL_FIELDS])
    best = keep_best(out, net, step, rows)
    report(eval_line(step, rows, time.perf_counter() - started, best))
    return rows


def append_csv(out: Path, name: str, fields: list[str], row: list[Any]) -> None:
    """Append ``row`` to ``out/name`` (the header first when the file is new)."""
    with open_append(out / name, out) as f:
        w = csv.writer(f)
        if f.tell() == 0:
            w.writerow(fields)
        w.writerow(row)


def start_line(
    args: Args, game: Any, seat: Any, out: Path, done: int, target: int, resumed: bool
) -> str:
    """What the run is about to do, in one line (printed first)."""
    what = f"resuming at step {done:,} to {target:,}" if resumed else f"{target:,} steps"
    where = f"{game.name} {game.num_players}p seat {seat}"
    if args.eval_games > 0 and args.eval_opponents:
        every = f"every {args.eval_every:,} steps" if args.eval_every > 0 else "at the end"
        evals = f"evaluation {every} vs {', '.join(args.eval_opponents)}"
    else:
        evals = "no evaluation"
    return f"train: {where}, {what} into {out} ({evals})"


def summary_lines(
    out: Path, config: dict[str, Any], seconds: float, complete: bool, command: str = "train"
) -> list[str]:
    """The end of a run: where the model, the best model and the logs are, the win rates
    (``command``: the ``boardgames-rl`` command that ran it, ``train`` or ``league``)."""
    steps = int(config.get("num_timesteps", 0))
    best = read_best(out / "best")
    kept = (
        f"{out / 'best' / 'model.zip'} (step {best['timesteps']:,}, mean win rate "
        f"{best['score']:.3f})"
        if best["score"] >= 0
        else "none (no evaluation ran)"
    )
    logs = [str(out / n) for n in ("eval.csv", "progress.csv", "learning_curve.png")]
    state = "done" if complete else "stopped at the time limit"
    return [
        f"{command}: {state}, {steps:,} steps in {duration(seconds)}; the run folder is {out}",
        f"  model:       {out / 'model.zip'} (play it as ppo:path={out / 'model.zip'})",
        f"  best model:  {kept}",
        f"  logs:        {', '.join(logs)}; settings: {out / 'config.json'}",
        f"  final win rates: {win_rates(config.get('final_eval') or [])}",
        f"  continue:    boardgames-rl {command} --resume --out {out} --timesteps N (N more steps)",
    ]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse the flags and train; a runtime error exits 1 with one line."""
    args = parse_args(argv)
    try:
        return train(args)
    except (InvalidConfigError, GameError, ValueError) as e:
        raise SystemExit(f"train: error: {e}") from e


if __name__ == "__main__":
    main()
