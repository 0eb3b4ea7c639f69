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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
)

if TYPE_CHECKING:
    from boardgames_rl.games.castle_flutterstone.state import FlutterstoneState


def legal_mask(state: FlutterstoneState) -> np.ndarray:
    """Boolean mask of the legal actions of ``state.current_player`` (all False once over)."""
    g = state.game
    lay = g.layout
    mask = np.zeros(g.num_actions, dtype=bool)
    ph = state.phase
    p = state.turn_player
    if ph == FLICK:
        mask[: lay.num_flicks] = True
    elif ph == MOVE:
        lowest = 0 if (state.move_points > 1 or g.courtyard_optional) else 1
        mask[lay.move + lowest : lay.move + state.move_points + 1] = True
    elif ph == PLAY_CARDS:
        for kind in data.HELPFUL:
            if state._card_playable(p, kind):
                mask[lay.play + kind] = True
        mask[lay.end_play] = True
    elif ph == DRAW:
        mask[lay.draw] = True
        mask[lay.decline] = True
    elif ph == DISCARD:
        for kind in data.HELPFUL:
            if state.helpful_ready[p][kind] + state.helpful_new[p][kind] > 0:
                mask[lay.discard + kind] = True
    elif ph == GIVE:
        for offset in range(1, g.num_players):
            if state._can_receive((p + offset) % g.num_players, state.pending_pesky):
                mask[lay.give + offset - 1] = True
    elif ph == PLACE_GHOST:
        mask[lay.place : lay.place + data.WINDOW_BANDS] = True
    return mask
