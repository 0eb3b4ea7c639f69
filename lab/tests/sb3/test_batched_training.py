"""Issue 14.2, the SB3 recipe's envs: ``build_vec_env`` gives the batched ``VecEnv`` by default
(``lab.recipes.sb3.envs``: "All three give the same observations, masks, rewards and episode
infos for the same seed"), with the training pool (random, heuristic, self-play snapshots added
through ``env_method``), the seat feature and reward shaping, in-process and with workers."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv
from boardgames_rl.registry import make_game
from boardgames_rl.training.pool import OpponentPool
from lab.recipes.sb3.envs import build_vec_env, make_batched_env
from lab.recipes.sb3.shaping import make_shaping


def _run(
    game, vec: Literal["batched", "dummy"], workers: int, shaping, steps: int
) -> tuple[list, list]:
    pool = OpponentPool.from_specs(game, ["random", "heuristic", "self"], [1, 1, 1])
    venv = build_vec_env(
        game, "random", pool, 3, 11, vec, reward_shaping=shaping, num_workers=workers
    )
    try:
        policy = MaskablePPO(
            "MlpPolicy", venv, policy_kwargs={"net_arch": [8]}, device="cpu", seed=1
        ).policy
        assert venv.env_method("add_snapshot", "s0", policy) == [True, True, True]
        assert venv.env_method("add_snapshot", "s0", policy) == [False, False, False]
        rng = np.random.default_rng(0)
        out: list = [venv.reset()]
        episodes: list = []
        for _ in range(steps):
            masks = np.stack(venv.env_method("action_masks"))
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, dones, infos = venv.step(actions)
            out.append((masks, obs, rewards, dones))
            for i in np.flatnonzero(dones):
                ep = infos[i]["episode"]
                episodes.append((i, ep["r"], ep["l"], infos[i]["terminal_observation"]))
        names = [name for name, _ in venv.env_method("snapshot_states", indices=[0])[0]]
        assert names == ["s0"]
        return out, episodes
    finally:
        venv.close()


def _equal(a, b) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        if isinstance(x, tuple):
            for p, q in zip(x, y, strict=True):
                np.testing.assert_array_equal(p, q)
        else:
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize(
    "name,config,shaped",
    [
        ("castle_flutterstone", {"num_players": 2}, False),
        ("night_of_the_ninja", {"num_players": 5}, False),
        ("castle_nightingale", {}, True),
    ],
)
def test_the_default_training_env_is_batched_and_plays_what_the_dummy_env_played(
    name, config, shaped
) -> None:
    game = make_game(name, **config)
    shaping = make_shaping("potential", game, 0.999, 1.0) if shaped else None
    steps = 60 if name != "castle_nightingale" else 40
    dummy, dummy_episodes = _run(game, "dummy", 0, shaping, steps)
    batched, batched_episodes = _run(game, "batched", 0, shaping, steps)
    _equal(dummy, batched)
    _equal(dummy_episodes, batched_episodes)
    if name == "castle_flutterstone":
        assert dummy_episodes  # games ended and restarted within the run
        workers, workers_episodes = _run(game, "batched", 2, shaping, steps)
        _equal(batched, workers)
        _equal(batched_episodes, workers_episodes)


def test_build_vec_env_kinds_and_refusals() -> None:
    game = make_game("castle_flutterstone", num_players=2)
    pool = OpponentPool.from_specs(game, ["random"])
    venv = build_vec_env(game, 0, pool, 2, 0)
    assert isinstance(venv, BatchedVecEnv) and venv.num_envs == 2
    assert venv.observation_space.shape == (game.observation_spec.size + 2,)  # seat feature
    venv.close()
    with pytest.raises(InvalidConfigError, match="wrapper needs vec='dummy'"):
        build_vec_env(game, 0, pool, 2, 0, "batched", wrapper=lambda env: env)
    with pytest.raises(InvalidConfigError, match="vec must be"):
        build_vec_env(game, 0, pool, 2, 0, "threads")  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="num_workers"):
        build_vec_env(game, 0, pool, 2, 0, num_workers=-1)


def test_make_batched_env_takes_opponents_from_spec_strings() -> None:
    """Task: "opponents played inside, by agents from spec strings"."""
    game = make_game("castle_flutterstone", num_players=3)
    venv = make_batched_env(game, 4, seat=0, opponents=["heuristic"], seed=0, num_workers=2)
    try:
        venv.reset()
        kinds = venv.get_attr("opponents")
        assert all(isinstance(p, OpponentPool) for p in kinds)
        assert list(kinds[0].probabilities()) == ["heuristic"]
        names = {type(a).__name__ for s in venv.get_attr("_seat_agents") for a in s.values()}
        assert names and "RandomAgent" not in names
        rng = np.random.default_rng(0)
        for _ in range(10):
            masks = venv.action_masks()
            venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    finally:
        venv.close()
    with pytest.raises(InvalidConfigError):
        make_batched_env(game, 2, opponents=["no_such_agent"])
