"""Castle Flutterstone: a 2–4 player dexterity race whose flick is a stochastic landing model.

See ``docs/rules/castle_flutterstone.md`` for every rule, interpretation and the test checking it.
"""

from boardgames_rl.core.registry import GameEntry, register_game
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstone
from boardgames_rl.games.castle_flutterstone.landing import (
    Effects,
    SkillProfile,
    Zone,
    landing_distribution,
    landing_table,
)
from boardgames_rl.games.castle_flutterstone.state import FlutterstoneInfoSet, FlutterstoneState

register_game(
    GameEntry(
        name=CastleFlutterstone.name,
        factory=CastleFlutterstone,
        test_configs=(
            {"num_players": 2},
            {"num_players": 3, "pesky_ghosts": True},
            {
                "num_players": 4,
                "pesky_ghosts": True,
                "skills": ["skilled", "average", "novice", "average"],
            },
            {
                "num_players": 4,
                "play_on": True,
                "pesky_ghosts": True,
                "aim_levels": 3,
                "force_levels": 5,
            },
        ),
        summary="2–4 players, dexterity race; flicks drawn from a physical landing model",
    )
)

__all__ = [
    "CastleFlutterstone",
    "Effects",
    "FlutterstoneInfoSet",
    "FlutterstoneState",
    "SkillProfile",
    "Zone",
    "landing_distribution",
    "landing_table",
]
