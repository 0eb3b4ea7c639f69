"""Behaviour-cloning warm start: demonstrations, pretraining, train_ppo flags."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from boardgames_rl.agents import make_agent
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, InfoSet, State
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.registry import make_game
from boardgames_rl.training.pool import OpponentPool
from lab.recipes.sb3.envs import build_vec_env, make_learner_env
from lab.recipes.sb3.imitation import (
    Demonstrations,
    accuracy,
    collect_demonstrations,
    pretrain,
)
from lab.recipes.sb3.train_ppo import main

from .helpers import TINY, tiny_run

FLUTTER = {"num_players": 2}


class SpyTeacher(Agent):
    """The heuristic, recording what it was given."""

    def __init__(self, game: Game):
        self.inner = make_agent("heuristic", game)
        self.seen: list[InfoSet] = []
        self.resets = 0

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        self.seen.append(info_set)
        return self.inner.act(info_set, rng)

    def reset(self) -> None:
        self.resets += 1
        self.inner.reset()


def _replay(game, seat, opponents, data: Demonstrations, seed: int) -> None:
    """Replaying the teacher's actions in a fresh env gives exactly the recorded rows."""
    env = make_learner_env(game, seat, opponents)
    base = env.unwrapped
    assert isinstance(base, SingleAgentEnv)
    obs, _ = env.reset(seed=seed)
    t = 0
    for g in range(data.games):
        while True:
            assert base.game_state.current_player == data.seats[t] == base.seat
            np.testing.assert_array_equal(data.obs[t], obs)
            np.testing.assert_array_equal(data.masks[t], env.action_masks())
            obs, _, term, trunc, info = env.step(int(data.played[t]))
            t += 1
            if term or trunc:
                final = info["returns"][data.seats[t - 1]]
                assert data.returns[t - 1] == data.game_returns[g] == final
                break
        obs, _ = env.reset()
    assert t == len(data)


def test_demonstrations_are_the_learners_decisions_by_the_teacher() -> None:
    game = make_game("castle_flutterstone", **FLUTTER)
    pool = OpponentPool.from_specs(game, ["random", "heuristic"])
    teacher = SpyTeacher(game)
    data = collect_demonstrations(game, "random", teacher, pool, 4, seed=5, progress=False)
    assert data.games == 4 and teacher.resets == 4 and len(teacher.seen) == len(data) > 0
    assert all(isinstance(i, InfoSet) and not isinstance(i, State) for i in teacher.seen)
    assert all(i.player == s for i, s in zip(teacher.seen, data.seats, strict=True))
    assert data.masks[np.arange(len(data)), data.actions].all()  # legal teacher actions
    np.testing.assert_array_equal(data.played, data.actions)  # no actor: the teacher plays
    # the seat one-hot of the training wrapper is there (flutterstone's view is seat-relative)
    size = game.observation_spec.size
    assert data.obs.shape == (len(data), size + 2)
    np.testing.assert_array_equal(data.obs[:, size:], np.eye(2)[data.seats])
    _replay(game, "random", pool, data, seed=5)
    assert pool.snapshot_names == []  # the caller's pool is untouched


def test_nightingale_demonstrations_from_the_samurai_seat() -> None:
    game = make_game("castle_nightingale")
    data = collect_demonstrations(game, 1, "heuristic", None, 2, seed=3, progress=False)
    assert (data.seats == 1).all() and data.obs.shape[1] == game.observation_spec.size
    _replay(game, 1, None, data, seed=3)
    assert data.win_rate == 1.0  # the heuristic beats random as the samurai


def test_dagger_actor_plays_while_the_teacher_labels() -> None:
    game = make_game("castle_flutterstone", **FLUTTER)
    actor = make_agent("random", game)
    data = collect_demonstrations(
        game, 1, "heuristic", None, 3, seed=2, progress=False, actor=actor
    )
    rows = np.arange(len(data))
    assert data.masks[rows, data.actions].all() and data.masks[rows, data.played].all()
    assert (data.played != data.actions).any()  # the random actor's moves were played
    _replay(game, 1, None, data, seed=2)


