"""The heuristic's reading of its info set for :class:`~..flick_values.FlickValues` (the worth
of every flick, public and shared with the text view's hints, lives in
:mod:`boardgames_rl.games.castle_flutterstone.flick_values`)."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.castle_flutterstone.flick_values import FlickValues
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstone


def can_draw(knowledge: dict) -> bool:
    """A moat landing would let the player draw a ghost card: the pile or the discards hold
    one."""
    return bool(knowledge["draw_pile"]) or any(knowledge["discard"])


def flick_values(
    flicks: FlickValues, game: CastleFlutterstone, knowledge: dict, seat: int, band: int
) -> np.ndarray:
    """Expected worth of every flick for ``seat`` with the ghost figure in window ``band``."""
    return flicks.values(
        game, seat, knowledge["positions"], knowledge["pesky"][seat], band, can_draw(knowledge)
    )
