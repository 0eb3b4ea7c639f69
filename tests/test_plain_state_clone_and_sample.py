"""Cheaper ``clone`` and ``InfoSet.sample`` change no game (issue 14.1).

``core.plain_state`` now gives a clone a snapshot of its parent's chance generator (made into a
generator at the clone's first draw) and builds a sample directly (one copy of the knowledge, the
new generator seeded from ``rng`` at the first draw) instead of through a state dict. The contract
("``clone`` copies it, ``InfoSet.sample`` replaces it", core/game.py) must hold exactly as before:
a clone plays out exactly like its parent, and a sample equals the one the original path built
(``_reference_sample``, the code before the change) and plays out the same.
"""

from __future__ import annotations

import marshal

import numpy as np
import pytest
from random_play import random_play_states

from boardgames_rl.core.seeding import rng_to_state
from boardgames_rl.games.castle_nightingale import CastleNightingale
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.white_castle import WhiteCastleGame


def _reference_sample(info, rng):
    """``RedealtInfoSet.sample`` before the speed work."""
    d = marshal.loads(marshal.dumps(info.knowledge, 2))
    info.deal_hidden(d, info.player, rng)
    d["rng"] = rng_to_state(np.random.Generator(np.random.PCG64(int(rng.integers(2**63)))))
    return info._state_class.from_state_dict(info.game, d)


def _playout(state, seed: int, steps: int = 400) -> list:
    """The state dicts of a seeded random playout (the chance generator included)."""
    rng = np.random.default_rng(seed)
    out = [state.to_dict()]
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
        out.append(state.to_dict())
    return out


# Every game on core's PlainDataState / RedealtInfoSet whose clone and sample the change touched.
GAMES = [
    CastleNightingale(),
    CastleNightingale(side="B", random_layout=True),
    NightOfTheNinja(num_players=5),
    NightOfTheNinja(num_players=11),
]
IDS = ["nightingale-A", "nightingale-B-random", "ninja-5p", "ninja-11p"]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_clone_plays_out_like_its_parent(game):
    """ "``clone`` copies it": a clone (and a clone of a clone that never drew) draws what its
    parent draws."""
    for i, s in enumerate(random_play_states(game, 30, seed=1, first_game_seed=1, keep=0.05)):
        twin = s.clone().clone()
        assert twin.to_dict() == s.to_dict()
        assert _playout(twin, i) == _playout(s, i)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_sample_equals_the_original_sample(game):
    """ "``InfoSet.sample`` replaces it": the same sample, generator included, as before."""
    states = random_play_states(game, 30, seed=2, first_game_seed=2, keep=0.05)
    for i, s in enumerate(states):
        info = s.info_set(i % game.num_players)
        got = info.sample(np.random.default_rng(i))
        want = _reference_sample(info, np.random.default_rng(i))
        assert got.to_dict() == want.to_dict()
        assert np.array_equal(got.observation(info.player), info.observation)
        assert _playout(got, i) == _playout(want, i)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_known_state_is_the_knowledge_for_reading_only(game):
    """``known_state()`` has the knowledge's fields (a copy, as the info set was made), and a
    chance draw from it is refused in one line instead of drawing from some generator."""
    for i, s in enumerate(random_play_states(game, 10, seed=3, first_game_seed=3, keep=0.05)):
        info = s.info_set(i % game.num_players)
        known = info.known_state()
        assert {k: getattr(known, k) for k in known.FIELDS} == info.knowledge
        assert known is not info.known_state()  # a copy each time
        with pytest.raises(RuntimeError, match="no chance generator.*sample"):
            known.rng  # noqa: B018


def _mutable_ids(value, out: set) -> set:
    """The ids of every list and dict in plain data ``value`` (tuples walked through)."""
    if isinstance(value, (list, dict, tuple)):
        if not isinstance(value, tuple):
            out.add(id(value))
        for x in value.values() if isinstance(value, dict) else value:
            _mutable_ids(x, out)
    return out


@pytest.mark.parametrize(
    "game",
    [*GAMES, WhiteCastleGame(num_players=2), WhiteCastleGame(num_players=4)],
    ids=[*IDS, "white-castle-2p", "white-castle-4p"],
)
def test_a_sample_shares_nothing_mutable(game):
    """A sample's fields share no list or dict with its info set or with another sample, so
    playing one out changes neither: a second sample from the same generator is the first as
    it was dealt, and the knowledge is unchanged."""
    for i, s in enumerate(random_play_states(game, 10, seed=4, first_game_seed=4, keep=0.05)):
        info = s.info_set(i % game.num_players)
        knowledge = marshal.loads(marshal.dumps(info.knowledge, 2))
        first, second = (info.sample(np.random.default_rng(i)) for _ in range(2))
        ids = [set(), set()]
        for x, out in zip((first, second), ids, strict=True):
            for k in x.FIELDS:
                _mutable_ids(getattr(x, k), out)
        kept = _mutable_ids(info._template, _mutable_ids(info.knowledge, set()))
        assert not ids[0] & ids[1] and not ids[0] & kept and not ids[1] & kept
        dealt = second.to_dict()
        _playout(first, i)
        assert second.to_dict() == dealt
        assert info.knowledge == knowledge


def test_each_kind_of_plain_value_is_known():
    """How a sample copies each kind of value (``core.plain_state._copy_kind``): numbers,
    strings and None shared; flat lists, lists of flat lists and dicts of scalars and flat
    lists by a shallow copy each; anything nested deeper unpacked from marshal bytes."""
    from boardgames_rl.core import plain_state as ps

    values = [
        3, True, "x", None, 0.5,
        [1, 2], {"a": 1, "b": None}, [[1], [], [2, 3]],
        {"a": [1, 2], "b": None}, {"a": [1, [2]], "b": (3, [4])}, [[1, [2]]], [(1, 2)],
        [{"a": [1]}],
    ]  # fmt: skip
    kinds = [ps._copy_kind(v) for v in values]
    assert kinds == [ps._SHARED] * 5 + [ps._LIST, ps._DICT, ps._LISTS, ps._DICT] + [ps._NESTED] * 4
