"""The fast Castle Nightingale observation encoder equals the original (reference) encoder.

``_reference_encode`` is the encoder as it was before the speed work, kept verbatim (apart from
names and line wrapping) as the definition of the encoding; the fast encoder must give identical
arrays.
"""

from __future__ import annotations

import numpy as np
import pytest
from random_play import random_play_states

from boardgames_rl.games.castle_nightingale import CastleNightingale
from boardgames_rl.games.castle_nightingale.observation import encode
from boardgames_rl.games.castle_nightingale.state import (
    BANKED,
    DECISION_INDEX,
    FACE_UP,
    HAND,
    NINJA,
    PROGRAMMED,
    SAMURAI,
    STOLEN,
)


# ---------------------------------------------------------------- reference (original) encoder
def _reference_encode(s, observer):
    if observer is None:
        return np.concatenate([_reference_encode(s, NINJA), _reference_encode(s, SAMURAI)])
    g = s.game
    spec = g.observation_spec
    vec = spec.zeros()
    v = spec.view
    b = s.board
    me_ninja = observer == NINJA
    knows = s.ninja_knows if me_ninja else s.samurai_knows

    sq = v(vec, "squares")
    sq[:, :9] = _reference_static_features(b)
    for p in s.closed_passages():
        sq[p, 7] = 1
    for t, where in enumerate(s.vase_where):
        if where >= 0:
            sq[where, 9] = 1
            if knows[t]:
                sq[where, 10 if s.vase_content[t] else 11] = 1
            sq[where, 12] = s.ninja_knows[t]
            sq[where, 13] = s.samurai_knows[t]
    for i in s.discs:
        sq[i, 14] = 1
    for i in s.turn_discs:
        if i in s.discs:
            sq[i, 15] = 1
    if s.ninja_sq >= 0:
        sq[s.ninja_sq, 16] = 1
    if s.samurai_sq >= 0:
        sq[s.samurai_sq, 17] = 1
    if s.start_sq >= 0:
        sq[s.start_sq, 18] = 1
    for col, key in ((19, "watch_fire_zone"), (20, "watch_fire_next")):
        z = s.flags.get(key, -1)
        if z >= 0:
            for i in b.zone_squares[z]:
                sq[i, col] = 1
    if s.samurai_zone >= 0:
        for i in b.zone_squares[s.samurai_zone]:
            sq[i, 21] = 1
    d = s.decision
    if d is not None and "zone" in d:
        for i in b.zone_squares[d["zone"]]:
            sq[i, 22] = 1

    v(vec, "role")[observer] = 1
    if d is not None:
        v(vec, "decision")[DECISION_INDEX[d["kind"]]] = 1
        v(vec, "decider")[d["player"]] = 1
    loc = s.tile_loc
    v(vec, "tile_face_up")[:] = [x == FACE_UP for x in loc]
    v(vec, "tile_revealed")[:] = s.tile_revealed
    if me_ninja:
        v(vec, "tile_programmed")[:] = s.tile_in
        v(vec, "tile_not_programmed")[:] = s.tile_out
    else:
        v(vec, "tile_programmed")[:] = [x == PROGRAMMED for x in loc]
        v(vec, "tile_not_programmed")[:] = [x == HAND for x in loc]
    for colour, answer in s.listen_answers:
        v(vec, "listen")[colour, int(answer)] = 1

    hand = s.n_hand if me_ninja else s.s_hand
    v(vec, "own_hand")[hand] = 1
    own_card = s.n_card if me_ninja else s.s_card
    if own_card >= 0:
        v(vec, "own_card")[own_card] = 1
    if s.n_card >= 0 and s.n_card_shown:
        v(vec, "ninja_card")[s.n_card] = 1
    if s.s_card >= 0 and s.s_card_shown:
        v(vec, "samurai_card")[s.s_card] = 1
    v(vec, "ninja_discard")[s.n_discard] = 1
    v(vec, "samurai_discard")[s.s_discard] = 1
    if not me_ninja:
        v(vec, "known_opponent_hand")[s.known_n_hand] = 1
    v(vec, "deck_sizes")[:] = (len(s.n_deck), len(s.s_deck))

    equip = s.n_equip if me_ninja else s.s_equip
    spent = s.n_spent if me_ninja else s.s_spent
    bottom = s.n_bottom if me_ninja else s.s_bottom
    v(vec, "own_tokens")[equip] = 1
    v(vec, "own_spent")[spent] = 1
    v(vec, "own_bottom")[bottom] = 1
    if d is not None and d["kind"] in ("meditate", "muster") and d["player"] == observer:
        v(vec, "peek")[s.peek] = 1
    v(vec, "ninja_used")[s.n_used] = 1
    v(vec, "samurai_used")[s.s_used] = 1
    v(vec, "tokens_held")[:] = (len(s.n_equip), len(s.s_equip))
    v(vec, "stacks")[:] = (len(s.n_stack), len(s.s_stack))

    vases = v(vec, "vases")
    vases[0] = sum(1 for w in s.vase_where if w == STOLEN)
    vases[1] = sum(1 for w in s.vase_where if w == BANKED)
    vases[2] = sum(1 for w in s.vase_where if w >= 0)
    if me_ninja:
        vases[3] = sum(1 for t, w in enumerate(s.vase_where) if w == STOLEN and s.vase_content[t])
        vases[4] = s.banked_relics()
    vases[5] = s.captured
    if d is not None and "token" in d and knows[d["token"]]:
        vases[6] = 1 + s.vase_content[d["token"]]
    f = s.flags
    flags = v(vec, "flags")
    values = (
        f.get("twin"),
        f.get("twin_next"),
        f.get("free_jump"),
        f.get("jump_used"),
        f.get("shuko"),
        f.get("vanish"),
        f.get("decoys"),
        f.get("discs_left"),
        f.get("revealed"),
        f.get("target"),
        f.get("entries"),
        f.get("adjust_used"),
        f.get("silent_night"),
        f.get("watchtower"),
        s.bell_used,
        f.get("hound_left"),
        f.get("ledger_looks", 0) + f.get("map_looks", 0),
    )
    flags[:] = [min(10.0, float(x or 0)) for x in values]
    v(vec, "turn")[0] = min(1.0, s.turn / g.max_turns)
    return vec


