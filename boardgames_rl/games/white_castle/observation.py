"""White Castle observation: the public board from the observer's seat (seats rotated so the
observer is first). Only the order of the Steward and Diplomat decks (and future dice) is hidden.

What it holds (field names of ``make_spec``; ``spec.describe()`` lists shapes and ranges):

* the round, phase, pending decision (kind, relative decider, number of options, and per option
  its index, word, chosen effect with arguments, die value and coin delta), ``decision_info``
  (checkpoint steps left and seal cost, the amount / currency / argument of a paid part, the
  courtier sub-actions already done, resource picks left);
* ``pending``: every effect still to resolve, top frame first (so row ``i`` is option ``i`` of an
  ``order`` / ``opt`` decision), with kind, arguments, nested kinds, frame mode, depth and owner;
  ``pending_count`` their total (e.g. the space's actions that follow the Lantern question);
* the held die (colour, value, left end), the bridges (bridge index = colour), room cards and
  die tiles, deck sizes, Daimyo card and positions, Well tiles;
* every die on the board: value, owner (``spaces``) and colour (``space_colours``) of each slot of
  the rooms and Outside the Walls, and each Well die's value, colour and owner in placement order
  (``well_slots``, plus the count ``well_dice``); Domain dice by row (``domain_dice``: a row only
  takes its own colour, so the row is the colour);
* gardens, yards and their workers, turn order, turns taken, the starting offer, and every
  player's resources, Passage of Time position and arrival rank, members, courtiers, Action card
  and Lantern Area.

Version history:

* v0: the layout above without die colours, Well dice, ``decision_info`` and ``pending``
  (1511 / 1639 / 1769 floats at 2 / 3 / 4 players).
* v1 (issue 11): adds ``space_colours``, ``well_slots``, ``decision_info``, ``pending_count`` and
  ``pending`` -- a coral 5 and a black 5 in a room now differ (2211 / 2378 / 2553 floats).

The encoder runs on every environment step, so it is written for speed: the flat offset of every
field is computed once per player count (:class:`_Layout`), card and name lookups are dicts, and
the entries are collected in plain lists (flat indices of ones, ``(index, value)`` pairs, and the
numbers every observation has at fixed indices) that numpy writes in one go. It is incremental:
each seat's last vector is kept on the state (:class:`_SeatView`), and the rules code marks every
block it changes next to the change (``state._dirty |= CHANGED_...``, one bit per block: the
pending effects, the bridges, each space and the Well, each part of the slowly changing fields,
the head numbers, and each seat's resources, Passage of Time, members, courtiers and Domain
dice). Each observation hands the marks on to every kept vector and rewrites only the marked
blocks of the observer's (byte ranges cleared and written through a memoryview; a seat's numbers
packed part by part); a listing of the options the rules code did not cause (an edit from
outside the rules, followed by dropping the mask) marks everything (``CHANGED_ANY``). The
decision block is written at every new options list from a memo keyed by its serialised inputs
(``marshal`` bytes: equal bytes, equal inputs) that holds the bytes of its ranges; ``die`` and
``place`` decisions (half of all), whose dice rarely repeat, come from templates keyed by all but
the dice, with the entries that read the dice written over them. The pending block comes from a
memo keyed by the seat and the stack, when the stack was marked. A repeated observation of an
unchanged state (the same options list, see ``WhiteCastleState._legal_action_mask``) is a copy
of the kept vector. The states of ``new_state`` keep each seat's vector from its first
observation; any other state's first observation writes everything in bulk and keeps nothing (a
one-off clone, as in search, pays nothing for the views), its second starts the seat's view.
``make_spec`` is the definition of the layout (read it with
``spec.describe()`` or ``spec.view``); ``tests/white_castle/test_observation_speed.py`` keeps a
field-by-field reference encoder and ``tests/white_castle/test_incremental_observation.py`` the
previous (non-incremental) fast encoder; this one must match both bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import chain
from marshal import dumps
from struct import Struct
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.games.white_castle.data import (
    CHECKPOINTS,
    DECREES,
    DIE_TILES,
    DIPLOMATS,
    DOMAIN_VALUE,
    RESOURCES,
    SPACE_VALUE,
    START_ACTIONS,
    START_RESOURCES,
    STEWARDS,
    WELL_VALUE,
    YARD_TILES,
    Effect,
    EffectKind,
)
from boardgames_rl.games.white_castle.data import DAIMYO as DAIMYO_CARDS
from boardgames_rl.games.white_castle.data import GARDENS as GARDEN_CARDS

if TYPE_CHECKING:
    from boardgames_rl.games.white_castle.state import WhiteCastleState

OBSERVATION_VERSION: Final = 1
"""Layout version of the observation (see the version history above)."""

PHASES: Final = ("draft", "play", "gardens", "final", "over")
KINDS: Final = (
    "pair",
    "die",
    "place",
    "order",
    "opt",
    "pick",
    "res",
    "pay",
    "checkpoint",
    "lantern_q",
    "gardener",
    "warrior",
    "courtier",
    "daimyo",
    "final",
)
CASTLE: Final = sorted(STEWARDS) + sorted(DIPLOMATS)
ACTION_CARDS: Final = sorted(START_ACTIONS) + CASTLE
LANTERN_CARDS: Final = sorted(START_RESOURCES) + sorted(DECREES) + ACTION_CARDS
TILES: Final = sorted(DIE_TILES)
GARDENS: Final = sorted(GARDEN_CARDS)
YARDS: Final = sorted(YARD_TILES)
DAIMYO: Final = sorted(DAIMYO_CARDS)
RES_CARDS: Final = sorted(START_RESOURCES)
EFFECT_KINDS: Final = (
    EffectKind.GAIN,
    EffectKind.ANY_RESOURCES,
    EffectKind.TIME_STEPS,
    EffectKind.LANTERN,
    EffectKind.WELL,
    EffectKind.COURTIER,
    EffectKind.GARDENER,
    EffectKind.WARRIOR,
    EffectKind.DOMAIN,
    EffectKind.ANY_TILE,
    EffectKind.LIGHT,
    EffectKind.PAY_SEAL,
    EffectKind.PAY_COINS,
    EffectKind.ROOM_BLOCK,
    EffectKind.CARD_BLOCK,
    EffectKind.DOMAIN_ROW,
    EffectKind.CHOICE,
    EffectKind.WELL_SPACE,
    EffectKind.COURTIER_CONTINUED,
    EffectKind.DAIMYO_QUESTION,
    EffectKind.PICK_OF,
)
"""The effect kinds in the order of the observation's one-hot kind fields."""
OPT_WORDS: Final = ("yes", "no", "stop", "skip", "aud", "climb", "done")
N_OPT: Final = 16
MODES: Final = ("seq", "any", "opt")
DECISION_INFO: Final = (
    "checkpoint steps left",
    "checkpoint seal cost",
    "pay amount",
    "pay in seals",
    "pay in coins",
    "paid effect argument",
    "courtier audience done",
    "courtier climb done",
    "resource picks left",
)
N_PENDING: Final = 12
"""Pending effects encoded one per row (random play never holds more than 4 at once; the
total is in ``pending_count``)."""


