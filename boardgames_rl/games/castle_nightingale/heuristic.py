"""A heuristic Castle Nightingale agent: one class that plays whichever role its info set is for.

:class:`NightingaleHeuristic` hands the decision to :class:`NinjaPolicy` (seat 0) or
:class:`SamuraiPolicy` (seat 1). Every decision kind has its own rule; none samples states.

**Ninja.**

* Colour risk: a colour is safe when it is face up, when the ninja has stepped on it this turn
  without a song, or when Listen / the Listening Tube said so; a colour known programmed sings
  for sure. The other colours share the programmed tile(s) by a mixture of uniform (``MIX``) and
  a model of the samurai's choice made from public facts as he saw them when programming: the
  colours around the ninja's possible starting squares and on the shortest ways to the vases,
  mixed (``LEVEL2``) with the colours of the paths this very search finds when it fears every
  colour alike (he may anticipate the obvious route).
* Movement: a depth-first search over the footprint paths of the card's length (steps, one
  passage travel, a free jump, a paid jump or Shuko diagonal onto a vase or over the samurai)
  from every starting option. A path is worth the vases it takes (1 for a known relic, 0 for a
  known empty vase, the relic odds for an unknown one) while undetected, minus the expected cost
  of a detection (the chance the samurai's card reaches that zone in zone entries, times the cost
  of a ninja -- 3 relics, 10 for the last one, a token with Kawarimi -- plus this turn's vases),
  plus, if undetected, a potential of the discs left behind (each is a starting option next turn:
  best and mean of vase value x 0.75^steps, passage travel included, plus a little zone distance
  from the samurai), which spreads the footprints towards the next vases. The card played is the
  one whose best path plus the value of its action (equipment, Pick the Lock when the lockdown is
  near, Listen's information, decoys...) is highest; the start and the discs follow that plan,
  replanned when something changes.
* Tokens: Soft Tabi on every detection, Kawarimi on every capture, Blowgun when it takes a
  capture (or the lockdown) out of the samurai's reach, the Listening Tube when the best plan is
  risky and worthwhile, Lockpick when the lockdown is near, the Rice-Paper Map / Scout on unknown
  vases; the cheapest token is discarded to jump. Lantern: clear rather than reveal; the disc
  kept or revealed is the best placed one far from the samurai. Decoys go on free squares with the
  best potential, far from the samurai, in zones without a disc. Thrown Pebble sends the samurai
  to the adjacent zone farthest from the ninja.

**Samurai.**

* Tile: a score per colour mixing (``MODEL``) the colours around where the ninja can be (the
  figurine, else the discs, else the open passages: squares 1-4 steps away by distance, more on a
  shortest way to a vase, more in zones his card can reach) with the colours on the paths the
  ninja's own search finds from what the samurai knows, for every movement value its card may
  have, fearing the colours the ninja's model says he will pick (``LEVEL3``). The tile is drawn
  with probability proportional to score^3 (a mixed strategy; Twin draws two). The Alarm Bell
  swaps a tile the Listening Tube showed; the Sprint exchange swaps when the ninja's card makes
  another colour much better.
* Movement: an exhaustive search over walks of exactly the remaining entries (or one more / one
  less with an adjustment, +1 / +2 with Straw Sandals, at a token's price): entering the revealed
  figurine's zone captures; every open passage entered is a closing (his reliable clock); closing
  the last one captures any ninja on the board (a lockdown with no ninja to catch is avoided);
  the end zone is worth ending on a disc, a vase the ninja is close to, being near the ninja and
  the open passages, and the card's action there (Bar the Hatch an open passage on that floor
  board, possibly the last one; Lantern Sweep the discs around; Inspect a vase). The card
  programmed is the best walk plus its action's value plus the chance to reach a detected ninja.
* Actions: the final square is a disc (the one most useful to the ninja; never the last disc on
  the board when another square will do: it pins the ninja's next start), else a vase the ninja
  is near (moved far from the ninja and the open passages; a known empty one is left as bait),
  else the square nearest the ninja. Track the Trail / Hound remove the discs farthest from him
  and nearest to the vases; Iron Bar is kept for the lockdown capture (or used when three tokens
  are held); the Paper Lantern when a reachable zone holds all (or all but one) discs; Watch Fire
  when the ninja is next to his zone; the Inventory Ledger when spare. Confiscated vases go far
  from the open passages; after a lockdown he reopens the passages nearest him and farthest from
  the vases; the setup trap doors close the passages nearest the vases.

Only the info set is read: ``knowledge`` (whose hidden parts are re-dealt, so the policies use
only what their player knows: own cards and tokens, public facts, the ninja's ``tile_in`` /
``tile_out``, vase contents marked in ``*_knows``) and the legal action mask. Every decision kind
has a rule; the agent falls back to a random legal action only if a rule returns nothing legal
(a safety net: it never happened in the tests, see ``fallbacks``).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from boardgames_rl.agents.base import Agent
from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import cards as C
from boardgames_rl.games.castle_nightingale.board import Board, Layout, get_board

NINJA, SAMURAI = 0, 1
HAND, PROGRAMMED, FACE_UP = 0, 1, 2
STOLEN, BANKED = -1, -2
INF = 10**6

N_MOVES = tuple(c.move for c in C.NINJA_CARDS)
S_MOVES = tuple(c.move for c in C.SAMURAI_CARDS)

NINJA_TOKEN_VALUE = {
    C.KAWARIMI: 1.6,
    C.SOFT_TABI: 1.4,
    C.LISTENING_TUBE: 1.0,
    C.LOCKPICK: 0.9,
    C.BLOWGUN: 0.8,
    C.RICE_PAPER_MAP: 0.6,
    C.SHUKO: 0.5,
}
SAMURAI_TOKEN_VALUE = {
    C.PAPER_LANTERN: 1.6,
    C.IRON_BAR: 1.5,
    C.ALARM_BELL: 1.1,
    C.STRAW_SANDALS: 1.0,
    C.HOUND: 0.9,
    C.WATCH_FIRE: 0.8,
    C.INVENTORY_LEDGER: 0.5,
}
_FALLOFF = (0.0, 1.0, 0.55, 0.3, 0.15)
"""Weight of a square 0..4 steps from a possible starting square in the tile model."""


# ============================================================================ board geometry
class Geo:
    """Per-layout data (cached): the board plus grid distances and passage/zone lookups."""

    def __init__(self, board: Board):
        self.board = board
        self.nb = board.neighbours
        self.diag = board.diagonals
        self.col = board.colour
        self.zone = board.zone_of
        self.zd = board.zone_distances
        self.znb = board.zone_neighbours
        self.zpass = board.zone_is_passage
        self.zsq = board.zone_squares
        self.zpos = board.zone_position
        self.pos = board.position_of
        self.nz = board.num_zones
        self.passages = board.passages
        self.pzone = tuple(board.zone_of[p] for p in board.passages)
        self.pindex_of_zone = {z: i for i, z in enumerate(self.pzone)}
        self.grid = [self._bfs(s) for s in range(96)]

    def _bfs(self, src: int) -> list[int]:
        dist = [INF] * 96
        dist[src] = 0
        queue = deque([src])
        while queue:
            s = queue.popleft()
            for n in self.nb[s]:
                if dist[n] == INF:
                    dist[n] = dist[s] + 1
                    queue.append(n)
        return dist

    def travel(self, src: int, open_set: frozenset[int] | set[int], limit: int = 99) -> list[int]:
        """Disc steps from ``src`` with passage travel between open passages (BFS)."""
        dist = [INF] * 96
        dist[src] = 0
        queue = deque([src])
        travelled = False
        while queue:
            s = queue.popleft()
            d = dist[s] + 1
            if d > limit:
                continue
            for n in self.nb[s]:
                if dist[n] > d:
                    dist[n] = d
                    queue.append(n)
            if not travelled and s in open_set:
                travelled = True  # BFS order: the first open passage reached is the nearest
                for p in open_set:
                    if dist[p] > d:
                        dist[p] = d
                        queue.append(p)
        return dist


_GEO: dict[tuple, Geo] = {}


def geo_of(k: dict[str, Any], merge_seams: bool = False) -> Geo:
    side, boards, rotated = k["layout"]
    key = (side, tuple(boards), tuple(rotated), merge_seams)
    g = _GEO.get(key)
    if g is None:
        layout = Layout.from_list([side, list(boards), list(rotated)])
        g = _GEO[key] = Geo(get_board(layout, merge_seams))
    return g


def _geo(info) -> Geo:
    """The geometry of an info set's game (zones merged across seams under that variant)."""
    return geo_of(info.knowledge, bool(getattr(info.game, "merge_zones_across_seams", False)))


