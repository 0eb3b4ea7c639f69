"""Forking a run (``lab.recipes.sb3.fork``, ``train_strong.py fork``): a second phase of
training from the best policy so far, the first run left as it was."""

from __future__ import annotations

import csv
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch as th

from boardgames_rl.agents.ppo import read_model_file
from boardgames_rl.core.errors import InvalidConfigError
from lab.recipes.sb3.callbacks import read_best
from lab.recipes.sb3.fork import fork_run
from lab.recipes.sb3.train_ppo import main

from .helpers import TRAIN_STRONG, tiny_run

SCRIPT = TRAIN_STRONG


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _steps(path: Path, column: str) -> list[int]:
    with open(path, newline="") as f:
        return [int(float(r[column])) for r in csv.DictReader(f) if r[column]]


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny run evaluated every 64 steps (so ``best/`` is usually not the last policy)."""
    out = tmp_path_factory.mktemp("fork") / "run"
    tiny_run(out, "castle_flutterstone", 384, "--eval-every", "64", "--eval-games", "4")
    return out


def test_a_fork_continues_from_the_best_policy_and_leaves_the_source_alone(
    source: Path, tmp_path: Path
) -> None:
    before = _digest(source)
    best = read_best(source / "best")
    dest = tmp_path / "fork"
    record = fork_run(source, dest, "best")
    assert _digest(source) == before  # only read
    assert record["timesteps"] == best["timesteps"] and record["score"] == best["score"]
    config = json.loads((dest / "config.json").read_text())
    assert config["num_timesteps"] == best["timesteps"] and config["out"] == str(dest)
    assert config["complete"] is False
    # the forked checkpoint holds exactly the best policy's weights
    kept = read_model_file(source / "best" / "model.zip")[1]["policy"]
    forked = read_model_file(dest / config["checkpoint"]["model"])[1]["policy"]
    assert all(th.equal(kept[k], forked[k]) for k in kept)
    # the logs stop at the fork's step, and their recorded sizes match
    assert max(_steps(dest / "eval.csv", "timesteps")) == best["timesteps"]
    assert max(_steps(dest / "progress.csv", "time/total_timesteps")) <= best["timesteps"]
    for name, size in config["checkpoint"]["logs"].items():
        assert (dest / name).stat().st_size == size
    # a plain resume continues it, with a new learning rate
    main(["--resume", "--out", str(dest), "--timesteps", "64", "--lr", "5e-5", "--no-progress"])
    resumed = json.loads((dest / "config.json").read_text())
    assert resumed["lr"] == 5e-5 and resumed["num_timesteps"] > best["timesteps"]
    assert _digest(source) == before


def test_fork_refuses_in_one_line_and_writes_nothing(source: Path, tmp_path: Path) -> None:
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(InvalidConfigError, match="is not empty"):
        fork_run(source, busy)
    assert [p.name for p in busy.iterdir()] == ["notes.txt"]
    with pytest.raises(InvalidConfigError, match="config.json"):
        fork_run(tmp_path / "nowhere", tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_train_strong_fork_carries_the_commands(source: Path, tmp_path: Path) -> None:
    """``train_strong.py fork`` writes the fork, and its ``commands.txt`` starts with the
    source's commands, then the fork itself (what ``export`` ships)."""
    (source / "commands.txt").write_text("python lab/recipes/train_strong.py train ...  # t0\n")
    dest = tmp_path / "phase2"
    cmd = [sys.executable, str(SCRIPT), "fork", str(source), str(dest), "--model", "last"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"into {dest}" in done.stdout
    lines = (dest / "commands.txt").read_text().splitlines()
    assert lines[0] == "python lab/recipes/train_strong.py train ...  # t0"
    assert lines[1].startswith("python lab/recipes/train_strong.py fork ")
    config = json.loads((dest / "config.json").read_text())
    assert (
        config["num_timesteps"] == json.loads((source / "config.json").read_text())["num_timesteps"]
    )
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 1 and again.stderr.count("\n") == 1
    assert "is not empty" in again.stderr
