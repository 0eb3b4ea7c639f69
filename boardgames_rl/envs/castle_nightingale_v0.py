"""PettingZoo-style module for Castle Nightingale: ``env()`` and ``raw_env()``."""

from boardgames_rl.envs.pettingzoo import env_functions

raw_env, env = env_functions("castle_nightingale")
