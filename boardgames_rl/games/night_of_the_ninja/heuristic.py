"""A heuristic Night of the Ninja agent that reads only its own information set.

:class:`NightOfTheNinjaHeuristic` rebuilds, at every decision, what its player knows from
``info_set.knowledge`` (whose hidden parts are re-dealt, so only these are read: its own House
card as dealt, hand, kept card, draft, Honor tokens it knows, its own looks and Mystic / Grave
Digger sights, and the public record: played cards and targets, deaths, public reveals, the
players a Shapeshifter named, token counts) and the legal action mask. It never sees a true state.

**Beliefs.** The House cards are the deal ``D``, possibly with one swap of the two players a
Shapeshifter named (unknown unless it was this player's Shapeshifter): for each swap hypothesis
every look pins a card of ``D`` (a look taken before the naming pins the dealt card, a later one
the current card), its own dealt card is pinned too, the other cards are free. So a player is a
*seen enemy* / *seen ally* when every hypothesis gives it a card of the other House / of the
player's own current House (which a Shapeshifter may have made uncertain). Where a Ninja card is
(the Mastermind, the Mirror Monk) comes from its own hand, its Mystic sights, the card it passed
to its left neighbour (held there half the time), the cards it knows are discarded, and else a
share proportional to the unknown cards each player holds.

**Evaluation.** Decisions about killing and swapping are scored on a few dozen scenarios drawn
from the beliefs (a House deal, the Mastermind's holder, and which living players still die later
this Night at the killing rates of random play): the value of a scenario is the Honor token the
player gets at House Reveal (its House wins, even dead; as the Ronin or in a total tie, it
survives) minus ``rival_weight`` times the average token of the others. A kill's gain is the
difference with not killing, counting the risk that the victim holds the Mirror Monk (the attacker
then dies instead). The same scenarios serve every option (common random numbers).

**Policy.**

* Draft: static card values with its House in mind -- the Mastermind (its House wins if it
  survives; as the Ronin nobody else scores), the Mirror Monk, Shinobi, Judge, Blind Assassins
  (low numbers resolve first), the Thief (once someone holds tokens), the Martyr, Mystic / Spy
  (worth more next to a Blind Assassin, which in turn is worth more next to them), then the other
  Tricksters (the Spirit Merchant more when it holds tokens). A second killer is worth a little
  less. The Ronin values killers and information less and its survival (Mirror Monk, Martyr)
  more.
* Information first: every Spy and Mystic is played, on the living player it knows least (ties
  at random; a dead player, a legal target of the cards that do not kill, only once every living
  one is known); the Troublemaker looks the same way and reveals the card to all when it shows an
  enemy.
* Kills: Blind Assassins and the Judge are played only when the best kill gains (a second one of
  the phase only when a second target does): seen enemies first, high ranks first, a likely
  Mastermind holder, unknown players otherwise; never a seen ally unless every target is one (a
  seen Ronin is a fair target too: it takes a token from the others). Shinobis are always played,
  on the player whose look-then-decide option is worth most (for each card the look may show, the
  kill is taken only if it gains), and after the look it kills only on a gain: it spares allies.
* Tricksters: the Grave Digger is always played and takes the more valuable card (Spy, Mystic
  and Tricksters are played at once when useful, killers kept for their phase, reacts and the
  Mastermind kept); the Thief is played when someone holds more tokens and steals from the player
  whose random token is worth most by what it knows (the richest breaking near-ties; dead or
  alive, a dead player's tokens count the same); the Spirit Merchant visits the player (dead or
  alive) whose tokens are worth most, looks at a token and gives its cheapest
  token for a better one (after a House look: when a random token of the target is worth more on
  average); the Shapeshifter names its own player and the player whose card is most worth taking,
  and swaps only when the scenarios say its player gains.
* Reacts: the Mirror Monk against any kill, else the Martyr (its holder dies anyway). The
  Mastermind is held quietly (it is never played; the engine reveals it for a living holder).
* The Ronin plays to survive: its value is its own survival (and the others' tokens), so it
  kills only to deny tokens, weighing the Mirror Monk risk, and keeps its reacts and Mastermind.

Every decision kind has a rule, listed in the table ``NightOfTheNinjaHeuristic.DECISION_RULES``;
the agent falls back to a random legal action only if a rule returns something illegal (a safety
net, counted in ``fallbacks``).
"""

