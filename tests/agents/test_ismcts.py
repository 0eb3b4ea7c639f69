"""ISMCTS: legal, deterministic given its seed, and blind to everything its info set hides."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.agents.ismcts import ISMCTSAgent
from boardgames_rl.core import make_game


def _random_state(game, seed: int, depth: int):
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(depth):
        if state.is_terminal():
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name", ["castle_flutterstone", "castle_nightingale"])
def test_legal_and_deterministic(name):
    game = make_game(name)
    agent = ISMCTSAgent(iterations=20, rollout_depth=40)
    for seed in range(3):
        state = _random_state(game, seed, 15 + 7 * seed)
        if state.is_terminal():
            continue
        info = state.info_set(state.current_player)
        a1 = agent.act(info, np.random.default_rng(seed))
        a2 = agent.act(info, np.random.default_rng(seed))
        assert a1 == a2 and info.legal_action_mask[a1]


def test_never_peeks_at_the_true_state():
    """Two different true states with the same information set: same seed, same action."""
    game = make_game("castle_nightingale")
    agent = ISMCTSAgent(iterations=25, rollout_depth=30)
    checked = 0
    for seed in range(12):
        state = _random_state(game, seed, 40 + seed)
        if state.is_terminal():
            continue
        p = state.current_player
        other = state.info_set(p).sample(np.random.default_rng(100 + seed))
        assert other.to_dict() != state.to_dict()  # a different true state ...
        info_a, info_b = state.info_set(p), other.info_set(p)
        assert np.array_equal(info_a.observation, info_b.observation)  # ... same information
        a = agent.act(info_a, np.random.default_rng(seed))
        b = agent.act(info_b, np.random.default_rng(seed))
        assert a == b
        checked += 1
    assert checked >= 8


def test_spec_string_and_budget_errors():
    game = make_game("castle_flutterstone")
    agent = make_agent("ismcts:iterations=10,rollout=heuristic", game)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 10
    with pytest.raises(ValueError):
        ISMCTSAgent(iterations=0)
