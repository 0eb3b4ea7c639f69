"""The faster ninja look-ahead gives the placements of the original one.

``_reference_*`` below are ``paths.py``'s functions as they were before the speed work (issue
14.1), kept verbatim apart from their names, as the definition of the G7 look-ahead; the
engine's ``legal_placements`` (backtracking over one set, memoised) must give the same
``Placements`` for every context met in seeded random play, on side A and B boards, with and
without the Rooftop Leap, a paid jump, a held or active Shuko.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.games.castle_nightingale import CastleNightingale
from boardgames_rl.games.castle_nightingale import paths as P
from boardgames_rl.games.castle_nightingale.board import Board
from boardgames_rl.games.castle_nightingale.paths import PlacementContext, Placements


# ---------------------------------------------------------------- reference (original) look-ahead
def _ref_steps(
    board: Board, cur: int, visited: frozenset[int], samurai: int, open_p: frozenset[int]
):
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


def _ref_jumps(board: Board, cur: int, visited: frozenset[int], samurai: int) -> set[int]:
    """Landing squares of a jump over one square in a straight orthogonal line (G16)."""
    return {land for _over, land in board.jumps[cur] if land not in visited and land != samurai}


def _ref_diagonals(board: Board, cur: int, visited: frozenset[int], samurai: int) -> set[int]:
    """Shuko targets: diagonal neighbours with no disc of this turn and no samurai."""
    return {t for t in board.diagonals[cur] if t not in visited and t != samurai}


def _reference_longest_extension(
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
    best = 0
    moves = [(t, jump, diagonal) for t in _ref_steps(board, cur, visited, samurai, open_p)]
    if jump:
        moves += [(t, False, diagonal) for t in _ref_jumps(board, cur, visited, samurai)]
    if diagonal:
        moves += [(t, jump, False) for t in _ref_diagonals(board, cur, visited, samurai)]
    for target, jump_left, diagonal_left in moves:
        length = 1 + _reference_longest_extension(
            board, target, visited | {target}, samurai, open_p, jump_left, limit - 1, diagonal_left
        )
        if length > best:
            best = length
            if best >= limit:
                return best
    return best


def _reference_legal_placements(board: Board, ctx: PlacementContext, discs_left: int) -> Placements:
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
        keep = 1 + _reference_longest_extension(
            board, t, seen, samurai, open_p, jump_left and ctx.free_jump, rest
        )
        spend = keep
        if (jump_left and paid_later) or shuko_later:
            spend = 1 + _reference_longest_extension(
                board, t, seen, samurai, open_p, jump_left, rest, shuko_later
            )
        scored.append((spend, keep, kind, t))

    jump_open = ctx.free_jump or ctx.paid_jump
    for t in _ref_steps(board, cur, visited, samurai, open_p):
        score(t, jump_open, "free")
    if ctx.diagonal:
        for t in _ref_diagonals(board, cur, visited, samurai):
            score(t, jump_open, "free")
    jump_targets = _ref_jumps(board, cur, visited, samurai) if not ctx.diagonal else set()
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
            length = 1 + _reference_longest_extension(
                board, t, visited | {t}, samurai, open_p, False, rest, shuko_later
            )
            if length >= max(best_spend, 1):
                paid.add(t)
    return Placements(free, free_jumps, frozenset(paid), may_stop=not scored)


# ---------------------------------------------------------------- the comparison
def _contexts(config: dict, games: int, seed: int) -> list:
    """Every ``(board, context, discs_left)`` the engine asks about in ``games`` random games, and
    the same contexts with every look-ahead option switched (so each option is covered)."""
    game = CastleNightingale(**config)
    rng = np.random.default_rng(seed)
    seen = []
    for g in range(games):
        s = game.new_state(seed * 1000 + g)
        while not s.is_terminal():
            if s.decision["kind"] in ("place", "jump_land") and s.flags["discs_left"] > 0:
                seen.append((s.board, s.placement_context(), s.flags["discs_left"]))
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    out = list(seen)
    for board, ctx, left in seen[::7]:
        boxed = ctx.visited | set(board.neighbours[ctx.current])  # no step left: stop or pay
        for visited in (ctx.visited, boxed):
            out += _variants(board, ctx, visited, left)
    return out


def _variants(board, ctx, visited, left) -> list:
    """``ctx`` with ``visited`` and every combination of the jump and Shuko options."""
    options = [
        (free_jump, paid_jump, diagonal, held)
        for free_jump in (False, True)
        for paid_jump in (False, True)
        for diagonal, held in ((False, False), (False, True), (True, False))
    ]
    return [
        (
            board,
            PlacementContext(
                ctx.current, frozenset(visited), ctx.samurai, ctx.open_passages, *option
            ),
            left,
        )
        for option in options
    ]


@pytest.mark.parametrize("config", [{}, {"side": "B"}, {"random_layout": True}], ids=str)
def test_placements_equal_the_reference(config):
    """G7: "The ninja must place all their footprint discs" -- the same legal placements as the
    original look-ahead in every context met, and in its variants with every jump option."""
    contexts = _contexts(config, games=6, seed=len(config))
    assert len(contexts) > 300
    kinds = {"free": 0, "free_jumps": 0, "paid_jumps": 0, "may_stop": 0}
    for board, ctx, left in contexts:
        want = _reference_legal_placements(board, ctx, left)
        got = P.legal_placements(board, ctx, left)
        assert isinstance(got, Placements)
        assert got == want, (board.layout, ctx, left)
        for name in kinds:
            kinds[name] += bool(getattr(want, name))
    assert all(kinds.values()), kinds  # every kind of placement occurred


def test_longest_extension_equals_the_reference():
    """The look-ahead length itself, from every context met, for every limit up to 8."""
    for board, ctx, _left in _contexts({}, games=2, seed=5)[:200]:
        for jump in (False, True):
            for diagonal in (False, True):
                for limit in range(9):
                    assert P.longest_extension(
                        board,
                        ctx.current,
                        ctx.visited,
                        ctx.samurai,
                        ctx.open_passages,
                        jump,
                        limit,
                        diagonal,
                    ) == _reference_longest_extension(
                        board,
                        ctx.current,
                        ctx.visited,
                        ctx.samurai,
                        ctx.open_passages,
                        jump,
                        limit,
                        diagonal,
                    )


def test_legal_placements_is_memoised():
    """The engine, the mask and the answer ask the same placement: it is computed once."""
    board, ctx, left = _contexts({}, games=1, seed=9)[0]
    P.legal_placements.cache_clear()
    first = P.legal_placements(board, ctx, left)
    assert P.legal_placements(board, ctx, left) is first
    assert P.legal_placements.cache_info().hits == 1


_ = Board