from __future__ import annotations

from collections.abc import Callable
from math import factorial, log
from typing import Any, ClassVar

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.games.night_of_the_ninja import actions, cards

TIE, NOBODY = 2, 3  # round results besides Lotus (0) / Crane (1), as in ``state.py``
HOUSE = tuple(cards.house_of(h) for h in range(cards.NUM_HOUSE_CARDS))
RANK = tuple(cards.rank_of(h) for h in range(cards.NUM_HOUSE_CARDS))
HAZARD = {cards.TRICKSTER: 0.04, cards.BLIND_ASSASSIN: 0.17, cards.SHINOBI: 0.05}
"""Share of the living players killed in each Night phase in random play (measured)."""

KIND = cards.CARD_KIND
INFO_KINDS = ("Spy", "Mystic")
KILL_KINDS = ("Blind Assassin", "Shinobi", "Judge")

# draft values: (house member, Ronin)
BASE_VALUE = {
    "Spy": (3.0, 2.0),
    "Mystic": (3.3, 2.2),
    "Shapeshifter": (2.6, 2.6),
    "Grave Digger": (2.9, 2.9),
    "Troublemaker": (2.5, 1.6),
    "Spirit Merchant": (2.3, 2.3),
    "Thief": (4.6, 4.8),
    "Judge": (5.2, 3.0),
    "Blind Assassin": (4.6, 2.8),
    "Shinobi": (5.4, 3.2),
    "Mirror Monk": (6.5, 8.0),
    "Martyr": (3.4, 4.0),
    "Mastermind": (9.0, 9.0),
}


def _result(cur: list[int], living: list[bool], mm: int) -> int:
    """Round result with current House cards ``cur``, survivors ``living``, Mastermind holder."""
    if mm >= 0 and living[mm]:
        h = HOUSE[cur[mm]]
        return NOBODY if h == cards.RONIN_HOUSE else h
    lotus: list[int] = []
    crane: list[int] = []
    for c, ok in zip(cur, living, strict=True):
        if ok and c != cards.RONIN:
            (lotus if c < 5 else crane).append(RANK[c])
    lotus.sort()
    crane.sort()
    for a, b in zip(lotus, crane, strict=False):
        if a != b:
            return cards.LOTUS if a < b else cards.CRANE
    if len(lotus) != len(crane):
        return cards.LOTUS if len(lotus) > len(crane) else cards.CRANE
    return TIE


