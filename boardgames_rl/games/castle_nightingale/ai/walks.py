"""The samurai's movement search: every walk of exactly the entries he will make.

Entering the revealed figurine's zone captures; every open passage entered is a closing (his
reliable clock); closing the last one captures any ninja on the board (a lockdown with no ninja
to catch is avoided); the end zone is worth ending on a disc, a vase the ninja is close to, being
near the ninja and the open passages, and the card's action there (Bar the Hatch an open passage
on that floor board, possibly the last one; Lantern Sweep the discs around; Inspect a vase).
"""

from __future__ import annotations

from typing import Any

from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.ai.geometry import INF, Geo
from boardgames_rl.games.castle_nightingale.ai.knowledge import (
    ninja_distance,
    ninja_here,
    open_passages,
    vase_values,
)
from boardgames_rl.games.castle_nightingale.data import SAMURAI
from boardgames_rl.games.castle_nightingale.infoset import CastleNightingaleView

CAP = 20.0
"""A capture."""
CLOSE = 2.5
"""One passage closed (the lockdown clock)."""
LOCK_WASTE = 7.5
"""A lockdown with no ninja on the board (4 passages reopen)."""
DISC = 0.8
"""Ending on a disc."""
CHASE = 0.45
"""Per zone between his end zone and the ninja."""
CLOCK = 0.3
"""Per zone between his end zone and the nearest open passage."""
GUARD = 1.5
"""Ending on a vase the ninja is close to (he then moves it away)."""


def zone_values(k: CastleNightingaleView, g: Geo, card: int) -> list[float]:
    """What ending his movement in each zone is worth, the passages aside."""
    discs = k.discs
    here = ninja_here(k, g)
    here_zones = {g.zone[s] for s in here}
    chase = CHASE * (1.5 if k.ninja_sq >= 0 else 1.0)
    disc_zones = {g.zone[s] for s in discs}
    vases = vase_values(k, SAMURAI)
    unknown_vase_zones = {
        g.zone[w] for t, w in enumerate(k.vase_where) if w >= 0 and not k.samurai_knows[t]
    }
    guard = [0.0] * g.nz  # a vase the ninja is about to reach: end on it and move it away
    if GUARD:
        near = ninja_distance(k, g)
        for w, val in vases.items():
            if val > 0 and near[w] <= 5:
                z = g.zone[w]
                guard[z] = max(guard[z], GUARD * val * (6 - near[w]) / 5)
    static = []
    for z in range(g.nz):
        v = -chase * min(g.zd[z][hz] for hz in here_zones) + guard[z]
        if z in disc_zones and len(discs) >= 2:
            v += DISC
        if card == C.LANTERN_SWEEP and discs:
            around = {z, *g.znb[z]}
            n = sum(1 for s in discs if g.zone[s] in around)
            if n >= len(discs):
                n = len(discs) - 1
            v += 0.6 * n
        if card == C.INSPECT_THE_VASES and (unknown_vase_zones & {z, *g.znb[z]}):
            v += 0.3
        if any(g.zone[w] == z for w in vases):
            v += 0.1
        static.append(v)
    return static


class WalkSearch:
    """One exhaustive search over the samurai's walks from his zone, for one card.

    Attributes hold the fixed data (zone lookups, the value of ending in each zone, the open
    passages as a bit mask, what ends the game or wastes a lockdown), the option being searched
    (``tag``) and the best walk so far (``best``: score, tag, first zone)."""

    def __init__(self, k: CastleNightingaleView, g: Geo, card: int, fig_zone: int | None = None):
        if fig_zone is None:
            fig_zone = g.zone[k.ninja_sq] if k.ninja_sq >= 0 else -1
        self.fig_zone = fig_zone
        self.on_board = k.ninja_sq >= 0 or bool(k.discs)
        opens = open_passages(k, g)
        open_bits = 0
        for p in opens:
            open_bits |= 1 << g.passages.index(p)
        self.open_bits = open_bits
        self.n_open = len(opens)
        self.pzone, self.pindex, self.zpos = g.pzone, g.pindex_of_zone, g.zpos
        self.znb, self.zd = g.znb, g.zd
        self.pidx = range(len(g.passages))
        self.static = zone_values(k, g, card)
        self.iron = C.IRON_BAR in k.s_equip
        self.bar = card == C.BAR_THE_HATCH
        self.passages_pos = [g.pos[p] for p in g.passages]
        self.kawarimi = 0.75 if (k.n_equip and C.KAWARIMI not in k.n_used) else 1.0
        self.start_zone = k.samurai_zone
        self.tag: Any = None
        self.best: list[Any] = [-INF, None, None]

    def run(self, lengths: list[tuple[int, float, Any]]) -> tuple[float, Any, int | None]:
        """Best (score, tag, first zone) over walks of the given lengths. ``lengths`` holds
        ``(entries, cost, tag)``; ``tag`` names the option (how to get that many entries)."""
        for length, cost, tag in lengths:
            self.tag = tag
            self._walk(self.start_zone, length, 0, False, False, -cost, None)
        return self.best[0], self.best[1], self.best[2]

    def _leaf(self, z: int, mask: int, captured: bool, locked: bool) -> float:
        """The end zone ``z``: its value, the passages still open (``mask``: closed on the way),
        and a lockdown his card or Iron Bar completes there."""
        v = self.static[z]
        if locked:
            return v
        remaining = self.open_bits & ~mask
        left = self.n_open - bin(mask).count("1")
        zd_z, pzone = self.zd[z], self.pzone
        if remaining:
            v -= CLOCK * min(zd_z[pzone[i]] for i in self.pidx if (remaining >> i) & 1)
        extra = 0
        zpos, passages_pos = self.zpos, self.passages_pos
        if self.bar and any((remaining >> i) & 1 and passages_pos[i] == zpos[z] for i in self.pidx):
            v += CLOSE
            extra += 1
        if self.iron:
            extra += 1
        if left and left <= extra:
            v += CAP if (self.on_board and not captured) else -LOCK_WASTE
        return v

    def _walk(
        self, z: int, left: int, mask: int, captured: bool, locked: bool, score: float, first
    ) -> None:
        """Walk on from zone ``z`` with ``left`` entries to go."""
        if left == 0:
            total = score + self._leaf(z, mask, captured, locked)
            best = self.best
            if total > best[0]:
                best[0], best[1], best[2] = total, self.tag, first
            return
        fig_zone, pindex, open_bits = self.fig_zone, self.pindex, self.open_bits
        kawarimi = self.kawarimi
        for n in self.znb[z]:
            s = score
            cap = captured
            m = mask
            lk = locked
            if n == fig_zone and not cap:
                s += CAP * kawarimi
                cap = True
            i = pindex.get(n)
            if i is not None and not lk and (open_bits >> i) & 1 and not (m >> i) & 1:
                m |= 1 << i
                s += CLOSE
                if m == open_bits:
                    lk = True
                    if self.on_board and not cap:
                        s += CAP
                        cap = True
                    else:
                        s -= LOCK_WASTE
            self._walk(n, left - 1, m, cap, lk, s, n if first is None else first)
