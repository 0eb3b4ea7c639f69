"""Progress bars: drawn only on a terminal, never into a log; off by flag or environment."""

from __future__ import annotations

import subprocess
import sys

from boardgames_rl._util import progress


def test_no_bar_off_a_terminal_and_the_work_still_runs(capsys) -> None:
    assert not progress.bars_enabled()  # pytest captures stderr: not a terminal
    bar = progress.progress_bar(5, "x")
    for _ in range(5):
        bar.update(1)
    bar.close()
    assert bar.n == 5
    assert list(progress.progress_iter(range(3), 3, "y")) == [0, 1, 2]
    assert capsys.readouterr().err == ""


def test_switched_off_by_flag_and_environment(monkeypatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert progress.bars_enabled() == progress.has_module("tqdm")
    assert not progress.bars_enabled(enabled=False)
    monkeypatch.setenv("BOARDGAMES_RL_NO_PROGRESS", "1")
    assert not progress.bars_enabled()


def test_a_series_writes_no_carriage_returns_into_a_log() -> None:
    """The real path: an arena series through the CLI, stderr redirected to a pipe."""
    out = subprocess.run(
        [sys.executable, "-m", "boardgames_rl.cli", "arena", "castle_flutterstone", "random",
         "heuristic", "--games", "3"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "\r" not in out.stderr and "\r" not in out.stdout


def test_arena_and_demo_take_no_progress() -> None:
    for argv in (
        ["arena", "castle_flutterstone", "random", "heuristic", "--games", "2", "--no-progress"],
        ["demo", "--games", "2", "--no-progress"],
    ):
        out = subprocess.run(
            [sys.executable, "-m", "boardgames_rl.cli", *argv],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert out.returncode == 0, out.stderr
        assert "\r" not in out.stderr
