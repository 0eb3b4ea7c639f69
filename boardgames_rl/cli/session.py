"""One game driven seat by seat by deciders (agents or a person), recorded so it replays.

The seeds are derived as in :func:`boardgames_rl.arena.play_game`: ``SeedSequence(seed)`` spawns
the state seed and one generator per seat. The record keeps ``state_seed`` and every action, the
fields :func:`boardgames_rl.arena.replay` needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.agents.registry import spec_for_file
from boardgames_rl.core.agent import agent_view
from boardgames_rl.core.files import append_text
from boardgames_rl.core.game import Game, State

Decider = Callable[[State, int, np.random.Generator], int]
"""``decider(state, seat, rng) -> action``; a person's decider must only *show* the state from
its seat (``state.render(seat)``) and its legal actions, never hand the true state on."""


class QuitGame(Exception):
    """Raised by a decider to abandon the game (the person typed ``quit`` or closed stdin)."""


@dataclass
class Session:
    """A game in progress or finished, with what is needed to replay it."""

    game: Game
    seed: int
    state_seed: int
    who: list[str]
    state: State
    actions: list[int] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """JSON-safe dict of the fields of :class:`boardgames_rl.arena.GameRecord` (agent specs
        as files store them: without ``trust``)."""
        return {
            "game": self.game.name,
            "config": self.game.config,
            "agents": [spec_for_file(w) for w in self.who],
            "seed": self.seed,
            "state_seed": self.state_seed,
            "seats": list(range(self.game.num_players)),
            "returns": self.state.returns().tolist(),
            "length": len(self.actions),
            "truncated": bool(self.state.truncated),
            "actions": list(self.actions),
        }

    def save(self, path: str | Path) -> Path:
        """Append the record as one JSON line to ``path`` (made with its folders if needed).

        Raises:
            UnsafeFileError: ``path`` is a symbolic link or not a regular file (never followed:
                :func:`~boardgames_rl.core.files.append_text`).
        """
        path = Path(path)
        from boardgames_rl.arena import GameRecord

        line = GameRecord.from_dict(self.record()).to_json()
        append_text(path, line + "\n", root=path.parent)
        return path


def run_session(
    game: Game,
    deciders: Sequence[Decider],
    who: Sequence[str],
    seed: int,
    before_action: Callable[[State, int, int], None] | None = None,
    after_action: Callable[[State, int, int], None] | None = None,
) -> Session:
    """Play one game; ``before_action(state, seat, action)`` sees each action *before* it is
    applied (so ``state.action_name(action)`` names it in its context), ``after_action(state,
    seat, action)`` the state once it is applied.

    Raises:
        QuitGame: from a decider; the partial session is attached as ``err.session``.
    """
    seeds = np.random.SeedSequence(seed).spawn(game.num_players + 1)
    rngs = [np.random.default_rng(s) for s in seeds[1:]]
    state_seed = int(seeds[0].generate_state(1, np.uint64)[0] >> np.uint64(1))
    session = Session(game, seed, state_seed, list(who), game.new_state(state_seed))
    state = session.state
    while not state.is_terminal():
        p = state.current_player
        try:
            action = deciders[p](state, p, rngs[p])
        except QuitGame as e:
            e.session = session  # type: ignore[attr-defined]
            raise
        if before_action is not None:
            before_action(state, p, action)
        state.apply(action)
        session.actions.append(action)
        if after_action is not None:
            after_action(state, p, action)
    return session


def agent_decider(agent: Any) -> Decider:
    """A decider from an :class:`~boardgames_rl.agents.Agent`: it sees only its info set."""
    agent.reset()

    def decide(state: State, seat: int, rng: np.random.Generator) -> int:
        return int(agent.act(agent_view(agent, state, seat), rng))

    return decide
