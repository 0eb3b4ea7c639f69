"""``lab/benchmarks/batched_instructions.py`` run as a person runs it: a real process under real
valgrind, a few steps of a small batched env, its figure printed and its JSON written; a game that
is not one refused in one line with nothing written (a machine without valgrind:
``test_ismcts_instructions.py``, for both scripts)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "lab" / "benchmarks" / "batched_instructions.py")

needs_valgrind = pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")


@needs_valgrind
def test_a_few_learner_steps_are_counted_and_written(tmp_path: Path) -> None:
    out = tmp_path / "instructions.json"
    argv = [sys.executable, SCRIPT, "--games", "white_castle:num_players=2", "--builds", "pure"]
    argv += ["--num-envs", "2", "--warm", "1", "--calls", "3", "--out", str(out)]
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(out.read_text())
    step = data["games"]["white_castle:num_players=2"]["pure"]
    # a learner step with its opponents' moves: more than any one Python call (1e4), far less
    # than a process's start (billions)
    assert 1e4 < step < 5e7
    assert "k instructions a learner step" in proc.stdout
    assert data["settings"] == {"num_envs": 2, "warm": 1, "calls": 3}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "castle_nightingal"], "castle_nightingal"),
        (["--games", "castle_nightingale", "--calls", "0"], "--calls must be >= 1"),
    ],
)
def test_a_setup_that_is_not_one_is_refused_in_one_line(
    tmp_path: Path, args: list[str], words: str
) -> None:
    out = tmp_path / "instructions.json"
    proc = subprocess.run(
        [sys.executable, SCRIPT, *args, "--out", str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode != 0
    assert words in proc.stderr and not out.exists()
    assert "Traceback" not in proc.stderr, proc.stderr
