"""Hand-made Castle Nightingale positions, for rule tests, examples and debugging.

:func:`build` starts from ``game.new_state(seed)`` (a legal state; its two setup decisions are
played), overwrites the named fields of ``FIELDS`` (an unknown one is refused in one line listing
them), restarts the engine at the beginning of a turn's programming (decision ``"prog_s_card"``)
and runs the game's state checks (``state_checks.problems``, :func:`check_invariants`: the 10 + 10
action cards, the 7 + 7 equipment tokens, the 6 tiles, the 8 vase tokens with 6 relics, and so
on). Each player's side of the position is one record, :class:`Ninja` or :class:`Samurai` (its
figurine, cards, tokens, the vases it has seen, and the card, and tiles, it programmes: given
those, the programming is played and the state stops at the next decision).

:func:`play` (from :mod:`boardgames_rl.testing.scenario`) answers decisions by their contextual
names (``state.action_name(a)``), so a test reads like the rulebook::

    from boardgames_rl import make_game
    from boardgames_rl.games.castle_nightingale.scenario import Ninja, Samurai, build
    from boardgames_rl.testing.scenario import legal_names, play

    samurai = Samurai(square="E2", hand=["Forced March", "Patrol", "Twin Nightingales"],
                      card="Forced March", tiles="red", tokens=[], stack=[])
    ninja = Ninja(hand=["False Trail", "Supply Cache", "Scout"], card="Supply Cache",
                  tokens=[], stack=[])
    s = build(make_game("castle_nightingale"), samurai=samurai, ninja=ninja)
    play(s, "ninja starts on J7", "disc -> J6", "disc -> J5")
    print(legal_names(s))  # the samurai's zone entries: 'samurai enters zone I-A white', ...

Squares are global labels ("C4"), cards, tokens and colours are their names (case-insensitive) or
their ids; see ``data.py`` (``NINJA_CARDS`` ... ``COLOURS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale import state_checks
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import (
    BANKED,
    COLOURS,
    FACE_UP,
    HAND,
    PROGRAMMED,
    STOLEN,
)
from boardgames_rl.games.castle_nightingale.game import CastleNightingale
from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState, _fresh_flags
from boardgames_rl.testing.scenario import legal_names, play

__all__ = [
    "FIELDS",
    "Ninja",
    "Samurai",
    "build",
    "check_invariants",
    "legal_names",
    "play",
    "square",
    "zone",
]

Cards = Sequence[str | int]
"""Action cards or equipment tokens, by name (case-insensitive) or id."""


@dataclass(frozen=True)
class Ninja:
    """The ninja player's side of a position; ``None`` keeps what ``game.new_state(seed)`` dealt.

    Attributes:
        square: a spotted ninja figurine's square (case 3 of Phase 1), or ``None`` (hidden or
            not in the castle); exclusive with footprint ``discs``.
        hand: the action cards in hand.
        deck: the top of the draw pile, in order; the other cards follow in id order.
        discard: the discard pile (default empty when a hand or deck is given).
        tokens: the equipment tokens held.
        stack: the equipment stack, top first; the tokens neither held nor stacked count as used
            earlier (out of the game, public). Default: every token not held, in id order.
        knows: squares of board vases whose contents the ninja has seen (it always knows the
            vases it banked).
        card: the card the ninja programmes (after the samurai's programming), from its hand.
    """

    square: str | None = None
    hand: Cards | None = None
    deck: Cards = ()
    discard: Cards | None = None
    tokens: Cards | None = None
    stack: Cards | None = None
    knows: Sequence[str] = ()
    card: str | int | None = None


@dataclass(frozen=True)
class Samurai:
    """The samurai player's side of a position; ``None`` keeps what ``game.new_state(seed)``
    dealt.

    Attributes:
        square: the samurai figurine's square (never an open passage; default ``"E2"`` of the
            side A first-game layout).
        hand, deck, discard, tokens, stack, knows: as for :class:`Ninja`.
        ninja_hand_seen: ninja cards the samurai saw with his Watchtower.
        card: the card the samurai programmes, from his hand.
        tiles: the nightingale tile(s) he programmes (after ``card``).
    """

    square: str = "E2"
    hand: Cards | None = None
    deck: Cards = ()
    discard: Cards | None = None
    tokens: Cards | None = None
    stack: Cards | None = None
    knows: Sequence[str] = ()
    ninja_hand_seen: Cards = ()
    card: str | int | None = None
    tiles: str | Sequence[str] | None = None


FIELDS: dict[str, str] = {
    "ninja": "the ninja's side, a Ninja record (default Ninja(): the seed's deal, no figurine)",
    "samurai": "the samurai's side, a Samurai record (default Samurai(): on E2, the seed's deal)",
    "discs": "footprint discs left from last turn (case 2 of Phase 1), square labels",
    "closed": "the passage squares holding a closed trap door, exactly these (default B3 and "
    "H3, the two setup trap doors on board I of side A)",
    "vases": "vase tokens on the board, {square: holds a relic} (default the setup deal: one "
    "face-down token on each vase icon); tokens neither listed nor banked go, in order, onto "
    "the free vase icons, then other free floor squares, keeping 6 relics and 2 empties in all",
    "banked": "the contents of the vases the ninja banked in earlier turns (default none)",
    "face_up": "last turn's tile(s), unavailable this turn (default none)",
    "twin": "this turn is a Twin Nightingales turn: 2 tiles to programme (default False)",
    "watch_fire": "a square of the zone holding a Watch Fire marker laid last turn",
    "captured": "ninjas already captured, 0..2 (default 0)",
    "turn": "the turn number starting now (default 1)",
}
"""The fields :func:`build` overwrites, with what each one sets."""


# ------------------------------------------------------------------------------------ lookups
def _index(value: str | int, names: Sequence[str], what: str) -> int:
    if isinstance(value, int):
        if not 0 <= value < len(names):
            raise ValueError(f"no {what} #{value}")
        return value
    lowered = [n.lower() for n in names]
    if value.lower() not in lowered:
        raise ValueError(f"no {what} named {value!r}; choose from {', '.join(names)}")
    return lowered.index(value.lower())


def _ninja_card(v: str | int) -> int:
    return _index(v, [c.name for c in C.NINJA_CARDS], "ninja card")


def _samurai_card(v: str | int) -> int:
    return _index(v, [c.name for c in C.SAMURAI_CARDS], "samurai card")


def _colour(v: str | int) -> int:
    return _index(v, COLOURS, "colour")


def _as_list(value: str | int | Iterable[Any] | None) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, str | int):
        return [value]
    return list(value)


def square(state: CastleNightingaleState, label: str) -> int:
    """Square index of a label such as ``"C4"`` on this state's board."""
    return state.board.square(label)


