"""Hand-made Castle Flutterstone positions, for rule tests, examples and debugging.

:func:`build` starts from ``game.new_state(seed)`` (a legal state) and overwrites only the named
fields of ``FIELDS`` (an unknown one is refused in one line listing them): where each figure
stands, the ghost cards lying in front of each player (by name), who gave a Pesky ghost, the
draw pile from the top down and the discards; then it starts the turn of seat ``turn`` and runs
the game's state checks (``state_checks.problems``, :func:`check_invariants`). :func:`play`
(from :mod:`boardgames_rl.testing.scenario`) then answers decisions by their action names
(``state.action_name(a)``), so a test reads like the rulebook::

    from boardgames_rl import make_game
    from boardgames_rl.games.castle_flutterstone.scenario import build
    from boardgames_rl.testing.scenario import legal_names, play

    game = make_game("castle_flutterstone", num_players=2)
    s = build(game, positions=[7, 3], turn=1, cards={1: ["Ghost jump"]}, draw_pile=["Second go"])
    print(legal_names(s))       # ['play Ghost jump', 'start flicking']
    play(s, "play Ghost jump")  # to the field behind the next figure in front
    assert s.positions == [7, 6] and s.phase_name == "flick"

Cards are named as in ``data.CARD_NAMES`` ("Second go", "Moving forward", "Ghost jump",
"Eyes closed", "Change hands", "Pesky ghost"; case-insensitive) or given as ``data.Card``.
A flick's landing is drawn from the landing model; tests that need a given landing replace
``state.sample_flick`` (see ``tests/castle_flutterstone/test_rules.py``).
:func:`check_invariants` checks that every ghost card is in exactly one place.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from boardgames_rl.games.castle_flutterstone import data, state_checks
from boardgames_rl.games.castle_flutterstone.data import FLICK, OVER, Card
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState
from boardgames_rl.testing.scenario import legal_names, play

__all__ = ["FIELDS", "build", "card", "check_invariants", "legal_names", "play", "setup"]

FIELDS: dict[str, str] = {
    "positions": "the field of each figure (default: all on the start field 0)",
    "turn": "the seat whose turn starts (default the game's first player); its start-of-turn "
    "steps run: the Pesky ghost's giver is asked to place the ghost figure, or the cards may be "
    "played",
    "cards": "the helpful cards in front of each seat usable now ({seat: names} or one list per "
    "seat)",
    "new_cards": "the helpful cards each seat drew in its last turn (usable from its next turn "
    "on; for the seat whose turn starts, that is now)",
    "pesky": "the pesky cards in front of each seat ({seat: names} or one list per seat)",
    "ghost_from": "{seat: giver} for each seat holding the Pesky ghost card (in a 2-player game "
    "the other seat by default)",
    "draw_pile": "the whole draw pile from the top down (default: the cards neither held nor "
    "discarded, shuffled by the seed); cards left out of it are out of the game",
    "discard": "the cards in the discard pile (default none)",
}
"""The fields :func:`build` overwrites, with what each one sets."""

_BY_NAME = {name.lower(): kind for kind, name in data.CARD_NAMES.items()}

CardsBySeat = Mapping[int, Iterable[str | int]] | Sequence[Iterable[str | int]]
"""Cards per seat: ``{seat: names}`` or one list of names per seat."""


def card(name: str | int) -> Card:
    """The card kind named ``name`` (a ``CARD_NAMES`` entry, case-insensitive) or with that id."""
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < len(Card):
        return Card(name)
    if isinstance(name, str) and name.lower() in _BY_NAME:
        return _BY_NAME[name.lower()]
    raise ValueError(f"no ghost card {name!r}; choose from {', '.join(data.CARD_NAMES.values())}")


def _per_seat(value: CardsBySeat | None, num_players: int, what: str) -> list[list[Card]]:
    if value is None:
        return [[] for _ in range(num_players)]
    items = value.items() if isinstance(value, Mapping) else enumerate(value)
    out: list[list[Card]] = [[] for _ in range(num_players)]
    for seat, names in items:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
            raise ValueError(f"{what}: no seat {seat!r} in a {num_players}-player game")
        if isinstance(names, str | int):
            names = [names]
        out[seat] = [card(c) for c in names]
    return out


# ------------------------------------------------------------------------------------ building
def build(
    game: CastleFlutterstoneGame | None = None, *, seed: int = 0, **fields: Any
) -> CastleFlutterstoneState:
    """The position ``fields`` describe (names and meanings in ``FIELDS``) at the start of a
    turn, made from ``game.new_state(seed)`` (``game`` defaults to a 2-player
    ``CastleFlutterstoneGame()``) and checked by the game's state checks. ``seed`` also shuffles the
    default draw pile and drives later chance.

    Raises ``ValueError`` in one line naming what is wrong (an unknown field is refused with
    the list of the known ones).
    """
    unknown = sorted(set(fields) - FIELDS.keys())
    if unknown:
        raise ValueError(
            f"castle_flutterstone scenario: no field {', '.join(unknown)}; "
            f"the fields are {', '.join(FIELDS)}"
        )
    state = _position(CastleFlutterstoneGame() if game is None else game, seed=seed, **fields)
    inner = state.to_dict()["state"]
    problem = state_checks.field_problems(state.game, inner)
    if problem is None and fields.get("draw_pile") is None:
        problem = state_checks.deck_problem(state.game, inner)
    if problem is not None:
        raise ValueError(f"castle_flutterstone scenario: {problem}")
    check_invariants(state, complete=fields.get("draw_pile") is None)
    return state


def _position(
    game: CastleFlutterstoneGame,
    *,
    seed: int,
    positions: Sequence[int] | None = None,
    turn: int | None = None,
    cards: CardsBySeat | None = None,
    new_cards: CardsBySeat | None = None,
    pesky: CardsBySeat | None = None,
    ghost_from: Mapping[int, int] | None = None,
    draw_pile: Sequence[str | int] | None = None,
    discard: Sequence[str | int] = (),
) -> CastleFlutterstoneState:
    """``game.new_state(seed)`` with the fields overwritten and the turn of ``turn`` started."""
    n = game.num_players
    state = game.new_state(seed)
    turn = state.turn_player if turn is None else turn
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < n:
        raise ValueError(f"turn: no seat {turn!r} in a {n}-player game")
    figures = [0] * n if positions is None else [int(q) for q in positions]
    if len(figures) != n or any(not 0 <= q <= game.goal for q in figures):
        raise ValueError(f"positions must give {n} fields in [0, {game.goal}], got {figures}")
    on_path = [q for q in figures if 0 < q < game.goal]
    if len(set(on_path)) != len(on_path) or any(q in game.bridges for q in on_path):
        raise ValueError("two figures share a path field, or a figure stands on a bridge")
    ready, new, held_pesky = (
        _per_seat(cards, n, "cards"),
        _per_seat(new_cards, n, "new_cards"),
        _per_seat(pesky, n, "pesky"),
    )
    for what, rows, kinds in (
        ("cards", ready, data.HELPFUL),
        ("new_cards", new, data.HELPFUL),
        ("pesky", held_pesky, data.PESKY),
    ):
        for seat, row in enumerate(rows):
            wrong = [data.CARD_NAMES[c] for c in row if c not in kinds]
            if wrong:
                raise ValueError(f"{what} of seat {seat}: {wrong} are not {what} kinds")
    for seat, row in enumerate(held_pesky):
        if len(set(row)) != len(row):
            raise ValueError(f"seat {seat} holds two pesky cards of one kind (never possible)")
    givers = [-1] * n
    for seat, row in enumerate(held_pesky):
        if Card.PESKY_GHOST in row:
            giver = (ghost_from or {}).get(seat, 1 - seat if n == 2 else None)
            if giver is None:
                raise ValueError(f"seat {seat} holds the Pesky ghost: name its giver in ghost_from")
            if isinstance(giver, bool) or giver not in range(n) or giver == seat:
                raise ValueError(
                    f"ghost_from[{seat}] = {giver!r}: the giver must be another seat of the game"
                )
            givers[seat] = giver
    extra = set(ghost_from or {}) - {s for s in range(n) if Card.PESKY_GHOST in held_pesky[s]}
    if extra:
        raise ValueError(f"ghost_from names seats {sorted(extra)} holding no Pesky ghost card")
    discarded = [card(c) for c in discard]
    in_play = [c for rows in (ready, new, held_pesky) for row in rows for c in row] + discarded
    if draw_pile is not None:
        in_play += [card(c) for c in draw_pile]
    for kind in Card:
        count = sum(1 for c in in_play if c == kind)
        if count > game.deck_counts.get(kind, 0):
            raise ValueError(
                f"{count} {data.CARD_NAMES[kind]} cards given; the deck has "
                f"{game.deck_counts.get(kind, 0)}"
            )

    state.positions = figures
    state.helpful_ready = [[row.count(k) for k in data.HELPFUL] for row in ready]
    state.helpful_new = [[row.count(k) for k in data.HELPFUL] for row in new]
    state.pesky = [[k in row for k in data.PESKY] for row in held_pesky]
    state.ghost_giver = givers
    if draw_pile is not None:
        state.draw_pile = [int(card(c)) for c in reversed(draw_pile)]
    else:  # the cards nobody holds, shuffled again (then the discards leave the pile)
        held = [0] * len(Card)
        for row in (*ready, *new, *held_pesky):
            for c in row:
                held[c] += 1
        pile = [int(c) for c, m in game.deck_counts.items() for _ in range(max(0, m - held[c]))]
        state.rng.shuffle(pile)
        for c in discarded:
            pile.remove(int(c))
        state.draw_pile = pile
    state.discard = [sum(1 for c in discarded if c == kind) for kind in range(len(Card))]
    state.finished = []
    state.turn_count = 0
    state.phase = FLICK
    state.shots_left = state.move_points = state.blocked_band = 0
    state.pending_pesky = state.last_outcome = state.winner = -1
    state.truncated = False
    state._start_turn(turn)
    if state.phase == OVER:
        raise ValueError("the position is already over")
    state._mask = None
    return state


def setup(
    game: CastleFlutterstoneGame,
    positions: list[int],
    turn_player: int = 0,
    helpful: list[list[int]] | None = None,
    helpful_new: list[list[int]] | None = None,
    pesky: list[list[bool]] | None = None,
    ghost_giver: list[int] | None = None,
    draw_pile: list[int] | None = None,
    seed: int = 0,
) -> CastleFlutterstoneState:
    """Deprecated: :func:`build` (cards by name, the draw pile from the top down). The same
    position given as counts, the draw pile's card ids top last."""
    warnings.warn(
        "castle_flutterstone scenario.setup is deprecated: use scenario.build(game, "
        "positions=..., turn=..., cards=..., new_cards=..., pesky=..., ghost_from=..., "
        "draw_pile=...) with cards by name",
        DeprecationWarning,
        stacklevel=2,
    )

    def names(rows: list[list[int]] | None, kinds: Sequence[Card]) -> list[list[Card]]:
        return [
            [k for k, m in zip(kinds, row, strict=True) for _ in range(m)] for row in rows or []
        ]

    pesky_rows = [
        [k for k, held in zip(data.PESKY, row, strict=True) if held] for row in pesky or []
    ]
    givers = {seat: giver for seat, giver in enumerate(ghost_giver or []) if giver != -1}
    return build(
        game,
        seed=seed,
        positions=positions,
        turn=turn_player,
        cards=names(helpful, data.HELPFUL) or None,
        new_cards=names(helpful_new, data.HELPFUL) or None,
        pesky=pesky_rows or None,
        ghost_from=givers or None,
        draw_pile=None if draw_pile is None else [card(c) for c in reversed(draw_pile)],
    )


