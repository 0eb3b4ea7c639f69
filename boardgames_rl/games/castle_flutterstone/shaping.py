"""Shaping potential for Castle Flutterstone (training signal only, see
:mod:`boardgames_rl.training.shaping`): each figure's progress along the track, 0 at the start
and 1 on the last step (the race is won by the first figure there)."""

from __future__ import annotations

import numpy as np


def potential(state) -> np.ndarray:
    """Each seat's figure position divided by the goal field (capped at 1)."""
    goal = state.game.goal
    return np.array([min(pos, goal) / goal for pos in state.positions], dtype=np.float64)
