"""The tree of single-observer ISMCTS: its nodes, one iteration, and UCB1 with availability counts.

:class:`~boardgames_rl.agents.ismcts.ISMCTSAgent` holds the options and draws the
determinizations; this module is the part it runs hundreds of times per decision, kept apart so
that it compiles with the engines (``setup.py``). What one iteration does, on a determinization
the caller owns:

1. **selection**: from the root, among the children whose action is legal in this
   determinization (each counted *available* once more), the one maximising
   ``mean + c * sqrt(log(available) / (visits + 1))``;
2. **expansion**: at the first node with an untried legal action, one of them (``first`` if it is
   among them, else uniformly drawn) becomes a child, and the iteration goes no deeper;
3. **playout**: ``playout(state, rng)`` gives every seat's value of the state reached;
4. **backup**: every node on the path adds one visit and the value of the player who chose it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from boardgames_rl.core.draws import draws_for
from boardgames_rl.core.game import State, apply_legal, legal_list

Playout = Callable[[State, np.random.Generator], np.ndarray]
"""``playout(state, rng) -> per-seat values`` of the state an iteration reached (it may change
the state: the determinization is the iteration's own)."""


class Node:
    """One action sequence from the root.

    Attributes:
        player: the seat that chose the action leading here (-1 at the root).
        visits: iterations that passed through this node.
        available: iterations in which its action was legal when its parent was reached.
        total: the sum of ``player`` 's values over those visits.
        slots: the child of every action tried from here, by action id (``None`` for an action
            not tried), sized at the first iteration that passes through: the loops over the
            legal actions index it (no boxed-int dictionary lookups).
    """

    def __init__(self, player: int = -1, available: int = 0) -> None:
        self.player = player
        self.visits = 0
        self.available = available
        self.total = 0.0
        self.slots: list[Node | None] = []

    @property
    def children(self) -> dict[int, Node]:
        """The child of every action tried from here, by action (ascending)."""
        return {a: child for a, child in enumerate(self.slots) if child is not None}


def iterate(
    root: Node,
    state: State,
    rng: np.random.Generator,
    first: int,
    c: float,
    playout: Playout,
) -> None:
    """One ISMCTS iteration from ``root`` on the determinization ``state`` (see the module
    docstring); ``first`` is the action to expand first at the root (-1: none)."""
    path = [root]
    node = root
    while not state.is_terminal():
        legal = legal_list(state)  # ascending ints
        slots = node.slots
        if not slots:
            slots = node.slots = [None] * state.game.num_actions
        untried: list[int] = []
        first_untried = False  # ``first in untried``, noted here rather than searched for
        for a in legal:
            child = slots[a]
            if child is None:
                untried.append(a)
                if a == first:
                    first_untried = True
            else:
                child.available += 1
        if untried:
            action = first if first_untried else untried[draws_for(rng).below(len(untried))]
            child = Node(state.current_player, 1)
            slots[action] = child
            apply_legal(state, action)
            path.append(child)
            break
        action = select(node, legal, c)
        apply_legal(state, action)
        picked = slots[action]
        assert picked is not None
        node = picked
        path.append(node)
    values = playout(state, rng)
    for n in path[1:]:
        n.visits += 1
        n.total += float(values[n.player])


def select(node: Node, legal: list[int], c: float) -> int:
    """The legal child maximising UCB1 with availability counts (the first on ties)."""
    best, best_value = -1, -math.inf
    slots = node.slots
    for a in legal:
        child = slots[a]
        assert child is not None  # every legal action was tried before selection
        visits = child.visits
        mean = child.total / visits if visits else 0.0
        value = mean + c * math.sqrt(math.log(max(child.available, 1)) / (visits + 1))
        if value > best_value:
            best, best_value = a, value
    return best