def well_slots(n: int) -> int:
    """Most dice the Well can hold: every turn of a round (3 per player)."""
    return 3 * n


def pending_row(n: int) -> int:
    """Width of a ``pending`` row: effect kind one-hot, 2 arguments, inner kinds (multi-hot),
    inner argument, frame mode one-hot, frame depth, owner one-hot (relative seat)."""
    return 2 * len(EFFECT_KINDS) + 2 + 1 + len(MODES) + 1 + n


def make_spec(n: int) -> ObservationSpec:
    return ObservationSpec(
        [
            Field("round", (1,), high=3, description="round number, 1-3"),
            Field("phase", (len(PHASES),), description="one-hot: " + ", ".join(PHASES)),
            Field(
                "decision_kind", (len(KINDS),), description="one-hot kind of the pending decision"
            ),
            Field("decider", (n,), description="relative seat deciding"),
            Field("num_options", (1,), high=16, description="options of the pending decision"),
            Field("held_die", (4,), high=6, description="colour one-hot, value"),
            Field("held_left", (1,), description="the held die came from a bridge's left end"),
            Field(
                "bridges", (3, 5), high=6, description="die values on each bridge, left to right"
            ),
            Field(
                "rooms",
                (5, len(CASTLE) + 1),
                description="card in each castle room, one-hot (last: none)",
            ),
            Field("room_tiles", (5, 3, 3), description="colour of each room space's die tile"),
            Field("deck_sizes", (2,), high=15, description="cards left: Steward, Diplomat decks"),
            Field("daimyo", (len(DAIMYO),), description="the Daimyo card, one-hot"),
            Field(
                "daimyo_pos",
                (3, n + 1),
                description="who holds each Daimyo position (first: nobody)",
            ),
            Field("well_tiles", (len(TILES),), description="the two Well tiles, multi-hot"),
            Field("spaces", (7, 2, 1 + n), high=6, description="die value and owner per slot"),
            Field("space_colours", (7, 2, 3), description="die colour per slot"),
            Field("well_dice", (1,), high=15, description="dice on the Well"),
            Field(
                "well_slots",
                (well_slots(n), 4 + n),
                high=6,
                description="Well dice in placement order: value, colour, owner",
            ),
            Field("gardens", (6, len(GARDENS)), description="card of each garden space, one-hot"),
            Field("garden_workers", (6, n), description="whose gardener is on each garden space"),
            Field("yards", (3, len(YARDS), 2), description="tiles in each training yard, by face"),
            Field("yard_warriors", (3, n), high=5, description="warriors per player in each yard"),
            Field("turn_order", (n, n), description="the player at each turn-order place"),
            Field("turns_taken", (1,), high=12, description="turns taken this round"),
            Field(
                "offer",
                (5, len(RES_CARDS) + len(START_ACTIONS)),
                description="starting offer: resource card and action card of each pair",
            ),
            Field("res", (n, 6), high=1000, description="food iron pearl coin seal vp"),
            Field("pot", (n, 2), high=20, description="position, arrival rank"),
            Field(
                "members",
                (n, 3),
                high=5,
                description="clan members left: courtiers, gardeners, warriors",
            ),
            Field("courtiers", (n, 4), high=5, description="courtiers on each castle floor"),
            Field("domain_dice", (n, 3), high=6, description="die value in each Domain row"),
            Field(
                "action_card",
                (n, len(ACTION_CARDS)),
                description="each player's Action card, one-hot",
            ),
            Field(
                "lantern", (n, len(LANTERN_CARDS)), high=2, description="cards in each Lantern Area"
            ),
            Field("frame_size", (1,), high=20, description="effects in the top pending frame"),
            Field(
                "decision_info",
                (len(DECISION_INFO),),
                low=-1,
                high=20,
                description=", ".join(DECISION_INFO),
            ),
            Field("pending_count", (1,), high=60, description="pending effects on the stack"),
            Field(
                "pending",
                (N_PENDING, pending_row(n)),
                low=-1,
                high=40,
                description="pending effects, top frame first: kind, 2 args, inner kinds, "
                "inner arg, frame mode, frame depth, owner",
            ),
            Field("opt_index", (N_OPT, 16), description="first integer parameter of each option"),
            Field(
                "opt_word",
                (N_OPT, len(OPT_WORDS)),
                description="each option's word: " + ", ".join(OPT_WORDS),
            ),
            Field("opt_effect", (N_OPT, len(EFFECT_KINDS)), description="effect kind chosen"),
            Field("opt_effect_arg", (N_OPT, 2), low=-1, high=40, description="effect arguments"),
            Field("opt_values", (N_OPT, 3), low=-6, high=6, description="die value, coin delta"),
            Field("pay_for", (len(EFFECT_KINDS),), description="effect a pending payment buys"),
        ]
    )


# ---------------------------------------------------------------- lookup tables
def _positions(names: Sequence[str]) -> dict:
    return {x: i for i, x in enumerate(names)}


_PHASE: Final = _positions(PHASES)
_KIND: Final = _positions(KINDS)
_CASTLE: Final = _positions(CASTLE)
_ACTION_CARD: Final = _positions(ACTION_CARDS)
_LANTERN_CARD: Final = _positions(LANTERN_CARDS)
_TILE: Final = _positions(TILES)
_GARDEN: Final = _positions(GARDENS)
_YARD: Final = _positions(YARDS)
_DAIMYO: Final = _positions(DAIMYO)
_RES_CARD: Final = _positions(RES_CARDS)
_START_ACTION: Final = {a: len(RES_CARDS) + i for i, a in enumerate(sorted(START_ACTIONS))}
_EFFECT: Final = _positions(EFFECT_KINDS)
_OPT_WORD: Final = _positions(OPT_WORDS)
_MODE: Final = _positions(MODES)
_RESOURCE: Final = _positions(RESOURCES)
# String effect arguments -> number: castle card, else starting resource card, else resource,
# else coin/seal/vp as 3/4/5 (earlier tables win; other strings and non-numbers give -1).
_ARG: Final[dict[str, float]] = {}
for _table in (CASTLE, RES_CARDS, RESOURCES, ("", "", "", "coin", "seal", "vp")):
    for _i, _name in enumerate(_table):
        if _name:
            _ARG.setdefault(_name, float(_i))
_NO_ROOM_CARD: Final = len(CASTLE)


def _arg(x: Any) -> float:
    """An effect argument as a number (ints and bools as is, known names by table index)."""
    if isinstance(x, int):  # bool included
        return float(x)
    if isinstance(x, str):
        return _ARG.get(x, -1.0)
    return -1.0


# per-player number fields written at fixed indices, with their row widths
_PLAYER_NUMBERS: Final = (
    ("res", 6),
    ("pot", 2),
    ("members", 3),
    ("courtiers", 4),
    ("domain_dice", 3),
)
# row shapes the encoder's index arithmetic assumes (checked against make_spec by _Layout)
_ROW_SHAPES: Final = {
    "bridges": (5,),
    "rooms": (_NO_ROOM_CARD + 1,),
    "room_tiles": (3, 3),
    "spaces": (2, None),
    "space_colours": (2, 3),
    "gardens": (len(GARDENS),),
    "yards": (len(YARDS), 2),
    "offer": (len(RES_CARDS) + len(START_ACTIONS),),
    "action_card": (len(ACTION_CARDS),),
    "lantern": (len(LANTERN_CARDS),),
    "opt_index": (16,),
    "opt_word": (len(OPT_WORDS),),
    "opt_effect": (len(EFFECT_KINDS),),
    "opt_effect_arg": (2,),
    "opt_values": (3,),
    **{name: (width,) for name, width in _PLAYER_NUMBERS},
}


