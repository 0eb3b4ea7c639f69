"""Hand-made Castle Flutterstone positions, for rule tests, examples and debugging.

:func:`build` makes the start of a turn from a readable description: where each figure stands,
the ghost cards lying in front of each player (by name), who gave a Pesky ghost, the draw pile
from the top down and the discards. :func:`play` then answers decisions by their action names
(``state.action_name(a)``), so a test reads like the rulebook::

    s = build(game, positions=[4, 0], cards={0: ["Ghost jump"]}, draw_pile=["Eyes closed"])
    play(s, "play Ghost jump", "start flicking")

Cards are named as in ``data.CARD_NAMES`` ("Second go", "Moving forward", "Ghost jump",
"Eyes closed", "Change hands", "Pesky ghost"; case-insensitive) or given as ``data.Card``.
A flick's landing is drawn from the landing model; tests that need a given landing replace
``state.sample_flick`` (see ``tests/castle_flutterstone/test_rules.py``).
:func:`check_invariants` checks that every ghost card is in exactly one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.seeding import make_rng
from boardgames_rl.games.castle_flutterstone import data
from boardgames_rl.games.castle_flutterstone.data import OVER, Card
from boardgames_rl.games.castle_flutterstone.state import FlutterstoneState

__all__ = ["build", "card", "check_invariants", "legal_names", "play", "setup"]

_BY_NAME = {name.lower(): kind for kind, name in data.CARD_NAMES.items()}


def card(name: str | int) -> Card:
    """The card kind named ``name`` (a ``CARD_NAMES`` entry, case-insensitive) or with that id."""
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < len(Card):
        return Card(name)
    if isinstance(name, str) and name.lower() in _BY_NAME:
        return _BY_NAME[name.lower()]
    raise ValueError(f"no ghost card {name!r}; choose from {', '.join(data.CARD_NAMES.values())}")


def _per_seat(
    value: Mapping[int, Iterable[str | int]] | Sequence[Iterable[str | int]] | None,
    n: int,
    what: str,
) -> list[list[Card]]:
    if value is None:
        return [[] for _ in range(n)]
    items = value.items() if isinstance(value, Mapping) else enumerate(value)
    out: list[list[Card]] = [[] for _ in range(n)]
    for seat, names in items:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"{what}: no seat {seat!r} in a {n}-player game")
        if isinstance(names, str | int):
            names = [names]
        out[seat] = [card(c) for c in names]
    return out


# ------------------------------------------------------------------------------------ building
def build(
    game,
    *,
    positions: Sequence[int] | None = None,
    turn: int = 0,
    cards: Mapping[int, Iterable[str | int]] | Sequence[Iterable[str | int]] | None = None,
    new_cards: Mapping[int, Iterable[str | int]] | Sequence[Iterable[str | int]] | None = None,
    pesky: Mapping[int, Iterable[str | int]] | Sequence[Iterable[str | int]] | None = None,
    ghost_from: Mapping[int, int] | None = None,
    draw_pile: Sequence[str | int] | None = None,
    discard: Sequence[str | int] = (),
    seed: int = 0,
) -> FlutterstoneState:
    """A position at the start of seat ``turn`` 's turn.

    Args:
        game: a ``CastleFlutterstone`` game.
        positions: the field of each figure (default: all on the start field 0).
        turn: the seat whose turn starts (its start-of-turn steps run: the Pesky ghost's giver
            is asked to place the ghost figure, or the cards may be played).
        cards: the helpful cards in front of each seat that are usable now (``{seat: names}``
            or one list per seat).
        new_cards: helpful cards each seat drew in its last turn (usable from its next turn on;
            for ``turn`` that is now).
        pesky: the pesky cards in front of each seat.
        ghost_from: ``{seat: giver}`` for each seat holding the Pesky ghost card (in a
            2-player game the other seat by default).
        draw_pile: the whole draw pile from the top down (default: the cards neither held nor
            discarded, shuffled by ``seed``).
        discard: the cards in the discard pile.
        seed: seed of the state's chance generator (and of the default pile order).

    Raises ``ValueError`` (or the engine's ``InvalidConfigError``) naming what is wrong.
    """
    n = game.num_players
    positions = [0] * n if positions is None else list(positions)
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

    def counts(rows: list[list[Card]], kinds: Sequence[Card]) -> list[list[int]]:
        return [[row.count(k) for k in kinds] for row in rows]

    s = setup(
        game,
        positions,
        turn_player=turn,
        helpful=counts(ready, data.HELPFUL),
        helpful_new=counts(new, data.HELPFUL),
        pesky=[[k in row for k in data.PESKY] for row in held_pesky],
        ghost_giver=givers,
        draw_pile=None if draw_pile is None else [int(card(c)) for c in reversed(draw_pile)],
        seed=seed,
    )
    if discarded:
        if draw_pile is None:
            for c in discarded:
                s.draw_pile.remove(int(c))
        s.discard = [sum(1 for c in discarded if c == kind) for kind in range(len(Card))]
        if s.phase == OVER:
            raise ValueError("the position is already over")
    s._mask = None
    check_invariants(s, complete=draw_pile is None)
    return s


def setup(
    game,
    positions: list[int],
    turn_player: int = 0,
    helpful: list[list[int]] | None = None,
    helpful_new: list[list[int]] | None = None,
    pesky: list[list[bool]] | None = None,
    ghost_giver: list[int] | None = None,
    draw_pile: list[int] | None = None,
    seed: int = 0,
) -> FlutterstoneState:
    """A position at the start of ``turn_player`` 's turn, given as counts (the engine's own
    layout; :func:`build` takes the same by card names). ``helpful[s]`` are seat ``s`` 's
    helpful cards by kind usable this turn, ``helpful_new[s]`` those drawn in its last turn,
    ``pesky[s]`` its pesky cards (3 bools), ``ghost_giver[s]`` who gave it the Pesky ghost (-1
    if none), ``draw_pile`` the card ids top last (default: the rest of the deck, shuffled by
    ``seed``). Also available as ``FlutterstoneState.setup``.
    """
    n = game.num_players
    pesky_rows = [list(map(bool, r)) for r in pesky] if pesky else [[False] * 3] * n
    givers = list(ghost_giver) if ghost_giver else [-1] * n
    if len(pesky_rows) != n or any(len(r) != 3 for r in pesky_rows) or len(givers) != n:
        raise InvalidConfigError(
            f"castle_flutterstone setup: pesky needs {n} rows of 3 bools and ghost_giver {n} seats"
        )
    for seat, (row, giver) in enumerate(zip(pesky_rows, givers, strict=True)):
        holds = row[Card.PESKY_GHOST - Card.EYES_CLOSED]
        if holds and (isinstance(giver, bool) or giver not in range(n) or giver == seat):
            raise InvalidConfigError(
                f"castle_flutterstone setup: seat {seat} holds a Pesky ghost card without a "
                f"giver; set ghost_giver[{seat}] to the other seat that gave it (got {giver!r})"
            )
        if not holds and giver != -1:
            raise InvalidConfigError(
                f"castle_flutterstone setup: ghost_giver[{seat}] = {giver!r} but seat {seat} "
                "holds no Pesky ghost card; use -1"
            )
    if len(positions) != n or any(not 0 <= q <= game.goal for q in positions):
        raise InvalidConfigError(f"positions must give {n} fields in [0, {game.goal}]")
    on_path = [q for q in positions if 0 < q < game.goal]
    if len(set(on_path)) != len(on_path) or any(q in game.bridges for q in on_path):
        raise InvalidConfigError("two figures share a path field, or a figure stands on a bridge")
    return FlutterstoneState.deal(
        game,
        make_rng(seed),
        turn_player,
        positions=positions,
        helpful=helpful,
        helpful_new=helpful_new,
        pesky=pesky_rows,
        ghost_giver=givers,
        draw_pile=draw_pile,
        pile_from_rest=draw_pile is None,
    )


# ------------------------------------------------------------------------------------ playing
def legal_names(state: FlutterstoneState) -> list[str]:
    """Names of the legal actions of the pending decision, in action-id order."""
    return [state.action_name(int(a)) for a in state.legal_actions()]


def play(state: FlutterstoneState, *names: str) -> FlutterstoneState:
    """Apply legal actions given by their names, in order; returns ``state``.

    Raises ``ValueError`` naming the decision and its legal actions when a name is not legal
    (flick names are listed only by count: there are hundreds).
    """
    for name in names:
        table = {state.action_name(int(a)): int(a) for a in state.legal_actions()}
        if name not in table:
            shown = [x for x in table if not x.startswith("flick ")]
            flicks = len(table) - len(shown)
            legal = "; ".join(shown + ([f"{flicks} flick actions"] if flicks else []))
            raise ValueError(
                f"{name!r} is not legal at decision {state.phase_name!r} of "
                f"{state._seat_name(state.current_player)}; legal: {legal or 'none'}"
            )
        state.apply(table[name])
    return state


# ------------------------------------------------------------------------------------ invariants
def check_invariants(state: FlutterstoneState, complete: bool = True) -> None:
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
