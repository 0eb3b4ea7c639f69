"""Hand-made White Castle positions, for rule tests, examples and debugging.

:func:`build` starts from ``game.new_state(seed)`` (a legal state: the setup dealt, the
starting draft open) and overwrites only the named fields of :data:`FIELDS` (an unknown one is
refused in one line listing them): state fields by name, each player's holdings
(``players={0: {"coin": 5}}``, a :class:`Holdings`) and ``turn`` (start that seat's turn: the
draft is over, the seat chooses a die). Then it runs the game's state checks and the engine to
its first decision. :func:`play` and :func:`legal_names` (from
:mod:`boardgames_rl.testing.scenario`) answer decisions by their contextual names::

    from boardgames_rl.games.white_castle import WhiteCastleGame
    from boardgames_rl.games.white_castle.scenario import build
    from boardgames_rl.testing.scenario import legal_names, play

    s = build(WhiteCastleGame(num_players=2), rooms=["S2", "S4", "S9", "D2", "D7"],
              bridges=[[1, 3], [2], [6]], players={0: {"coin": 5, "pearl": 4}}, turn=0)
    print(legal_names(s))  # the dice player_0 may take: 'take the coral 1 from the left end', ...
    play(s, "take the coral 1 from the left end", "place die: the Well (no coins)")

:func:`blank_fields` are the fields of a blank table (no castle cards, empty bridges, fixed
tiles, gardens and yards, every player holding a Courtier starting Action card and nothing
else), the table the rule tests start from: ``build(game, **blank_fields(game, rooms=...))``.
:class:`Scenario` is the former chained builder, a deprecated wrapper of :func:`build` over
:func:`blank_fields`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from marshal import dumps, loads
from typing import Any, TypedDict

from boardgames_rl.games.white_castle import state_checks
from boardgames_rl.games.white_castle.game import WhiteCastleGame
from boardgames_rl.games.white_castle.state import KEYS, WhiteCastleState, new_player
from boardgames_rl.testing.scenario import legal_names, play

__all__ = ["FIELDS", "Holdings", "Scenario", "blank_fields", "build", "legal_names", "play"]


class Holdings(TypedDict, total=False):
    """One player's fields :func:`build` may overwrite (any subset)."""

    food: int
    iron: int
    pearl: int
    coin: int
    seal: int
    vp: int
    pot: int
    """Passage of Time position (0-20)."""
    pot_arr: int
    """Arrival order on the Passage of Time (the later the higher; breaks turn-order ties)."""
    members: list[int]
    """Clan members still in the Domain: courtiers, gardeners, warriors."""
    courtiers: list[int]
    """Courtiers at the Gate and on floors 1, 2 and 3."""
    action_card: str | None
    lantern: list[str]
    """The cards of the Lantern area (their lantern icons)."""


PlayersFields = Mapping[int, Holdings] | Sequence[Holdings]
"""Holdings per seat: ``{seat: holdings}`` or one mapping per seat."""

FIELDS: dict[str, str] = {
    "players": "each seat's holdings to overwrite ({seat: Holdings} or one per seat)",
    "turn": "the seat whose turn starts (the draft is over; it chooses a die); turns_taken "
    "defaults to its place in turn_order",
    "round": "the round, 1-3",
    "phase": "draft, play, gardens, final or over",
    "turn_order": "the seats in turn order",
    "turns_taken": "turns played this round",
    "turn_active": "whether the current turn has begun",
    "steward_deck": "the Steward cards left, top first",
    "diplomat_deck": "the Diplomat cards left, top first",
    "rooms": "the card of each castle room (3 Steward, 2 Diplomat; None: empty)",
    "room_tiles": "the die-tile colours of each room, top row first (0 coral, 1 black, 2 white)",
    "well_tiles": "the two die tiles in the Well",
    "daimyo": "the Daimyo card",
    "daimyo_pos": "the seat on each Daimyo position (-1: free)",
    "bridges": "the dice on each bridge (sorted)",
    "spaces": "the dice on each room, Outside the Walls and Well space ([value, seat, colour])",
    "domain_dice": "each seat's Domain dice by row (0: none)",
    "gardens": "the six Garden cards",
    "garden_workers": "the seats with a gardener on each garden",
    "yards": "the [tile, face] of each training yard",
    "yard_warriors": "the seats with a warrior in each yard",
    "pot_counter": "arrivals on the Passage of Time so far",
    "offer": "the starting pairs left to draft",
    "draft_left": "the seats still to draft, next first",
    "held": "the die taken and not placed yet ([bridge, value, from the left end])",
    "stack": "the pending effect frames",
    "decision": "the pending decision",
    "final_left": "the seats still to make their last exchanges",
}
"""The fields :func:`build` overwrites, with what each one sets."""

