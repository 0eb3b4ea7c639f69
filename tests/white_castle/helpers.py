"""Helpers for White Castle scenario tests."""

from __future__ import annotations

from typing import Any

from boardgames_rl.games.white_castle.game import WhiteCastle
from boardgames_rl.games.white_castle.legal import MAX_OPTS
from boardgames_rl.games.white_castle.naming import option_names
from boardgames_rl.games.white_castle.scenario import blank_fields, build
from boardgames_rl.games.white_castle.state import WhiteCastleState


def table(game: WhiteCastle, seed: int = 0, **fields: Any) -> WhiteCastleState:
    """``scenario.build`` on a blank table (``scenario.blank_fields``) with ``fields`` over it."""
    return build(game, seed=seed, **blank_fields(game, **fields))


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


RESOURCE_KEYS = ("food", "iron", "pearl", "coin", "seal", "vp", "pot")
AUTO_ANSWER = {"res": "take 1 pearl", "pay": "yes:", "lantern_q": "no:", "checkpoint": "yes:"}
STOP_KINDS = ("courtier", "warrior", "gardener", "pick", "daimyo")


def snapshot(s, p: int = 0) -> dict[str, int]:
    """The counters of seat ``p`` that effects change."""
    return {k: s.players[p][k] for k in RESOURCE_KEYS}


def delta(s, before: dict[str, int], p: int = 0) -> dict[str, int]:
    """Non-zero changes of seat ``p`` 's counters since ``before``."""
    now = snapshot(s, p)
    return {k: now[k] - before[k] for k in RESOURCE_KEYS if now[k] != before[k]}


def drive(s, p: int = 0) -> str | None:
    """Resolve ``p`` 's routine decisions with fixed answers.

    "any resource" takes pearl, paid parts and checkpoints are accepted, the Lantern question
    is declined, order/opt decisions take the first effect, and the continuation of an
    earlier courtier action (climb already used) stops. Returns the kind of the first worker
    or pick decision met (``STOP_KINDS``), or None once ``p`` 's turn is over.
    """
    while s.decision is not None and s.current_player == p:
        kind = s.decision["kind"]
        if kind == "courtier" and s.decision["climb"]:
            do(s, "stop")
        elif kind in STOP_KINDS or kind in ("die", "place", "final"):
            return kind
        elif kind in ("order", "opt"):
            s.apply(0)
        else:
            do(s, AUTO_ANSWER[kind])
    return None
