"""The engine's ninja look-ahead (``paths.legal_placements``, fast: backtracking over one set,
memoised) gives the placements of the slow, literal reference of ``footprints`` (the longest
sequence of moves, by plain recursion over the tokens held) for every context met in seeded
random play, on side A and B boards, with and without the Rooftop Leap, a paid jump, a held or
active Shuko, a spare token, under both readings of "The ninja must place all their footprint
discs" (default, and ``never_force_token``).
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.games.castle_nightingale import CastleNightingale
from boardgames_rl.games.castle_nightingale import paths as P
from boardgames_rl.games.castle_nightingale.board import Board
from boardgames_rl.games.castle_nightingale.paths import PlacementContext, Placements
from tests.castle_nightingale.footprints import Means, most_discs, reference_placements


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
        boxed = tuple(sorted({*ctx.visited, *board.neighbours[ctx.current]}))  # stop or pay
        for visited in (ctx.visited, boxed):
            out += _variants(board, ctx, visited, left)
    return out


def _variants(board, ctx, visited, left) -> list:
    """``ctx`` with ``visited`` and every combination of the jump, Shuko and spare-token
    options."""
    options = [
        (free_jump, paid_jump, diagonal, held, spare)
        for free_jump in (False, True)
        for paid_jump in (False, True)
        for diagonal, held in ((False, False), (False, True), (True, False))
        for spare in ((False, True) if held else (True,))
    ]
    return [
        (
            board,
            PlacementContext(ctx.current, tuple(visited), ctx.samurai, ctx.open_passages, *option),
            left,
        )
        for option in options
    ]


@pytest.mark.parametrize("never_force", [False, True], ids=["default", "never_force_token"])
@pytest.mark.parametrize("config", [{}, {"side": "B"}, {"random_layout": True}], ids=str)
def test_placements_equal_the_reference(config, never_force):
    """G7: "The ninja must place all their footprint discs" -- the same legal placements as the
    literal reference in every context met, and in its variants with every option, under both
    readings."""
    contexts = _contexts(config, games=6, seed=len(config))
    assert len(contexts) > 300
    kinds = {"free": 0, "free_jumps": 0, "paid_jumps": 0, "may_stop": 0, "jump": 0, "shuko": 0}
    for board, ctx, left in contexts:
        want = reference_placements(board, ctx, left, never_force)
        got = P.legal_placements(board, ctx, left, never_force)
        assert isinstance(got, Placements)
        assert got == want, (board.layout, ctx, left)
        for name in kinds:
            kinds[name] += bool(getattr(want, name))
    assert all(kinds.values()), kinds  # every kind of placement occurred


def test_longest_extension_equals_the_reference():
    """The look-ahead length itself, from every context met, for every limit up to 7, with the
    jump and the Shuko diagonal apart or paid by the same single token (``shared``)."""
    for board, ctx, _left in _contexts({}, games=2, seed=5)[:100]:
        for jump in (False, True):
            for diagonal in (False, True):
                for shared in (False, True):
                    means = Means(not (shared and diagonal), jump, False, diagonal, 0)
                    for limit in range(8):
                        got = P.longest_extension(
                            board,
                            ctx.current,
                            ctx.visited,
                            ctx.samurai,
                            ctx.open_passages,
                            jump,
                            limit,
                            diagonal,
                            shared,
                        )
                        want = most_discs(
                            board,
                            ctx.current,
                            frozenset(ctx.visited),
                            ctx.samurai,
                            frozenset(ctx.open_passages),
                            means,
                            limit,
                        )
                        assert got == want, (ctx, jump, diagonal, shared, limit)


def test_legal_placements_is_memoised():
    """The engine, the mask and the answer ask the same placement: it is computed once."""
    board, ctx, left = _contexts({}, games=1, seed=9)[0]
    P.legal_placements.cache_clear()
    first = P.legal_placements(board, ctx, left)
    assert P.legal_placements(board, ctx, left) is first
    assert P.legal_placements.cache_info().hits == 1


_ = Board