_PLAYER_KEYS = frozenset(new_player())


def build(
    game: WhiteCastleGame | None = None,
    *,
    seed: int = 0,
    players: PlayersFields | None = None,
    turn: int | None = None,
    **fields: Any,
) -> WhiteCastleState:
    """The position ``fields`` describe (names and meanings in :data:`FIELDS`), made from
    ``game.new_state(seed)`` (``game`` defaults to a 2-player ``WhiteCastleGame()``; ``seed`` also
    drives later chance), checked by the game's state checks and run to its first decision.
    Fields are copied; ``bridges`` are sorted.

    Raises ``ValueError`` in one line naming what is wrong (an unknown field is refused with
    the list of the known ones).
    """
    game = WhiteCastleGame() if game is None else game
    unknown = sorted(set(fields) - FIELDS.keys())
    if unknown:
        raise ValueError(
            f"white_castle scenario: no state field {unknown[0]!r}; fields: {', '.join(FIELDS)}"
        )
    state = game.new_state(seed)
    for key, value in fields.items():
        setattr(state, key, loads(dumps(value)))
    if "bridges" in fields:
        state.bridges = [sorted(dice) for dice in state.bridges]
    n = state.n
    seats = players.items() if isinstance(players, Mapping) else enumerate(players or ())
    for seat, holdings in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"white_castle scenario: player {seat!r} is not a seat 0..{n - 1}")
        bad = sorted(set(holdings) - _PLAYER_KEYS)
        if bad:
            raise ValueError(
                f"white_castle scenario: no player field {bad[0]!r}; fields: "
                + ", ".join(sorted(_PLAYER_KEYS))
            )
        state.players[seat].update(loads(dumps(dict(holdings))))
    if turn is not None:
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < n:
            raise ValueError(f"white_castle scenario: turn {turn!r} is not a seat 0..{n - 1}")
        if "turns_taken" not in fields:
            state.turns_taken = state.turn_order.index(turn)
        if state.phase == "draft":  # the draft is over
            state.offer, state.draft_left = [], []
        state.turn_active = True
        state.phase = "play"
        state.ask(turn, "die")
    problem = state_checks.problems(game, {k: getattr(state, k) for k in KEYS})
    if problem is not None:
        raise ValueError(f"white_castle scenario: {problem}")
    if state.decision is None:
        state._run()
    state._mask = None  # the fields changed outside the rules: list the options again
    return state


def blank_fields(game: WhiteCastleGame | None = None, **fields: Any) -> dict[str, Any]:
    """The fields of a blank table, with ``fields`` (and each seat's ``players`` holdings) laid
    over them: no castle cards, empty bridges, fixed die tiles, Well tiles, Daimyo card,
    gardens and yards, turn order 0..n-1 in the play phase, no arrivals on the Passage of Time,
    and every player holding a Courtier starting Action card and nothing else."""
    n = (WhiteCastleGame() if game is None else game).num_players
    blank = WhiteCastleState.empty(WhiteCastleGame(num_players=n))
    # turns_taken is left to build (``turn``'s place in the turn order by default)
    out = {k: getattr(blank, k) for k in KEYS if k not in ("n", "players", "turns_taken")}
    table: dict[int, dict[str, Any]] = {p: {**new_player(), "action_card": "A1a"} for p in range(n)}
    given = fields.pop("players", None) or {}
    for seat, holdings in given.items() if isinstance(given, Mapping) else enumerate(given):
        table.setdefault(seat, {}).update(holdings)
    out.update(fields)
    out["players"] = table
    return out


class Scenario:
    """Deprecated: the chained form of :func:`build` on a blank table (``Scenario(2).player(0,
    coin=5).turn(0).build()`` is ``build(WhiteCastleGame(num_players=2), **blank_fields(
    players={0: {"coin": 5}}, turn=0))``).

    Each method records overrides; :meth:`build` passes them to :func:`build`.
    """

    def __init__(self, num_players: int = 2, seed: int = 0, **config: Any):
        self.game = WhiteCastleGame(num_players=num_players, **config)
        self._seed = seed
        self._fields: dict[str, Any] = {}
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
        self.set(turn=p)
        return self if turns_taken is None else self.set(turns_taken=turns_taken)

    def build(self) -> WhiteCastleState:
        fields = blank_fields(self.game, players=self._players, **self._fields)
        return build(self.game, seed=self._seed, **fields)
