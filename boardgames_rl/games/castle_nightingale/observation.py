"""Castle Nightingale observations: each player's information state as one flat vector.

Built only from public facts and the observer's own knowledge (data sheet section 8): the board,
trap doors, vase positions, discs, figurines, face-up and revealed tiles, discard piles, revealed
cards, token counts and publicly used tokens; plus, for the observer only, its hand, programmed
card, tokens (and the ones it spent face down or knows at the bottom of its stack), the vase
contents it has seen, and what it has learned (the samurai: the ninja's hand seen from the
Watchtower; the ninja: which colours it knows to be programmed or safe this turn).

The encoder runs on every environment step, so it is written for speed: each board gets a cached
template (one byte per entry) with its fixed square features (colours, passages, vase icons) and
the flat indices of its zones' squares; each observer's base (the template plus the entries that
rarely change: trap doors, vase tokens, tokens held, spent, at the bottom and used) is kept on the
state while its inputs are equal by value (:func:`_base`); the other 0/1 entries and the whole
numbers are set in a copy of the base's bytes, converted to ``float32`` once, and the turn fraction
is written last. ``make_spec`` is the definition of the layout; the original, field-by-field
encoder is kept in ``tests/castle_nightingale/test_observation_speed.py`` as the reference the
fast one must match (``test_speed_observation_base.py`` checks it along live games and edits).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.actions import MAX_ZONES
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES, Board
from boardgames_rl.games.castle_nightingale.data import (
    BANKED,
    FACE_UP,
    HAND,
    NINJA,
    PROGRAMMED,
    SAMURAI,
    STOLEN,
)

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState


# fmt: off
SQUARE_FEATURES: Final = (
    "red", "blue", "green", "yellow", "purple", "white", "passage", "trap door closed",
    "vase icon", "vase token", "vase known relic", "vase known empty", "vase seen by ninja",
    "vase seen by samurai", "disc", "disc placed this turn", "ninja figurine", "samurai figurine",
    "start square this turn", "Watch Fire zone (active)", "Watch Fire zone (next turn)",
    "samurai's zone", "decision zone",
)
FLAG_NAMES: Final = (
    "twin", "twin_next", "free_jump", "jump_used", "shuko", "vanish", "decoys", "discs_left",
    "revealed", "target", "entries", "adjust_used", "silent_night", "watchtower", "bell_used",
    "hound_left", "looks_left",
)
# fmt: on


def make_spec() -> ObservationSpec:
    from boardgames_rl.games.castle_nightingale.state import DECISIONS

    # fmt: off
    return ObservationSpec(
        [
            Field("squares", (NUM_SQUARES, len(SQUARE_FEATURES)), high=1,
                  description="per square: " + ", ".join(SQUARE_FEATURES)),
            Field("role", (2,), description="you are the ninja / the samurai"),
            Field("decision", (len(DECISIONS),), description="kind of the pending decision"),
            Field("decider", (2,), description="ninja / samurai decides"),
            Field("tile_face_up", (6,), description="last turn's tile(s), safe now"),
            Field("tile_programmed", (6,), description="tiles you know to be programmed"),
            Field("tile_not_programmed", (6,), description="tiles you know are not programmed"),
            Field("tile_revealed", (6,), description="programmed tiles turned face up"),
            Field("listen", (6, 2), description="Listen at the Floor answers: no / yes"),
            Field("own_hand", (10,), description="your action cards"),
            Field("own_card", (10,), description="the card you programmed"),
            Field("ninja_card", (10,), description="the ninja's card once revealed"),
            Field("samurai_card", (10,), description="the samurai's card once revealed"),
            Field("ninja_discard", (10,), description="the ninja's discard pile"),
            Field("samurai_discard", (10,), description="the samurai's discard pile"),
            Field("known_opponent_hand", (10,),
                  description="opponent cards you have seen (Watchtower)"),
            Field("deck_sizes", (2,), high=10, description="cards left: ninja, samurai decks"),
            Field("own_tokens", (7,), description="your equipment tokens"),
            Field("own_spent", (7,), description="your tokens discarded face down"),
            Field("own_bottom", (7,), description="your tokens you know lie under your stack"),
            Field("peek", (7,), description="the two tokens you are looking at"),
            Field("ninja_used", (7,), description="ninja tokens used for their effect"),
            Field("samurai_used", (7,), description="samurai tokens used for their effect"),
            Field("tokens_held", (2,), high=7, description="equipment tokens held: ninja, samurai"),
            Field("stacks", (2,), high=7, description="equipment stack sizes: ninja, samurai"),
            Field("vases", (7,), high=8, description=(
                "stolen this turn, banked, on the board, relics known stolen this turn, relics "
                "known banked, captured ninjas, decision vase known relic")),
            Field("flags", (len(FLAG_NAMES),), high=10, description=", ".join(FLAG_NAMES)),
            Field("turn", (1,), description="turn / turn limit"),
        ]
    )
    # fmt: on


# ---------------------------------------------------------------- fast encoder
_NF: Final = len(SQUARE_FEATURES)
_COL: Final = {name: i for i, name in enumerate(SQUARE_FEATURES)}
_CLOSED: Final = _COL["trap door closed"]
_VASE: Final = _COL["vase token"]
_KNOWN_RELIC: Final = _COL["vase known relic"]
_KNOWN_EMPTY: Final = _COL["vase known empty"]
_SEEN_N: Final = _COL["vase seen by ninja"]
_SEEN_S: Final = _COL["vase seen by samurai"]
_DISC: Final = _COL["disc"]
_TURN_DISC: Final = _COL["disc placed this turn"]
_NINJA_FIG: Final = _COL["ninja figurine"]
_SAMURAI_FIG: Final = _COL["samurai figurine"]
_START: Final = _COL["start square this turn"]
_ZONE_COLUMNS: Final = {
    "watch_fire_zone": _COL["Watch Fire zone (active)"],
    "watch_fire_next": _COL["Watch Fire zone (next turn)"],
    "samurai": _COL["samurai's zone"],
    "decision": _COL["decision zone"],
}
# numbers written in every observation, in the order encode lists them: (field, entries)
_NUMBERS: Final[tuple[tuple[str, int], ...]] = (
    ("deck_sizes", 2),
    ("tokens_held", 2),
    ("stacks", 2),
    ("vases", 7),
    ("flags", 17),
    ("turn", 1),
)
# the flags in FLAG_NAMES order, by their key in ``state.flags`` ("bell_used" is a state field and
# "looks_left" the sum of two keys: both written over their placeholder by ``_numbers``)
_FLAG_KEYS: Final = tuple(
    {"bell_used": "-", "looks_left": "-"}.get(name, name) for name in FLAG_NAMES
)
_BELL: Final = FLAG_NAMES.index("bell_used")
_FLAGS_AT: Final = sum(count for name, count in _NUMBERS[: [n for n, _ in _NUMBERS].index("flags")])
"""Where the flags begin in the list of numbers (after the deck sizes ... the vases)."""
_U8: Final = np.dtype(np.uint8)
_F32: Final = np.dtype(np.float32)
_LOOKS: Final = FLAG_NAMES.index("looks_left")


class _Layout:
    """Flat offsets of the observation fields (``start[name]``), the flat indices of the
    numbers every observation writes (``numbers``, in :data:`_NUMBERS` order)."""

    def __init__(self) -> None:
        from boardgames_rl.games.castle_nightingale.state import DECISION_INDEX

        spec = make_spec()
        self.spec = spec
        self.decision_index = DECISION_INDEX
        self.start = {f.name: spec.slices[f.name].start for f in spec.fields}
        for name, count in _NUMBERS:
            if spec[name].size != count:
                raise AssertionError(f"observation field {name!r}: {spec[name].size} entries")
        if spec["squares"].shape[1] != _NF or spec["listen"].shape[1] != 2:
            raise AssertionError("observation fields 'squares'/'listen' changed shape")
        self.numbers = np.array(
            [self.start[name] + i for name, count in _NUMBERS for i in range(count)],
            dtype=np.intp,
        )
        # where the encoder writes them: the deck sizes, then the rest up to the turn at the end
        at = self.numbers.tolist()
        self.deck_at, self.rest_at, self.turn_at = at[0], at[2], at[-1]
        if at[:2] != [at[0], at[0] + 1] or at[2:] != list(range(at[2], at[-1] + 1)):
            raise AssertionError("observation numbers: deck sizes, then the rest, contiguous")
        # the start of every field the encoder writes, as a typed attribute (read in a few
        # nanoseconds by the compiled build, where a lookup in ``start`` hashes a string)
        st = self.start
        self.squares: int = st["squares"]
        self.role: int = st["role"]
        self.decision: int = st["decision"]
        self.decider: int = st["decider"]
        self.tile_face_up: int = st["tile_face_up"]
        self.tile_programmed: int = st["tile_programmed"]
        self.tile_not_programmed: int = st["tile_not_programmed"]
        self.tile_revealed: int = st["tile_revealed"]
        self.listen: int = st["listen"]
        self.own_hand: int = st["own_hand"]
        self.own_card: int = st["own_card"]
        self.ninja_card: int = st["ninja_card"]
        self.samurai_card: int = st["samurai_card"]
        self.ninja_discard: int = st["ninja_discard"]
        self.samurai_discard: int = st["samurai_discard"]
        self.known_opponent_hand: int = st["known_opponent_hand"]
        self.own_tokens: int = st["own_tokens"]
        self.own_spent: int = st["own_spent"]
        self.own_bottom: int = st["own_bottom"]
        self.peek: int = st["peek"]
        self.ninja_used: int = st["ninja_used"]
        self.samurai_used: int = st["samurai_used"]


@cache
def _layout() -> _Layout:
    return _Layout()


class _BoardCache:
    """What an observation takes from a board alone: the template (one byte per entry of the
    vector, the colour, passage and vase-icon columns of the squares set), the flat indices of
    the trap-door column of its passages, and per zone column and zone the flat indices of that
    zone's squares."""

    def __init__(self, b: Board, lay: _Layout) -> None:
        spec = lay.spec
        template = spec.zeros()
        sq = spec.view(template, "squares")
        sq[np.arange(NUM_SQUARES), list(b.colour)] = 1
        sq[list(b.passages), 6] = 1
        sq[list(b.vase_squares), 8] = 1
        self.template = bytes(template.astype(np.uint8))
        base = lay.squares
        self.closed = tuple(base + _NF * p + _CLOSED for p in b.passages)
        self.zones = {
            col: [tuple(base + _NF * i + col for i in zone) for zone in b.zone_squares]
            for col in _ZONE_COLUMNS.values()
        }


