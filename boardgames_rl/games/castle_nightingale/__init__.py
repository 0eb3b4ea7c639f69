"""Castle Nightingale: a 2-player hidden-movement duel, ninja against samurai.

See ``docs/rules/castle_nightingale.md`` for every rule, interpretation and the test checking it.
"""

from boardgames_rl.core.registry import GameEntry, register_game
from boardgames_rl.games.castle_nightingale.game import CastleNightingale

register_game(
    GameEntry(
        name=CastleNightingale.name,
        factory=CastleNightingale,
        test_configs=({}, {"side": "B", "max_turns": 30}),
        summary="2 players, hidden movement: the ninja steals relics, the samurai hunts",
    )
)

__all__ = ["CastleNightingale"]
