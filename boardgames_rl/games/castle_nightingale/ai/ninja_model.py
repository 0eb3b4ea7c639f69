"""What the ninja believes, and the samurai's model of it: which colours sing, where the samurai
can reach, what a capture costs -- gathered into the :class:`PathContext` of its path search.

Colour risk: a colour is safe when it is face up, when the ninja has stepped on it this turn
without a song, or when Listen / the Listening Tube said so; a colour known programmed sings for
sure. The other colours share the programmed tile(s) by a mixture of uniform (``MIX``) and a
model of the samurai's choice made from public facts as he saw them when programming: the colours
around the ninja's possible starting squares and on the shortest ways to the vases, mixed
(``LEVEL2``) with the colours of the paths the ninja's own search finds when it fears every
colour alike (he may anticipate the obvious route).
"""

from __future__ import annotations

from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.ai.colours import colour_scores, mix, path_colours
from boardgames_rl.games.castle_nightingale.ai.geometry import Geo
from boardgames_rl.games.castle_nightingale.ai.knowledge import (
    S_MOVES,
    ninja_card_moves,
    ninja_starts,
    open_passages,
    vase_values,
)
from boardgames_rl.games.castle_nightingale.ai.paths import LAMBDA, PathContext
from boardgames_rl.games.castle_nightingale.ai.tokens import NINJA_TOKEN_VALUE
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import FACE_UP, NINJA, SAMURAI, STOLEN
from boardgames_rl.games.castle_nightingale.infoset import CastleNightingaleView


