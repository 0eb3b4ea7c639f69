"""The building blocks of a game's ``state_checks`` (its :class:`~boardgames_rl.core.spec.GameSpec`
field): id ranges, conserved decks and per-player rows of an untrusted state dict, checked without
building anything (the checker that runs them is :mod:`boardgames_rl.state_checks`)."""

from __future__ import annotations

from typing import Any


def kind(v: Any) -> str:
    """The JSON kind of ``v``: ``"null"``, ``"bool"``, ``"int"`` (never a bool), ``"float"``,
    ``"str"``, ``"list"`` (or tuple), ``"dict"``, else its type's name."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list | tuple):
        return "list"
    if isinstance(v, dict):
        return "dict"
    return type(v).__name__


def ints_within(v: Any, lo: int, hi: int) -> bool:
    """True when ``v`` is an int in ``lo..hi-1``, or a (nested) list of such ints (for the games'
    consistency checks: card, seat, token and square ids)."""
    if isinstance(v, list | tuple):
        return all(ints_within(x, lo, hi) for x in v)
    return kind(v) == "int" and lo <= v < hi


def is_permutation(items: Any, size: int) -> bool:
    """True when ``items`` holds each id ``0..size-1`` exactly once (a conserved deck)."""
    return (
        isinstance(items, list | tuple)
        and len(items) == size
        and ints_within(list(items), 0, size)
        and len(set(items)) == size
    )


def flat(rows: Any) -> list:
    """The entries of a list of lists, in order (non-list rows are skipped)."""
    out: list = []
    for row in rows if isinstance(rows, list | tuple) else []:
        if isinstance(row, list | tuple):
            out.extend(row)
    return out