# The blocks of the incremental encoder (see encode): fields rewritten together when their
# inputs change; every other field is a number written at fixed indices on every call. The
# slowly changing fields come in parts (rooms ... cards), each rewritten on its own.
_BLOCKS: Final = {
    "decision": (
        "phase",
        "decision_kind",
        "decider",
        "num_options",
        "held_die",
        "held_left",
        "decision_info",
        "opt_index",
        "opt_word",
        "opt_effect",
        "opt_effect_arg",
        "opt_values",
        "pay_for",
    ),
    "bridges": ("bridges",),
    "spaces": ("spaces", "space_colours"),
    "well": ("well_slots",),
    "pending": ("frame_size", "pending_count", "pending"),
    "rooms": ("rooms", "room_tiles"),
    "daimyo": ("daimyo", "daimyo_pos"),
    "well_tiles": ("well_tiles",),
    "gardens": ("gardens", "garden_workers"),
    "yards": ("yards", "yard_warriors"),
    "turn_order": ("turn_order",),
    "offer": ("offer",),
    "cards": ("action_card", "lantern"),
}
_STATIC_PARTS: Final = (
    "rooms",
    "daimyo",
    "well_tiles",
    "gardens",
    "yards",
    "turn_order",
    "offer",
    "cards",
)
"""The parts of the slowly changing fields (each has a writer in :data:`_STATIC_WRITERS` and a
bit in :data:`_PART_BITS`)."""
_NUMBER_FIELDS: Final = ("round", "deck_sizes", "well_dice", "turns_taken")

# ---------------------------------------------------------------- what the rules code changed
# The rules code (``WhiteCastleState``) marks every block of the observation it changes, next to
# the change: ``state._changed(CHANGED_...)`` sets bits in ``state._dirty``. The encoder rewrites a
# seat's kept vector only where a bit was set since that seat's vector was last written. An
# edit the rules code did not make (a test or scenario that edits fields and drops the mask,
# ``_mask = None``) is ``CHANGED_ANY``: the seat's whole vector is written again.
CHANGED_PENDING: Final = 1 << 0
"""The stack of pending effects (``pending``, ``frame_size``, ``pending_count``)."""
CHANGED_BRIDGES: Final = 1 << 1
CHANGED_SPACE: Final = tuple(1 << (2 + sp) for sp in range(8))
"""The dice in space ``sp``: rooms 0-4, Outside the Walls 5-6, the Well 7 (``well_slots``)."""
CHANGED_SPACES: Final = sum(CHANGED_SPACE)
CHANGED_ROOMS: Final = 1 << 10
"""The castle cards in the rooms and the rooms' die tiles."""
CHANGED_DAIMYO: Final = 1 << 11
CHANGED_WELL_TILES: Final = 1 << 12
CHANGED_GARDENS: Final = 1 << 13
"""The garden cards and their workers."""
CHANGED_YARDS: Final = 1 << 14
"""The training yards' tiles and their warriors."""
CHANGED_TURN_ORDER: Final = 1 << 15
CHANGED_OFFER: Final = 1 << 16
CHANGED_CARDS: Final = 1 << 17
"""Any seat's Action card or Lantern Area."""
CHANGED_HEAD: Final = 1 << 18
"""The round, the deck sizes, the number of dice in the Well, the turns taken."""
CHANGED_RES: Final = tuple(1 << (19 + 5 * p) for p in range(4))
"""Seat ``p`` 's resources: food, iron, pearl, coins, seals, victory points."""
CHANGED_POT: Final = tuple(1 << (20 + 5 * p) for p in range(4))
"""Seat ``p`` 's Passage of Time position and arrival rank."""
CHANGED_MEMBERS: Final = tuple(1 << (21 + 5 * p) for p in range(4))
CHANGED_COURTIERS: Final = tuple(1 << (22 + 5 * p) for p in range(4))
CHANGED_DOMAIN: Final = tuple(1 << (23 + 5 * p) for p in range(4))
"""Seat ``p`` 's Domain dice."""
CHANGED_PLAYER: Final = tuple(0b11111 << (19 + 5 * p) for p in range(4))
"""Every number of seat ``p``."""
CHANGED_PLAYERS: Final = sum(CHANGED_PLAYER)
CHANGED_RANKS: Final = sum(CHANGED_POT)
"""Every seat's arrival rank (and position)."""
CHANGED_DOMAINS: Final = sum(CHANGED_DOMAIN)
CHANGED_ANY: Final = 1 << 39
"""Anything may have changed: write the whole vector again."""
_PART_BITS: Final = (
    CHANGED_ROOMS,
    CHANGED_DAIMYO,
    CHANGED_WELL_TILES,
    CHANGED_GARDENS,
    CHANGED_YARDS,
    CHANGED_TURN_ORDER,
    CHANGED_OFFER,
    CHANGED_CARDS,
)
"""The bit of each part of :data:`_STATIC_PARTS`, in that order."""
_ANY_PART: Final = sum(_PART_BITS)
_SLOW_BLOCKS: Final = CHANGED_SPACES | _ANY_PART
"""The blocks :func:`_write_slow_blocks` writes."""


