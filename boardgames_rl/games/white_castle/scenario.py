"""Hand-made White Castle positions, for rule tests, examples and debugging.

:func:`build` starts from a blank board (no castle cards, empty bridges, every player holding a
Courtier starting Action card and nothing else), overwrites the state fields given by name
(``state.KEYS``: ``rooms``, ``room_tiles``, ``bridges``, ``spaces``, ``gardens``, ...) and each
player's fields (``players={0: {"coin": 5}}``), optionally starts ``turn``'s turn (the choice of
a die), then runs the engine to its first decision. :func:`play` answers decisions by their
contextual names (``state.action_name(a)``, from :mod:`boardgames_rl.core.scenario`)::

    s = build(WhiteCastle(num_players=2), rooms=["S2", "S4", "S9", "D2", "D7"],
              bridges=[[1, 3], [2], [6]], players={0: {"coin": 5, "pearl": 4}}, turn=0)
    play(s, s.action_name(0))

:class:`Scenario` is the former chained builder, kept as a thin deprecated wrapper of
:func:`build`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from marshal import dumps, loads
from typing import Any

from boardgames_rl.core.scenario import legal_names, play
from boardgames_rl.core.seeding import make_rng
from boardgames_rl.games.white_castle.game import WhiteCastle
from boardgames_rl.games.white_castle.state import KEYS, WhiteCastleState, _new_player

__all__ = ["build", "play", "legal_names", "Scenario"]

_PLAYER_KEYS = frozenset(_new_player())
_NOT_SET = frozenset(("n", "players"))


def build(
    game: WhiteCastle,
    *,
    players: Mapping[int, Mapping[str, Any]] | Sequence[Mapping[str, Any]] | None = None,
    turn: int | None = None,
    turns_taken: int | None = None,
    seed: int = 0,
    **fields: Any,
) -> WhiteCastleState:
    """A White Castle position on a blank board with the given overrides.

    Args:
        game: the configured game (player count, ``well_one_pays_tiles``).
        players: per-seat field overrides (``food``, ``coin``, ``pot``, ``lantern``, ...), as a
            mapping seat -> fields or a sequence with one mapping per seat.
        turn: if given, start this seat's turn (its decision: choose a die); ``turns_taken``
            defaults to the seat's place in ``turn_order``.
        turns_taken: turns already played this round (with ``turn``).
        seed: seeds the state's chance generator (later rolls and deals).
        **fields: state fields by name (``state.KEYS``), copied; ``bridges`` are sorted.

    Raises:
        ValueError: an unknown state or player field, or a seat out of range (one line).
    """
    s = WhiteCastleState.empty(game, make_rng(seed))
    for pl in s.players:
        pl["action_card"] = "A1a"
    for key, value in fields.items():
        if key not in KEYS or key in _NOT_SET:
            raise ValueError(
                f"white_castle scenario: no state field {key!r}; fields: "
                + ", ".join(k for k in KEYS if k not in _NOT_SET)
            )
        setattr(s, key, loads(dumps(value)))
    if "bridges" in fields:
        s.bridges = [sorted(d) for d in s.bridges]
    seats = players.items() if isinstance(players, Mapping) else enumerate(players or ())
    for p, pfields in seats:
        if not (isinstance(p, int) and 0 <= p < s.n):
            raise ValueError(f"white_castle scenario: player {p!r} is not a seat 0..{s.n - 1}")
        bad = sorted(set(pfields) - _PLAYER_KEYS)
        if bad:
            raise ValueError(
                f"white_castle scenario: no player field {bad[0]!r}; fields: "
                + ", ".join(sorted(_PLAYER_KEYS))
            )
        s.players[p].update(loads(dumps(dict(pfields))))
    if turn is not None:
        if not (isinstance(turn, int) and 0 <= turn < s.n):
            raise ValueError(f"white_castle scenario: turn {turn!r} is not a seat 0..{s.n - 1}")
        s.turns_taken = s.turn_order.index(turn) if turns_taken is None else turns_taken
        s.turn_active = True
        s.phase = "play"
        s.ask(turn, "die")
    elif turns_taken is not None:
        s.turns_taken = turns_taken
    if s.decision is None:
        s._run()
    s._mask = None
    return s


class Scenario:
    """Deprecated: the chained form of :func:`build` (``Scenario(2).player(0, coin=5).turn(0)
    .build()`` is ``build(WhiteCastle(num_players=2), players={0: {"coin": 5}}, turn=0)``).

    Each method records overrides; :meth:`build` passes them to :func:`build`.
    """

    def __init__(self, num_players: int = 2, seed: int = 0, **config: Any):
        self.game = WhiteCastle(num_players=num_players, **config)
        self._fields: dict[str, Any] = {"seed": seed}
        self._players: dict[int, dict[str, Any]] = {}

    def player(self, p: int, **fields: Any) -> Scenario:
        self._players.setdefault(p, {}).update(fields)
        return self

    def set(self, **fields: Any) -> Scenario:
        self._fields.update(fields)
        return self

    def bridges(self, dice: list[list[int]]) -> Scenario:
        return self.set(bridges=dice)

    def rooms(self, cards: list[str | None], tiles: list[list[int]] | None = None) -> Scenario:
        self.set(rooms=cards)
        return self if tiles is None else self.set(room_tiles=tiles)

    def turn(self, p: int, turns_taken: int | None = None) -> Scenario:
        """Make it ``p`` 's turn start (choose a die)."""
        return self.set(turn=p, turns_taken=turns_taken)

    def build(self) -> WhiteCastleState:
        return build(self.game, players=self._players, **self._fields)
