"""The Castle Nightingale encoder's kept base bytes never show a stale observation.

The encoder keeps, per observer, the entries that rarely change (trap doors, vase tokens, tokens
held / spent / known at the bottom / used, the role) on the state and reuses them while their
inputs are equal (``observation._base``), and writes the whole numbers as bytes. Along live
games (one state object, observed after every action, both seats, in a random order), after
hand edits of every input of the base and with numbers that are not bytes, every observation
must equal the reference encoder's (``test_observation_speed._reference_encode``) bit for bit.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from boardgames_rl.games.castle_nightingale import CastleNightingale
from boardgames_rl.games.castle_nightingale.state import NINJA, SAMURAI
from boardgames_rl.testing.observations import assert_same_observation

from .test_observation_speed import CONFIGS, _reference_encode


def _same(s, p: int) -> None:
    assert_same_observation(s, p, _reference_encode(s, p))


@pytest.mark.parametrize("config", CONFIGS, ids=["A", "A-random", "B"])
def test_live_games_equal_the_reference(config):
    """One state object through whole games: the kept bases follow every change."""
    game = CastleNightingale(**config)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = game.new_state(seed)
        step = 0
        while not s.is_terminal():
            for p in rng.permutation(2):
                _same(s, int(p))
            if step % 13 == 0:
                c = s.clone()
                _same(c, s.current_player)
                c.apply(int(c.legal_actions()[0]))
                _same(s, s.current_player)  # the original's base is not the clone's
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
            step += 1
        for p in (NINJA, SAMURAI):
            _same(s, p)
        assert np.array_equal(s.state_vector(), _reference_encode(s, None))


def test_hand_edits_of_the_base_inputs_are_seen():
    """Editing any input of the base (in place or by rebinding) gives the reference vector."""
    game = CastleNightingale()
    rng = np.random.default_rng(5)
    s = game.new_state(5)
    edits = [
        lambda s: s.closed.__setitem__(0, not s.closed[0]),
        lambda s: s.vase_where.__setitem__(1, -2 if s.vase_where[1] >= 0 else 3),
        lambda s: s.ninja_knows.__setitem__(2, not s.ninja_knows[2]),
        lambda s: s.samurai_knows.__setitem__(3, not s.samurai_knows[3]),
        lambda s: s.vase_content.__setitem__(0, not s.vase_content[0]),
        lambda s: s.n_equip.append(6) if 6 not in s.n_equip else s.n_equip.remove(6),
        lambda s: setattr(s, "s_spent", [] if s.s_spent else [2]),
        lambda s: s.n_bottom.append(1),
        lambda s: s.s_used.append(4),
        lambda s: setattr(s, "n_used", [0, 5]),
    ]
    for step in range(200):
        if s.is_terminal():
            s = game.new_state(step)
        for p in (NINJA, SAMURAI):
            _same(s, p)  # fill both bases
        edits[step % len(edits)](s)
        for p in (NINJA, SAMURAI):
            _same(s, p)
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))


def test_numbers_that_are_not_bytes_are_written_as_floats():
    """A negative, a large or a fractional number (edited in) is written exactly as the
    reference writes it, and the next observation of a normal state is a byte one again."""
    s = CastleNightingale().new_state(1)
    for p in (NINJA, SAMURAI):
        _same(s, p)
    for key, value in (("decoys", -1), ("entries", 300), ("target", 2.5), ("hound_left", 9)):
        s.flags[key] = value
        s.captured = 1000 if key == "entries" else 0
        for p in (NINJA, SAMURAI):
            _same(s, p)


def test_states_with_kept_bases_pickle_and_deepcopy():
    """The kept bases are plain objects: an observed state pickles and deep-copies, and the
    copies observe the same vectors."""
    s = CastleNightingale().new_state(3)
    for _ in range(30):
        for p in (NINJA, SAMURAI):
            s.observation(p)
        s.apply(int(s.legal_actions()[0]))
    for c in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        for p in (NINJA, SAMURAI):
            assert np.array_equal(c.observation(p), _reference_encode(s, p))
