"""The one value function of a White Castle state, and the two hooks derived from it.

:func:`value` reads a seat's typed public holdings (``infoset.SeatView``, never the engine's
dicts): its points if the game ended now (``scoring.totals``), plus the
Passage of Time position and the assets that turn into points later (resources, coins, seals,
clan members placed, Lantern cards), the assets weighted by how much of the game is left, minus
a share of the best opponent's points. The weights are a :class:`Weights`:

* the heuristic agent scores its look-ahead leaves with it (:data:`HEURISTIC`);
* :func:`evaluate` (ISMCTS cut-offs) compares each seat's value without the opponent term
  (:data:`WORTH`) with the best other seat's;
* :func:`potential` (reward shaping in the lab's SB3 recipe) is the value with
  every weight zero (:data:`POINTS`): the points a seat already has, divided by
  :data:`POINTS_SCALE` -- shaping pays only for what is already points.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardgames_rl.core.game import State, state_as
from boardgames_rl.games.white_castle import scoring
from boardgames_rl.games.white_castle.data import RES_CAP
from boardgames_rl.games.white_castle.infoset import game_left, seat_view
from boardgames_rl.games.white_castle.state import WhiteCastleState


class Weights(NamedTuple):
    """What each asset is worth in points (assets are scaled by the share of the game left);
    read-only (a named tuple: ``HEURISTIC._replace(opponent=0.0)`` is a copy with one weight
    changed)."""

    resource: float = 0.6
    coin: float = 0.3
    seal: float = 0.6
    pot_step: float = 0.4
    member: float = 1.0
    lantern: float = 0.8
    opponent: float = 0.5


HEURISTIC = Weights()
"""The heuristic agent's default weights."""
WORTH = HEURISTIC._replace(opponent=0.0)
"""A seat's own worth (no opponent term), compared between seats by :func:`evaluate`."""
POINTS = Weights(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""Points only: :func:`potential`."""

POINTS_SCALE = 20.0
"""Points per unit of potential (a 2-player game's winning lead is a few to ~20 points)."""


def value(
    state: WhiteCastleState, me: int, w: Weights = HEURISTIC, totals: list[int] | None = None
) -> float:
    """Points now plus weighted assets of ``me``, minus ``w.opponent`` times the best opponent's
    points; at the end, the point lead plus 100 for the winner. ``totals`` may pass
    ``scoring.totals(state)`` already computed."""
    if totals is None:
        totals = scoring.totals(state)
    if state.is_terminal():
        best_other = max(t for p, t in enumerate(totals) if p != me)
        return totals[me] - best_other + (100.0 if state.winner() == me else 0.0)
    mine = seat_view(state, me, totals[me])
    future = game_left(state.round, state.turns_taken, state.n)
    assets = (
        w.resource * (min(mine.food, RES_CAP) + min(mine.iron, RES_CAP) + min(mine.pearl, RES_CAP))
        + w.coin * mine.coin
        + w.seal * mine.seal
        + w.member * (15 - sum(mine.members))
        + w.lantern * mine.lantern_cards
    )
    score = totals[me] + w.pot_step * mine.pot + future * assets
    best_other = max(t for p, t in enumerate(totals) if p != me)
    return score - w.opponent * best_other


def evaluate(state: State, scale: float = 10.0) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (sampled) state, for search cut-offs (ISMCTS).

    The returns at the end; before it, ``tanh((worth - best other worth) / scale)`` where a
    seat's worth is :func:`value` with :data:`WORTH` (points now plus assets weighted by the game
    left, no opponent term).
    """
    s = state_as(state, WhiteCastleState, "white_castle evaluate")
    if s.is_terminal():
        return s.returns()
    totals = scoring.totals(s)
    worth = [value(s, p, WORTH, totals) for p in range(s.n)]
    lead = [worth[p] - max(worth[:p] + worth[p + 1 :]) for p in range(len(worth))]
    return np.tanh(np.array([x / scale for x in lead]))


def potential(state: State) -> np.ndarray:
    """Each seat's :func:`value` with :data:`POINTS` (its final-scoring total now) divided by
    ``POINTS_SCALE``; a training signal only, never part of the observation or the policy."""
    s = state_as(state, WhiteCastleState, "white_castle potential")
    if s.is_terminal():  # value() at the end is the lead; shaping wants the points
        return np.asarray(scoring.totals(s), dtype=np.float64) / POINTS_SCALE
    totals = scoring.totals(s)
    return np.array([value(s, p, POINTS, totals) for p in range(s.n)]) / POINTS_SCALE
