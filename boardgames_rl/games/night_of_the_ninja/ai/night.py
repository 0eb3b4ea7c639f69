"""The Night: which cards to play, on whom, whether the Shinobi kills, and the reacts.

* Information first: every Spy and Mystic is played, on the living player it knows least (ties
  at random; a dead player, a legal target of the cards that do not kill, only once every living
  one is known); the Troublemaker looks the same way (its reveal is in :mod:`.tricksters`).
* Kills: Blind Assassins and the Judge are played only when the best kill gains (a second one of
  the phase only when a second target does): seen enemies first, high ranks first, a likely
  Mastermind holder, unknown players otherwise; never a seen ally unless every target is one (a
  seen Ronin is a fair target too: it takes a token from the others). Shinobis are always played,
  on the player whose look-then-decide option is worth most (for each card the look may show, the
  kill is taken only if it gains), and after the look it kills only on a gain: it spares allies.
* The Ronin plays to survive: its value is its own survival (and the others' tokens), so it
  kills only to deny tokens, weighing the Mirror Monk risk, and keeps its reacts and Mastermind.
* Reacts: the Mirror Monk against any kill, else the Martyr (its holder dies anyway). The
  Mastermind is held quietly (it is never played; the engine reveals it for a living holder).
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr, trait

from boardgames_rl.games.night_of_the_ninja import actions, data
from boardgames_rl.games.night_of_the_ninja.ai.tables import INFO_KINDS, KILL_KINDS, KIND
from boardgames_rl.games.night_of_the_ninja.ai.view import View


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class NightRules:
    """The Night decisions of :class:`~.agent.NightOfTheNinjaHeuristic` (and the card tests the
    Trickster rules share: ``wants_to_play``, ``info_targets``, ``thief_targets``)."""

    def _commit(self, view: View, legal: list[int], rng) -> int:
        done = view.lay.DONE
        playable = [a for a in legal if a < actions.PLAYER]
        for c in playable:
            if self.wants_to_play(view, c, rng):
                return c
        return done

    @staticmethod
    def nameable(view: View, q: int) -> bool:
        """Whether a card that does not kill may name ``q`` (the dead too, unless the game is
        played with ``living_targets_only``)."""
        return q != view.me and (view.alive[q] or not view.facts.living_targets_only)

    def info_targets(self, view: View) -> list[int]:
        """Players a look would tell something about: living ones, else dead ones (a dead
        player's House still tells which House its token goes to and narrows the others)."""
        unsure = [q for q in range(view.n) if self.nameable(view, q) and view.uncertainty(q) > 0]
        return [q for q in unsure if view.alive[q]] or unsure

    def thief_targets(self, view: View) -> list[int]:
        tokens = view.facts.tokens
        mine = len(tokens[view.me])
        return [q for q in range(view.n) if self.nameable(view, q) and len(tokens[q]) > mine]

    def kill_candidates(self, view: View) -> list[int]:
        """Living others, seen allies left out unless every one is a seen ally."""
        others = [q for q in range(view.n) if q != view.me and view.alive[q]]
        safe = [q for q in others if not view.known_ally(q)]
        return safe or others

    def wants_to_play(self, view: View, card: int, rng) -> bool:
        """Whether to play ``card`` now (a commitment or a Grave Digger card)."""
        kind = KIND[card]
        if kind in INFO_KINDS or kind == "Troublemaker":
            return bool(self.info_targets(view))
        if kind in ("Shapeshifter", "Grave Digger", "Spirit Merchant", "Shinobi"):
            return True
        if kind == "Thief":
            return bool(self.thief_targets(view))
        if kind in ("Judge", "Blind Assassin"):
            cands = self.kill_candidates(view)
            if not cands:
                return False
            gains = sorted(
                view.kill_gains(rng, cands, react=kind != "Judge").values(), reverse=True
            )
            # a second killer of this phase needs a second worthwhile target
            mine = sum(1 for c in view.facts.committed if KIND[c] in KILL_KINDS)
            if mine >= len(gains):
                return False
            return gains[mine] > (0.02 if kind == "Judge" else 0.0)
        return False  # reacts and the Mastermind are never committed

    def _target(self, view: View, legal: list[int], rng) -> int:
        kind = KIND[view.facts.decision.card]
        cands = [a - actions.PLAYER for a in legal]
        if kind in INFO_KINDS or kind == "Troublemaker":
            return actions.PLAYER + self.info_target(view, cands, rng)
        if kind == "Spirit Merchant":
            return actions.PLAYER + self.merchant_target(view, cands, rng)
        if kind == "Shinobi":
            return actions.PLAYER + self.shinobi_target(view, cands, rng)
        # Judge, Blind Assassin
        safe = [q for q in cands if not view.known_ally(q)] or cands
        gains = view.kill_gains(rng, safe, react=kind != "Judge")
        return actions.PLAYER + max(safe, key=lambda q: (gains[q], view.uncertainty(q), -q))

    def info_target(self, view: View, cands: list[int], rng) -> int:
        """The living player it knows least (ties at random); a dead one only when it knows
        every living candidate already."""
        living = [q for q in cands if view.alive[q] and view.uncertainty(q) > 0]
        cands = living or cands
        scores = [view.uncertainty(q) for q in cands]
        best = max(scores)
        top = [q for q, s in zip(cands, scores) if s >= best - 1e-9]
        return top[int(rng.integers(len(top)))]

    def merchant_target(self, view: View, cands: list[int], rng) -> int:
        tokens = view.facts.tokens
        if tokens[view.me]:
            rich = [q for q in cands if tokens[q]]
            if rich:
                return max(rich, key=lambda q: (view.token_mean(q), len(tokens[q]), -q))
        return self.info_target(view, cands, rng)

    def shinobi_target(self, view: View, cands: list[int], rng) -> int:
        """The target whose look-then-decide option is worth most: per card it might show, the
        kill is taken only if it gains."""
        deltas = view.kill_deltas(rng, cands, react=True)
        sc = view.scenarios(rng)
        S = len(sc)
        best, best_score = cands[0], -1e9
        for q in cands:
            by_card: dict[int, float] = {}
            for (cur, _fut, _mm), dv in zip(sc, deltas[q]):
                by_card[cur[q]] = by_card.get(cur[q], 0.0) + dv
            option = sum(max(0.0, s) for s in by_card.values()) / S
            score = option + 0.01 * view.uncertainty(q) - (1.0 if view.known_ally(q) else 0.0)
            if score > best_score:
                best, best_score = q, score
        return best

    def _shinobi_kill(self, view: View, legal: list[int], rng) -> int:
        t = view.facts.decision.target
        if view.known_ally(t):
            return view.lay.DONE
        gain = view.kill_gains(rng, [t], react=True)[t]
        return view.lay.YES if gain > 0 else view.lay.DONE

    def _react(self, view: View, legal: list[int], rng) -> int:
        if data.MIRROR_MONK in legal:
            return data.MIRROR_MONK  # the attacker dies instead
        if data.MARTYR in legal:
            return data.MARTYR  # it dies anyway: take the Honor token
        return view.lay.DONE
