"""The agent interface: an agent sees an :class:`~boardgames_rl.core.game.InfoSet`, never a
State; and the uniform random agent every adapter can use without the agents package."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from boardgames_rl.core.game import InfoSet


class Agent(ABC):
    """Chooses actions from what its player knows.

    ``act`` must return a legal action (an index where ``info_set.legal_action_mask`` is True) and
    draw any randomness from ``rng`` only, so that a seeded match is reproducible.
    """

    name: str = "agent"

    @abstractmethod
    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        """The action to play."""

    def reset(self) -> None:  # noqa: B027 - optional hook
        """Called at the start of every game (agents with memory clear it here)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomAgent(Agent):
    """Plays a legal action chosen uniformly at random."""

    name = "random"

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(info_set.legal_action_mask)
        if len(legal) == 0:
            raise ValueError(f"{info_set.game.name}: no legal action for player {info_set.player}")
        return int(legal[rng.integers(len(legal))])
