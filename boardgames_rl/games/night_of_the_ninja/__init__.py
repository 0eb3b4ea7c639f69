"""Night of the Ninja: 4-11 players, two secret Houses, a Ninja-card draft and a deadly Night.

See the module docstrings of ``state.py`` (decision kinds), ``observation.py`` (information
model) and ``infoset.py`` (sampling) for every rule, interpretation and information choice, and
``docs/rules/night_of_the_ninja.md`` for the rules with their tests.

Config flags for readings the rulebook leaves open (``NightOfTheNinja`` docstring):
``living_targets_only`` (default ``False``: the cards that do not KILL may name dead players) and
``target_learns_look`` (default ``True``: a Mystic's / Spirit Merchant's target learns which Ninja
card / Honor token was looked at).

Version history (the env id stays ``night_of_the_ninja-v0``):

* 2026-12 (issue 41): the same shape inside as every game. mypy checks this package; the scenario
  builder is ``scenario.build(game=None, *, seed=0, **fields)`` (its ``FIELDS`` documented, an
  unknown one refused, the state checks run); the heuristic reads a typed, frozen
  ``infoset.PlayerView`` (``info_set.view()``) instead of the engine's lists, and the House-swap
  beliefs are written once, ``infoset.house_hypotheses``, for the re-deal and the heuristic
  alike (``ai.View(facts, samples, rival_weight)`` takes the view). Games, observations and
  every agent's moves are unchanged (same seed, same game).
* 2026-12 (issue 40): ``events.EventLog`` tells one seat's events action by action (cards shown,
  what that seat's own cards saw, kills, the House Reveal with every living player's House card,
  the round's result, who drew Honor tokens, the end of each round and the final points);
  ``boardgames-rl play`` and ``replay`` print them, so a round's end played by the engine
  between two of a person's decisions is no longer lost. Games, observations and pictures are
  unchanged.
* 2026-12 (issue 12): the classes are renamed so that they no longer collide with Castle
  Nightingale's ninja role: ``NinjaState`` -> ``NightOfTheNinjaState`` (``state.py``),
  ``NinjaInfoSet`` -> ``NightOfTheNinjaInfoSet`` (``infoset.py``), ``NinjaHeuristic`` ->
  ``NightOfTheNinjaHeuristic`` (``ai/agent.py``). The old names stay importable from this
  package, with a ``DeprecationWarning``, for one release. The engine, legality, naming and
  heuristic reach their handlers through explicit tables (``STAGE_RUNNERS``,
  ``DECISION_HANDLERS``, ``legal.LEGAL_ACTIONS``, ``naming.NAMING``, ``DECISION_RULES``); games,
  observations and heuristic decisions are unchanged (same seed, same game).
* 2026-12 (issue 11): dead players are legal targets of the Spy, Mystic, Shapeshifter,
  Troublemaker, Spirit Merchant and Thief (flag ``living_targets_only``, the earlier reading);
  the Mystic's and the Spirit Merchant's target learns what was looked at (flag
  ``target_learns_look``); the observation gains ``sm_token_seen`` (3), ``mystic_saw_yours``
  (n x 33), ``game_went_on`` (1) and ``checked_tokens`` (n): 34n + 4 more values (5 players:
  1,408 -> 1,582). Policies trained on the earlier observation do not load.
"""

from __future__ import annotations

import warnings

from boardgames_rl.core.spec import GameSpec
from boardgames_rl.games.night_of_the_ninja import state_checks
from boardgames_rl.games.night_of_the_ninja.ai import (
    NightOfTheNinjaHeuristic,
    evaluate,
    honor_shaping,
    potential,
)
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.rules_help import rules_help

SPEC = GameSpec(
    state_checks=state_checks.problems,
    name=NightOfTheNinja.name,
    game=NightOfTheNinja,
    test_configs=(
        {"num_players": 4},
        {"num_players": 5},
        {"num_players": 7},
        {"num_players": 11},
        {"num_players": 6, "mode": "round"},
        {  # the earlier readings (config flags)
            "num_players": 5,
            "mode": "round",
            "living_targets_only": True,
            "target_learns_look": False,
        },
    ),
    summary="4-11 players, hidden Houses: draft Ninja cards, spy, trick and kill by night",
    heuristic=NightOfTheNinjaHeuristic,
    evaluate=evaluate,
    potential=potential,
    rules_help=rules_help,
)

_RENAMED = {
    "NinjaState": "NightOfTheNinjaState",
    "NinjaInfoSet": "NightOfTheNinjaInfoSet",
    "NinjaHeuristic": "NightOfTheNinjaHeuristic",
}
"""Old class name -> new name (issue 12); the old names go in the next release."""


def __getattr__(name: str):
    """The old class names (``_RENAMED``), given on first use with a ``DeprecationWarning``."""
    if name not in _RENAMED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"night_of_the_ninja.{name} is renamed {_RENAMED[name]}; the old name will be removed "
        "in the next release",
        DeprecationWarning,
        stacklevel=2,
    )
    if name == "NinjaState":
        from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

        return NightOfTheNinjaState
    if name == "NinjaInfoSet":
        from boardgames_rl.games.night_of_the_ninja.infoset import NightOfTheNinjaInfoSet

        return NightOfTheNinjaInfoSet
    return NightOfTheNinjaHeuristic


__all__ = ["SPEC", "NightOfTheNinja", "honor_shaping"]
