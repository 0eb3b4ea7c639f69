"""The agent interface: an agent sees an :class:`~boardgames_rl.core.game.InfoSet`, never a
State; and the uniform random agent every adapter can use without the agents package.

Agents declare what they read. An agent whose ``needs_info_set`` is False reads only the public
header of its info set (``game``, ``player``, ``current_player``) and ``legal_action_mask``;
:func:`agent_view` then gives it a :class:`MaskInfoSet` built from the state's cached mask instead
of ``state.info_set(player)`` (which encodes the observation and, in some games, copies the
player's knowledge). Environments and matches call :func:`agent_view` for every opponent move, so
a random opponent costs a mask, not an info set. The choice an agent makes is the same either way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, NoReturn

import numpy as np

from boardgames_rl.core.game import Game, InfoSet, State


class Agent(ABC):
    """Chooses actions from what its player knows.

    ``act`` must return a legal action (an index where ``info_set.legal_action_mask`` is True) and
    draw any randomness from ``rng`` only, so that a seeded match is reproducible.

    ``needs_info_set`` (class attribute, default True): False declares that ``act`` reads only
    ``game``, ``player``, ``current_player`` and ``legal_action_mask`` (see
    :func:`~boardgames_rl.core.agent.agent_view`).

    ``memoryless`` (class attribute, default False): True declares that ``act`` depends on its
    arguments alone and ``reset`` clears nothing, so an env may play the agent's moves of the next
    game while the current one still runs (see :func:`~boardgames_rl.core.agent.is_memoryless`).
    """

    name: str = "agent"
    needs_info_set: ClassVar[bool] = True
    memoryless: ClassVar[bool] = False

    @abstractmethod
    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        """The action to play."""

    def reset(self) -> None:  # noqa: B027 - optional hook
        """Called at the start of every game (agents with memory clear it here)."""

    def seats_played(self, num_players: int) -> list[int]:
        """The seats this agent can play at a table of ``num_players`` (every seat, unless it
        was built for some only, as a pretrained entry for one role)."""
        return list(range(num_players))

    def files_digest(self) -> str | None:
        """What identifies the files this agent's play depends on (e.g. the shipped weights of
        ``pretrained``), or None when its play depends on its spec string alone. A tournament
        stores it, so that games played with other files are never resumed as its own."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class MaskInfoSet(InfoSet):
    """The part of an info set a mask-only agent reads: the public header and the legal-action
    mask. ``observation`` and ``sample`` are not built; touching them raises ``AttributeError``
    naming the agent contract (an agent that reads them must keep ``needs_info_set = True``)."""

    def __init__(self, game: Game, player: int, current_player: int, mask: np.ndarray):
        self.game = game
        self.player = player
        self.current_player = current_player
        self.legal_action_mask = mask

    @property
    def observation(self) -> NoReturn:  # type: ignore[override]
        raise AttributeError(self._refusal("observation"))

    def fields(self) -> NoReturn:
        raise AttributeError(self._refusal("fields()"))

    def sample(self, rng: np.random.Generator) -> NoReturn:
        raise AttributeError(self._refusal("sample()"))

    def _refusal(self, what: str) -> str:
        return (
            f"{self.game.name}: MaskInfoSet has no {what}: it is given to agents whose "
            "needs_info_set is False; an agent that reads it must declare needs_info_set = True"
        )


def is_memoryless(agent: Agent) -> bool:
    """Whether ``agent``'s class itself declares ``memoryless = True``. The declaration is not
    inherited: a subclass may add memory, so it must declare it again."""
    return type(agent).__dict__.get("memoryless", False) is True


def agent_view(agent: Agent, state: State, player: int) -> InfoSet:
    """What ``agent`` is given for ``player``'s move: ``state.info_set(player)``, or a
    ``MaskInfoSet`` when the agent declares ``needs_info_set = False``."""
    if agent.needs_info_set:
        return state.info_set(player)
    return MaskInfoSet(
        state.game, player, state.current_player, state.legal_action_mask_for(player)
    )


class RandomAgent(Agent):
    """Plays a legal action chosen uniformly at random (reads only the mask)."""

    name = "random"
    needs_info_set = False
    memoryless = True

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        legal = info_set.legal_actions()
        if len(legal) == 0:
            raise ValueError(f"{info_set.game.name}: no legal action for player {info_set.player}")
        return int(legal[rng.integers(len(legal))])