_REFERENCE_STATIC: dict[object, np.ndarray] = {}


def _reference_static_features(b) -> np.ndarray:
    """Colour one-hot, passage and vase-icon columns of a board (cached per board)."""
    key = b.layout
    block = _REFERENCE_STATIC.get(key)
    if block is None:
        block = np.zeros((96, 9), dtype=np.float32)
        block[np.arange(96), list(b.colour)] = 1
        block[list(b.passages), 6] = 1
        block[list(b.vase_squares), 8] = 1
        _REFERENCE_STATIC[key] = block
    return block


# ---------------------------------------------------------------- states
CONFIGS = [{}, {"random_layout": True}, {"side": "B", "max_turns": 30}]


def _random_play_states(config: dict, count: int = 200, seed: int = 0) -> list:
    """``count`` states from random play (several games; terminal ones and the first state of
    every decision kind always kept, others with probability 1/10, seeded: about 4 games)."""
    return random_play_states(CastleNightingale(**config), count, seed, 100 * seed, keep=0.1)


def _check(s) -> None:
    spec = s.game.observation_spec
    for p in (NINJA, SAMURAI):
        want = _reference_encode(s, p)
        got = encode(s, p)
        assert got.dtype == np.float32 and got.shape == want.shape
        if not np.array_equal(got, want):
            bad = [
                f.name
                for f in spec.fields
                if not np.array_equal(spec.view(got, f.name), spec.view(want, f.name))
            ]
            kind = s.decision["kind"] if s.decision else None
            raise AssertionError(f"observer {p}, decision {kind}: fields differ: {bad}")
        assert np.array_equal(s.observation(p), want)
    assert np.array_equal(s.state_vector(), _reference_encode(s, None))


@pytest.mark.parametrize("config", CONFIGS, ids=["A", "A-random", "B"])
def test_fast_encoder_equals_reference(config):
    states = _random_play_states(config, seed=len(config))
    for s in states:
        _check(s)
    kinds = {s.decision["kind"] for s in states if s.decision is not None}
    assert len(kinds) >= 40, kinds
    assert any(s.is_terminal() for s in states)


def test_observation_is_a_fresh_array_each_call():
    s = _random_play_states({}, count=40, seed=3)[-1]
    a = s.observation(SAMURAI)
    want = a.copy()
    a[:] = 7.0
    assert np.array_equal(s.observation(SAMURAI), want)
    assert s.observation(NINJA) is not s.observation(NINJA)
