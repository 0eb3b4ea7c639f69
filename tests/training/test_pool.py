"""OpponentPool: weights, cap, seeded sampling, per-seat instances, frozen snapshots."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from boardgames_rl.agents.ppo import policy_from_weights
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.envs.policy_obs import policy_obs_size
from boardgames_rl.registry import make_game
from boardgames_rl.training.network import ActorCritic
from boardgames_rl.training.pool import OpponentPool

GAME = make_game("castle_flutterstone", num_players=2)


def _live_policy() -> torch.nn.Module:
    """A learner's policy as a live, trainable network (what a pool snapshot copies)."""
    torch.manual_seed(0)
    net = ActorCritic(policy_obs_size(GAME), GAME.num_actions, [16])
    return policy_from_weights(net.state_dict(), "a test network", game=GAME)


@pytest.fixture(scope="module")
def policy() -> torch.nn.Module:
    return _live_policy()


def test_probabilities_follow_weights_and_snapshots_share_self_weight(policy) -> None:
    pool = OpponentPool({"a": RandomAgent, "b": RandomAgent}, {"a": 3, "b": 1}, self_weight=4)
    with pytest.raises(RuntimeError, match="no snapshot"):
        OpponentPool({"a": RandomAgent}, {"a": 0}, self_weight=1).probabilities()
    assert pool.probabilities() == {"a": 0.75, "b": 0.25}  # no snapshot yet: self has no mass
    pool.add_snapshot("s1", policy)
    pool.add_snapshot("s2", policy)
    assert pool.probabilities() == pytest.approx({"a": 0.375, "b": 0.125, "s1": 0.25, "s2": 0.25})
    rng = np.random.default_rng(0)
    draws = [name for _ in range(4000) for name in pool.sample_names(rng)]
    for name, p in pool.probabilities().items():
        assert abs(draws.count(name) / len(draws) - p) < 0.03, name


def test_snapshot_cap_drops_the_oldest_and_names_are_idempotent(policy) -> None:
    pool = OpponentPool({"random": RandomAgent}, self_weight=1, max_snapshots=2)
    assert pool.add_snapshot("s1", policy)
    assert not pool.add_snapshot("s1", policy)  # same name: nothing added
    pool.add_snapshot("s2", policy)
    pool.add_snapshot("s3", policy)
    assert pool.snapshot_names == ["s2", "s3"]
    assert not pool.add_snapshot("s1", policy)  # dropped names are not re-added


def test_sampling_is_reproducible_from_the_rng(policy) -> None:
    pool = OpponentPool({"a": RandomAgent, "b": RandomAgent}, self_weight=1, num_opponents=4)
    pool.add_snapshot("s", policy)
    first = [pool.sample_names(np.random.default_rng(7)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rng = np.random.default_rng(7)
    assert [pool.sample_names(rng) for _ in range(20)] != [first[0]] * 20


def test_each_opponent_seat_gets_its_own_instance() -> None:
    pool = OpponentPool({"a": RandomAgent}, num_opponents=4)
    agents = pool(np.random.default_rng(0))
    assert isinstance(agents, list) and len(agents) == 4
    assert len({id(a) for a in agents}) == 4
    two = OpponentPool({"a": RandomAgent}, num_opponents=1)
    assert isinstance(two(np.random.default_rng(0)), RandomAgent)


def test_snapshots_are_frozen() -> None:
    live = _live_policy()
    pool = OpponentPool({"random": RandomAgent}, self_weight=1)
    pool.add_snapshot("s0", live)
    frozen = pool.snapshot("s0").policy
    before = {k: v.clone() for k, v in live.state_dict().items()}
    optimizer = torch.optim.Adam(live.parameters(), lr=1e-2)
    obs = torch.rand(32, policy_obs_size(GAME))
    for _ in range(3):  # gradient steps on the live policy (its own loss: values and log-probs)
        _, values, log_prob = live(obs)
        loss = values.pow(2).mean() - log_prob.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    now = live.state_dict()
    assert any(not torch.equal(before[k], now[k]) for k in before)  # training changed the learner
    assert all(torch.equal(before[k], v) for k, v in frozen.state_dict().items())
    assert not any(p.requires_grad for p in frozen.parameters())


def test_bad_pool_specs_are_rejected() -> None:
    game = make_game("castle_flutterstone", num_players=2)
    with pytest.raises(InvalidConfigError, match="one weight per opponent"):
        OpponentPool.from_specs(game, ["random", "self"], [1.0])
    with pytest.raises(InvalidConfigError, match="unknown agent"):
        OpponentPool.from_specs(game, ["nobody"])
    with pytest.raises(InvalidConfigError, match="distinct"):
        OpponentPool.from_specs(game, ["random", "random"])
    with pytest.raises(InvalidConfigError, match=">= 0"):
        OpponentPool.from_specs(game, ["random", "self"], [1.0, -1.0])
    pool = OpponentPool.from_specs(game, ["random", "heuristic", "self"], [2, 1, 1])
    assert pool.probabilities() == pytest.approx({"random": 2 / 3, "heuristic": 1 / 3})
    assert pool.self_weight == 1 and pool.num_opponents == 1
