"""Re-export of the shipped random-play helpers (for test modules that import ``random_play``)."""

from boardgames_rl.testing.random_play import random_play_states

__all__ = ["random_play_states"]
