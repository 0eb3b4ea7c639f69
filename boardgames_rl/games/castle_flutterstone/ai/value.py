"""The one value function of a Castle Flutterstone state, and the two hooks derived from it.

:func:`fields_gained` is each figure's progress in fields along the path (0 on the start field,
``game.goal`` on the last step; the race is won by the first figure there).

* :func:`potential` (reward shaping in the lab's SB3 recipe) is that progress as
  a fraction of the path, per seat, in [0, 1];
* :func:`evaluate` (ISMCTS cut-offs, on sampled states) is the returns at the end; before it,
  each figure's lead in fields over the best other figure, as a fraction of half the path
  (``2 * lead / goal``, clipped to [-1, 1]).
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.game import State, state_as
from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState


def fields_gained(state: CastleFlutterstoneState) -> np.ndarray:
    """Fields each seat's figure has covered (float64, capped at the last step)."""
    goal = state.game.goal
    return np.array([min(pos, goal) for pos in state.positions], dtype=np.float64)


def potential(state: State) -> np.ndarray:
    """Each seat's :func:`fields_gained` divided by the goal field (a training signal only)."""
    s = state_as(state, CastleFlutterstoneState, "castle_flutterstone potential")
    return fields_gained(s) / s.game.goal


def evaluate(state: State) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (sampled) state, for search cut-offs (ISMCTS): the returns
    at the end; before it, each figure's lead over the best other figure, ``2 * lead / goal``,
    clipped."""
    s = state_as(state, CastleFlutterstoneState, "castle_flutterstone evaluate")
    if s.is_terminal():
        return s.returns()
    goal = s.game.goal
    # plain floats: a search calls this at every cut-off, and numpy's per-call costs on two to
    # four numbers were most of its time (the same float64 arithmetic, the same values)
    fields = [float(min(pos, goal)) for pos in s.positions]
    values: list[float] = []
    for p, mine in enumerate(fields):
        lead = mine - max(fields[:p] + fields[p + 1 :])
        values.append(min(max(2.0 * lead / goal, -1.0), 1.0))
    return np.array(values, dtype=np.float64)
