"""Night of the Ninja: 4-11 players, two secret Houses, a Ninja-card draft and a deadly Night.

Each round, every player is dealt a secret House card (the Lotus and the Crane, a lone Ronin
at odd counts) and drafts Ninja cards passed from hand to hand; then comes the Night: the Ninja
cards played face down resolve by number, to spy on a House card, swap Houses, steal Honor and
kill. When the Night is over the Houses are revealed, and the living players of the winning
House (or the Ronin) draw Honor tokens. The first player with ``target_score`` Honor points at
the end of a round wins. See the module docstrings of ``state.py`` (decision kinds),
``observation.py`` (information model) and ``infoset.py`` (sampling) for every rule,
interpretation and information choice, and ``docs/rules/night_of_the_ninja.md`` for the rules
with their tests.

Usage::

    import pettingzoo

    from boardgames_rl import make_game

    game = make_game("night_of_the_ninja", num_players=5)
    state = game.new_state(seed=0)
    print(state.render(0))  # the text table as player_0 sees it
    state.apply(int(state.legal_actions()[0]))

    # the AEC env: see boardgames_rl.envs
    env = pettingzoo.make("aec", "boardgames_rl/night_of_the_ninja-v0", num_players=5)

Players
    4-11 (``num_players``, default 5), seats ``player_0`` ..; each decision belongs to one
    player (the draft asks everyone in turn, one pick at a time).

Config (keyword arguments; ``NightOfTheNinja`` checks them)
    ``num_players``; ``mode`` "game" (rounds until ``target_score``, 10) or "round" (one round);
    ``max_rounds`` safety cap (40). Flags for readings the rulebook leaves open:
    ``living_targets_only`` (default ``False``: the cards that do not KILL may name dead players)
    and ``target_learns_look`` (default ``True``: a Mystic's / Spirit Merchant's target learns
    which Ninja card / Honor token was looked at).

Actions (the same space at every player count, sized for the largest table)
    A Ninja card (pick or keep in the draft, play, take with the Grave Digger, reveal as a
    react), a player (the target of a card, the player named by the Shapeshifter, the Thief's
    victim; the seats beyond the table are never legal), ``done`` (no / pass / spare / keep),
    ``yes`` (swap, play now, reveal, kill), the Spirit Merchant's ``look at house`` / ``look at
    honor token`` and ``give 2`` .. ``give 4``. The table of ids: ``actions`` module docstring.

Observation (``float32``, ``game.observation_spec``)
    Public facts (round, stage, the pending decision and the resolving card, who is alive and
    what killed the dead, every played card with owner and targets, revealed Houses, token
    counts, the round's result) and the observer's own knowledge (its House card as dealt, hand,
    draft, every House card and Ninja card it saw, the values of the tokens it knows).
    Seat-relative: row 0 is the observer, row 1 its left neighbour.

Hidden information
    The House cards (each player knows only the one dealt to it, and a swap done to it stays
    invisible until its card is revealed), the Ninja cards in the other hands and played face
    down, the values of Honor tokens not seen. ``infoset`` deals a consistent world again
    (Houses weighted by the Shapeshifter-swap hypotheses, Ninja cards respecting the draft).

Chance
    The deal of each round (House cards and Ninja cards), the Honor tokens' values (shuffled at
    the start), and every pick from cards or tokens a player cannot choose among: the Ninja
    card a Mystic sees, the Honor token a Spirit Merchant looks at or a Thief takes, the discards
    the Grave Digger sees.

Rewards (at the end only)
    Mode "game": +1 for every player sharing the highest final score, -1 for the others (0 for
    everyone after a truncation at ``max_rounds``). Mode "round": +1 for each player who gained
    Honor points this round, -1 for the others (all 0 if nobody did). ``honor_shaping`` is an
    optional dense reward.

Version history (the env id stays ``night_of_the_ninja-v0``)
    * 2026-12 (issue 44, fifth step): the shipped heuristic's rollouts (ISMCTS ``rollout=fast``)
      run its rules on ``ai.rollout.RULES``, a compiled object of the rule classes, instead of on
      the agent (an interpreted subclass, on which every call from one rule to another looked
      the method up in Python first); ``decide(view, legal, rng, rules=None)`` takes the object
      the rules run on, and a subclass's rollouts run on the subclass. ``ai.value``'s functions
      take a ``NightOfTheNinjaState`` (anything else refused in one line, a ``TypeError``).
      Games, observations, heuristic decisions and searches are unchanged.
    * 2026-12 (issue 44, fourth step): ``infoset.PlayerView``, its parts (``Decision``,
      ``HouseFact``, ``ShapeshifterNaming``, ``GraveDiggerSight``, ``MerchantVisit``) and
      ``HouseHypothesis`` are records (``core.record.Record``) instead of named tuples: the same
      attributes, equal by value, compiled as native classes. They are no longer tuples (no
      unpacking or indexing) nor hashable; mypy refuses a write, the compiled build refuses one at
      run time, the pure build does not check. Games, observations, heuristic decisions and
      searches are unchanged.
    * 2026-12 (issue 44, third step): an information set's deal draws with ``core.draws``
      instead of ``rng.integers`` (the same draws); its knowledge is kept packed as values only.
      Games, observations, heuristic decisions and searches are unchanged.
    * 2026-12 (issue 44): the heuristic's rules (``ai/``, all but the agent class) compile with the
      engine; ``infoset.PlayerView`` and ``HouseHypothesis`` are named tuples (read-only as before:
      a write raises ``AttributeError``); ``infoset.player_view(state, me)`` reads a state (an info
      set's ``known_state()`` or a sampled state), replacing ``player_view(facts, me, game)`` and
      ``ai.rollout.player_facts``; ``legal.legal_list`` lists the legal actions without a mask for
      search loops. Games, observations, heuristic decisions and searches are unchanged.
    * 2026-12 (issue 41): the same shape inside as every game. mypy checks this package; the
      scenario builder is ``scenario.build(game=None, *, seed=0, **fields)`` (its ``FIELDS``
      documented, an unknown one refused, the state checks run); the heuristic reads a typed, frozen
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
      ``target_learns_look``); the observation gains ``sm_token_seen`` (3), ``mystic_saw_yours`` (n
      x 33), ``game_went_on`` (1) and ``checked_tokens`` (n): 34n + 4 more values (5 players: 1,408
      -> 1,582). Policies trained on the earlier observation do not load.
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
"""Night of the Ninja's declaration for the registry (``boardgames_rl.registry``): the game
class, its heuristic, value and shaping functions, test configurations and one-line summary.

:meta hide-value:
"""

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
