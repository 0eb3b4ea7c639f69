"""Helpers of the training tests: tiny run settings of the library's trainer
(:mod:`boardgames_rl.training.ppo`)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from boardgames_rl.training.ppo import main

TINY = [
    "--num-envs",
    "2",
    "--num-steps",
    "64",
    "--batch-size",
    "64",
    "--update-epochs",
    "2",
    "--net",
    "32,32",
    "--eval-games",
    "2",
    "--eval-every",
    "0",
]
"""Flags of a run small enough for the tests (a few seconds)."""


def tiny_run(out: Path, game: str, timesteps: int = 128, *extra: str) -> dict[str, Any]:
    """Train a tiny run into ``out``; returns its ``config.json``."""
    return main(["--game", game, "--timesteps", str(timesteps), "--out", str(out), *TINY, *extra])


def model_weights(path: Path) -> dict[str, Any]:
    """The policy state dict of a ``model.zip`` (tensors only, ``weights_only``)."""
    import io
    import zipfile

    import torch as th

    with zipfile.ZipFile(path) as z:
        return th.load(io.BytesIO(z.read("policy.pth")), weights_only=True)


def same_weights(a: Path, b: Path) -> bool:
    """Whether two ``model.zip`` files hold bit-identical weights."""
    import torch as th

    wa, wb = model_weights(a), model_weights(b)
    return wa.keys() == wb.keys() and all(th.equal(wa[k], wb[k]) for k in wa)


def saved_steps(out: Path) -> int:
    """``num_timesteps`` of a run folder's ``config.json`` (0 while it is missing or being
    replaced)."""
    try:
        return int(json.loads((out / "config.json").read_text()).get("num_timesteps", 0))
    except (OSError, ValueError):
        return 0


def wait_for_checkpoint(
    out: Path, proc: subprocess.Popen, at_least: int = 1, timeout: float = 180
) -> None:
    """Wait until the training ``proc`` has saved a checkpoint of at least ``at_least`` steps
    into ``out`` (it must still be running)."""
    deadline = time.monotonic() + timeout
    while saved_steps(out) < at_least:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no checkpoint in time"
        time.sleep(0.05)
