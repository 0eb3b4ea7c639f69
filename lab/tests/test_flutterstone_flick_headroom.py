"""``lab/experiments/flutterstone_flick_headroom.py`` run as a person runs it (a real process,
whatever build the caller's environment asks for: the script runs the pure one itself)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "lab" / "experiments" / "flutterstone_flick_headroom.py")


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "BOARDGAMES_RL_PURE"}
    return subprocess.run(
        [sys.executable, SCRIPT, *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_agent_plays_its_games_and_prints_its_rate(tmp_path: Path) -> None:
    proc = _run(tmp_path, "--players", "3", "--games", "3", "--samples", "2", "--seed", "4")
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = proc.stdout.strip().splitlines()[-1]
    assert line.startswith("3 players, 2 samples a flick, seed 4: ") and "of 3 games" in line
    assert list(tmp_path.iterdir()) == []  # it writes nothing


def test_a_budget_below_one_is_refused_in_one_line(tmp_path: Path) -> None:
    proc = _run(tmp_path, "--samples", "0")
    assert proc.returncode != 0
    assert proc.stderr.strip() == "--samples and --games must be at least 1"
