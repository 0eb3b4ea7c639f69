"""Shared pytest setup: registers the toy game (``boardgames_rl.testing.toy_game``) and provides
common fixtures.

``tests/`` is on ``sys.path`` (pytest's rootdir-conftest insertion), so test modules import the
``conformance`` parametrisation helpers and ``random_play`` directly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_TESTS_DIR = str(Path(__file__).resolve().parent)
if _TESTS_DIR not in sys.path:  # e.g. under --import-mode=importlib
    sys.path.insert(0, _TESTS_DIR)

from boardgames_rl.testing.toy_game import ToyGame, register_toy_game  # noqa: E402

# Registered at import time (before collection) so that the conformance suite, parametrised over
# the registry, includes the toy game. Guarded: safe when conftest is imported more than once.
register_toy_game()


@pytest.fixture
def toy2() -> ToyGame:
    """Two-player toy game."""
    return ToyGame(num_players=2)


@pytest.fixture
def toy3() -> ToyGame:
    """Three-player toy game."""
    return ToyGame(num_players=3)


@pytest.fixture
def toy_cut() -> ToyGame:
    """Three-player toy game with an engine cap (most games end truncated)."""
    return ToyGame(num_players=3, rounds=2, cap=14)
