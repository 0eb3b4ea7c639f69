"""Shaping potential for Night of the Ninja (a training signal only; the lab's shaping recipe,
``lab/recipes/sb3/shaping.py``, and the tests import ``potential`` from here): each seat's Honor
points / 10, from the one value function in
:mod:`boardgames_rl.games.night_of_the_ninja.ai.value` that ``evaluate`` also uses.
``honor_shaping(s, s')`` is the change of the same points between two states, on the same scale."""

from boardgames_rl.games.night_of_the_ninja.ai.value import HONOR_SCALE, potential

__all__ = ["HONOR_SCALE", "potential"]
