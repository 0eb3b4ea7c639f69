"""White Castle observation: the public board from the observer's seat (seats rotated so the
observer is first). Only the order of the Steward and Diplomat decks (and future dice) is hidden.

The encoder runs on every environment step, so it is written for speed: the flat offset of every
field is computed once per player count (:class:`_Layout`), card and name lookups are dicts, and
the entries are collected in plain lists (flat indices of ones, ``(index, value)`` pairs, and the
numbers every observation has at fixed indices) that numpy writes into a zero vector at the end.
``make_spec`` is the definition of the layout (read it with ``spec.describe()`` or ``spec.view``);
``tests/white_castle/test_observation_speed.py`` keeps the original, field-by-field encoder as the
reference the fast one must match.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.games.white_castle import data as T

PHASES = ("draft", "play", "gardens", "final", "over")
KINDS = (
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
CASTLE = sorted(T.STEWARDS) + sorted(T.DIPLOMATS)
ACTION_CARDS = sorted(T.START_ACTIONS) + CASTLE
LANTERN_CARDS = sorted(T.START_RESOURCES) + sorted(T.DECREES) + ACTION_CARDS
TILES = sorted(T.DIE_TILES)
GARDENS = sorted(T.GARDENS)
YARDS = sorted(T.YARD_TILES)
DAIMYO = sorted(T.DAIMYO)
RES_CARDS = sorted(T.START_RESOURCES)
EFFECT_KINDS = (
    "g",
    "any",
    "pot",
    "lantern",
    "well",
    "courtier",
    "gardener",
    "warrior",
    "domain",
    "tile",
    "light",
    "payseal",
    "paycoin",
    "block",
    "blockc",
    "domrow",
    "choice",
    "wellspace",
    "courtier_cont",
    "daimyo_q",
    "pickof",
)
OPT_WORDS = ("yes", "no", "stop", "skip", "aud", "climb", "done")
N_OPT = 16


def make_spec(n: int) -> ObservationSpec:
    return ObservationSpec(
        [
            Field("round", (1,), high=3),
            Field("phase", (len(PHASES),)),
            Field("decision_kind", (len(KINDS),)),
            Field("decider", (n,), description="relative seat deciding"),
            Field("num_options", (1,), high=16),
            Field("held_die", (4,), high=6, description="colour one-hot, value"),
            Field("held_left", (1,)),
            Field("bridges", (3, 5), high=6),
            Field("rooms", (5, len(CASTLE) + 1)),
            Field("room_tiles", (5, 3, 3)),
            Field("deck_sizes", (2,), high=15),
            Field("daimyo", (len(DAIMYO),)),
            Field("daimyo_pos", (3, n + 1)),
            Field("well_tiles", (len(TILES),)),
            Field("spaces", (7, 2, 1 + n), high=6, description="die value and owner per slot"),
            Field("well_dice", (1,), high=15),
            Field("gardens", (6, len(GARDENS))),
            Field("garden_workers", (6, n)),
            Field("yards", (3, len(YARDS), 2)),
            Field("yard_warriors", (3, n), high=5),
            Field("turn_order", (n, n)),
            Field("turns_taken", (1,), high=12),
            Field("offer", (5, len(RES_CARDS) + len(T.START_ACTIONS))),
            Field("res", (n, 6), high=1000, description="food iron pearl coin seal vp"),
            Field("pot", (n, 2), high=20, description="position, arrival rank"),
            Field("members", (n, 3), high=5),
            Field("courtiers", (n, 4), high=5),
            Field("domain_dice", (n, 3), high=6),
            Field("action_card", (n, len(ACTION_CARDS))),
            Field("lantern", (n, len(LANTERN_CARDS)), high=2),
            Field("frame_size", (1,), high=20),
            Field("opt_index", (N_OPT, 16), description="first integer parameter of each option"),
            Field("opt_word", (N_OPT, len(OPT_WORDS))),
            Field("opt_effect", (N_OPT, len(EFFECT_KINDS)), description="effect kind chosen"),
            Field("opt_effect_arg", (N_OPT, 2), low=-1, high=40, description="effect arguments"),
            Field("opt_values", (N_OPT, 3), low=-6, high=6, description="die value, coin delta"),
            Field("pay_for", (len(EFFECT_KINDS),), description="effect a pending payment buys"),
        ]
    )


# ---------------------------------------------------------------- lookup tables
def _positions(names) -> dict:
    return {x: i for i, x in enumerate(names)}


_PHASE = _positions(PHASES)
_KIND = _positions(KINDS)
_CASTLE = _positions(CASTLE)
_ACTION_CARD = _positions(ACTION_CARDS)
_LANTERN_CARD = _positions(LANTERN_CARDS)
_TILE = _positions(TILES)
_GARDEN = _positions(GARDENS)
_YARD = _positions(YARDS)
_DAIMYO = _positions(DAIMYO)
_RES_CARD = _positions(RES_CARDS)
_START_ACTION = {a: len(RES_CARDS) + i for i, a in enumerate(sorted(T.START_ACTIONS))}
_EFFECT = _positions(EFFECT_KINDS)
_OPT_WORD = _positions(OPT_WORDS)
# String effect arguments -> number: castle card, else starting resource card, else resource,
# else coin/seal/vp as 3/4/5 (earlier tables win; other strings and non-numbers give -1).
_ARG: dict[str, float] = {}
for _table in (CASTLE, RES_CARDS, T.RESOURCES, ("", "", "", "coin", "seal", "vp")):
    for _i, _name in enumerate(_table):
        if _name:
            _ARG.setdefault(_name, float(_i))
_NO_ROOM_CARD = len(CASTLE)


def _arg(x) -> float:
    """An effect argument as a number (ints and bools as is, known names by table index)."""
    if isinstance(x, int):  # bool included
        return float(x)
    if isinstance(x, str):
        return _ARG.get(x, -1.0)
    return -1.0


# per-player number fields written at fixed indices, with their row widths
_PLAYER_NUMBERS = (("res", 6), ("pot", 2), ("members", 3), ("courtiers", 4), ("domain_dice", 3))
# row shapes the encoder's index arithmetic assumes (checked against make_spec by _Layout)
_ROW_SHAPES = {
    "bridges": (5,),
    "rooms": (_NO_ROOM_CARD + 1,),
    "room_tiles": (3, 3),
    "spaces": (2, None),
    "gardens": (len(GARDENS),),
    "yards": (len(YARDS), 2),
    "offer": (len(RES_CARDS) + len(T.START_ACTIONS),),
    "action_card": (len(ACTION_CARDS),),
    "lantern": (len(LANTERN_CARDS),),
    "opt_index": (16,),
    "opt_word": (len(OPT_WORDS),),
    "opt_effect": (len(EFFECT_KINDS),),
    "opt_effect_arg": (2,),
    "opt_values": (3,),
    **{name: (width,) for name, width in _PLAYER_NUMBERS},
}


class _Layout:
    """Flat offsets of the observation fields for one player count (row strides are fixed).

    ``start[name]`` is where field ``name`` begins in the flat vector and ``rel[player][p]`` the
    seat of ``p`` relative to ``player``. ``numbers[player]`` are the flat indices of the numbers
    written in every observation, in the order :func:`encode` lists them: round, deck sizes, well
    dice, turns taken, then for each seat ``p = 0..n-1`` its res, pot, members, courtiers and
    domain dice (at the rows of ``p``'s relative seat).
    """

    def __init__(self, n: int):
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


@cache
def _layout(n: int) -> _Layout:
    return _Layout(n)


# ---------------------------------------------------------------- encoder
def encode(s, player: int) -> np.ndarray:
    """The observation of ``player`` (a new ``float32`` vector laid out by :func:`make_spec`)."""
    lay = _layout(s.n)
    rel = lay.rel[player]
    ones: list[int] = []  # flat indices set to 1
    ix: list[int] = []  # flat indices set to the value at the same position of vx
    vx: list[float] = []
    # values at the fixed indices lay.numbers[player]; the players' numbers are appended below
    numbers = [s.round, len(s.steward_deck), len(s.diplomat_deck), len(s.spaces[7]), s.turns_taken]
    opts = _board_entries(s, lay.start, rel, ones, ix, vx)
    _player_entries(s, lay.start, rel, ones, ix, vx, numbers)
    if opts is not None:
        _encode_options(s, s.decision, opts, lay.start, ones, ix, vx)

    v = np.zeros(lay.size, dtype=np.float32)
    v[np.fromiter(ones, np.intp, len(ones))] = 1.0
    v[np.fromiter(ix, np.intp, len(ix))] = np.fromiter(vx, np.float32, len(vx))
    v[lay.numbers[player]] = np.fromiter(numbers, np.float32, len(numbers))
    return v


def _board_entries(s, st: dict, rel: tuple, ones: list, ix: list, vx: list) -> list | None:
    """Append the entries of the phase, decision and shared board; return the options of the
    pending decision (``None`` when there is none)."""
    n = s.n
    spaces = s.spaces
    ones.append(st["phase"] + _PHASE[s.phase])
    d = s.decision
    opts = None
    if d is not None and s.phase != "over":
        opts = s.options()
        ones.append(st["decision_kind"] + _KIND[d["kind"]])
        ones.append(st["decider"] + rel[d["p"]])
        ix.append(st["num_options"])
        vx.append(len(opts))
    held = s.held
    if held:
        o = st["held_die"]
        ones.append(o + held[0])
        ix += (o + 3, st["held_left"])
        vx += (held[1], float(held[2]))
    o = st["bridges"]
    for b, dice in enumerate(s.bridges):
        ix += range(o + 5 * b, o + 5 * b + len(dice))
        vx += dice
    o, ot = st["rooms"], st["room_tiles"]
    for r, c in enumerate(s.rooms):
        ones.append(o + (_NO_ROOM_CARD + 1) * r + (_CASTLE[c] if c else _NO_ROOM_CARD))
        for row, col in enumerate(s.room_tiles[r]):
            ones.append(ot + 9 * r + 3 * row + col)
    ones.append(st["daimyo"] + _DAIMYO[s.daimyo])
    o = st["daimyo_pos"]
    for i, owner in enumerate(s.daimyo_pos):
        ones.append(o + (n + 1) * i + (0 if owner < 0 else 1 + rel[owner]))
    o = st["well_tiles"]
    for t in s.well_tiles:
        ones.append(o + _TILE[t])
    o = st["spaces"]
    for sp in range(7):
        for k, (val, owner, _b) in enumerate(spaces[sp][:2]):
            slot = o + (1 + n) * (2 * sp + k)
            ix.append(slot)
            vx.append(val)
            ones.append(slot + 1 + rel[owner])
    og, ow = st["gardens"], st["garden_workers"]
    for i, gcard in enumerate(s.gardens):
        ones.append(og + len(GARDENS) * i + _GARDEN[gcard])
        for owner in s.garden_workers[i]:
            ones.append(ow + n * i + rel[owner])
    oy, ow = st["yards"], st["yard_warriors"]
    for y in range(3):
        for t, face in s.yards[y]:
            ones.append(oy + 2 * len(YARDS) * y + 2 * _YARD[t] + face)
        warriors = s.yard_warriors[y]
        for owner in set(warriors):
            ix.append(ow + n * y + rel[owner])
            vx.append(warriors.count(owner))
    o = st["turn_order"]
    for i, owner in enumerate(s.turn_order):
        ones.append(o + n * i + rel[owner])
    o = st["offer"]
    row = len(RES_CARDS) + len(T.START_ACTIONS)
    for i, (r, a) in enumerate(s.offer):
        ones += (o + row * i + _RES_CARD[r], o + row * i + _START_ACTION[a])
    if s.stack:
        ix.append(st["frame_size"])
        vx.append(min(20, len(s.stack[-1]["effs"])))
    return opts


def _player_entries(s, st: dict, rel: tuple, ones: list, ix: list, vx: list, numbers: list) -> None:
    """Append every player's entries (numbers in :attr:`_Layout.numbers` order)."""
    n = s.n
    players = s.players
    rank = [0] * n
    for k, p in enumerate(sorted(range(n), key=lambda p: players[p]["pot_arr"])):
        rank[p] = k
    oa, ol = st["action_card"], st["lantern"]
    for p, pl in enumerate(players):
        q = rel[p]
        numbers += (
            min(pl["food"], 1000),
            min(pl["iron"], 1000),
            min(pl["pearl"], 1000),
            min(pl["coin"], 1000),
            min(pl["seal"], 1000),
            min(pl["vp"], 1000),
            pl["pot"],
            rank[p],
        )
        numbers += pl["members"]
        numbers += pl["courtiers"]
        numbers += s.domain_dice[p]
        if pl["action_card"]:
            ones.append(oa + len(ACTION_CARDS) * q + _ACTION_CARD[pl["action_card"]])
        lantern = pl["lantern"]
        for c in set(lantern):
            ix.append(ol + len(LANTERN_CARDS) * q + _LANTERN_CARD[c])
            vx.append(lantern.count(c))


def _encode_options(s, d, opts: list, st: dict, ones: list, ix: list, vx: list) -> None:
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
    for i, opt in enumerate(opts[:N_OPT]):
        first = opt[0]
        if isinstance(first, int):
            ones.append(o_idx + 16 * i + min(first, 15))
            if effects is not None:
                e = effects[first]
                ones.append(o_eff + len(EFFECT_KINDS) * i + _EFFECT[e[0]])
                ix += (o_arg + 2 * i, o_arg + 2 * i + 1)
                vx += (
                    _arg(e[1]) if len(e) > 1 else -1.0,
                    _arg(e[2]) if len(e) > 2 else -1.0,
                )
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
            val = s.held[1]
            cov = T.DOMAIN_VALUE if first >= 8 else s.covered(first)
            ix += (o_val + 3 * i, o_val + 3 * i + 1)
            vx += (val, max(-6, min(6, val - cov)))
