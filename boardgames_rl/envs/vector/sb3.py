"""The learner's vector env as a stable-baselines3 ``VecEnv`` (needs the ``[train]`` extra).

::

    from sb3_contrib import MaskablePPO

    from boardgames_rl import make_game
    from boardgames_rl.envs.vector.sb3 import BatchedVecEnv

    venv = BatchedVecEnv(make_game("castle_flutterstone", num_players=2), 8, seat=0, seed=0,
                         num_workers=2)
    MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64).learn(128)  # one short update
    venv.close()

The constructor keywords, the seeding, the shared-memory workers and the error handling are
:class:`~boardgames_rl.envs.vector.learner_slots.BatchedCore`'s (see
:mod:`boardgames_rl.envs.batched`). SB3 specifics:

* ``venv.seed(s)`` seeds slot ``i`` with ``(s, i)`` at the next ``reset()`` (the package's
  seeding rule: the games of a ``GameAECEnv`` reset with ``(s, i)``, not SB3's ``s + i``; a
  ``seed=`` given to the constructor acts as a first ``seed()``); ``reset_infos`` hold each
  slot's ``"seat"`` and ``"game_seed"``.
* ``step_async`` checks the actions and starts every worker; ``step_wait`` collects them.
* On the step that ends a game, that slot's info holds what ``DummyVecEnv`` + ``Monitor`` give:
  ``"terminal_observation"``, ``"episode": {"r", "l", "t"}`` (the
  sum of the rewards given, the number of learner steps, seconds since construction), plus
  ``"returns"`` (per seat) and ``"episode_steps"``; every step's info holds
  ``"TimeLimit.truncated"`` (as in ``DummyVecEnv``). So ``env_is_wrapped(Monitor)`` answers True.
* :meth:`BatchedVecEnv.action_masks` returns the ``[N, A]`` masks; ``env_method("action_masks")``
  (what ``sb3_contrib.common.maskable.utils.get_action_masks`` calls) is answered from the shared
  mask buffer without visiting any slot. Other ``env_method`` / ``get_attr`` / ``set_attr`` calls
  reach every slot's :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv` (in its worker).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices

from boardgames_rl.core.game import Game
from boardgames_rl.envs.vector.core import slot_seeds
from boardgames_rl.envs.vector.learner_slots import BatchedCore

MASKS = "action_masks"


class _SlotSeeding:
    """``seed(s)``: env ``i`` plays the games of seed ``(s, i)`` from the next ``reset()`` (the
    package's rule, :func:`~boardgames_rl.envs.vector.core.slot_seeds`, where SB3's ``VecEnv.seed``
    gives ``s + i``); each env's ``reset(seed=(s, i))`` takes the pair (as
    :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv` does). None draws a seed."""

    num_envs: int
    _seeds: list[Any]

    def seed(self, seed: int | None = None) -> Sequence[Any]:
        if seed is None:
            seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
        self._seeds = slot_seeds(int(seed), self.num_envs)
        return self._seeds


class SeededDummyVecEnv(_SlotSeeding, DummyVecEnv):
    """SB3's ``DummyVecEnv`` seeded by the package's rule (env ``i``: ``(seed, i)``)."""


class SeededSubprocVecEnv(_SlotSeeding, SubprocVecEnv):
    """SB3's ``SubprocVecEnv`` seeded by the package's rule (env ``i``: ``(seed, i)``)."""


class BatchedVecEnv(_SlotSeeding, VecEnv):
    """:class:`~boardgames_rl.envs.vector.learner_slots.BatchedCore` as an SB3 ``VecEnv``; see
    the module docstring. ``BatchedVecEnv(game, num_envs, seat=0, opponents=None,
    reward_shaping=None, seat_feature=False, seed=None, num_workers=0, mp_context="spawn",
    env_factory=None, prior=None, worker_spin=None, main_steps=False)``."""

    def __init__(self, game: Game, num_envs: int, **kwargs: Any):
        self.core = BatchedCore(game, num_envs, **kwargs)
        self.game = game
        super().__init__(
            self.core.num_envs, self.core.single_observation_space, self.core.single_action_space
        )
        if kwargs.get("seed") is not None:
            self.seed(int(kwargs["seed"]))
        self._started = time.perf_counter()

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        self.core.reset(self._seeds)
        self._reset_seeds()
        self._reset_options()
        b = self.core.buffers
        self.reset_infos = [
            {"seat": int(s), "game_seed": int(g)}
            for s, g in zip(b["seat"], b["game_seed"], strict=True)
        ]
        return b["observation"].copy()

    def step_async(self, actions: np.ndarray) -> None:
        self.core.start(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        self.core.wait()
        b = self.core.buffers
        term, trunc = b["terminated"], b["truncated"]
        dones = term | trunc
        infos: list[dict[str, Any]] = [{"TimeLimit.truncated": False} for _ in range(self.num_envs)]
        if dones.any():
            elapsed = round(time.perf_counter() - self._started, 6)
            ended = np.flatnonzero(dones)
            finals, returns = b["final_observation"][ended], b["final_returns"][ended]  # copies
            cut = (trunc & ~term)[ended].tolist()
            totals = b["episode_return"][ended].tolist()
            lengths = b["episode_length"][ended].tolist()
            for k, i in enumerate(ended.tolist()):
                infos[i] = {
                    "terminal_observation": finals[k],
                    "TimeLimit.truncated": cut[k],
                    "episode": {"r": round(totals[k], 6), "l": lengths[k], "t": elapsed},
                    "returns": returns[k],
                    "episode_steps": lengths[k],
                }
        return b["observation"].copy(), b["reward"].copy(), dones, infos

    def action_masks(self) -> np.ndarray:
        """``[N, A] bool``: the legal actions of each slot's current decision."""
        return self.core.buffers["action_mask"].copy()

    def close(self) -> None:
        self.core.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self.core.get_attr(attr_name, self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self.core.set_attr(attr_name, value, self._indices(indices))

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if method_name == MASKS and not method_args and not method_kwargs:
            masks = self.core.buffers["action_mask"]
            rows = self._indices(indices)
            return list(masks.copy() if rows is None else masks[list(rows)])
        return self.core.call(
            method_name, *method_args, indices=self._indices(indices), **method_kwargs
        )

    def has_attr(self, attr_name: str) -> bool:
        if attr_name == MASKS:
            return True
        return super().has_attr(attr_name)

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        rows = range(self.num_envs) if indices is None else list(self._get_indices(indices))
        return [issubclass(Monitor, wrapper_class)] * len(rows)

    def get_images(self) -> Sequence[np.ndarray | None]:
        raise NotImplementedError("BatchedVecEnv does not render (use SingleAgentEnv for pictures)")

    # ------------------------------------------------------------------ helpers
    def _indices(self, indices: VecEnvIndices) -> list[int] | None:
        return None if indices is None else [int(i) for i in self._get_indices(indices)]

    def __repr__(self) -> str:
        return (
            f"BatchedVecEnv({self.game.name}, num_envs={self.num_envs}, "
            f"workers={self.core.num_workers}{', main steps' if self.core.main_steps else ''})"
        )
