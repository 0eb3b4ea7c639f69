"""The ninja's path search: the best footprint paths of a given length, by a depth-first search.

A path is a sequence of ``(square, kind)`` disc placements from a start square. Kind 0 is an
ordinary placement (a step, a passage travel, a free jump, a diagonal while Shuko is active),
1 a paid jump (discard a token first), 2 a Shuko diagonal (use the token first). A path is worth
the vases it takes (their value to the ninja) while undetected, minus the expected cost of a
detection (the chance a colour sings or the Watch Fire zone is entered, times the chance the
samurai reaches that zone, times the cost of a ninja plus this turn's vases; Soft Tabi cancels
one detection at a small cost), minus the tokens it spends, plus, if undetected, the potential
of the discs it leaves (each is a starting option next turn: best and mean of vase value x
``LAMBDA`` ^ steps, plus a little zone distance from the samurai).

:class:`PathContext` holds what a search needs from one player's knowledge (built by
:meth:`~boardgames_rl.games.castle_nightingale.ai.ninja_model.NinjaModel.context`);
:class:`PathSearch` runs one search; :func:`plans` / :func:`plan` are the entry points.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.ai.geometry import INF, Geo
from boardgames_rl.games.castle_nightingale.ai.tokens import NINJA_TOKEN_VALUE
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES

LAMBDA = 0.75
"""Potential decay per disc step from a disc left on the board towards a vase."""
REVEAL = 0.3
"""Cost of being seen but not caught."""
TABI_USE = 0.5
"""Cost of spending Soft Tabi on a detection."""

Plan = tuple[float, int, list[tuple[int, int]], float]
"""``(value, start square, steps, detection chance)`` of the best path found."""

_WATCH_FIRE = 1 << 6
"""Bit of the path's ``seen`` mask (bits 0-5: colours met) set once it entered the Watch Fire
zone: each colour may sing, and the Watch Fire may reveal, once per path."""


@dataclasses.dataclass
class PathContext:
    """Everything the path search needs, from what one player knows (``NinjaModel.context``).
    Per-square lists are indexed by square, per-colour lists by colour."""

    opens: list[int]
    """Open passages."""
    open_set: frozenset[int]
    sam: int
    """The samurai's square (never entered)."""
    vases: dict[int, float]
    """Vase square -> value to the ninja."""
    vdist: dict[int, list[int]]
    """Vase square -> disc steps (passage travel included) from it to every square."""
    pot: list[float]
    """Best vase value x ``LAMBDA`` ^ steps from each square."""
    safe: list[float]
    """Safety of a disc on each square (zone distance from the samurai)."""
    term: list[float]
    """``pot + safe``: the value of a disc left on each square."""
    term_wo: dict[int, list[float]]
    """Vase square -> ``term`` once that vase is taken."""
    risk: list[float]
    """Chance that each colour sings (1 = known programmed)."""
    twin: bool
    """Two programmed tiles (Twin Nightingales)."""
    pcap: list[float]
    """Per zone: chance that the samurai reaches a figurine revealed there this turn."""
    life: float
    """Cost of a capture, in relics."""
    wf: int
    """The active Watch Fire zone, or -1."""
    tabi: bool
    """Soft Tabi held."""
    stolen: float
    """Relics already taken this turn (lost on a capture)."""
    cheap: float
    """Value of the cheapest token held (the price of a paid jump)."""
    shuko: bool
    """Shuko held."""

    def disc_value(self, sq: int, taken: int) -> float:
        """Potential + safety of a disc on ``sq`` once the vases in the bit mask ``taken`` are
        gone."""
        if not taken:
            return self.term[sq]
        if taken & (taken - 1) == 0:
            return self.term_wo[taken.bit_length() - 1][sq]
        return self._pot_excluding(sq, taken) + self.safe[sq]

    def _pot_excluding(self, sq: int, taken: int) -> float:
        best = 0.0
        lam = LAMBDA
        for v, val in self.vases.items():
            if val <= 0 or (taken >> v) & 1:
                continue
            d = self.vdist[v][sq]
            if d < 40:
                x = val * lam**d
                if x > best:
                    best = x
        return best


