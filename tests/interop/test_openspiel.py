"""The OpenSpiel bridge, checked by OpenSpiel's own tools: ``pyspiel.random_sim_test`` on every
game, and OpenSpiel's ISMCTS bot (which needs ``resample_from_infostate``) beating uniform random
bots through ``pyspiel.evaluate_bots`` on every game."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

from open_spiel.python.algorithms import ismcts  # noqa: E402

from boardgames_rl.core.errors import InvalidConfigError  # noqa: E402
from boardgames_rl.interop import openspiel as bridge  # noqa: E402
from boardgames_rl.registry import list_games  # noqa: E402

bridge.register_games()

# (game, pyspiel parameters): every game, and the extremes of the player counts that vary.
CASES = [
    ("castle_flutterstone", {"players": 2}),
    ("castle_flutterstone", {"players": 4}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"players": 4}),
    ("night_of_the_ninja", {"players": 11}),
    ("white_castle", {"players": 2}),
    ("white_castle", {"players": 4}),
]


def _load(name: str, params: dict) -> object:
    return pyspiel.load_game(bridge.openspiel_name(name), params)


def test_every_registered_game_is_a_pyspiel_game() -> None:
    names = bridge.register_games()
    assert names == [bridge.PREFIX + n for n in list_games()]
    registered = set(pyspiel.registered_names())
    for name in names:
        assert name in registered
        game_type = pyspiel.load_game(name).get_type()
        assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


@pytest.mark.parametrize(("name", "params"), CASES, ids=lambda c: str(c))
def test_openspiel_random_simulation_test(name: str, params: dict) -> None:
    """OpenSpiel's own consistency checks over random games (legal actions, clones, strings,
    tensors, returns)."""
    pyspiel.random_sim_test(_load(name, params), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "params"), CASES, ids=lambda c: str(c))
def test_states_expose_our_contract(name: str, params: dict) -> None:
    game = _load(name, params)
    ours = game.bg_game
    assert game.num_players() == ours.num_players
    assert game.num_distinct_actions() == ours.num_actions
    assert game.observation_tensor_shape() == [ours.observation_spec.size]
    state, rng = game.new_initial_state(), np.random.default_rng(1)
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        bg = state.bg_state
        assert state.legal_actions() == np.flatnonzero(bg.legal_action_mask()).tolist()
        for seat in range(ours.num_players):
            np.testing.assert_array_equal(
                np.asarray(state.observation_tensor(seat), np.float32), bg.observation(seat)
            )
        # A resampled state is consistent with everything the player knows.
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
        assert sample.current_player() == player
        assert sample.legal_actions() == state.legal_actions()
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_same_seed_parameter_same_games() -> None:
    a, b = (_load("white_castle", {"seed": 5}) for _ in range(2))
    for _ in range(2):
        sa, sb = a.new_initial_state(), b.new_initial_state()
        assert str(sa) == str(sb)
        np.testing.assert_array_equal(sa.bg_state.state_vector(), sb.bg_state.state_vector())
    other = _load("white_castle", {"seed": 6}).new_initial_state()
    assert str(other) != str(a.new_initial_state())


def test_config_parameter_configures_the_game_and_bad_ones_say_what_to_do() -> None:
    game = _load("castle_flutterstone", {"config": json.dumps({"pesky_ghosts": True})})
    assert game.bg_game.config["pesky_ghosts"] is True
    with pytest.raises(InvalidConfigError, match="JSON object string"):
        _load("castle_flutterstone", {"config": "{not json"})
    with pytest.raises(InvalidConfigError, match="2-player game"):
        _load("castle_nightingale", {"players": 3})
    with pytest.raises(InvalidConfigError, match="num_players"):
        _load("night_of_the_ninja", {"players": 12})


# (game, players, extra config, games in the series, ISMCTS simulations, random rollout steps
# before the game's value hook). OpenSpiel's ISMCTS tries every legal action of a node once before
# it exploits, so Castle Flutterstone plays on a coarse aim grid (9 flicks instead of 605) that 20
# simulations can cover. Night of the Ninja plays single rounds (mode "round"): full
# rollouts to the round's end are affordable there, and a round is the unit its luck averages over.
# Castle Nightingale plays one game (about 40 CPU s: long games, 80 simulations a move): its bot
# must win it as the ninja where a random bot in the same seat and seed does not.
SERIES = [
    ("castle_flutterstone", 2, {"yaws": [0.0], "aim_levels": 3, "force_levels": 3}, 4, 20, 10),
    ("castle_nightingale", 2, {}, 1, 80, 10),
    ("night_of_the_ninja", 4, {"mode": "round"}, 12, 30, 1000),
    ("white_castle", 2, {}, 4, 20, 10),
]


def _series(
    name: str, players: int, config: dict, games: int, sims: int, steps: int, search: bool
) -> int:
    """Games won by the rotated seat of a seeded series (ISMCTS there, or a random bot)."""
    game = _load(name, {"seed": 11, "players": players, "config": json.dumps(config)})
    wins = 0
    for i in range(games):
        seat = i % players
        bots = [pyspiel.make_uniform_random_bot(p, 1000 + 10 * i + p) for p in range(players)]
        if search:
            bots[seat] = ismcts.ISMCTSBot(
                game,
                bridge.ValueEvaluator(rollout_steps=steps, seed=100 + i),
                2.0,
                sims,
                random_state=np.random.RandomState(7 + i),
                allow_inconsistent_action_sets=True,
            )
            bots[seat].set_resampler(bridge.seeded_resampler(300 + i))
        returns = pyspiel.evaluate_bots(game.initial_state(500 + i), bots, i)
        wins += returns[seat] > 0
    return wins


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "config", "games", "sims", "steps"), SERIES)
def test_openspiel_ismcts_bot_beats_random(
    name: str, players: int, config: dict, games: int, sims: int, steps: int
) -> None:
    """OpenSpiel's ISMCTSBot (it samples worlds with ``resample_from_infostate``) in a seeded
    series, seats rotated: it wins more games than a random bot in the same seats and seeds,
    and more than half of them."""
    searched = _series(name, players, config, games, sims, steps, search=True)
    baseline = _series(name, players, config, games, sims, steps, search=False)
    assert searched > baseline, (searched, baseline)
    assert searched > games / 2, (searched, games)
