"""Behaviour-cloning warm start for masked PPO: learn from a teacher's games, then fine-tune.

Castle Nightingale's terminal reward is rare for a random-ish policy (most games hit the 60-turn
limit), so PPO from scratch learns little within minutes. A standard remedy is to pretrain the
policy on demonstrations of a competent player and let PPO fine-tune it:

* :func:`collect_demonstrations` plays :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv`
  episodes (through the same :class:`~lab.recipes.sb3.envs.LearnerEnv` wrapper as training,
  seat feature included) where a *teacher* agent (default the game's heuristic) picks the
  learner's actions from ``state.info_set(seat)`` -- never the true state -- against the same
  opponents as training. It records, per learner decision, the observation the policy sees, the
  action mask, the teacher's action and the learner's final (unshaped) return of that game.
* :func:`pretrain` fits a MaskablePPO policy to them: masked cross-entropy on the teacher's
  actions (the policy's ``get_distribution`` with the masks) plus ``value_coef`` x the squared
  error of the value head against the final return. Returns per-epoch loss and accuracy.

:func:`warm_start` chains them, optionally with DAgger rounds (Ross, Gordon & Bagnell 2011):
the cloned policy plays, the teacher labels the states *it* reaches, the policy is refitted on
all the data -- cloning alone drifts into states the teacher never visits.

``train_ppo --bc-games N`` (``--bc-teacher``, ``--bc-epochs``, ``--bc-lr``, ``--bc-batch-size``,
``--bc-value-coef``, ``--bc-dagger-rounds``, ``--bc-dagger-games``, ``--bc-dagger-epochs``) runs
:func:`warm_start` before PPO, writes the per-epoch figures to ``bc.csv`` and one
evaluation row at step 0 to ``eval.csv``. Such runs are **PPO warm-started from the teacher**
(the heuristic), not learned from scratch: reports say so (``bc N games`` in their training
column). ``--resume`` never redoes the warm start.
"""

from __future__ import annotations

import copy
import csv
import io
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch as th
from torch.nn import functional as F

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import write_text
from boardgames_rl.core.game import Game
from boardgames_rl.envs.single_agent import OpponentsSpec
from boardgames_rl.training.pool import OpponentPool
from lab.recipes.sb3.envs import make_learner_env

BC_FIELDS = [
    "round",
    "games",
    "teacher_or_actor_win_rate",
    "epoch",
    "loss",
    "policy_loss",
    "value_loss",
    "accuracy",
    "samples",
    "wall_time",
]
"""Columns of ``bc.csv``."""


@dataclass
class Demonstrations:
    """The teacher's decisions in the learner's seat, one row per decision.

    Attributes:
        obs: ``float32 [N, obs]`` -- what the policy sees (``LearnerEnv`` observation).
        masks: ``bool [N, num_actions]`` -- the legal actions at that decision.
        actions: ``int64 [N]`` -- the teacher's action (always legal).
        returns: ``float32 [N]`` -- the learner's final return of that game (unshaped).
        seats: ``int64 [N]`` -- the learner's seat of that game.
        played: ``int64 [N]`` -- the action played (the teacher's, or the ``actor``'s).
        game_returns: ``float64 [games]`` -- the learner's final return, one per game.
    """

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    seats: np.ndarray
    game_returns: np.ndarray
    played: np.ndarray

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    @property
    def games(self) -> int:
        """Number of games played."""
        return int(self.game_returns.shape[0])

    @property
    def win_rate(self) -> float:
        """Share of the games the teacher won (return > 0)."""
        return float(np.mean(self.game_returns > 0)) if self.games else 0.0