_BOARDS: Final[dict[object, _BoardCache]] = {}


def _board_cache(b: Board) -> _BoardCache:
    """The cached :class:`_BoardCache` of board ``b``: boards are immutable and shared (one per
    layout and zone variant, ``board.get_board``), so the board object itself is the key (an
    identity lookup; hashing the layout took a tenth of the encoder's time)."""
    cached = _BOARDS.get(b)
    if cached is None:
        cached = _BOARDS[b] = _BoardCache(b, _layout())
    return cached


def encode(state: CastleNightingaleState, observer: int | None) -> np.ndarray:
    """The observation of ``observer`` (0 ninja, 1 samurai); ``None`` = both views concatenated
    (the omniscient state vector).

    Every entry but the numbers of :data:`_NUMBERS` is a 0/1 flag, so those are written as bytes
    into a copy of the observer's base (one byte per entry: the board's template plus the entries
    that rarely change, :func:`_base`) with the numbers that are whole and in ``0..255`` (all but
    the turn fraction, in play), converted to ``float32`` once; then the turn fraction (or, if
    any number is not such a byte, every number) is written as a float.
    """
    if observer is None:
        return np.concatenate([encode(state, NINJA), encode(state, SAMURAI)])
    buf, numbers, as_bytes = _entries(state, observer)
    vec = np.frombuffer(buf, _U8).astype(_F32)
    _write_numbers(vec, numbers, as_bytes)
    return vec