# ============================================================================ shared helpers
def open_passages(k: dict, g: Geo) -> list[int]:
    return [p for i, p in enumerate(g.passages) if not k["closed"][i]]


def ninja_starts(k: dict, g: Geo) -> list[int]:
    """Where the ninja may start its next movement (public): figurine, else discs, else the open
    passages."""
    if k["ninja_sq"] >= 0:
        return [k["ninja_sq"]]
    if k["discs"]:
        return list(k["discs"])
    out = [p for p in open_passages(k, g) if p != k["samurai_sq"]]
    return out or [sq for sq in range(96) if not g.board.passage[sq]]


def vase_values(k: dict, player: int) -> dict[int, float]:
    """Square -> value of the vase on it to the ninja, as ``player`` knows it."""
    knows = k["ninja_knows"] if player == NINJA else k["samurai_knows"]
    content = k["vase_content"]
    where = k["vase_where"]
    known_relics = sum(1 for t in range(C.NUM_VASES) if knows[t] and content[t])
    if player == NINJA:
        unknown = sum(1 for t in range(C.NUM_VASES) if not knows[t])
        odds = (C.NUM_RELICS - known_relics) / unknown if unknown else 0.0
    else:
        odds = 0.75
    out = {}
    for t, w in enumerate(where):
        if w >= 0:
            out[w] = (1.0 if content[t] else 0.0) if knows[t] else odds
    return out


def colour_scores(
    g: Geo,
    starts: list[int],
    open_set: frozenset[int],
    vases: dict[int, float],
    zone_weight: list[float] | None = None,
) -> list[float]:
    """How much each colour is in the ninja's way next movement: squares 1-4 steps from its
    possible starts (by distance), more on a shortest way to a vase, times ``zone_weight``."""
    w = [0.0] * 96
    n = len(starts)
    vase_dist = {v: g.travel(v, open_set, 6) for v, val in vases.items() if val > 0.05}
    for s in starts:
        dist = g.travel(s, open_set, 4)
        for sq in range(96):
            d = dist[sq]
            if 1 <= d <= 4:
                w[sq] += _FALLOFF[d] / n
        for v, dv in vase_dist.items():
            total = dv[s]
            if total > 6:
                continue
            for sq in range(96):
                if 1 <= dist[sq] <= 4 and dist[sq] + dv[sq] == total:
                    w[sq] += 0.5 * vases[v] / (n * total)
    scores = [0.0] * 6
    col = g.col
    zone = g.zone
    for sq in range(96):
        if w[sq]:
            scores[col[sq]] += w[sq] * (zone_weight[zone[sq]] if zone_weight else 1.0)
    return scores


def ninja_card_moves(k: dict) -> dict[int, int]:
    """Movement value -> number of ninja cards that may be played now, as the samurai sees it
    (the hand seen from the Watchtower, else every card not in the ninja's discard pile)."""
    known = k["known_n_hand"]
    cards = known if len(known) >= 3 else [c for c in range(10) if c not in k["n_discard"]]
    counts: dict[int, int] = {}
    for c in cards:
        counts[N_MOVES[c]] = counts.get(N_MOVES[c], 0) + 1
    return counts


