"""PettingZoo-style module for Night of the Ninja: ``env()`` and ``raw_env()``."""

from boardgames_rl.envs.pettingzoo import env_functions

raw_env, env = env_functions("night_of_the_ninja")
