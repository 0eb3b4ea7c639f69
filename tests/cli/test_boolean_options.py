"""On/off game options from the command line: ``-c pesky_ghosts=no`` turns the variant off.

Before: Castle Flutterstone read any text as on (``bool("no")``), so ``=no``, ``=off`` or a typo
turned the variant on. Every game now parses on/off options with ``core.options.parse_bool`` (the
conformance check ``options`` holds every registered game to it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames_rl import make_game
from boardgames_rl.core.errors import InvalidConfigError


def _arena(tmp_path: Path, value: str, out: str | None = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "boardgames_rl.cli", "arena", "castle_flutterstone", "random"]
    cmd += ["heuristic", "--games", "2", "-c", f"pesky_ghosts={value}", "--no-progress"]
    if out:
        cmd += ["--out", str(tmp_path / out)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path)


@pytest.mark.parametrize(("value", "on"), [("OFF", False), ("yes", True)])
def test_the_cli_reads_on_off_words(tmp_path, value, on):
    proc = _arena(tmp_path, value, out="t")
    assert proc.returncode == 0, proc.stderr
    config = json.loads((tmp_path / "t" / "tournament.json").read_text())["config"]
    assert config["pesky_ghosts"] is on


def test_the_cli_refuses_a_typo_in_one_line(tmp_path):
    proc = _arena(tmp_path, "nope")
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "pesky_ghosts must be true or false" in proc.stderr


@pytest.mark.parametrize("key", ["pesky_ghosts", "courtyard_optional", "play_on"])
def test_python_strings_are_not_read_as_on(key):
    assert getattr(make_game("castle_flutterstone", **{key: "false"}), key) is False
    with pytest.raises(InvalidConfigError, match=key):
        make_game("castle_flutterstone", **{key: "flase"})
