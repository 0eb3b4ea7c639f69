"""The Tricksters' decisions.

The Grave Digger is always played and takes the more valuable card (Spy, Mystic and Tricksters
are played at once when useful, killers kept for their phase, reacts and the Mastermind kept);
the Thief is played when someone holds more tokens and steals from the player whose random token
is worth most by what it knows (the richest breaking near-ties; dead or alive, a dead player's
tokens count the same); the Spirit Merchant visits the player (dead or alive) whose tokens are
worth most, looks at a token and gives its cheapest token for a better one (after a House look:
when a random token of the target is worth more on average); the Shapeshifter names its own
player and the player whose card is most worth taking, and swaps only when the scenarios say its
player gains; the Troublemaker reveals the card it saw to all when it shows an enemy.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from boardgames_rl.games.night_of_the_ninja import actions, data
from boardgames_rl.games.night_of_the_ninja.ai.draft import DraftRules
from boardgames_rl.games.night_of_the_ninja.ai.night import NightRules
from boardgames_rl.games.night_of_the_ninja.ai.tables import KIND
from boardgames_rl.games.night_of_the_ninja.ai.view import View


@mypyc_attr(allow_interpreted_subclasses=True)
class TricksterRules(DraftRules, NightRules):
    """The Trickster decisions of :class:`~.agent.NightOfTheNinjaHeuristic` (they use the card
    values of :class:`~.draft.DraftRules` and the card tests of :class:`~.night.NightRules`)."""

    def _ss_first(self, view: View, legal: list[int], rng) -> int:
        me = actions.PLAYER + view.me
        return me if me in legal else legal[0]

    def _swap_gain(self, view: View, a: int, b: int, rng) -> list[float]:
        """Per scenario, the value change of swapping the House cards of ``a`` and ``b``."""
        out = []
        for cur, fut, mm in view.scenarios(rng):
            v0 = view.value(cur, fut, mm)
            cur[a], cur[b] = cur[b], cur[a]
            v1 = view.value(cur, fut, mm)
            cur[a], cur[b] = cur[b], cur[a]
            out.append(v1 - v0)
        return out

    def _ss_second(self, view: View, legal: list[int], rng) -> int:
        first = view.facts.decision.target
        cands = [a - actions.PLAYER for a in legal]
        sc = view.scenarios(rng)
        S = len(sc)
        best, best_score = cands[0], -1e9
        for q in cands:
            gains = self._swap_gain(view, first, q, rng)
            by_pair: dict[tuple[int, int], float] = {}
            for (cur, _fut, _mm), g in zip(sc, gains):
                key = (cur[first], cur[q])
                by_pair[key] = by_pair.get(key, 0.0) + g
            option = sum(max(0.0, s) for s in by_pair.values()) / S
            score = option + 0.01 * view.uncertainty(q)
            if score > best_score:
                best, best_score = q, score
        return actions.PLAYER + best

    def _ss_swap(self, view: View, legal: list[int], rng) -> int:
        ss = view.facts.shapeshifter
        assert ss is not None  # asked only of the Shapeshifter's owner
        a, b = ss.first, ss.second
        gains = self._swap_gain(view, a, b, rng)
        return view.lay.YES if sum(gains) / len(gains) > 0.02 else view.lay.DONE

    def _gd_take(self, view: View, legal: list[int], rng) -> int:
        hand = list(view.facts.hand)

        def worth(c: int) -> float:
            value = self.card_value(view, c, hand)
            if KIND[c] == "Thief" and not self.thief_targets(view):
                value -= 3.0
            return value

        return max(legal, key=lambda c: (worth(c), -c))

    def _gd_use(self, view: View, legal: list[int], rng) -> int:
        gd = view.facts.grave_digger
        assert gd is not None  # asked only of the Grave Digger's owner
        card = gd.taken
        if data.CARD_PHASE[card] >= data.BLIND_ASSASSIN:
            return view.lay.DONE  # a killer is kept for its own phase (more is known by then)
        return view.lay.YES if self.wants_to_play(view, card, rng) else view.lay.DONE

    def _kept_trickster(self, view: View, legal: list[int], rng) -> int:
        card = view.facts.decision.card
        return card if card in legal and self.wants_to_play(view, card, rng) else view.lay.DONE

    def _tm_reveal(self, view: View, legal: list[int], rng) -> int:
        t = view.facts.decision.target
        return view.lay.YES if view.p_enemy(t, rng) >= 0.5 else view.lay.DONE

    def _sm_look(self, view: View, legal: list[int], rng) -> int:
        lay = view.lay
        if lay.LOOK_TOKEN in legal and view.facts.tokens[view.me]:
            return lay.LOOK_TOKEN
        return lay.LOOK_HOUSE

    def _sm_swap(self, view: View, legal: list[int], rng) -> int:
        lay = view.lay
        visit = view.facts.merchant
        assert visit is not None  # asked only of the Spirit Merchant's owner
        target, looked_token, token = visit.target, visit.looked_at_token, visit.token
        gives = [(data.TOKEN_VALUES[a - lay.GIVE], a) for a in legal if a != lay.DONE]
        if not gives:
            return lay.DONE
        cheapest, action = min(gives)
        if looked_token and token >= 0:
            worth = view.facts.token_values[token]
            return action if worth > cheapest else lay.DONE
        return action if view.token_mean(target) > cheapest + 0.3 else lay.DONE

    def _thief_target(self, view: View, legal: list[int], rng) -> int:
        cands = [a - actions.PLAYER for a in legal if a != view.lay.DONE]
        if not cands:
            return view.lay.DONE
        best = max(cands, key=lambda q: (view.token_mean(q) + 0.1 * view.score_estimate(q), -q))
        return actions.PLAYER + best
