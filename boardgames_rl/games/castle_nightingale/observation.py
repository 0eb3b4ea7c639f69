"""Castle Nightingale observations: each player's information state as one flat vector.

Built only from public facts and the observer's own knowledge (data sheet section 8): the board,
trap doors, vase positions, discs, figurines, face-up and revealed tiles, discard piles, revealed
cards, token counts and publicly used tokens; plus, for the observer only, its hand, programmed
card, tokens (and the ones it spent face down or knows at the bottom of its stack), the vase
contents it has seen, and what it has learned (the samurai: the ninja's hand seen from the
Watchtower; the ninja: which colours it knows to be programmed or safe this turn).

The encoder runs on every environment step, so it is written for speed: each board gets a cached
template vector with its fixed square features (colours, passages, vase icons) and the flat
indices of its zones' squares; the rest is collected as plain lists (flat indices of ones, the
numbers every observation has at fixed indices) that numpy writes into a copy of the template.
``make_spec`` is the definition of the layout; the original, field-by-field encoder is kept in
``tests/castle_nightingale/test_observation_speed.py`` as the reference the fast one must match.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.actions import MAX_ZONES
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
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
    from boardgames_rl.games.castle_nightingale.state import NightingaleState


# fmt: off
SQUARE_FEATURES = (
    "red", "blue", "green", "yellow", "purple", "white", "passage", "trap door closed",
    "vase icon", "vase token", "vase known relic", "vase known empty", "vase seen by ninja",
    "vase seen by samurai", "disc", "disc placed this turn", "ninja figurine", "samurai figurine",
    "start square this turn", "Watch Fire zone (active)", "Watch Fire zone (next turn)",
    "samurai's zone", "decision zone",
)
FLAG_NAMES = (
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
            Field("ninja_discard", (10,)),
            Field("samurai_discard", (10,)),
            Field("known_opponent_hand", (10,),
                  description="opponent cards you have seen (Watchtower)"),
            Field("deck_sizes", (2,), high=10),
            Field("own_tokens", (7,), description="your equipment tokens"),
            Field("own_spent", (7,), description="your tokens discarded face down"),
            Field("own_bottom", (7,), description="your tokens you know lie under your stack"),
            Field("peek", (7,), description="the two tokens you are looking at"),
            Field("ninja_used", (7,), description="ninja tokens used for their effect"),
            Field("samurai_used", (7,), description="samurai tokens used for their effect"),
            Field("tokens_held", (2,), high=7),
            Field("stacks", (2,), high=7),
            Field("vases", (7,), high=8, description=(
                "stolen this turn, banked, on the board, relics known stolen this turn, relics "
                "known banked, captured ninjas, decision vase known relic")),
            Field("flags", (len(FLAG_NAMES),), high=10, description=", ".join(FLAG_NAMES)),
            Field("turn", (1,), description="turn / turn limit"),
        ]
    )
    # fmt: on


# ---------------------------------------------------------------- fast encoder
_NF = len(SQUARE_FEATURES)
_COL = {name: i for i, name in enumerate(SQUARE_FEATURES)}
_CLOSED, _VASE = _COL["trap door closed"], _COL["vase token"]
_KNOWN_RELIC, _KNOWN_EMPTY = _COL["vase known relic"], _COL["vase known empty"]
_SEEN_N, _SEEN_S = _COL["vase seen by ninja"], _COL["vase seen by samurai"]
_DISC, _TURN_DISC = _COL["disc"], _COL["disc placed this turn"]
_NINJA_FIG, _SAMURAI_FIG = _COL["ninja figurine"], _COL["samurai figurine"]
_START = _COL["start square this turn"]
_ZONE_COLUMNS = {
    "watch_fire_zone": _COL["Watch Fire zone (active)"],
    "watch_fire_next": _COL["Watch Fire zone (next turn)"],
    "samurai": _COL["samurai's zone"],
    "decision": _COL["decision zone"],
}
# numbers written in every observation, in the order encode lists them: (field, entries)
_NUMBERS = (("deck_sizes", 2), ("tokens_held", 2), ("stacks", 2), ("vases", 7), ("flags", 17))
_NUMBERS += (("turn", 1),)


class _Layout:
    """Flat offsets of the observation fields (``start[name]``) and the flat indices of the
    numbers every observation writes (``numbers``, in :data:`_NUMBERS` order)."""

    def __init__(self):
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


@cache
def _layout() -> _Layout:
    return _Layout()


class _BoardCache:
    """What an observation takes from a board alone: the template vector with the colour,
    passage and vase-icon columns of the squares filled, the flat indices of the squares' own
    entries, and per zone and zone column the flat indices of that zone's squares."""

    def __init__(self, b, lay: _Layout):
        spec = lay.spec
        self.template = spec.zeros()
        sq = spec.view(self.template, "squares")
        sq[np.arange(NUM_SQUARES), list(b.colour)] = 1
        sq[list(b.passages), 6] = 1
        sq[list(b.vase_squares), 8] = 1
        base = lay.start["squares"]
        self.closed = tuple(base + _NF * p + _CLOSED for p in b.passages)
        self.zones = {
            col: [
                np.array([base + _NF * i + col for i in zone], dtype=np.intp)
                for zone in b.zone_squares
            ]
            for col in _ZONE_COLUMNS.values()
        }