def encode_into(state: CastleNightingaleState, observer: int, out: np.ndarray) -> None:
    """:func:`encode` written into ``out`` (a ``float32`` vector of the observation's size): the
    bytes converted straight into it, without a vector of their own."""
    buf, numbers, as_bytes = _entries(state, observer)
    out[:] = np.frombuffer(buf, _U8)
    _write_numbers(out, numbers, as_bytes)


def _entries(state: CastleNightingaleState, observer: int) -> tuple[bytearray, list[Any], bool]:
    """The observation's bytes, its numbers, and whether the bytes hold the whole numbers."""
    lay = _layout()
    board = _board_cache(state.board)
    base = _base(state, observer, lay, board)
    buf = bytearray(base.buf)
    for col, z in _square_ones(state, lay, buf):
        for i in board.zones[col][z]:
            buf[i] = 1
    _other_ones(state, observer, lay, buf)
    numbers = _numbers(state, observer, base.vases)
    try:  # whole numbers in 0..255 (all but the turn fraction, in play) go in as bytes too
        buf[lay.deck_at : lay.deck_at + 2] = bytes(numbers[:2])
        buf[lay.rest_at : lay.turn_at] = bytes(numbers[2:-1])
        as_bytes = True
    except (TypeError, ValueError):  # a float, a negative or a large number: written as floats
        as_bytes = False
    return buf, numbers, as_bytes


