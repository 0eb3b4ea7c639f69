"""The learner's rollout buffer holds only its own decisions: each stored observation is
``state.observation(learner_seat)`` (plus the seat feature) at a state where the learner is on
move, in order, with opponents (heuristic, random, self-play snapshots) acting in between."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from boardgames_rl.envs.policy_obs import policy_observation
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.registry import make_game
from boardgames_rl.training.pool import OpponentPool
from lab.recipes.sb3.envs import build_vec_env


class DecisionRecorder(gym.Wrapper):
    """Records, from the true state, what the learner should see at each of its decisions."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.expected: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.opponent_moves = 0

    def _record(self) -> None:
        base = self.env.unwrapped
        assert isinstance(base, SingleAgentEnv)
        state = base.game_state
        assert state.current_player == base.seat  # the learner is on move
        self.expected.append(policy_observation(state.observation(base.seat), base.seat, base.game))
        self.masks.append(state.legal_action_mask().copy())

    def reset(self, **kwargs):
        out = super().reset(**kwargs)
        self._record()
        return out

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        if not (terminated or truncated):
            self._record()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.get_wrapper_attr("action_masks")()


@pytest.mark.parametrize(
    "name,config,seat",
    [
        ("castle_flutterstone", {"num_players": 2}, 1),
        ("night_of_the_ninja", {"num_players": 5}, "random"),
    ],
)
def test_rollout_buffer_holds_only_the_learners_observations(name, config, seat) -> None:
    game = make_game(name, **config)
    pool = OpponentPool.from_specs(game, ["random", "heuristic", "self"], [1, 1, 1])
    recorders: list[DecisionRecorder] = []

    def wrap(env: gym.Env) -> gym.Env:
        recorders.append(DecisionRecorder(env))
        return recorders[-1]

    venv = build_vec_env(game, seat, pool, n_envs=2, seed=5, wrapper=wrap)
    venv.env_method(
        "add_snapshot",
        "s0",
        MaskablePPO(
            "MlpPolicy", venv, policy_kwargs={"net_arch": [16]}, device="cpu", seed=1
        ).policy,
    )
    n_steps = 96
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=n_steps,
        batch_size=96,
        n_epochs=1,
        seed=0,
        policy_kwargs={"net_arch": [16]},
        device="cpu",
    )
    model.learn(n_steps)
    buffer = model.rollout_buffer
    size = game.observation_spec.size + (0 if "role" in game.observation_spec else game.num_players)
    # after training SB3 flattens the buffer env-major: row env * n_steps + t
    assert buffer.generator_ready
    observations = buffer.observations.reshape(2, n_steps, size)
    masks = buffer.action_masks.reshape(2, n_steps, game.num_actions).astype(bool)
    starts = buffer.episode_starts.reshape(2, n_steps)
    for i, rec in enumerate(recorders):
        # one more recorded decision than stored: the observation after the last step
        assert len(rec.expected) == n_steps + 1
        np.testing.assert_array_equal(observations[i], np.stack(rec.expected[:n_steps]))
        np.testing.assert_array_equal(masks[i], np.stack(rec.masks[:n_steps]))
        # games ended within the rollout: new games started between the learner's decisions
        assert starts[i, 1:].sum() >= 1