class View:
    """What one player knows at one decision (rebuilt from ``knowledge`` every time)."""

    def __init__(self, k: dict[str, Any], me: int, game, samples: int, rival_weight: float):
        self.k = k
        self.me = me
        self.game = game
        self.n = game.num_players
        self.lay = game.layout
        self.alive = k["alive"]
        self.samples = samples
        self.rival_weight = rival_weight
        self._hyps: list | None = None
        self._scen: list | None = None
        self._holders: dict[int, list[float]] = {}

    # ------------------------------------------------------------------ House beliefs
    def hypotheses(self) -> list[tuple[list[int], list[int], list[int], float]]:
        """``(sigma, pins of D, free cards, weight)`` per consistent swap hypothesis."""
        if self._hyps is not None:
            return self._hyps
        k, me, n = self.k, self.me, self.n
        facts = [(t, h, pre) for w, t, h, pre in k["looks"] if w == me or w == -1]
        ss = k["ss"]
        if ss and ss[3] >= 0:
            a, b = ss[1], ss[2]
            hyps = [ss[3]] if ss[0] == me else [0, 1]
        else:
            a = b = -1
            hyps = [0]
        house_cards = sorted(self.game.house_cards)
        out = []
        for swap in hyps:
            sigma = list(range(n))
            if swap:
                sigma[a], sigma[b] = b, a
            pin = [-1] * n
            pin[me] = k["dealt_house"][me]
            ok = True
            for t, h, pre in facts:
                q = t if pre else sigma[t]
                if pin[q] >= 0 and pin[q] != h:
                    ok = False
                    break
                pin[q] = h
            used = [h for h in pin if h >= 0]
            if not ok or len(set(used)) != len(used):
                continue
            free = [h for h in house_cards if h not in used]
            out.append((sigma, pin, free, float(factorial(len(free)))))
        if not out:  # cannot happen with a consistent record; believe the dealt card only
            pin = [-1] * n
            pin[me] = k["dealt_house"][me]
            out = [(list(range(n)), pin, [h for h in house_cards if h != pin[me]], 1.0)]
        self._hyps = out
        return out

    def possible(self, t: int) -> set[int]:
        """House cards ``t`` may hold now."""
        out: set[int] = set()
        for sigma, pin, free, _w in self.hypotheses():
            h = pin[sigma[t]]
            if h >= 0:
                out.add(h)
            else:
                out.update(free)
        return out

    def uncertainty(self, t: int) -> float:
        return log(len(self.possible(t)))

    def _relation(self, t: int) -> set[str]:
        rel: set[str] = set()
        for sigma, pin, _free, _w in self.hypotheses():
            mine, theirs = pin[sigma[self.me]], pin[sigma[t]]
            if mine < 0 or theirs < 0:
                rel.add("unknown")
            elif HOUSE[mine] == cards.RONIN_HOUSE or HOUSE[theirs] == cards.RONIN_HOUSE:
                rel.add("neutral")
            else:
                rel.add("ally" if HOUSE[mine] == HOUSE[theirs] else "enemy")
        return rel

    def known_ally(self, t: int) -> bool:
        return self._relation(t) == {"ally"}

    def known_enemy(self, t: int) -> bool:
        return self._relation(t) == {"enemy"}

    def p_enemy(self, t: int, rng) -> float:
        me = self.me
        hits = 0
        sc = self.scenarios(rng)
        for cur, _fut, _mm in sc:
            a, b = HOUSE[cur[me]], HOUSE[cur[t]]
            hits += a != b and a != cards.RONIN_HOUSE and b != cards.RONIN_HOUSE
        return hits / len(sc)

    # ------------------------------------------------------------------ Ninja card beliefs
    def held_count(self, q: int) -> int:
        k = self.k
        committed = sum(1 for _c, o, _s in k["committed"] if o == q)
        return len(k["hand"][q]) + (k["kept"][q] >= 0) + committed

    def holders(self, card: int) -> list[float]:
        """Probability that each player holds ``card`` now (0 for the dead)."""
        if card in self._holders:
            return self._holders[card]
        k, me, n = self.k, self.me, self.n
        probs = [0.0] * n
        self._holders[card] = probs
        if any(rec[0] == card for rec in k["played"]):
            return probs
        if card in k["hand"][me] or k["kept"][me] == card:
            probs[me] = 1.0
            return probs
        known = set(k["dealt"][me]) | set(k["received"][me])
        known.update(rec[0] for rec in k["played"])
        for who, t, c, _time in k["mystic"]:
            if who == me and c >= 0:
                known.add(c)
                if c == card:
                    probs[t] = 1.0 if self.alive[t] else 0.0
                    return probs
        gd = k["gd"]
        if gd and gd[0] == me:
            known.update(c for c in gd[1:3] if c >= 0)
            if card in gd[1:3]:
                return probs  # seen in the discards and not taken
        if card in k["received"][me]:
            return probs  # the card it discarded
        if card in k["dealt"][me] and k["pick1"][me] >= 0:
            left = (me + 1) % n
            probs[left] = 0.5 if self.alive[left] else 0.0  # passed left: kept or discarded
            return probs
        unknown = cards.NUM_CARDS - len(known)
        if unknown > 0:
            for q in range(n):
                if q != me and self.alive[q]:
                    probs[q] = min(1.0, self.held_count(q) / unknown)
        return probs

    # ------------------------------------------------------------------ scenarios
    def hazard(self) -> float:
        stage, phase = self.k["stage"], self.k["phase"]
        if stage in ("draft1", "draft2") or phase < 0:
            phase = cards.SPY
        return 0.5 * HAZARD.get(phase, 0.0) + sum(v for p, v in HAZARD.items() if p > phase)

    def scenarios(self, rng: np.random.Generator) -> list[tuple[list[int], list[bool], int]]:
        """``(current House cards, alive at House Reveal, Mastermind holder)`` samples."""
        if self._scen is not None:
            return self._scen
        n = self.n
        hyps = self.hypotheses()
        weights = np.array([h[3] for h in hyps])
        weights /= weights.sum()
        mm_probs = self.holders(cards.MASTERMIND)
        mm_cum = np.cumsum(mm_probs)
        hazard = self.hazard()
        S = self.samples
        choice = rng.choice(len(hyps), size=S, p=weights) if len(hyps) > 1 else [0] * S
        deaths = rng.random((S, n)) < hazard
        mm_draw = rng.random(S)
        out = []
        for i in range(S):
            sigma, pin, free, _w = hyps[int(choice[i])]
            deal = list(pin)
            if free:
                rest = [free[j] for j in rng.permutation(len(free))]
                for q in range(n):
                    if deal[q] < 0:
                        deal[q] = rest.pop()
            cur = [deal[sigma[q]] for q in range(n)]
            fut = [bool(self.alive[q]) and not deaths[i, q] for q in range(n)]
            hit = int(np.searchsorted(mm_cum, mm_draw[i], side="right"))
            mm = hit if hit < n else -1
            out.append((cur, fut, mm))
        self._scen = out
        return out

    def value(self, cur: list[int], living: list[bool], mm: int) -> float:
        """Token this player gets at House Reveal minus ``rival_weight`` x the others' mean."""
        result = _result(cur, living, mm)
        mine = 0
        others = 0
        for q in range(self.n):
            c = cur[q]
            if (result < TIE and HOUSE[c] == result) or (
                living[q] and (c == cards.RONIN or result == TIE)
            ):
                if q == self.me:
                    mine = 1
                else:
                    others += 1
        return mine - self.rival_weight * others / (self.n - 1)

    def kill_deltas(self, rng, cands: list[int], react: bool) -> dict[int, list[float]]:
        """Per scenario, the value change of killing each candidate now (the Mirror Monk risk
        averaged in when ``react``)."""
        sc = self.scenarios(rng)
        me = self.me
        mirror = self.holders(cards.MIRROR_MONK) if react else [0.0] * self.n
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

    def kill_gains(self, rng, cands: list[int], react: bool) -> dict[int, float]:
        deltas = self.kill_deltas(rng, cands, react)
        return {t: sum(d) / len(d) for t, d in deltas.items()}

    # ------------------------------------------------------------------ tokens
    def unknown_token_mean(self) -> float:
        k = self.k
        counts = dict(cards.HONOR_SPLIT)
        for t in k["known"][self.me]:
            counts[k["token_value"][t]] -= 1
        total = sum(counts.values())
        return sum(v * c for v, c in counts.items()) / total if total else 3.0

    def token_mean(self, q: int) -> float:
        """Expected value of a random token of ``q`` (by what this player knows)."""
        k = self.k
        known = set(k["known"][self.me])
        unk = self.unknown_token_mean()
        vals = [k["token_value"][t] if t in known else unk for t in k["tokens"][q]]
        return sum(vals) / len(vals) if vals else 0.0

    def score_estimate(self, q: int) -> float:
        return self.token_mean(q) * len(self.k["tokens"][q])


