"""Where a result was measured: the ``provenance`` key every results JSON of the lab carries.

``{"date": "YYYY-MM-DD", "commit": "<sha>[+]", "machine": "<one line>"}``: the day, the commit
the code ran at (``+`` when the work tree had uncommitted changes) and the machine. The site's
results pages (``python docs/generate.py``) print it under every table.
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _git(*args: str) -> str:
    try:
        out = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip()


def commit() -> str:
    """``git rev-parse HEAD`` of the clone, with ``+`` if the work tree is dirty."""
    sha = _git("rev-parse", "HEAD")
    if not sha:
        return "not recorded"
    return sha + ("+" if _git("status", "--porcelain", "--untracked-files=no") else "")


def machine() -> str:
    """One line: processor, core count, OS and Python."""
    cpu = platform.processor() or platform.machine() or "CPU"
    return (
        f"{os.cpu_count() or '?'}-core {cpu}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def provenance() -> dict[str, str]:
    """Today's date (UTC), the commit and the machine, for a results JSON's ``provenance``."""
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    return {"date": today, "commit": commit(), "machine": machine()}


def stamped(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with a fresh ``provenance`` key (the input is not changed)."""
    return {**data, "provenance": provenance()}