def zone(state: CastleNightingaleState, label: str) -> str:
    """Name of the colour zone (or passage zone) holding square ``label``."""
    b = state.board
    return b.zone_names[b.zone_of[b.square(label)]]


# ------------------------------------------------------------------------------------ checking
def check_invariants(state: CastleNightingaleState) -> None:
    """Raise ``AssertionError`` if the state breaks a conservation rule or a placement rule."""
    b = state.board
    for who, hand, deck, discard, card in (
        ("ninja", state.n_hand, state.n_deck, state.n_discard, state.n_card),
        ("samurai", state.s_hand, state.s_deck, state.s_discard, state.s_card),
    ):
        cards = [*hand, *deck, *discard, *([card] if card >= 0 else [])]
        assert sorted(cards) == list(range(10)), f"{who} cards not conserved: {cards}"
    for who, equip, stack, used, spent in (
        ("ninja", state.n_equip, state.n_stack, state.n_used, state.n_spent),
        ("samurai", state.s_equip, state.s_stack, state.s_used, state.s_spent),
    ):
        tokens = [*equip, *stack, *used, *spent]
        assert sorted(tokens) == list(range(7)), f"{who} tokens not conserved: {tokens}"
    assert len(state.tile_loc) == 6 and set(state.tile_loc) <= {HAND, PROGRAMMED, FACE_UP}
    assert state.tile_loc.count(PROGRAMMED) <= 2 and state.tile_loc.count(FACE_UP) <= 2
    assert len(state.vase_where) == C.NUM_VASES and sum(state.vase_content) == C.NUM_RELICS
    on_board = [w for w in state.vase_where if w >= 0]
    assert len(set(on_board)) == len(on_board), "two vases on one square"
    assert all(w in (STOLEN, BANKED) or 0 <= w < NUM_SQUARES for w in state.vase_where)
    for w in on_board:
        assert not b.passage[w], f"vase on passage {b.labels[w]}"
        assert w not in state.discs, f"vase under a disc on {b.labels[w]}"
        assert w != state.ninja_sq, f"vase under the ninja figurine on {b.labels[w]}"
    assert len(set(state.discs)) == len(state.discs) <= C.NUM_DISCS, f"discs {state.discs}"
    assert len(state.closed) == 8
    if state.samurai_sq >= 0 and not state.tasks:  # (a pending closing may follow a capture)
        assert not state.is_open_passage(state.samurai_sq), "samurai on an open passage"
    assert 0 <= state.captured <= C.NINJAS