def _write_numbers(vec: np.ndarray, numbers: list[Any], as_bytes: bool) -> None:
    """The numbers the bytes could not hold: the turn fraction, or every number."""
    lay = _layout()
    if as_bytes:
        vec[lay.turn_at] = numbers[-1]
    else:
        vec[lay.numbers] = numbers


class _Base:
    """One observer's base bytes: the board's template plus the entries that rarely change
    (trap doors, vase tokens, tokens held, spent, known at the bottom and used, the role), the
    vase counts of the numbers, and a copy of the inputs they were written from (``key``)."""

    __slots__ = ("board", "key", "buf", "vases")

    def __init__(
        self,
        state: CastleNightingaleState,
        observer: int,
        lay: _Layout,
        board: _BoardCache,
        key: list[Any],
    ) -> None:
        self.board = board
        self.key = [x[:] for x in key]  # copies of the flat lists, compared by value
        self.buf = buf = bytearray(board.template)
        _vase_ones(state, observer, lay, board, buf)
        _token_ones(state, observer, lay, buf)
        buf[lay.role + observer] = 1
        self.vases = _vase_numbers(state, observer)


def _base_key(state: CastleNightingaleState) -> list[Any]:
    """Everything the base bytes read from the state: its own lists, all flat (of ints and
    bools), so a slice copies one."""
    return [
        state.closed, state.vase_where, state.ninja_knows, state.samurai_knows, state.vase_content,
        state.n_equip, state.n_spent, state.n_bottom, state.s_equip, state.s_spent, state.s_bottom,
        state.n_used, state.s_used,
    ]  # fmt: skip


def _base(state: CastleNightingaleState, observer: int, lay: _Layout, board: _BoardCache) -> _Base:
    """``observer`` 's base of this state: the one kept on the state (``s._obs_base``) while its
    board and inputs are the same (compared by value, so an edited state is never shown stale),
    else a new one, kept."""
    bases = state._obs_base
    if bases is None:
        bases = state._obs_base = [None, None]
    base = bases[observer]
    key = _base_key(state)
    if base is None or base.board is not board or base.key != key:
        base = bases[observer] = _Base(state, observer, lay, board, key)
    return base


