"""Learning-curve figure of a run folder (``eval.csv`` win rates, ``progress.csv`` returns)."""

from __future__ import annotations

import csv
import os
from pathlib import Path


def _read_csv(path: Path) -> list[dict[str, str]]:
    if not path.is_file() or path.stat().st_size == 0:
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def even_share(run: Path) -> float | None:
    """1 / the number of players of the run's game (``config.json``): what a seat wins in a
    table of equals; None when the run folder does not say."""
    import json

    from boardgames_rl.registry import make_game

    try:
        settings = json.loads((run / "config.json").read_text())
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
    evals = _read_csv(run / "eval.csv")
    progress = _read_csv(run / "progress.csv")
    fig = Figure(figsize=(10, 3.6))
    ax1, ax2 = fig.subplots(1, 2)
    for opp in dict.fromkeys(r["opponent"] for r in evals):
        rows = [r for r in evals if r["opponent"] == opp]
        x = [int(r["timesteps"]) for r in rows]
        y = [float(r["rate"]) for r in rows]
        ax1.plot(x, y, marker="o", label=f"vs {opp}")
        ax1.fill_between(
            x, [float(r["low"]) for r in rows], [float(r["high"]) for r in rows], alpha=0.2
        )
    share = even_share(run)
    if share is not None:
        ax1.axhline(share, color="grey", linestyle="--", linewidth=1, label=f"even share {share:g}")
    ax1.set(xlabel="timesteps", ylabel="win rate", ylim=(0, 1), title="evaluation (95% CI)")
    if evals:
        ax1.legend(loc="lower right")
    pts = [
        (int(float(r["time/total_timesteps"])), float(r["rollout/ep_rew_mean"]))
        for r in progress
        if r.get("rollout/ep_rew_mean") and r.get("time/total_timesteps")
    ]
    if pts:
        ax2.plot(*zip(*pts, strict=True))
    ax2.set(xlabel="timesteps", ylabel="mean final return", title="training episodes")
    from matplotlib.ticker import EngFormatter

    for ax in (ax1, ax2):
        ax.xaxis.set_major_formatter(EngFormatter())  # 100k, not 100000
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    return out
