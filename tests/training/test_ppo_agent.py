"""PPOAgent: loading (cached), deterministic and seeded stochastic play, clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.agents.ppo import PPOAgent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.envs.policy_obs import policy_obs_size, seat_in_observation
from boardgames_rl.registry import make_game

GAME = make_game("castle_flutterstone", num_players=2)


def _info_sets(n: int = 12) -> list:
    """Info sets of the player on move along a seeded random game."""
    state, rng, out = GAME.new_state(11), np.random.default_rng(0), []
    while not state.is_terminal() and len(out) < n:
        out.append(state.info_set(state.current_player))
        state.apply(int(rng.choice(state.legal_actions())))
    return out


def test_deterministic_mode_is_deterministic_and_legal(flutter_run: Path) -> None:
    agent = make_agent(f"ppo:path={flutter_run / 'model.zip'}", GAME)
    for info in _info_sets():
        actions = {agent.act(info, np.random.default_rng(s)) for s in range(5)}
        assert len(actions) == 1
        a = actions.pop()
        assert info.legal_action_mask[a]
        assert a == int(np.argmax(agent.action_probabilities(info)))


def test_stochastic_mode_draws_with_the_rng(flutter_run: Path) -> None:
    agent = PPOAgent(flutter_run, deterministic=False)  # the run folder works too
    info = max(_info_sets(), key=lambda i: i.legal_action_mask.sum())
    probs = agent.action_probabilities(info)
    assert probs[~info.legal_action_mask].sum() == 0 and probs.sum() == pytest.approx(1)
    first = [agent.act(info, np.random.default_rng(3)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rng = np.random.default_rng(4)
    draws = np.bincount([agent.act(info, rng) for _ in range(3000)], minlength=len(probs))
    assert np.abs(draws / 3000 - probs).max() < 0.04
    assert (draws > 0).sum() > 1  # an untrained-ish policy is not deterministic


def test_models_are_cached_per_file(flutter_run: Path) -> None:
    a = PPOAgent(flutter_run / "model.zip")
    b = make_agent(f"ppo:path={flutter_run / 'model.zip'},deterministic=false", GAME)
    assert a.policy is b.policy and b.deterministic is False


def test_clear_errors(tmp_path: Path, flutter_run: Path) -> None:
    with pytest.raises(InvalidConfigError, match="no PPO model"):
        make_agent(f"ppo:path={tmp_path / 'missing.zip'}", GAME)
    with pytest.raises(InvalidConfigError, match="needs a model"):
        make_agent("ppo", GAME)
    other = make_game("castle_flutterstone", num_players=3)
    with pytest.raises(InvalidConfigError, match="does not fit"):
        make_agent(f"ppo:path={flutter_run / 'model.zip'}", other)
    agent = PPOAgent(flutter_run / "model.zip")  # no game given: checked at the first act
    state = other.new_state(0)
    with pytest.raises(InvalidConfigError, match="does not fit"):
        agent.act(state.info_set(state.current_player), np.random.default_rng(0))


def test_seat_feature_only_where_the_view_hides_the_seat() -> None:
    night = make_game("castle_nightingale")
    assert seat_in_observation(night) and policy_obs_size(night) == night.observation_spec.size
    assert not seat_in_observation(GAME)
    assert policy_obs_size(GAME) == GAME.observation_spec.size + 2
