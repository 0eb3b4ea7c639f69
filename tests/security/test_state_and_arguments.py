"""State dicts and Python arguments from elsewhere: one checked path, one-line refusals.

``boardgames_rl.load_state`` (the top-level export) is the checked loader that
``State.from_dict`` is: a mutated dict is refused when it is loaded, not by a crash later.
Counts are integers: ``VectorEnv(num_envs=1.5)``, ``num_envs=True`` and ``seat=True`` are refused
instead of being read as 1.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import boardgames_rl
from boardgames_rl.core.errors import InvalidConfigError, InvalidStateError
from boardgames_rl.envs.batched import BatchedVectorEnv
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.envs.vector import VectorEnv

# (game, config, field of the inner state, a value of the right type that breaks the rules)
MUTATIONS = [
    ("castle_nightingale", {}, "vase_where", [3, 6, 21, 39, 50, 74, 89, 10**6]),
    ("night_of_the_ninja", {"num_players": 5}, "house", [0, 0, 0, 0, 0]),
    ("white_castle", {"num_players": 2}, "turn_order", [0, 0]),
    ("castle_flutterstone", {"num_players": 2}, "positions", [0, 10**6]),
]


@pytest.mark.parametrize(("name", "config", "field", "value"), MUTATIONS)
def test_load_state_checks_what_from_dict_checks(name, config, field, value):
    state = boardgames_rl.make_game(name, **config).new_state(3)
    d = json.loads(json.dumps(state.to_dict()))
    assert boardgames_rl.load_state(d).to_dict() == d  # a true dict loads as it was
    bad = copy.deepcopy(d)
    assert field in bad["state"]
    bad["state"][field] = value
    for loader in (boardgames_rl.load_state, boardgames_rl.State.from_dict):
        with pytest.raises(InvalidStateError) as info:
            loader(bad)
        assert "\n" not in str(info.value)


def test_load_state_refuses_what_is_not_a_state_dict():
    for d in ([1], {"game": "castle_nightingale"}, {"game": 3, "config": {}, "state": {}}):
        with pytest.raises(InvalidStateError):
            boardgames_rl.load_state(d)


GAME = "castle_nightingale"


@pytest.mark.parametrize("value", [1.5, True, False, "2", None, 2.0])
def test_vector_env_counts_are_integers(value):
    game = boardgames_rl.make_game(GAME)
    with pytest.raises(InvalidConfigError, match="num_envs must be an integer"):
        VectorEnv(game, num_envs=value)
    with pytest.raises(InvalidConfigError, match="num_envs must be an integer"):
        BatchedVectorEnv(game, num_envs=value)
    with pytest.raises(InvalidConfigError, match="num_workers must be an integer"):
        VectorEnv(game, num_envs=2, num_workers=value if value is not False else 0.5)


@pytest.mark.parametrize("seat", [True, False, 1.0, "1", None, -1, 2])
def test_single_agent_seat_is_an_integer_seat(seat):
    game = boardgames_rl.make_game(GAME)
    with pytest.raises(InvalidConfigError, match="seat must be an integer in"):
        SingleAgentEnv(game, seat=seat)
    with pytest.raises(InvalidConfigError, match="seat must be an integer in"):
        BatchedVectorEnv(game, num_envs=1, seat=seat)


def test_numpy_integers_are_integers():
    game = boardgames_rl.make_game(GAME)
    venv = VectorEnv(game, num_envs=np.int64(2), seed=0)
    assert venv.num_envs == 2 and type(venv.num_envs) is int
    assert SingleAgentEnv(game, seat=np.int32(1)).seat_option == 1
    assert SingleAgentEnv(game, seat="random").seat_option == "random"
