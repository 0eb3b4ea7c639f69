"""White Castle information sets: only the castle deck orders and future chance are hidden."""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.game import InfoSet
from boardgames_rl.core.seeding import make_rng


class WhiteCastleInfoSet(InfoSet):
    """Sampling reshuffles the Steward and Diplomat decks and replaces the chance generator."""

    @classmethod
    def of(cls, state, player: int) -> WhiteCastleInfoSet:
        obj = cls(
            state.game,
            player,
            state.current_player,
            state.observation(player),
            state.legal_action_mask_for(player).copy(),
        )
        obj._state = state.clone()
        return obj

    def sample(self, rng: np.random.Generator):
        s = self._state.clone()
        s.rng = make_rng(int(rng.integers(0, 2**63 - 1)))
        for deck in (s.steward_deck, s.diplomat_deck):
            order = rng.permutation(len(deck))
            deck[:] = [deck[i] for i in order]
        s._mask = None
        return s
