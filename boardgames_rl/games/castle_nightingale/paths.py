"""Ninja footprint placement: which squares the next disc may go to (rulebook "Ninja's
progression in the darkness", data sheet G7, G15, G16 and Shuko).

Pure functions over the board geometry and a few sets, so the movement rules are testable alone.

The look-ahead (G7): "The ninja must place all their footprint discs", and the one jump of the
turn ("The ninja can perform only one jump per game turn") may come at any point of the
movement. So every candidate placement is scored by how long the path can grow after it with
ordinary steps, passage travel, a still-unused free jump (Rooftop Leap) and, while the ninja holds
a token and has not jumped, one paid jump -- likewise one Shuko diagonal while the ninja holds
Shuko. Spending a token is never forced: the best path *without* spending stays open as well, and
where only spending could continue, the ninja may stop (the unplaced discs go back).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from boardgames_rl.games.castle_nightingale.board import Board


class PlacementContext(NamedTuple):
    """Everything the next placement depends on (a named tuple: the memo of
    :func:`legal_placements` hashes and compares one per lookup, a tuple does it in C).

    ``current``: the figurine's start square or the last disc placed; ``visited``: the start
    square and this turn's discs; ``samurai``: his square (never entered); ``open_passages``:
    passage squares without a trap door; ``free_jump`` / ``paid_jump``: a jump is still allowed
    this turn at no cost (Rooftop Leap) / by discarding a token; ``diagonal``: Shuko is active
    for this placement; ``shuko_held``: the ninja holds an unused Shuko token (the look-ahead may
    count one diagonal placement).
    """

    current: int
    visited: frozenset[int]
    samurai: int
    open_passages: frozenset[int]
    free_jump: bool
    paid_jump: bool
    diagonal: bool
    shuko_held: bool = False


def _steps(board: Board, cur: int, visited: frozenset[int], samurai: int, open_p: frozenset[int]):
    """Free single placements from ``cur``: orthogonal steps and passage travel (G15)."""
    out = set()
    for n in board.neighbours[cur]:
        if n not in visited and n != samurai:
            out.add(n)
    if cur in open_p:
        for p in open_p:
            if p != cur and p not in visited and p != samurai:
                out.add(p)
    return out


def _jumps(board: Board, cur: int, visited: frozenset[int], samurai: int) -> set[int]:
    """Landing squares of a jump over one square in a straight orthogonal line (G16)."""
    return {land for _over, land in board.jumps[cur] if land not in visited and land != samurai}


def _diagonals(board: Board, cur: int, visited: frozenset[int], samurai: int) -> set[int]:
    """Shuko targets: diagonal neighbours with no disc of this turn and no samurai."""
    return {t for t in board.diagonals[cur] if t not in visited and t != samurai}


def longest_extension(
    board: Board,
    cur: int,
    visited: frozenset[int],
    samurai: int,
    open_p: frozenset[int],
    jump: bool,
    limit: int,
    diagonal: bool = False,
) -> int:
    """How many more discs can be placed from ``cur`` (at most ``limit``) with ordinary steps,
    passage travel, one jump if ``jump`` (the turn's jump, free or paid) and one diagonal if
    ``diagonal`` (a Shuko still held). Depth-first with an early exit at ``limit``."""
    if limit <= 0:
        return 0
    return _extend(board, cur, set(visited), samurai, open_p, jump, limit, diagonal)


def _extend(
    board: Board,
    cur: int,
    seen: set[int],
    samurai: int,
    open_p: frozenset[int],
    jump: bool,
    limit: int,
    diagonal: bool,
) -> int:
    """:func:`longest_extension` with ``limit >= 1``, walking with one set of the squares taken
    (``seen``: a square is added on the way down and removed on the way back)."""
    best = 0
    moves = [(t, jump, diagonal) for t in board.neighbours[cur]]  # orthogonal steps (G15)
    if cur in open_p:
        moves += [(p, jump, diagonal) for p in open_p if p != cur]  # passage travel
    if jump:
        moves += [(land, False, diagonal) for _over, land in board.jumps[cur]]  # G16
    if diagonal:
        moves += [(t, jump, False) for t in board.diagonals[cur]]  # Shuko
    for target, jump_left, diagonal_left in moves:
        if target in seen or target == samurai:
            continue
        length = 1
        if limit > 1:
            seen.add(target)
            length += _extend(
                board, target, seen, samurai, open_p, jump_left, limit - 1, diagonal_left
            )
            seen.discard(target)
        if length > best:
            best = length
            if best >= limit:
                return best
    return best


@dataclass(frozen=True)
class Placements:
    """Legal next placements: ``free`` targets (steps, travel, diagonal with Shuko active),
    ``free_jumps`` (jumps under Rooftop Leap) and ``paid_jumps`` (landings of a jump paid with a
    token); ``may_stop``: no placement is possible without spending a token (a paid jump, a
    Shuko), and the ninja may stop instead (the unplaced discs go back)."""

    free: frozenset[int]
    free_jumps: frozenset[int]
    paid_jumps: frozenset[int]
    may_stop: bool = False

    @property
    def any(self) -> bool:
        return bool(self.free or self.free_jumps or self.paid_jumps)


@lru_cache(maxsize=4096)
def legal_placements(board: Board, ctx: PlacementContext, discs_left: int) -> Placements:
    """G7 with the paid jump (and a held Shuko) counted in the look-ahead.

    Memoised: the answer is a pure function of the (immutable) arguments, and one placement is
    asked three times -- by the engine (may the ninja go on?), by the action mask and by the
    answer (was that a jump?).

    Each placement not paid now (a step, passage travel, an active Shuko diagonal, a Rooftop
    Leap jump) gets two lengths: ``spend``, the longest path it opens when a later paid jump /
    Shuko diagonal may be used, and ``keep``, the longest path without spending anything more.
    With ``best_spend`` / ``best_keep`` their maxima over those placements, such a placement is
    legal if its ``spend`` reaches ``best_spend`` (the ninja places all the discs it can) or its
    ``keep`` reaches ``best_keep`` (spending a token is never forced). A paid jump now is legal if
    its length reaches at least ``best_spend`` (at least 1). When no placement but a paid one is
    possible, ``may_stop`` is set: the ninja may stop rather than pay (or use Shuko).
    """
    cur, visited, samurai, open_p = ctx.current, ctx.visited, ctx.samurai, ctx.open_passages
    rest = discs_left - 1
    paid_later = ctx.paid_jump and not ctx.free_jump  # the turn's one jump, paid with a token
    shuko_later = ctx.shuko_held and not ctx.diagonal
    scored: list[tuple[int, int, str, int]] = []  # (spend length, keep length, kind, target)

    def score(t: int, jump_left: bool, kind: str) -> None:
        seen = visited | {t}
        keep = 1 + longest_extension(
            board, t, seen, samurai, open_p, jump_left and ctx.free_jump, rest
        )
        spend = keep
        if (jump_left and paid_later) or shuko_later:
            spend = 1 + longest_extension(
                board, t, seen, samurai, open_p, jump_left, rest, shuko_later
            )
        scored.append((spend, keep, kind, t))

    jump_open = ctx.free_jump or ctx.paid_jump
    for t in _steps(board, cur, visited, samurai, open_p):
        score(t, jump_open, "free")
    if ctx.diagonal:
        for t in _diagonals(board, cur, visited, samurai):
            score(t, jump_open, "free")
    jump_targets = _jumps(board, cur, visited, samurai) if not ctx.diagonal else set()
    if ctx.free_jump:
        for t in jump_targets:
            score(t, False, "free_jump")
    best_spend = max((s[0] for s in scored), default=0)
    best_keep = max((s[1] for s in scored), default=0)
    legal = [
        (kind, t) for spend, keep, kind, t in scored if spend == best_spend or keep == best_keep
    ]
    free = frozenset(t for kind, t in legal if kind == "free")
    free_jumps = frozenset(t for kind, t in legal if kind == "free_jump")
    paid: set[int] = set()
    if paid_later:
        for t in jump_targets:
            length = 1 + longest_extension(
                board, t, visited | {t}, samurai, open_p, False, rest, shuko_later
            )
            if length >= max(best_spend, 1):
                paid.add(t)
    return Placements(free, free_jumps, frozenset(paid), may_stop=not scored)
