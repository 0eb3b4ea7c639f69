"""Ninja footprint placement: which squares the next disc may go to (rulebook "Ninja's
progression in the darkness", data sheet G7, G15, G16 and Shuko).

Pure functions over the board geometry and a few sets, so the movement rules are testable alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardgames_rl.games.castle_nightingale.board import Board


@dataclass(frozen=True)
class PlacementContext:
    """Everything the next placement depends on.

    ``current``: the figurine's start square or the last disc placed; ``visited``: the start
    square and this turn's discs; ``samurai``: his square (never entered); ``open_passages``:
    passage squares without a trap door; ``free_jump`` / ``paid_jump``: a jump is still allowed
    this turn at no cost (Rooftop Leap) / by discarding a token; ``diagonal``: Shuko is active.
    """

    current: int
    visited: frozenset[int]
    samurai: int
    open_passages: frozenset[int]
    free_jump: bool
    paid_jump: bool
    diagonal: bool


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


def longest_extension(
    board: Board,
    cur: int,
    visited: frozenset[int],
    samurai: int,
    open_p: frozenset[int],
    free_jump: bool,
    limit: int,
) -> int:
    """How many more discs can be placed from ``cur`` (at most ``limit``) with ordinary steps,
    passage travel and a still-unused free jump. Depth-first with an early exit at ``limit``."""
    if limit <= 0:
        return 0
    best = 0
    moves = [(t, free_jump) for t in _steps(board, cur, visited, samurai, open_p)]
    if free_jump:
        moves += [(t, False) for t in _jumps(board, cur, visited, samurai)]
    for target, jump_left in moves:
        length = 1 + longest_extension(
            board, target, visited | {target}, samurai, open_p, jump_left, limit - 1
        )
        if length > best:
            best = length
            if best >= limit:
                return best
    return best


@dataclass(frozen=True)
class Placements:
    """Legal next placements: ``free`` targets (steps, travel, diagonal with Shuko, jumps under
    Rooftop Leap) and ``paid_jumps`` (landings of a jump paid with a token)."""

    free: frozenset[int]
    free_jumps: frozenset[int]
    paid_jumps: frozenset[int]

    @property
    def any(self) -> bool:
        return bool(self.free or self.free_jumps or self.paid_jumps)


def legal_placements(board: Board, ctx: PlacementContext, discs_left: int) -> Placements:
    """G7: the free candidates that reach the longest achievable path are legal; a paid jump is
    legal if it reaches at least that length. Spending a token is never forced, and the ninja
    never strands itself while a full-length path exists."""
    cur, visited, samurai, open_p = ctx.current, ctx.visited, ctx.samurai, ctx.open_passages
    rest = discs_left - 1
    scored: list[tuple[int, str, int]] = []  # (length, kind, target)
    for t in _steps(board, cur, visited, samurai, open_p):
        scored.append((1 + longest_extension(board, t, visited | {t}, samurai, open_p,
                                             ctx.free_jump, rest), "free", t))
    if ctx.diagonal:
        for t in board.diagonals[cur]:
            if t not in visited and t != samurai:
                scored.append((1 + longest_extension(board, t, visited | {t}, samurai, open_p,
                                                     ctx.free_jump, rest), "free", t))
    jump_targets = _jumps(board, cur, visited, samurai) if not ctx.diagonal else set()
    if ctx.free_jump:
        for t in jump_targets:
            scored.append((1 + longest_extension(board, t, visited | {t}, samurai, open_p,
                                                 False, rest), "free_jump", t))
    best = max((s[0] for s in scored), default=0)
    free = frozenset(t for length, kind, t in scored if kind == "free" and length == best)
    free_jumps = frozenset(
        t for length, kind, t in scored if kind == "free_jump" and length == best
    )
    paid: set[int] = set()
    if ctx.paid_jump and not ctx.free_jump:
        for t in jump_targets:
            length = 1 + longest_extension(board, t, visited | {t}, samurai, open_p, False, rest)
            if length >= max(best, 1):
                paid.add(t)
    return Placements(free, free_jumps, frozenset(paid))
