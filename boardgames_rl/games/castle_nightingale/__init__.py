"""Castle Nightingale: a 2-player hidden-movement duel, ninja against samurai.

See ``docs/rules/castle_nightingale.md`` for every rule, interpretation and the test checking it.
"""

from boardgames_rl.core.spec import GameSpec
from boardgames_rl.games.castle_nightingale import state_checks
from boardgames_rl.games.castle_nightingale.game import CastleNightingale
from boardgames_rl.games.castle_nightingale.heuristic import NightingaleHeuristic, evaluate
from boardgames_rl.games.castle_nightingale.naming import public_name, rules_help
from boardgames_rl.games.castle_nightingale.shaping import potential

SPEC = GameSpec(
    state_checks=state_checks.problems,
    name=CastleNightingale.name,
    game=CastleNightingale,
    test_configs=(
        {},
        {"side": "B", "max_turns": 30},
        {  # every variant flag at once (data sheet G4, G6, 2.4)
            "side": "B",
            "max_turns": 30,
            "keep_last_disc": True,
            "lockdown_reopen": "one_per_board",
            "merge_zones_across_seams": True,
        },
    ),
    summary="2 players, hidden movement: the ninja steals relics, the samurai hunts",
    heuristic=NightingaleHeuristic,
    evaluate=evaluate,
    potential=potential,
    public_action_name=public_name,
    rules_help=rules_help,
)

__all__ = ["SPEC", "CastleNightingale"]
