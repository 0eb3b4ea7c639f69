"""training/runs.py: the run folder read back. SB3-trainer runs resumed (or refused in one line
naming the lab recipe), crafted config.json / checkpoint files refused in one line, never followed,
never a traceback."""

from __future__ import annotations

import csv
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch as th

from boardgames_rl.agents.ppo import read_model_file
from boardgames_rl.training import ppo
from lab.recipes.sb3.train_ppo import main as sb3_main

GAME = "castle_flutterstone"
TINY = [
    "--game",
    GAME,
    "--num-steps",
    "32",
    "--num-envs",
    "2",
    "--batch-size",
    "64",
    "--update-epochs",
    "2",
    "--net",
    "16,16",
    "--eval-games",
    "2",
    "--eval-every",
    "0",
    "--snapshot-every",
    "64",
    "--opponents",
    "random,self",
    "--opponent-weights",
    "1,1",
    "--eval-opponents",
    "random",
]
SB3_TINY = [
    "--game",
    GAME,
    "--timesteps",
    "256",
    "--n-steps",
    "64",
    "--n-envs",
    "2",
    "--batch-size",
    "64",
    "--n-epochs",
    "2",
    "--lr",
    "0.001",
    "--net",
    "16,16",
    "--eval-games",
    "2",
    "--eval-every",
    "128",
    "--opponents",
    "random,self",
    "--opponent-weights",
    "1,1",
    "--eval-opponents",
    "random",
    "--no-progress",
]
"""The SB3 trainer's flags for a run of 256 steps (128 per rollout)."""


def _config(out: Path) -> dict[str, Any]:
    return json.loads((out / "config.json").read_text())


def _write_config(out: Path, config: dict[str, Any]) -> None:
    (out / "config.json").write_text(json.dumps(config, indent=1))


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _policy(path: Path) -> dict[str, th.Tensor]:
    return read_model_file(path)[1]["policy"]


def _files(out: Path) -> dict[str, bytes]:
    """Every regular file below ``out`` (links: their target's name), by relative path."""
    found = {}
    for path in sorted(out.rglob("*")):
        rel = str(path.relative_to(out))
        if path.is_symlink():
            found[rel] = os.readlink(path).encode()
        elif path.is_file():
            found[rel] = path.read_bytes()
    return found


def _refused(argv: list[str], capsys: pytest.CaptureFixture) -> str:
    """The one line ``main(argv)`` is refused with (exit 2 while reading the flags, exit 1 with
    ``train: error:`` afterwards)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        ppo.main(argv)
    if e.value.code == 2:
        message = capsys.readouterr().err
    else:
        message = str(e.value.code)
        assert message.startswith("train: error: "), message
    assert "Traceback" not in message
    assert message.strip() and message.strip().count("\n") == 0, message
    return message.strip()


def _copy(run: Path, dest: Path) -> Path:
    shutil.copytree(run, dest, symlinks=True)
    return dest


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of this trainer (128 steps)."""
    out = tmp_path_factory.mktemp("runs") / "finished"
    ppo.main([*TINY, "--timesteps", "128", "--out", str(out)])
    return out


