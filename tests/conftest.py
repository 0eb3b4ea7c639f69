"""Shared pytest setup: registers the toy game (``boardgames_rl.testing.toy_game``) and provides
common fixtures.

``tests/`` is on ``sys.path`` (pytest's rootdir-conftest insertion), so test modules import the
``conformance`` parametrisation helpers and ``random_play`` directly.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

_TESTS_DIR = str(Path(__file__).resolve().parent)
if _TESTS_DIR not in sys.path:  # e.g. under --import-mode=importlib
    sys.path.insert(0, _TESTS_DIR)

from boardgames_rl.compiled import build_info  # noqa: E402
from boardgames_rl.testing.toy_game import ToyGame, register_toy_game  # noqa: E402

EXPECT_BUILD = "BOARDGAMES_RL_EXPECT_BUILD"
"""Set by the README's test command: the build of the engines the session must run (``compiled``
or ``pure``), so that a compiled build that silently fell back to pure fails CI."""


def pytest_report_header(config: pytest.Config) -> str:
    info = build_info()
    return f"boardgames_rl engines: {info['build']} ({info['compiler'] or info['reason']})"


PURE_SESSION = (
    "tests/compiled/",
    "tests/castle_flutterstone/test_rules.py",
    "tests/castle_flutterstone/test_same_games.py",
    "tests/castle_nightingale/test_rules.py",
    "tests/castle_nightingale/test_same_games.py",
    "tests/night_of_the_ninja/test_rules.py",
    "tests/night_of_the_ninja/test_same_games.py",
    "tests/white_castle/test_rules.py",
    "tests/white_castle/test_rules_more.py",
)
"""What the README's pure-build session runs besides the ``pure_only`` tests (``-m "pure_only or
pure_session"``): the rules tests, the recorded games and the build's own tests."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(__file__).resolve().parent.parent
    for item in items:
        where = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
        if where.startswith(PURE_SESSION):
            item.add_marker(pytest.mark.pure_session)
    if build_info()["build"] != "compiled":
        return
    skip = pytest.mark.skip(
        reason="pure_only: spies on an engine's internals, which the compiled build does not "
        "allow; the README's pure-build session runs it"
    )
    for item in items:
        if "pure_only" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config: pytest.Config) -> None:
    expected = os.environ.get(EXPECT_BUILD, "")
    if expected not in ("", "compiled", "pure"):
        raise pytest.UsageError(f"{EXPECT_BUILD} must be compiled or pure, got {expected!r}")
    info = build_info()
    if expected and info["build"] != expected:
        raise pytest.UsageError(
            f"{EXPECT_BUILD}={expected} but the engines run {info['build']}: {info['reason']}"
        )


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
