"""Issue 13: "the default SingleAgentEnv passes gymnasium's check_env for every game" (only
``illegal_action="lose"`` passed: ``check_env`` steps with an action sampled before its reset, which
the old default ``"raise"`` refused when it was illegal in the new game)."""

from __future__ import annotations

import warnings

import pytest
from gymnasium.utils.env_checker import check_env

from boardgames_rl.core.errors import IllegalActionError
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.registry import make_game

CONFIGS = [
    ("castle_flutterstone", {}),
    ("castle_flutterstone", {"num_players": 3}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {}),
    ("night_of_the_ninja", {"num_players": 4}),
    ("white_castle", {}),
    ("white_castle", {"num_players": 3}),
]


@pytest.mark.parametrize("name,config", CONFIGS, ids=[f"{n}{c}" for n, c in CONFIGS])
def test_default_single_agent_env_passes_check_env(name: str, config: dict) -> None:
    game = make_game(name, **config)
    for seat in (0, "random"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(SingleAgentEnv(game, seat=seat), skip_render_check=True)


def test_raise_mode_still_raises() -> None:
    env = SingleAgentEnv(make_game("castle_flutterstone"), seat=0, illegal_action="raise")
    env.reset(seed=0)
    illegal = int((~env.action_masks()).nonzero()[0][0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    env = SingleAgentEnv(make_game("castle_flutterstone"), seat=0)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
