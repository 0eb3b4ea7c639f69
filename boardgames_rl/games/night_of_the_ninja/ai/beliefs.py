"""What a player believes about the hidden House cards, Ninja cards and Honor tokens.

:class:`Beliefs` is rebuilt at every decision from the player's typed
:class:`~boardgames_rl.games.night_of_the_ninja.infoset.PlayerView` (its own House card as dealt,
hand, kept card, draft, Honor tokens it knows, its own looks and Mystic / Grave Digger sights,
and the public record: played cards, deaths, public reveals, the players a Shapeshifter named,
token counts and held card counts).

* House cards: the swap hypotheses of ``infoset.house_hypotheses`` (written once there, shared
  with the info set's re-deal): the deal ``D``, possibly with one swap of the two players a
  Shapeshifter named, each look pinning a card of ``D``. So a player is a *seen enemy* / *seen
  ally* when every hypothesis gives it a card of the other House / of the player's own current
  House (which a Shapeshifter may have made uncertain).
* Ninja cards: where a card is (the Mastermind, the Mirror Monk) comes from its own hand, its
  Mystic sights, the card it passed to its left neighbour (held there half the time), the cards
  it knows are discarded, and else a share proportional to the unknown cards each player holds.
* Honor tokens: the values it has seen, the mean of the unseen ones otherwise.
"""

from __future__ import annotations

from math import log

from boardgames_rl.games.night_of_the_ninja import data
from boardgames_rl.games.night_of_the_ninja.ai.tables import HOUSE
from boardgames_rl.games.night_of_the_ninja.infoset import HouseHypothesis, PlayerView


class Beliefs:
    """What one player knows at one decision, derived from its :class:`PlayerView` ``facts``."""

    def __init__(self, facts: PlayerView):
        self.facts = facts
        self.me = facts.player
        self.n = facts.num_players
        self.lay = facts.layout
        self.alive = facts.alive
        self._hyps: list[HouseHypothesis] | None = None
        self._holders: dict[int, list[float]] = {}

    # ------------------------------------------------------------------ House beliefs
    def hypotheses(self) -> list[HouseHypothesis]:
        """The consistent House-swap hypotheses (``infoset.house_hypotheses``)."""
        if self._hyps is not None:
            return self._hyps
        out = self.facts.house_hypotheses()
        if not out:  # cannot happen with a consistent record; believe the dealt card only
            me, n = self.me, self.n
            pin = [-1] * n
            pin[me] = self.facts.dealt_house
            free = [h for h in sorted(self.facts.house_cards) if h != pin[me]]
            out = [HouseHypothesis(0, list(range(n)), pin, [0] * n, free, 1)]
        self._hyps = out
        return out

    def possible(self, t: int) -> set[int]:
        """House cards ``t`` may hold now."""
        out: set[int] = set()
        for hyp in self.hypotheses():
            h = hyp.pins[hyp.sigma[t]]
            if h >= 0:
                out.add(h)
            else:
                out.update(hyp.free)
        return out

    def uncertainty(self, t: int) -> float:
        return log(len(self.possible(t)))

    def _relation(self, t: int) -> set[str]:
        rel: set[str] = set()
        for hyp in self.hypotheses():
            mine, theirs = hyp.pins[hyp.sigma[self.me]], hyp.pins[hyp.sigma[t]]
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
        return self.facts.held_counts[q]

    def holders(self, card: int) -> list[float]:
        """Probability that each player holds ``card`` now (0 for the dead)."""
        if card in self._holders:
            return self._holders[card]
        f, me, n = self.facts, self.me, self.n
        probs = [0.0] * n
        self._holders[card] = probs
        if card in f.played:
            return probs
        if card in f.hand or f.kept == card:
            probs[me] = 1.0
            return probs
        known = set(f.dealt) | set(f.received)
        known.update(f.played)
        for t, c in f.mystic_sights:
            known.add(c)
            if c == card:
                probs[t] = 1.0 if self.alive[t] else 0.0
                return probs
        gd = f.grave_digger
        if gd is not None:
            known.update(c for c in gd.seen if c >= 0)
            if card in gd.seen:
                return probs  # seen in the discards and not taken
        if card in f.received:
            return probs  # the card it discarded
        if card in f.dealt and f.picked_first:
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
        counts = dict(data.HONOR_SPLIT)
        for value in self.facts.token_values.values():
            counts[value] -= 1
        total = sum(counts.values())
        return sum(v * c for v, c in counts.items()) / total if total else 3.0

    def token_mean(self, q: int) -> float:
        """Expected value of a random token of ``q`` (by what this player knows)."""
        values = self.facts.token_values
        unk = self.unknown_token_mean()
        vals = [values.get(t, unk) for t in self.facts.tokens[q]]
        return sum(vals) / len(vals) if vals else 0.0

    def score_estimate(self, q: int) -> float:
        return self.token_mean(q) * len(self.facts.tokens[q])