def path_colours(
    planner: NinjaPolicy,
    g: Geo,
    ctx: dict,
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
    found = planner.plans(g, ctx, starts, tuple(capped), False, False, allow_diag=False)
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


def _mix(a: list[float], b: list[float], w: float) -> list[float]:
    ta, tb = sum(a) or 1.0, sum(b) or 1.0
    return [(1 - w) * x / ta + w * y / tb for x, y in zip(a, b, strict=True)]


def _mask_squares(legal: np.ndarray) -> list[int]:
    return [int(a) for a in np.flatnonzero(legal[: A.ZONE])]


def _best(options, key):
    return max(options, key=key)


# ============================================================================ the ninja
class NinjaPolicy:
    """Ninja decisions (see the module docstring)."""

    LEVEL2 = 0.5  # weight of "the samurai simulates my search" in that model
    MIX = 0.5  # weight of the samurai model in the colour prior (the rest is uniform)
    LAMBDA = 0.75  # potential decay per disc step towards a vase
    LIFE = 3.0  # cost of losing a ninja (in relics), 10 for the last one
    REVEAL = 0.3  # cost of being seen but not caught
    TABI_USE = 0.5  # cost of spending Soft Tabi on a detection

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self._prior: dict[tuple, list[float]] = {}
        self._plan: dict[str, Any] | None = None

    @staticmethod
    def _signature(k: dict) -> tuple:
        """What a movement plan depends on besides the discs placed along it."""
        return (
            k["turn"],
            k["samurai_sq"],
            tuple(k["closed"]),
            tuple(k["tile_in"]),
            tuple(k["ninja_knows"]),
            tuple(map(tuple, k["listen_answers"])),
            k["bell_used"],
        )

    def _planned_step(self, k: dict) -> tuple[int, int] | None:
        """The next step of this turn's plan, if the plan still holds."""
        plan = self._plan
        if plan is None or plan["sig"] != self._signature(k) or plan["start"] != k["start_sq"]:
            return None
        done = list(k["turn_discs"])
        steps = plan["steps"]
        if len(done) >= len(steps) or [sq for sq, _ in steps[: len(done)]] != done:
            return None
        return steps[len(done)]

    # ------------------------------------------------------------------ models
    def _tile_probs(self, k: dict, g: Geo) -> tuple[list[float], bool]:
        """Chance that each colour sings now (1 = known programmed, 0 = known safe)."""
        twin = bool(k["flags"].get("twin"))
        count = 2 if twin else 1
        loc = k["tile_loc"]
        tin = [c for c in range(6) if k["tile_in"][c]]
        cand = [c for c in range(6) if loc[c] != FACE_UP and not k["tile_out"][c] and c not in tin]
        p = [0.0] * 6
        for c in tin:
            p[c] = 1.0
        left = count - len(tin)
        if left > 0 and cand:
            prior = self._prior.get(self._turn_key(k))
            if prior is None:
                prior = [1.0] * 6
            tot = sum(prior[c] ** 3 for c in cand) or 1.0
            for c in cand:
                share = (1 - self.MIX) / len(cand) + self.MIX * prior[c] ** 3 / tot
                p[c] = min(1.0, left * share)
        return p, twin

    @staticmethod
    def _turn_key(k: dict) -> tuple:
        return (k["turn"], k["captured"], tuple(k["n_discard"]), tuple(k["s_discard"]))

    def _remember_prior(self, k: dict, g: Geo) -> None:
        """The colour model as the samurai saw the board when he programmed (kept all turn)."""
        key = self._turn_key(k)
        if key not in self._prior:
            self._prior = {key: self.colour_prior(k, g)}

    def colour_prior(self, k: dict, g: Geo) -> list[float]:
        """Per colour: how likely the samurai is to programme it, by public facts only (his
        view at programming time: the ninja's possible starts, the vases, and, at weight
        ``LEVEL2``, the colours of the paths this search finds with a uniform prior)."""
        opens = frozenset(open_passages(k, g))
        starts = ninja_starts(k, g)
        scores = colour_scores(g, starts, opens, vase_values(k, NINJA))
        if self.LEVEL2:
            ctx = self.context(k, g, model=True)
            cand = [c for c in range(6) if k["tile_loc"][c] != FACE_UP]
            face_up = set(range(6)) - set(cand)
            model = path_colours(self, g, ctx, starts, ninja_card_moves(k), face_up)
            scores = _mix(scores, model, self.LEVEL2)
        return scores

    def _pcap(self, k: dict, g: Geo) -> list[float]:
        """Per zone: chance that the samurai reaches a figurine revealed there this turn."""
        samurai = k["decision"] is not None and k["decision"]["player"] == SAMURAI
        if k["s_card"] >= 0 and (k["s_card_shown"] or samurai):
            cards = [k["s_card"]]
        else:
            cards = [c for c in range(10) if c not in k["s_discard"]]
        bonus = 1 if k["s_equip"] else 0
        blow = 1 if C.BLOWGUN in k["n_equip"] and not samurai else 0
        moves = [max(1, S_MOVES[c] - blow) + bonus for c in cards]
        sz = k["samurai_zone"]
        zd = g.zd[sz] if sz >= 0 else [3] * g.nz
        out = []
        for z in range(g.nz):
            need = zd[z] if zd[z] > 0 else 2
            out.append(sum(1 for m in moves if m >= need) / len(moves))
        return out

    def _life(self, k: dict) -> float:
        if C.KAWARIMI in k["n_equip"]:
            return NINJA_TOKEN_VALUE[C.KAWARIMI]
        return 10.0 if k["captured"] >= C.NINJAS - 1 else self.LIFE

    def context(self, k: dict, g: Geo, model: bool = False) -> dict:
        """Everything the path search needs, from what the owner of ``k`` knows. ``model``: a
        model of a ninja whose tokens and stolen vases are unknown and that fears every colour
        alike (the samurai's view of the ninja, or the ninja's view of that view)."""
        me = k["decision"]["player"] if k["decision"] else NINJA
        opens = open_passages(k, g)
        open_set = frozenset(opens)
        vases = vase_values(k, me)
        vdist = {v: g.travel(v, open_set) for v in vases}
        lam = self.LAMBDA
        pot = [0.0] * 96
        pot2 = [0.0] * 96  # second best, from another vase
        best_vase = [-1] * 96
        for v, val in vases.items():
            if val <= 0:
                continue
            dv = vdist[v]
            for sq in range(96):
                if dv[sq] >= 40:
                    continue
                x = val * lam ** dv[sq]
                if x > pot[sq]:
                    pot2[sq] = pot[sq]
                    pot[sq] = x
                    best_vase[sq] = v
                elif x > pot2[sq]:
                    pot2[sq] = x
        sz = k["samurai_zone"]
        safe = [0.08 * min(g.zd[sz][g.zone[sq]], 4) if sz >= 0 else 0.3 for sq in range(96)]
        term = [pot[sq] + safe[sq] for sq in range(96)]
        term_wo = {
            v: [(pot2[sq] if best_vase[sq] == v else pot[sq]) + safe[sq] for sq in range(96)]
            for v in vases
        }
        f = k["flags"]
        if not model:
            p, twin = self._tile_probs(k, g)
            stolen = sum(
                (1.0 if k["vase_content"][t] else 0.0)
                for t, w in enumerate(k["vase_where"])
                if w == STOLEN
            )
            pcap, life, equip = self._pcap(k, g), self._life(k), k["n_equip"]
        else:
            twin = bool(f.get("twin"))
            cand = [c for c in range(6) if k["tile_loc"][c] != FACE_UP]
            p = [0.0] * 6
            for c in cand:
                p[c] = (2.0 if twin else 1.0) / len(cand)
            stolen = 0.0
            pcap = self._pcap(k, g)
            life = 10.0 if k["captured"] >= C.NINJAS - 1 else self.LIFE
            equip = []
        return {
            "open": opens,
            "open_set": open_set,
            "sam": k["samurai_sq"],
            "vases": vases,
            "vdist": vdist,
            "pot": pot,
            "safe": safe,
            "term": term,
            "term_wo": term_wo,
            "risk": p,
            "twin": twin,
            "pcap": pcap,
            "life": life,
            "wf": f.get("watch_fire_zone", -1) if not f.get("watch_fire_used") else -1,
            "tabi": C.SOFT_TABI in equip,
            "stolen": stolen,
            "cheap": min((NINJA_TOKEN_VALUE[t] for t in equip), default=0.0),
            "shuko": C.SHUKO in equip,
        }

    # ------------------------------------------------------------------ path search
    def plan(
        self,
        g: Geo,
        ctx: dict,
        starts: list[int],
        left: int,
        free_jump: bool,
        paid_jump: bool,
        **kw: Any,
    ) -> tuple[float, int, list[tuple[int, int]], float]:
        """Best (value, start, steps, detection chance) over paths of ``left`` discs.

        ``steps`` are ``(square, kind)``: kind 0 = ordinary placement (step, passage travel, free
        jump, diagonal while Shuko is active), 1 = paid jump, 2 = Shuko diagonal (use the token
        first)."""
        return self.plans(g, ctx, starts, (left,), free_jump, paid_jump, **kw)[left]

    def plans(
        self,
        g: Geo,
        ctx: dict,
        starts: list[int],
        depths: tuple[int, ...],
        free_jump: bool,
        paid_jump: bool,
        prefix: tuple[int, ...] = (),
        visited0: tuple[int, ...] = (),
        shuko_active: bool = False,
        allow_diag: bool = True,
    ) -> dict[int, tuple[float, int, list[tuple[int, int]], float]]:
        """:meth:`plan` for several disc counts at once (one search to the largest): a path
        that cannot go on counts for every larger count, as the rules force (G7)."""
        wanted = frozenset(depths)
        top = max(depths)
        col, zone, nb, jumps, dg = g.col, g.zone, g.nb, g.board.jumps, g.diag
        open_set, open_list, sam = ctx["open_set"], ctx["open"], ctx["sam"]
        risk, twin, pcap, life = ctx["risk"], ctx["twin"], ctx["pcap"], ctx["life"]
        vases, tv, wf = ctx["vases"], ctx["term"], ctx["wf"]
        reveal, tabi_use = self.REVEAL, self.TABI_USE
        jump_cost = ctx["cheap"]
        diag_cost = NINJA_TOKEN_VALUE[C.SHUKO]
        diag_ok = allow_diag and ctx["shuko"] and not shuko_active
        termval = self._termval
        bests = {dd: [(-1, -INF), None, None, 0.0] for dd in depths}
        vv = [vases.get(sq) for sq in range(96)]
        psq = [pcap[zone[sq]] for sq in range(96)]
        wfsq = [wf >= 0 and zone[sq] == wf for sq in range(96)]

        def record(dd, key, path, kinds, start, surv):
            best = bests[dd]
            if key > best[0]:
                best[0] = key
                best[1] = start
                best[2] = list(zip(path, kinds, strict=True))
                best[3] = 1.0 - surv

        def rec(
            cur,
            left,
            visited,
            surv,
            seen,
            so_far,
            gain,
            cost,
            jump,
            diag,
            tabi,
            wf_hit,
            taken,
            path,
            kinds,
            start,
            extra,
            shuko_now,
            tmax,
            tsum,
            tn,
            hop,
        ):
            moved = False
            done = top - left
            if done in wanted and left > 0:
                term = 0.6 * tmax + 0.4 * tsum / tn if tn else 0.0
                record(done, (done, gain - cost - extra + surv * term), path, kinds, start, surv)
            if left > 0:
                cands = []
                if shuko_now:
                    for n in dg[cur]:
                        if not (visited >> n) & 1 and n != sam:
                            cands.append((n, 0))
                for n in nb[cur]:
                    if not (visited >> n) & 1 and n != sam:
                        cands.append((n, 0))
                if hop and cur in open_set:  # one passage travel per path is enough
                    for n in open_list:
                        if n != cur and not (visited >> n) & 1 and n != sam:
                            cands.append((n, 4))
                if jump and not shuko_now:
                    # a paid jump is only worth a token onto a vase or over the samurai
                    for over, n in jumps[cur]:
                        if (
                            not (visited >> n) & 1
                            and n != sam
                            and (jump == 1 or over == sam or (n in vases and not (taken >> n) & 1))
                        ):
                            cands.append((n, 1 if jump == 2 else 3))
                if diag and not shuko_now:
                    for n in dg[cur]:
                        if not (visited >> n) & 1 and n != sam and n in vases:
                            cands.append((n, 2))
                for sq, kind in cands:
                    c = col[sq]
                    det = 0.0
                    seen2 = seen
                    if not (seen >> c) & 1:
                        seen2 = seen | (1 << c)
                        pc = risk[c]
                        if pc > 0.0:
                            det = surv * pc if twin else min(pc, surv)
                    wf2 = wf_hit
                    if wfsq[sq] and not wf_hit:
                        wf2 = True
                        det = surv
                    v = vv[sq]
                    path.append(sq)
                    kinds.append(0 if kind >= 3 else kind)
                    if v is not None and not (taken >> sq) & 1:
                        gain2 = gain + surv * v
                        so2 = so_far + v
                        taken2 = taken | (1 << sq)
                        vals = [termval(ctx, x, taken2) for x in prefix]
                        vals += [termval(ctx, x, taken2) for x in path]
                        tmax2, tsum2, tn2 = max(vals), sum(vals), len(vals)
                    else:
                        gain2, so2, taken2 = gain, so_far, taken
                        x = tv[sq] if not taken else termval(ctx, sq, taken)
                        tmax2 = x if x > tmax else tmax
                        tsum2, tn2 = tsum + x, tn + 1
                    cost2 = cost
                    surv2 = surv
                    tabi2 = tabi
                    if det > 0.0:
                        if tabi:
                            cost2 = cost + det * tabi_use
                            tabi2 = False
                        else:
                            cost2 = cost + det * (psq[sq] * (life + so2) + reveal)
                            surv2 = surv - det
                    jump2 = 0 if kind in (1, 3) else jump
                    diag2 = False if kind == 2 else diag
                    extra2 = extra + (jump_cost if kind == 1 else diag_cost if kind == 2 else 0.0)
                    if left == 1:  # the last disc: score it here rather than in a call
                        term = 0.6 * tmax2 + 0.4 * tsum2 / tn2
                        key = (top, gain2 - cost2 - extra2 + surv2 * term)
                        if key > bests[top][0]:
                            record(top, key, path, kinds, start, surv2)
                        path.pop()
                        kinds.pop()
                        moved = True
                        continue
                    rec(
                        sq,
                        left - 1,
                        visited | (1 << sq),
                        surv2,
                        seen2,
                        so2,
                        gain2,
                        cost2,
                        jump2,
                        diag2,
                        tabi2,
                        wf2,
                        taken2,
                        path,
                        kinds,
                        start,
                        extra2,
                        False,
                        tmax2,
                        tsum2,
                        tn2,
                        hop and kind != 4,
                    )
                    path.pop()
                    kinds.pop()
                    moved = True
            if not moved:
                term = 0.6 * tmax + 0.4 * tsum / tn if tn else 0.0
                key = (done, gain - cost - extra + surv * term)
                for dd in depths:
                    if dd >= done:
                        record(dd, key, path, kinds, start, surv)

        jump0 = 2 if paid_jump else 0
        if free_jump:
            jump0 = 1
        base = 0
        for sq in visited0:
            base |= 1 << sq
        pre = [tv[x] for x in prefix]
        tmax0, tsum0, tn0 = (max(pre), sum(pre), len(pre)) if pre else (-INF, 0.0, 0)
        for s in starts:
            rec(
                s,
                top,
                base | (1 << s),
                1.0,
                0,
                ctx["stolen"],
                0.0,
                0.0,
                jump0,
                diag_ok,
                ctx["tabi"],
                False,
                0,
                [],
                [],
                s,
                0.0,
                shuko_active,
                tmax0,
                tsum0,
                tn0,
                True,
            )
        return {dd: (b[0][1], b[1], b[2] or [], b[3]) for dd, b in bests.items()}

    def _termval(self, ctx: dict, sq: int, taken: int) -> float:
        """Potential + safety of a disc once the vases in ``taken`` are gone."""
        if not taken:
            return ctx["term"][sq]
        if taken & (taken - 1) == 0:
            return ctx["term_wo"][taken.bit_length() - 1][sq]
        return self._pot_excluding(ctx, sq, taken) + ctx["safe"][sq]

    def _pot_excluding(self, ctx: dict, sq: int, taken: int) -> float:
        best = 0.0
        lam = self.LAMBDA
        for v, val in ctx["vases"].items():
            if val <= 0 or (taken >> v) & 1:
                continue
            d = ctx["vdist"][v][sq]
            if d < 40:
                x = val * lam**d
                if x > best:
                    best = x
        return best

    # ------------------------------------------------------------------ decisions
    def act(self, info, rng: np.random.Generator) -> int | None:
        k = info.knowledge
        legal = info.legal_action_mask
        d = k["decision"]
        kind = d["kind"]
        g = _geo(info)
        handler = getattr(self, f"_{kind}", None)
        if handler is None:
            return None
        return handler(k, g, legal, d, rng)

    def _prog_n_card(self, k, g, legal, d, rng):
        self._remember_prior(k, g)
        ctx = self.context(k, g)
        base_starts = ninja_starts(k, g)
        opens = [p for p in ctx["open"] if p != k["samurai_sq"]]
        n_open = len(ctx["open"])
        tokens = len(k["n_equip"])
        options = []  # (card, search key): cards sharing a search are planned together
        groups: dict[tuple, set[int]] = {}
        for card in k["n_hand"]:
            if not legal[A.NINJA_CARD + card]:
                continue
            starts = base_starts
            if card == C.VANISH:
                starts = sorted(set(base_starts) | set(opens))
            key = (tuple(starts), card == C.ROOFTOP_LEAP, 0.45 if card == C.LISTEN else 1.0)
            groups.setdefault(key, set()).add(N_MOVES[card])
            options.append((card, key))
        found = {}
        for key, moves in groups.items():
            starts, free, scale = key
            c2 = ctx
            if scale != 1.0:
                c2 = dict(ctx, risk=[x if x >= 1.0 else x * scale for x in ctx["risk"]])
            found[key] = self.plans(
                g, c2, list(starts), tuple(sorted(moves)), free, tokens > 0, allow_diag=False
            )
        best_card, best_value, best_det, best_gain = -1, -INF, 0.0, 0.0
        for card, key in options:
            value, start, steps, det = found[key][N_MOVES[card]]
            gain = sum(ctx["vases"].get(sq, 0.0) for sq, _ in steps)
            value += self._card_bonus(card, n_open, k)
            if value > best_value:
                best_card, best_value, best_det, best_gain = card, value, det, gain
                self._plan = {
                    "sig": self._signature(k),
                    "card": card,
                    "start": start,
                    "steps": steps,
                }
        if legal[A.NINJA_TOKEN + C.LISTENING_TUBE] and best_det > 0.2 and best_gain > 0.4:
            return A.NINJA_TOKEN + C.LISTENING_TUBE
        return A.NINJA_CARD + best_card

    @staticmethod
    def _card_bonus(card: int, n_open: int, k: dict) -> float:
        stack = len(k["n_stack"])
        token = 0.6 if stack else 0.0
        if card == C.PICK_THE_LOCK:
            closed = 8 - n_open
            return (
                (0.2 if closed else 0.0)
                + (1.0 if n_open <= 3 else 0.0)
                + (2.0 if n_open <= 2 else 0.0)
            )
        if card == C.SCOUT:
            return 0.2 + token
        if card == C.SUPPLY_CACHE:
            return token
        if card == C.MEDITATE:
            return token + (0.2 if stack >= 2 else 0.0)
        if card == C.FALSE_TRAIL:
            return 0.3
        if card == C.THROWN_PEBBLE:
            return 0.15
        if card == C.LISTEN:
            return 0.1
        return 0.0

    def _start(self, k, g, legal, d, rng):
        plan = self._plan
        card = k["n_card"]
        if (
            plan is not None
            and plan["card"] == card
            and plan["sig"] == self._signature(k)
            and plan["start"] is not None
            and legal[A.SQUARE + plan["start"]]
        ):
            return A.SQUARE + plan["start"]
        ctx = self.context(k, g)
        starts = _mask_squares(legal)
        move = N_MOVES[card]
        f = k["flags"]
        free = bool(f["free_jump"]) and not f["jump_used"]
        paid = not f["jump_used"] and bool(k["n_equip"])
        _v, start, steps, _det = self.plan(g, ctx, starts, move, free, paid)
        start = start if start is not None else starts[0]
        self._plan = {"sig": self._signature(k), "card": card, "start": start, "steps": steps}
        return A.SQUARE + start

    def _step_action(self, step, legal, shuko_on: bool) -> int | None:
        sq, kind = step
        if kind == 1 and legal[A.JUMP]:
            return A.JUMP
        if kind == 2 and not shuko_on and legal[A.NINJA_TOKEN + C.SHUKO]:
            return A.NINJA_TOKEN + C.SHUKO
        if legal[A.SQUARE + sq]:
            return A.SQUARE + sq
        return None

    def _place(self, k, g, legal, d, rng):
        f = k["flags"]
        # Lockpick when the lockdown is near (it also reopens a way to travel)
        if legal[A.NINJA_TOKEN + C.LOCKPICK] and sum(1 for c in k["closed"] if not c) <= 2:
            return A.NINJA_TOKEN + C.LOCKPICK
        step = self._planned_step(k)
        if step is not None:
            action = self._step_action(step, legal, bool(f["shuko"]))
            if action is not None:
                return action
        ctx = self.context(k, g)
        cur = k["turn_discs"][-1] if k["turn_discs"] else k["start_sq"]
        visited = (k["start_sq"], *k["turn_discs"])
        free = bool(f["free_jump"]) and not f["jump_used"]
        paid = not f["jump_used"] and (bool(k["n_equip"]) or bool(f["jump_paid"]))
        _v, _s, steps, _det = self.plan(
            g,
            ctx,
            [cur],
            f["discs_left"],
            free,
            paid,
            prefix=tuple(k["turn_discs"]),
            visited0=visited,
            shuko_active=bool(f["shuko"]),
        )
        if steps:
            self._plan = {
                "sig": self._signature(k),
                "card": k["n_card"],
                "start": k["start_sq"],
                "steps": [(sq, 0) for sq in k["turn_discs"]] + steps,
            }
            action = self._step_action(steps[0], legal, bool(f["shuko"]))
            if action is not None:
                return action
        # the plan is not legal (should not happen): the legal square with the best potential
        squares = _mask_squares(legal)
        if squares:
            return A.SQUARE + _best(squares, lambda s: ctx["pot"][s] - 2 * ctx["risk"][g.col[s]])
        if legal[A.JUMP]:  # only a paid jump goes on (G7): it places the remaining discs
            return A.JUMP
        if legal[A.PASS]:  # stranded with tokens held: stop, the unplaced discs go back
            return A.PASS
        return None

    def _jump_token(self, k, g, legal, d, rng):
        tokens = [t for t in k["n_equip"] if legal[A.NINJA_TOKEN + t]]
        return A.NINJA_TOKEN + min(tokens, key=lambda t: NINJA_TOKEN_VALUE[t])

    def _jump_land(self, k, g, legal, d, rng):
        step = self._planned_step(k)
        if step is not None and legal[A.SQUARE + step[0]]:
            return A.SQUARE + step[0]
        f = k["flags"]
        ctx = self.context(k, g)
        visited = (k["start_sq"], *k["turn_discs"])
        best_sq, best_v = None, -INF
        for sq in _mask_squares(legal):
            # value of landing here, then the best continuation
            v, _s, _steps, _det = self.plan(
                g,
                ctx,
                [sq],
                f["discs_left"] - 1,
                False,
                False,
                prefix=tuple(k["turn_discs"]) + (sq,),
                visited0=visited,
            )
            v += ctx["vases"].get(sq, 0.0) - 2.0 * ctx["risk"][g.col[sq]]
            if v > best_v:
                best_sq, best_v = sq, v
        return A.SQUARE + best_sq

    def _w4(self, k, g, legal, d, rng):
        if legal[A.NINJA_TOKEN + C.SOFT_TABI]:
            return A.NINJA_TOKEN + C.SOFT_TABI
        return A.PASS

    def _w8(self, k, g, legal, d, rng):
        if legal[A.NINJA_TOKEN + C.KAWARIMI]:
            return A.NINJA_TOKEN + C.KAWARIMI
        return A.PASS

    def _w6_n(self, k, g, legal, d, rng):
        if not legal[A.NINJA_TOKEN + C.BLOWGUN]:
            return A.PASS
        f = k["flags"]
        sz = k["samurai_zone"]
        target = f["target"]
        reduced = max(1, target - 1, f["entries"])
        if k["ninja_sq"] >= 0:
            dz = g.zd[sz][g.zone[k["ninja_sq"]]]
            need = dz if dz > 0 else 2
            if reduced < need <= target:
                return A.NINJA_TOKEN + C.BLOWGUN
        opens = open_passages(k, g)
        if (k["ninja_sq"] >= 0 or k["discs"]) and len(opens) == 1:
            dz = g.zd[sz][g.zone[opens[0]]]
            if reduced < dz <= target:
                return A.NINJA_TOKEN + C.BLOWGUN
        return A.PASS

    def _w3_end(self, k, g, legal, d, rng):
        opens = open_passages(k, g)
        if legal[A.NINJA_TOKEN + C.LOCKPICK] and len(opens) <= 3:
            return A.NINJA_TOKEN + C.LOCKPICK
        unknown = sum(
            1 for t, w in enumerate(k["vase_where"]) if w >= 0 and not k["ninja_knows"][t]
        )
        if legal[A.NINJA_TOKEN + C.RICE_PAPER_MAP] and unknown >= 2:
            return A.NINJA_TOKEN + C.RICE_PAPER_MAP
        return A.PASS

    def _reopen_score(self, k, g, sq: int) -> float:
        """A closed passage worth opening: far from the samurai, near the ninja and the vases."""
        sz = k["samurai_zone"]
        here = [sq2 for sq2 in (k["discs"] or ([k["ninja_sq"]] if k["ninja_sq"] >= 0 else []))]
        near = min((g.grid[sq][h] for h in here), default=5)
        vases = vase_values(k, NINJA)
        vnear = min((g.grid[sq][v] for v, val in vases.items() if val > 0), default=10)
        return 0.5 * min(g.zd[sz][g.zone[sq]], 5) - 0.3 * near - 0.2 * vnear

    def _lockpick(self, k, g, legal, d, rng):
        return A.SQUARE + _best(_mask_squares(legal), lambda s: self._reopen_score(k, g, s))

    _pick_lock = _lockpick

    def _look_vase(self, k, g, legal, d, rng):
        """Scout / Map: the nearest vase whose content it does not know."""
        here = ninja_starts(k, g)
        known = {w for t, w in enumerate(k["vase_where"]) if w >= 0 and k["ninja_knows"][t]}
        return A.SQUARE + _best(
            _mask_squares(legal), lambda s: (s not in known, -min(g.grid[s][h] for h in here))
        )

    _scout = _look_vase
    _map_vase = _look_vase

    def _meditate(self, k, g, legal, d, rng):
        options = [t for t in range(7) if legal[A.NINJA_TOKEN + t]]
        return A.NINJA_TOKEN + max(options, key=lambda t: NINJA_TOKEN_VALUE[t])

    def _listen(self, k, g, legal, d, rng):
        p, _twin = self._tile_probs(k, g)
        opens = frozenset(open_passages(k, g))
        need = colour_scores(g, ninja_starts(k, g), opens, vase_values(k, NINJA))
        options = [c for c in range(6) if legal[A.TILE + c]]
        return A.TILE + max(options, key=lambda c: (need[c] * (0.2 + p[c]), -c))

    def _pebble(self, k, g, legal, d, rng):
        here = ninja_starts(k, g)
        zones = {g.zone[h] for h in here}

        def score(s):
            z = g.zone[s]
            return (min(g.zd[z][hz] for hz in zones), min(g.grid[s][h] for h in here))

        return A.SQUARE + _best(_mask_squares(legal), score)

    def _decoy(self, k, g, legal, d, rng):
        ctx = self.context(k, g)
        used_zones = {g.zone[s] for s in k["discs"]}
        sz = k["samurai_zone"]
        return A.SQUARE + _best(
            _mask_squares(legal),
            lambda s: (
                ctx["pot"][s]
                + 0.1 * min(g.zd[sz][g.zone[s]], 4)
                + (0.3 if g.zone[s] not in used_zones else 0.0)
            ),
        )

    def _lantern_choice(self, k, g, legal, d, rng):
        return A.CLEAR if legal[A.CLEAR] else A.REVEAL

    def _keep_disc(self, k, g, legal, d, rng):
        ctx = self.context(k, g)
        sz = k["samurai_zone"]
        return A.SQUARE + _best(
            _mask_squares(legal),
            lambda s: ctx["pot"][s] + 0.5 * min(g.zd[sz][g.zone[s]], 4),
        )

    _lantern_disc = _keep_disc
    _sweep_keep = _keep_disc


# ============================================================================ the samurai
class SamuraiPolicy:
    """Samurai decisions (see the module docstring)."""

    CAP = 20.0  # a capture
    CLOSE = 2.5  # one passage closed (the lockdown clock)
    LOCK_WASTE = 7.5  # a lockdown with no ninja on the board (4 passages reopen)
    DISC = 0.8  # ending on a disc
    CHASE = 0.45  # per zone between his end zone and the ninja
    CLOCK = 0.3  # per zone between his end zone and the nearest open passage
    TOKEN_COST = 2.0  # using a token for movement costs this plus the token's value
    GUARD = 1.5  # ending on a vase the ninja is close to (he then moves it away)
    LEVEL3 = 1.0  # model the ninja's own fear of the obvious paths (1 = on)
    MODEL = 0.5  # weight of the simulated ninja's paths in the tile choice
    POWER = 3.0  # tile choice: probability proportional to score ** POWER

    def __init__(self):
        self._model = NinjaPolicy()
        self.reset()

    def reset(self) -> None:
        self._sandals_plus = 1

    # ------------------------------------------------------------------ helpers
    def act(self, info, rng: np.random.Generator) -> int | None:
        k = info.knowledge
        legal = info.legal_action_mask
        d = k["decision"]
        kind = d["kind"]
        g = _geo(info)
        handler = getattr(self, f"_{kind}", None)
        if handler is None:
            return None
        return handler(k, g, legal, d, rng)

    @staticmethod
    def _ninja_here(k, g) -> list[int]:
        """Squares the ninja is known to be on or can start from."""
        if k["ninja_sq"] >= 0:
            return [k["ninja_sq"]]
        if k["discs"]:
            return list(k["discs"])
        return [p for p in open_passages(k, g) if p != k["samurai_sq"]] or [k["samurai_sq"]]

    def _move_bonus(self, k) -> int:
        return 1 if k["s_equip"] and not k["flags"].get("adjust_used") else 0

    def _tile_scores(self, k, g, move: int | None) -> list[float]:
        opens = frozenset(open_passages(k, g))
        sz = k["samurai_zone"]
        zone_weight = None
        if move is not None and sz >= 0:
            reach = move + self._move_bonus(k)
            zone_weight = []
            for z in range(g.nz):
                dz = g.zd[sz][z]
                need = dz if dz > 0 else 2
                zone_weight.append(1.0 if need <= reach else 0.35)
        starts = ninja_starts(k, g)
        near = colour_scores(g, starts, opens, vase_values(k, SAMURAI), zone_weight)
        if not self.MODEL:
            return near
        ctx = self._model.context(k, g, model=True)
        face_up = {c for c in range(6) if k["tile_loc"][c] == FACE_UP}
        if self.LEVEL3:  # the ninja fears the colours of its own obvious paths: so does he
            prior = self._model.colour_prior(k, g)
            cand = [c for c in range(6) if c not in face_up]
            tot = sum(prior[c] ** 3 for c in cand) or 1.0
            count = 2 if k["flags"].get("twin") else 1
            ctx["risk"] = [
                min(1.0, count * (0.5 / len(cand) + 0.5 * prior[c] ** 3 / tot))
                if c in cand
                else 0.0
                for c in range(6)
            ]
        model = path_colours(self._model, g, ctx, starts, ninja_card_moves(k), face_up, zone_weight)
        return _mix(near, model, self.MODEL)

    def _sample_tile(self, scores, options, rng) -> int:
        weights = np.array([max(scores[c], 1e-6) ** self.POWER for c in options])
        return int(options[int(rng.choice(len(options), p=weights / weights.sum()))])

    def _disc_threat(self, k, g, sq: int) -> float:
        """How useful a disc is to the ninja: near the vases, far from the samurai."""
        vases = vase_values(k, SAMURAI)
        vnear = min((g.grid[sq][v] for v, val in vases.items() if val > 0), default=10)
        sz = k["samurai_zone"]
        return min(g.zd[sz][g.zone[sq]], 5) - 0.5 * min(vnear, 6)

    # ------------------------------------------------------------------ the walk search
    def _ninja_distance(self, k, g) -> list[int]:
        """Disc steps (passage travel included) from the ninja's possible starts to each square."""
        opens = frozenset(open_passages(k, g))
        dist = [INF] * 96
        for s in self._ninja_here(k, g):
            ds = g.travel(s, opens, 6)
            dist = [min(a, b) for a, b in zip(dist, ds, strict=True)]
        return dist

    def _zone_values(self, k, g, card: int) -> dict:
        discs = k["discs"]
        here = self._ninja_here(k, g)
        here_zones = {g.zone[s] for s in here}
        chase = self.CHASE * (1.5 if k["ninja_sq"] >= 0 else 1.0)
        disc_zones = {g.zone[s] for s in discs}
        vases = vase_values(k, SAMURAI)
        unknown_vase_zones = {
            g.zone[w] for t, w in enumerate(k["vase_where"]) if w >= 0 and not k["samurai_knows"][t]
        }
        guard = [0.0] * g.nz  # a vase the ninja is about to reach: end on it and move it away
        if self.GUARD:
            near = self._ninja_distance(k, g)
            for w, val in vases.items():
                if val > 0 and near[w] <= 5:
                    z = g.zone[w]
                    guard[z] = max(guard[z], self.GUARD * val * (6 - near[w]) / 5)
        static = []
        for z in range(g.nz):
            v = -chase * min(g.zd[z][hz] for hz in here_zones) + guard[z]
            if z in disc_zones and len(discs) >= 2:
                v += self.DISC
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
        return {"static": static}

    def plan_walk(
        self, k, g, card: int, lengths: list[tuple[int, float, Any]], fig_zone: int | None = None
    ) -> tuple[float, Any, int | None]:
        """Best (score, tag, first zone) over walks of the given lengths from his zone.

        ``lengths`` holds ``(entries, cost, tag)``; ``tag`` names the option (how to get that many
        entries). ``fig_zone`` is the revealed figurine's zone (default: from the knowledge)."""
        if fig_zone is None:
            fig_zone = g.zone[k["ninja_sq"]] if k["ninja_sq"] >= 0 else -1
        on_board = k["ninja_sq"] >= 0 or bool(k["discs"])
        opens = open_passages(k, g)
        open_bits = 0
        for p in opens:
            open_bits |= 1 << g.passages.index(p)
        n_open = len(opens)
        pzone, pindex, zpos, znb, zd = g.pzone, g.pindex_of_zone, g.zpos, g.znb, g.zd
        static = self._zone_values(k, g, card)["static"]
        iron = C.IRON_BAR in k["s_equip"]
        bar = card == C.BAR_THE_HATCH
        passages_pos = [g.pos[p] for p in g.passages]
        cap_v, close_v, waste, clock = self.CAP, self.CLOSE, self.LOCK_WASTE, self.CLOCK
        kawarimi = 0.75 if (k["n_equip"] and C.KAWARIMI not in k["n_used"]) else 1.0

        def leaf(z, mask, captured, locked):
            v = static[z]
            if locked:
                return v
            remaining = open_bits & ~mask
            left = n_open - bin(mask).count("1")
            if remaining:
                v -= clock * min(zd[z][pzone[i]] for i in range(8) if (remaining >> i) & 1)
            extra = 0
            if bar and any((remaining >> i) & 1 and passages_pos[i] == zpos[z] for i in range(8)):
                v += close_v
                extra += 1
            if iron:
                extra += 1
            if left and left <= extra:
                v += cap_v if (on_board and not captured) else -waste
            return v

        best = [-INF, None, None]

        def rec(z, left, mask, captured, locked, score, first, tag):
            if left == 0:
                total = score + leaf(z, mask, captured, locked)
                if total > best[0]:
                    best[0], best[1], best[2] = total, tag, first
                return
            for n in znb[z]:
                s = score
                cap = captured
                m = mask
                lk = locked
                if n == fig_zone and not cap:
                    s += cap_v * kawarimi
                    cap = True
                i = pindex.get(n)
                if i is not None and not lk and (open_bits >> i) & 1 and not (m >> i) & 1:
                    m |= 1 << i
                    s += close_v
                    if m == open_bits:
                        lk = True
                        if on_board and not cap:
                            s += cap_v
                            cap = True
                        else:
                            s -= waste
                rec(n, left - 1, m, cap, lk, s, n if first is None else first, tag)

        sz = k["samurai_zone"]
        for length, cost, tag in lengths:
            rec(sz, length, 0, False, False, -cost, None, tag)
        return best[0], best[1], best[2]

    def _token_cost(self, k, token: int | None = None) -> float:
        if token is None:
            token = min(k["s_equip"], key=lambda t: SAMURAI_TOKEN_VALUE[t])
        return self.TOKEN_COST + SAMURAI_TOKEN_VALUE[token]

    def _movement_options(self, k, legal, remaining: int, at_end: bool) -> list:
        opts = [(remaining, 0.0, "base")] if remaining > 0 or at_end else []
        if legal[A.ADJUST_PLUS] and k["s_equip"]:
            opts.append((remaining + 1, self._token_cost(k), "plus"))
        if legal[A.ADJUST_MINUS] and k["s_equip"]:
            opts.append((remaining - 1, self._token_cost(k), "minus"))
        if legal[A.SAMURAI_TOKEN + C.STRAW_SANDALS]:
            cost = self._token_cost(k, C.STRAW_SANDALS)
            opts.append((remaining + 1, cost, "sandals1"))
            opts.append((remaining + 2, cost, "sandals2"))
        return [o for o in opts if o[0] >= 0]

    def _entry(self, k, g, legal, d, rng):
        f = k["flags"]
        remaining = f["target"] - f["entries"]
        at_end = d["kind"] == "entry_end"
        opts = self._movement_options(k, legal, remaining, at_end)
        _score, tag, first = self.plan_walk(k, g, k["s_card"], opts)
        if tag == "plus":
            return A.ADJUST_PLUS
        if tag == "minus":
            return A.ADJUST_MINUS
        if tag in ("sandals1", "sandals2"):
            self._sandals_plus = 2 if tag == "sandals2" else 1
            return A.SAMURAI_TOKEN + C.STRAW_SANDALS
        if at_end:
            return A.PASS
        if first is not None and legal[A.ZONE + first]:
            return A.ZONE + first
        return None

    _entry_end = _entry

    def _sandals(self, k, g, legal, d, rng):
        return A.PLUS_TWO if self._sandals_plus == 2 else A.ADJUST_PLUS

    def _adjust_token(self, k, g, legal, d, rng):
        tokens = [t for t in k["s_equip"] if legal[A.SAMURAI_TOKEN + t]]
        return A.SAMURAI_TOKEN + min(tokens, key=lambda t: SAMURAI_TOKEN_VALUE[t])

    def _w6_s(self, k, g, legal, d, rng):
        return A.PASS  # Straw Sandals are decided entry by entry (W7)

    # ------------------------------------------------------------------ programming
    def _prog_s_card(self, k, g, legal, d, rng):
        here = self._ninja_here(k, g)
        sz = k["samurai_zone"]
        on_board = k["ninja_sq"] >= 0 or bool(k["discs"])
        p_det = 0.45 if k["ninja_sq"] >= 0 else 0.3 if k["discs"] else 0.2
        bonus = self._move_bonus(k)
        best_card, best_v = None, -INF
        for card in k["s_hand"]:
            if not legal[A.SAMURAI_CARD + card]:
                continue
            move = S_MOVES[card]
            walk, _tag, _first = self.plan_walk(k, g, card, [(move, 0.0, "base")], fig_zone=-1)
            reach = 0.0
            for s in here:
                dz = g.zd[sz][g.zone[s]]
                need = max(dz, 1) + 1 if on_board else max(dz, 1)
                reach += 1.0 if need <= move + bonus + 1 and dz <= move + bonus else 0.0
            reach /= len(here)
            v = walk + p_det * reach * self.CAP * 0.5 + self._card_action_value(k, card)
            if v > best_v:
                best_card, best_v = card, v
        return A.SAMURAI_CARD + best_card

    @staticmethod
    def _card_action_value(k, card: int) -> float:
        stack = 1.0 if k["s_stack"] else 0.0
        if card == C.PATROL:
            return stack
        if card == C.TRACK_THE_TRAIL:
            return 0.8 if len(k["discs"]) >= 2 else 0.3
        if card == C.SILENT_NIGHT:
            return 0.8
        if card == C.TWIN_NIGHTINGALES:
            return 1.0
        if card == C.MUSTER_THE_GUARD:
            return 1.2 * stack
        if card == C.WATCHTOWER:
            return 1.2 * stack + 0.2
        return 0.0

    def _prog_s_tile(self, k, g, legal, d, rng):
        options = [c for c in range(6) if legal[A.TILE + c]]
        scores = self._tile_scores(k, g, S_MOVES[k["s_card"]])
        return A.TILE + self._sample_tile(scores, options, rng)

    def _w2(self, k, g, legal, d, rng):
        if not legal[A.SAMURAI_TOKEN + C.ALARM_BELL]:
            return A.PASS
        loc = k["tile_loc"]
        programmed = [c for c in range(6) if loc[c] == PROGRAMMED]
        if any(k["tile_in"][c] and not k["tile_revealed"][c] for c in programmed):
            return A.SAMURAI_TOKEN + C.ALARM_BELL  # the Listening Tube showed the tile
        return A.PASS

    def _bell_out(self, k, g, legal, d, rng):
        options = [c for c in range(6) if legal[A.TILE + c]]
        known = [c for c in options if k["tile_in"][c]]
        scores = self._tile_scores(k, g, S_MOVES[k["s_card"]])
        return A.TILE + min(known or options, key=lambda c: scores[c])

    def _sprint_out(self, k, g, legal, d, rng):
        scores = self._tile_scores(k, g, S_MOVES[k["s_card"]])
        options = [c for c in range(6) if legal[A.TILE + c]]
        hand = [c for c in range(6) if k["tile_loc"][c] == HAND]
        if not options or not hand:
            return A.PASS
        worst = min(options, key=lambda c: scores[c])
        if max(scores[c] for c in hand) > 1.4 * scores[worst]:
            return A.TILE + worst
        return A.PASS

    def _swap_in(self, k, g, legal, d, rng):
        options = [c for c in range(6) if legal[A.TILE + c]]
        if not options:
            return A.PASS  # Sprint: he kept his tiles, he only confirms
        scores = self._tile_scores(k, g, S_MOVES[k["s_card"]])
        return A.TILE + max(options, key=lambda c: scores[c])

    _bell_in = _swap_in
    _sprint_in = _swap_in

    # ------------------------------------------------------------------ setup
    def _setup_close(self, k, g, legal, d, rng):
        vases = list(k["vase_where"])
        return A.SQUARE + _best(
            _mask_squares(legal), lambda p: -min(g.grid[p][v] for v in vases if v >= 0)
        )

    def _setup_start(self, k, g, legal, d, rng):
        pz = [g.zone[p] for p in open_passages(k, g)]
        return A.SQUARE + _best(
            _mask_squares(legal),
            lambda s: (-sum(g.zd[g.zone[s]][z] for z in pz), -g.board.on_border[s]),
        )

    # ------------------------------------------------------------------ the ninja's phase
    def _lantern_target(self, k, g) -> int | None:
        discs = k["discs"]
        if not discs:
            return None
        sz = k["samurai_zone"]
        move = S_MOVES[k["s_card"]] + (1 if len(k["s_equip"]) >= 2 else 0)
        counts: dict[int, int] = {}
        for s in discs:
            counts[g.zone[s]] = counts.get(g.zone[s], 0) + 1
        best, best_v = None, 0.0
        for z, n in counts.items():
            dz = g.zd[sz][z]
            need = dz if dz > 0 else 2
            if need > move:
                continue
            if n == len(discs):
                v = 10.0 + n
            elif len(discs) - n <= 1 and n >= 2:
                v = 2.0 + n
            else:
                continue
            if v > best_v:
                best, best_v = z, v
        return best

    def _w5(self, k, g, legal, d, rng):
        if legal[A.SAMURAI_TOKEN + C.PAPER_LANTERN] and self._lantern_target(k, g) is not None:
            return A.SAMURAI_TOKEN + C.PAPER_LANTERN
        return A.PASS

    def _lantern_zone(self, k, g, legal, d, rng):
        z = self._lantern_target(k, g)
        if z is not None and legal[A.ZONE + z]:
            return A.ZONE + z
        zones = [z for z in range(g.nz) if legal[A.ZONE + z]]
        sz = k["samurai_zone"]
        return A.ZONE + min(zones, key=lambda z: g.zd[sz][z])

    # ------------------------------------------------------------------ the samurai's phase
    def _final_square(self, k, g, legal, d, rng):
        squares = _mask_squares(legal)
        discs = [s for s in squares if s in k["discs"]]
        if len(k["discs"]) == 1 and len(squares) > len(discs):
            # the last disc pins the ninja's next start; removing it (G4) would free the ninja
            # to enter by any open passage, so he does not end on it
            squares = [s for s in squares if s not in discs]
            discs = []
        if discs:
            return A.SQUARE + max(discs, key=lambda s: self._disc_threat(k, g, s))
        here = self._ninja_here(k, g)
        vases = vase_values(k, SAMURAI)
        near = self._ninja_distance(k, g)
        near_vases = [s for s in squares if s in vases and vases[s] > 0 and near[s] <= 5]
        if near_vases:
            return A.SQUARE + min(near_vases, key=lambda s: near[s])
        return A.SQUARE + min(squares, key=lambda s: (min(g.grid[s][h] for h in here), s))

    def _far_square(self, k, g, squares: list[int]) -> int:
        """A free square far from the ninja and from the open passages."""
        here = self._ninja_here(k, g)
        opens = open_passages(k, g)

        def score(s):
            a = min((g.grid[s][h] for h in here), default=10)
            b = min((g.grid[s][p] for p in opens), default=10)
            return min(a, 8) + min(b, 8)

        return max(squares, key=score)

    def _vase_move(self, k, g, legal, d, rng):
        squares = _mask_squares(legal)
        t = d["token"]
        if k["samurai_knows"][t] and not k["vase_content"][t]:
            here = self._ninja_here(k, g)  # an empty vase: leave it as bait near the ninja
            return A.SQUARE + min(squares, key=lambda s: min(g.grid[s][h] for h in here))
        return A.SQUARE + self._far_square(k, g, squares)

    def _inspect(self, k, g, legal, d, rng):
        here = self._ninja_here(k, g)
        squares = _mask_squares(legal)
        unknown = [s for s in squares if not k["samurai_knows"][k["vase_where"].index(s)]]
        return A.SQUARE + min(unknown or squares, key=lambda s: min(g.grid[s][h] for h in here))

    def _inspect_move(self, k, g, legal, d, rng):
        t = d["token"]
        if not k["vase_content"][t]:
            return A.PASS
        squares = _mask_squares(legal)
        here = self._ninja_here(k, g)
        origin = k["vase_where"][t]
        target = self._far_square(k, g, squares)
        near_now = min(g.grid[origin][h] for h in here)
        near_then = min(g.grid[target][h] for h in here)
        return A.SQUARE + target if near_then > near_now else A.PASS

    def _confiscate(self, k, g, legal, d, rng):
        return A.SQUARE + self._far_square(k, g, _mask_squares(legal))

    def _reopen(self, k, g, legal, d, rng):
        sz = k["samurai_zone"]
        vases = vase_values(k, SAMURAI)
        return A.SQUARE + _best(
            _mask_squares(legal),
            lambda p: (
                -g.zd[sz][g.zone[p]]
                + 0.3 * min((g.grid[p][v] for v, val in vases.items() if val > 0), default=5)
            ),
        )

    _reopen_extra = _reopen

    def _w9(self, k, g, legal, d, rng):
        opens = open_passages(k, g)
        on_board = k["ninja_sq"] >= 0 or bool(k["discs"])
        tok = A.SAMURAI_TOKEN
        if (
            legal[tok + C.IRON_BAR]
            and ((len(opens) == 1 and on_board) or len(k["s_equip"]) >= 3)
            and not (len(opens) == 1 and not on_board)
        ):
            return tok + C.IRON_BAR
        if d.get("when") == "before":
            return A.PASS
        if legal[tok + C.HOUND] and len(k["discs"]) >= 2:
            return tok + C.HOUND
        if legal[tok + C.WATCH_FIRE]:
            sz = k["samurai_zone"]
            if any(g.zd[sz][g.zone[s]] <= 1 for s in self._ninja_here(k, g)):
                return tok + C.WATCH_FIRE
        if legal[tok + C.INVENTORY_LEDGER] and len(k["s_equip"]) >= 2:
            return tok + C.INVENTORY_LEDGER
        return A.PASS

    def _iron_bar(self, k, g, legal, d, rng):
        sz = k["samurai_zone"]
        here = self._ninja_here(k, g)
        return A.SQUARE + _best(
            _mask_squares(legal),
            lambda p: g.zd[sz][g.zone[p]] - 0.3 * min(g.grid[p][h] for h in here),
        )

    def _bar(self, k, g, legal, d, rng):
        here = self._ninja_here(k, g)
        return A.SQUARE + _best(_mask_squares(legal), lambda p: -min(g.grid[p][h] for h in here))

    def _remove_disc(self, k, g, legal, d, rng):
        squares = _mask_squares(legal)
        if not squares or (len(k["discs"]) == 1 and legal[A.PASS]):
            return A.PASS  # (the Hound) the last disc is worth more on the board: see above
        return A.SQUARE + max(squares, key=lambda s: self._disc_threat(k, g, s))

    _hound = _remove_disc
    _track = _remove_disc

    def _ledger(self, k, g, legal, d, rng):
        here = self._ninja_here(k, g)
        return A.SQUARE + _best(_mask_squares(legal), lambda s: -min(g.grid[s][h] for h in here))

    def _muster(self, k, g, legal, d, rng):
        options = [t for t in range(7) if legal[A.SAMURAI_TOKEN + t]]
        return A.SAMURAI_TOKEN + max(options, key=lambda t: SAMURAI_TOKEN_VALUE[t])


# ============================================================================ the agent
class NightingaleHeuristic(Agent):
    """Plays the ninja (seat 0) or the samurai (seat 1), whichever its info set is for."""

    name = "heuristic"

    def __init__(self):
        self.ninja = NinjaPolicy()
        self.samurai = SamuraiPolicy()
        self.fallbacks = 0

    def reset(self) -> None:
        self.ninja.reset()
        self.samurai.reset()

    def act(self, info_set, rng: np.random.Generator) -> int:
        legal = info_set.legal_action_mask
        policy = self.ninja if info_set.player == NINJA else self.samurai
        action = policy.act(info_set, rng)
        if action is None or not legal[action]:
            self.fallbacks += 1
            options = np.flatnonzero(legal)
            action = int(options[rng.integers(len(options))])
        return int(action)


def evaluate(state) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (sampled) state, for search cut-offs (ISMCTS).

    The returns at the end; before it, the ninja's progress towards his two win conditions
    against the samurai's: banked relics out of ``RELICS_TO_WIN`` (relics stolen this turn count
    half: they can still be confiscated) minus captures out of ``NINJAS``. Zero-sum.
    """
    if state.is_terminal():
        return state.returns()
    stolen = sum(1 for t, w in enumerate(state.vase_where) if w == STOLEN and state.vase_content[t])
    ninja = (state.banked_relics() + 0.5 * stolen) / C.RELICS_TO_WIN - state.captured / C.NINJAS
    out = np.zeros(2)
    out[NINJA] = float(np.clip(ninja, -1.0, 1.0))
    out[SAMURAI] = -out[NINJA]
    return out
