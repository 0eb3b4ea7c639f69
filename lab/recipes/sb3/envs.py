"""The SB3 trainer's environments: :class:`LearnerEnv` (one seat, seat feature, action masks) and
:func:`build_vec_env`, by default a :class:`~boardgames_rl.envs.batched_sb3.BatchedVecEnv` (the
batched single-agent view, in-process or with shared-memory workers), else an SB3
``DummyVecEnv`` / ``SubprocVecEnv`` of :class:`LearnerEnv` s; env ``i`` is seeded ``(seed, i)``
either way, and the kinds give the same trajectories. :func:`make_batched_env` builds the batched
env with opponents from agent spec strings.

Every env gets its own copy of the opponent pool (agents with memory never serve two games at
once); snapshots reach every copy through ``vec_env.env_method("add_snapshot", name, policy)``
(both kinds: the batched env's slots are the library's
:class:`~boardgames_rl.training.envs.PoolEnv` s). MaskablePPO reads the masks through
``env_method("action_masks")`` (the batched env answers from its mask buffer).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import VecEnv

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game
from boardgames_rl.envs.aec import RewardShaping
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv, SeededDummyVecEnv, SeededSubprocVecEnv
from boardgames_rl.envs.policy_obs import policy_obs_bounds, policy_observation, prior_feature
from boardgames_rl.envs.single_agent import OpponentsSpec, SingleAgentEnv
from boardgames_rl.training.envs import PoolEnv, PoolEnvFactory, parse_seat, snapshot_states_of
from boardgames_rl.training.pool import OpponentPool

__all__ = [
    "LearnerEnv",
    "PoolEnv",
    "PoolEnvFactory",
    "build_vec_env",
    "make_batched_env",
    "make_learner_env",
    "parse_seat",
]


class LearnerEnv(gym.ObservationWrapper):
    """A :class:`SingleAgentEnv` whose observations carry the seat feature
    (:mod:`boardgames_rl.envs.policy_obs`) and, with ``prior`` (an agent spec), the prior
    feature; ``action_masks`` and ``add_snapshot`` are forwarded."""

    def __init__(self, env: SingleAgentEnv, prior: str | None = None):
        super().__init__(env)
        self.prior: Agent | None = make_agent(prior, env.game) if prior else None
        self._feature = np.zeros(env.game.num_actions, np.float32)
        low, high = policy_obs_bounds(env.game, prior=self.prior is not None)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        if self.prior is not None:
            self.prior.reset()
        return super().reset(**kwargs)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        base: SingleAgentEnv = self.env  # type: ignore[assignment]
        feature = None
        if self.prior is not None:
            state = base.game_state
            if not state.is_terminal():  # a game's last observation keeps the last feature
                self._feature = prior_feature(self.prior, state.info_set(base.seat))
            feature = self._feature
        return policy_observation(observation, base.seat, base.game, feature)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (what MaskablePPO reads)."""
        return self.env.action_masks()  # type: ignore[attr-defined]

    def add_snapshot(self, name: str, policy: Any) -> bool:
        """Add a frozen policy to this env's pool (no-op without a pool)."""
        pool = self.env.opponents  # type: ignore[attr-defined]
        if isinstance(pool, OpponentPool):
            return pool.add_snapshot(name, policy)
        return False

    def snapshot_states(self) -> list[tuple[str, dict[str, Any]]]:
        """``(name, state_dict)`` of each self-play snapshot in this env's pool, oldest first
        (what a checkpoint saves)."""
        return snapshot_states_of(self.pool)

    @property
    def pool(self) -> OpponentPool | None:
        pool = self.env.opponents  # type: ignore[attr-defined]
        return pool if isinstance(pool, OpponentPool) else None


def make_learner_env(
    game: Game,
    seat: int | Literal["random"],
    opponents: OpponentsSpec,
    reward_shaping: RewardShaping | None = None,
    prior: str | None = None,
) -> LearnerEnv:
    """One learner env (opponents: a pool, an agent, a list, or None for random; optional
    ``reward_shaping`` as in :class:`SingleAgentEnv`, a training signal only; ``prior``: the
    prior feature's agent spec)."""
    return LearnerEnv(
        SingleAgentEnv(
            game,
            seat=seat,
            opponents=opponents,
            reward_shaping=reward_shaping,
            illegal_action="raise",  # a masked learner never plays one: a bug must show
        ),
        prior,
    )