class _Layout:
    """Flat offsets of the observation fields for one player count (row strides are fixed).

    ``start[name]`` is where field ``name`` begins in the flat vector and ``rel[player][p]`` the
    seat of ``p`` relative to ``player``. ``numbers[player]`` are the flat indices of the numbers
    written in every observation, in the order :func:`encode` lists them: round, deck sizes, well
    dice, turns taken, then for each seat ``p = 0..n-1`` its res, pot, members, courtiers and
    domain dice (at the rows of ``p``'s relative seat).
    """

    def __init__(self, n: int) -> None:
        spec = make_spec(n)
        for name, row in _ROW_SHAPES.items():
            want = tuple(1 + n if w is None else w for w in row)
            if spec[name].shape[1:] != want:
                raise AssertionError(f"observation field {name!r}: rows {spec[name].shape[1:]}")
        self.n = n
        self.size = spec.size
        self.start = st = {f.name: spec.slices[f.name].start for f in spec.fields}
        self.rel = tuple(tuple((p - player) % n for p in range(n)) for player in range(n))
        head = [st["round"], st["deck_sizes"], st["deck_sizes"] + 1, st["well_dice"]]
        head.append(st["turns_taken"])

        def rows(name: str, width: int, q: int) -> list[int]:
            return list(range(st[name] + width * q, st[name] + width * (q + 1)))

        self.zero = {}
        covered = set(n for n, _ in _PLAYER_NUMBERS) | set(_NUMBER_FIELDS)
        for block, names in _BLOCKS.items():
            bounds = sorted((spec.slices[f].start, spec.slices[f].stop) for f in names)
            merged: list[list[int]] = []
            for a, b in bounds:
                if merged and merged[-1][1] == a:
                    merged[-1][1] = b
                else:
                    merged.append([a, b])
            self.zero[block] = tuple(slice(a, b) for a, b in merged)
            covered |= set(names)
        if covered != {f.name for f in spec.fields} or sum(map(len, _BLOCKS.values())) + len(
            _PLAYER_NUMBERS
        ) + len(_NUMBER_FIELDS) != len(spec.fields):
            raise AssertionError("observation blocks must cover every field once")
        self.numbers = tuple(
            np.array(
                head
                + [
                    i
                    for q in self.rel[player]
                    for name, width in _PLAYER_NUMBERS
                    for i in rows(name, width, q)
                ],
                dtype=np.intp,
            )
            for player in range(n)
        )
        # the same indices split for the encoder: the head, then one row per seat (seat order)
        k = len(head)
        width = sum(w for _, w in _PLAYER_NUMBERS)
        self.number_head = head
        self.number_rows = tuple(
            tuple(a[k + width * p : k + width * (p + 1)].tolist() for p in range(n))
            for a in self.numbers
        )
        # each seat's numbers by part, for the vector of ``player``: the part's bit ->
        # (seat, byte range, the part's bytes from the state and the seat)
        # (the part: its index in _PLAYER_NUMBERS, see _seat_part_bytes)
        part_bits = (CHANGED_RES, CHANGED_POT, CHANGED_MEMBERS, CHANGED_COURTIERS, CHANGED_DOMAIN)
        self.seat_bits = sum(CHANGED_PLAYER[:n])
        self.seat_parts: tuple[dict[int, tuple[int, int, int, int]], ...] = tuple(
            {
                bits[p]: (p, 4 * (st[name] + width * q), 4 * (st[name] + width * (q + 1)), k)
                for p, q in enumerate(self.rel[player])
                for k, ((name, width), bits) in enumerate(zip(_PLAYER_NUMBERS, part_bits))
            }
            for player in range(n)
        )
        # the rows of one space's slots (values and owners; colours)
        o, oc, w = st["spaces"], st["space_colours"], 2 * (1 + n)
        self.space_rows = tuple(
            (slice(o + w * sp, o + w * (sp + 1)), slice(oc + 6 * sp, oc + 6 * (sp + 1)))
            for sp in range(7)
        )

        # the same blocks as byte ranges of the float32 vector, ``(start, stop, zero bytes)``, for
        # the incremental encoder's writes through a byte memoryview (a memmove each)
        def ranges(slices) -> tuple:
            return tuple((4 * a.start, 4 * a.stop, bytes(4 * (a.stop - a.start))) for a in slices)

        self.ranges = {block: ranges(slices) for block, slices in self.zero.items()}
        self.space_ranges = tuple(ranges(rows) for rows in self.space_rows)
        # what to clear and write for each bit of _SLOW_BLOCKS: (byte ranges, the writer: a
        # space's (its index), the Well's (7) or a part's (8 + its index in _STATIC_PARTS), see
        # _write_slow_block)
        self.slow: dict[int, tuple[tuple[tuple[int, int, bytes], ...], int]] = {
            **{bit: (self.space_ranges[sp], sp) for sp, bit in enumerate(CHANGED_SPACE[:7])},
            CHANGED_SPACE[7]: (self.ranges["well"], 7),
            **{
                bit: (self.ranges[part], 8 + k)
                for k, (bit, part) in enumerate(zip(_PART_BITS, _STATIC_PARTS))
            },
        }
        # the byte ranges of the blocks every step may write, as typed attributes
        (a0, b0, _), (a1, b1, _) = self.ranges["pending"]
        self.pending_at: tuple[int, int, int, int] = (a0, b0, a1, b1)
        (a0, b0, _), (a1, b1, _), (a2, b2, _) = self.ranges["decision"]
        self.decision_at: tuple[int, int, int, int, int, int] = (a0, b0, a1, b1, a2, b2)
        ((a0, b0, zero),) = self.ranges["bridges"]
        self.bridges_at: tuple[int, int, bytes] = (a0, b0, zero)
        self.opt_index_at: int = st["opt_index"]
        self.opt_values_at: int = st["opt_values"]
        # decision and pending blocks by their inputs (see _decision_block): the bytes of each
        # of the block's ranges
        self.decision_memo: dict[bytes | tuple[Any, ...], tuple[bytes, ...]] = {}
        self.pending_memo: dict[bytes, tuple[bytes, ...]] = {}


@cache
def _layout(n: int) -> _Layout:
    return _Layout(n)


# ---------------------------------------------------------------- encoder
_BULK: Final = 32
"""More entries than this are written with one numpy call, fewer one by one (see encode)."""
_MEMO_MAX = 4096
"""Entries kept per memo table (decision and pending blocks, per player count); a full table is
emptied and fills again (a memo only spares work: an entry is what the encoder writes). An entry
holds the bytes of its block's ranges: about 3.4 kB (decision) and 2.5 kB (pending) at 2 players,
so a full table holds about 14 MB and 10 MB; random play fills about 3,200 decision and 750
pending entries in 200,000 steps (the ``pick`` decisions' choices vary most)."""


_pack_bridges = Struct("15f").pack
_pack2, _pack3, _pack4, _pack6 = (Struct(f"{k}f").pack for k in (2, 3, 4, 6))
"""The bytes of the ``bridges`` field (3 rows of 5 dice values)."""
_PAD: Final = tuple((0,) * (5 - k) for k in range(6))
"""The zeros after ``k`` dice in a row of ``bridges``."""


class _SeatView:
    """One seat's kept observation of a state: the vector (with a float and a byte memoryview of
    it, remade after unpickling), the options list of the state it was written for (``gen``: the
    state lists its options as a new list after every change), the blocks the rules code has
    changed since (``dirty``, bits ``CHANGED_*``), the memo entries its decision and pending
    blocks were written from, and the layout and relative seats of its player count."""

    __slots__ = ("bv", "decision", "dirty", "fv", "gen", "lay", "pending", "rel", "vec")

    def __init__(self, vec: np.ndarray, gen: list, lay: _Layout, rel: tuple):
        self.gen = gen
        self.vec = vec
        # numpy's stubs declare ndarray a buffer (``__buffer__``) only for Python >= 3.12
        self.fv: memoryview[float] = memoryview(vec)  # type: ignore[arg-type]
        self.bv = self.fv.cast("B")
        self.dirty = 0
        self.decision: tuple | None = None
        self.pending: tuple | None = None
        self.lay = lay
        self.rel = rel

    def __getstate__(self) -> tuple:
        return (self.gen, self.vec, self.dirty, self.decision, self.pending, self.lay.n, self.rel)

    def __setstate__(self, kept: tuple) -> None:
        gen, vec, dirty, decision, pending, n, rel = kept
        self.__init__(vec, gen, _layout(n), rel)  # type: ignore[misc]
        self.dirty, self.decision, self.pending = dirty, decision, pending


