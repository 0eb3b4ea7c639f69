"""Issue 41.2: one vector runtime behind thin facades: ``gymnasium.make_vec`` finds the learner's
``gymnasium.vector.VectorEnv`` (declaring its autoreset mode, the action masks in its infos), the
SB3 ``VecEnv`` answers SB3's and sb3-contrib's calls, and every facade gives the same
trajectories in-process and with workers, reports a worker killed with SIGKILL in one line
without hanging, and changes nothing on a failed step."""

from __future__ import annotations

import os
import signal
import time

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecCheckNan, VecEnv

import boardgames_rl.envs  # noqa: F401  (registers the ids)
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv
from boardgames_rl.envs.pettingzoo import env_id
from boardgames_rl.envs.vector import BatchedVectorEnv, SlotError, VectorEnv
from boardgames_rl.envs.vector.wire import CONTROL
from boardgames_rl.registry import make_game

FLUTTER = make_game("castle_flutterstone", num_players=2)
ID = env_id("castle_flutterstone")


def _first_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def _play_gym(venv, steps: int, seed: int = 3) -> list:
    """A trajectory of a gymnasium vector env, actions drawn from the masks in its infos."""
    rng = np.random.default_rng(seed)
    obs, infos = venv.reset(seed=seed)
    out: list = [obs, infos["action_mask"]]
    for _ in range(steps):
        obs, rewards, term, trunc, infos = venv.step(_first_legal(infos["action_mask"], rng))
        out += [obs, rewards, term, trunc, infos["action_mask"], infos["seat"]]
        if "final_obs" in infos:
            out += [np.stack(list(infos["final_obs"][infos["_final_obs"]]))]
            out += [infos["final_info"]["episode"]["r"], infos["final_info"]["returns"]]
    return out


def _same(a: list, b: list) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_make_vec_finds_the_learner_vector_env_end_to_end() -> None:
    """``gymnasium.make_vec("boardgames_rl/<game>-v<version>", num_envs=N, **config)``: the game's
    config keywords reach the game, the env's keywords the env; the env declares its autoreset
    mode (``SAME_STEP``: the step that ends a game returns the next game's observation and the
    ended one's in ``final_obs``), and every info holds the action masks."""
    venv = gymnasium.make_vec(ID, num_envs=4, num_players=2, seat="random", opponents="random")
    try:
        assert isinstance(venv.unwrapped, BatchedVectorEnv)
        assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        assert venv.num_envs == 4 and venv.spec is not None and venv.spec.id == ID
        assert venv.single_observation_space.shape == (FLUTTER.observation_spec.size,)
        rng = np.random.default_rng(0)
        obs, infos = venv.reset(seed=5)
        ended = 0
        for _ in range(400):
            masks = infos["action_mask"]
            assert masks.shape == (4, FLUTTER.num_actions) and masks.any(axis=1).all()
            np.testing.assert_array_equal(masks, venv.unwrapped.action_masks())
            assert venv.observation_space.contains(obs)
            obs, rewards, term, trunc, infos = venv.step(_first_legal(masks, rng))
            assert rewards.dtype == np.float32
            if (term | trunc).any():
                ended += int((term | trunc).sum())
                done = term | trunc
                np.testing.assert_array_equal(infos["_final_obs"], done)
                for i in np.flatnonzero(done):
                    assert infos["final_obs"][i].shape == obs[i].shape
                    assert infos["final_info"]["returns"].dtype == np.float32
            if ended >= 4:
                break
        assert ended >= 4
        direct = BatchedVectorEnv(FLUTTER, 4, seat="random")
        try:
            _same(_play_gym(venv, 40), _play_gym(direct, 40))  # the same env either way
        finally:
            direct.close()
    finally:
        venv.close()
    single = gymnasium.make(ID, num_players=2, seat=1)
    obs, info = single.reset(seed=(5, 1))
    assert info["seat"] == 1 and obs.shape == (FLUTTER.observation_spec.size,)


def test_the_sb3_facade_answers_sb3_and_sb3_contrib() -> None:
    """SB3 has no ``VecEnv`` checker: what ``check_env`` asks of one env, asked of every slot
    (observations in the space, float32 rewards, bool dones, one info dict per slot), plus
    ``VecCheckNan`` (no NaN or inf anywhere) and sb3-contrib's masking calls."""
    venv = VecCheckNan(BatchedVecEnv(FLUTTER, 3, seat="random", seed=2), raise_exception=True)
    try:
        assert isinstance(venv, VecEnv) and is_masking_supported(venv)
        obs = venv.reset()
        assert obs.shape == (3, *venv.observation_space.shape) and obs.dtype == np.float32
        rng = np.random.default_rng(0)
        for _ in range(80):
            masks = get_action_masks(venv)
            assert masks.dtype == np.bool_ and masks.any(axis=1).all()
            obs, rewards, dones, infos = venv.step(_first_legal(masks, rng))
            assert all(venv.observation_space.contains(o) for o in obs)
            assert rewards.dtype == np.float32 and dones.dtype == np.bool_
            assert len(infos) == 3 and all(isinstance(i, dict) for i in infos)
            for i in np.flatnonzero(dones):
                assert venv.observation_space.contains(infos[i]["terminal_observation"])
    finally:
        venv.close()


