"""Scenario helpers for tests written from a rulebook's sentences: play a state forward by the
action names a person reads, and check what is legal.

Each game's ``scenario.build(game, **overrides)`` makes the position a rule sentence describes;
these helpers then check and play it by name (``tests/night_of_the_ninja/test_rules.py`` and
``tests/castle_nightingale/test_rules.py`` are written this way).
"""

from __future__ import annotations

from boardgames_rl.core.game import State
from boardgames_rl.core.scenario import legal_names, play

__all__ = ["assert_legal", "assert_not_legal", "legal_names", "play"]


def assert_legal(state: State, *names: str) -> None:
    """Every name is a legal action of the pending decision (``AssertionError`` lists them)."""
    legal = legal_names(state)
    missing = [n for n in names if n not in legal]
    assert not missing, f"{state.game.name}: {missing} not legal now; legal: {legal}"


def assert_not_legal(state: State, *names: str) -> None:
    """No name is a legal action of the pending decision."""
    legal = set(legal_names(state))
    present = [n for n in names if n in legal]
    assert not present, f"{state.game.name}: {present} should not be legal now"