def encode(s: WhiteCastleState, player: int) -> np.ndarray:
    """The observation of ``player``: a new ``float32`` vector laid out by :func:`make_spec`
    (:func:`_current`'s, copied where it is kept)."""
    vec, kept = _current(s, player)
    return vec.copy() if kept else vec


def encode_into(s: WhiteCastleState, player: int, out: np.ndarray) -> None:
    """:func:`encode` written into ``out`` (a ``float32`` vector of the observation's size): the
    kept vector copied straight into it, with no copy of its own."""
    out[:] = _current(s, player)[0]


def _current(s: WhiteCastleState, player: int) -> tuple[np.ndarray, bool]:
    """The observation of ``player`` and whether it is the vector kept on the state (which the
    caller must not change; else it is a new one).

    Incremental (module docstring): after the state's first observation, ``player`` 's vector is
    kept on the state (``s._obs_views``) and rewritten where the rules code marked a change
    since it was written (``s._dirty``, handed on to every kept vector here). The decision
    block is written for every new options list (:func:`_write_decision`), the pending block
    from the memo (:func:`_pending_block`) when the stack changed, every other block and seat
    row only where marked; an unchanged state (the same options list ``s._opts``) returns a
    vector as it is; an edit the rules code did not make (``CHANGED_ANY``) writes the whole
    vector again.
    """
    opts = s._opts
    if opts is None or s._mask is None:
        opts = s.options()  # lists the options (a new list after every change) and the mask
    views = s._obs_views
    if views is None:  # a state's first observation: no view kept (one-off clones pay nothing)
        s._obs_views = [None] * s.n
        s._dirty = 0
        return _encode_all(s, player, opts), False
    view: _SeatView | None = views[player]
    if view is not None and view.gen is opts:
        return view.vec, True
    dirty = s._dirty
    if dirty:  # hand the changes on to every kept vector
        s._dirty = 0
        for other_view in views:
            if other_view is not None:
                other: _SeatView = other_view
                other.dirty |= dirty
    if view is None or view.dirty & CHANGED_ANY:
        lay = _layout(s.n)
        view = views[player] = _SeatView(_encode_all(s, player, opts), opts, lay, lay.rel[player])
        return view.vec, True
    view.gen = opts
    _write_decision(s, opts, view)
    dirty = view.dirty
    if not dirty:
        return view.vec, True
    view.dirty = 0
    lay = view.lay
    bv = view.bv
    if dirty & CHANGED_PENDING:
        pending = _pending_block(s, lay, player)
        if pending is not view.pending:
            start0, stop0, start1, stop1 = lay.pending_at
            bv[start0:stop0], bv[start1:stop1] = pending
            view.pending = pending
    if dirty & CHANGED_BRIDGES:  # all three rewritten
        b0, b1, b2 = s.bridges
        a, b, zero = lay.bridges_at
        if len(b0) <= 5 and len(b1) <= 5 and len(b2) <= 5:
            bv[a:b] = _pack_bridges(*b0, *_PAD[len(b0)], *b1, *_PAD[len(b1)], *b2, *_PAD[len(b2)])
        else:  # a row longer than 5 runs on into the next (as in a first observation)
            bv[a:b] = zero
            ix: list[int] = []
            vx: list[float] = []
            _bridge_entries(s, lay.start, ix, vx)
            _write(view, [], ix, vx)
    if dirty & _SLOW_BLOCKS:
        _write_slow_blocks(s, view, dirty)
    if dirty & CHANGED_HEAD:
        mv = view.fv
        for i, x in zip(lay.number_head, _head_numbers(s)):
            mv[i] = x
    bits: int = dirty & lay.seat_bits
    if bits:  # each marked part of a seat's numbers, packed (see _Layout.seat_parts)
        parts = lay.seat_parts[player]
        while bits:
            bit = bits & -bits
            bits ^= bit
            p, a, b, k = parts[bit]
            bv[a:b] = _seat_part_bytes(s, p, k)
    return view.vec, True


def _write_slow_blocks(s: WhiteCastleState, view: _SeatView, dirty: int) -> None:
    """Rewrite the marked spaces, Well and parts of the slowly changing fields of ``view``
    (one bit of :data:`_SLOW_BLOCKS` at a time, lowest first: :attr:`_Layout.slow`)."""
    lay, bv = view.lay, view.bv
    slow = lay.slow
    st, rel = lay.start, view.rel
    ones: list[int] = []
    ix: list[int] = []
    vx: list[float] = []
    bits: int = dirty & _SLOW_BLOCKS
    while bits:
        bit = bits & -bits
        bits ^= bit
        ranges, writer = slow[bit]
        for a, b, zero in ranges:
            bv[a:b] = zero
        if writer < 7:
            _space_entries(s, writer, st, rel, ones, ix, vx)
        elif writer == 7:
            _well_entries(s, st, rel, ones, ix, vx)
        else:
            _STATIC_WRITERS[writer - 8](s, st, rel, ones, ix, vx)
    _write(view, ones, ix, vx)


def _write(view: _SeatView, ones: list, ix: list, vx: list) -> None:
    """Write ones at ``ones`` and ``vx`` at ``ix`` into the view's vector: few entries (the usual
    incremental call) item by item through its memoryview, as numpy's conversion of index lists
    costs more than that loop; many in bulk."""
    v, mv = view.vec, view.fv
    if len(ones) > _BULK:
        v[np.fromiter(ones, np.intp, len(ones))] = 1.0
    else:
        for i in ones:
            mv[i] = 1.0
    if len(ix) > _BULK:
        v[np.fromiter(ix, np.intp, len(ix))] = np.fromiter(vx, np.float32, len(vx))
    else:
        for i, x in zip(ix, vx):
            mv[i] = x


def _encode_all(s: WhiteCastleState, player: int, opts: list) -> np.ndarray:
    """Every entry of ``player`` 's observation written into a new zero vector in bulk."""
    lay = _layout(s.n)
    st = lay.start
    rel = lay.rel[player]
    ones: list[int] = []
    ix: list[int] = []
    vx: list[float] = []
    _decision_entries(s, opts, st, rel, ones, ix, vx)
    _bridge_entries(s, st, ix, vx)
    _dice_entries(s, st, rel, ones, ix, vx)
    _pending_entries(s, st, rel, ones, ix, vx)
    _static_entries(s, st, rel, ones, ix, vx)
    head, rows = _numbers(s)
    v = np.zeros(lay.size, dtype=np.float32)
    v[np.fromiter(ones, np.intp, len(ones))] = 1.0
    v[np.fromiter(ix, np.intp, len(ix))] = np.fromiter(vx, np.float32, len(vx))
    at = lay.numbers[player]
    v[at] = np.fromiter(chain(head, *rows), np.float32, len(at))
    return v


def _remember(
    memo: dict[Any, tuple[bytes, ...]],
    key: bytes | tuple[Any, ...],
    lay: _Layout,
    block: str,
    ones: list[int],
    ix: list[int],
    vx: list[float],
) -> tuple[bytes, ...]:
    """Keep a block's entries under ``key`` as the bytes of each of the block's ranges (written
    as :func:`encode` writes them: the ones first, then the ``(index, value)`` pairs)."""
    v = np.zeros(lay.size, dtype=np.float32)
    v[np.fromiter(ones, np.intp, len(ones))] = 1.0
    v[np.fromiter(ix, np.intp, len(ix))] = np.fromiter(vx, np.float32, len(vx))
    raw = v.tobytes()
    entry = tuple(raw[a:b] for a, b, _ in lay.ranges[block])
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[key] = entry
    return entry


