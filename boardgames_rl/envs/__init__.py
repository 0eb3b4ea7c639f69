"""Environments: PettingZoo AEC (:mod:`~boardgames_rl.envs.aec`), the batched multi-agent
:mod:`~boardgames_rl.envs.vector`, the single-agent gymnasium view
(:mod:`~boardgames_rl.envs.single_agent`), and PettingZoo registration
(``boardgames_rl.envs.pettingzoo``, the functions below).

Importing this package registers every game of :func:`boardgames_rl.registry.list_games` with
PettingZoo and gymnasium as ``boardgames_rl/<game>-v<version>``, so that
``pettingzoo.make("aec", "boardgames_rl/castle_flutterstone-v0", num_players=3)``,
``gymnasium.make(...)`` (the single-agent env) and ``gymnasium.make_vec(..., num_envs=8)`` (the
vector runtime's :class:`~boardgames_rl.envs.vector.BatchedVectorEnv`) work.
This package is the only home of gymnasium and pettingzoo imports.
"""

from __future__ import annotations

from boardgames_rl.envs.pettingzoo import (
    env_functions,
    env_id,
    make_env,
    make_raw_env,
    register_envs,
)
from boardgames_rl.envs.vector.gym_env import register_gymnasium_envs
from boardgames_rl.registry import list_games

__all__ = ["env_functions", "env_id", "make_env", "make_raw_env", "register_envs"]

register_envs()
register_gymnasium_envs({name: env_id(name) for name in list_games()})
