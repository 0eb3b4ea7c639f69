"""Shaping potential for Castle Nightingale (a training signal only; ``training.shaping``
imports ``potential`` from here): each side's progress towards its win, from the one value
function in :mod:`boardgames_rl.games.castle_nightingale.ai.value` that ``evaluate`` also uses."""

from boardgames_rl.games.castle_nightingale.ai.value import CARRIED_WEIGHT, potential

__all__ = ["CARRIED_WEIGHT", "potential"]
