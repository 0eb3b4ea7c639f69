"""Helpers of the SB3 recipe's tests: tiny run settings, the script's path."""

from __future__ import annotations

from pathlib import Path

from lab.recipes.sb3.train_ppo import main

REPO_ROOT = Path(__file__).resolve().parents[3]
TRAIN_SB3 = REPO_ROOT / "lab" / "recipes" / "train_sb3.py"
"""The SB3 trainer's command line."""
TRAIN_STRONG = REPO_ROOT / "lab" / "recipes" / "train_strong.py"
COLLECT_DEMOS = REPO_ROOT / "lab" / "experiments" / "collect_demos.py"

TINY = [
    "--n-envs",
    "2",
    "--n-steps",
    "64",
    "--batch-size",
    "64",
    "--n-epochs",
    "2",
    "--net",
    "32,32",
    "--eval-games",
    "2",
    "--eval-every",
    "0",
    "--no-progress",
    "--bc-games",
    "0",
]
"""Flags of a run small enough for the tests (a few seconds)."""


def tiny_run(out: Path, game: str, timesteps: int = 128, *extra: str) -> dict:
    """Train a tiny run into ``out``; returns the saved settings."""
    return main(["--game", game, "--timesteps", str(timesteps), "--out", str(out), *TINY, *extra])
