"""The agent interface: an agent sees an :class:`~boardgames_rl.core.game.InfoSet`, never a
State."""

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
