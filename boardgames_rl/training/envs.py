"""The learner's environments: :class:`LearnerEnv` (one seat, seat feature, action masks) and
:func:`build_vec_env` (an SB3 ``DummyVecEnv`` / ``SubprocVecEnv`` of them, with per-env seeds).

Every env gets its own copy of the opponent pool (agents with memory never serve two games at
once); snapshots reach every copy through ``vec_env.env_method("add_snapshot", name, policy)``.
MaskablePPO reads the masks through ``env_method("action_masks")``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game
from boardgames_rl.core.policy_obs import policy_obs_bounds, policy_observation
from boardgames_rl.envs.aec import RewardShaping
from boardgames_rl.envs.single_agent import OpponentsSpec, SingleAgentEnv
from boardgames_rl.training.pool import OpponentPool


class LearnerEnv(gym.ObservationWrapper):
    """A :class:`SingleAgentEnv` whose observations carry the seat feature
    (:mod:`boardgames_rl.core.policy_obs`); ``action_masks`` and ``add_snapshot`` are forwarded."""

    def __init__(self, env: SingleAgentEnv):
        super().__init__(env)
        low, high = policy_obs_bounds(env.game)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        base: SingleAgentEnv = self.env  # type: ignore[assignment]
        return policy_observation(observation, base.seat, base.game)

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
        pool = self.pool
        if pool is None:
            return []
        return [(n, pool.snapshot(n).policy.state_dict()) for n in pool.snapshot_names]  # type: ignore[attr-defined]

    @property
    def pool(self) -> OpponentPool | None:
        pool = self.env.opponents  # type: ignore[attr-defined]
        return pool if isinstance(pool, OpponentPool) else None


def parse_seat(seat: int | str, game: Game) -> int | Literal["random"]:
    """``"random"`` or a seat index (as int or digit string); clear error otherwise."""
    if seat == "random":
        return "random"
    try:
        s = int(seat)
    except (TypeError, ValueError):
        s = -1
    if not 0 <= s < game.num_players or isinstance(seat, bool):
        raise InvalidConfigError(
            f"seat must be 'random' or a seat in [0, {game.num_players}) for {game.name} "
            f"({', '.join(game.player_names)}), got {seat!r}"
        )
    return s


def make_learner_env(
    game: Game,
    seat: int | Literal["random"],
    opponents: OpponentsSpec,
    reward_shaping: RewardShaping | None = None,
) -> LearnerEnv:
    """One learner env (opponents: a pool, an agent, a list, or None for random; optional
    ``reward_shaping`` as in :class:`SingleAgentEnv`, a training signal only)."""
    return LearnerEnv(
        SingleAgentEnv(
            game,
            seat=seat,
            opponents=opponents,
            reward_shaping=reward_shaping,
            illegal_action="raise",  # a masked learner never plays one: a bug must show
        )
    )


def build_vec_env(
    game: Game,
    seat: int | Literal["random"],
    pool: OpponentPool,
    n_envs: int = 1,
    seed: int = 0,
    vec: Literal["dummy", "subproc"] = "dummy",
    wrapper: Callable[[gym.Env], gym.Env] | None = None,
    reward_shaping: RewardShaping | None = None,
) -> VecEnv:
    """``n_envs`` learner envs, each with its own copy of ``pool``, env ``i`` seeded ``seed + i``.

    ``wrapper`` (optional) wraps each :class:`LearnerEnv` (before SB3's ``Monitor``), e.g. to
    record what the learner saw in tests. ``reward_shaping`` (optional, e.g. a
    :class:`~boardgames_rl.training.shaping.PotentialShaping`) is added to every env's rewards.
    """
    if n_envs < 1:
        raise InvalidConfigError(f"n_envs must be >= 1, got {n_envs}")
    if vec not in ("dummy", "subproc"):
        raise InvalidConfigError(f"vec must be 'dummy' or 'subproc', got {vec!r}")

    def env_fn(i: int) -> Callable[[], gym.Env]:
        env_pool = copy.deepcopy(pool)

        def make() -> gym.Env:
            env: gym.Env = make_learner_env(game, seat, env_pool, reward_shaping)
            if wrapper is not None:
                env = wrapper(env)
            return Monitor(env)

        return make

    fns = [env_fn(i) for i in range(n_envs)]
    venv: VecEnv = DummyVecEnv(fns) if vec == "dummy" else SubprocVecEnv(fns)
    venv.seed(seed)
    return venv
