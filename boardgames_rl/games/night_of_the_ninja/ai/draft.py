"""The draft: static card values with its House in mind.

The Mastermind (its House wins if it survives; as the Ronin nobody else scores), the Mirror Monk,
Shinobi, Judge, Blind Assassins (low numbers resolve first), the Thief (once someone holds
tokens), the Martyr, Mystic / Spy (worth more next to a Blind Assassin, which in turn is worth
more next to them), then the other Tricksters (the Spirit Merchant more when it holds tokens). A
second killer is worth a little less. The Ronin values killers and information less and its
survival (Mirror Monk, Martyr) more. The same values choose the Grave Digger's card.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr, trait

from boardgames_rl.games.night_of_the_ninja import data
from boardgames_rl.games.night_of_the_ninja.ai.tables import INFO_KINDS, KILL_KINDS, KIND
from boardgames_rl.games.night_of_the_ninja.ai.view import View

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
"""Static draft value of each card kind: ``(as a House member, as the Ronin)``."""


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class DraftRules:
    """The draft decisions of :class:`~.agent.NightOfTheNinjaHeuristic` (a trait: the compiled
    build lets a class take the rules of several such classes)."""

    def card_value(self, view: View, card: int, hand: list[int]) -> float:
        """Static worth of holding ``card`` this round (draft and Grave Digger choices)."""
        kind = KIND[card]
        ronin = view.facts.dealt_house == data.RONIN
        value = BASE_VALUE[kind][1 if ronin else 0]
        number = data.CARD_NUMBER[card]
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
        if kind == "Spirit Merchant" and view.facts.tokens[view.me]:
            value += 1.0
        if kind == "Thief" and not any(view.facts.tokens):
            value -= 1.5  # nobody to steal from in the first round
        return value

    def _draft_pick1(self, view: View, legal: list[int], rng) -> int:
        return max(legal, key=lambda c: (self.card_value(view, c, []), -c))

    def _draft_pick2(self, view: View, legal: list[int], rng) -> int:
        hand = list(view.facts.hand)
        return max(legal, key=lambda c: (self.card_value(view, c, hand), -c))
