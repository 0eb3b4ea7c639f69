"""The fast White Castle observation encoder equals the reference encoder.

``_reference_encode`` is the encoder as it was before the speed work, kept verbatim (apart from
names) as the definition of the v0 fields, plus ``_reference_v1_facts``: the fields added in
observation v1 (die colours, Well dice, decision details, pending effects), written field by
field with ``spec.view``. The fast encoder must give identical arrays.
"""

from __future__ import annotations

import numpy as np
import pytest
from random_play import random_play_states

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle.data import (
    CHECKPOINTS,
    DOMAIN_VALUE,
    RESOURCES,
    START_ACTIONS,
)
from boardgames_rl.games.white_castle.observation import (
    ACTION_CARDS,
    CASTLE,
    DAIMYO,
    EFFECT_KINDS,
    GARDENS,
    KINDS,
    LANTERN_CARDS,
    MODES,
    N_OPT,
    N_PENDING,
    OPT_WORDS,
    PHASES,
    RES_CARDS,
    TILES,
    YARDS,
    encode,
)


# ---------------------------------------------------------------- reference (original) encoder
def _reference_encode(s, player: int) -> np.ndarray:
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
        f("decider")[rel(d["player"])] = 1
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
        f("offer")[i, len(RES_CARDS) + sorted(START_ACTIONS).index(a)] = 1
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
    _reference_encode_options(s, v, spec)
    _reference_v1_facts(s, v, spec, player)
    return v


def _reference_effect_args(e):
    """(arg1, arg2, inner effects, inner arg) of a pending effect, by the v1 definition."""
    if e[0] == "blockc":
        return ACTION_CARDS.index(e[1]), e[2], [], -1
    plain, inner = [], []
    for x in e[1:]:
        if isinstance(x, list) and x and isinstance(x[0], list):
            inner.extend(x)
            plain.append(len(x))
        elif isinstance(x, list):
            inner.append(x)
        else:
            plain.append(_reference_arg(x))
    plain += [-1, -1]
    inner_arg = -1
    if inner and len(inner[0]) > 1:
        if inner[0][0] == "blockc":
            inner_arg = ACTION_CARDS.index(inner[0][1])
        elif not isinstance(inner[0][1], list):
            inner_arg = _reference_arg(inner[0][1])
    return plain[0], plain[1], inner, inner_arg


def _reference_v1_facts(s, v, spec, player: int) -> None:
    n = s.n
    k = len(EFFECT_KINDS)

    def rel(p: int) -> int:
        return (p - player) % n

    for sp in range(7):
        for slot, (_val, _o, colour) in enumerate(s.spaces[sp][:2]):
            spec.view(v, "space_colours")[sp, slot, colour] = 1
    well = spec.view(v, "well_slots")
    for slot, (val, o, colour) in enumerate(s.spaces[7][: 3 * n]):
        well[slot, 0] = val
        well[slot, 1 + colour] = 1
        well[slot, 4 + rel(o)] = 1
    rows = [(depth, fr, e) for depth, fr in enumerate(s.stack[::-1]) for e in fr["effs"]]
    if rows:
        spec.view(v, "pending_count")[0] = len(rows)
    pend = spec.view(v, "pending")
    for r, (depth, fr, e) in enumerate(rows[:N_PENDING]):
        a1, a2, inner, inner_arg = _reference_effect_args(e)
        pend[r, EFFECT_KINDS.index(e[0])] = 1
        pend[r, k : k + 2] = [a1, a2]
        for x in inner:
            pend[r, k + 2 + EFFECT_KINDS.index(x[0])] = 1
        pend[r, 2 * k + 2] = inner_arg
        pend[r, 2 * k + 3 + MODES.index(fr["mode"])] = 1
        pend[r, 2 * k + 6] = depth
        pend[r, 2 * k + 7 + rel(fr["p"])] = 1
    d = s.decision
    if d is None or s.phase == "over":
        return
    info = spec.view(v, "decision_info")
    if d["kind"] == "checkpoint":
        info[0] = d["steps"]
        info[1] = CHECKPOINTS[s.players[d["player"]]["pot"] + 1]
    elif d["kind"] == "pay":
        info[2] = d["amount"]
        info[3 if d["key"] == "seal" else 4] = 1
        info[5] = _reference_arg(d["then"][1]) if len(d["then"]) > 1 else -1
    elif d["kind"] == "courtier":
        info[6], info[7] = d["aud"], d["climb"]
    elif d["kind"] == "res":
        info[8] = d["left"]


def _reference_effect_of(s, opt):
    d = s.decision
    if d["kind"] in ("order", "opt") and isinstance(opt[0], int):
        return s.stack[-1]["effs"][opt[0]]
    if d["kind"] == "pick":
        return d["choices"][opt[0]]
    return None


