"""Castle Flutterstone information sets: the whole table but the order of the draw pile.

Ghost cards lie face up, so every seat knows the same facts; the order of the face-down pile
(and the future chance of the flicks) is the only thing hidden.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgames_rl.core.plain_state import RedealtInfoSet


class FlutterstoneInfoSet(RedealtInfoSet):
    """What one player knows.

    ``knowledge`` is the state dict with the draw pile already reshuffled from a fixed generator
    (its contents are known, its order is not) and no chance generator; ``sample`` deals the
    known pile contents in a random order and gives the state a fresh generator.
    """

    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        pile = sorted(d["draw_pile"])
        rng.shuffle(pile)
        d["draw_pile"] = pile