_BOARDS: dict[object, _BoardCache] = {}


def _board_cache(b) -> _BoardCache:
    """The cached :class:`_BoardCache` of board ``b`` (one per layout and zone variant)."""
    key = (b.layout, b.merge_seams)
    cached = _BOARDS.get(key)
    if cached is None:
        cached = _BOARDS[key] = _BoardCache(b, _layout())
    return cached


def encode(s: NightingaleState, observer: int | None) -> np.ndarray:
    """The observation of ``observer`` (0 ninja, 1 samurai); ``None`` = both views concatenated
    (the omniscient state vector)."""
    if observer is None:
        return np.concatenate([encode(s, NINJA), encode(s, SAMURAI)])
    lay = _layout()
    board = _board_cache(s.board)
    ones: list[int] = []  # flat indices set to 1
    zones = _square_ones(s, observer, lay, board, ones)
    _other_ones(s, observer, lay, ones)
    numbers = _numbers(s, observer)

    vec = board.template.copy()
    vec[np.fromiter(ones, np.intp, len(ones))] = 1.0
    for col, z in zones:
        vec[board.zones[col][z]] = 1.0
    vec[lay.numbers] = np.fromiter(numbers, np.float32, len(numbers))
    return vec


def _square_ones(s, observer: int, lay: _Layout, board: _BoardCache, ones: list) -> list:
    """Append the per-turn square features; return the ``(zone column, zone)`` pairs to mark."""
    knows = s.ninja_knows if observer == NINJA else s.samurai_knows
    sq = lay.start["squares"]
    for i, closed in zip(board.closed, s.closed, strict=True):
        if closed:
            ones.append(i)
    seen = {}  # square -> (seen by ninja, seen by samurai) of the last vase token on it
    for t, where in enumerate(s.vase_where):
        if where >= 0:
            at = sq + _NF * where
            ones.append(at + _VASE)
            if knows[t]:
                ones.append(at + (_KNOWN_RELIC if s.vase_content[t] else _KNOWN_EMPTY))
            seen[at] = (s.ninja_knows[t], s.samurai_knows[t])
    for at, (by_ninja, by_samurai) in seen.items():
        if by_ninja:
            ones.append(at + _SEEN_N)
        if by_samurai:
            ones.append(at + _SEEN_S)
    discs = s.discs
    for i in discs:
        ones.append(sq + _NF * i + _DISC)
    for i in s.turn_discs:
        if i in discs:
            ones.append(sq + _NF * i + _TURN_DISC)
    for at, col in ((s.ninja_sq, _NINJA_FIG), (s.samurai_sq, _SAMURAI_FIG), (s.start_sq, _START)):
        if at >= 0:
            ones.append(sq + _NF * at + col)
    zones = []
    for key in ("watch_fire_zone", "watch_fire_next"):
        z = s.flags.get(key, -1)
        if z >= 0:
            zones.append((_ZONE_COLUMNS[key], z))
    if s.samurai_zone >= 0:
        zones.append((_ZONE_COLUMNS["samurai"], s.samurai_zone))
    d = s.decision
    if d is not None and "zone" in d:
        zones.append((_ZONE_COLUMNS["decision"], d["zone"]))
    return zones


