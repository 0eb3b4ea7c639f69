"""Issue 41.2: "One seeding rule (the one the AEC env uses: slot i of a vector env seeded s plays
the game an AEC env plays after ``reset`` with the i-th seed of the same stream)". The AEC env
reset with ``(s, i)`` starts the seed stream ``seed_stream((s, i))`` and plays its games in turn
(``core/seeding.py``); slot ``i`` of every vector flavour seeded ``s`` plays those games: the
same actions give the same observations, masks and rewards, game after game."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.core.agent import Agent
from boardgames_rl.envs.aec import GameAECEnv
from boardgames_rl.envs.batched import BatchedVectorEnv
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv
from boardgames_rl.envs.vector import VectorEnv
from boardgames_rl.registry import make_game

GAMES = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"num_players": 5}),
    ("white_castle", {"num_players": 2}),
]
SEED, SLOTS, STEPS = 21, 3, 500


class LowestLegal(Agent):
    """Plays its lowest legal action: an opponent the AEC side can play too."""

    name = "lowest"
    needs_info_set = False

    def act(self, info_set, rng) -> int:
        return int(np.flatnonzero(info_set.legal_action_mask)[0])


def _aec(game, i: int) -> GameAECEnv:
    env = GameAECEnv(game)
    env.reset(seed=(SEED, i))
    return env


def _seat(env: GameAECEnv) -> int:
    return env.possible_agents.index(env.agent_selection)


def _returns(env: GameAECEnv) -> np.ndarray:
    return np.array([env.rewards[a] for a in env.possible_agents], dtype=np.float32)


def _game_over(env: GameAECEnv) -> bool:
    return all(env.terminations[a] or env.truncations[a] for a in env.possible_agents)


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize("name,config", GAMES, ids=[g for g, _ in GAMES])
def test_slot_i_of_the_multi_agent_vector_env_plays_the_aec_env_reset_with_seed_i(
    name: str, config: dict, workers: int
) -> None:
    game = make_game(name, **config)
    aecs = [_aec(game, i) for i in range(SLOTS)]
    rng = np.random.default_rng(0)
    ended = 0
    with VectorEnv(game, SLOTS, seed=SEED, num_workers=workers) as venv:
        out = venv.reset()
        for _ in range(STEPS):
            if ended >= SLOTS:
                break
            for i, env in enumerate(aecs):
                seen = env.observe(env.agent_selection)
                assert out.current_player[i] == _seat(env)
                np.testing.assert_array_equal(out.observation[i], seen["observation"])
                np.testing.assert_array_equal(out.action_mask[i], seen["action_mask"].astype(bool))
            actions = venv.sample_random_actions(rng)
            out = venv.step(actions)
            for i, env in enumerate(aecs):
                env.step(int(actions[i]))
                np.testing.assert_array_equal(out.rewards[i], _returns(env))
                if _game_over(env):
                    assert out.done[i]
                    ended += 1
                    env.reset()  # the next game of the slot's stream
                else:
                    assert not out.done[i]
    # games ended and their slots went on with their next games (random play of Castle
    # Nightingale outlasts these steps)
    assert ended or name == "castle_nightingale"


def _opponents_play(env: GameAECEnv, seat: int) -> float:
    """The other seats play their lowest legal actions until ``seat`` is on move or the game is
    over; returns ``seat``'s rewards meanwhile."""
    reward = 0.0
    while not _game_over(env) and _seat(env) != seat:
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
        reward += env.rewards[env.possible_agents[seat]]
    return reward


@pytest.mark.parametrize("flavour,workers", [("gym", 0), ("gym", 2), ("sb3", 0)])
@pytest.mark.parametrize("name,config", GAMES, ids=[g for g, _ in GAMES])
def test_slot_i_of_the_learner_vector_envs_plays_the_aec_env_reset_with_seed_i(
    name: str, config: dict, flavour: str, workers: int
) -> None:
    """The single-agent flavours (``BatchedVectorEnv``, the SB3 ``BatchedVecEnv``): the learner's
    seat of slot ``i`` sees what that seat sees in the AEC env reset with ``(s, i)`` when the
    other seats play the same (deterministic) moves in both."""
    game = make_game(name, **config)
    seat, opponent = 0, LowestLegal()
    aecs = [_aec(game, i) for i in range(SLOTS)]
    for env in aecs:
        _opponents_play(env, seat)
    kwargs = {"seat": seat, "opponents": opponent, "seed": SEED, "num_workers": workers}
    rng = np.random.default_rng(1)
    if flavour == "gym":
        venv: BatchedVectorEnv | BatchedVecEnv = BatchedVectorEnv(game, SLOTS, **kwargs)
        obs, _ = venv.reset()
    else:
        venv = BatchedVecEnv(game, SLOTS, **kwargs)
        obs = venv.reset()
    ended = 0
    try:
        for _ in range(STEPS):
            if ended >= SLOTS:
                break
            masks = venv.action_masks()
            for i, env in enumerate(aecs):
                seen = env.observe(env.agent_selection)
                np.testing.assert_array_equal(obs[i], seen["observation"])
                np.testing.assert_array_equal(masks[i], seen["action_mask"].astype(bool))
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            if flavour == "gym":
                obs, rewards, term, trunc, _ = venv.step(actions)
                done = term | trunc
            else:
                obs, rewards, done, _ = venv.step(actions)
            for i, env in enumerate(aecs):
                env.step(int(actions[i]))
                reward = env.rewards[env.possible_agents[seat]] + _opponents_play(env, seat)
                assert rewards[i] == np.float32(reward)
                assert done[i] == _game_over(env)
                if done[i]:
                    ended += 1
                    env.reset()  # the next game of the slot's stream
                    _opponents_play(env, seat)
    finally:
        venv.close()
    assert ended  # games ended and their slots went on with their next games
