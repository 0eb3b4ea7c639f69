"""Ninja footprint placement: which squares the next disc may go to (rulebook "Ninja's
progression in the darkness", data sheet G7, G15, G16 and Shuko).

Pure functions over the board geometry and a few sets, so the movement rules are testable alone.

"The ninja must place all their footprint discs." Its ways to place them are ordinary steps,
passage travel and the turn's one jump ("The ninja can perform only one jump per game turn"; free
under Rooftop Leap, else paid: "the ninja can discard one of their equipment tokens ... to
perform a jump"), and the data sheet's Shuko diagonal. Two readings (option
``never_force_token``):

* **default** (the rulebook's "must"): a paid jump and a held Shuko count as ways. The *target*
  is the most discs any path from here can place with the ways the ninja holds (every disc,
  whenever some path places them all); a move is legal only if the target stays reachable after
  it. So a step that only a later paid jump completes may be taken, and then that jump is the
  move: the token was committed by taking the step. Stopping ("the unplaced discs go back") is
  legal only where no disc can be placed at all.
* ``never_force_token`` (the jump is a "can"): spending a token is never forced. The target is the
  most discs placeable without spending anything more (steps, travel, a Rooftop Leap jump, a
  Shuko already in use); a step that only a later paid jump could complete is refused; a paid jump
  now is legal if it places at least the target; where no disc can be placed without spending,
  the ninja may stop.

Where no path places every disc (a dead end the ways held cannot leave), the movement places the
most it can and ends (G7); a detection stops it at once (rulebook A).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

from boardgames_rl.core.record import Record
from boardgames_rl.games.castle_nightingale.board import Board


class PlacementContext(NamedTuple):
    """Everything the next placement depends on (a named tuple: the memo of
    :func:`legal_placements` hashes and compares one per lookup, a tuple does it in C; its
    squares are tuples for the same reason: a new frozenset per placement cost more than the
    search it spares).

    ``current``: the figurine's start square or the last disc placed; ``visited``: the start
    square and this turn's discs; ``samurai``: his square (never entered); ``open_passages``:
    passage squares without a trap door; ``free_jump`` / ``paid_jump``: a jump is still allowed
    this turn at no cost (Rooftop Leap) / by discarding a token (one held, or already paid);
    ``diagonal``: Shuko is active for this placement; ``shuko_held``: the ninja holds an unused
    Shuko token; ``spare_token``: it holds a token besides the Shuko (or has paid the jump
    already), so a paid jump and the Shuko diagonal can both be used.
    """

    current: int
    visited: tuple[int, ...]
    samurai: int
    open_passages: tuple[int, ...]
    free_jump: bool
    paid_jump: bool
    diagonal: bool
    shuko_held: bool = False
    spare_token: bool = True


def _steps(board: Board, cur: int, visited: tuple[int, ...], samurai: int, open_p: tuple[int, ...]):
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


def _jumps(board: Board, cur: int, visited: tuple[int, ...], samurai: int) -> set[int]:
    """Landing squares of a jump over one square in a straight orthogonal line (G16)."""
    return {land for land in board.landings[cur] if land not in visited and land != samurai}


def _diagonals(board: Board, cur: int, visited: tuple[int, ...], samurai: int) -> set[int]:
    """Shuko targets: diagonal neighbours with no disc of this turn and no samurai."""
    return {t for t in board.diagonals[cur] if t not in visited and t != samurai}


def longest_extension(
    board: Board,
    cur: int,
    visited: tuple[int, ...],
    samurai: int,
    open_p: tuple[int, ...],
    jump: bool,
    limit: int,
    diagonal: bool = False,
    shared: bool = False,
) -> int:
    """How many more discs can be placed from ``cur`` (at most ``limit``) with ordinary steps,
    passage travel, one jump if ``jump`` (the turn's jump, free or paid) and one diagonal if
    ``diagonal`` (a Shuko still held); ``shared``: the jump is paid and the Shuko is the only
    token, so using one of the two gives up the other. Depth-first with an early exit at
    ``limit``."""
    if limit <= 0:
        return 0
    return _extend(board, cur, set(visited), samurai, open_p, jump, limit, diagonal, shared)


def _extend(
    board: Board,
    cur: int,
    seen: set[int],
    samurai: int,
    open_p: tuple[int, ...],
    jump: bool,
    limit: int,
    diagonal: bool,
    shared: bool,
) -> int:
    """:func:`longest_extension` with ``limit >= 1``, walking with one set of the squares taken
    (``seen``: a square is added on the way down and removed on the way back). The ways are
    tried in a fixed order (steps, passage travel, the jump, the Shuko diagonal), each with the
    ways it leaves; the first to reach ``limit`` ends the search."""
    best = _try_ways(
        board, board.neighbours[cur], -1, seen, samurai, open_p, jump, limit, diagonal, shared, 0
    )  # orthogonal steps (G15)
    if best < limit and cur in open_p:  # passage travel
        best = _try_ways(
            board, open_p, cur, seen, samurai, open_p, jump, limit, diagonal, shared, best
        )
    if best < limit and jump:  # G16 (paid with the Shuko itself when ``shared``)
        diagonal_left = diagonal and not shared
        best = _try_ways(
            board, board.landings[cur], -1, seen, samurai, open_p, False, limit, diagonal_left,
            shared, best,
        )  # fmt: skip
    if best < limit and diagonal:  # Shuko
        jump_left = jump and not shared
        best = _try_ways(
            board, board.diagonals[cur], -1, seen, samurai, open_p, jump_left, limit, False,
            shared, best,
        )  # fmt: skip
    return best


def _try_ways(
    board: Board,
    targets: tuple[int, ...],
    skip: int,
    seen: set[int],
    samurai: int,
    open_p: tuple[int, ...],
    jump: bool,
    limit: int,
    diagonal: bool,
    shared: bool,
    best: int,
) -> int:
    """The most of ``best`` and a disc on each of ``targets`` (not ``skip``, a square taken or the
    samurai's) with the ways left (``jump``, ``diagonal``); stops once ``limit`` is reached."""
    for t in targets:
        if t != skip and t not in seen and t != samurai:
            n = _place_at(board, t, seen, samurai, open_p, jump, limit, diagonal, shared)
            if n > best:
                best = n
                if best >= limit:
                    break
    return best


def _place_at(
    board: Board,
    target: int,
    seen: set[int],
    samurai: int,
    open_p: tuple[int, ...],
    jump: bool,
    limit: int,
    diagonal: bool,
    shared: bool,
) -> int:
    """The discs placed by a disc on ``target`` (free, not the samurai's) and the longest walk on
    from it with the ways left (``jump``, ``diagonal``), at most ``limit``."""
    if limit <= 1:
        return 1
    seen.add(target)
    n = 1 + _extend(board, target, seen, samurai, open_p, jump, limit - 1, diagonal, shared)
    seen.discard(target)
    return n


class Placements(Record):
    """Legal next placements (a read-only record: built at every placement a search asks for).

    ``free``: ordinary targets (steps, travel, diagonals while Shuko is active); ``free_jumps``:
    Rooftop Leap landings; ``jump``: a paid jump is legal now; ``paid_jumps``: its landings, once
    the token is paid; ``shuko``: using a held Shuko now keeps the target; ``may_stop``: the
    ninja may stop (the unplaced discs go back); ``best``: the target, the discs the ninja must
    still place from here; ``jump_best``: the most a paid jump now can place."""

    FIELDS = (
        "free", "free_jumps", "paid_jumps", "may_stop", "jump", "shuko", "best", "jump_best",
    )  # fmt: skip

    def __init__(
        self,
        free: frozenset[int],
        free_jumps: frozenset[int],
        paid_jumps: frozenset[int],
        may_stop: bool = False,
        jump: bool = False,
        shuko: bool = True,
        best: int = 0,
        jump_best: int = 0,
    ) -> None:
        self.free: Final = free
        self.free_jumps: Final = free_jumps
        self.paid_jumps: Final = paid_jumps
        self.may_stop: Final = may_stop
        self.jump: Final = jump
        self.shuko: Final = shuko
        self.best: Final = best
        self.jump_best: Final = jump_best

    @property
    def any(self) -> bool:
        """A disc can be placed without spending a token now (or a paid jump is legal)."""
        return bool(self.free or self.free_jumps or self.jump)


NOTHING: Final = Placements(frozenset(), frozenset(), frozenset(), may_stop=True, shuko=False)
"""No disc left to place."""


@lru_cache(maxsize=8192)
def legal_placements(
    board: Board, ctx: PlacementContext, discs_left: int, never_force_token: bool = False
) -> Placements:
    """The legal next placements under the reading chosen (module docstring).

    Memoised: the answer is a pure function of the (immutable) arguments, and one placement is
    asked several times -- by the engine (may the ninja go on?), by the action mask and by the
    answer (was that a jump?).
    """
    if discs_left <= 0:
        return NOTHING
    if never_force_token:
        return _never_forced(board, ctx, discs_left)
    return _must_place_all(board, ctx, discs_left)


def _must_place_all(board: Board, ctx: PlacementContext, discs_left: int) -> Placements:
    """Default reading: every move keeps the target (the most discs the ways held can place)."""
    cur, visited, samurai, open_p = ctx.current, ctx.visited, ctx.samurai, ctx.open_passages
    rest = discs_left - 1
    diag_later = ctx.shuko_held and not ctx.diagonal
    jump_later = ctx.free_jump or ctx.paid_jump
    shared = diag_later and ctx.paid_jump and not ctx.free_jump and not ctx.spare_token

    def length(t: int, jump: bool, diagonal: bool, shr: bool = False) -> int:
        return _place_at(board, t, set(visited), samurai, open_p, jump, rest + 1, diagonal, shr)

    steps = {
        t: length(t, jump_later, diag_later, shared)
        for t in _steps(board, cur, visited, samurai, open_p)
    }
    if ctx.diagonal:
        for t in _diagonals(board, cur, visited, samurai):
            steps[t] = max(steps.get(t, 0), length(t, jump_later, False))
    targets = _jumps(board, cur, visited, samurai) if not ctx.diagonal else set()
    free_jumps = {t: length(t, False, diag_later) for t in targets} if ctx.free_jump else {}
    paid: dict[int, int] = {}
    if ctx.paid_jump and not ctx.free_jump:  # paid with a token other than the Shuko if possible
        paid = {t: length(t, False, diag_later and ctx.spare_token) for t in targets}
    shuko_best = 0
    if diag_later:
        on = ctx._replace(
            diagonal=True, shuko_held=False, paid_jump=ctx.paid_jump and ctx.spare_token
        )
        shuko_best = _must_place_all(board, on, discs_left).best
    jump_best = max(paid.values(), default=0)
    best = max((*steps.values(), *free_jumps.values(), jump_best, shuko_best), default=0)
    return Placements(
        free=frozenset(t for t, v in steps.items() if v == best),
        free_jumps=frozenset(t for t, v in free_jumps.items() if v == best),
        paid_jumps=frozenset(t for t, v in paid.items() if v == jump_best),
        may_stop=best == 0,
        jump=bool(paid) and jump_best == best,
        shuko=diag_later and shuko_best == best,
        best=best,
        jump_best=jump_best,
    )


def _never_forced(board: Board, ctx: PlacementContext, discs_left: int) -> Placements:
    """Variant ``never_force_token``: the target counts no token not yet spent."""
    cur, visited, samurai, open_p = ctx.current, ctx.visited, ctx.samurai, ctx.open_passages
    rest = discs_left - 1

    def length(t: int, jump: bool) -> int:
        return _place_at(board, t, set(visited), samurai, open_p, jump, rest + 1, False, False)

    steps = {t: length(t, ctx.free_jump) for t in _steps(board, cur, visited, samurai, open_p)}
    if ctx.diagonal:
        for t in _diagonals(board, cur, visited, samurai):
            steps[t] = max(steps.get(t, 0), length(t, ctx.free_jump))
    targets = _jumps(board, cur, visited, samurai) if not ctx.diagonal else set()
    free_jumps = {t: length(t, False) for t in targets} if ctx.free_jump else {}
    best = max((*steps.values(), *free_jumps.values()), default=0)
    paid: dict[int, int] = {}
    if ctx.paid_jump and not ctx.free_jump:
        paid = {t: length(t, False) for t in targets}
    paid_ok = frozenset(t for t, v in paid.items() if v >= max(best, 1))
    return Placements(
        free=frozenset(t for t, v in steps.items() if v == best),
        free_jumps=frozenset(t for t, v in free_jumps.items() if v == best),
        paid_jumps=paid_ok,
        may_stop=best == 0,
        jump=bool(paid_ok),
        shuko=True,
        best=best,
        jump_best=max(paid.values(), default=0),
    )
