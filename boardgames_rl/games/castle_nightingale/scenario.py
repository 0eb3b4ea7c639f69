"""Hand-made Castle Nightingale positions, for rule tests, examples and debugging.

:func:`build` starts from ``game.new_state(seed)``, plays the two setup decisions, then rewrites the
state's plain fields into the position asked for (keeping every invariant: the 10 + 10 action
cards, the 7 + 7 equipment tokens, the 6 tiles, the 8 vase tokens with 6 relics, and so on) and
restarts the engine at the beginning of a turn's programming (decision ``"prog_s_card"``). It can
then play the programming for you (``samurai_card``, ``tiles``, ``ninja_card``).

:func:`play` answers decisions by their contextual names (``state.action_name(a)``), so a test
reads like the rulebook::

    s = build(game, samurai="E2", discs=["J5"], samurai_card="Forced March", tiles="red",
              ninja_card="Supply Cache")
    play(s, "ninja starts on J5", "disc -> K5", "disc -> K4")

Squares are global labels ("C4"), cards, tokens and colours are their names (case-insensitive) or
their ids; see ``data.py`` (``NINJA_CARDS`` ... ``COLOURS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from boardgames_rl.core.scenario import legal_names, play  # noqa: F401 (re-exported)
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import COLOURS
from boardgames_rl.games.castle_nightingale.state import (
    BANKED,
    FACE_UP,
    HAND,
    PROGRAMMED,
    STOLEN,
    NightingaleState,
    _fresh_flags,
)

__all__ = ["build", "play", "legal_names", "check_invariants", "square", "zone"]


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


def _as_list(value: str | int | Iterable | None) -> list:
    if value is None:
        return []
    if isinstance(value, str | int):
        return [value]
    return list(value)


def square(state: NightingaleState, label: str) -> int:
    """Square index of a label such as ``"C4"`` on this state's board."""
    return state.board.square(label)


def zone(state: NightingaleState, label: str) -> str:
    """Name of the colour zone (or passage zone) holding square ``label``."""
    b = state.board
    return b.zone_names[b.zone_of[b.square(label)]]


