"""The learner's vector env as a stable-baselines3 ``VecEnv``: see
:mod:`boardgames_rl.envs.vector.sb3` (this module keeps the import path)."""

from __future__ import annotations

from boardgames_rl.envs.vector.sb3 import (
    BatchedVecEnv,
    SeededDummyVecEnv,
    SeededSubprocVecEnv,
)

__all__ = ["BatchedVecEnv", "SeededDummyVecEnv", "SeededSubprocVecEnv"]
