"""The heuristic agent: hands each decision to the ninja's or the samurai's policy."""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.games.castle_nightingale.ai.geometry import geo_for
from boardgames_rl.games.castle_nightingale.ai.ninja import NinjaPolicy
from boardgames_rl.games.castle_nightingale.ai.samurai import SamuraiPolicy
from boardgames_rl.games.castle_nightingale.data import NINJA
from boardgames_rl.games.castle_nightingale.renamed import renamed


class CastleNightingaleHeuristic(Agent):
    """Plays the ninja (seat 0) or the samurai (seat 1), whichever its info set is for."""

    name = "heuristic"

    def __init__(self):
        self.ninja = NinjaPolicy()
        self.samurai = SamuraiPolicy()
        self.fallbacks = 0

    def reset(self) -> None:
        self.ninja.reset()
        self.samurai.reset()

    def act(self, info_set, rng: np.random.Generator) -> int:
        legal = info_set.legal_action_mask
        policy = self.ninja if info_set.player == NINJA else self.samurai
        action = policy.act(info_set, geo_for(info_set), rng)
        if action is None or not legal[action]:
            self.fallbacks += 1
            options = np.flatnonzero(legal)
            action = int(options[rng.integers(len(options))])
        return int(action)


__getattr__ = renamed(__name__, globals())
