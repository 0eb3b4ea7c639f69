"""The vector runtime: N games stepped together, in this process or in worker processes.

One core (:mod:`~boardgames_rl.envs.vector.core`: slots over shared buffers, one process pool on
shared memory, one wire, ``boardgames_rl.envs.vector.wire``) with slots of two kinds: every
seat (:mod:`~boardgames_rl.envs.vector.seat_slots`) or the learner's seat with the opponents
played inside (:mod:`~boardgames_rl.envs.vector.learner_slots`). Thin facades over it:

* :class:`VectorEnv`: the multi-agent batched view (every seat);
* :class:`BatchedVectorEnv`: the learner's view as a ``gymnasium.vector.VectorEnv``, registered
  so that ``gymnasium.make_vec("boardgames_rl/<game>-v<version>", num_envs=N)`` finds it
  (:mod:`~boardgames_rl.envs.vector.gym_env`);
* ``BatchedVecEnv``: the learner's view as a stable-baselines3 ``VecEnv`` with
  ``action_masks()`` (:mod:`~boardgames_rl.envs.vector.sb3`, needs the ``[train]`` extra).

One seeding rule: slot ``i`` of a vector env seeded ``s`` plays the games of a
:class:`~boardgames_rl.envs.aec.GameAECEnv` reset with ``(s, i)`` (:func:`slot_seeds`). One
failure contract: a step that fails changes nothing. The same seed gives the same trajectories
in-process and with any number of workers.
"""

from __future__ import annotations

from boardgames_rl.envs.vector.core import VectorCore, slot_seeds
from boardgames_rl.envs.vector.errors import BrokenSlotsError, SlotError
from boardgames_rl.envs.vector.gym_env import BatchedVectorEnv
from boardgames_rl.envs.vector.multi_agent import VectorEnv, VectorStep

__all__ = [
    "BatchedVectorEnv",
    "BrokenSlotsError",
    "SlotError",
    "VectorCore",
    "VectorEnv",
    "VectorStep",
    "slot_seeds",
]
