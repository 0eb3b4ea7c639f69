"""What a training run says as it goes, on standard output, flushed line by line.

:func:`report` prints one line (a log file, a pipe or a notebook sees it at once; a progress bar
on the terminal is redrawn below it; a closed output never stops the run). :func:`eval_line` is
the line after an evaluation (the step, the win rate against each opponent with its 95% interval,
the time since the start), :func:`win_rates` its middle, :func:`duration` its clock.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from boardgames_rl._util.progress import bars_enabled

_REPORTING = [True]
"""Cleared when standard output is gone (``train ... | head -3``): the run goes on silently."""


def report(line: str) -> None:
    """Print one line of the run's report on standard output, flushed at once (a log file, a
    pipe, a notebook see it as it happens); a progress bar on the terminal is redrawn below it.
    A closed output (its reader exited) never stops the run: the lines after it are dropped."""
    if not _REPORTING[0]:
        return
    try:
        tqdm = sys.modules.get("tqdm.auto")
        if tqdm is not None and bars_enabled():
            tqdm.tqdm.write(line, file=sys.stdout)
            sys.stdout.flush()
        else:
            print(line, flush=True)
    except (BrokenPipeError, ValueError):  # the reader is gone, or stdout was closed
        _REPORTING[0] = False
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing at exit


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``."""
    s = int(round(max(seconds, 0.0)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def win_rates(rows: Sequence[dict[str, Any]]) -> str:
    """``vs random RATE [LOW, HIGH], vs heuristic RATE [LOW, HIGH] (N games each)``:
    the win rate against each opponent with its 95% (Wilson) interval."""
    if not rows:
        return "no evaluation"
    parts = [
        f"vs {r['opponent']} {float(r['rate']):.3f} [{float(r['low']):.3f}, {float(r['high']):.3f}]"
        for r in rows
    ]
    games = sorted({int(r["games"]) for r in rows})
    each = " each" if len(rows) > 1 else ""
    count = f"{games[0]} games{each}" if len(games) == 1 else "games: " + "/".join(map(str, games))
    return f"{', '.join(parts)} ({count})"


def eval_line(steps: int, rows: Sequence[dict[str, Any]], seconds: float, best: bool) -> str:
    """The line a run prints after an evaluation: the step, the win rate against each opponent
    with its interval, the time since the run started, and whether it is the best so far."""
    kept = "; new best, kept in best/" if best else ""
    return f"[eval] step {steps:,}, {duration(seconds)}: {win_rates(rows)}{kept}"