def _write_decision(s: WhiteCastleState, opts: list, view: _SeatView) -> None:
    """Write the decision block (:func:`_decision_entries`) into ``view`` from a memo entry (the
    bytes of the block's ranges), keyed by everything its entries read: the phase, the held
    die, the decider's relative seat, the decision itself, its options and what the option
    block reads besides (the top frame's effects of an ``order`` / ``opt``, the Passage of Time
    position of a ``checkpoint``), serialised (equal bytes: equal inputs, equal entries).

    ``die`` and ``place`` decisions (half of all) read the dice, which rarely repeat: their
    entry is a template keyed by all but the dice, and the entries that read the dice are
    written over it. A ``die`` template is keyed by the decider and the number of dice on each
    bridge (which gives the options); the value of the die each option takes is written over
    it, at the same indices. A ``place`` template is keyed by the decider, the held die and the
    number of options, with the options' spaces and coin deltas cleared
    (:func:`_place_template`); each option's space and coin delta (the value of the die it
    covers) are written into it.
    """
    lay, rel = view.lay, view.rel
    d = s.decision
    if d is not None and s.phase != "over":
        kind = d["kind"]
        held = s.held
        if kind == "place" and held is not None:
            _write_place(s, opts, view, d, held)
            return
        if kind == "die" and held is None:
            bridges = s.bridges
            key: bytes | tuple[Any, ...] = (
                rel[d["player"]],
                s.phase,
                len(bridges[0]),
                len(bridges[1]),
                len(bridges[2]),
            )
        else:
            extra = None
            if kind == "order" or kind == "opt":
                extra = s.stack[-1]["effs"]
            elif kind == "checkpoint":
                extra = s.players[d["player"]]["pot"]
            elif kind == "die":  # with a die held (only in edited states): all in the key
                extra = s.bridges
            key = dumps((s.phase, rel[d["player"]], d, opts, held, extra), 2)
    else:
        kind = None
        key = dumps((s.phase, s.held), 2)
    memo = lay.decision_memo
    entry = memo.get(key)
    if entry is None:
        ones: list[int] = []
        ix: list[int] = []
        vx: list[float] = []
        _decision_entries(s, opts, lay.start, rel, ones, ix, vx)
        entry = _remember(memo, key, lay, "decision", ones, ix, vx)
    if entry is not view.decision:
        bv = view.bv
        a0, b0, a1, b1, a2, b2 = lay.decision_at
        bv[a0:b0], bv[a1:b1], bv[a2:b2] = entry
        view.decision = entry
    if kind == "die" and key.__class__ is tuple:  # the die values over the template
        mv = view.fv
        bridges = s.bridges
        at: int = lay.opt_values_at
        for opt in opts[:N_OPT]:
            row = bridges[opt[0]]
            end: int = opt[1]
            mv[at] = row[0] if end == 0 else row[-1]
            at += 3


def _write_place(s: WhiteCastleState, opts: list, view: _SeatView, d: dict, held: list) -> None:
    """The decision block of a ``place`` decision (see :func:`_write_decision`)."""
    lay = view.lay
    rel = view.rel
    key = ("place", rel[d["player"]], s.phase, *held, len(opts))
    memo = lay.decision_memo
    entry = memo.get(key)
    if entry is None:
        entry = _place_template(s, opts, lay, rel, key)
    bv = view.bv
    a0, b0, a1, b1, a2, b2 = lay.decision_at
    bv[a0:b0], bv[a1:b1], bv[a2:b2] = entry
    view.decision = None  # the options' rows differ from the template's: always rewritten
    mv = view.fv
    val: int = held[1]
    at_index: int = lay.opt_index_at
    at_delta: int = lay.opt_values_at + 1
    spaces = s.spaces
    for opt in opts[:N_OPT]:
        sp: int = opt[0]
        delta: int
        if sp >= 8:
            delta = val - DOMAIN_VALUE
        elif sp == 7:
            delta = val - WELL_VALUE
        else:
            dice = spaces[sp]
            delta = val - (dice[-1][0] if dice else SPACE_VALUE[sp])
        mv[at_index + (min(15, sp))] = 1.0
        mv[at_delta] = delta if -6 <= delta <= 6 else (6 if delta > 0 else -6)
        at_index += 16
        at_delta += 3


def _place_template(s: WhiteCastleState, opts: list, lay: _Layout, rel: tuple, key: tuple) -> tuple:
    """The memo entry of a ``place`` decision block with the options' spaces (``opt_index``) and
    coin deltas (in ``opt_values``) cleared."""
    ones: list[int] = []
    ix: list[int] = []
    vx: list[float] = []
    _decision_entries(s, opts, lay.start, rel, ones, ix, vx)
    st = lay.start
    k = min(len(opts), N_OPT)
    clear = set(range(st["opt_index"], st["opt_index"] + 16 * k))
    clear |= set(range(st["opt_values"] + 1, st["opt_values"] + 3 * k, 3))
    keep_ones = [i for i in ones if i not in clear]
    keep = [(i, x) for i, x in zip(ix, vx) if i not in clear]
    return _remember(
        lay.decision_memo,
        key,
        lay,
        "decision",
        keep_ones,
        [i for i, _ in keep],
        [x for _, x in keep],
    )


def _pending_block(s: WhiteCastleState, lay: _Layout, player: int) -> tuple:
    """The pending block (:func:`_pending_entries`) of ``player`` 's view as the bytes of its
    ranges, from the memo (keyed by the seat and the effect stack)."""
    key = dumps((player, s.stack), 2)
    memo = lay.pending_memo
    entry = memo.get(key)
    if entry is None:
        ones: list[int] = []
        ix: list[int] = []
        vx: list[float] = []
        _pending_entries(s, lay.start, lay.rel[player], ones, ix, vx)
        entry = _remember(memo, key, lay, "pending", ones, ix, vx)
    return entry


