"""The heuristic Castle Flutterstone agent and the state value function.

:class:`CastleFlutterstoneHeuristic` plays for best expected progress from the landing model;
it reads only its information set's typed public view
(:class:`~boardgames_rl.games.castle_flutterstone.infoset.CastleFlutterstoneView`, all of it
public at the table) and the legal mask; so does the ``solver`` agent.

Modules, one job each:

* :mod:`.agent` -- the agent and its ``HANDLERS`` table (one rule per decision kind);
* :mod:`.flicks` -- the info set read for :mod:`..flick_values` (what each flick is worth:
  landing tables x zone progress, public and shared with the text view's hints);
* :mod:`.cards` -- which helpful ghost to play or discard;
* :mod:`.value` -- the one value function behind ``evaluate`` (ISMCTS) and ``potential``
  (reward shaping);
* :mod:`.solver` -- the basic two-player race solved by value iteration (the chance of winning
  of every position of fields and helpful cards);
* :mod:`.race_agent` -- the ``solver`` agent spec: every decision by those chances.
"""

from boardgames_rl.games.castle_flutterstone.ai.agent import (
    CastleFlutterstoneHeuristic,
    FlutterstoneHeuristic,
)
from boardgames_rl.games.castle_flutterstone.ai.value import evaluate, potential

__all__ = ["CastleFlutterstoneHeuristic", "FlutterstoneHeuristic", "evaluate", "potential"]
