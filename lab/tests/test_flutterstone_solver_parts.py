"""``lab/experiments/flutterstone_solver_parts.py`` run as a person runs it: a real process, a few
games per variant, its table printed and its JSON written where asked; a wrong name refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "lab" / "experiments" / "flutterstone_solver_parts.py")
VARIANTS = ["solver", "heuristic:FLICK,MOVE", "flicks:product", "rival:leader", "moat:0.3"]


def test_every_variant_plays_and_the_table_is_written(tmp_path: Path) -> None:
    out = tmp_path / "parts.json"
    argv = [sys.executable, SCRIPT, "--players", "3", "--games", "6", "--seed", "5"]
    argv += ["--variants", *VARIANTS, "--out", str(out)]
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(out.read_text())
    assert list(data["rows"]) == VARIANTS and data["players"] == 3
    for spec, row in data["rows"].items():
        assert spec in proc.stdout
        assert 0.0 <= row["low"] <= row["rate"] <= row["high"] <= 1.0
        assert len(row["by_seat"]) == 3
        # every game has one winner at most: the variant's wins and the heuristic seats' add up
        assert row["rate"] + 2 * row["heuristic_seat"] <= 1.0 + 1e-9
    assert set(data["provenance"]) == {"date", "commit", "machine"}


def test_a_variant_that_is_not_one_is_refused_in_one_line(tmp_path: Path) -> None:
    for bad in ("heuristic:FLIKC", "flicks:median", "solverr", "moat:1.5", "moat:x"):
        proc = subprocess.run(
            [sys.executable, SCRIPT, "--games", "2", "--variants", bad],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode != 0
        line = proc.stderr.strip()
        assert "\n" not in line and bad.split(":")[-1] in line, proc.stderr
    assert list(tmp_path.iterdir()) == []
