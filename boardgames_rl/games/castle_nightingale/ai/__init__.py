"""The heuristic Castle Nightingale agent (both roles) and the state value function.

:class:`CastleNightingaleHeuristic` hands the decision to :class:`~.ninja.NinjaPolicy` (seat 0) or
:class:`~.samurai.SamuraiPolicy` (seat 1); every decision kind has its own rule (their
``HANDLERS`` tables), none samples states. Only the info set is read: its typed ``view``
(:class:`~boardgames_rl.games.castle_nightingale.infoset.CastleNightingaleView`, whose hidden
parts are re-dealt, so the policies use only what their player knows: own cards and tokens,
public facts, the ninja's ``tile_in`` / ``tile_out``, vase contents marked in ``*_knows``) and the
legal action mask. The agent falls back to a random legal action only if a rule returns nothing
legal (a safety net: it never happened in the tests, see ``fallbacks``).

Modules, one job each:

* :mod:`.agent` -- the agent; :mod:`.ninja`, :mod:`.samurai` -- each role's decisions;
* :mod:`.paths` -- the ninja's path search; :mod:`.walks` -- the samurai's walk search;
* :mod:`.ninja_model` -- the ninja's beliefs (colour risks, capture chance), also the samurai's
  model of them; :mod:`.colours` -- the tile-choice models;
* :mod:`.knowledge` -- reading the view (starts, vase values, card moves); :mod:`.geometry` --
  board distances; :mod:`.tokens` -- what each equipment token is worth;
* :mod:`.value` -- the one value function behind ``evaluate`` (ISMCTS) and ``potential``
  (reward shaping).
"""

from boardgames_rl.games.castle_nightingale.ai.agent import CastleNightingaleHeuristic
from boardgames_rl.games.castle_nightingale.ai.value import evaluate, potential
from boardgames_rl.games.castle_nightingale.renamed import renamed

__all__ = ["CastleNightingaleHeuristic", "evaluate", "potential"]

__getattr__ = renamed(__name__, globals())
