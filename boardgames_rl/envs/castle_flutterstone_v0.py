"""PettingZoo-style module for Castle Flutterstone: ``env()`` / ``raw_env()``.

``env(num_players=3, render_mode="ansi")`` returns the wrapped AEC environment; keyword arguments
other than ``render_mode`` / ``reward_shaping`` configure the game.
"""

from boardgames_rl.envs.pettingzoo import env_functions

raw_env, env = env_functions("castle_flutterstone")

__all__ = ["env", "raw_env"]
