"""Instructions counted by callgrind for a Python snippet run in one build: the measure of the
instruction-count benchmarks (``ismcts_instructions.py``, ``batched_instructions.py``), which the
machine's load does not move. Needs valgrind (Debian's package)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def measure(
    script: str,
    games: list[str],
    builds: list[str],
    count: Callable[[str, str], float],
    unit: tuple[float, str],
    benchmark: str,
    settings: dict[str, Any],
    out: Path | None,
) -> dict[str, dict[str, Any]]:
    """The figures of an instruction-count script: ``count(game, build)`` for every setup and
    build (printed as each ends, in ``unit``: a divisor and its words), the builds' ratio, and
    the JSON ``out`` (with ``benchmark``, ``settings`` and the provenance) if given. A setup that
    is not one, or a machine without valgrind, is refused in one line before any long run."""
    from boardgames_rl.core.files import write_text
    from lab.benchmarks.throughput import targets_for
    from lab.provenance import provenance

    for game in games:
        try:
            targets_for(game)
        except Exception as e:
            raise SystemExit(f"{script}: {e}") from e
    require_valgrind(script)
    divisor, words = unit
    rows: dict[str, dict[str, Any]] = {}
    for game in games:
        row: dict[str, Any] = {}
        for build in builds:
            row[build] = count(game, build)
            print(f"{game:40} {build:9} {row[build] / divisor:8.1f} {words}", flush=True)
        if "compiled" in row and "pure" in row:
            row["pure / compiled"] = row["pure"] / row["compiled"]
        rows[game] = row
    if out:
        data = {
            "benchmark": benchmark,
            "settings": settings,
            "games": rows,
            "provenance": provenance(),
        }
        write_text(out, json.dumps(data, indent=1) + "\n")
        print(f"saved {out}")
    return rows
