"""The fast paths of the AEC environment change nothing a user can see.

* ``GameOrderEnforcingWrapper`` (what ``env()`` and ``pettingzoo.make`` return) behaves like
  PettingZoo's ``OrderEnforcingWrapper`` around the same env: the same observations, masks,
  rewards, terminations and agents at every step of seeded random games, and the same errors
  before ``reset``;
* ``GameAECEnv.step`` skips the reward bookkeeping when every reward is 0 and stays 0: the rewards
  and cumulative rewards equal those of the full bookkeeping (forced by a zero reward shaping) at
  every step.
"""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import boardgames_rl  # noqa: F401  (registers the envs)
from boardgames_rl.envs.aec import GameAECEnv, GameOrderEnforcingWrapper
from boardgames_rl.envs.pettingzoo import make_raw_env

CONFIGS = [
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"num_players": 4}),
    ("night_of_the_ninja", {"num_players": 11}),
    ("castle_flutterstone", {"num_players": 2}),
    ("white_castle", {"num_players": 2}),
]


def _trajectory(env, seed: int, steps: int) -> list:
    """Everything the loop sees, step by step, over ``steps`` steps (several games)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    out = []
    while len(out) < steps:
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            out.append(
                (
                    agent,
                    obs["observation"].tobytes(),
                    obs["action_mask"].tobytes(),
                    obs["action_mask"].dtype.str,
                    reward,
                    term,
                    trunc,
                    dict(env.rewards),
                    dict(env.terminations),
                    dict(env.truncations),
                    list(env.agents),
                )
            )
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(legal[rng.integers(len(legal))]))
            if len(out) >= steps:
                break
        else:
            env.reset()
    return out


@pytest.mark.parametrize("name,config", CONFIGS, ids=[f"{n}{c}" for n, c in CONFIGS])
def test_wrapper_equals_pettingzoo_order_enforcing(name, config):
    """What ``pettingzoo.make`` returns sees exactly what ``OrderEnforcingWrapper`` sees."""
    made = pettingzoo.make("aec", f"boardgames_rl/{name}-v0", **config)
    assert isinstance(made, GameOrderEnforcingWrapper)
    assert isinstance(made, OrderEnforcingWrapper)
    reference = OrderEnforcingWrapper(make_raw_env(name, **config))
    assert str(made) == str(reference)
    assert _trajectory(made, 3, 1500) == _trajectory(reference, 3, 1500)


def test_wrapper_refuses_use_before_reset_like_pettingzoo():
    """``OrderEnforcingWrapper``: "AttributeError if any of the following are accessed before
    reset(): rewards, terminations, truncations, infos, agent_selection, num_agents, agents";
    an error if step, observe or agent_iter is called before reset."""
    made = pettingzoo.make("aec", "boardgames_rl/night_of_the_ninja-v0")
    reference = OrderEnforcingWrapper(make_raw_env("night_of_the_ninja"))
    for name in (
        "rewards",
        "terminations",
        "truncations",
        "infos",
        "agent_selection",
        "num_agents",
        "agents",
    ):
        for env in (made, reference):
            with pytest.raises(AttributeError, match="before reset"):
                getattr(env, name)
    for call in (
        lambda e: e.step(0),
        lambda e: e.observe("player_0"),
        lambda e: e.agent_iter(),
        lambda e: e.last(),
    ):
        errors = []
        for env in (made, reference):
            with pytest.raises(Exception) as info:
                call(env)
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1]


def test_step_after_game_over_warns_like_pettingzoo(caplog):
    """ "A warning if step() is called when there are no agents remaining"."""
    for env in (
        pettingzoo.make("aec", "boardgames_rl/night_of_the_ninja-v0", mode="round"),
        OrderEnforcingWrapper(make_raw_env("night_of_the_ninja", mode="round")),
    ):
        rng = np.random.default_rng(0)
        env.reset(seed=0)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(legal[rng.integers(len(legal))]))
        assert env.agents == []
        caplog.clear()
        env.step(None)
        assert "step() called after all agents are terminated or truncated" in caplog.text


@pytest.mark.parametrize("name,config", CONFIGS[:3], ids=[f"{n}{c}" for n, c in CONFIGS[:3]])
def test_zero_reward_fast_path_equals_full_bookkeeping(name, config):
    """Rewards are "the final returns of the game, given on the step that ends it" (aec.py): the
    step that skips the bookkeeping while every reward is 0 gives the rewards of the full one."""
    fast = make_raw_env(name, **config)
    n = fast.game.num_players
    full = GameAECEnv(fast.game, reward_shaping=lambda before, after: np.zeros(n))
    a, b = _trajectory(fast, 5, 2500), _trajectory(full, 5, 2500)
    assert a == b
    assert any(r[4] != 0 for r in a)  # some game ended inside the window, with its rewards
