"""The heuristic Night of the Ninja agent and the state value function.

:class:`NightOfTheNinjaHeuristic` reads only its own information set: its typed
:class:`~boardgames_rl.games.night_of_the_ninja.infoset.PlayerView` (``info_set.view()``: what its
player knows, as attributes) and the legal action mask; the House-swap beliefs are the info set's
own (``infoset.house_hypotheses``, written once). In play it never sees a true state (search
rollouts may hand it a sampled one, see :mod:`.rollout`, of which it reads the same known
parts). Every decision kind has a rule, listed in the table
``NightOfTheNinjaHeuristic.DECISION_RULES``; the agent falls back to a random legal action only
if a rule returns something illegal (a safety net, counted in ``fallbacks``).

Modules, one job each:

* :mod:`.agent` -- the agent and its table of rules;
* :mod:`.beliefs` -- what its player believes about House cards, Ninja cards and tokens;
* :mod:`.view` -- scenarios drawn from the beliefs, the value of a scenario, kill gains;
* :mod:`.draft` -- card values (the draft, the Grave Digger's choice);
* :mod:`.night` -- which cards to play and on whom, the Shinobi's kill, the reacts;
* :mod:`.tricksters` -- the Tricksters' decisions;
* :mod:`.tables` -- component facts the modules share, the result of a round;
* :mod:`.value` -- the one value function behind ``evaluate`` (ISMCTS) and ``potential``
  (reward shaping);
* :mod:`.rollout` -- the heuristic in search rollouts: its moves read from a state's own fields
  (``act_on_state``, the same moves as ``act``) and the determinized rollout policy (ISMCTS
  ``rollout=fast``: the rules over the facts of a sampled state, for search only).
"""

from boardgames_rl.games.night_of_the_ninja.ai.agent import NightOfTheNinjaHeuristic
from boardgames_rl.games.night_of_the_ninja.ai.value import evaluate, honor_shaping, potential
from boardgames_rl.games.night_of_the_ninja.ai.view import View

__all__ = ["NightOfTheNinjaHeuristic", "View", "evaluate", "honor_shaping", "potential"]
