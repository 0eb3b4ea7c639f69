"""The White Castle heuristic: legal play at 2-4 players and a clear win rate against random."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.agents.random_agent import RandomAgent
from boardgames_rl.arena import play_series
from boardgames_rl.core import make_game
from boardgames_rl.games.white_castle.heuristic import WhiteCastleHeuristic


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_heuristic_plays_legal_actions(num_players):
    game = make_game("white_castle", num_players=num_players)
    agent = WhiteCastleHeuristic()
    for seed in range(2):
        rng = np.random.default_rng(seed)
        state = game.new_state(seed)
        others = RandomAgent()
        while not state.is_terminal():
            p = state.current_player
            info = state.info_set(p)
            if p % 2 == 0:
                action = agent.act(info, rng)
                assert info.legal_action_mask[action]
            else:
                action = others.act(info, rng)
            state.apply(action)
        assert sorted(state.returns().tolist()).count(1.0) == 1


def test_heuristic_is_registered_agent():
    from boardgames_rl.agents.registry import make_agent

    agent = make_agent("heuristic", make_game("white_castle", num_players=2))
    assert isinstance(agent, WhiteCastleHeuristic)


def test_heuristic_beats_random():
    games = 500
    result = play_series(
        make_game("white_castle", num_players=2), ["heuristic", "random"], games, progress=False
    )
    rate, low, high = result.win_rate(0)
    print(f"heuristic vs random: {rate:.3f} (95% CI {low:.3f}-{high:.3f}) over {games} games")
    assert rate >= 0.9
