"""Information-set Monte Carlo tree search, generic over every game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2), 2012): one tree over action sequences from the searching player's information
set. Each iteration

1. draws a fresh *determinization*: a full state sampled from the info set (``InfoSet.sample``),
   so the search never sees the true state;
2. descends the tree choosing, among the children whose action is legal in this determinization,
   the one maximising UCB1 with *availability counts* (a child's exploration term uses the number
   of times it was available, not the parent's visits);
3. expands one untried legal action, then plays a rollout (random, or any agent such as the
   game's heuristic) to the end or to ``rollout_depth`` actions;
4. backs up the per-player returns: each node keeps the mean return of the player who chose it
   (n-player games work unchanged).

Perfect-information games simply sample their hidden chance (deck order, the chance generator).
Budget by ``iterations`` or by ``seconds``; given its seed the agent is deterministic when the
budget is in iterations.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from boardgames_rl.agents.base import Agent
from boardgames_rl.core.game import InfoSet, State


@dataclass
class _Node:
    player: int = -1  # who chose the action leading here
    visits: int = 0
    available: int = 0
    total: float = 0.0
    children: dict[int, _Node] = field(default_factory=dict)


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS (see the module docstring).

    Args:
        iterations: determinizations per decision (ignored when ``seconds`` is set).
        seconds: time budget per decision instead of iterations.
        c: UCB1 exploration constant (returns lie in [-1, 1]).
        rollout: ``"random"`` or an Agent used to finish playouts.
        rollout_depth: stop a playout after this many actions and score it 0 for everyone
            (``None``: play to the end).
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 400,
        seconds: float | None = None,
        c: float = 1.4,
        rollout: str | Agent = "random",
        rollout_depth: int | None = None,
    ):
        if iterations < 1:
            raise ValueError(f"ismcts: iterations must be >= 1, got {iterations}")
        self.iterations = int(iterations)
        self.seconds = seconds
        self.c = float(c)
        self.rollout = rollout
        self.rollout_depth = rollout_depth

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(info_set.legal_action_mask)
        if len(legal) == 0:
            raise ValueError(f"{info_set.game.name}: no legal action for player {info_set.player}")
        if len(legal) == 1:
            return int(legal[0])
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if deadline is None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline and done > 0:
                break
            self._iterate(root, info_set.sample(rng), rng)
            done += 1
        best = max(
            (a for a in root.children if info_set.legal_action_mask[a]),
            key=lambda a: (root.children[a].visits, -a),
        )
        return int(best)

    # ------------------------------------------------------------------------------ one iteration
    def _iterate(self, root: _Node, state: State, rng: np.random.Generator) -> None:
        path = [root]
        node = root
        # selection
        while not state.is_terminal():
            legal = state.legal_actions()
            untried = [a for a in legal if int(a) not in node.children]
            for a in legal:
                child = node.children.get(int(a))
                if child is not None:
                    child.available += 1
            if untried:
                action = int(untried[rng.integers(len(untried))])
                child = _Node(player=state.current_player)
                node.children[action] = child
                state.apply(action)
                path.append(child)
                break
            action = self._select(node, legal)
            state.apply(action)
            node = node.children[action]
            path.append(node)
        returns = self._playout(state, rng)
        for n in path[1:]:
            n.visits += 1
            n.total += float(returns[n.player])

    def _select(self, node: _Node, legal: np.ndarray) -> int:
        best, best_value = -1, -math.inf
        for a in legal:
            child = node.children[int(a)]
            mean = child.total / child.visits if child.visits else 0.0
            explore = math.sqrt(math.log(max(child.available, 1)) / (child.visits + 1))
            value = mean + self.c * explore
            if value > best_value:
                best, best_value = int(a), value
        return best

    def _playout(self, state: State, rng: np.random.Generator) -> np.ndarray:
        steps = 0
        policy = None if self.rollout == "random" else self.rollout
        while not state.is_terminal():
            if self.rollout_depth is not None and steps >= self.rollout_depth:
                return np.zeros(state.game.num_players)
            if policy is None:
                legal = state.legal_actions()
                action = int(legal[rng.integers(len(legal))])
            else:
                p = state.current_player
                action = policy.act(state.info_set(p), rng)
            state.apply(action)
            steps += 1
        return state.returns()
