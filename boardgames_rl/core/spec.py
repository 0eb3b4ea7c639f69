"""``GameSpec``: what a game declares so that every adapter, agent and tool can use it.

A game package builds one ``SPEC = GameSpec(...)`` in its ``__init__.py``, naming its hooks as
explicit references (no module is ever found by building its name from a string), and
:func:`boardgames_rl.registry.register_game` adds it to the registry. A game written outside this
package does the same and gets every adapter, agent, tournament and CLI command.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.game import Game, State

Evaluate = Callable[[State], np.ndarray]
"""``evaluate(state) -> float array of per-seat values in [-1, 1]`` (the returns if terminal)."""

Potential = Callable[[State], np.ndarray]
"""``potential(state) -> float array of per-seat progress`` (for potential-based shaping)."""


@dataclass(frozen=True)
class GameSpec:
    """One game's declaration.

    Attributes:
        name: registry name (the game class's ``name``).
        game: ``game(**config) -> Game``, usually the Game subclass itself.
        heuristic: ``heuristic(**options) -> Agent``: the game's hand-written agent (the
            ``heuristic`` agent spec), or ``None``.
        evaluate: per-seat state values in [-1, 1], used by ISMCTS at its rollout cut-off, or
            ``None`` (rollouts then play to the end).
        potential: per-seat progress for potential-based reward shaping, or ``None``.
        test_configs: configurations the conformance suite runs (each a kwargs dict).
        summary: one-line description for ``boardgames-rl list``.
        state_checks: ``state_checks(game, inner) -> str | None``: the game's consistency checks
            of an untrusted inner state dict (ids in range, per-player lengths, conserved decks),
            a one-line message naming the broken field or ``None`` (written with
            ``boardgames_rl.core.dict_checks``); :func:`boardgames_rl.load_state
            <boardgames_rl.registry.load_state>` runs them for a registered game
            (``boardgames_rl.state_checks``). Or ``None``.
        rules_help: ``rules_help(state, player) -> str``: for a person at ``player``'s seat, the
            rules summary of the pending decision and the text of the cards or tiles it involves,
            in words (``?`` in ``boardgames-rl play``); it may only use what that seat can see.
            Or ``None`` (``?`` then explains only how to answer).
        public_action_name: ``public_action_name(state, action, viewer) -> str``: what seat
            ``viewer`` learns when the player to move plays ``action`` in ``state`` (before it is
            applied): the action's name where it is public, else words naming only what is seen
            (``boardgames-rl play`` tells a person the other players' moves with it). Or ``None``
            (another player's move is then named only in games whose actions are all public).
        agents: the game's own agents by spec name, beside the ones every game has:
            ``agents[name](game, **options) -> Agent`` (e.g. Castle Flutterstone's ``solver``).
    """

    name: str
    game: Callable[..., Game]
    heuristic: Callable[..., Agent] | None = None
    evaluate: Evaluate | None = None
    potential: Potential | None = None
    test_configs: tuple[dict[str, Any], ...] = field(default_factory=lambda: ({},))
    summary: str = ""
    state_checks: Callable[[Game, dict], str | None] | None = None
    rules_help: Callable[[State, int], str] | None = None
    public_action_name: Callable[[State, int, int], str] | None = None
    agents: dict[str, Callable[..., Agent]] = field(default_factory=dict)
