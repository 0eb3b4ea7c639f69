"""The heuristic Castle Flutterstone agent: one rule per decision kind (``HANDLERS``).

* flick: the (yaw, elevation, force) with the highest expected progress (:mod:`.flicks`);
* move: the farthest field; draw: always; cards: :mod:`.cards`;
* give a pesky card: to the leader; place the ghost figure: in the window that hurts the victim
  most (lowest best expected flick with that window blocked).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.game import InfoSet
from boardgames_rl.games.castle_flutterstone.ai.cards import card_to_discard, card_to_play
from boardgames_rl.games.castle_flutterstone.ai.flicks import flick_values
from boardgames_rl.games.castle_flutterstone.data import Phase
from boardgames_rl.games.castle_flutterstone.flick_values import FlickValues
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.infoset import (
    CastleFlutterstoneView,
    flutterstone_info_set,
)
from boardgames_rl.games.castle_flutterstone.movement import advance, occupied_by_others

Handler = Callable[
    ["CastleFlutterstoneHeuristic", CastleFlutterstoneGame, CastleFlutterstoneView, np.ndarray],
    "int | None",
]


class CastleFlutterstoneHeuristic(Agent):
    """Greedy expected-progress player (see ``boardgames_rl.games.castle_flutterstone.ai``).
    Deterministic given its inputs; reads only its info set's public view
    (:class:`~boardgames_rl.games.castle_flutterstone.infoset.CastleFlutterstoneView`)."""

    name = "heuristic"

    def __init__(self, card_value: float = 0.8, win_bonus: float = 10.0):
        self.card_value = card_value
        self.win_bonus = win_bonus
        self.flicks = FlickValues(card_value, win_bonus)

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        info = flutterstone_info_set(info_set)
        view = info.view
        legal = info.legal_action_mask
        handler = HANDLERS.get(view.phase)
        choice = None if handler is None else handler(self, info.game, view, legal)
        return int(np.flatnonzero(legal)[0]) if choice is None else choice

    # --------------------------------------------------------------------------- decisions
    def _flick(
        self, game: CastleFlutterstoneGame, view: CastleFlutterstoneView, legal: np.ndarray
    ) -> int:
        values = flick_values(self.flicks, game, view, view.player, view.blocked_band)
        return int(np.argmax(np.where(legal[: game.layout.num_flicks], values, -np.inf)))

    def _move(
        self, game: CastleFlutterstoneGame, view: CastleFlutterstoneView, legal: np.ndarray
    ) -> int:
        lay = game.layout
        here = view.positions[view.player]
        occupied = occupied_by_others(view.positions, view.player, game.goal)
        dest = [
            advance(here, n, occupied, game.bridges, game.goal) if legal[lay.move + n] else -1
            for n in range(view.move_points + 1)
        ]
        return lay.move + int(np.argmax(dest))

    def _play(
        self, game: CastleFlutterstoneGame, view: CastleFlutterstoneView, legal: np.ndarray
    ) -> int:
        return card_to_play(self.flicks, game, view, legal)

    def _draw(
        self, game: CastleFlutterstoneGame, view: CastleFlutterstoneView, legal: np.ndarray
    ) -> int:
        return game.layout.draw

    def _discard(
        self, game: CastleFlutterstoneGame, view: CastleFlutterstoneView, legal: np.ndarray
    ) -> int | None:
        return card_to_discard(game, legal)

    def _give(
        self, game: CastleFlutterstoneGame, view: CastleFlutterstoneView, legal: np.ndarray
    ) -> int:
        lay = game.layout
        offsets = [o for o in range(1, game.num_players) if legal[lay.give + o - 1]]
        lead = max(offsets, key=lambda o: view.positions[(view.player + o) % game.num_players])
        return lay.give + lead - 1

    def _place(
        self, game: CastleFlutterstoneGame, view: CastleFlutterstoneView, legal: np.ndarray
    ) -> int:
        victim = view.turn_player
        worst = [flick_values(self.flicks, game, view, victim, band).max() for band in (1, 2, 3)]
        return game.layout.place + int(np.argmin(worst))


HANDLERS: dict[Phase, Handler] = {
    Phase.FLICK: CastleFlutterstoneHeuristic._flick,
    Phase.MOVE: CastleFlutterstoneHeuristic._move,
    Phase.PLAY_CARDS: CastleFlutterstoneHeuristic._play,
    Phase.DRAW: CastleFlutterstoneHeuristic._draw,
    Phase.DISCARD: CastleFlutterstoneHeuristic._discard,
    Phase.GIVE: CastleFlutterstoneHeuristic._give,
    Phase.PLACE_GHOST: CastleFlutterstoneHeuristic._place,
}
"""The rule of each decision kind (:class:`~..data.Phase`); every phase but ``OVER`` has one."""


FlutterstoneHeuristic = CastleFlutterstoneHeuristic
"""Deprecated name of :class:`CastleFlutterstoneHeuristic` (kept so that old imports still
work)."""
