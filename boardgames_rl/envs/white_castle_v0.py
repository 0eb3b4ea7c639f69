"""PettingZoo-style module for The White Castle: ``env()`` and ``raw_env()``."""

from boardgames_rl.envs.pettingzoo import env_functions

raw_env, env = env_functions("white_castle")
