"""Instructions counted by callgrind for a Python snippet run in one build: the measure of the
instruction-count benchmarks (``ismcts_instructions.py``, ``batched_instructions.py``), which the
machine's load does not move. Needs valgrind (Debian's package)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

BUILDS = ("compiled", "pure")
"""The builds a snippet can run in (``BOARDGAMES_RL_PURE=0`` / ``1``)."""


def require_valgrind(script: str) -> None:
    """Refuse in one line, naming ``script``, where valgrind is not on the PATH."""
    if shutil.which("valgrind") is None:
        raise SystemExit(f"{script}: valgrind is not installed (apt install valgrind)")


def collected(script: str, code: str, args: list[str], build: str, what: str) -> int:
    """Instructions of one process running ``code`` (``python -c code *args``) in ``build``,
    with one thread for numpy, the repository on the path and string hashing seeded
    (``PYTHONHASHSEED=0``: with a random seed per process, dictionaries and sets probe
    differently from run to run, and a count moved by about 3% between repeats); a failure
    exits in one line naming ``script`` and ``what`` with the end of valgrind's output."""
    env = {**os.environ, "BOARDGAMES_RL_PURE": "1" if build == "pure" else "0"}
    env.update(OMP_NUM_THREADS="1", PYTHONPATH=str(REPO_ROOT), PYTHONHASHSEED="0")
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, "-c", code, *args,
    ]  # fmt: skip
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=REPO_ROOT)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        tail = done.stderr.strip().splitlines()[-3:]
        raise SystemExit(f"{script}: {what} ({build}) failed: {' | '.join(tail)}")
    return int(found.group(1))
