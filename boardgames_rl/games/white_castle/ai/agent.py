"""The heuristic White Castle agent: greedy with a short look-ahead over its own decisions.

For each legal action the agent applies it to a state sampled from its information set (only the
castle deck orders are hidden) and then searches its own follow-up decisions (the die it takes
leads to the space it places on, which leads to the effects it resolves) up to ``depth`` choices
deep, stopping as soon as another player is to move. The leaves are scored by the one value
function of :mod:`.value` (points now, plus assets weighted by the game left, minus part of the
best opponent's points) with the agent's :class:`~.value.Weights`.

The best action wins; ties are broken by ``rng``. Seal exchanges are considered only at the root.
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.game import InfoSet
from boardgames_rl.games.white_castle.actions import MAX_OPTS
from boardgames_rl.games.white_castle.ai.lookahead import clone
from boardgames_rl.games.white_castle.ai.value import Weights
from boardgames_rl.games.white_castle.ai.value import value as state_value
from boardgames_rl.games.white_castle.state import WhiteCastleState


class WhiteCastleHeuristic(Agent):
    """Greedy look-ahead player (see module docstring)."""

    name = "heuristic"

    def __init__(
        self,
        depth: int = 2,
        resource: float = 0.6,
        coin: float = 0.3,
        seal: float = 0.6,
        pot_step: float = 0.4,
        member: float = 1.0,
        lantern: float = 0.8,
        opponent: float = 0.5,
    ):
        self.depth = depth
        self.weights = Weights(resource, coin, seal, pot_step, member, lantern, opponent)

    def value(self, state: WhiteCastleState, me: int) -> float:
        """The value of ``me`` (``ai.value.value``) with this agent's weights."""
        return state_value(state, me, self.weights)

    def _search(self, state: WhiteCastleState, me: int, depth: int) -> float:
        if depth <= 0 or state.is_terminal() or state.current_player != me:
            return self.value(state, me)
        best = -np.inf
        for a in range(len(state.options())):
            child = clone(state)
            child._apply(a)  # option indices are legal by construction
            best = max(best, self._search(child, me, depth - 1))
        return best

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(info_set.legal_action_mask)
        if len(legal) == 1:
            return int(legal[0])
        me = info_set.player
        base = info_set.sample(rng)
        if not isinstance(base, WhiteCastleState):
            raise TypeError(
                f"WhiteCastleHeuristic plays The White Castle, not {info_set.game.name}"
            )
        scores = np.empty(len(legal))
        for i, a in enumerate(legal):
            child = clone(base)
            child.apply(int(a))
            # an exchange keeps the same decision open: one level deeper keeps it comparable
            depth = self.depth if a < MAX_OPTS else self.depth + 1
            scores[i] = self._search(child, me, depth - 1)
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return int(legal[best[int(rng.integers(len(best)))]])
