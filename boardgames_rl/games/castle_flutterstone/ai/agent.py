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
from boardgames_rl.games.castle_flutterstone.data import (
    DISCARD,
    DRAW,
    FLICK,
    GIVE,
    MOVE,
    PLACE_GHOST,
    PLAY_CARDS,
)
from boardgames_rl.games.castle_flutterstone.flick_values import FlickValues
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstone
from boardgames_rl.games.castle_flutterstone.infoset import flutterstone_info_set
from boardgames_rl.games.castle_flutterstone.movement import advance, occupied_by_others

Handler = Callable[
    ["FlutterstoneHeuristic", CastleFlutterstone, dict, int, np.ndarray], "int | None"
]


class FlutterstoneHeuristic(Agent):
    """Greedy expected-progress player (see :mod:`boardgames_rl.games.castle_flutterstone.ai`).
    Deterministic given its inputs; reads only its info set."""

    name = "heuristic"

    def __init__(self, card_value: float = 0.8, win_bonus: float = 10.0):
        self.card_value = card_value
        self.win_bonus = win_bonus
        self.flicks = FlickValues(card_value, win_bonus)

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        info = flutterstone_info_set(info_set)
        game = info.game
        k = info.knowledge
        legal = info.legal_action_mask
        handler = HANDLERS.get(k["phase"])
        choice = None if handler is None else handler(self, game, k, info.player, legal)
        return int(np.flatnonzero(legal)[0]) if choice is None else choice

    # --------------------------------------------------------------------------- decisions
    def _flick(self, game: CastleFlutterstone, k: dict, me: int, legal: np.ndarray) -> int:
        values = flick_values(self.flicks, game, k, me, k["blocked_band"])
        return int(np.argmax(np.where(legal[: game.layout.num_flicks], values, -np.inf)))

    def _move(self, game: CastleFlutterstone, k: dict, me: int, legal: np.ndarray) -> int:
        lay = game.layout
        pos = k["positions"][me]
        occupied = occupied_by_others(k["positions"], me, game.goal)
        dest = [
            advance(pos, n, occupied, game.bridges, game.goal) if legal[lay.move + n] else -1
            for n in range(k["move_points"] + 1)
        ]
        return lay.move + int(np.argmax(dest))

    def _play(self, game: CastleFlutterstone, k: dict, me: int, legal: np.ndarray) -> int:
        return card_to_play(self.flicks, game, k, me, legal)

    def _draw(self, game: CastleFlutterstone, k: dict, me: int, legal: np.ndarray) -> int:
        return game.layout.draw

    def _discard(self, game: CastleFlutterstone, k: dict, me: int, legal: np.ndarray) -> int | None:
        return card_to_discard(game, legal)

    def _give(self, game: CastleFlutterstone, k: dict, me: int, legal: np.ndarray) -> int:
        lay = game.layout
        offsets = [o for o in range(1, game.num_players) if legal[lay.give + o - 1]]
        lead = max(offsets, key=lambda o: k["positions"][(me + o) % game.num_players])
        return lay.give + lead - 1

    def _place(self, game: CastleFlutterstone, k: dict, me: int, legal: np.ndarray) -> int:
        victim = k["turn_player"]
        worst = [flick_values(self.flicks, game, k, victim, band).max() for band in (1, 2, 3)]
        return game.layout.place + int(np.argmin(worst))


HANDLERS: dict[int, Handler] = {
    FLICK: FlutterstoneHeuristic._flick,
    MOVE: FlutterstoneHeuristic._move,
    PLAY_CARDS: FlutterstoneHeuristic._play,
    DRAW: FlutterstoneHeuristic._draw,
    DISCARD: FlutterstoneHeuristic._discard,
    GIVE: FlutterstoneHeuristic._give,
    PLACE_GHOST: FlutterstoneHeuristic._place,
}
"""The rule of each decision kind (``data.PHASES``); every phase but ``OVER`` has one."""