def collect_demonstrations(
    game: Game,
    seat: int | Literal["random"],
    teacher_spec: str | Agent,
    opponents: OpponentsSpec,
    games: int,
    seed: int = 0,
    progress: bool = True,
    actor: Agent | None = None,
    prior: str | None = None,
) -> Demonstrations:
    """Play ``games`` episodes with ``teacher_spec`` (an agent spec, e.g. ``"heuristic"``, or an
    :class:`~boardgames_rl.agents.base.Agent`) in the
    learner's ``seat`` against ``opponents`` (an :class:`OpponentPool` -- copied, so the caller's
    is untouched --, an agent, a list or None for random) and record its decisions.

    The teacher sees only ``state.info_set(seat)``; one teacher instance is ``reset()`` per game.
    With an ``actor`` (e.g. a ``PolicyAgent`` of the policy being trained: DAgger, Ross et al.
    2011), the actor's action is played while the teacher's is recorded as the label, so the data
    covers the states the learner itself reaches (returns are then the actor's).
    ``prior`` (an agent spec) records the residual policy's observation (with the prior
    feature, :class:`~lab.recipes.sb3.envs.LearnerEnv`).
    Reproducible from ``seed``. Raises :class:`InvalidConfigError` for ``games < 1`` or a bad spec.
    """
    if not isinstance(games, int | np.integer) or isinstance(games, bool) or games < 1:
        raise InvalidConfigError(f"demonstration games must be an int >= 1, got {games!r}")
    try:
        teacher = make_agent(teacher_spec, game)
    except InvalidConfigError as e:
        raise InvalidConfigError(
            f"bad teacher spec {teacher_spec!r} for {game.name}: {e} "
            f"(use e.g. 'heuristic' or 'ismcts:iterations=200')"
        ) from e
    if isinstance(opponents, OpponentPool):
        opponents = copy.deepcopy(opponents)
    env = make_learner_env(game, seat, opponents, prior=prior)
    base: Any = env.env  # the SingleAgentEnv
    rng = np.random.default_rng([seed, 0xBC])
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    seats: list[int] = []
    played: list[int] = []
    game_returns: list[float] = []
    bar = _bar(games, "bc demos", progress)
    obs, _ = env.reset(seed=seed)
    for _ in range(games):
        teacher.reset()
        if actor is not None:
            actor.reset()
        start = len(actions)
        while True:
            learner = base.seat
            mask = env.action_masks()
            info_set = base.game_state.info_set(learner)
            action = int(teacher.act(info_set, rng))
            if not mask[action]:
                raise RuntimeError(
                    f"teacher {teacher_spec!r} chose illegal action {action} in {game.name}"
                )
            play = action if actor is None else int(actor.act(info_set, rng))
            obs_rows.append(obs)
            mask_rows.append(mask)
            actions.append(action)
            seats.append(learner)
            played.append(play)
            obs, _, terminated, truncated, info = env.step(play)
            if terminated or truncated:
                final = float(info["returns"][learner])
                returns.extend([final] * (len(actions) - start))
                game_returns.append(final)
                break
        bar.update(1)
        obs, _ = env.reset()
    bar.close()
    return Demonstrations(
        obs=np.stack(obs_rows).astype(np.float32),
        masks=np.stack(mask_rows).astype(bool),
        actions=np.asarray(actions, dtype=np.int64),
        returns=np.asarray(returns, dtype=np.float32),
        seats=np.asarray(seats, dtype=np.int64),
        game_returns=np.asarray(game_returns, dtype=np.float64),
        played=np.asarray(played, dtype=np.int64),
    )