def _other_ones(s, observer: int, lay: _Layout, ones: list) -> None:
    """Append the one-hot entries of the decision, tiles, cards and tokens."""
    st = lay.start
    me_ninja = observer == NINJA
    d = s.decision
    ones.append(st["role"] + observer)
    if d is not None:
        ones.append(st["decision"] + lay.decision_index[d["kind"]])
        ones.append(st["decider"] + d["player"])
    loc = s.tile_loc
    _mark_equal(ones, st["tile_face_up"], loc, FACE_UP)
    _mark(ones, st["tile_revealed"], s.tile_revealed)
    if me_ninja:
        _mark(ones, st["tile_programmed"], s.tile_in)
        _mark(ones, st["tile_not_programmed"], s.tile_out)
    else:
        _mark_equal(ones, st["tile_programmed"], loc, PROGRAMMED)
        _mark_equal(ones, st["tile_not_programmed"], loc, HAND)
    o = st["listen"]
    for colour, answer in s.listen_answers:
        ones.append(o + 2 * colour + int(answer))
    _mark_all(ones, st["own_hand"], s.n_hand if me_ninja else s.s_hand)
    own_card = s.n_card if me_ninja else s.s_card
    if own_card >= 0:
        ones.append(st["own_card"] + own_card)
    if s.n_card >= 0 and s.n_card_shown:
        ones.append(st["ninja_card"] + s.n_card)
    if s.s_card >= 0 and s.s_card_shown:
        ones.append(st["samurai_card"] + s.s_card)
    _mark_all(ones, st["ninja_discard"], s.n_discard)
    _mark_all(ones, st["samurai_discard"], s.s_discard)
    if me_ninja:
        _mark_all(ones, st["own_tokens"], s.n_equip)
        _mark_all(ones, st["own_spent"], s.n_spent)
        _mark_all(ones, st["own_bottom"], s.n_bottom)
    else:
        _mark_all(ones, st["known_opponent_hand"], s.known_n_hand)
        _mark_all(ones, st["own_tokens"], s.s_equip)
        _mark_all(ones, st["own_spent"], s.s_spent)
        _mark_all(ones, st["own_bottom"], s.s_bottom)
    if d is not None and d["kind"] in ("meditate", "muster") and d["player"] == observer:
        _mark_all(ones, st["peek"], s.peek)
    _mark_all(ones, st["ninja_used"], s.n_used)
    _mark_all(ones, st["samurai_used"], s.s_used)


def _numbers(s, observer: int) -> list:
    """The numbers every observation has, in :data:`_NUMBERS` order (deck sizes, tokens held,
    stacks, vases, flags, turn)."""
    me_ninja = observer == NINJA
    where = s.vase_where
    stolen = banked = on_board = 0
    for w in where:
        if w >= 0:
            on_board += 1
        elif w == STOLEN:
            stolen += 1
        elif w == BANKED:
            banked += 1
    if me_ninja:
        stolen_relics = sum(1 for t, w in enumerate(where) if w == STOLEN and s.vase_content[t])
        banked_relics = s.banked_relics()
    else:
        stolen_relics = banked_relics = 0
    d = s.decision
    token = d.get("token") if d is not None else None
    knows = s.ninja_knows if me_ninja else s.samurai_knows
    vase = 1 + s.vase_content[token] if token is not None and knows[token] else 0
    f = s.flags
    # fmt: off
    flags = (
        f.get("twin"), f.get("twin_next"), f.get("free_jump"), f.get("jump_used"), f.get("shuko"),
        f.get("vanish"), f.get("decoys"), f.get("discs_left"), f.get("revealed"),
        f.get("target"), f.get("entries"), f.get("adjust_used"), f.get("silent_night"),
        f.get("watchtower"), s.bell_used, f.get("hound_left"),
        f.get("ledger_looks", 0) + f.get("map_looks", 0),
    )
    numbers = [
        len(s.n_deck), len(s.s_deck), len(s.n_equip), len(s.s_equip), len(s.n_stack),
        len(s.s_stack), stolen, banked, on_board, stolen_relics, banked_relics, s.captured, vase,
    ]
    # fmt: on
    for x in flags:
        numbers.append(min(10.0, float(x or 0)))
    numbers.append(min(1.0, s.turn / s.game.max_turns))
    return numbers


def _mark(ones: list[int], start: int, flags) -> None:
    """Append ``start + i`` for every true ``flags[i]``."""
    for i, x in enumerate(flags):
        if x:
            ones.append(start + i)


def _mark_equal(ones: list[int], start: int, values, value) -> None:
    """Append ``start + i`` for every ``values[i] == value``."""
    for i, x in enumerate(values):
        if x == value:
            ones.append(start + i)


def _mark_all(ones: list[int], start: int, items) -> None:
    """Append ``start + k`` for every ``k`` in ``items`` (plain loops: these lists are tiny)."""
    for k in items:
        ones.append(start + k)


_ = (C, MAX_ZONES)
