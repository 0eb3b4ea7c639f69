"""``lab/benchmarks/ismcts_instructions.py`` run as a person runs it: a real process under real
valgrind, a tiny search, its figure printed and its JSON written; a game that is not one refused in
one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "lab" / "benchmarks" / "ismcts_instructions.py")

needs_valgrind = pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")


@needs_valgrind
def test_a_tiny_search_is_counted_and_written(tmp_path: Path) -> None:
    out = tmp_path / "instructions.json"
    argv = [sys.executable, SCRIPT, "--games", "castle_nightingale", "--builds", "compiled"]
    argv += ["--moves", "1", "--iterations", "3", "--out", str(out)]
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(out.read_text())
    move = data["games"]["castle_nightingale"]["compiled"]
    # a move of 3 iterations: more than the 1e5 instructions of any one Python call, far less
    # than a process's start (billions)
    assert 1e5 < move < 5e8
    assert "castle_nightingale" in proc.stdout and "M instructions a move" in proc.stdout
    assert data["settings"] == {"moves": 1, "iterations": 3, "preset": "tuned"}


def test_a_game_that_is_not_one_is_refused_in_one_line(tmp_path: Path) -> None:
    argv = [sys.executable, SCRIPT, "--games", "castle_nightingal", "--builds", "compiled"]
    argv += ["--moves", "1", "--iterations", "1"]
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert proc.returncode != 0
    line = proc.stderr.strip()
    assert "\n" not in line and "castle_nightingal" in line, proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("script", ["ismcts_instructions.py", "batched_instructions.py"])
def test_without_valgrind_it_says_so_in_one_line(tmp_path: Path, script: str) -> None:
    """Runs on every machine (the measurements need valgrind): with no valgrind on the PATH,
    each instruction-count script refuses in one line that says how to get it, and writes
    nothing."""
    empty = tmp_path / "bin"
    empty.mkdir()
    out = tmp_path / "instructions.json"
    path = str(ROOT / "lab" / "benchmarks" / script)
    argv = [sys.executable, path, "--games", "castle_nightingale", "--out", str(out)]
    proc = subprocess.run(
        argv, cwd=tmp_path, capture_output=True, text=True, timeout=900, env={"PATH": str(empty)}
    )
    assert proc.returncode != 0
    line = proc.stderr.strip()
    assert "\n" not in line and "valgrind is not installed" in line, proc.stderr
    assert not out.exists()
