"""Issue 40.11: with the base install (numpy, gymnasium, pettingzoo; no matplotlib) a missing
picture extra costs the picture, not the result. ``arena --out`` prints the table and the
ratings, writes every file but ``heatmap.png``, says so in one line naming the extra, and exits
0; the ladder writes its tables the same way. Driven in subprocesses where matplotlib (and the
other extras) cannot be imported: a ``sitecustomize`` on ``PYTHONPATH`` puts a finder that
raises ImportError for them first in ``sys.meta_path`` (spawned workers inherit it too)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import boardgames_rl
from boardgames_rl.arena.results import TournamentResult

PACKAGE_ROOT = str(Path(boardgames_rl.__file__).resolve().parent.parent)
EXTRAS = ("matplotlib", "PIL", "torch", "stable_baselines3", "sb3_contrib", "tqdm", "ray", "scipy")
BLOCKER = f"""
import sys

BLOCKED = {set(EXTRAS)!r}


class BaseInstallOnly:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is not installed (test: base install only)")
        return None


sys.meta_path.insert(0, BaseInstallOnly())
"""
ARENA = ["arena", "castle_flutterstone", "heuristic", "random", "--games", "2", "--no-progress"]
DATA_FILES = {
    "tournament.json",
    "games.jsonl",
    "results.csv",
    "pairwise.csv",
    "ratings.csv",
    "results.json",
}
EXTRA_LINE = "pip install 'boardgames-rl[viz]'"


@pytest.fixture()
def base_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a base install: the extras' imports fail in the child process."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), PACKAGE_ROOT])}


def run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = env or {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, env=env
    )


def test_the_blocker_models_a_base_install(base_env):
    proc = run(["-c", "import numpy, gymnasium, pettingzoo; import matplotlib"], base_env)
    assert proc.returncode == 1 and "matplotlib is not installed" in proc.stderr


def test_arena_out_without_matplotlib_prints_the_table_and_writes_the_data(base_env, tmp_path):
    out = tmp_path / "t"
    proc = run(["-m", "boardgames_rl.cli", *ARENA, "--out", str(out)], base_env)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "error" not in proc.stderr
    # every data file is there, the picture is not
    assert set(os.listdir(out)) == DATA_FILES
    # the table and the ratings, as the folder's result gives them
    result = TournamentResult.load(out)
    assert len(result.records) == 2
    assert result.table() in proc.stdout
    assert "ratings: Bradley-Terry" in proc.stdout
    # one line says which picture was skipped and which extra draws it
    said = [line for line in proc.stdout.splitlines() if "heatmap.png" in line]
    assert len(said) == 1 and "skipped" in said[0] and EXTRA_LINE in said[0], proc.stdout
    assert "heatmap" not in proc.stderr

    # with matplotlib, the same command resumes and draws the picture...
    proc = run(["-m", "boardgames_rl.cli", *ARENA, "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    assert set(os.listdir(out)) == DATA_FILES | {"heatmap.png"}
    assert "skipped" not in proc.stdout
    # ...and a later run without it removes that picture rather than leave a stale one
    proc = run(["-m", "boardgames_rl.cli", *ARENA, "--out", str(out)], base_env)
    assert proc.returncode == 0, proc.stderr
    assert set(os.listdir(out)) == DATA_FILES
    said = [line for line in proc.stdout.splitlines() if "heatmap.png" in line]
    assert len(said) == 1 and EXTRA_LINE in said[0] and "removed" in said[0], proc.stdout


LADDER = """
import sys, warnings
from boardgames_rl.arena.ladder import rate_against_ladder

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    result = rate_against_ladder(
        "castle_flutterstone", {"greedy": "heuristic"}, games_per_pair=2, progress=False,
        out_dir=sys.argv[1], ladder={"random": "random"},
    )
print(result.table())
for w in caught:
    print(w.category.__name__, w.message)
"""


def test_ladder_without_matplotlib_writes_its_tables(base_env, tmp_path):
    out = tmp_path / "ladder"
    proc = run(["-c", LADDER, str(out)], base_env)
    assert proc.returncode == 0, proc.stderr
    assert set(os.listdir(out)) == DATA_FILES | {"ladder.md", "ladder.txt"}
    warned = [line for line in proc.stdout.splitlines() if line.startswith("PictureSkippedWarning")]
    assert len(warned) == 2, proc.stdout  # heatmap.png and ladder_heatmap.png, each named once
    assert "heatmap.png skipped" in warned[0] and "ladder_heatmap.png skipped" in warned[1]
    assert all(EXTRA_LINE in line for line in warned)
    markdown = (out / "ladder.md").read_text(encoding="utf-8")
    assert "greedy" in markdown and "](ladder_heatmap.png)" not in markdown
    assert "ladder_heatmap.png skipped" in markdown
    assert "greedy" in (out / "ladder.txt").read_text(encoding="utf-8")
