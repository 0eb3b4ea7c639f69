"""Shaping potential for Night of the Ninja (training signal only, see
:mod:`boardgames_rl.training.shaping`): each player's Honor points / 10.

This is the potential behind :func:`boardgames_rl.games.night_of_the_ninja.honor_shaping`:
``honor_shaping(s, s')`` is exactly ``potential(s') - potential(s)`` (undiscounted, not made
relative). It reads the hidden token values, so it is a training signal only.
"""

from __future__ import annotations

import numpy as np

HONOR_SCALE = 10.0
"""Honor points per unit of potential (the same divisor as ``honor_shaping``)."""


def potential(state) -> np.ndarray:
    """Each seat's Honor points / ``HONOR_SCALE``."""
    n = state.game.num_players
    return np.array([state.score(p) / HONOR_SCALE for p in range(n)], dtype=np.float64)
