"""Final-scoring breakdown (rulebook order), available at any moment of the game."""

from __future__ import annotations

from boardgames_rl.games.white_castle.data import (
    COURTIER_VP,
    GARDENS,
    POT_VP,
    RESOURCES,
    YARD_VALUE,
)


def breakdown(s, p: int) -> dict[str, int]:
    """Per-category points of seat ``p`` if the game ended now."""
    pl = s.players[p]
    res = 0
    for r in RESOURCES:
        v = pl[r]
        res += 2 if v >= 7 else (1 if v >= 3 else 0)
    c = pl["courtiers"]
    inside = c[1] + c[2] + c[3]
    warrior_value = sum(YARD_VALUE[y] * s.yard_warriors[y].count(p) for y in range(3))
    gardens = sum(
        GARDENS[s.gardens[i]][1] for i in range(len(s.gardens)) if p in s.garden_workers[i]
    )
    out = {
        "track": pl["vp"],
        "coins_seals": (pl["coin"] + pl["seal"]) // 5,
        "resources": res,
        "passage_of_time": POT_VP[pl["pot"]],
        "courtiers": sum(n * v for n, v in zip(c, COURTIER_VP, strict=True)),
        "warriors": warrior_value * inside,
        "gardeners": gardens,
    }
    out["total"] = sum(out.values())
    return out


def totals(s) -> list[int]:
    return [breakdown(s, p)["total"] for p in range(s.n)]