def test_same_seed_same_demonstrations() -> None:
    game = make_game("castle_flutterstone", **FLUTTER)
    a, b, c = (
        collect_demonstrations(game, 0, "heuristic", None, 3, seed=s, progress=False)
        for s in (1, 1, 2)
    )
    for field in ("obs", "masks", "actions", "returns"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert len(a) != len(c) or not np.array_equal(a.obs, c.obs)


def _tiny_model(game, seed: int) -> MaskablePPO:
    venv = build_vec_env(game, 0, OpponentPool.from_specs(game, ["random"]), 1, seed)
    return MaskablePPO(
        "MlpPolicy",
        venv,
        policy_kwargs=dict(net_arch=[32, 32]),
        seed=seed,
        n_steps=64,
        batch_size=64,
        device="cpu",
    )


def test_pretraining_raises_the_teacher_accuracy_reproducibly() -> None:
    game = make_game("castle_flutterstone", **FLUTTER)
    data = collect_demonstrations(game, 0, "heuristic", None, 3, seed=0, progress=False)
    model = _tiny_model(game, 0)
    before = accuracy(model, data)
    history = pretrain(model, data, epochs=15, lr=3e-3, batch_size=64, seed=0, progress=False)
    after = accuracy(model, data)
    assert len(history) == 15 and history[-1]["samples"] == len(data)
    assert after > before + 0.2 and after > 0.7, (before, after)
    assert history[-1]["policy_loss"] < history[0]["policy_loss"]
    assert history[-1]["value_loss"] < history[0]["value_loss"]
    twin = _tiny_model(game, 0)
    assert (
        pretrain(twin, data, epochs=15, lr=3e-3, batch_size=64, seed=0, progress=False) == history
    )
    a, b = model.policy.state_dict(), twin.policy.state_dict()
    assert all((a[k] == b[k]).all() for k in a)


def test_bad_inputs_raise_clear_errors() -> None:
    game = make_game("castle_flutterstone", **FLUTTER)
    with pytest.raises(InvalidConfigError, match="bad teacher spec 'oracle'"):
        collect_demonstrations(game, 0, "oracle", None, 1, progress=False)
    with pytest.raises(InvalidConfigError, match=">= 1"):
        collect_demonstrations(game, 0, "heuristic", None, 0, progress=False)
    data = collect_demonstrations(game, 0, "heuristic", None, 1, progress=False)
    with pytest.raises(InvalidConfigError, match="epochs >= 1"):
        pretrain(_tiny_model(game, 0), data, epochs=0, progress=False)


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_train_ppo_warm_start_flags_save_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    settings = tiny_run(
        out,
        "castle_flutterstone",
        128,
        "--bc-games",
        "2",
        "--bc-epochs",
        "3",
        "--bc-lr",
        "0.002",
        "--bc-dagger-rounds",
        "1",
        "--bc-dagger-games",
        "1",
        "--bc-dagger-epochs",
        "2",
        "--opponents",
        "random",
        "--opponent-weights",
        "1",
    )
    assert (
        settings["bc_games"],
        settings["bc_epochs"],
        settings["bc_lr"],
        settings["bc_teacher"],
    ) == (2, 3, 0.002, "heuristic")
    bc = _rows(out / "bc.csv")
    assert [(int(r["round"]), int(r["epoch"])) for r in bc] == [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 1),
        (1, 2),
    ]  # cloning, then one DAgger round
    assert [int(r["games"]) for r in bc] == [2, 2, 2, 1, 1]
    assert int(bc[-1]["samples"]) > int(bc[0]["samples"])  # the DAgger data is added
    assert all(0 <= float(r["accuracy"]) <= 1 for r in bc)
    evals = _rows(out / "eval.csv")
    assert {r["timesteps"] for r in evals} == {"0", "128"}  # the warm start's own row at step 0
    bc_text = (out / "bc.csv").read_text()
    resumed = main(["--resume", "--out", str(out), "--timesteps", "128", "--no-progress"])
    assert resumed["bc_games"] == 2 and resumed["num_timesteps"] == 256
    assert resumed["bc_wall_time"] == settings["bc_wall_time"] > 0
    assert (out / "bc.csv").read_text() == bc_text  # BC is not redone
    zero_rows = [r for r in _rows(out / "eval.csv") if r["timesteps"] == "0"]
    assert len(zero_rows) == 2  # no new step-0 evaluation
    saved = json.loads((out / "config.json").read_text())
    assert saved["bc_teacher"] == "heuristic" and saved["bc_epochs"] == 3


def test_no_warm_start_by_default_outside_nightingale(tmp_path: Path) -> None:
    settings = tiny_run(tmp_path / "run", "castle_flutterstone", 64)
    assert settings["bc_games"] == 0 and not (tmp_path / "run" / "bc.csv").exists()


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--bc-games", "-1"], "--bc-games must be >= 0"),
        (["--bc-games", "2", "--bc-epochs", "0"], "--bc-epochs"),
        (["--bc-games", "2", "--bc-dagger-rounds", "-1"], "--bc-dagger-rounds >= 0"),
        (["--bc-games", "2", "--bc-teacher", "oracle"], "unknown agent 'oracle'"),
    ],
)
def test_bad_bc_flags(tmp_path: Path, capsys, flags: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--game", "castle_flutterstone", "--out", str(tmp_path / "x"), *TINY, *flags])
    assert message in str(info.value.code) + capsys.readouterr().err
    assert not (tmp_path / "x" / "model.zip").exists()
