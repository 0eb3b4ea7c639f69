"""Shaping potential for Castle Flutterstone (a training signal only): each figure's progress
along the path, from the one value function in
:mod:`boardgames_rl.games.castle_flutterstone.ai.value` that ``evaluate`` also uses."""

from boardgames_rl.games.castle_flutterstone.ai.value import potential

__all__ = ["potential"]