def _vase_ones(
    state: CastleNightingaleState, observer: int, lay: _Layout, board: _BoardCache, buf: bytearray
) -> None:
    """Set the closed trap doors and the vase tokens' entries of the squares."""
    knows = state.ninja_knows if observer == NINJA else state.samurai_knows
    sq = lay.squares
    for i, closed in zip(board.closed, state.closed):
        if closed:
            buf[i] = 1
    for t, where in enumerate(state.vase_where):
        if where >= 0:
            at = sq + _NF * where
            buf[at + _VASE] = 1
            if knows[t]:
                buf[at + (_KNOWN_RELIC if state.vase_content[t] else _KNOWN_EMPTY)] = 1
            # written, not set: the last vase token on a square gives its "seen by" entries
            buf[at + _SEEN_N] = state.ninja_knows[t]
            buf[at + _SEEN_S] = state.samurai_knows[t]


def _token_ones(state: CastleNightingaleState, observer: int, lay: _Layout, buf: bytearray) -> None:
    """Set the equipment tokens held, spent face down, known at the bottom, and used."""
    if observer == NINJA:
        _mark_all(buf, lay.own_tokens, state.n_equip)
        _mark_all(buf, lay.own_spent, state.n_spent)
        _mark_all(buf, lay.own_bottom, state.n_bottom)
    else:
        _mark_all(buf, lay.own_tokens, state.s_equip)
        _mark_all(buf, lay.own_spent, state.s_spent)
        _mark_all(buf, lay.own_bottom, state.s_bottom)
    _mark_all(buf, lay.ninja_used, state.n_used)
    _mark_all(buf, lay.samurai_used, state.s_used)


def _square_ones(
    state: CastleNightingaleState, lay: _Layout, buf: bytearray
) -> list[tuple[int, int]]:
    """Set the per-turn square features (discs, figurines, start square); return the
    ``(zone column, zone)`` pairs to mark."""
    sq = lay.squares
    discs = state.discs
    for i in discs:
        buf[sq + _NF * i + _DISC] = 1
    for i in state.turn_discs:
        if i in discs:
            buf[sq + _NF * i + _TURN_DISC] = 1
    for at, col in (
        (state.ninja_sq, _NINJA_FIG),
        (state.samurai_sq, _SAMURAI_FIG),
        (state.start_sq, _START),
    ):
        if at >= 0:
            buf[sq + _NF * at + col] = 1
    zones = []
    for key in ("watch_fire_zone", "watch_fire_next"):
        z = state.flags.get(key, -1)
        if z >= 0:
            zones.append((_ZONE_COLUMNS[key], z))
    if state.samurai_zone >= 0:
        zones.append((_ZONE_COLUMNS["samurai"], state.samurai_zone))
    d = state.decision
    if d is not None and "zone" in d:
        zones.append((_ZONE_COLUMNS["decision"], d["zone"]))
    return zones


