"""What a player believes about the hidden House cards, Ninja cards and Honor tokens.

:class:`Beliefs` is rebuilt at every decision from ``info_set.knowledge`` (whose hidden parts are
re-dealt, so only these are read: its own House card as dealt, hand, kept card, draft, Honor
tokens it knows, its own looks and Mystic / Grave Digger sights, and the public record: played
cards and targets, deaths, public reveals, the players a Shapeshifter named, token counts).

* House cards: the deal ``D``, possibly with one swap of the two players a Shapeshifter named
  (unknown unless it was this player's Shapeshifter). For each swap hypothesis every look pins a
  card of ``D`` (a look taken before the naming pins the dealt card, a later one the current
  card), its own dealt card is pinned too, the other cards are free. So a player is a *seen
  enemy* / *seen ally* when every hypothesis gives it a card of the other House / of the player's
  own current House (which a Shapeshifter may have made uncertain).
* Ninja cards: where a card is (the Mastermind, the Mirror Monk) comes from its own hand, its
  Mystic sights, the card it passed to its left neighbour (held there half the time), the cards
  it knows are discarded, and else a share proportional to the unknown cards each player holds.
* Honor tokens: the values it has seen, the mean of the unseen ones otherwise.
"""

from __future__ import annotations

from math import factorial, log
from typing import Any

from boardgames_rl.games.night_of_the_ninja import data
from boardgames_rl.games.night_of_the_ninja.ai.tables import HOUSE


class Beliefs:
    """What one player knows at one decision (rebuilt from ``knowledge`` every time)."""

    def __init__(self, k: dict[str, Any], me: int, game):
        self.k = k
        self.me = me
        self.game = game
        self.n = game.num_players
        self.lay = game.layout
        self.alive = k["alive"]
        self._hyps: list | None = None
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
            elif HOUSE[mine] == data.RONIN_HOUSE or HOUSE[theirs] == data.RONIN_HOUSE:
                rel.add("neutral")
            else:
                rel.add("ally" if HOUSE[mine] == HOUSE[theirs] else "enemy")
        return rel

    def known_ally(self, t: int) -> bool:
        return self._relation(t) == {"ally"}

    def known_enemy(self, t: int) -> bool:
        return self._relation(t) == {"enemy"}

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
        unknown = data.NUM_CARDS - len(known)
        if unknown > 0:
            for q in range(n):
                if q != me and self.alive[q]:
                    probs[q] = min(1.0, self.held_count(q) / unknown)
        return probs

    # ------------------------------------------------------------------ tokens
    def unknown_token_mean(self) -> float:
        k = self.k
        counts = dict(data.HONOR_SPLIT)
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
