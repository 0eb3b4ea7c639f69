"""Castle Flutterstone legal actions: the mask of the pending decision, by phase.

Each phase opens only its own block of the action layout (``actions.ActionLayout``):

* ``flick``: every (yaw, elevation, force) of the grid;
* ``move``: 0..N fields for an "up to N" result (a courtyard landing's one field is mandatory
  when ``courtyard_optional`` is off, so 0 is then not offered for N = 1);
* ``play_cards``: each helpful kind held and usable (a Ghost jump needs a figure ahead), and
  "start flicking";
* ``draw``: draw or decline; ``discard``: any helpful kind held (a fourth card was drawn);
* ``give``: each other player still racing who holds no pesky card of that kind;
* ``place_ghost``: the three windows (the giver decides).

The rules behind the blocks are here too, and the engine asks them: :func:`card_playable`,
:func:`can_play_a_card` (does the turn open with the play-cards decision) and
:func:`can_receive` (who may be given a pesky card; with one such player it is given at once).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from boardgames_rl.games.castle_flutterstone import data
from boardgames_rl.games.castle_flutterstone.data import (
    DISCARD,
    DRAW,
    FLICK,
    GIVE,
    MOVE,
    PLACE_GHOST,
    PLAY_CARDS,
    Card,
)
from boardgames_rl.games.castle_flutterstone.movement import figure_ahead, occupied_by_others

if TYPE_CHECKING:
    from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
    from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState

_GHOST_JUMP: Final = int(Card.GHOST_JUMP)
_EYES_CLOSED: Final = int(Card.EYES_CLOSED)
"""Card kinds as plain ints (a ``Card`` member is a class attribute lookup in compiled code)."""


def legal_mask(state: CastleFlutterstoneState) -> np.ndarray:
    """Read-only boolean mask of the legal actions of ``state.current_player`` (all False once
    over). Masks are shared: a decision's few possible masks are built once per game
    (:func:`_shared_mask`) and every state with the same legal actions gets the same array."""
    g = state.game
    lay = g.layout
    ph = state.phase
    p = state.turn_player
    if ph == FLICK:
        return _shared_mask(g, ((0, lay.num_flicks),))
    if ph == MOVE:
        lowest = 0 if (state.move_points > 1 or g.courtyard_optional) else 1
        return _shared_mask(g, ((lay.move + lowest, lay.move + state.move_points + 1),))
    if ph == PLAY_CARDS:
        cards = tuple(
            (lay.play + kind, lay.play + kind + 1)
            for kind in data.HELPFUL
            if card_playable(state, p, kind)
        )
        return _shared_mask(g, (*cards, (lay.end_play, lay.end_play + 1)))
    if ph == DRAW:
        return _shared_mask(g, ((lay.draw, lay.decline + 1),))
    if ph == DISCARD:
        return _shared_mask(
            g,
            tuple(
                (lay.discard + kind, lay.discard + kind + 1)
                for kind in data.HELPFUL
                if state.helpful_ready[p][kind] + state.helpful_new[p][kind] > 0
            ),
        )
    if ph == GIVE:
        return _shared_mask(
            g,
            tuple(
                (lay.give + offset - 1, lay.give + offset)
                for offset in range(1, g.num_players)
                if can_receive(state, (p + offset) % g.num_players, state.pending_pesky)
            ),
        )
    if ph == PLACE_GHOST:
        return _shared_mask(g, ((lay.place, lay.place + data.WINDOW_BANDS),))
    return _shared_mask(g, ())


def card_playable(state: CastleFlutterstoneState, seat: int, kind: int) -> bool:
    """Seat ``seat`` may play a usable helpful card of ``kind`` now: it holds one, and for a
    Ghost jump another figure stands ahead of its figure on the path."""
    if state.helpful_ready[seat][kind] == 0:
        return False
    if kind == _GHOST_JUMP:
        goal = state.game.goal
        occupied = occupied_by_others(state.positions, seat, goal)
        return figure_ahead(state.positions[seat], occupied, goal) is not None
    return True


def can_play_a_card(state: CastleFlutterstoneState, seat: int) -> bool:
    """Seat ``seat`` has a helpful card it may play now (else its turn goes on to the flick)."""
    return any(state.helpful_ready[seat]) and any(
        card_playable(state, seat, kind) for kind in data.HELPFUL
    )


def can_receive(state: CastleFlutterstoneState, seat: int, kind: int) -> bool:
    """A pesky card of ``kind`` may go to ``seat``: another player than the turn player, still
    racing, who holds no pesky card of that kind."""
    return (
        seat != state.turn_player
        and seat not in state.finished
        and not state.pesky[seat][kind - _EYES_CLOSED]
    )


def _shared_mask(game: CastleFlutterstoneGame, spans: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The read-only mask with the actions ``[start, stop)`` of each span legal, one per game."""
    mask = game._masks.get(spans)
    if mask is None:
        mask = np.zeros(game.num_actions, dtype=bool)
        for start, stop in spans:
            mask[start:stop] = True
        mask.flags.writeable = False
        game._masks[spans] = mask
    return mask
