"""The heuristic White Castle agent and the state value function.

Modules, one job each:

* :mod:`.agent` -- :class:`WhiteCastleHeuristic`, greedy with a short look-ahead over its own
  decisions;
* :mod:`.lookahead` -- the cheap look-ahead copies of a state it searches;
* :mod:`.value` -- the one value function behind the agent's leaves, ``evaluate`` (ISMCTS) and
  ``potential`` (reward shaping).
"""

from boardgames_rl.games.white_castle.ai.agent import WhiteCastleHeuristic
from boardgames_rl.games.white_castle.ai.value import evaluate, potential

__all__ = ["WhiteCastleHeuristic", "evaluate", "potential"]