def _other_ones(state: CastleNightingaleState, observer: int, lay: _Layout, buf: bytearray) -> None:
    """Set the one-hot entries of the decision, tiles, cards and the peeked tokens."""
    me_ninja = observer == NINJA
    d = state.decision
    if d is not None:
        buf[lay.decision + lay.decision_index[d["kind"]]] = 1
        buf[lay.decider + d["player"]] = 1
    loc = state.tile_loc
    _mark_equal(buf, lay.tile_face_up, loc, FACE_UP)
    _mark(buf, lay.tile_revealed, state.tile_revealed)
    if me_ninja:
        _mark(buf, lay.tile_programmed, state.tile_in)
        _mark(buf, lay.tile_not_programmed, state.tile_out)
    else:
        _mark_equal(buf, lay.tile_programmed, loc, PROGRAMMED)
        _mark_equal(buf, lay.tile_not_programmed, loc, HAND)
    o = lay.listen
    for colour, answer in state.listen_answers:
        buf[o + 2 * colour + int(answer)] = 1
    _mark_all(buf, lay.own_hand, state.n_hand if me_ninja else state.s_hand)
    own_card = state.n_card if me_ninja else state.s_card
    if own_card >= 0:
        buf[lay.own_card + own_card] = 1
    if state.n_card >= 0 and state.n_card_shown:
        buf[lay.ninja_card + state.n_card] = 1
    if state.s_card >= 0 and state.s_card_shown:
        buf[lay.samurai_card + state.s_card] = 1
    _mark_all(buf, lay.ninja_discard, state.n_discard)
    _mark_all(buf, lay.samurai_discard, state.s_discard)
    if not me_ninja:
        _mark_all(buf, lay.known_opponent_hand, state.known_n_hand)
    if d is not None and d["kind"] in ("meditate", "muster") and d["player"] == observer:
        _mark_all(buf, lay.peek, state.peek)


def _vase_numbers(state: CastleNightingaleState, observer: int) -> tuple[int, int, int, int, int]:
    """The vase counts of the numbers: stolen this turn, banked, on the board, and (for the
    ninja only: the samurai does not know which of them were relics) the relics among the
    stolen and the banked ones."""
    content = state.vase_content
    stolen = banked = on_board = stolen_relics = banked_relics = 0
    for t, w in enumerate(state.vase_where):
        if w >= 0:
            on_board += 1
        elif w == STOLEN:
            stolen += 1
            stolen_relics += content[t]
        elif w == BANKED:
            banked += 1
            banked_relics += content[t]
    if observer != NINJA:
        stolen_relics = banked_relics = 0
    return stolen, banked, on_board, stolen_relics, banked_relics


def _numbers(
    state: CastleNightingaleState, observer: int, vases: tuple[int, int, int, int, int]
) -> list[Any]:
    """The numbers every observation has, in :data:`_NUMBERS` order (deck sizes, tokens held,
    stacks, vases (``vases``: the counts of :func:`_vase_numbers`), flags capped at 10, the turn
    fraction)."""
    d = state.decision
    token = d.get("token") if d is not None else None
    knows = state.ninja_knows if observer == NINJA else state.samurai_knows
    vase = 1 + state.vase_content[token] if token is not None and knows[token] else 0
    f = state.flags
    numbers = [
        len(state.n_deck), len(state.s_deck), len(state.n_equip), len(state.s_equip),
        len(state.n_stack), len(state.s_stack), *vases, state.captured, vase,
    ]  # fmt: skip
    for name in _FLAG_KEYS:  # capped at 10
        x = f.get(name) or 0
        numbers.append(x if x < 10 else 10)
    bell, looks = state.bell_used, f.get("ledger_looks", 0) + f.get("map_looks", 0)
    numbers[_FLAGS_AT + _BELL] = bell if bell < 10 else 10
    numbers[_FLAGS_AT + _LOOKS] = looks if looks < 10 else 10
    numbers.append(min(1.0, state.turn / state.game.max_turns))
    return numbers


def _mark(buf: bytearray, start: int, flags: list[bool]) -> None:
    """Set ``start + i`` for every true ``flags[i]``."""
    for i, x in enumerate(flags):
        if x:
            buf[start + i] = 1


def _mark_equal(buf: bytearray, start: int, values: list[int], value: int) -> None:
    """Set ``start + i`` for every ``values[i] == value``."""
    for i, x in enumerate(values):
        if x == value:
            buf[start + i] = 1


def _mark_all(buf: bytearray, start: int, items: list[int]) -> None:
    """Set ``start + k`` for every ``k`` in ``items`` (plain loops: these lists are tiny; typed
    as lists, the compiled build indexes them without the iterator protocol)."""
    for k in items:
        buf[start + k] = 1


_ = (C, MAX_ZONES)