class NinjaModel:
    """The ninja's beliefs (its own, or the samurai's model of them: ``context(model=True)``)."""

    LEVEL2 = 0.5  # weight of "the samurai simulates my search" in that model
    MIX = 0.5  # weight of the samurai model in the colour prior (the rest is uniform)
    LIFE = 3.0  # cost of losing a ninja (in relics), 10 for the last one

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self._prior: dict[tuple, list[float]] = {}

    # ------------------------------------------------------------------ colours
    def tile_probs(self, k: CastleNightingaleView, g: Geo) -> tuple[list[float], bool]:
        """Chance that each colour sings now (1 = known programmed, 0 = known safe)."""
        twin = bool(k.flags.twin)
        count = 2 if twin else 1
        loc = k.tile_loc
        tin = [c for c in range(6) if k.tile_in[c]]
        cand = [c for c in range(6) if loc[c] != FACE_UP and not k.tile_out[c] and c not in tin]
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
    def _turn_key(k: CastleNightingaleView) -> tuple:
        return (k.turn, k.captured, tuple(k.n_discard), tuple(k.s_discard))

    def remember_prior(self, k: CastleNightingaleView, g: Geo) -> None:
        """The colour model as the samurai saw the board when he programmed (kept all turn)."""
        key = self._turn_key(k)
        if key not in self._prior:
            self._prior = {key: self.colour_prior(k, g)}

    def colour_prior(self, k: CastleNightingaleView, g: Geo) -> list[float]:
        """Per colour: how likely the samurai is to programme it, by public facts only (his
        view at programming time: the ninja's possible starts, the vases, and, at weight
        ``LEVEL2``, the colours of the paths this search finds with a uniform prior)."""
        opens = frozenset(open_passages(k, g))
        starts = ninja_starts(k, g)
        scores = colour_scores(g, starts, opens, vase_values(k, NINJA))
        if self.LEVEL2:
            ctx = self.context(k, g, model=True)
            cand = [c for c in range(6) if k.tile_loc[c] != FACE_UP]
            face_up = set(range(6)) - set(cand)
            model = path_colours(g, ctx, starts, ninja_card_moves(k), face_up)
            scores = mix(scores, model, self.LEVEL2)
        return scores

    # ------------------------------------------------------------------ the samurai, a capture
    def capture_chance(self, k: CastleNightingaleView, g: Geo) -> list[float]:
        """Per zone: chance that the samurai reaches a figurine revealed there this turn."""
        samurai = k.decision is not None and k.decision["player"] == SAMURAI
        if k.s_card >= 0 and (k.s_card_shown or samurai):
            cards = [k.s_card]
        else:
            cards = [c for c in range(10) if c not in k.s_discard]
        bonus = 1 if k.s_equip else 0
        blow = 1 if C.BLOWGUN in k.n_equip and not samurai else 0
        moves = [max(1, S_MOVES[c] - blow) + bonus for c in cards]
        sz = k.samurai_zone
        zd = g.zd[sz] if sz >= 0 else [3] * g.nz
        out = []
        for z in range(g.nz):
            need = zd[z] if zd[z] > 0 else 2
            out.append(sum(1 for m in moves if m >= need) / len(moves))
        return out

    def life(self, k: CastleNightingaleView) -> float:
        """Cost of a capture (in relics): 10 for the last ninja, a token with Kawarimi."""
        if C.KAWARIMI in k.n_equip:
            return NINJA_TOKEN_VALUE[C.KAWARIMI]
        return 10.0 if k.captured >= C.NINJAS - 1 else self.LIFE

    # ------------------------------------------------------------------ the search's context
    def context(self, k: CastleNightingaleView, g: Geo, model: bool = False) -> PathContext:
        """Everything the path search needs, from what the owner of ``k`` knows. ``model``: a
        model of a ninja whose tokens and stolen vases are unknown and that fears every colour
        alike (the samurai's view of the ninja, or the ninja's view of that view)."""
        me = k.decision["player"] if k.decision else NINJA
        opens = open_passages(k, g)
        open_set = frozenset(opens)
        vases = vase_values(k, me)
        vdist = {v: g.travel(v, open_set) for v in vases}
        lam = LAMBDA
        squares = range(NUM_SQUARES)
        pot = [0.0] * NUM_SQUARES
        pot2 = [0.0] * NUM_SQUARES  # second best, from another vase
        best_vase = [-1] * NUM_SQUARES
        for v, val in vases.items():
            if val <= 0:
                continue
            dv = vdist[v]
            for sq in squares:
                if dv[sq] >= 40:
                    continue
                x = val * lam ** dv[sq]
                if x > pot[sq]:
                    pot2[sq] = pot[sq]
                    pot[sq] = x
                    best_vase[sq] = v
                elif x > pot2[sq]:
                    pot2[sq] = x
        sz = k.samurai_zone
        safe = [0.08 * min(g.zd[sz][g.zone[sq]], 4) if sz >= 0 else 0.3 for sq in squares]
        term = [pot[sq] + safe[sq] for sq in squares]
        term_wo = {
            v: [(pot2[sq] if best_vase[sq] == v else pot[sq]) + safe[sq] for sq in squares]
            for v in vases
        }
        f = k.flags
        if not model:
            p, twin = self.tile_probs(k, g)
            stolen = sum(
                (1.0 if k.vase_content[t] else 0.0)
                for t, w in enumerate(k.vase_where)
                if w == STOLEN
            )
            pcap, life, equip = self.capture_chance(k, g), self.life(k), k.n_equip
        else:
            twin = bool(f.twin)
            cand = [c for c in range(6) if k.tile_loc[c] != FACE_UP]
            p = [0.0] * 6
            for c in cand:
                p[c] = (2.0 if twin else 1.0) / len(cand)
            stolen = 0.0
            pcap = self.capture_chance(k, g)
            life = 10.0 if k.captured >= C.NINJAS - 1 else self.LIFE
            equip = []
        return PathContext(
            opens=opens,
            open_set=open_set,
            sam=k.samurai_sq,
            vases=vases,
            vdist=vdist,
            pot=pot,
            safe=safe,
            term=term,
            term_wo=term_wo,
            risk=p,
            twin=twin,
            pcap=pcap,
            life=life,
            wf=f.watch_fire_zone if not f.watch_fire_used else -1,
            tabi=C.SOFT_TABI in equip,
            stolen=stolen,
            cheap=min((NINJA_TOKEN_VALUE[t] for t in equip), default=0.0),
            shuko=C.SHUKO in equip,
        )
