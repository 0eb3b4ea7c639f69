"""Sampled scenarios of the rest of the round, and the value of an outcome to the player.

Decisions about killing and swapping are scored on a few dozen scenarios drawn from the
:class:`~.beliefs.Beliefs` (a House deal, the Mastermind's holder, and which living players still
die later this Night at the killing rates of random play): the value of a scenario is the Honor
token the player gets at House Reveal (its House wins, even dead; as the Ronin or in a total tie,
it survives) minus ``rival_weight`` times the average token of the others. A kill's gain is the
difference with not killing, counting the risk that the victim holds the Mirror Monk (the attacker
then dies instead). The same scenarios serve every option (common random numbers).
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.night_of_the_ninja import data
from boardgames_rl.games.night_of_the_ninja.ai.beliefs import Beliefs
from boardgames_rl.games.night_of_the_ninja.ai.tables import HOUSE, TIE, round_result
from boardgames_rl.games.night_of_the_ninja.infoset import PlayerView

Scenario = tuple[list[int], list[bool], int]
"""``(current House cards, alive at House Reveal, Mastermind holder or -1)``."""

HAZARD: dict[int, float] = {data.TRICKSTER: 0.04, data.BLIND_ASSASSIN: 0.17, data.SHINOBI: 0.05}
"""Share of the living players killed in each Night phase in random play (measured)."""


class View(Beliefs):
    """A player's beliefs plus the scenarios drawn from them (``samples`` of them) and the value
    of a scenario (its own token minus ``rival_weight`` x the others' mean)."""

    def __init__(self, facts: PlayerView, samples: int, rival_weight: float):
        super().__init__(facts)
        self.samples = samples
        self.rival_weight = rival_weight
        self._scen: list[Scenario] | None = None

    def p_enemy(self, t: int, rng: np.random.Generator) -> float:
        """Share of the scenarios in which ``t`` is of the other House (neither is the Ronin)."""
        me = self.me
        hits = 0
        sc = self.scenarios(rng)
        for cur, _fut, _mm in sc:
            a, b = HOUSE[cur[me]], HOUSE[cur[t]]
            hits += a != b and a != data.RONIN_HOUSE and b != data.RONIN_HOUSE
        return hits / len(sc)

    # ------------------------------------------------------------------ scenarios
    def hazard(self) -> float:
        stage, phase = self.facts.stage, self.facts.phase
        if stage in ("draft1", "draft2") or phase < 0:
            phase = data.SPY
        return 0.5 * HAZARD.get(phase, 0.0) + sum(v for p, v in HAZARD.items() if p > phase)

    def scenarios(self, rng: np.random.Generator) -> list[Scenario]:
        """``(current House cards, alive at House Reveal, Mastermind holder)`` samples."""
        if self._scen is not None:
            return self._scen
        n = self.n
        hyps = self.hypotheses()
        weights = np.array([float(h.weight) for h in hyps])
        weights /= weights.sum()
        mm_probs = self.holders(data.MASTERMIND)
        mm_cum = np.cumsum(mm_probs)
        hazard = self.hazard()
        S = self.samples
        choice = rng.choice(len(hyps), size=S, p=weights).tolist() if len(hyps) > 1 else [0] * S
        deaths = (rng.random((S, n)) < hazard).tolist()
        hits = np.searchsorted(mm_cum, rng.random(S), side="right").tolist()
        alive = [bool(a) for a in self.alive]
        out = []
        for i in range(S):
            hyp = hyps[choice[i]]
            sigma, free = hyp.sigma, hyp.free
            deal = list(hyp.pins)
            if free:
                rest = [free[j] for j in rng.permutation(len(free)).tolist()]
                for q in range(n):
                    if deal[q] < 0:
                        deal[q] = rest.pop()
            cur = [deal[sigma[q]] for q in range(n)]
            dead = deaths[i]
            fut = [alive[q] and not dead[q] for q in range(n)]
            mm = hits[i] if hits[i] < n else -1
            out.append((cur, fut, mm))
        self._scen = out
        return out

    def value(self, cur: list[int], living: list[bool], mm: int) -> float:
        """Token this player gets at House Reveal minus ``rival_weight`` x the others' mean."""
        result = round_result(cur, living, mm)
        ronin = data.RONIN
        if result < TIE:  # the winning House's members, dead or alive, and a living Ronin
            wins = [HOUSE[c] == result or (ok and c == ronin) for c, ok in zip(cur, living)]
        elif result == TIE:  # every survivor
            wins = list(living)
        else:  # nobody's House: a living Ronin only
            wins = [ok and c == ronin for c, ok in zip(cur, living)]
        mine = 1 if wins[self.me] else 0
        others = sum(wins) - mine
        return mine - self.rival_weight * others / (self.n - 1)

    def kill_deltas(
        self, rng: np.random.Generator, cands: list[int], react: bool
    ) -> dict[int, list[float]]:
        """Per scenario, the value change of killing each candidate now (the Mirror Monk risk
        averaged in when ``react``)."""
        sc = self.scenarios(rng)
        me = self.me
        mirror = self.holders(data.MIRROR_MONK) if react else [0.0] * self.n
        out: dict[int, list[float]] = {t: [] for t in cands}
        for cur, fut, mm in sc:
            v0 = self.value(cur, fut, mm)
            v_me = None
            for t in cands:
                saved = fut[t]
                fut[t] = False
                vk = self.value(cur, fut, mm)
                fut[t] = saved
                pm = mirror[t]
                if pm > 0:
                    if v_me is None:
                        saved_me = fut[me]
                        fut[me] = False
                        v_me = self.value(cur, fut, mm)
                        fut[me] = saved_me
                    vk = (1 - pm) * vk + pm * v_me
                out[t].append(vk - v0)
        return out

    def kill_gains(
        self, rng: np.random.Generator, cands: list[int], react: bool
    ) -> dict[int, float]:
        deltas = self.kill_deltas(rng, cands, react)
        return {t: sum(d) / len(d) for t, d in deltas.items()}
