"""Learner slots: the learner's seat of a game, the other seats played inside by agents.

Each slot is a :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv` (built by a picklable
factory, :class:`SlotFactory` by default); per step it applies the learner's action and plays
the opponents until the learner is on move again or the game ends, when it starts its next game
at once (auto-reset; the ended game's last observation, return, length and per-seat returns are
kept for the episode infos). :class:`LearnerKind` is what the core and its workers build slots
from; :class:`BatchedCore` is the core with learner slots, built from the facades' keywords.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, cast

import numpy as np
from gymnasium import spaces

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.arguments import check_seat_option
from boardgames_rl.core.game import Game, State
from boardgames_rl.core.seeding import SeedLike, clone_rng
from boardgames_rl.envs.aec import RewardShaping
from boardgames_rl.envs.policy_obs import policy_obs_bounds, prior_feature, seat_in_observation
from boardgames_rl.envs.single_agent import OpponentsSpec, SingleAgentEnv
from boardgames_rl.envs.vector.core import VectorCore
from boardgames_rl.envs.vector.errors import BrokenSlotsError, SlotError


class SlotFactory:
    """The default ``env_factory``: a
    :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv` per call, with its own deep copy of
    ``opponents`` (picklable: what worker processes receive)."""

    def __init__(
        self,
        game: Game,
        seat: int | Literal["random"] = 0,
        opponents: OpponentsSpec = None,
        reward_shaping: RewardShaping | None = None,
    ):
        self.game, self.seat, self.opponents = game, seat, opponents
        self.reward_shaping = reward_shaping

    def __call__(self) -> SingleAgentEnv:
        return SingleAgentEnv(
            self.game,
            seat=self.seat,
            opponents=copy.deepcopy(self.opponents),
            reward_shaping=self.reward_shaping,
            illegal_action="raise",  # actions are checked against the masks before any slot moves
        )


@dataclass(slots=True)
class _Game:
    """What rebuilds a slot's game: its seed, the slot's seed stream as it stood once that seed
    was drawn, and the learner's actions since (games and opponents are deterministic)."""

    seed: int
    stream: np.random.Generator
    moves: list[int]


def _game(env: SingleAgentEnv, info: dict[str, Any]) -> _Game:
    """The game ``env`` has just started (``info``: what its start returned)."""
    assert env._seed_stream is not None
    return _Game(info["game_seed"], clone_rng(env._seed_stream), [])


@dataclass(slots=True)
class _Undo:
    """What :meth:`LearnerSlots.rollback` needs to undo the last committed step."""

    ended: dict[int, _Game]  # slot -> its game before the step (the slots whose game ended)
    returns: list[float]
    lengths: list[int]
    rows: dict[int, tuple]  # slot -> its episode rows before the step (ended slots)
    last: tuple[np.ndarray, np.ndarray, np.ndarray]  # reward, terminated, truncated


class LearnerSlots:
    """A chunk of slots (one :class:`SingleAgentEnv` each) writing into buffer views.

    A step is all or nothing: when a slot raises, every slot that moved is rebuilt from its
    game's seed and the learner's moves (:meth:`SingleAgentEnv.replay_game`) and its rows are
    put back, so the chunk is as it was; :meth:`rollback` undoes the last committed step the
    same way (when another chunk failed). No game is copied on a step that succeeds."""

    def __init__(
        self,
        envs: list[SingleAgentEnv],
        first: int,
        out: dict[str, np.ndarray],
        prior: Callable[[], Agent] | None = None,
    ):
        self.envs = envs
        self.first = first
        self.out = out
        game = envs[0].game
        self.obs_size = game.observation_spec.size
        self.priors = [prior() for _ in envs] if prior is not None else None
        if prior is not None:  # the observation comes from the info set the prior reads
            for env in envs:
                env._first_observation_ahead = False
        self.prior_at = out["observation"].shape[1] - (game.num_actions if prior else 0)
        self.feature = self.prior_at != self.obs_size  # the seat feature
        self.returns = [0.0] * len(envs)
        self.lengths = [0] * len(envs)
        self.prefetch = False  # a worker's slots: build next games while waiting, keep undo
        self.unprepared: list[int] = []  # slots whose next game is not built yet
        self.games: list[_Game] = []
        self._undo: _Undo | None = None

    def reset(self, seeds: Sequence[SeedLike]) -> None:
        out = self.out
        self._undo = None
        for k in ("reward", "terminated", "truncated", "episode_return", "episode_length"):
            out[k].fill(0)
        games = []
        for j, env in enumerate(self.envs):
            info = self._call(j, env._start, seeds[j])
            games.append(_game(env, info))
            self._write_start(j, env, info)
        self.games = games
        self.returns = [0.0] * len(self.envs)
        self.lengths = [0] * len(self.envs)
        if self.prefetch:
            self.unprepared = list(range(len(self.envs)))

    def prepare_one(self) -> bool:
        """Do one part of one slot's next game ahead of its reset (its initial state, then the
        opponents' opening moves and the learner's first observation:
        :meth:`~boardgames_rl.envs.single_agent.SingleAgentEnv.prepare_next_game`, the same game,
        so results never change); False when every slot's next game is ready."""
        unprepared = self.unprepared
        while unprepared:
            if self.envs[unprepared[-1]].prepare_next_game():
                return True
            unprepared.pop()
        return False

    def step(self) -> None:
        """Step every slot with its action from the ``actions`` buffer (checked against the mask
        buffer by the caller, so not checked again) and write the results; all or nothing."""
        out = self.out
        actions = out["actions"].tolist()
        obs, mask = out["observation"], out["action_mask"]
        size, feature = self.obs_size, self.feature
        returns, lengths = list(self.returns), list(self.lengths)
        rewards = [0.0] * len(self.envs)
        terms = [False] * len(self.envs)
        truncs = [False] * len(self.envs)
        ended: dict[int, _Game] = {}  # slot -> the game it started
        rows: dict[int, tuple] = {}  # slot -> its episode rows as they were
        j = 0
        try:
            for j, env in enumerate(self.envs):
                reward, terminated, truncated, info = env._advance(actions[j], True)
                rewards[j] = reward
                returns[j] += reward
                lengths[j] += 1
                state = env.game_state
                if terminated or truncated:
                    terms[j], truncs[j] = terminated, truncated
                    rows[j] = self._episode_rows(j)
                    final = out["final_observation"]
                    final[j, :size] = state.observation(env._seat)
                    if feature:
                        final[j, size:] = obs[j, size:]
                    out["episode_return"][j] = returns[j]
                    out["episode_length"][j] = lengths[j]
                    out["final_returns"][j] = info["returns"]
                    returns[j] = 0.0
                    lengths[j] = 0
                    start = env._start(None)
                    ended[j] = _game(env, start)
                    self._write_start(j, env, start)
                    continue
                self._write_observation(j, state, env._seat)
                mask[j] = state.legal_action_mask()
        except Exception as exc:
            error = exc if isinstance(exc, SlotError) else SlotError(self.first + j, exc)
            self._put_back(range(j + 1), self.games, rows, error)
            raise error from exc
        # every slot succeeded: commit
        if self.prefetch:  # a worker's slots: keep what undoes this step (another chunk may fail)
            last = (out["reward"].copy(), out["terminated"].copy(), out["truncated"].copy())
            before = {j: self.games[j] for j in ended}
            self._undo = _Undo(before, self.returns, self.lengths, rows, last)
        games = self.games
        for j, action in enumerate(actions):
            if j in ended:
                games[j] = ended[j]
            else:
                games[j].moves.append(action)
        self.returns, self.lengths = returns, lengths
        if self.prefetch:
            self.unprepared.extend(ended)
        out["reward"][:] = rewards
        out["terminated"][:] = terms
        out["truncated"][:] = truncs

    def rollback(self) -> None:
        """Undo the last committed :meth:`step` (no-op when there is none to undo)."""
        undo, self._undo = self._undo, None
        if undo is None:
            return
        for j, game in enumerate(self.games):
            if j in undo.ended:
                self.games[j] = undo.ended[j]
            else:
                game.moves.pop()
        self.returns, self.lengths = undo.returns, undo.lengths
        self._put_back(range(len(self.envs)), self.games, undo.rows, None)
        for k, v in zip(("reward", "terminated", "truncated"), undo.last, strict=True):
            self.out[k][:] = v

    def _episode_rows(self, j: int) -> tuple:
        out = self.out
        return (
            out["final_observation"][j].copy(),
            out["episode_return"][j].copy(),
            out["episode_length"][j].copy(),
            out["final_returns"][j].copy(),
        )

    def _put_back(
        self,
        slots: range,
        games: list[_Game],
        rows: dict[int, tuple],
        error: SlotError | None,
    ) -> None:
        """Rebuild ``slots`` from ``games`` and write their rows as they were. A slot that
        cannot be rebuilt (an agent whose moves depend on more than the game and its
        generator) raises :class:`BrokenSlotsError`: the env must then be reset."""
        out = self.out
        for j in slots:
            env, game = self.envs[j], games[j]
            before = None
            if self.priors is not None:
                prior = self.priors[j]
                prior.reset()

                def before(env: SingleAgentEnv = env, prior: Agent = prior) -> None:
                    prior_feature(prior, env.game_state.info_set(env._seat))

            try:
                env.replay_game(game.seed, game.stream, game.moves, before)
                self._write_observation(j, env.game_state, env._seat)
                self._write_seat(j, env, game.seed)
            except Exception as exc:
                cause = error or SlotError(self.first + j, exc)
                raise BrokenSlotsError(cause.slot, cause.original) from exc
            if j in rows:
                for k, v in zip(_EPISODE_ROWS, rows[j], strict=True):
                    out[k][j] = v
        if self.prefetch:
            self.unprepared = list(range(len(self.envs)))

    def _write_start(self, j: int, env: SingleAgentEnv, info: dict[str, Any]) -> None:
        if self.priors is not None:
            self.priors[j].reset()
            self._write_observation(j, env.game_state, env._seat)
        else:  # encoded ahead with the game where its opening was played ahead
            self.out["observation"][j, : self.obs_size] = env.learner_observation()
        self._write_seat(j, env, info["game_seed"])

    def _write_seat(self, j: int, env: SingleAgentEnv, game_seed: int) -> None:
        """Slot ``j``'s seat feature, mask, seat and game seed rows."""
        out, seat = self.out, env._seat
        if self.feature:
            row = out["observation"][j, self.obs_size : self.prior_at]
            row[:] = 0
            row[seat] = 1
        out["action_mask"][j] = env.game_state.legal_action_mask()
        out["seat"][j] = seat
        out["game_seed"][j] = game_seed

    def _write_observation(self, j: int, state: State, seat: int) -> None:
        """Slot ``j``'s observation row (the seat feature excepted), encoded once: with a prior,
        the info set the prior reads gives it (``InfoSet.observation`` is
        ``state.observation(seat)``), then the prior's one-hot."""
        row = self.out["observation"][j]
        if self.priors is None:
            state.write_observation(seat, row[: self.obs_size] if self.feature else row)
            return
        info_set = state.info_set(seat)
        row[: self.obs_size] = info_set.observation
        row[self.prior_at :] = self._call(j, partial(prior_feature, self.priors[j]), info_set)

    def _call(self, j: int, fn: Callable, arg: Any) -> Any:
        try:
            return fn(arg)
        except Exception as exc:
            raise SlotError(self.first + j, exc) from exc

    def call(self, name: str, args: tuple, kwargs: dict, local: Sequence[int]) -> list[Any]:
        return [getattr(self.envs[j], name)(*args, **kwargs) for j in local]

    def get_attr(self, name: str, local: Sequence[int]) -> list[Any]:
        return [getattr(self.envs[j], name) for j in local]

    def set_attr(self, name: str, value: Any, local: Sequence[int]) -> None:
        for j in local:
            setattr(self.envs[j], name, value)


_EPISODE_ROWS = ("final_observation", "episode_return", "episode_length", "final_returns")


class LearnerKind:
    """Learner slots built by ``factory`` (one env per slot), with an optional ``prior`` agent
    per slot; observations of ``obs_size`` floats (the game's, then the seat feature and the
    prior's one-hot where asked). Picklable: what worker processes receive."""

    mover = "seat"
    facade = "batched step"

    def __init__(
        self,
        game: Game,
        factory: Callable[[], SingleAgentEnv],
        prior: Callable[[], Agent] | None,
        obs_size: int,
    ):
        self.game, self.factory, self.prior, self.obs_size = game, factory, prior, obs_size

    def fields(self, n: int) -> list[tuple[str, Any, tuple[int, ...]]]:
        """The slots' buffers (the core adds ``actions`` and its control cells)."""
        d, p, a = self.obs_size, self.game.num_players, self.game.num_actions
        return [
            ("observation", np.float32, (n, d)),
            ("action_mask", np.bool_, (n, a)),
            ("reward", np.float32, (n,)),
            ("terminated", np.bool_, (n,)),
            ("truncated", np.bool_, (n,)),
            ("final_observation", np.float32, (n, d)),
            # the sum of the rewards given as SB3's Monitor reports it (a float64 sum of the
            # unrounded rewards), so that the batched env's episode infos equal DummyVecEnv's
            ("episode_return", np.float64, (n,)),
            ("episode_length", np.int64, (n,)),
            ("final_returns", np.float32, (n, p)),
            ("seat", np.int64, (n,)),
            ("game_seed", np.int64, (n,)),
        ]

    def build(self, first: int, count: int, out: dict[str, np.ndarray], ahead: bool) -> Any:
        """Slots ``first .. first + count - 1`` writing into ``out``; ``ahead``: they build
        their next games while they wait (a worker's slots)."""
        slots = LearnerSlots([self.factory() for _ in range(count)], first, out, self.prior)
        slots.prefetch = ahead
        return slots


class BatchedCore(VectorCore):
    """The core with learner slots, from the batched facades' keywords (see
    :mod:`boardgames_rl.envs.batched`).

    Buffers (numpy views, overwritten by the next call; copy what you keep): ``observation``
    ``[N, D] float32``, ``action_mask`` ``[N, A] bool``, ``reward`` ``[N] float32``,
    ``terminated`` / ``truncated`` ``[N] bool``, and for slots whose game ended on the last step
    ``final_observation``, ``episode_return`` (float64), ``episode_length``, ``final_returns``
    ``[N, P] float32``; ``seat`` and ``game_seed`` of every slot's current game.
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seat: int | Literal["random"] = 0,
        opponents: OpponentsSpec = None,
        reward_shaping: RewardShaping | None = None,
        seat_feature: bool = False,
        seed: int | None = None,
        num_workers: int = 0,
        mp_context: str = "spawn",
        env_factory: Callable[[], SingleAgentEnv] | None = None,
        prior: Callable[[], Agent] | None = None,
        worker_spin: float | None = None,
        main_steps: bool = False,
    ):
        seat = check_seat_option(seat, game.num_players)
        self.seed = seed
        self.seat_feature = bool(seat_feature) and not seat_in_observation(game)
        spec = game.observation_spec
        if self.seat_feature:
            low, high = policy_obs_bounds(game)
        else:
            low, high = spec.low, spec.high
        self.prior = prior
        if prior is not None:
            n = game.num_actions
            low = np.concatenate([low, np.zeros(n, np.float32)])
            high = np.concatenate([high, np.ones(n, np.float32)])
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = cast(spaces.Discrete, spaces.Discrete(game.num_actions))
        factory = env_factory or SlotFactory(game, seat, opponents, reward_shaping)
        kind = LearnerKind(game, factory, prior, int(low.shape[0]))
        super().__init__(kind, num_envs, num_workers, mp_context, worker_spin, main_steps)
