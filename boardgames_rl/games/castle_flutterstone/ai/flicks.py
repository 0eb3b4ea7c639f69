"""The heuristic's reading of its public view for :class:`~..flick_values.FlickValues` (the
worth of every flick, public and shared with the text view's hints, lives in
:mod:`boardgames_rl.games.castle_flutterstone.flick_values`)."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.castle_flutterstone.flick_values import FlickValues
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.infoset import CastleFlutterstoneView


def flick_values(
    flicks: FlickValues,
    game: CastleFlutterstoneGame,
    view: CastleFlutterstoneView,
    seat: int,
    band: int,
) -> np.ndarray:
    """Expected worth of every flick for ``seat`` with the ghost figure in window ``band``."""
    return flicks.values(game, seat, view.positions, view.pesky[seat], band, view.can_draw)
