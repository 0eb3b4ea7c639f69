"""Models of the nightingale tile choice: how much each floor colour is in the ninja's way.

Both roles use them: the samurai to choose his tile, the ninja to guess it (as the samurai saw
the board when he programmed it).
"""

from __future__ import annotations

from boardgames_rl.games.castle_nightingale.ai.geometry import Geo
from boardgames_rl.games.castle_nightingale.ai.paths import PathContext, plans
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES

FALLOFF = (0.0, 1.0, 0.55, 0.3, 0.15)
"""Weight of a square 0..4 steps from a possible starting square in the tile model."""


def colour_scores(
    g: Geo,
    starts: list[int],
    open_set: frozenset[int],
    vases: dict[int, float],
    zone_weight: list[float] | None = None,
) -> list[float]:
    """How much each colour is in the ninja's way next movement: squares 1-4 steps from its
    possible starts (by distance), more on a shortest way to a vase, times ``zone_weight``."""
    w = [0.0] * NUM_SQUARES
    n = len(starts)
    vase_dist = {v: g.travel(v, open_set, 6) for v, val in vases.items() if val > 0.05}
    for s in starts:
        dist = g.travel(s, open_set, 4)
        for sq in range(NUM_SQUARES):
            d = dist[sq]
            if 1 <= d <= 4:
                w[sq] += FALLOFF[d] / n
        for v, dv in vase_dist.items():
            total = dv[s]
            if total > 6:
                continue
            for sq in range(NUM_SQUARES):
                if 1 <= dist[sq] <= 4 and dist[sq] + dv[sq] == total:
                    w[sq] += 0.5 * vases[v] / (n * total)
    scores = [0.0] * 6
    col = g.col
    zone = g.zone
    for sq in range(NUM_SQUARES):
        if w[sq]:
            scores[col[sq]] += w[sq] * (zone_weight[zone[sq]] if zone_weight else 1.0)
    return scores


def path_colours(
    g: Geo,
    ctx: PathContext,
    starts: list[int],
    moves: dict[int, int],
    face_up: set[int],
    zone_weight: list[float] | None = None,
) -> list[float]:
    """Per colour: how many of the ninja's best paths (one per movement value, by the ninja's
    own search with ``ctx``) cross it, weighted by the number of cards and ``zone_weight``."""
    scores = [0.0] * 6
    capped: dict[int, int] = {}  # the first four discs are the ones that matter (and cheaper)
    for move, n in moves.items():
        capped[min(move, 4)] = capped.get(min(move, 4), 0) + n
    found = plans(g, ctx, starts, tuple(capped), False, False, allow_diag=False)
    for move, n in capped.items():
        steps = found[move][2]
        seen: set[int] = set()
        for sq, _kind in steps:
            c = g.col[sq]
            if c in face_up or c in seen:
                continue
            seen.add(c)
            scores[c] += n * (zone_weight[g.zone[sq]] if zone_weight else 1.0)
    return scores


def mix(a: list[float], b: list[float], w: float) -> list[float]:
    """``a`` and ``b`` each normalised to sum 1, mixed with weight ``w`` on ``b``."""
    ta, tb = sum(a) or 1.0, sum(b) or 1.0
    return [(1 - w) * x / ta + w * y / tb for x, y in zip(a, b, strict=True)]
