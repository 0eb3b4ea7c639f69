"""Learning-curve figure of a run folder (``eval.csv`` win rates, ``progress.csv`` returns).

The logs are read as data (regular files, capped, every number checked: a damaged log is one
line naming it); the figure is written inside the run folder, never through a link.
"""

from __future__ import annotations

import csv
import io
import math
import os
from pathlib import Path

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import printable, read_text, write_stream
from boardgames_rl.training.checkpoint import MAX_LOG_BYTES


def read_log(path: Path) -> list[dict[str, str]]:
    """The rows of a run's CSV log (``eval.csv``, ``progress.csv``): a regular file, capped at
    ``MAX_LOG_BYTES``; no rows when there is no such file."""
    try:
        text = read_text(path, MAX_LOG_BYTES, "training log")
    except FileNotFoundError:
        return []
    return list(csv.DictReader(io.StringIO(text)))


def log_number(path: Path, row: dict[str, str], column: str) -> float:
    """``row[column]`` of the log ``path`` as a finite number; anything else is refused in one
    line naming the file."""
    try:
        value = float(row[column])
    except (KeyError, TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value):
        raise InvalidConfigError(
            f"{path}: {column} {str(row.get(column))[:40]!r} is not a finite number: the figure "
            "needs the run's own log; restore it"
        )
    return value


def even_share(run: Path) -> float | None:
    """1 / the number of players of the run's game (``config.json``): what a seat wins in a
    table of equals; None when the run folder does not say."""
    from boardgames_rl.registry import make_game
    from boardgames_rl.training.runs import read_config

    try:
        saved = read_config(run)
        settings = saved.get("settings", saved)  # this trainer's, or the SB3 trainer's runs
        return 1.0 / make_game(settings["game"], **settings.get("config", {})).num_players
    except Exception:  # noqa: BLE001 - a figure without the line, never a failed run
        return None


def plot_learning_curve(
    run_dir: str | os.PathLike, out_png: str | os.PathLike | None = None, title: str = ""
) -> Path:
    """Draw win rates (with 95% intervals) per evaluation opponent and the mean episode return
    against timesteps, with a dashed line at the even share (1 / players: a seat's rate in a
    table of equals); saves ``out_png`` (default ``run_dir/learning_curve.png``)."""
    from matplotlib.figure import Figure  # no pyplot: works under any backend, leaks no figure

    run = Path(run_dir)
    out = Path(out_png) if out_png is not None else run / "learning_curve.png"
    eval_path, progress_path = run / "eval.csv", run / "progress.csv"
    evals = read_log(eval_path)
    progress = read_log(progress_path)
    fig = Figure(figsize=(10, 3.6))
    ax1, ax2 = fig.subplots(1, 2)
    for opp in dict.fromkeys(r.get("opponent") for r in evals):
        rows = [r for r in evals if r.get("opponent") == opp]
        x = [log_number(eval_path, r, "timesteps") for r in rows]
        y = [log_number(eval_path, r, "rate") for r in rows]
        ax1.plot(x, y, marker="o", label=f"vs {printable(str(opp))}")
        ax1.fill_between(
            x,
            [log_number(eval_path, r, "low") for r in rows],
            [log_number(eval_path, r, "high") for r in rows],
            alpha=0.2,
        )
    share = even_share(run)
    if share is not None:
        shown = f"1/{round(1 / share)}" if share < 0.5 else f"{share:g}"  # 1/3, not 0.333333
        ax1.axhline(share, color="grey", linestyle="--", linewidth=1, label=f"even share {shown}")
    ax1.set(xlabel="timesteps", ylabel="win rate", ylim=(0, 1), title="evaluation (95% CI)")
    if evals:
        ax1.legend(loc="lower right")
    else:  # a run without evaluation: say so, not an empty axis from 0 to 1
        ax1.text(0.5, 0.75, "no evaluation in this run", ha="center", va="center",
                 transform=ax1.transAxes, color="grey")  # fmt: skip
    pts = [
        (
            log_number(progress_path, r, "time/total_timesteps"),
            log_number(progress_path, r, "rollout/ep_rew_mean"),
        )
        for r in progress
        if r.get("rollout/ep_rew_mean") and r.get("time/total_timesteps")
    ]
    if pts:
        ax2.plot(*zip(*pts, strict=True))
        if not evals:
            ax1.set_xlim(ax2.get_xlim())
    ax2.set(xlabel="timesteps", ylabel="mean final return", title="training episodes")
    from matplotlib.ticker import EngFormatter

    for ax in (ax1, ax2):
        ax.xaxis.set_major_formatter(EngFormatter())  # 100k, not 100000
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    root = run if out.is_relative_to(run) else out.parent
    write_stream(out, lambda f: fig.savefig(f, format="png", dpi=100), root)
    return out
