"""A run folder holds one training at a time: a second one started into it -- in another
process, or in this one -- is refused in one line before it writes anything, and the lock goes
with the training that held it, however it ends (normally, by a signal, by a crash)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.training.runs import lock_run, unlock_run
from tests.training.helpers import wait_for_checkpoint

pytestmark = pytest.mark.timeout(600)

TRAIN = [sys.executable, "-m", "boardgames_rl.training.ppo", "--game", "castle_flutterstone",
         "--num-envs", "2", "--num-steps", "32", "--batch-size", "32", "--update-epochs", "1",
         "--net", "16,16", "--eval-games", "0", "--checkpoint-every", "64"]  # fmt: skip
LEAGUE = [sys.executable, "-m", "boardgames_rl.training.league", "--game", "castle_flutterstone",
          "--games-per-iteration", "4", "--games-per-task", "2", "--net", "16,16",
          "--eval-games", "0", "--checkpoint-every", "200"]  # fmt: skip


def listing(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


@pytest.mark.parametrize("command", [TRAIN, LEAGUE], ids=["train", "league"])
def test_a_training_into_a_folder_another_one_holds_is_refused_and_writes_nothing(
    tmp_path: Path, command: list[str]
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    before = listing(out)
    lock_run(out)  # this process trains into it
    try:
        refused = subprocess.run(
            [*command, "--timesteps", "64", "--out", str(out)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert refused.returncode == 1, refused.stderr
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1 and "is in use" in lines[0] and "another --out" in lines[0], lines
        assert listing(out) == before, "nothing written by the refused training"
        with pytest.raises(InvalidConfigError, match="is in use"):
            lock_run(out)  # nor a second training of this process
    finally:
        unlock_run(out)
    done = subprocess.run(
        [*command, "--timesteps", "64", "--out", str(out)], capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (out / "model.zip").is_file() and (out / "notes.txt").read_text() == "mine"


def test_a_running_training_holds_its_folder_until_a_signal_stops_it(tmp_path: Path) -> None:
    """The real race: while one process trains, a second command on the same folder (even
    ``--resume``) is refused and the first goes on; once SIGTERM has stopped the first, saved,
    the folder is free again."""
    out = tmp_path / "run"
    first = subprocess.Popen(
        [*TRAIN, "--timesteps", "100000", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        wait_for_checkpoint(out, first)
        for extra in ([], ["--resume"]):
            second = subprocess.run(
                [*TRAIN, "--timesteps", "64", "--out", str(out), *extra],
                capture_output=True, text=True, timeout=300,
            )  # fmt: skip
            assert second.returncode == 1 and "is in use" in second.stderr, second.stderr
        assert first.poll() is None, "the first training goes on"
    finally:
        first.send_signal(signal.SIGTERM)
        _, err = first.communicate(timeout=120)
    assert first.returncode == 143, err
    assert json.loads((out / "config.json").read_text())["complete"] is False
    lock_run(out)  # free again: the stopped training's lock went with it
    unlock_run(out)


def test_a_link_is_not_locked_through(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(OSError):
        lock_run(link)
