"""The fast Night of the Ninja observation encoder equals the original (reference) encoder.

``_reference_encode`` is ``observation.encode`` as it was before the speed work (issue 14.1), kept
verbatim apart from the offsets table, as the definition of the encoding; the fast encoder must
give bit-identical arrays for every seat, in states from seeded random play at 4, 5 and 11 players
and under every configuration flag that changes what an observation holds.
"""

from __future__ import annotations

import numpy as np
import pytest
from random_play import random_play_states

from boardgames_rl.games.night_of_the_ninja import cards
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.observation import encode
from boardgames_rl.games.night_of_the_ninja.state import DECISION_INDEX

NC, NH = cards.NUM_CARDS, cards.NUM_HOUSE_CARDS


# ---------------------------------------------------------------- reference (original) encoder
def _reference_encode(s, me: int) -> np.ndarray:
    """The encoder before the speed work (verbatim but for the offsets)."""
    g = s.game
    n = g.num_players
    spec = g.observation_spec
    o = {name: sl.start for name, sl in spec.slices.items()}
    vec = np.zeros(spec.size, dtype=np.float32)
    ones: list[int] = []
    add = ones.append

    def row(q: int) -> int:
        return (q - me) % n

    vec[o["round"]] = min(1.0, s.round / g.max_rounds)
    if s.over:
        stage = 7
    elif s.stage in ("draft1", "draft2"):
        stage = 0 if s.stage == "draft1" else 1
    else:
        stage = min(7, 2 + s.phase)
    add(o["stage"] + stage)
    d = s.decision
    if d is not None:
        add(o["decision"] + DECISION_INDEX[d["kind"]])
        add(o["decider"] + row(d["player"]))
        if d["card"] >= 0:
            add(o["context_card"] + d["card"])
            vec[o["context_number"]] = cards.CARD_NUMBER[d["card"]] / 6.0
        if d["owner"] >= 0:
            add(o["context_players"] + row(d["owner"]))
        if d["target"] >= 0:
            add(o["context_players"] + n + row(d["target"]))

    tv = s.token_value
    known = set(s.known[me])
    committed_by = [0] * n
    for card, owner, _src in s.committed:
        committed_by[owner] += 1
        if owner == me:
            add(o["own_committed"] + card)
    for q in range(n):
        r = row(q)
        if s.alive[q]:
            add(o["alive"] + r)
        held = s.tokens[q]
        vec[o["tokens_held"] + r] = len(held)
        for t in held:
            if t in known:
                vec[o["tokens_known"] + 3 * r + tv[t] - 2] += 1
        vec[o["asks_left"] + r] = min(3, s.asks_left[q])
        vec[o["held_count"] + r] = min(3, s.held_count(q) + committed_by[q])
        if s.death[q] >= 0:
            add(o["death_cause"] + NC * r + s.death[q])
        for code in s.awards[q]:
            add(o["awards"] + 4 * r + code)
    vec[o["stack"]] = len(s.stack)

    add(o["own_house_dealt"] + s.dealt_house[me])
    for who, target, house, pre in s.looks:
        if who == me or who == -1:
            r = row(target)
            if pre:
                add(o["house_seen_before_swap"] + NH * r + house)
            else:
                add(o["house_known"] + NH * r + house)
                if who == -1:
                    add(o["house_revealed"] + r)
    if s.ss:
        owner, a, b, swapped = s.ss
        add(o["ss_named"] + row(a))
        add(o["ss_named"] + row(b))
        if owner == me and swapped >= 0:
            add(o["ss_swap"] + (0 if swapped else 1))

    for card, owner, src, t1, t2, status in s.played:
        add(o["card_owner"] + n * card + row(owner))
        if t1 >= 0:
            add(o["card_target"] + n * card + row(t1))
        if t2 >= 0:
            add(o["card_target"] + n * card + row(t2))
        add(o["card_status"] + 3 * card + status)
        if src:
            add(o["card_from_gd"] + card)

    for c in s.hand[me]:
        add(o["own_hand"] + c)
    if s.kept[me] >= 0:
        add(o["own_kept"] + s.kept[me])
    if s.commit_done[me] and s.stage == "commit":
        vec[o["own_done"]] = 1.0

    dr = o["draft"]
    for c in s.dealt[me]:
        add(dr + c)
    if s.pick1[me] >= 0:
        add(dr + NC + s.pick1[me])
        for c in s.dealt[me]:
            if c != s.pick1[me]:
                add(dr + 2 * NC + c)
    for c in s.received[me]:
        add(dr + 3 * NC + c)
    if s.pick2[me] >= 0:
        add(dr + 4 * NC + s.pick2[me])
        add(dr + 5 * NC + s.discard_of[me])

    informed = g.target_learns_look
    for who, target, card, _time in s.mystic:
        if who == me:
            if card >= 0:
                add(o["mystic_seen"] + NC * row(target) + card)
            else:
                add(o["mystic_empty"] + row(target))
        elif target == me and informed and card >= 0:
            add(o["mystic_saw_yours"] + NC * row(who) + card)
    if s.gd:
        owner, seen1, seen2, _taken, use = s.gd
        add(o["gd_owner"] + row(owner))
        if use == 0 and not any(r[1] == owner and r[2] for r in s.played):
            add(o["gd_kept"] + row(owner))  # (a hidden commitment of it is still "kept")
        if owner == me:
            for c in (seen1, seen2):
                if c >= 0:
                    add(o["gd_seen"] + c)
    if s.sm:
        owner, target, looked_token, token = s.sm
        add(o["sm_look"] + looked_token)
        if looked_token and (owner == me or (target == me and informed)):
            add(o["sm_token_seen"] + tv[token] - 2)
    if s.round > 1 and g.mode == "game":  # every earlier round ended below the target score
        vec[o["game_went_on"]] = 1.0
        for q in range(n):
            vec[o["checked_tokens"] + row(q)] = len(s.round_start_tokens[q])
    if s.result >= 0:
        add(o["result"] + s.result)
        if s.by_mastermind:
            add(o["result"] + 4)
    vec[ones] = 1.0
    return vec