def _decision_entries(
    s: WhiteCastleState, opts: list, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """Append the entries of the phase, the pending decision (kind, decider, number of options,
    ``decision_info``, the option block) and the held die."""
    ones.append(st["phase"] + _PHASE[s.phase])
    d = s.decision
    live = d is not None and s.phase != "over"
    if live and d is not None:
        ones.append(st["decision_kind"] + _KIND[d["kind"]])
        ones.append(st["decider"] + rel[d["player"]])
        ix.append(st["num_options"])
        vx.append(len(opts))
    held = s.held
    if held:
        o = st["held_die"]
        ones.append(o + held[0])
        ix += (o + 3, st["held_left"])
        vx += (held[1], float(held[2]))
    if live and d is not None:
        _decision_info(s, d, st["decision_info"], ix, vx)
        _encode_options(s, d, opts, st, ones, ix, vx)


def _bridge_entries(s: WhiteCastleState, st: dict, ix: list, vx: list) -> None:
    """The dice on each bridge (bridge index = colour), lowest first."""
    o = st["bridges"]
    for b, dice in enumerate(s.bridges):
        ix += range(o + 5 * b, o + 5 * b + len(dice))
        vx += dice


def _space_entries(
    s: WhiteCastleState, sp: int, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """Value, owner and colour of each die in space ``sp`` (a room or Outside the Walls)."""
    n = s.n
    o, oc = st["spaces"], st["space_colours"]
    for k, (val, owner, colour) in enumerate(s.spaces[sp][:2]):
        slot = o + (1 + n) * (2 * sp + k)
        ix.append(slot)
        vx.append(val)
        ones += (slot + 1 + rel[owner], oc + 3 * (2 * sp + k) + colour)


def _dice_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """Every die in the rooms and Outside the Walls; the Well's."""
    for sp in range(7):
        _space_entries(s, sp, st, rel, ones, ix, vx)
    _well_entries(s, st, rel, ones, ix, vx)


def _room_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The card in each room (or none) and the room's die tiles."""
    o, ot = st["rooms"], st["room_tiles"]
    for r, c in enumerate(s.rooms):
        ones.append(o + (_NO_ROOM_CARD + 1) * r + (_CASTLE[c] if c else _NO_ROOM_CARD))
        for row, col in enumerate(s.room_tiles[r]):
            ones.append(ot + 9 * r + 3 * row + col)


def _daimyo_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The Daimyo card and who holds each of its positions."""
    n = s.n
    ones.append(st["daimyo"] + _DAIMYO[s.daimyo])
    o = st["daimyo_pos"]
    for i, owner in enumerate(s.daimyo_pos):
        ones.append(o + (n + 1) * i + (0 if owner < 0 else 1 + rel[owner]))


def _well_tile_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The Well's tiles."""
    o = st["well_tiles"]
    for t in s.well_tiles:
        ones.append(o + _TILE[t])


def _garden_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The garden cards and their workers."""
    n = s.n
    og, ow = st["gardens"], st["garden_workers"]
    for i, gcard in enumerate(s.gardens):
        ones.append(og + len(GARDENS) * i + _GARDEN[gcard])
        for owner in s.garden_workers[i]:
            ones.append(ow + n * i + rel[owner])


def _yard_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The training yards' tiles (face) and each seat's warriors there."""
    n = s.n
    oy, ow = st["yards"], st["yard_warriors"]
    for y in range(3):
        for t, face in s.yards[y]:
            ones.append(oy + 2 * len(YARDS) * y + 2 * _YARD[t] + face)
        warriors = s.yard_warriors[y]
        for owner in set(warriors):
            ix.append(ow + n * y + rel[owner])
            vx.append(warriors.count(owner))


def _turn_order_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The turn order (relative seats)."""
    n = s.n
    o = st["turn_order"]
    for i, owner in enumerate(s.turn_order):
        ones.append(o + n * i + rel[owner])


def _offer_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The starting offer: each pair's resource card and Action card."""
    o = st["offer"]
    row = len(RES_CARDS) + len(START_ACTIONS)
    for i, (r, a) in enumerate(s.offer):
        ones += (o + row * i + _RES_CARD[r], o + row * i + _START_ACTION[a])


def _card_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """Every seat's Action card and the cards of its Lantern Area (counts)."""
    oa, ol = st["action_card"], st["lantern"]
    for p, pl in enumerate(s.players):
        q = rel[p]
        if pl["action_card"]:
            ones.append(oa + len(ACTION_CARDS) * q + _ACTION_CARD[pl["action_card"]])
        lantern = pl["lantern"]
        for c in set(lantern):
            ix.append(ol + len(LANTERN_CARDS) * q + _LANTERN_CARD[c])
            vx.append(lantern.count(c))


_STATIC_WRITERS: Final = (
    _room_entries,
    _daimyo_entries,
    _well_tile_entries,
    _garden_entries,
    _yard_entries,
    _turn_order_entries,
    _offer_entries,
    _card_entries,
)
"""The writer of each part of :data:`_STATIC_PARTS`, in that order."""


def _static_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """Append the entries of every part of the slowly changing fields."""
    for write in _STATIC_WRITERS:
        write(s, st, rel, ones, ix, vx)


def _well_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The dice in the Well, in placement order: value, colour one-hot, owner one-hot."""
    width = 4 + s.n
    o = st["well_slots"]
    for k, (val, owner, colour) in enumerate(s.spaces[7][: well_slots(s.n)]):
        slot = o + width * k
        ix.append(slot)
        vx.append(val)
        ones += (slot + 1 + colour, slot + 4 + rel[owner])


def effect_args(e: Effect) -> tuple[float, float, list[int], float]:
    """``(arg1, arg2, inner kinds, inner arg)`` of a pending effect (see ``pending_row``).

    Numbers and names are the first two plain arguments (names by table index as in the option
    block; a ``blockc`` card by its index in ``ACTION_CARDS``); effects nested in an argument
    (``payseal``, ``paycoin``, ``choice``, ``pickof``) give their kinds and the first plain
    argument of the first one; ``pickof`` gives the number of choices as arg1.
    """
    kind = e[0]
    if kind == EffectKind.CARD_BLOCK:
        return float(_ACTION_CARD[e[1]]), float(e[2]), [], -1.0
    plain: list[float] = []
    inner: list = []
    for x in e[1:]:
        if isinstance(x, list):
            if x and isinstance(x[0], list):  # pickof: a list of effects
                inner += x
                plain.append(float(len(x)))
            else:
                inner.append(x)
        else:
            plain.append(_arg(x))
    plain += [-1.0, -1.0]
    inner_arg = -1.0
    if inner and len(inner[0]) > 1:
        x = inner[0][1]
        if inner[0][0] == EffectKind.CARD_BLOCK:
            inner_arg = float(_ACTION_CARD[x])
        elif not isinstance(x, list):
            inner_arg = _arg(x)
    return plain[0], plain[1], [_EFFECT[i[0]] for i in inner], inner_arg


def _pending_entries(
    s: WhiteCastleState, st: dict, rel: tuple, ones: list, ix: list, vx: list
) -> None:
    """The size of the top frame, then every pending effect of the stack, top frame first (the
    frame an ``order`` / ``opt`` decision is about), up to :data:`N_PENDING` rows; their total."""
    if s.stack:
        ix.append(st["frame_size"])
        vx.append(min(20, len(s.stack[-1]["effs"])))
    k_eff = len(EFFECT_KINDS)
    width = pending_row(s.n)
    o = st["pending"]
    row = 0
    total = 0
    for depth, fr in enumerate(reversed(s.stack)):
        total += len(fr["effs"])
        for e in fr["effs"]:
            if row >= N_PENDING:
                break
            b = o + width * row
            a1, a2, inner, inner_arg = effect_args(e)
            ones.append(b + _EFFECT[e[0]])
            ones += sorted({b + k_eff + 2 + i for i in inner})
            ones.append(b + 2 * k_eff + 3 + _MODE[fr["mode"]])
            ones.append(b + 2 * k_eff + 7 + rel[fr["p"]])
            ix += (b + k_eff, b + k_eff + 1, b + 2 * k_eff + 2, b + 2 * k_eff + 6)
            vx += (a1, a2, inner_arg, float(depth))
            row += 1
    if total:
        ix.append(st["pending_count"])
        vx.append(float(total))


def _decision_info(s: WhiteCastleState, d: dict, o: int, ix: list, vx: list) -> None:
    """Parameters of the pending decision not shown by its options (``DECISION_INFO``)."""
    kind = d["kind"]
    if kind == "checkpoint":
        ix += (o, o + 1)
        vx += (d["steps"], CHECKPOINTS[s.players[d["player"]]["pot"] + 1])
    elif kind == "pay":
        then = d["then"]
        ix += (o + 2, o + 3 + (d["key"] == "coin"), o + 5)
        vx += (d["amount"], 1.0, _arg(then[1]) if len(then) > 1 else -1.0)
    elif kind == "courtier":
        ix += (o + 6, o + 7)
        vx += (float(d["aud"]), float(d["climb"]))
    elif kind == "res":
        ix.append(o + 8)
        vx.append(d.get("left", 1))


def _numbers(s: WhiteCastleState) -> tuple[list, list[tuple]]:
    """The numbers at the fixed indices :attr:`_Layout.numbers`: the head
    (:func:`_head_numbers`) and one row per seat (:func:`_seat_numbers`)."""
    return _head_numbers(s), [_seat_numbers(s, p) for p in range(s.n)]


def _head_numbers(s: WhiteCastleState) -> list:
    """The round, the deck sizes, the number of Well dice and the turns taken."""
    return [s.round, len(s.steward_deck), len(s.diplomat_deck), len(s.spaces[7]), s.turns_taken]


def _seat_numbers(s: WhiteCastleState, p: int) -> tuple:
    """Seat ``p`` 's numbers: resources (:func:`_res_numbers`), Passage of Time position and
    arrival rank (:func:`_arrival_rank`), members, courtiers and Domain dice."""
    pl = s.players[p]
    return (
        *_res_numbers(pl),
        pl["pot"],
        _arrival_rank(s, p),
        *pl["members"],
        *pl["courtiers"],
        *s.domain_dice[p],
    )


# the packed bytes of each part of seat ``p`` 's numbers (:func:`_seat_numbers`), by part
def _res_bytes(s: WhiteCastleState, p: int) -> bytes:
    return _pack6(*_res_numbers(s.players[p]))


def _pot_bytes(s: WhiteCastleState, p: int) -> bytes:
    return _pack2(s.players[p]["pot"], _arrival_rank(s, p))


def _members_bytes(s: WhiteCastleState, p: int) -> bytes:
    return _pack3(*s.players[p]["members"])


def _courtiers_bytes(s: WhiteCastleState, p: int) -> bytes:
    return _pack4(*s.players[p]["courtiers"])


def _domain_bytes(s: WhiteCastleState, p: int) -> bytes:
    return _pack3(*s.domain_dice[p])


def _seat_part_bytes(s: WhiteCastleState, p: int, k: int) -> bytes:
    """The packed bytes of part ``k`` of seat ``p`` 's numbers (the order of
    ``_PLAYER_NUMBERS``: resources, Passage of Time, members, courtiers, Domain dice)."""
    if k == 0:
        return _res_bytes(s, p)
    if k == 1:
        return _pot_bytes(s, p)
    if k == 2:
        return _members_bytes(s, p)
    if k == 3:
        return _courtiers_bytes(s, p)
    return _domain_bytes(s, p)


def _res_numbers(pl: dict) -> tuple:
    """A seat's food, iron, pearl, coins, seals and victory points, each at most 1000."""
    res = (pl["food"], pl["iron"], pl["pearl"], pl["coin"], pl["seal"], pl["vp"])
    if max(res) > 1000:
        res = tuple(min(x, 1000) for x in res)
    return res


def _arrival_rank(s: WhiteCastleState, p: int) -> int:
    """Seat ``p`` 's place among the seats by arrival on the Passage of Time track (earlier
    seats first on a tie)."""
    arrived = s.players[p]["pot_arr"]
    rank = 0
    for q, other in enumerate(s.players):
        a = other["pot_arr"]
        if a < arrived or (a == arrived and q < p):
            rank += 1
    return rank


def _encode_options(
    s: WhiteCastleState, d: dict[str, Any], opts: list, st: dict, ones: list, ix: list, vx: list
) -> None:
    """Append the option-description block (first :data:`N_OPT` options) to the write lists."""
    kind = d["kind"]
    if kind == "pay":
        ones.append(st["pay_for"] + _EFFECT[d["then"][0]])
    # the effect each integer option chooses: a pending effect of the top frame, or a choice
    effects = None
    if kind in ("order", "opt"):
        effects = s.stack[-1]["effs"]
    elif kind == "pick":
        effects = d["choices"]
    o_idx, o_word, o_eff = st["opt_index"], st["opt_word"], st["opt_effect"]
    o_arg, o_val = st["opt_effect_arg"], st["opt_values"]
    if kind == "die":  # the two commonest decisions, written out (the general loop's entries)
        bridges = s.bridges
        for i, (b, end) in enumerate(opts[:N_OPT]):
            dice = bridges[b]
            ones.append(o_idx + 16 * i + min(b, 15))
            ix.append(o_val + 3 * i)
            vx.append(dice[0] if end == 0 else dice[-1])
        return
    if kind == "place":
        held = s.held
        assert held is not None  # a place decision holds the die taken
        val = held[1]
        for i, (sp,) in enumerate(opts[:N_OPT]):
            cov = DOMAIN_VALUE if sp >= 8 else s.covered(sp)
            ones.append(o_idx + 16 * i + min(sp, 15))
            ix += (o_val + 3 * i, o_val + 3 * i + 1)
            vx += (val, max(-6, min(6, val - cov)))
        return
    for i, opt in enumerate(opts[:N_OPT]):
        first = opt[0]
        if isinstance(first, int):
            ones.append(o_idx + 16 * i + min(first, 15))
            if effects is not None:
                e = effects[first]
                ones.append(o_eff + len(EFFECT_KINDS) * i + _EFFECT[e[0]])
                ix += (o_arg + 2 * i, o_arg + 2 * i + 1)
                vx += (_arg(e[1]) if len(e) > 1 else -1.0, _arg(e[2]) if len(e) > 2 else -1.0)
        elif first in _OPT_WORD:
            ones.append(o_word + len(OPT_WORDS) * i + _OPT_WORD[first])
            if first == "climb":
                ix += (o_val + 3 * i, o_val + 3 * i + 1, o_val + 3 * i + 2)
                vx += (opt[1], opt[2], opt[3])
        if kind == "die":
            dice = s.bridges[first]
            ix.append(o_val + 3 * i)
            vx.append(dice[0] if opt[1] == 0 else dice[-1])
        elif kind == "place":
            held = s.held
            assert held is not None  # a place decision holds the die taken
            val = held[1]
            cov = DOMAIN_VALUE if first >= 8 else s.covered(first)
            ix += (o_val + 3 * i, o_val + 3 * i + 1)
            vx += (val, max(-6, min(6, val - cov)))