@pytest.fixture(scope="module")
def sb3_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Runs of the SB3 trainer: plain, with a residual prior, with reward shaping."""
    root = tmp_path_factory.mktemp("sb3")
    runs = {}
    for name, extra in {
        "plain": [],
        "prior": ["--prior", "heuristic"],
        "shaping": ["--shaping", "potential"],
    }.items():
        runs[name] = root / name
        sb3_main([*SB3_TINY, "--out", str(runs[name]), *extra])
        assert "format" not in _config(runs[name])
    return runs


# ---------------------------------------------------------------------------- SB3-trainer runs
def test_an_sb3_trainer_run_resumes_and_finishes(sb3_runs: dict[str, Path], tmp_path: Path) -> None:
    old = sb3_runs["plain"]
    out = _copy(old, tmp_path / "run")
    old_progress = (old / "progress.csv").read_bytes()
    old_evals = _rows(old / "eval.csv")
    ppo.main(["--resume", "--out", str(out), "--timesteps", "128"])
    config = _config(out)
    assert config["format"] == 2 and config["complete"] is True
    assert config["num_timesteps"] == config["target_timesteps"] == 384
    s = config["settings"]  # the SB3 trainer's settings under today's names
    assert (s["num_steps"], s["num_envs"], s["update_epochs"], s["learning_rate"]) == (
        64,
        2,
        2,
        0.001,
    )
    assert s["net"] == [16, 16] and s["game"] == GAME
    assert not {"n_steps", "lr", "prior", "shaping", "bc_games"} & set(s)
    # its progress.csv (other columns) set aside; today's starts anew; eval.csv continues
    assert (out / "progress_sb3.csv").read_bytes() == old_progress
    assert [r["time/total_timesteps"] for r in _rows(out / "progress.csv")] == ["384"]
    evals = _rows(out / "eval.csv")
    assert evals[: len(old_evals)] == old_evals
    assert [int(r["timesteps"]) for r in evals[len(old_evals) :]] == [384]
    a, b = _policy(old / "model.zip"), _policy(out / "model.zip")
    assert list(a) == list(b) and not all(th.equal(a[k], b[k]) for k in a)  # trained on


def test_an_sb3_trainer_model_loads_as_it_is(sb3_runs: dict[str, Path], tmp_path: Path) -> None:
    """--timesteps 0: no update, the weights saved again as they were loaded."""
    old = sb3_runs["plain"]
    out = _copy(old, tmp_path / "run")
    ppo.main(["--resume", "--out", str(out), "--timesteps", "0"])
    a, b = _policy(old / "model.zip"), _policy(out / "model.zip")
    assert list(a) == list(b) and all(th.equal(a[k], b[k]) for k in a)
    assert _config(out)["format"] == 2 and _config(out)["num_timesteps"] == 256


@pytest.mark.parametrize("kind", ["prior", "shaping", "value warmup"])
def test_an_sb3_trainer_run_this_trainer_cannot_continue_is_refused(
    sb3_runs: dict[str, Path], tmp_path: Path, kind: str, capsys: pytest.CaptureFixture
) -> None:
    source = {"prior": "prior", "shaping": "shaping", "value warmup": "plain"}[kind]
    out = _copy(sb3_runs[source], tmp_path / "run")
    if kind == "value warmup":
        _write_config(out, {**_config(out), "value_warmup": 100_000})
    before = _files(out)
    message = _refused(["--resume", "--out", str(out), "--timesteps", "64"], capsys)
    assert "lab/recipes/train_sb3.py" in message and str(out) in message
    assert {"prior": "--prior", "shaping": "--shaping", "value warmup": "--value-warmup"}[
        kind
    ] in message
    assert _files(out) == before


# ---------------------------------------------------------------------------- crafted files
def _set(**values: Any) -> Callable[[Path], None]:
    def craft(out: Path) -> None:
        _write_config(out, {**_config(out), **values})

    return craft


def _settings(**values: Any) -> Callable[[Path], None]:
    def craft(out: Path) -> None:
        config = _config(out)
        _write_config(out, {**config, "settings": {**config["settings"], **values}})

    return craft


def _checkpoint(**values: Any) -> Callable[[Path], None]:
    def craft(out: Path) -> None:
        config = _config(out)
        _write_config(out, {**config, "checkpoint": {**config["checkpoint"], **values}})

    return craft


def _pool_outside(out: Path) -> None:
    """A pool file outside the run folder, named through a folder planted in checkpoints/."""
    outside = out.parent / "outside.pt"
    shutil.copy(out / _config(out)["checkpoint"]["pool"], outside)
    (out / "checkpoints" / "pool-1").mkdir()
    _checkpoint(pool="checkpoints/pool-1/../../../outside.pt")(out)


def _linked(name: str) -> Callable[[Path], None]:
    def craft(out: Path) -> None:
        path = out / (_config(out)["checkpoint"]["pool"] if name == "pool" else name)
        outside = out.parent / f"outside-{path.name}"
        shutil.copy(path, outside)  # the same content: only the link is wrong
        path.unlink()
        path.symlink_to(outside)

    return craft


def _not_an_object(out: Path) -> None:
    (out / "config.json").write_text("[1, 2]")


CRAFTED = {
    "negative num_timesteps": (_set(num_timesteps=-128), "num_timesteps must be an integer >= 0"),
    "string num_timesteps": (_set(num_timesteps="128"), "num_timesteps must be an integer"),
    "float target": (_set(target_timesteps=1.5), "target_timesteps must be an integer"),
    "complete not a bool": (_set(complete="no"), "complete must be true or false"),
    "wall_time a string": (_set(wall_time="soon"), "wall_time must be a number"),
    "format 99": (_set(format=99), "format 99"),
    "not an object": (_not_an_object, "not a JSON object"),
    "settings a list": (_set(settings=[1]), "settings must be a JSON object"),
    "config a string": (_settings(config="x"), "config must be a JSON object"),
    "game a list": (_settings(game=["x"]), "game must be a string"),
    "num_envs a string": (_settings(num_envs="4"), "num_envs must be int"),
    "net a string": (_settings(net="16,16"), "net must be list"),
    "unknown game option": (_settings(config={"num_players": 2, "bogus": 1}), "bogus"),
    "bad game option": (_settings(config={"num_players": "many"}), "num_players"),
    "pool outside": (_pool_outside, "checkpoint.pool must name checkpoints/pool-<steps>.pt"),
    "pool elsewhere": (_checkpoint(pool="../pool-128.pt"), "checkpoint.pool must name"),
    "pool linked": (_linked("pool"), "symbolic link"),
    "model linked": (_linked("model.zip"), "symbolic link"),
    "config linked": (_linked("config.json"), "symbolic link"),
    "negative log size": (_checkpoint(logs={"progress.csv": -5}), "checkpoint.logs"),
}


@pytest.mark.parametrize("case", list(CRAFTED))
def test_a_crafted_run_folder_is_refused_in_one_line(
    finished: Path, tmp_path: Path, case: str, capsys: pytest.CaptureFixture
) -> None:
    out = _copy(finished, tmp_path / "run")
    craft, expected = CRAFTED[case]
    craft(out)
    before = _files(out)
    outside = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    message = _refused(["--resume", "--out", str(out), "--timesteps", "64"], capsys)
    assert expected in message
    assert _files(out) == before  # nothing written, no link replaced or followed for writing
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == outside


@pytest.mark.parametrize("case", ["config linked", "format 99", "settings a list"])
def test_a_crafted_folder_is_refused_by_the_plain_command_too(
    finished: Path, tmp_path: Path, case: str, capsys: pytest.CaptureFixture
) -> None:
    """Without --resume the folder's config.json is still read (is the run finished?)."""
    out = _copy(finished, tmp_path / "run")
    craft, expected = CRAFTED[case]
    _set(complete=False)(out)  # an interrupted run: the plain command would continue it
    craft(out)
    before = _files(out)
    message = _refused([*TINY, "--timesteps", "64", "--out", str(out)], capsys)
    assert expected in message
    assert _files(out) == before


