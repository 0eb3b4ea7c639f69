"""Issue 14.3: "opponents never build what they do not use (a random opponent needs only the mask;
an info set is built lazily)". core.agent: "An agent whose ``needs_info_set`` is False reads only
the public header of its info set ... and ``legal_action_mask``; :func:`agent_view` then gives it a
:class:`MaskInfoSet` ... The choice an agent makes is the same either way"."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.core.agent import MaskInfoSet, RandomAgent, agent_view
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.registry import make_game

CONFIGS = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"num_players": 5}),
    ("white_castle", {"num_players": 2}),
]


class InfoSetRandomAgent(RandomAgent):
    """The same choices, handed a full info set (how opponents were played before)."""

    needs_info_set = True


def _count_info_sets(monkeypatch, game) -> list[int]:
    calls = [0]
    cls = type(game.new_state(0))
    original = cls.info_set

    def counting(self, player):
        calls[0] += 1
        return original(self, player)

    monkeypatch.setattr(cls, "info_set", counting)
    return calls


def _play(env: SingleAgentEnv, steps: int) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=3)
    seen = [obs]
    for _ in range(steps):
        obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        seen += [obs, np.array([reward])]
        if term or trunc:
            seen.append(env.reset()[0])
    return seen


@pytest.mark.parametrize("name,config", CONFIGS, ids=[n for n, _ in CONFIGS])
def test_random_opponents_build_no_info_set_and_play_the_same_games(
    monkeypatch, name, config
) -> None:
    game = make_game(name, **config)
    calls = _count_info_sets(monkeypatch, game)
    lazy = _play(SingleAgentEnv(game, seat=0, opponents=RandomAgent()), 60)
    assert calls[0] == 0
    eager = _play(SingleAgentEnv(game, seat=0, opponents=InfoSetRandomAgent()), 60)
    assert calls[0] > 0  # the counter works: a full info set per opponent move
    assert len(lazy) == len(eager)
    for a, b in zip(lazy, eager, strict=True):
        np.testing.assert_array_equal(a, b)


def test_the_batched_env_builds_no_info_set_for_random_opponents(monkeypatch) -> None:
    game = make_game("night_of_the_ninja", num_players=5)
    calls = _count_info_sets(monkeypatch, game)
    venv = BatchedVecEnv(game, 4, seat="random", seed=0)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        masks = venv.action_masks()
        venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    venv.close()
    assert calls[0] == 0


def test_a_mask_info_set_holds_the_header_and_the_mask_and_refuses_the_rest() -> None:
    game = make_game("castle_flutterstone", num_players=2)
    state = game.new_state(0)
    p = state.current_player
    view = agent_view(RandomAgent(), state, p)
    assert isinstance(view, MaskInfoSet)
    assert view.game is game and view.player == p and view.current_player == p
    np.testing.assert_array_equal(view.legal_action_mask, state.info_set(p).legal_action_mask)
    np.testing.assert_array_equal(view.legal_actions(), np.flatnonzero(state.legal_action_mask()))
    other = agent_view(RandomAgent(), state, 1 - p)
    assert not other.legal_action_mask.any()  # not on move: all False, as InfoSet says
    for touch in (lambda: view.observation, view.fields, lambda: view.sample(None)):
        with pytest.raises(AttributeError, match="needs_info_set = True"):
            touch()
    full = agent_view(InfoSetRandomAgent(), state, p)
    assert not isinstance(full, MaskInfoSet)
    np.testing.assert_array_equal(full.observation, state.observation(p))
