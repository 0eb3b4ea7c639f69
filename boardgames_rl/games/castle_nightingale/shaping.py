"""Shaping potential for Castle Nightingale (a training signal only; the lab's shaping recipe,
``lab/recipes/sb3/shaping.py``, imports ``potential`` from here): each side's progress towards
its win, from the one value function in :mod:`boardgames_rl.games.castle_nightingale.ai.value`
that ``evaluate`` also uses."""

from boardgames_rl.games.castle_nightingale.ai.value import CARRIED_WEIGHT, potential

__all__ = ["CARRIED_WEIGHT", "potential"]
