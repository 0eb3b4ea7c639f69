"""Shaping potential for The White Castle (training signal only, see
:mod:`boardgames_rl.training.shaping`): each player's points if the game ended now
(:func:`boardgames_rl.games.white_castle.scoring.totals`), divided by :data:`POINTS_SCALE`."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.white_castle.scoring import totals

POINTS_SCALE = 20.0
"""Points per unit of potential (a 2-player game's winning lead is a few to ~20 points)."""


def potential(state) -> np.ndarray:
    """Each seat's current final-scoring total / ``POINTS_SCALE``."""
    return np.asarray(totals(state), dtype=np.float64) / POINTS_SCALE