# ------------------------------------------------------------------------------------ building
def build(
    game: CastleNightingale | None = None, *, seed: int = 0, **fields: Any
) -> CastleNightingaleState:
    """The position ``fields`` describe (names and meanings in ``FIELDS``) at the start of a
    turn's programming, made from ``game.new_state(seed)`` (``game`` defaults to
    ``CastleNightingale()``, side A's first-game layout, whose labels the defaults refer to) and
    checked by the game's state checks; with the records' ``card`` / ``tiles`` the programming
    is played and the state stops at the next decision. ``seed`` also drives later chance
    (reshuffles).

    Raises ``ValueError`` in one line naming what is wrong (an unknown field is refused with the
    list of the known ones).
    """
    unknown = sorted(set(fields) - FIELDS.keys())
    if unknown:
        raise ValueError(
            f"castle_nightingale scenario: no field {', '.join(unknown)}; "
            f"the fields are {', '.join(FIELDS)}"
        )
    ninja = fields.get("ninja", Ninja())
    samurai = fields.get("samurai", Samurai())
    if not isinstance(ninja, Ninja) or not isinstance(samurai, Samurai):
        raise ValueError(
            "castle_nightingale scenario: give ninja=Ninja(...) and samurai=Samurai(...) "
            "(records of scenario), not " + repr((type(ninja).__name__, type(samurai).__name__))
        )
    game = CastleNightingale() if game is None else game
    state = game.new_state(seed)
    # --- setup decisions, then overwrite them
    while state.decision_kind in ("setup_close", "setup_start"):
        state.apply(int(state.legal_actions()[0]))
    b = state.board

    def sq(label: str) -> int:
        return b.square(label)

    discs: Sequence[str] = fields.get("discs", ())
    state.closed = [False] * len(b.passages)
    for label in fields.get("closed", ("B3", "H3")):
        if not b.passage[sq(label)]:
            raise ValueError(f"{label} is not a passage square")
        state.closed[b.passages.index(sq(label))] = True
    state._place_samurai(sq(samurai.square))
    if state.is_open_passage(state.samurai_sq):
        raise ValueError(f"the samurai cannot stand on the open passage {samurai.square}")
    if ninja.square is not None and discs:
        raise ValueError("give either a ninja figurine or footprint discs, not both")
    state.ninja_sq = sq(ninja.square) if ninja.square is not None else -1
    state.discs = [sq(label) for label in discs]
    state.turn_discs = []
    state.start_sq = -1

    # --- vases
    vases, banked = fields.get("vases"), fields.get("banked", ())
    if vases is not None or banked:
        _set_vases(state, vases, banked)
    for t, w in enumerate(state.vase_where):
        state.ninja_knows[t] = w == BANKED or (w >= 0 and b.labels[w] in ninja.knows)
        state.samurai_knows[t] = w >= 0 and b.labels[w] in samurai.knows
    for label in (*ninja.knows, *samurai.knows):
        if state.vase_at(sq(label)) < 0:
            raise ValueError(f"no vase on {label}")
    for label in (samurai.square, *([ninja.square] if ninja.square else []), *discs):
        if state.vase_at(sq(label)) >= 0:
            raise ValueError(f"{label} holds a vase: move it with `vases=`")

    # --- cards and equipment
    _set_cards(state, "n", ninja, _ninja_card)
    _set_cards(state, "s", samurai, _samurai_card)
    state.known_n_hand = sorted(_ninja_card(c) for c in samurai.ninja_hand_seen)
    _set_tokens(state, "n", ninja, C.NINJA_TOKENS)
    _set_tokens(state, "s", samurai, C.SAMURAI_TOKENS)

    # --- tiles, flags, counters
    ups = [_colour(c) for c in _as_list(fields.get("face_up"))]
    state.tile_loc = [FACE_UP if c in ups else HAND for c in range(6)]
    state.tile_revealed = [False] * 6
    state.tile_in = [False] * 6
    state.tile_out = [False] * 6
    flags = _fresh_flags()
    flags.update(twin=bool(fields.get("twin", False)), twin_next=False, silent_night=False)
    flags["watch_fire_next"] = -1
    watch_fire = fields.get("watch_fire")
    flags["watch_fire_zone"] = b.zone_of[sq(watch_fire)] if watch_fire else -1
    state.flags = flags
    captured = fields.get("captured", 0)
    if not 0 <= captured < C.NINJAS:
        raise ValueError("captured must be 0, 1 or 2")
    state.captured = captured
    state.turn = fields.get("turn", 1)
    state.winner = -1
    state.draw = False
    state.truncated_flag = False

    # --- restart the engine at the programming, then check the state
    state.tasks = []
    state.decision = None
    state.stage = "prog_s_card"
    state._mask = None
    state._run()
    problem = state_checks.problems(game, state.to_dict()["state"])
    if problem:
        raise ValueError(f"castle_nightingale scenario: {problem}")
    check_invariants(state)

    if samurai.card is not None:
        play(state, f"programme card {C.SAMURAI_CARDS[_samurai_card(samurai.card)].name}")
    for colour in _as_list(samurai.tiles):
        play(state, f"programme nightingale tile {COLOURS[_colour(colour)]}")
    if ninja.card is not None:
        play(state, f"play card {C.NINJA_CARDS[_ninja_card(ninja.card)].name}")
    return state