# ------------------------------------------------------------------------------------ invariants
def check_invariants(state: CastleFlutterstoneState, complete: bool = True) -> None:
    """Raise ``AssertionError`` if a ghost card is in two places or a rule of holding is broken.

    With ``complete`` every card of the deck must be somewhere (held, in the draw or discard
    pile, or waiting to be given); a hand-made ``draw_pile`` may leave cards out of the game.
    """
    s = state
    g = s.game
    n = g.num_players
    where = [0] * len(Card)
    for seat in range(n):
        for k, kind in enumerate(data.HELPFUL):
            where[kind] += s.helpful_ready[seat][k] + s.helpful_new[seat][k]
        assert sum(s.helpful_ready[seat]) + sum(s.helpful_new[seat]) <= data.MAX_HELPFUL_HELD + (
            s.phase == data.DISCARD and seat == s.turn_player
        ), f"seat {seat} holds more than {data.MAX_HELPFUL_HELD} helpful ghosts"
        for k, kind in enumerate(data.PESKY):
            where[kind] += bool(s.pesky[seat][k])
        holds_ghost = s.pesky[seat][Card.PESKY_GHOST - Card.EYES_CLOSED]
        giver = s.ghost_giver[seat]
        assert holds_ghost == (giver >= 0), f"seat {seat}: Pesky ghost card and giver disagree"
        assert giver != seat, f"seat {seat} gave itself the Pesky ghost"
        if seat in s.finished and s.positions[seat] >= g.goal:
            assert not any(s.helpful_ready[seat]) and not any(s.helpful_new[seat]), (
                f"finished seat {seat} still holds cards"
            )
    for card_id in s.draw_pile:
        where[card_id] += 1
    for card_id, count in enumerate(s.discard):
        where[card_id] += count
    if s.pending_pesky >= 0:
        where[s.pending_pesky] += 1
    for kind in Card:
        total = g.deck_counts.get(kind, 0)
        if complete:
            assert where[kind] == total, f"{data.CARD_NAMES[kind]}: {where[kind]} != {total}"
        else:
            assert where[kind] <= total, f"{data.CARD_NAMES[kind]}: {where[kind]} > {total}"
    on_path = [q for q in s.positions if 0 < q < g.goal]
    assert len(set(on_path)) == len(on_path), "two figures share a path field"
    assert not set(on_path) & set(g.bridges), "a figure stands on a rotten bridge"
