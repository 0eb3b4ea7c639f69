"""The rollout-improvement agent: legal, deterministic given its seed, blind to what its info set
hides, the base agent's move on ties, better than its base where one step of lookahead shows it,
and clear spec errors."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.agents.playout import agent_policy
from boardgames_rl.arena import play_series
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.registry import list_games, make_game
from tests.agents.test_ismcts import PACKAGED, _decisions


@pytest.mark.parametrize("name", PACKAGED)
def test_legal_deterministic_and_blind(name):
    """Same seed, same action; the same action on another true state with the same info set;
    the true state untouched."""
    game = make_game(name)
    agent = make_agent("rollout:base=random,worlds=2,depth=12", game)
    for i, state in enumerate(_decisions(game, 2, first_seed=20)):
        p = state.current_player
        before = state.to_dict()
        other = state.info_set(p).sample(np.random.default_rng(500 + i))
        assert other.to_dict() != state.to_dict()
        a1 = agent.act(state.info_set(p), np.random.default_rng(i))
        a2 = agent.act(state.info_set(p), np.random.default_rng(i))
        b = agent.act(other.info_set(p), np.random.default_rng(i))
        assert a1 == a2 == b and state.info_set(p).legal_action_mask[a1]
        assert state.to_dict() == before


def test_every_legal_action_is_valued_and_the_best_is_played():
    game = make_game("white_castle", num_players=2)
    state = _decisions(game, 1, first_seed=4)[0]
    info = state.info_set(state.current_player)
    agent = make_agent("rollout:base=random,worlds=3", game)
    action = agent.act(info, np.random.default_rng(0))
    legal = set(np.flatnonzero(info.legal_action_mask).tolist())
    assert set(agent.last_values) == legal
    assert agent.last_values[action] == max(agent.last_values.values())


def test_the_base_move_is_kept_within_the_margin():
    """With a margin wider than any difference of values (returns lie in [-1, 1]), the agent
    plays exactly what its base plays."""
    game = make_game("castle_flutterstone")
    heuristic = make_agent("heuristic", game)
    agent = make_agent("rollout:worlds=2,depth=3,margin=2.5", game)
    for i, state in enumerate(_decisions(game, 3)):
        info = state.info_set(state.current_player)
        wanted = heuristic.act(info, np.random.default_rng(i))
        assert agent.act(info, np.random.default_rng(i)) == wanted


def test_rollouts_improve_on_a_random_base():
    """One step of lookahead over random play, cut off and scored by the game's ``evaluate``,
    beats random play (The White Castle, 2 players, a seeded series: at least 9 of 10)."""
    game = make_game("white_castle", num_players=2)
    spec = "rollout:base=random,worlds=1,depth=10"
    result = play_series(game, [spec, "random"], 10, progress=False)
    assert result.wins(0) >= 9


def test_base_with_act_on_state_is_asked_through_it():
    """Night of the Ninja's heuristic moves in playouts through ``act_on_state`` (no info set per
    playout move)."""
    game = make_game("night_of_the_ninja", num_players=4)
    base = make_agent("heuristic", game)
    assert agent_policy(base) == base.act_on_state
    assert agent_policy(RandomAgent()) != base.act_on_state


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("rollout:worlds=0", "worlds"),
        ("rollout:worlds=two", "worlds"),
        ("rollout:depth=-1", "depth"),
        ("rollout:margin=-0.1", "margin"),
        ("rollout:wrolds=3", "unknown option"),
        ("rollout:base=nobody", "unknown agent"),
    ],
)
def test_spec_errors_are_clear(spec, words):
    with pytest.raises(InvalidConfigError, match=words):
        make_agent(spec, make_game("castle_flutterstone"))


def test_listed_for_every_game():
    from boardgames_rl.agents.registry import list_agents

    for name in list_games():
        assert "rollout" in list_agents(make_game(name))
