"""Final-scoring breakdown (rulebook order), available at any moment of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames_rl.games.white_castle.data import (
    COURTIER_VP,
    GARDENS,
    POT_VP,
    RESOURCES,
    YARD_VALUE,
)

if TYPE_CHECKING:
    from boardgames_rl.games.white_castle.state import WhiteCastleState


def breakdown(state: WhiteCastleState, p: int) -> dict[str, int]:
    """Per-category points of seat ``p`` if the game ended now."""
    pl = state.players[p]
    res = 0
    for r in RESOURCES:
        v = pl[r]
        res += 2 if v >= 7 else (1 if v >= 3 else 0)
    c = pl["courtiers"]
    inside = c[1] + c[2] + c[3]
    warrior_value = sum(YARD_VALUE[y] * state.yard_warriors[y].count(p) for y in range(3))
    gardens = sum(
        GARDENS[state.gardens[i]][1]
        for i in range(len(state.gardens))
        if p in state.garden_workers[i]
    )
    out = {
        "track": pl["vp"],
        "coins_seals": (pl["coin"] + pl["seal"]) // 5,
        "resources": res,
        "passage_of_time": POT_VP[pl["pot"]],
        "courtiers": sum(n * v for n, v in zip(c, COURTIER_VP)),
        "warriors": warrior_value * inside,
        "gardeners": gardens,
    }
    out["total"] = sum(out.values())
    return out


def totals(state: WhiteCastleState) -> list[int]:
    return [breakdown(state, p)["total"] for p in range(state.n)]