def pretrain(
    model: Any,
    data: Demonstrations,
    epochs: int = 10,
    lr: float = 1e-3,
    batch_size: int = 256,
    seed: int = 0,
    value_coef: float = 0.5,
    progress: bool = True,
) -> list[dict[str, float]]:
    """Behaviour cloning of ``model.policy`` (a MaskablePPO policy) on ``data``.

    Per minibatch: ``-log pi(teacher action | obs, mask) + value_coef * (V(obs) - return)^2``,
    Adam at ``lr`` (its own optimizer; PPO's is left as it was). Returns one dict per epoch with
    the mean ``loss``, ``policy_loss``, ``value_loss`` and ``accuracy`` (share of decisions where
    the policy's most probable legal action is the teacher's, measured on the minibatches before
    each update). Reproducible from ``seed``.
    """
    if epochs < 1 or batch_size < 1 or not lr > 0 or value_coef < 0:
        raise InvalidConfigError(
            f"pretrain needs epochs >= 1, batch_size >= 1, lr > 0 and value_coef >= 0; got "
            f"{epochs}, {batch_size}, {lr}, {value_coef}"
        )
    if len(data) == 0:
        raise InvalidConfigError("pretrain: no demonstrations")
    policy = model.policy
    device = policy.device
    obs = th.as_tensor(data.obs, device=device)
    masks = th.as_tensor(data.masks, device=device)
    actions = th.as_tensor(data.actions, device=device)
    targets = th.as_tensor(data.returns, device=device)
    optimizer = th.optim.Adam(policy.parameters(), lr=lr)
    rng = np.random.default_rng([seed, 0xBC])
    training = policy.training
    policy.set_training_mode(True)
    history: list[dict[str, float]] = []
    n = len(data)
    bar = _bar(epochs, "bc epochs", progress)
    for epoch in range(1, epochs + 1):
        sums = np.zeros(4)
        for idx in np.array_split(rng.permutation(n), max(1, -(-n // batch_size))):
            i = th.as_tensor(idx, device=device)
            dist = policy.get_distribution(obs[i], action_masks=masks[i])
            policy_loss = -dist.log_prob(actions[i]).mean()
            values = policy.predict_values(obs[i]).flatten()
            value_loss = F.mse_loss(values, targets[i])
            loss = policy_loss + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            with th.no_grad():
                hits = (dist.distribution.probs.argmax(dim=1) == actions[i]).float().sum()
            k = len(idx)
            sums += [loss.item() * k, policy_loss.item() * k, value_loss.item() * k, hits.item()]
        loss_m, pol_m, val_m, acc = sums / n
        history.append(
            {
                "epoch": epoch,
                "loss": loss_m,
                "policy_loss": pol_m,
                "value_loss": val_m,
                "accuracy": acc,
                "samples": n,
            }
        )
        bar.update(1)
        bar.set_postfix(loss=f"{loss_m:.3f}", acc=f"{acc:.3f}")
    bar.close()
    policy.set_training_mode(training)
    return history


def aggregate(parts: list[Demonstrations]) -> Demonstrations:
    """One dataset holding every row (and game) of ``parts``, in order."""
    return Demonstrations(
        **{
            f: np.concatenate([getattr(d, f) for d in parts])
            for f in ("obs", "masks", "actions", "returns", "seats", "game_returns", "played")
        }
    )


def warm_start(
    model: Any,
    game: Game,
    seat: int | Literal["random"],
    teacher_spec: str,
    opponents: OpponentsSpec,
    games: int,
    epochs: int,
    lr: float,
    batch_size: int = 256,
    value_coef: float = 0.5,
    dagger_rounds: int = 0,
    dagger_games: int = 100,
    dagger_epochs: int = 8,
    seed: int = 0,
    progress: bool = True,
    prior: str | None = None,
) -> list[dict[str, float]]:
    """Behaviour cloning of ``teacher_spec`` in ``games`` games (``epochs`` epochs), then
    ``dagger_rounds`` DAgger rounds: ``dagger_games`` games played by the current deterministic
    policy, labelled by the teacher, added to the data, ``dagger_epochs`` more epochs. Returns the
    per-epoch rows of every round (round 0 = plain cloning), as written to ``bc.csv``.
    ``prior``: the residual policy's prior spec (its observations carry the prior feature)."""
    from boardgames_rl.agents.ppo import PolicyAgent
    from lab.recipes.sb3.callbacks import duration, report  # SB3: on use

    start = time.perf_counter()
    parts = [
        collect_demonstrations(
            game, seat, teacher_spec, opponents, games, seed, progress, prior=prior
        )
    ]
    rows: list[dict[str, float]] = []
    for rnd in range(dagger_rounds + 1):
        if rnd > 0:
            training = model.policy.training
            model.policy.set_training_mode(False)
            actor = PolicyAgent(model.policy, deterministic=True, name="learner")
            parts.append(
                collect_demonstrations(
                    game,
                    seat,
                    teacher_spec,
                    opponents,
                    dagger_games,
                    seed + rnd,
                    progress,
                    actor,
                    prior=prior,
                )
            )
            model.policy.set_training_mode(training)
        data = aggregate(parts) if len(parts) > 1 else parts[0]
        history = pretrain(
            model,
            data,
            epochs if rnd == 0 else dagger_epochs,
            lr,
            batch_size,
            seed + rnd,
            value_coef,
            progress,
        )
        rows += [
            {
                "round": rnd,
                "games": parts[-1].games,
                "teacher_or_actor_win_rate": parts[-1].win_rate,
                **h,
            }
            for h in history
        ]
        if history:
            what = "cloning" if rnd == 0 else f"DAgger round {rnd}/{dagger_rounds}"
            report(
                f"[bc] {what}: {parts[-1].games} games, {history[-1]['samples']} decisions, "
                f"accuracy {history[-1]['accuracy']:.3f}, {duration(time.perf_counter() - start)}"
            )
    return rows


def accuracy(model: Any, data: Demonstrations) -> float:
    """Share of ``data``'s decisions where the policy's most probable legal action is the
    teacher's (no gradient, policy mode unchanged)."""
    policy = model.policy
    with th.no_grad():
        obs = th.as_tensor(data.obs, device=policy.device)
        masks = th.as_tensor(data.masks, device=policy.device)
        probs = policy.get_distribution(obs, action_masks=masks).distribution.probs
        pred = probs.argmax(dim=1).cpu().numpy()
    return float(np.mean(pred == data.actions))


def write_bc_csv(
    path: str | os.PathLike,
    history: list[dict[str, float]],
    wall_time: float,
    root: str | os.PathLike | None = None,
) -> None:
    """Write :func:`pretrain`'s per-epoch figures to ``path`` (``bc.csv``) inside the folder
    ``root`` (default: its own folder; a fresh file renamed over the name, never through a
    link)."""
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=BC_FIELDS)
    w.writeheader()
    for row in history:
        w.writerow(
            {
                **{k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()},
                "wall_time": round(wall_time, 2),
            }
        )
    write_text(Path(path), buf.getvalue(), root)


def _bar(total: int, desc: str, enabled: bool) -> Any:
    from boardgames_rl._util.progress import progress_bar

    return progress_bar(total, desc, "it", enabled=enabled)
