"""Helpers of the training tests: tiny run settings."""

from __future__ import annotations

from pathlib import Path

from boardgames_rl.training.train_ppo import main

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
