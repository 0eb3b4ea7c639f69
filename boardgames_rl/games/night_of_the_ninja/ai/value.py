"""The one value function of a Night of the Ninja state, and the hooks derived from it.

:func:`honor_points` is each seat's Honor points (the sum of its tokens' values). It reads the
true token values, hidden from the players, so everything here is for search on sampled states
and for training signals, never part of an observation or a policy.

* :func:`potential` (reward shaping in the lab's SB3 recipe) is the points
  divided by ``HONOR_SCALE``, per seat (raw; the trainer makes it relative);
* :func:`honor_shaping` (``GameAECEnv(reward_shaping=...)``) is the points each seat gained
  between two states over the same scale;
* :func:`evaluate` (ISMCTS cut-offs) is the returns at the end, else each seat's points minus the
  best other seat's, as a fraction of the target score, clipped to [-1, 1].
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.game import State, state_as
from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

HONOR_SCALE = 10.0
"""Honor points per unit of potential (and of ``honor_shaping`` reward)."""


def honor_points(state: State) -> np.ndarray:
    """Each seat's Honor points (``state.score``), as float64."""
    ninja = state_as(state, NightOfTheNinjaState, "night_of_the_ninja honor_points")
    n = ninja.game.num_players
    return np.array([ninja.score(p) for p in range(n)], dtype=np.float64)


def potential(state: State) -> np.ndarray:
    """Each seat's Honor points / ``HONOR_SCALE``; a training signal only."""
    return honor_points(state) / HONOR_SCALE


def honor_shaping(previous_state, state) -> np.ndarray:
    """Optional per-step reward for ``GameAECEnv(reward_shaping=...)`` / ``VectorEnv``: the Honor
    points each player gained (or lost) between two states, divided by ``HONOR_SCALE``.

    It reads the true token values, so it is a training signal only (a seat's reward may hint at
    values it has not seen). Across a round boundary it counts the tokens awarded at House Reveal
    (the previous state is always in the same game).
    """
    return (honor_points(state) - honor_points(previous_state)) / HONOR_SCALE


def evaluate(state: State) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (sampled) state, for search cut-offs (ISMCTS).

    The returns at the end; before it, each player's Honor points (hidden in the true game, known
    in the sampled state searched) minus the best other player's, as a fraction of the target
    score, clipped.
    """
    ninja = state_as(state, NightOfTheNinjaState, "night_of_the_ninja evaluate")
    if ninja.is_terminal():
        return ninja.returns()
    scores = [ninja.score(p) for p in range(ninja.game.num_players)]
    top = max(scores)
    first = scores.index(top)
    runner_up = max(scores[:first] + scores[first + 1 :])  # the best of the others of ``first``
    best_other = [runner_up if p == first else top for p in range(len(scores))]
    scale = float(max(1, ninja.game.target_score))
    # plain floats (the same float64 values): numpy's per-call costs on a few numbers were most
    # of a cut-off's time
    return np.array(
        [min(max((s - b) / scale, -1.0), 1.0) for s, b in zip(scores, best_other)],
        dtype=np.float64,
    )
