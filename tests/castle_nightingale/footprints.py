"""A slow, literal reference for "The ninja must place all their footprint discs" (issue 40.1).

The ninja's *means* are written out as tokens held, not as the engine's flags: ``rooftop`` (the
turn's jump is free), ``jump`` (the turn's jump is still unused), ``active`` (a Shuko is in use
for the next placement), ``shuko`` (a Shuko is held) and ``others`` (how many other tokens it
holds, capped at 1: one pays a jump). :func:`most_discs` is the longest sequence of placements
those means allow, by plain recursion over every move: orthogonal steps, passage travel from an
open passage, the jump (free, or paid with an other token or with the Shuko itself), the Shuko
(using it, then a diagonal). :func:`reference_placements` derives from it the legal next moves
under either reading of the rule (the module docstring of ``paths``), for
``test_speed_paths`` (the engine must give the same) and the property tests of ``test_rules``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from boardgames_rl.games.castle_nightingale.board import Board
from boardgames_rl.games.castle_nightingale.paths import PlacementContext, Placements


class Means(NamedTuple):
    rooftop: bool
    jump: bool
    active: bool
    shuko: bool
    others: int


NO_TOKEN = Means(False, False, False, False, 0)


def means_of(ctx: PlacementContext) -> Means:
    """The means a placement context describes (the jump already paid counts as one token)."""
    if ctx.paid_jump and not ctx.free_jump:
        others = 1 if (ctx.spare_token or not ctx.shuko_held) else 0
    else:
        others = 0
    jump = ctx.free_jump or ctx.paid_jump
    return Means(ctx.free_jump, jump, ctx.diagonal, ctx.shuko_held and not ctx.diagonal, others)


def moves(
    board: Board, cur: int, visited: frozenset[int], samurai: int, open_p: frozenset[int], m: Means
) -> list[tuple[str, int, Means]]:
    """Every next move ``(kind, square, means after)``: kind "step" (a step, passage travel or,
    Shuko active, a diagonal), "free_jump", "paid_jump", or "shuko" (using it: no square)."""
    out: list[tuple[str, int, Means]] = []

    def ok(t: int) -> bool:
        return t not in visited and t != samurai

    after_step = m._replace(active=False)
    targets = set(board.neighbours[cur])
    if cur in open_p:
        targets |= set(open_p) - {cur}
    if m.active:
        targets |= set(board.diagonals[cur])
    out += [("step", t, after_step) for t in sorted(targets) if ok(t)]
    if m.jump and not m.active:
        for _over, t in board.jumps[cur]:
            if not ok(t):
                continue
            if m.rooftop:
                out.append(("free_jump", t, m._replace(rooftop=False, jump=False)))
                continue
            if m.others:
                out.append(("paid_jump", t, m._replace(jump=False, others=m.others - 1)))
            if m.shuko:
                out.append(("paid_jump", t, m._replace(jump=False, shuko=False)))
    if m.shuko and not m.active:
        out.append(("shuko", -1, m._replace(shuko=False, active=True)))
    return out


@lru_cache(maxsize=200_000)
def most_discs(
    board: Board,
    cur: int,
    visited: frozenset[int],
    samurai: int,
    open_p: frozenset[int],
    m: Means,
    left: int,
) -> int:
    """The most discs (at most ``left``) a sequence of moves from ``cur`` places."""
    if left <= 0:
        return 0
    best = 0
    for kind, t, after in moves(board, cur, visited, samurai, open_p, m):
        if kind == "shuko":
            n = most_discs(board, cur, visited, samurai, open_p, after, left)
        else:
            n = 1 + most_discs(board, t, visited | {t}, samurai, open_p, after, left - 1)
        best = max(best, n)
        if best == left:  # (no sequence places more than ``left``)
            break
    return best


def reference_placements(
    board: Board, ctx: PlacementContext, left: int, never_force_token: bool = False
) -> Placements:
    """The legal next moves under the reading chosen, from :func:`most_discs` alone."""
    cur, samurai = ctx.current, ctx.samurai
    visited, open_p = frozenset(ctx.visited), frozenset(ctx.open_passages)
    m = means_of(ctx)
    if left <= 0:
        return Placements(frozenset(), frozenset(), frozenset(), may_stop=True, shuko=False)

    def value(kind: str, t: int, after: Means) -> int:
        if never_force_token:  # the target counts no token not yet spent
            after = after._replace(shuko=False, others=0, jump=after.rooftop and after.jump)
        if kind == "shuko":
            return most_discs(board, cur, visited, samurai, open_p, after, left)
        return 1 + most_discs(board, t, visited | {t}, samurai, open_p, after, left - 1)

    vals: dict[str, dict[int, int]] = {"step": {}, "free_jump": {}, "paid_jump": {}, "shuko": {}}
    for kind, t, after in moves(board, cur, visited, samurai, open_p, m):
        vals[kind][t] = max(vals[kind].get(t, 0), value(kind, t, after))
    jump_best = max(vals["paid_jump"].values(), default=0)
    shuko_best = vals["shuko"].get(-1, 0)
    if never_force_token:
        best = max((*vals["step"].values(), *vals["free_jump"].values()), default=0)
        paid = frozenset(t for t, v in vals["paid_jump"].items() if v >= max(best, 1))
        return Placements(
            free=frozenset(t for t, v in vals["step"].items() if v == best),
            free_jumps=frozenset(t for t, v in vals["free_jump"].items() if v == best),
            paid_jumps=paid,
            may_stop=best == 0,
            jump=bool(paid),
            shuko=True,
            best=best,
            jump_best=jump_best,
        )
    best = max(
        (*vals["step"].values(), *vals["free_jump"].values(), jump_best, shuko_best), default=0
    )
    return Placements(
        free=frozenset(t for t, v in vals["step"].items() if v == best),
        free_jumps=frozenset(t for t, v in vals["free_jump"].items() if v == best),
        paid_jumps=frozenset(t for t, v in vals["paid_jump"].items() if v == jump_best),
        may_stop=best == 0,
        jump=bool(vals["paid_jump"]) and jump_best == best,
        shuko=bool(vals["shuko"]) and shuko_best == best,
        best=best,
        jump_best=jump_best,
    )
