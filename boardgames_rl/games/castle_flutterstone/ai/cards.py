"""The heuristic's ghost-card decisions: which helpful ghost to play now, which to discard.

* play every helpful ghost that gains something now, a Second go last (the moves before it
  improve its shot; it is worth one more expected shot), then start flicking;
* with a fourth helpful card, discard the least useful: Moving forward, then Ghost jump, then
  Second go.
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.castle_flutterstone.ai.flicks import flick_values
from boardgames_rl.games.castle_flutterstone.data import Card
from boardgames_rl.games.castle_flutterstone.flick_values import FlickValues
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.infoset import CastleFlutterstoneView
from boardgames_rl.games.castle_flutterstone.movement import (
    advance,
    figure_ahead,
    ghost_jump,
    occupied_by_others,
)

DISCARD_ORDER = (Card.MOVE_FORWARD, Card.GHOST_JUMP, Card.SECOND_GO)
"""The helpful kinds in the order the heuristic gives them up."""


def card_to_play(
    flicks: FlickValues,
    game: CastleFlutterstoneGame,
    view: CastleFlutterstoneView,
    legal: np.ndarray,
) -> int:
    """The action of the play-cards decision: the best helpful ghost to play, or start flicking."""
    lay = game.layout
    me = view.player
    here = view.positions[me]
    occupied = occupied_by_others(view.positions, me, game.goal)
    gains: dict[int, float] = {}
    if legal[lay.play + Card.SECOND_GO]:
        gains[Card.SECOND_GO] = float(flick_values(flicks, game, view, me, view.blocked_band).max())
    if legal[lay.play + Card.MOVE_FORWARD]:
        dest = advance(here, 1, occupied, game.bridges, game.goal)
        gains[Card.MOVE_FORWARD] = dest - here + (flicks.win_bonus if dest >= game.goal else 0.0)
    if legal[lay.play + Card.GHOST_JUMP] and figure_ahead(here, occupied, game.goal) is not None:
        gains[Card.GHOST_JUMP] = ghost_jump(here, occupied, game.bridges, game.goal) - here
    order = sorted(gains, key=lambda c: (c == Card.SECOND_GO, -gains[c]))
    for card in order:
        if gains[card] > 0:
            return lay.play + card
    return lay.end_play


def card_to_discard(game: CastleFlutterstoneGame, legal: np.ndarray) -> int | None:
    """The action of the discard decision (``None`` if no helpful kind is legal)."""
    lay = game.layout
    for kind in DISCARD_ORDER:
        if legal[lay.discard + kind]:
            return lay.discard + kind
    return None