def _play_vector(venv: VectorEnv, steps: int) -> list:
    rng = np.random.default_rng(1)
    out = [vars(venv.reset())]
    for _ in range(steps):
        out.append(vars(venv.step(venv.sample_random_actions(rng))))
    return [v for step in out for v in step.values()]


@pytest.mark.parametrize("workers,main_steps", [(2, False), (2, True), (3, False)])
def test_workers_and_in_process_give_identical_trajectories(workers: int, main_steps: bool) -> None:
    """Every facade: the same seed gives the same trajectories in-process and with workers."""
    with (
        VectorEnv(FLUTTER, 5, seed=9) as local,
        VectorEnv(FLUTTER, 5, seed=9, num_workers=workers) as pooled,
    ):
        _same(_play_vector(local, 60), _play_vector(pooled, 60))
    local_gym = BatchedVectorEnv(FLUTTER, 5, seat="random")
    pooled_gym = BatchedVectorEnv(
        FLUTTER, 5, seat="random", num_workers=workers, main_steps=main_steps
    )
    try:
        _same(_play_gym(local_gym, 60), _play_gym(pooled_gym, 60))
    finally:
        local_gym.close()
        pooled_gym.close()


@pytest.mark.parametrize("facade", ["multi-agent", "gymnasium"])
def test_a_worker_killed_with_sigkill_gives_one_line_and_no_hang(facade: str) -> None:
    if facade == "multi-agent":
        venv: VectorEnv | BatchedVectorEnv = VectorEnv(FLUTTER, 4, seed=0, num_workers=2)
        venv.reset()
        procs = venv.core._procs

        def step() -> None:
            venv.step(venv.sample_random_actions(np.random.default_rng(0)))  # type: ignore[union-attr]
    else:
        venv = gymnasium.make_vec(ID, num_envs=4, num_players=2, num_workers=2).unwrapped
        _, infos = venv.reset(seed=0)
        procs = venv.core._procs

        def step() -> None:
            venv.step(_first_legal(infos["action_mask"], np.random.default_rng(0)))

    try:
        os.kill(procs[1].pid, signal.SIGKILL)
        time.sleep(0.3)
        started = time.perf_counter()
        with pytest.raises(RuntimeError) as info:
            step()
        assert time.perf_counter() - started < 10  # reported, not waited for
        message = str(info.value)
        assert "\n" not in message
        assert "worker 1 (pid" in message and "slots 2-3) is dead (exit code -9)" in message
    finally:
        started = time.perf_counter()
        venv.close()
        assert time.perf_counter() - started < 15
    assert not any(p.is_alive() for p in procs)


class Boom:
    """Reward shaping that raises."""

    def __call__(self, previous, state):
        raise RuntimeError("shaping failed")


@pytest.mark.parametrize("workers", [0, 2])
def test_a_failed_step_of_the_gymnasium_facade_changes_nothing(workers: int) -> None:
    venv = gymnasium.make_vec(ID, num_envs=4, num_players=2, num_workers=workers).unwrapped
    clean = BatchedVectorEnv(FLUTTER, 4)
    try:
        obs, infos = venv.reset(seed=1)
        np.testing.assert_array_equal(obs, clean.reset(seed=1)[0])
        rng = np.random.default_rng(0)
        for step in range(30):
            actions = _first_legal(infos["action_mask"], rng)
            if step in (3, 20):
                before = {k: v.copy() for k, v in venv.core.buffers.items() if k != "actions"}
                venv.set_attr("reward_shaping", [None, None, Boom(), None])
                with pytest.raises(SlotError, match=r"^slot 2: RuntimeError: shaping failed"):
                    venv.step(actions)
                venv.set_attr("reward_shaping", None)
                for k, v in before.items():
                    if k not in CONTROL:
                        np.testing.assert_array_equal(venv.core.buffers[k], v, err_msg=k)
            got, want = venv.step(actions), clean.step(actions)
            infos = got[4]
            for x, y in zip(got[:4], want[:4], strict=True):
                np.testing.assert_array_equal(x, y)
    finally:
        venv.close()
        clean.close()
