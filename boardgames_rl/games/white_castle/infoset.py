"""White Castle information sets: only the castle deck orders and future chance are hidden."""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgames_rl.core.plain_state import RedealtInfoSet

HIDDEN_DECKS = ("steward_deck", "diplomat_deck")
"""The state fields whose order no player knows (their contents are public: cards not yet seen)."""


class WhiteCastleInfoSet(RedealtInfoSet):
    """Sampling reshuffles the Steward and Diplomat decks and replaces the chance generator.

    ``knowledge`` holds the state with both decks already reshuffled from a fixed generator, so
    an agent holding this information set holds nothing of the true deck order.
    """

    @classmethod
    def of(cls, state, player: int) -> WhiteCastleInfoSet:
        return cls(state, player)

    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        for key in HIDDEN_DECKS:
            deck = sorted(d[key])
            d[key] = [deck[i] for i in rng.permutation(len(deck))]
