"""Uniform random agent over the legal actions."""

from __future__ import annotations

import numpy as np

from boardgames_rl.agents.base import Agent
from boardgames_rl.core.game import InfoSet


class RandomAgent(Agent):
    """Plays a legal action chosen uniformly at random."""

    name = "random"

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(info_set.legal_action_mask)
        if len(legal) == 0:
            raise ValueError(f"{info_set.game.name}: no legal action for player {info_set.player}")
        return int(legal[rng.integers(len(legal))])