def test_a_checkpoint_of_another_network_is_refused(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = _copy(finished, tmp_path / "run")
    before = _files(out)
    message = _refused(["--resume", "--out", str(out), "--net", "32,32"], capsys)
    assert "does not fit this network" in message and str(out / "model.zip") in message
    assert _files(out) == before


@pytest.mark.parametrize("damage", ["not a zip", "empty"])
def test_a_damaged_model_file_is_refused(
    finished: Path, tmp_path: Path, damage: str, capsys: pytest.CaptureFixture
) -> None:
    out = _copy(finished, tmp_path / "run")
    (out / "model.zip").write_bytes(b"" if damage == "empty" else b"PK\x03\x04 not really")
    message = _refused(["--resume", "--out", str(out)], capsys)
    assert "model" in message and str(out / "model.zip") in message


def test_a_damaged_best_record_is_refused(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = _copy(finished, tmp_path / "run")
    (out / "best" / "best.json").write_text(json.dumps({"timesteps": 128, "score": 7, "rows": []}))
    message = _refused(["--resume", "--out", str(out), "--timesteps", "64"], capsys)
    assert "best.json" in message and "score" in message


def test_log_rows_after_the_checkpoint_are_cut_on_resume(finished: Path, tmp_path: Path) -> None:
    out = _copy(finished, tmp_path / "run")
    with open(out / "progress.csv", "a") as f:  # rows a killed run wrote after its checkpoint
        f.write("999999,1,1,0,0,0,0,0,0,0,0\n")
    with open(out / "eval.csv", "a") as f:
        f.write("999999,random,2,0,0,0,1,0,1\n")
    ppo.main(["--resume", "--out", str(out), "--timesteps", "64"])
    steps = [int(r["time/total_timesteps"]) for r in _rows(out / "progress.csv")]
    assert steps == [64, 128, 192]
    assert [int(r["timesteps"]) for r in _rows(out / "eval.csv")] == [128, 192]
