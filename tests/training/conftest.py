"""Shared fixtures of the training tests: one tiny trained model reused by several tests."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from .helpers import tiny_run

torch.set_num_threads(1)


@pytest.fixture(scope="session")
def flutter_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny castle_flutterstone 2p run folder of the library's trainer (random seat, random +
    heuristic + self)."""
    out = tmp_path_factory.mktemp("flutter_run")
    tiny_run(out, "castle_flutterstone", 128, "--snapshot-every", "64")
    return out