# ---------------------------------------------------------------- the comparison
CONFIGS = [
    {"num_players": 4},
    {"num_players": 5},
    {"num_players": 11},
    {"num_players": 6, "target_learns_look": False},
    {"num_players": 7, "living_targets_only": True},
    {"num_players": 5, "mode": "round"},
]


def _check(s) -> None:
    spec = s.game.observation_spec
    for p in range(s.game.num_players):
        want = _reference_encode(s, p)
        got = encode(s, p)
        assert got.dtype == np.float32 and got.shape == want.shape
        if not np.array_equal(got, want):
            bad = [
                f.name
                for f in spec.fields
                if not np.array_equal(spec.view(got, f.name), spec.view(want, f.name))
            ]
            raise AssertionError(f"seat {p}, decision {s.decision}: fields differ: {bad}")
        assert np.array_equal(s.observation(p), want)


@pytest.mark.parametrize("config", CONFIGS, ids=[str(c) for c in CONFIGS])
def test_fast_encoder_equals_reference(config):
    """Every seat's observation is bit-identical to the reference encoder's."""
    game = NightOfTheNinja(**config)
    states = random_play_states(game, 300, seed=len(config), first_game_seed=10, keep=0.05)
    for s in states:
        _check(s)
    kinds = {s.decision["kind"] for s in states if s.decision is not None}
    assert len(kinds) >= 10, kinds
    assert any(s.is_terminal() for s in states) or config.get("mode") != "round"
    assert any(s.round > 1 for s in states) or config.get("mode") == "round"


def test_observation_is_a_fresh_array_each_call():
    """Writing into one observation changes no later one."""
    game = NightOfTheNinja(num_players=5)
    s = random_play_states(game, 30, seed=3, first_game_seed=3, keep=0.5)[-1]
    a = s.observation(2)
    want = a.copy()
    a[:] = 7.0
    assert np.array_equal(s.observation(2), want)
    assert s.observation(1) is not s.observation(1)
