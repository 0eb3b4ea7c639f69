"""The White Castle encoder rewrites only the blocks the rules code marked as changed, and gives
the previous encoder's vectors bit for bit (issue 14.1).

The rules code marks each observation block it changes next to the change
(``state._dirty |= CHANGED_...``); each seat's kept vector is rewritten only where a mark was
set since that seat last observed. A missing mark would leave a stale block in some seat's
vector, so these tests play many seeded random games at 2, 3 and 4 players (and the literal Well
reading) observing the way environments do -- the seat on move at every step, other seats now
and then (their vectors go stale for many steps, then catch up), every seat after the end --
and compare every vector with ``previous_encoder`` (the encoder before the incremental rewrite,
which wrote every field from the state) and with a fresh copy's first observation.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle import observation as O
from boardgames_rl.testing.observations import assert_same_observation

from .previous_encoder import encode as previous_encode

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "well_one_pays_tiles": True},
]


def _check(s, p: int) -> None:
    assert_same_observation(s, p, previous_encode(s, p))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{v}" for v in c.values()))
def test_marked_blocks_give_the_previous_vectors_in_env_like_play(config):
    """The seat on move observes at every step (as the AEC env does); another seat now and then;
    every seat after the game ends: every vector equals the previous encoder's."""
    game = WhiteCastle(**config)
    n = game.num_players
    for seed in range(60):
        rng = np.random.default_rng(1000 + seed)
        s = game.new_state(1000 + seed)
        while not s.is_terminal():
            _check(s, s.current_player)
            if rng.random() < 0.15:
                _check(s, int(rng.integers(n)))
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        for p in rng.permutation(n):
            _check(s, int(p))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seats_observing_rarely_catch_up(n):
    """Each seat observes every k-th step only (k differs per seat), so changes pile up in its
    kept vector for many steps: its vector equals the previous encoder's and a fresh copy's."""
    game = WhiteCastle(num_players=n)
    for seed in range(8):
        rng = np.random.default_rng(seed)
        s = game.new_state(seed)
        step = 0
        while not s.is_terminal():
            for p in range(n):
                if step % (3 + 4 * p) == 0:
                    _check(s, p)
                    assert np.array_equal(s.observation(p), s.clone().observation(p))
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
            step += 1
        for p in range(n):
            _check(s, p)


def test_clones_and_copies_keep_their_own_marks():
    """A clone, a ``state_from_dict`` copy and an unpickled state played on from a state with
    kept vectors give the previous encoder's vectors, and so does the original."""
    game = WhiteCastle(num_players=3)
    rng = np.random.default_rng(5)
    s = game.new_state(5)
    for step in range(400):
        if s.is_terminal():
            break
        for p in range(3):
            _check(s, p)
        if step % 9 == 0:
            copies = [s.clone(), game.state_from_dict(s.to_dict()), pickle.loads(pickle.dumps(s))]
            for c in copies:
                for _ in range(5):
                    if c.is_terminal():
                        break
                    c.apply(int(c.legal_actions()[-1]))
                    for p in range(3):  # every seat (the game may have just ended)
                        _check(c, p)
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))


def test_an_edit_outside_the_rules_rewrites_everything():
    """An edit the rules code did not make, followed by dropping the mask (``_mask = None``),
    lists the options without marks and so marks every block (``CHANGED_ANY``): the next
    observation of every seat is written from the state."""
    game = WhiteCastle(num_players=2)
    s = game.new_state(8)
    for p in (0, 1, 0, 1):
        s.observation(p)
    s.players[1]["coin"] += 3
    s.bridges[0].insert(0, 1)
    s.turn_order.reverse()
    s._mask = None
    s.options()
    assert s._dirty & O.CHANGED_ANY
    for p in (0, 1):
        _check(s, p)


def test_a_rules_step_marks_only_what_it_changed():
    """Taking a die from a bridge marks the bridges (and leaves the castle's cards, gardens,
    yards and turn order unmarked): the encoder has less to rewrite, not more."""
    game = WhiteCastle(num_players=2)
    s = game.new_state(3)
    while s.decision["kind"] != "die":
        s.apply(int(s.legal_actions()[0]))
    s.observation(s.current_player)
    s._dirty = 0
    s.apply(0)
    assert s.decision["kind"] == "place"
    assert s._dirty & O.CHANGED_BRIDGES
    untouched = (
        O.CHANGED_ROOMS,
        O.CHANGED_GARDENS,
        O.CHANGED_YARDS,
        O.CHANGED_TURN_ORDER,
        O.CHANGED_ANY,
    )
    assert not any(s._dirty & bit for bit in untouched)
    s.options()  # listed after a rules step: no mark added
    assert not s._dirty & O.CHANGED_ANY


def test_the_three_bridges_drawn_at_once_are_the_dice_of_three_draws():
    """Rulebook: each round starts by rolling the dice onto the bridges (n + 1 per bridge). One
    numpy call for all three bridges gives exactly the dice, and leaves exactly the generator
    state, of one call per bridge (so seeded games are unchanged)."""
    for n in (2, 3, 4):
        game = WhiteCastle(num_players=n)
        for seed in range(50):
            s = game.new_state(seed)
            before = s.rng.bit_generator.state
            s._roll()
            rng = np.random.Generator(np.random.PCG64(0))
            rng.bit_generator.state = before
            k = n + 1
            want = [sorted(int(v) for v in rng.integers(1, 7, size=k)) for _ in range(3)]
            assert s.bridges == want
            assert s.rng.bit_generator.state == rng.bit_generator.state
