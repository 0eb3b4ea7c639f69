"""Helpers for White Castle scenario tests."""

from __future__ import annotations

from boardgames_rl.games.white_castle.legal import MAX_OPTS
from boardgames_rl.games.white_castle.naming import option_names


def names(s) -> list[str]:
    return option_names(s)


def do(s, text: str) -> None:
    """Apply the single option whose contextual name contains ``text``."""
    opts = option_names(s)
    hits = [i for i, n in enumerate(opts) if text in n]
    assert len(hits) == 1, f"{text!r} matches {hits} in {opts}"
    s.apply(hits[0])


def exchange(s, i: int) -> None:
    s.apply(MAX_OPTS + i)