class PathSearch:
    """One depth-first search over the footprint paths from some starts (see :func:`plans`).

    Attributes hold the search's fixed data (board lookups; risks, vase values and capture
    chances per square; the best path per disc count), the path being grown (the ``path`` /
    ``kinds`` stacks and its ``start``), and the ninja's remaining means on that path (``jump``:
    0 none, 1 a free jump, 2 a paid one; a Shuko ``diag``; Soft Tabi ``tabi``; one passage travel
    ``hop``; ``shuko_now``: Shuko active for the next disc; ``extra``: the tokens spent), which
    :meth:`_grow` sets before going deeper and restores after. :meth:`_grow` itself gets the
    totals that change at every disc.
    """

    def __init__(
        self,
        g: Geo,
        ctx: PathContext,
        depths: tuple[int, ...],
        prefix: tuple[int, ...] = (),
        shuko_active: bool = False,
        allow_diag: bool = True,
    ):
        self.ctx = ctx
        self.depths = depths
        self.wanted = frozenset(depths)
        self.top = max(depths)
        self.prefix = prefix
        self.shuko_active = shuko_active
        self.col, self.nb, self.jumps, self.dg = g.col, g.nb, g.board.jumps, g.diag
        self.open_set, self.open_list, self.sam = ctx.open_set, ctx.opens, ctx.sam
        self.risk, self.twin, self.life, self.vases = ctx.risk, ctx.twin, ctx.life, ctx.vases
        self.jump_cost = ctx.cheap
        self.diag_cost = NINJA_TOKEN_VALUE[C.SHUKO]
        self.diag_ok = allow_diag and ctx.shuko and not shuko_active
        zone, pcap, wf = g.zone, ctx.pcap, ctx.wf
        self.vv = [ctx.vases.get(sq) for sq in range(NUM_SQUARES)]
        self.psq = [pcap[zone[sq]] for sq in range(NUM_SQUARES)]
        self.wfsq = [wf >= 0 and zone[sq] == wf for sq in range(NUM_SQUARES)]
        self.bests: dict[int, list[Any]] = {dd: [(-1, -INF), None, None, 0.0] for dd in depths}
        self.path: list[int] = []
        self.kinds: list[int] = []
        self.start = -1
        self.jump, self.diag, self.tabi = 0, False, False
        self.hop, self.shuko_now, self.extra = True, False, 0.0

    def run(
        self, starts: list[int], free_jump: bool, paid_jump: bool, visited0: tuple[int, ...] = ()
    ) -> dict[int, Plan]:
        """The best path per disc count in ``depths`` from any of ``starts`` (``visited0``: squares
        already used this turn)."""
        ctx = self.ctx
        jump0 = 2 if paid_jump else 0
        if free_jump:
            jump0 = 1
        base = 0
        for sq in visited0:
            base |= 1 << sq
        pre = [ctx.term[x] for x in self.prefix]
        tmax0, tsum0, tn0 = (max(pre), sum(pre), len(pre)) if pre else (-INF, 0.0, 0)
        for s in starts:
            self.start = s
            self.jump, self.diag, self.tabi = jump0, self.diag_ok, ctx.tabi
            self.hop, self.shuko_now, self.extra = True, self.shuko_active, 0.0
            self._grow(
                s, self.top, base | (1 << s), 1.0, 0, ctx.stolen, 0.0, 0.0, 0, tmax0, tsum0, tn0
            )
        return {dd: (b[0][1], b[1], b[2] or [], b[3]) for dd, b in self.bests.items()}

    def _record(self, dd: int, key: tuple[int, float], surv: float) -> None:
        """Keep the current path as the best for ``dd`` discs if its ``key`` (discs placed,
        value) is higher."""
        best = self.bests[dd]
        if key > best[0]:
            best[0] = key
            best[1] = self.start
            best[2] = list(zip(self.path, self.kinds))
            best[3] = 1.0 - surv

    def _next_squares(self, cur: int, visited: int, taken: int) -> list[tuple[int, int]]:
        """``(square, how)`` of every next disc from ``cur``: how 0 a step (or a diagonal while
        Shuko is active), 4 a passage travel, 1 / 3 a paid / free jump, 2 a Shuko diagonal."""
        sam, dg, vases = self.sam, self.dg, self.vases
        jump, shuko_now = self.jump, self.shuko_now
        cands = []
        if shuko_now:
            for n in dg[cur]:
                if not (visited >> n) & 1 and n != sam:
                    cands.append((n, 0))
        for n in self.nb[cur]:
            if not (visited >> n) & 1 and n != sam:
                cands.append((n, 0))
        if self.hop and cur in self.open_set:  # one passage travel per path is enough
            for n in self.open_list:
                if n != cur and not (visited >> n) & 1 and n != sam:
                    cands.append((n, 4))
        if jump and not shuko_now:
            # a paid jump is only worth a token onto a vase or over the samurai
            for over, n in self.jumps[cur]:
                if (
                    not (visited >> n) & 1
                    and n != sam
                    and (jump == 1 or over == sam or (n in vases and not (taken >> n) & 1))
                ):
                    cands.append((n, 1 if jump == 2 else 3))
        if self.diag and not shuko_now:
            for n in dg[cur]:
                if not (visited >> n) & 1 and n != sam and n in vases:
                    cands.append((n, 2))
        return cands

    def _grow(
        self, cur: int, left: int, visited: int, surv: float, seen: int, so_far: float,
        gain: float, cost: float, taken: int, tmax: float, tsum: float, tn: int,
    ) -> None:  # fmt: skip
        """Score the path ending on ``cur`` and extend it by every next disc (``left`` to place).

        Bit masks ``visited`` (squares used), ``seen`` (detection sources met), ``taken`` (vases
        taken); ``surv``: chance still undetected; ``so_far``: relics carried; ``gain`` /
        ``cost``: expected vases / detection cost; ``tmax`` / ``tsum`` / ``tn``: best, sum and
        count of the values of the discs left."""
        top, path, kinds, bests = self.top, self.path, self.kinds, self.bests
        jump, diag, tabi, hop, extra = self.jump, self.diag, self.tabi, self.hop, self.extra
        shuko_now, moved, done = self.shuko_now, False, top - left
        if done in self.wanted and left > 0:
            self._stop(done, (done,), surv, gain, cost, tmax, tsum, tn)
        if left > 0:
            col, risk, twin = self.col, self.risk, self.twin
            wfsq, vv, psq = self.wfsq, self.vv, self.psq
            tv, life, disc_value = self.ctx.term, self.life, self.ctx.disc_value
            for sq, kind in self._next_squares(cur, visited, taken):
                c, det, seen2 = col[sq], 0.0, seen
                if not (seen >> c) & 1:  # a colour met for the first time may sing
                    seen2 = seen | (1 << c)
                    pc = risk[c]
                    if pc > 0.0:
                        det = surv * pc if twin else min(pc, surv)
                if wfsq[sq] and not seen & _WATCH_FIRE:  # the Watch Fire zone reveals
                    seen2 |= _WATCH_FIRE
                    det = surv
                v = vv[sq]
                path.append(sq)
                kinds.append(0 if kind >= 3 else kind)
                if v is not None and not (taken >> sq) & 1:  # a vase taken
                    gain2, so2, taken2 = gain + surv * v, so_far + v, taken | (1 << sq)
                    tmax2, tsum2, tn2 = self._disc_totals(taken2)
                else:
                    gain2, so2, taken2 = gain, so_far, taken
                    x = tv[sq] if not taken else disc_value(sq, taken)
                    tmax2, tsum2, tn2 = x if x > tmax else tmax, tsum + x, tn + 1
                cost2, surv2, tabi2 = cost, surv, tabi
                if det > 0.0:
                    if tabi:
                        cost2, tabi2 = cost + det * TABI_USE, False
                    else:
                        cost2 = cost + det * (psq[sq] * (life + so2) + REVEAL)
                        surv2 = surv - det
                extra2 = extra + (
                    self.jump_cost if kind == 1 else self.diag_cost if kind == 2 else 0.0
                )
                moved = True
                if left == 1:  # the last disc: score it here rather than in a call
                    term = 0.6 * tmax2 + 0.4 * tsum2 / tn2
                    key = (top, gain2 - cost2 - extra2 + surv2 * term)
                    if key > bests[top][0]:
                        self._record(top, key, surv2)
                else:  # the means left after this disc, restored once that branch is searched
                    self.jump = 0 if kind in (1, 3) else jump
                    self.diag = False if kind == 2 else diag
                    self.tabi, self.hop, self.shuko_now = tabi2, hop and kind != 4, False
                    self.extra = extra2
                    self._grow(
                        sq, left - 1, visited | (1 << sq), surv2, seen2, so2, gain2, cost2,
                        taken2, tmax2, tsum2, tn2,
                    )  # fmt: skip
                    self.jump, self.diag, self.tabi, self.hop = jump, diag, tabi, hop
                    self.shuko_now, self.extra = shuko_now, extra
                path.pop()
                kinds.pop()
        if not moved:  # the path cannot go on: it counts for every larger disc count (G7)
            self._stop(
                done, [dd for dd in self.depths if dd >= done], surv, gain, cost, tmax, tsum, tn
            )

    def _stop(
        self,
        done: int,
        counts: Sequence[int],
        surv: float,
        gain: float,
        cost: float,
        tmax: float,
        tsum: float,
        tn: int,
    ) -> None:
        """Record the path as it is (``done`` discs) for each disc count in ``counts``."""
        term = 0.6 * tmax + 0.4 * tsum / tn if tn else 0.0
        key = (done, gain - cost - self.extra + surv * term)
        for dd in counts:
            self._record(dd, key, surv)

    def _disc_totals(self, taken: int) -> tuple[float, float, int]:
        """Best, sum and count of the values of this turn's discs once the vases in ``taken`` are
        gone (every disc is worth less once a vase near it is taken)."""
        disc_value = self.ctx.disc_value
        vals = [disc_value(x, taken) for x in self.prefix]
        vals += [disc_value(x, taken) for x in self.path]
        return max(vals), sum(vals), len(vals)


def plans(
    g: Geo,
    ctx: PathContext,
    starts: list[int],
    depths: tuple[int, ...],
    free_jump: bool,
    paid_jump: bool,
    prefix: tuple[int, ...] = (),
    visited0: tuple[int, ...] = (),
    shuko_active: bool = False,
    allow_diag: bool = True,
) -> dict[int, Plan]:
    """:func:`plan` for several disc counts at once (one search to the largest): a path that
    cannot go on counts for every larger count, as the rules force (G7). ``prefix``: this turn's
    discs already placed; ``visited0``: the squares already used; ``shuko_active``: the next disc
    may go diagonally; ``allow_diag``: a Shuko held may be used."""
    search = PathSearch(g, ctx, depths, prefix, shuko_active, allow_diag)
    return search.run(starts, free_jump, paid_jump, visited0)


def plan(
    g: Geo,
    ctx: PathContext,
    starts: list[int],
    left: int,
    free_jump: bool,
    paid_jump: bool,
    **kw: Any,
) -> Plan:
    """Best (value, start, steps, detection chance) over paths of ``left`` discs."""
    return plans(g, ctx, starts, (left,), free_jump, paid_jump, **kw)[left]
