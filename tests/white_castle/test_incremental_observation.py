"""The incremental White Castle observation encoder is bit-identical to the previous one.

``previous_encoder.py`` is the encoder before the incremental rewrite (issue 14.1), which wrote
every field on every call. Over seeded random play at 2, 3 and 4 players (and the literal Well
reading), every seat's observation in a shuffled order, repeated observations, clones,
``state_from_dict`` copies, sampled information-set states and hand edits followed by dropping the
mask must give exactly the previous encoder's vector.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.testing.observations import assert_same_observation

from .previous_encoder import encode as previous_encode

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "well_one_pays_tiles": True},
]


def _same(s, p: int) -> None:
    assert_same_observation(s, p, previous_encode(s, p))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{v}" for v in c.values()))
def test_incremental_encoder_equals_the_previous_one_in_random_play(config):
    game = WhiteCastle(**config)
    n = game.num_players
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = game.new_state(seed)
        step = 0
        while not s.is_terminal():
            seats = [s.current_player] + [int(p) for p in rng.permutation(n)]
            for p in seats:
                _same(s, p)
            if step % 5 == 0:
                c = s.clone()
                _same(c, s.current_player)
                c.apply(int(c.legal_actions()[0]))
                _same(s, s.current_player)  # the original's cache is not the clone's
                if not c.is_terminal():
                    _same(c, c.current_player)
            if step % 11 == 0:
                _same(game.state_from_dict(s.to_dict()), int(rng.integers(n)))
                p = int(rng.integers(n))
                _same(s.info_set(p).sample(rng), p)
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
            step += 1
        for p in range(n):
            _same(s, p)


def test_hand_edits_then_dropping_the_mask_are_seen():
    """Every block follows the state: editing any field and dropping the mask (as scenario tests
    do) gives the previous encoder's vector of the edited state."""
    game = WhiteCastle(num_players=3)
    rng = np.random.default_rng(7)
    s = game.new_state(7)
    for step in range(400):
        if s.is_terminal():
            s = game.new_state(step)
        for p in range(3):
            s.observation(p)  # fill every seat's cache
        k = step % 6
        if k == 0:
            s.rooms[0] = None if s.rooms[0] else "S1"
            s.players[1]["lantern"].append("D1")
        elif k == 1:
            s.bridges[step % 3].append(6)
        elif k == 2:
            s.spaces[step % 8].append([3, step % 3, step % 3])
        elif k == 3:
            s.players[step % 3]["coin"] += 2
            s.domain_dice[step % 3][1] = 4
        elif k == 4:
            s.stack.append({"p": step % 3, "effs": [["g", "food", 1], ["pot", 2]], "mode": "any"})
        else:
            s.yard_warriors[2].append(0)
            s.turn_order.reverse()
        s._mask = None
        for p in range(3):
            _same(s, p)
        s = game.state_from_dict(s.to_dict()) if step % 2 else s
        if s.stack and k == 4:
            s.stack.pop()
            s._mask = None
        legal = s.legal_actions()
        if len(legal):
            s.apply(int(legal[rng.integers(len(legal))]))


def test_states_with_kept_views_pickle_and_deepcopy():
    """The kept views hold no memoryview: a state observed many times still pickles and
    deep-copies, and its copies observe the same vectors."""
    import copy
    import pickle

    s = WhiteCastle(num_players=3).new_state(3)
    for _ in range(30):
        for p in range(3):
            s.observation(p)
        s.apply(int(s.legal_actions()[0]))
    for c in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        for p in range(3):
            assert np.array_equal(c.observation(p), previous_encode(s, p))