def build_vec_env(
    game: Game,
    seat: int | Literal["random"],
    pool: OpponentPool,
    n_envs: int = 1,
    seed: int = 0,
    vec: Literal["batched", "dummy", "subproc"] | None = None,
    wrapper: Callable[[gym.Env], gym.Env] | None = None,
    reward_shaping: RewardShaping | None = None,
    num_workers: int = 0,
    prior: str | None = None,
    main_steps: bool = False,
) -> VecEnv:
    """``n_envs`` learner envs, each with its own copy of ``pool``, env ``i`` seeded ``(seed, i)``.

    ``vec``: ``"batched"`` (the default without ``wrapper``): one
    :class:`~boardgames_rl.envs.batched_sb3.BatchedVecEnv` with the seat feature, stepped
    in-process or by ``num_workers`` shared-memory workers (``main_steps``: this process is one
    of them, see :mod:`boardgames_rl.envs.batched`); ``"dummy"`` /
    ``"subproc"``: SB3's ``DummyVecEnv`` / ``SubprocVecEnv`` of ``Monitor(LearnerEnv)`` s. All
    three give the same observations, masks, rewards and episode infos for the same seed.
    ``wrapper`` (optional) wraps each :class:`LearnerEnv` (before SB3's ``Monitor``), e.g. to
    record what the learner saw in tests; it needs one gym env per slot, so it implies ``"dummy"``
    unless ``vec`` says ``"subproc"`` (``"batched"`` with a wrapper is refused).
    ``reward_shaping`` (optional, e.g. a :class:`~lab.recipes.sb3.shaping.PotentialShaping`)
    is added to every env's rewards. ``prior`` (an agent spec, e.g. ``"heuristic"``) appends the
    prior feature (:func:`~boardgames_rl.envs.policy_obs.prior_feature`) for a residual policy.
    """
    if n_envs < 1:
        raise InvalidConfigError(f"n_envs must be >= 1, got {n_envs}")
    if vec is None:
        vec = "dummy" if wrapper is not None else "batched"
    if vec not in ("batched", "dummy", "subproc"):
        raise InvalidConfigError(f"vec must be 'batched', 'dummy' or 'subproc', got {vec!r}")
    if num_workers < 0:
        raise InvalidConfigError(f"num_workers must be >= 0, got {num_workers}")
    if vec == "batched":
        if wrapper is not None:
            raise InvalidConfigError("a per-env wrapper needs vec='dummy' or 'subproc'")
        factory = PoolEnvFactory(game, seat, pool, reward_shaping)
        return BatchedVecEnv(
            game,
            n_envs,
            seed=seed,
            seat_feature=True,
            num_workers=num_workers,
            main_steps=main_steps,
            env_factory=factory,
            prior=partial(make_agent, prior, game) if prior else None,
        )

    def env_fn(i: int) -> Callable[[], gym.Env]:
        env_pool = copy.deepcopy(pool)

        def make() -> gym.Env:
            env: gym.Env = make_learner_env(game, seat, env_pool, reward_shaping, prior)
            if wrapper is not None:
                env = wrapper(env)
            return Monitor(env)

        return make

    fns = [env_fn(i) for i in range(n_envs)]
    venv: VecEnv = SeededDummyVecEnv(fns) if vec == "dummy" else SeededSubprocVecEnv(fns)
    venv.seed(seed)
    return venv


def make_batched_env(
    game: Game,
    num_envs: int,
    seat: int | Literal["random"] = "random",
    opponents: Sequence[str] = ("random",),
    weights: Sequence[float] | None = None,
    seed: int = 0,
    num_workers: int = 0,
    reward_shaping: RewardShaping | None = None,
    seat_feature: bool = True,
) -> BatchedVecEnv:
    """The batched SB3 ``VecEnv`` with opponents from agent spec strings (``"random"``,
    ``"heuristic"``, ``"ismcts:iterations=50"``, ``"self"`` for snapshots added later), drawn per
    game and seat with ``weights`` (an :class:`OpponentPool`; each slot has its own copy)."""
    pool = OpponentPool.from_specs(game, list(opponents), weights)
    factory = PoolEnvFactory(game, seat, pool, reward_shaping)
    return BatchedVecEnv(
        game,
        num_envs,
        seed=seed,
        seat_feature=seat_feature,
        num_workers=num_workers,
        env_factory=factory,
    )