class NightOfTheNinjaHeuristic(Agent):
    """Rule-based Night of the Ninja player over its information set (see the module docstring).

    Args:
        samples: scenarios drawn for the kill and swap evaluations.
        rival_weight: how much the other players' tokens count against its own.
    """

    name = "heuristic"

    def __init__(self, samples: int = 32, rival_weight: float = 0.5):
        self.samples = samples
        self.rival_weight = rival_weight
        self.fallbacks = 0

    def act(self, info_set, rng: np.random.Generator) -> int:
        legal = [int(a) for a in np.flatnonzero(info_set.legal_action_mask)]
        if len(legal) == 1:
            return legal[0]
        k = info_set.knowledge
        view = View(k, info_set.player, info_set.game, self.samples, self.rival_weight)
        kind = k["decision"]["kind"]
        action = self.DECISION_RULES[kind](self, view, legal, rng)
        if action not in legal:
            self.fallbacks += 1
            action = legal[int(rng.integers(len(legal)))]
        return int(action)

    # ====================================================================== draft
    def card_value(self, v: View, card: int, hand: list[int]) -> float:
        """Static worth of holding ``card`` this round (draft and Grave Digger choices)."""
        kind = KIND[card]
        ronin = v.k["dealt_house"][v.me] == cards.RONIN
        value = BASE_VALUE[kind][1 if ronin else 0]
        number = cards.CARD_NUMBER[card]
        if kind in ("Blind Assassin", "Shinobi"):
            value += 0.08 * (6 - number)  # resolves before the other killers
        if kind in INFO_KINDS:
            value += 0.03 * (6 - number)
            if any(KIND[c] == "Blind Assassin" for c in hand):
                value += 1.0  # know whom to kill
        if kind == "Blind Assassin" and any(KIND[c] in INFO_KINDS for c in hand):
            value += 0.6
        if kind in KILL_KINDS and any(KIND[c] in KILL_KINDS for c in hand):
            value -= 0.5
        if kind == "Spirit Merchant" and v.k["tokens"][v.me]:
            value += 1.0
        if kind == "Thief" and not any(v.k["tokens"]):
            value -= 1.5  # nobody to steal from in the first round
        return value

    def _draft_pick1(self, v: View, legal: list[int], rng) -> int:
        return max(legal, key=lambda c: (self.card_value(v, c, []), -c))

    def _draft_pick2(self, v: View, legal: list[int], rng) -> int:
        hand = list(v.k["hand"][v.me])
        return max(legal, key=lambda c: (self.card_value(v, c, hand), -c))

    # ====================================================================== Night: commitments
    def _commit(self, v: View, legal: list[int], rng) -> int:
        done = v.lay.DONE
        playable = [a for a in legal if a < actions.PLAYER]
        for c in playable:
            if self.wants_to_play(v, c, rng):
                return c
        return done

    @staticmethod
    def nameable(v: View, q: int) -> bool:
        """Whether a card that does not kill may name ``q`` (the dead too, unless the game is
        played with ``living_targets_only``)."""
        return q != v.me and (v.alive[q] or not v.game.living_targets_only)

    def info_targets(self, v: View) -> list[int]:
        """Players a look would tell something about: living ones, else dead ones (a dead
        player's House still tells which House its token goes to and narrows the others)."""
        unsure = [q for q in range(v.n) if self.nameable(v, q) and v.uncertainty(q) > 0]
        return [q for q in unsure if v.alive[q]] or unsure

    def thief_targets(self, v: View) -> list[int]:
        tokens = v.k["tokens"]
        mine = len(tokens[v.me])
        return [q for q in range(v.n) if self.nameable(v, q) and len(tokens[q]) > mine]

    def kill_candidates(self, v: View) -> list[int]:
        """Living others, seen allies left out unless every one is a seen ally."""
        others = [q for q in range(v.n) if q != v.me and v.alive[q]]
        safe = [q for q in others if not v.known_ally(q)]
        return safe or others

    def wants_to_play(self, v: View, card: int, rng) -> bool:
        """Whether to play ``card`` now (a commitment or a Grave Digger card)."""
        kind = KIND[card]
        if kind in INFO_KINDS or kind == "Troublemaker":
            return bool(self.info_targets(v))
        if kind in ("Shapeshifter", "Grave Digger", "Spirit Merchant", "Shinobi"):
            return True
        if kind == "Thief":
            return bool(self.thief_targets(v))
        if kind in ("Judge", "Blind Assassin"):
            cands = self.kill_candidates(v)
            if not cands:
                return False
            gains = sorted(v.kill_gains(rng, cands, react=kind != "Judge").values(), reverse=True)
            # a second killer of this phase needs a second worthwhile target
            mine = sum(1 for c, o, _s in v.k["committed"] if o == v.me and KIND[c] in KILL_KINDS)
            if mine >= len(gains):
                return False
            return gains[mine] > (0.02 if kind == "Judge" else 0.0)
        return False  # reacts and the Mastermind are never committed

    # ====================================================================== Night: targets
    def _target(self, v: View, legal: list[int], rng) -> int:
        d = v.k["decision"]
        kind = KIND[d["card"]]
        cands = [a - actions.PLAYER for a in legal]
        if kind in INFO_KINDS or kind == "Troublemaker":
            return actions.PLAYER + self.info_target(v, cands, rng)
        if kind == "Spirit Merchant":
            return actions.PLAYER + self.merchant_target(v, cands, rng)
        if kind == "Shinobi":
            return actions.PLAYER + self.shinobi_target(v, cands, rng)
        # Judge, Blind Assassin
        safe = [q for q in cands if not v.known_ally(q)] or cands
        gains = v.kill_gains(rng, safe, react=kind != "Judge")
        return actions.PLAYER + max(safe, key=lambda q: (gains[q], v.uncertainty(q), -q))

    def info_target(self, v: View, cands: list[int], rng) -> int:
        """The living player it knows least (ties at random); a dead one only when it knows
        every living candidate already."""
        living = [q for q in cands if v.alive[q] and v.uncertainty(q) > 0]
        cands = living or cands
        scores = [v.uncertainty(q) for q in cands]
        best = max(scores)
        top = [q for q, s in zip(cands, scores, strict=True) if s >= best - 1e-9]
        return top[int(rng.integers(len(top)))]

    def merchant_target(self, v: View, cands: list[int], rng) -> int:
        tokens = v.k["tokens"]
        if tokens[v.me]:
            rich = [q for q in cands if tokens[q]]
            if rich:
                return max(rich, key=lambda q: (v.token_mean(q), len(tokens[q]), -q))
        return self.info_target(v, cands, rng)

    def shinobi_target(self, v: View, cands: list[int], rng) -> int:
        """The target whose look-then-decide option is worth most: per card it might show, the
        kill is taken only if it gains."""
        deltas = v.kill_deltas(rng, cands, react=True)
        sc = v.scenarios(rng)
        S = len(sc)
        best, best_score = cands[0], -1e9
        for q in cands:
            by_card: dict[int, float] = {}
            for (cur, _fut, _mm), dv in zip(sc, deltas[q], strict=True):
                by_card[cur[q]] = by_card.get(cur[q], 0.0) + dv
            option = sum(max(0.0, s) for s in by_card.values()) / S
            score = option + 0.01 * v.uncertainty(q) - (1.0 if v.known_ally(q) else 0.0)
            if score > best_score:
                best, best_score = q, score
        return best

    def _shinobi_kill(self, v: View, legal: list[int], rng) -> int:
        t = v.k["decision"]["target"]
        if v.known_ally(t):
            return v.lay.DONE
        gain = v.kill_gains(rng, [t], react=True)[t]
        return v.lay.YES if gain > 0 else v.lay.DONE

    # ====================================================================== Tricksters
    def _ss_first(self, v: View, legal: list[int], rng) -> int:
        me = actions.PLAYER + v.me
        return me if me in legal else legal[0]

    def _swap_gain(self, v: View, a: int, b: int, rng) -> list[float]:
        """Per scenario, the value change of swapping the House cards of ``a`` and ``b``."""
        out = []
        for cur, fut, mm in v.scenarios(rng):
            v0 = v.value(cur, fut, mm)
            cur[a], cur[b] = cur[b], cur[a]
            v1 = v.value(cur, fut, mm)
            cur[a], cur[b] = cur[b], cur[a]
            out.append(v1 - v0)
        return out

    def _ss_second(self, v: View, legal: list[int], rng) -> int:
        first = v.k["decision"]["target"]
        cands = [a - actions.PLAYER for a in legal]
        sc = v.scenarios(rng)
        S = len(sc)
        best, best_score = cands[0], -1e9
        for q in cands:
            gains = self._swap_gain(v, first, q, rng)
            by_pair: dict[tuple[int, int], float] = {}
            for (cur, _fut, _mm), g in zip(sc, gains, strict=True):
                key = (cur[first], cur[q])
                by_pair[key] = by_pair.get(key, 0.0) + g
            option = sum(max(0.0, s) for s in by_pair.values()) / S
            score = option + 0.01 * v.uncertainty(q)
            if score > best_score:
                best, best_score = q, score
        return actions.PLAYER + best

    def _ss_swap(self, v: View, legal: list[int], rng) -> int:
        _owner, a, b, _swapped = v.k["ss"]
        gains = self._swap_gain(v, a, b, rng)
        return v.lay.YES if sum(gains) / len(gains) > 0.02 else v.lay.DONE

    def _gd_take(self, v: View, legal: list[int], rng) -> int:
        hand = list(v.k["hand"][v.me])

        def worth(c: int) -> float:
            value = self.card_value(v, c, hand)
            if KIND[c] == "Thief" and not self.thief_targets(v):
                value -= 3.0
            return value

        return max(legal, key=lambda c: (worth(c), -c))

    def _gd_use(self, v: View, legal: list[int], rng) -> int:
        card = v.k["gd"][3]
        if cards.CARD_PHASE[card] >= cards.BLIND_ASSASSIN:
            return v.lay.DONE  # a killer is kept for its own phase (more is known by then)
        return v.lay.YES if self.wants_to_play(v, card, rng) else v.lay.DONE

    def _kept_trickster(self, v: View, legal: list[int], rng) -> int:
        card = v.k["decision"]["card"]
        return card if card in legal and self.wants_to_play(v, card, rng) else v.lay.DONE

    def _tm_reveal(self, v: View, legal: list[int], rng) -> int:
        t = v.k["decision"]["target"]
        return v.lay.YES if v.p_enemy(t, rng) >= 0.5 else v.lay.DONE

    def _sm_look(self, v: View, legal: list[int], rng) -> int:
        lay = v.lay
        if lay.LOOK_TOKEN in legal and v.k["tokens"][v.me]:
            return lay.LOOK_TOKEN
        return lay.LOOK_HOUSE

    def _sm_swap(self, v: View, legal: list[int], rng) -> int:
        k, lay = v.k, v.lay
        _owner, target, looked_token, token = k["sm"]
        gives = [(cards.TOKEN_VALUES[a - lay.GIVE], a) for a in legal if a != lay.DONE]
        if not gives:
            return lay.DONE
        cheapest, action = min(gives)
        if looked_token == 1 and token >= 0:
            worth = k["token_value"][token]
            return action if worth > cheapest else lay.DONE
        return action if v.token_mean(target) > cheapest + 0.3 else lay.DONE

    def _thief_target(self, v: View, legal: list[int], rng) -> int:
        cands = [a - actions.PLAYER for a in legal if a != v.lay.DONE]
        if not cands:
            return v.lay.DONE
        best = max(cands, key=lambda q: (v.token_mean(q) + 0.1 * v.score_estimate(q), -q))
        return actions.PLAYER + best

    # ====================================================================== reacts
    def _react(self, v: View, legal: list[int], rng) -> int:
        if cards.MIRROR_MONK in legal:
            return cards.MIRROR_MONK  # the attacker dies instead
        if cards.MARTYR in legal:
            return cards.MARTYR  # it dies anyway: take the Honor token
        return v.lay.DONE

    # ====================================================================== dispatch table
    DECISION_RULES: ClassVar[dict[str, Callable[..., int]]] = {
        "draft_pick1": _draft_pick1,
        "draft_pick2": _draft_pick2,
        "commit": _commit,
        "target": _target,
        "ss_first": _ss_first,
        "ss_second": _ss_second,
        "ss_swap": _ss_swap,
        "gd_take": _gd_take,
        "gd_use": _gd_use,
        "kept_trickster": _kept_trickster,
        "tm_reveal": _tm_reveal,
        "sm_look": _sm_look,
        "sm_swap": _sm_swap,
        "thief_target": _thief_target,
        "shinobi_kill": _shinobi_kill,
        "react": _react,
    }
    """Decision kind -> the rule answering it, ``rule(self, view, legal, rng) -> action`` (a
    subclass changes a rule by giving its own table: ``{**DECISION_RULES, kind: rule}``)."""


def evaluate(state) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (sampled) state, for search cut-offs (ISMCTS).

    The returns at the end; before it, each player's Honor points (``state.score``, hidden in
    the true game, known in the sampled state searched) minus the best other player's, as a
    fraction of the target score, clipped.
    """
    if state.is_terminal():
        return state.returns()
    scores = np.array([state.score(p) for p in range(state.game.num_players)], dtype=np.float64)
    out = np.empty(len(scores))
    for p in range(len(scores)):
        out[p] = scores[p] - np.max(np.delete(scores, p))
    return np.clip(out / max(1, state.game.target_score), -1.0, 1.0)
