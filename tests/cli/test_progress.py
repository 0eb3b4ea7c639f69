"""Issue 16.4: "`--no-progress` (and no bar when output is not a terminal) on every long
command". The bar goes to stderr: on a pseudo-terminal it is drawn, with ``--no-progress`` it is
not, and redirected to a pipe it is never drawn (logs get no ``\\r`` lines)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
LONG = {
    "arena": ["arena", "castle_flutterstone", "random", "heuristic", "--games", "2"],
    "demo": ["demo", "--games", "2"],
}


def stderr_on_a_terminal(argv: list[str]) -> str:
    """Run the command with stderr on a pseudo-terminal; returns what it wrote there."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "BOARDGAMES_RL_NO_PROGRESS"}
    try:
        proc = subprocess.Popen(
            [*CLI, *argv], stdout=subprocess.DEVNULL, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # the other end closed
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait(timeout=300) == 0
    finally:
        os.close(master)
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.parametrize("command", sorted(LONG))
def test_bar_on_a_terminal_none_with_no_progress_none_in_a_pipe(command):
    argv = LONG[command]
    assert "\r" in stderr_on_a_terminal(argv), "a terminal should get a progress bar"
    assert "\r" not in stderr_on_a_terminal([*argv, "--no-progress"])
    env = {k: v for k, v in os.environ.items() if k != "BOARDGAMES_RL_NO_PROGRESS"}
    piped = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=300, env=env)
    assert piped.returncode == 0 and "\r" not in piped.stderr and "it/s" not in piped.stderr
