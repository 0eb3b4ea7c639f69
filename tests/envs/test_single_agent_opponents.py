"""``SingleAgentEnv(game, seat=0, opponents="heuristic")``: a spec string stands for its agent."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl import make_agent, make_game
from boardgames_rl.core.errors import UnknownAgentError
from boardgames_rl.envs.single_agent import SingleAgentEnv


def _play(env: SingleAgentEnv, seed: int, steps: int = 400) -> list[tuple[int, float]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        action = int(legal[rng.integers(len(legal))])
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((action, float(reward)))
        if terminated or truncated:
            obs, info = env.reset()
    return out


@pytest.mark.parametrize(
    ("name", "config", "strings"),
    [
        ("castle_nightingale", {}, "heuristic"),
        ("castle_flutterstone", {"num_players": 3}, ["heuristic", "random"]),
    ],
)
def test_spec_strings_play_as_the_agents_they_name(name, config, strings):
    game = make_game(name, **config)
    agents = (
        make_agent(strings, game)
        if isinstance(strings, str)
        else [make_agent(s, game) for s in strings]
    )
    by_string = SingleAgentEnv(game, seat=0, opponents=strings)
    by_agent = SingleAgentEnv(game, seat=0, opponents=agents)
    assert _play(by_string, seed=5) == _play(by_agent, seed=5)


def test_a_bad_spec_fails_when_the_env_is_made():
    game = make_game("castle_nightingale")
    with pytest.raises(UnknownAgentError, match="known agents"):
        SingleAgentEnv(game, seat=0, opponents="heuristc")
    with pytest.raises(ValueError, match="one per other seat"):
        SingleAgentEnv(game, seat=0, opponents=["heuristic", "random"]).reset(seed=0)
