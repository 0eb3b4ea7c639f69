"""White Castle information sets: only the castle deck orders and future chance are hidden."""

from __future__ import annotations

from marshal import dumps, loads
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

    def sample(self, rng: np.random.Generator):
        """:meth:`RedealtInfoSet.sample` (the same state, the same draws from ``rng``) without
        its second copy of every field and its generator round trip through a dict."""
        d = loads(dumps(self.knowledge, 2))
        self.deal_hidden(d, self.player, rng)
        s = self._state_class(
            self.game, np.random.Generator(np.random.PCG64(int(rng.integers(2**63))))
        )
        for k in self._state_class.FIELDS:
            setattr(s, k, d[k])
        return s
