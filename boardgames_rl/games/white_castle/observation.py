"""White Castle observation: the public board from the observer's seat (seats rotated so the
observer is first). Only the order of the Steward and Diplomat decks (and future dice) is hidden."""

from __future__ import annotations

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


def encode(s, player: int) -> np.ndarray:
    n = s.n
    spec = s.game.observation_spec
    v = spec.zeros()

    def rel(p: int) -> int:
        return (p - player) % n

    def f(name):
        return spec.view(v, name)

    f("round")[0] = s.round
    f("phase")[PHASES.index(s.phase)] = 1
    d = s.decision
    if d is not None and s.phase != "over":
        f("decision_kind")[KINDS.index(d["kind"])] = 1
        f("decider")[rel(d["p"])] = 1
        f("num_options")[0] = len(s.options())
    if s.held:
        f("held_die")[s.held[0]] = 1
        f("held_die")[3] = s.held[1]
        f("held_left")[0] = float(s.held[2])
    for b, dice in enumerate(s.bridges):
        f("bridges")[b, : len(dice)] = dice
    for r, c in enumerate(s.rooms):
        f("rooms")[r, CASTLE.index(c) if c else len(CASTLE)] = 1
        for row, col in enumerate(s.room_tiles[r]):
            f("room_tiles")[r, row, col] = 1
    f("deck_sizes")[:] = [len(s.steward_deck), len(s.diplomat_deck)]
    f("daimyo")[DAIMYO.index(s.daimyo)] = 1
    for i, o in enumerate(s.daimyo_pos):
        f("daimyo_pos")[i, 0 if o < 0 else 1 + rel(o)] = 1
    for t in s.well_tiles:
        f("well_tiles")[TILES.index(t)] = 1
    for sp in range(7):
        for k, (val, o, _b) in enumerate(s.spaces[sp][:2]):
            f("spaces")[sp, k, 0] = val
            f("spaces")[sp, k, 1 + rel(o)] = 1
    f("well_dice")[0] = len(s.spaces[7])
    for i, gcard in enumerate(s.gardens):
        f("gardens")[i, GARDENS.index(gcard)] = 1
        for o in s.garden_workers[i]:
            f("garden_workers")[i, rel(o)] = 1
    for y in range(3):
        for t, face in s.yards[y]:
            f("yards")[y, YARDS.index(t), face] = 1
        for o in s.yard_warriors[y]:
            f("yard_warriors")[y, rel(o)] += 1
    for i, o in enumerate(s.turn_order):
        f("turn_order")[i, rel(o)] = 1
    f("turns_taken")[0] = s.turns_taken
    for i, (r, a) in enumerate(s.offer):
        f("offer")[i, RES_CARDS.index(r)] = 1
        f("offer")[i, len(RES_CARDS) + sorted(T.START_ACTIONS).index(a)] = 1
    arr_rank = sorted(range(n), key=lambda p: s.players[p]["pot_arr"])
    for p, pl in enumerate(s.players):
        q = rel(p)
        f("res")[q] = [min(pl[k], 1000) for k in ("food", "iron", "pearl", "coin", "seal", "vp")]
        f("pot")[q] = [pl["pot"], arr_rank.index(p)]
        f("members")[q] = pl["members"]
        f("courtiers")[q] = pl["courtiers"]
        f("domain_dice")[q] = s.domain_dice[p]
        if pl["action_card"]:
            f("action_card")[q, ACTION_CARDS.index(pl["action_card"])] = 1
        for c in pl["lantern"]:
            f("lantern")[q, LANTERN_CARDS.index(c)] += 1
    if s.stack:
        f("frame_size")[0] = min(20, len(s.stack[-1]["effs"]))
    encode_options(s, v, spec)
    return v


def _effect_of(s, opt):
    d = s.decision
    if d["kind"] in ("order", "opt") and isinstance(opt[0], int):
        return s.stack[-1]["effs"][opt[0]]
    if d["kind"] == "pick":
        return d["choices"][opt[0]]
    return None


def _arg(x) -> float:
    if isinstance(x, bool):
        return float(x)
    if isinstance(x, int):
        return float(x)
    if isinstance(x, str):
        for table in (CASTLE, RES_CARDS):
            if x in table:
                return float(table.index(x))
        if x in T.RESOURCES:
            return float(T.RESOURCES.index(x))
        if x in ("coin", "seal", "vp"):
            return 3.0 + ("coin", "seal", "vp").index(x)
    return -1.0


def encode_options(s, v, spec) -> None:
    d = s.decision
    if d is None or s.phase == "over":
        return
    idx = spec.view(v, "opt_index")
    word = spec.view(v, "opt_word")
    eff = spec.view(v, "opt_effect")
    earg = spec.view(v, "opt_effect_arg")
    vals = spec.view(v, "opt_values")
    if d["kind"] == "pay":
        spec.view(v, "pay_for")[EFFECT_KINDS.index(d["then"][0])] = 1
    for i, opt in enumerate(s.options()[:N_OPT]):
        first = opt[0]
        if isinstance(first, int):
            idx[i, min(first, 15)] = 1
        elif first in OPT_WORDS:
            word[i, OPT_WORDS.index(first)] = 1
        if first == "climb":
            vals[i] = [opt[1], opt[2], opt[3]]
        e = _effect_of(s, opt)
        if e is not None:
            eff[i, EFFECT_KINDS.index(e[0])] = 1
            earg[i] = [_arg(e[1]) if len(e) > 1 else -1, _arg(e[2]) if len(e) > 2 else -1]
        if d["kind"] == "die":
            dice = s.bridges[opt[0]]
            vals[i, 0] = dice[0] if opt[1] == 0 else dice[-1]
        elif d["kind"] == "place":
            sp, val = opt[0], s.held[1]
            cov = T.DOMAIN_VALUE if sp >= 8 else s.covered(sp)
            vals[i, 0] = val
            vals[i, 1] = max(-6, min(6, val - cov))
