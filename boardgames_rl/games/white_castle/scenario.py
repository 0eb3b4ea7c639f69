"""Builder of hand-made White Castle positions for tests and notebooks.

Example::

    s = (Scenario(2).player(0, coin=5, pearl=4).bridges([[1, 3], [2], [6]])
         .rooms(["S2", "S4", "S9", "D2", "D7"]).turn(0).build())
"""

from __future__ import annotations

from typing import Any

from boardgames_rl.games.white_castle.game import WhiteCastle
from boardgames_rl.games.white_castle.state import WhiteCastleState


class Scenario:
    """Start from a blank board (every player holding a Courtier starting card)."""

    def __init__(self, num_players: int = 2, seed: int = 0):
        self.game = WhiteCastle(num_players=num_players)
        from boardgames_rl.core.seeding import make_rng

        self.s = WhiteCastleState.empty(self.game, make_rng(seed))
        for pl in self.s.players:
            pl["action_card"] = "A1a"
        self._turn: int | None = None

    def player(self, p: int, **fields: Any) -> Scenario:
        self.s.players[p].update(fields)
        return self

    def set(self, **fields: Any) -> Scenario:
        for k, v in fields.items():
            setattr(self.s, k, v)
        return self

    def bridges(self, dice: list[list[int]]) -> Scenario:
        self.s.bridges = [sorted(d) for d in dice]
        return self

    def rooms(self, cards: list[str | None], tiles: list[list[int]] | None = None) -> Scenario:
        self.s.rooms = list(cards)
        if tiles is not None:
            self.s.room_tiles = [list(t) for t in tiles]
        return self

    def turn(self, p: int, turns_taken: int | None = None) -> Scenario:
        """Make it ``p`` 's turn start (choose a die)."""
        s = self.s
        if turns_taken is None:
            turns_taken = s.turn_order.index(p)
        s.turns_taken = turns_taken
        s.turn_active = True
        s.phase = "play"
        s.ask(p, "die")
        return self

    def build(self) -> WhiteCastleState:
        s = self.s
        if s.decision is None:
            s._run()
        s._mask = None
        return s
