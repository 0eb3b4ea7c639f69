"""``lab/recipes/league_entries.py search`` (issue 43): a shipped 2-player entry measured against
the tuned ISMCTS at 400 iterations, written into its JSON; a name that is not an entry's, or an
entry of more players, refused in one line. Driven as the script, in a process of its own."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "lab" / "recipes" / "league_entries.py"
PACKAGE = ROOT / "boardgames_rl" / "pretrained"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "search", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def _copy(entry: str, folder: Path) -> None:
    for suffix in (".json", ".npz"):
        shutil.copyfile(PACKAGE / f"{entry}{suffix}", folder / f"{entry}{suffix}")


def test_search_writes_the_ismcts_figure_into_the_entry(tmp_path: Path) -> None:
    _copy("castle_flutterstone-2p", tmp_path)
    before = json.loads((tmp_path / "castle_flutterstone-2p.json").read_text())
    done = _run("castle_flutterstone-2p", "--games", "2", "--package-dir", str(tmp_path))
    assert done.returncode in (0, 1), done.stderr  # 1: two games need not meet the target
    after = json.loads((tmp_path / "castle_flutterstone-2p.json").read_text())
    row = after["strength"]["vs tuned ismcts 400"]
    assert row["all"]["games"] == 2 and 0.0 <= row["all"]["rate"] <= 1.0
    assert row["player_0"]["games"] + row["player_1"]["games"] == 2  # seats rotated
    # the rest of the entry is unchanged (its weights and their digest)
    key = "vs tuned ismcts 400"  # (the shipped entry may hold an earlier figure: replaced)
    strength = {k: v for k, v in after["strength"].items() if k != key}
    assert strength == {k: v for k, v in before["strength"].items() if k != key}
    assert {k: v for k, v in after.items() if k != "strength"} == {
        k: v for k, v in before.items() if k != "strength"
    }
    seed = before["strength"]["seed"] + 1
    assert f"over 2 games (seed {seed})" in done.stdout


def test_search_refuses_a_name_that_is_not_an_entry(tmp_path: Path) -> None:
    done = _run("../castle_flutterstone-2p", "--package-dir", str(tmp_path))
    assert done.returncode != 0
    assert "a shipped entry's name" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_search_refuses_an_entry_of_more_players(tmp_path: Path) -> None:
    _copy("white_castle-3p", tmp_path)
    done = _run("white_castle-3p", "--package-dir", str(tmp_path))
    assert done.returncode != 0
    assert "3 players" in done.stderr and len(done.stderr.strip().splitlines()) == 1