# ------------------------------------------------------------------------------------ playing
def check_invariants(state: NightingaleState) -> None:
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
    game,
    *,
    samurai: str = "E2",
    ninja: str | None = None,
    discs: Sequence[str] = (),
    closed: Sequence[str] = ("B3", "H3"),
    vases: Mapping[str, bool] | None = None,
    banked: Sequence[bool] = (),
    ninja_knows: Sequence[str] = (),
    samurai_knows: Sequence[str] = (),
    ninja_hand: Sequence[str | int] | None = None,
    samurai_hand: Sequence[str | int] | None = None,
    ninja_deck: Sequence[str | int] = (),
    samurai_deck: Sequence[str | int] = (),
    ninja_discard: Sequence[str | int] | None = None,
    samurai_discard: Sequence[str | int] | None = None,
    ninja_tokens: Sequence[str | int] | None = None,
    samurai_tokens: Sequence[str | int] | None = None,
    ninja_stack: Sequence[str | int] | None = None,
    samurai_stack: Sequence[str | int] | None = None,
    face_up: str | Sequence[str] | None = None,
    twin: bool = False,
    watch_fire: str | None = None,
    known_ninja_hand: Sequence[str | int] = (),
    captured: int = 0,
    turn: int = 1,
    samurai_card: str | None = None,
    tiles: str | Sequence[str] | None = None,
    ninja_card: str | None = None,
    seed: int = 0,
) -> NightingaleState:
    """A state at the start of a turn's programming (or later, see the last three arguments).

    Args:
        game: a ``CastleNightingale`` game (its layout is used: side A defaults to the
            first-game diagram, whose labels the defaults here refer to).
        samurai: the samurai figurine's square (never an open passage).
        ninja: a spotted ninja figurine's square (case 3 of Phase 1), or ``None``.
        discs: footprint discs left from last turn (case 2 of Phase 1); exclusive with ``ninja``.
        closed: the passage squares holding a closed trap door (exactly these; the default is the
            two setup trap doors on board I).
        vases: vase tokens on the board, ``{square: holds a relic}``; ``None`` keeps the setup
            deal (one face-down token on each vase icon). Tokens not listed here nor in
            ``banked`` go, in order, onto the free vase icons, then onto other free floor squares,
            holding whatever keeps 6 relics and 2 empties in all.
        banked: contents of the vases the ninja banked in earlier turns.
        ninja_knows / samurai_knows: squares of board vases whose contents that player has seen
            (the ninja always knows its banked vases).
        ninja_hand / samurai_hand: the action cards in hand (``None`` keeps the seed's deal).
        ninja_deck / samurai_deck: the top of the draw pile, in order; the other cards follow
            in id order.
        ninja_discard / samurai_discard: the discard piles (default empty when a hand is given).
        ninja_tokens / samurai_tokens: equipment held (``None`` keeps the seed's deal).
        ninja_stack / samurai_stack: the equipment stack, top first; the tokens neither held
            nor stacked count as used earlier (out of the game, public). Default: every token
            not held, in id order.
        face_up: last turn's tile(s), unavailable this turn.
        twin: this turn is a Twin Nightingales turn (2 tiles to programme).
        watch_fire: a square of the zone holding a Watch Fire marker laid last turn.
        known_ninja_hand: ninja cards the samurai saw with his Watchtower.
        captured: ninjas already captured; turn: the turn number starting now.
        samurai_card / tiles / ninja_card: if given, the programming is played with them (the
            cards must be in the hands), and the state stops at the next decision.
        seed: the seed of ``game.new_state``; it also drives later chance (reshuffles).
    """
    s = game.new_state(seed)
    b = s.board
    # --- setup decisions, then overwrite them
    while s.decision_kind in ("setup_close", "setup_start"):
        s.apply(int(s.legal_actions()[0]))
    assert s.decision_kind == "prog_s_card"

    def sq(label: str) -> int:
        return b.square(label)

    s.closed = [False] * len(b.passages)
    for label in closed:
        if not b.passage[sq(label)]:
            raise ValueError(f"{label} is not a passage square")
        s.closed[b.passages.index(sq(label))] = True
    s._place_samurai(sq(samurai))
    if s.is_open_passage(s.samurai_sq):
        raise ValueError(f"the samurai cannot stand on the open passage {samurai}")
    if ninja is not None and discs:
        raise ValueError("give either a ninja figurine or footprint discs, not both")
    s.ninja_sq = sq(ninja) if ninja is not None else -1
    s.discs = [sq(label) for label in discs]
    s.turn_discs = []
    s.start_sq = -1

    # --- vases
    if vases is not None or banked:
        _set_vases(s, vases, banked)
    for t, w in enumerate(s.vase_where):
        s.ninja_knows[t] = w == BANKED or (w >= 0 and b.labels[w] in ninja_knows)
        s.samurai_knows[t] = w >= 0 and b.labels[w] in samurai_knows
    for label in (*ninja_knows, *samurai_knows):
        if s.vase_at(sq(label)) < 0:
            raise ValueError(f"no vase on {label}")
    for label in (samurai, *([ninja] if ninja else []), *discs):
        if s.vase_at(sq(label)) >= 0:
            raise ValueError(f"{label} holds a vase: move it with `vases=`")

    # --- cards
    for who, hand, deck, discard, lookup in (
        ("n", ninja_hand, ninja_deck, ninja_discard, _ninja_card),
        ("s", samurai_hand, samurai_deck, samurai_discard, _samurai_card),
    ):
        if hand is None and not deck and discard is None:
            continue
        cur_hand = [lookup(c) for c in hand] if hand is not None else getattr(s, f"{who}_hand")
        cur_discard = [lookup(c) for c in (discard or ())]
        top = [lookup(c) for c in deck]
        rest = [c for c in range(10) if c not in cur_hand + cur_discard + top]
        cards = cur_hand + cur_discard + top + rest
        if sorted(cards) != list(range(10)):
            raise ValueError(f"{who}: a card is given twice: {cards}")
        setattr(s, f"{who}_hand", list(cur_hand))
        setattr(s, f"{who}_discard", cur_discard)
        setattr(s, f"{who}_deck", top + rest)
    s.known_n_hand = sorted(_ninja_card(c) for c in known_ninja_hand)

    # --- equipment
    for who, held, stack, names in (
        ("n", ninja_tokens, ninja_stack, C.NINJA_TOKENS),
        ("s", samurai_tokens, samurai_stack, C.SAMURAI_TOKENS),
    ):
        if held is None and stack is None:
            continue
        cur = (
            [_index(t, names, "token") for t in held]
            if held is not None
            else getattr(s, f"{who}_equip")
        )
        top = [_index(t, names, "token") for t in (stack or ())]
        rest = [t for t in range(7) if t not in cur + top]
        if sorted(cur + top + rest) != list(range(7)):
            raise ValueError(f"{who}: a token is given twice")
        setattr(s, f"{who}_equip", list(cur))
        setattr(s, f"{who}_stack", top if stack is not None else rest)
        setattr(s, f"{who}_used", rest if stack is not None else [])
        setattr(s, f"{who}_spent", [])
        setattr(s, f"{who}_bottom", [])

    # --- tiles, flags, counters
    ups = [_colour(c) for c in _as_list(face_up)]
    s.tile_loc = [FACE_UP if c in ups else HAND for c in range(6)]
    s.tile_revealed = [False] * 6
    s.tile_in = [False] * 6
    s.tile_out = [False] * 6
    flags = _fresh_flags()
    flags.update(twin=twin, twin_next=False, silent_night=False, watch_fire_next=-1)
    flags["watch_fire_zone"] = b.zone_of[sq(watch_fire)] if watch_fire else -1
    s.flags = flags
    if not 0 <= captured < C.NINJAS:
        raise ValueError("captured must be 0, 1 or 2")
    s.captured = captured
    s.turn = turn
    s.winner = -1
    s.draw = False
    s.truncated_flag = False

    # --- restart the engine at the programming
    s.tasks = []
    s.decision = None
    s.stage = "prog_s_card"
    s._mask = None
    s._run()
    check_invariants(s)

    if samurai_card is not None:
        play(s, f"programme card {C.SAMURAI_CARDS[_samurai_card(samurai_card)].name}")
    for colour in _as_list(tiles):
        play(s, f"programme nightingale tile {COLOURS[_colour(colour)]}")
    if ninja_card is not None:
        play(s, f"play card {C.NINJA_CARDS[_ninja_card(ninja_card)].name}")
    return s


def _set_vases(s: NightingaleState, vases: Mapping[str, bool] | None, banked: Sequence[bool]):
    """Place the 8 tokens: the listed ones, the banked ones, then the rest (see ``build``)."""
    b = s.board
    placed = {b.square(label): bool(relic) for label, relic in (vases or {}).items()}
    for w in placed:
        if b.passage[w] or w in s.discs or w in (s.samurai_sq, s.ninja_sq):
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
            and w not in s.discs
            and w
            not in (
                s.samurai_sq,
                s.ninja_sq,
            )
        )

    spare = [w for w in b.vase_squares if free(w)]
    spare += [w for w in range(NUM_SQUARES) if free(w) and w not in spare]
    for i in range(left):
        where.append(spare[i])
        content.append(i < relics_left)
    s.vase_where = [int(w) for w in where]
    s.vase_content = content