def _reference_arg(x) -> float:
    if isinstance(x, bool):
        return float(x)
    if isinstance(x, int):
        return float(x)
    if isinstance(x, str):
        for table in (CASTLE, RES_CARDS):
            if x in table:
                return float(table.index(x))
        if x in RESOURCES:
            return float(RESOURCES.index(x))
        if x in ("coin", "seal", "vp"):
            return 3.0 + ("coin", "seal", "vp").index(x)
    return -1.0


def _reference_encode_options(s, v, spec) -> None:
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
        e = _reference_effect_of(s, opt)
        if e is not None:
            eff[i, EFFECT_KINDS.index(e[0])] = 1
            earg[i] = [
                _reference_arg(e[1]) if len(e) > 1 else -1,
                _reference_arg(e[2]) if len(e) > 2 else -1,
            ]
        if d["kind"] == "die":
            dice = s.bridges[opt[0]]
            vals[i, 0] = dice[0] if opt[1] == 0 else dice[-1]
        elif d["kind"] == "place":
            sp, val = opt[0], s.held[1]
            cov = DOMAIN_VALUE if sp >= 8 else s.covered(sp)
            vals[i, 0] = val
            vals[i, 1] = max(-6, min(6, val - cov))


# ---------------------------------------------------------------- states
def _random_play_states(n: int, count: int = 200, seed: int = 0) -> list:
    """``count`` states from random play (several whole games, every phase, terminal ones too).

    Every state along each game is kept with probability 1/4 (seeded), so the sample covers the
    draft, all three rounds, the gardens and the final scoring of each game; the first state of
    every decision kind is always kept, so rare kinds (``order``, ``checkpoint``) are in too.
    """
    return random_play_states(WhiteCastle(num_players=n), count, seed, 1000 * n, keep=0.25)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_fast_encoder_equals_reference(n):
    states = _random_play_states(n)
    kinds, phases = set(), set()
    spec = WhiteCastle(num_players=n).observation_spec
    new_fields = ("space_colours", "well_slots", "decision_info", "pending", "pending_count")
    seen = dict.fromkeys(new_fields, 0)
    for s in states:
        phases.add(s.phase)
        if s.decision is not None:
            kinds.add(s.decision["kind"])
        for name in new_fields:
            seen[name] += bool(np.any(spec.view(s.observation(0), name)))
        for p in range(n):
            want = _reference_encode(s, p)
            got = encode(s, p)
            assert got.dtype == np.float32 and got.shape == want.shape
            if not np.array_equal(got, want):
                bad = [
                    f.name
                    for f in s.game.observation_spec.fields
                    if not np.array_equal(
                        s.game.observation_spec.view(got, f.name),
                        s.game.observation_spec.view(want, f.name),
                    )
                ]
                raise AssertionError(f"seat {p}, phase {s.phase}: fields differ: {bad}")
            assert np.array_equal(s.observation(p), want)
    # the sample really exercises the option block and the end of the game
    assert {"draft", "play", "over"} <= phases
    assert {"pair", "die", "place", "opt", "pick", "res", "pay", "courtier", "final"} <= kinds
    # ... and the v1 fields (die colours, Well dice, decision details, pending effects)
    assert min(seen.values()) >= 5, seen


def test_rare_decisions_equal_reference():
    """``order`` and ``checkpoint`` decisions are rare in random play: hunt a few of each."""
    game = WhiteCastle(num_players=2)
    rng = np.random.default_rng(11)
    found = {"order": 0, "checkpoint": 0}
    g = 0
    while min(found.values()) < 3:
        s = game.new_state(seed=g)
        g += 1
        while not s.is_terminal():
            kind = s.decision["kind"]
            if kind in found:
                found[kind] += 1
                for p in range(2):
                    assert np.array_equal(encode(s, p), _reference_encode(s, p))
            s.apply(int(rng.choice(s.legal_actions())))
        assert g < 200, f"too few rare decisions after {g} games: {found}"


def test_observation_is_a_fresh_array_each_call():
    s = _random_play_states(3, count=30, seed=5)[-1]
    a = s.observation(1)
    want = a.copy()
    a[:] = 123.0
    assert np.array_equal(s.observation(1), want)
    assert s.observation(1) is not s.observation(1)


def test_observation_follows_state_changes():
    """Observing, applying, observing again on the same object never serves stale data."""
    s = WhiteCastle(num_players=2).new_state(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(60):
        s.observation(0)
        s.apply(int(rng.choice(s.legal_actions())))
        assert np.array_equal(s.observation(0), _reference_encode(s, 0))
