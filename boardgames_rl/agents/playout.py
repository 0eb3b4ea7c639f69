"""Playouts on a determinization, shared by the search agents (ISMCTS, rollout improvement).

:func:`agent_policy` turns an agent into ``policy(state, rng) -> action`` for a sampled state:
through the agent's ``act_on_state(state, rng)`` when it has one (the promise: the move ``act``
would choose on ``state.info_set(state.current_player)``, the same draws from ``rng``; Night of
the Ninja's heuristic), else through :func:`~boardgames_rl.core.agent.agent_view` (a mask-only
view when the agent declares ``needs_info_set = False``, else its info set in that state).

:func:`play_out` plays a state on to the end, or to a cut-off scored by an evaluation.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boardgames_rl.core.agent import Agent, agent_view
from boardgames_rl.core.draws import draws_for
from boardgames_rl.core.game import State, apply_legal, legal_list

Policy = Callable[[State, np.random.Generator], int]
"""``policy(state, rng) -> action``: a legal action of ``state`` for its player on move."""

Evaluate = Callable[[State], np.ndarray]
"""``evaluate(state) -> float array of per-seat values in [-1, 1]`` (the returns if terminal)."""


def agent_policy(agent: Agent) -> Policy:
    """``agent`` as a policy over (sampled) states (see the module docstring)."""
    on_state = getattr(agent, "act_on_state", None)
    if on_state is not None:
        return on_state

    def through_view(state: State, rng: np.random.Generator) -> int:
        return agent.act(agent_view(agent, state, state.current_player), rng)

    return through_view


def play_out(
    state: State,
    policy: Policy | None,
    rng: np.random.Generator,
    depth: int | None = None,
    evaluate: Evaluate | None = None,
    epsilon: float = 0.0,
) -> np.ndarray:
    """Play on from ``state`` (a determinization the caller owns; it is changed) and return the
    per-seat values: the returns at the end, or after ``depth`` actions ``evaluate(state)`` (0
    for everyone without one). ``policy`` is asked only at decisions with two or more legal
    actions and not at an ``epsilon`` move (a uniformly random legal action; ``policy=None``:
    always uniform). A policy's action is checked, cheap beside it: a faulty one fails here."""
    steps = 0
    draws = draws_for(rng)  # rng.integers's and rng.random's draws, without their per-call costs
    while not state.is_terminal():
        if depth is not None and steps >= depth:
            if evaluate is None:
                return np.zeros(state.game.num_players)
            return evaluate(state)
        legal = legal_list(state)
        if len(legal) == 1:
            action = legal[0]
        elif policy is None or (epsilon > 0 and draws.uniform() < epsilon):
            action = legal[draws.below(len(legal))]
        else:
            chosen = policy(state, rng)
            if type(chosen) is int and chosen in legal:
                action = chosen
            else:  # an int of another type, or a wrong action: refused as State.apply would
                action = state.validate_action(chosen)
        apply_legal(state, action)
        steps += 1
    return state.returns()
