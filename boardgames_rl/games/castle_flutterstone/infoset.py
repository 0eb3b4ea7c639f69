"""Castle Flutterstone information sets: the whole table but the order of the draw pile.

Ghost cards lie face up, so every seat knows the same facts; the order of the face-down pile
(and the future chance of the flicks) is the only thing hidden.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgames_rl.core.plain_state import RedealtInfoSet
from boardgames_rl.core.seeding import rng_to_state


class FlutterstoneInfoSet(RedealtInfoSet):
    """What one player knows.

    ``knowledge`` is the state dict with the draw pile already reshuffled from a fixed generator
    (its contents are known, its order is not) and no chance generator; ``sample`` deals the
    known pile contents in a random order and gives the state a fresh generator.
    """

    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        pile = sorted(d["draw_pile"])
        rng.shuffle(pile)
        d["draw_pile"] = pile  # a new list: the knowledge's lists are never written

    def sample(self, rng: np.random.Generator):
        """As :meth:`RedealtInfoSet.sample`, without its first deep copy of the knowledge:
        ``deal_hidden`` replaces the pile instead of writing into it, and ``from_state_dict``
        copies the rest (same draws from ``rng``, so the same samples)."""
        d = dict(self.knowledge)
        self.deal_hidden(d, self.player, rng)
        d["rng"] = rng_to_state(np.random.Generator(np.random.PCG64(int(rng.integers(2**63)))))
        return self._state_class.from_state_dict(self.game, d)