def _set_cards(state: CastleNightingaleState, who: str, side: Ninja | Samurai, lookup: Any) -> None:
    """One side's hand, discard pile and deck (``who``: ``"n"`` or ``"s"``), if any is given."""
    if side.hand is None and not side.deck and side.discard is None:
        return
    hand = (
        [lookup(c) for c in side.hand] if side.hand is not None else getattr(state, f"{who}_hand")
    )
    discard = [lookup(c) for c in (side.discard or ())]
    top = [lookup(c) for c in side.deck]
    rest = [c for c in range(10) if c not in hand + discard + top]
    cards = hand + discard + top + rest
    if sorted(cards) != list(range(10)):
        raise ValueError(f"{who}: a card is given twice: {cards}")
    setattr(state, f"{who}_hand", list(hand))
    setattr(state, f"{who}_discard", discard)
    setattr(state, f"{who}_deck", top + rest)


def _set_tokens(
    state: CastleNightingaleState, who: str, side: Ninja | Samurai, names: Sequence[str]
) -> None:
    """One side's equipment held and stacked (the rest used earlier), if either is given."""
    if side.tokens is None and side.stack is None:
        return
    held = (
        [_index(t, names, "token") for t in side.tokens]
        if side.tokens is not None
        else getattr(state, f"{who}_equip")
    )
    top = [_index(t, names, "token") for t in (side.stack or ())]
    rest = [t for t in range(7) if t not in held + top]
    if sorted(held + top + rest) != list(range(7)):
        raise ValueError(f"{who}: a token is given twice")
    setattr(state, f"{who}_equip", list(held))
    setattr(state, f"{who}_stack", top if side.stack is not None else rest)
    setattr(state, f"{who}_used", rest if side.stack is not None else [])
    setattr(state, f"{who}_spent", [])
    setattr(state, f"{who}_bottom", [])


def _set_vases(
    state: CastleNightingaleState, vases: Mapping[str, bool] | None, banked: Sequence[bool]
) -> None:
    """Place the 8 tokens: the listed ones, the banked ones, then the rest (``FIELDS["vases"]``)."""
    b = state.board
    placed = {b.square(label): bool(relic) for label, relic in (vases or {}).items()}
    for w in placed:
        if b.passage[w] or w in state.discs or w in (state.samurai_sq, state.ninja_sq):
            raise ValueError(f"a vase cannot stand on {b.labels[w]} (passage or occupied)")
    where = [*placed, *([BANKED] * len(banked))]
    content = [*placed.values(), *(bool(v) for v in banked)]
    left = C.NUM_VASES - len(where)
    relics_left = C.NUM_RELICS - sum(content)
    if left < 0 or not 0 <= relics_left <= left:
        raise ValueError("at most 8 vases, 6 relics and 2 empties in all")

    def free(w: int) -> bool:
        return (
            not b.passage[w]
            and w not in where
            and w not in state.discs
            and w not in (state.samurai_sq, state.ninja_sq)
        )

    spare = [w for w in b.vase_squares if free(w)]
    spare += [w for w in range(NUM_SQUARES) if free(w) and w not in spare]
    for i in range(left):
        where.append(spare[i])
        content.append(i < relics_left)
    state.vase_where = [int(w) for w in where]
    state.vase_content = content
