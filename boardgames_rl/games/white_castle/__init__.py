"""The White Castle: 2-4 players, dice drafting from bridges, castle rooms and clan members.

See ``docs/rules/white_castle.md`` and ``NOTES.md`` in this folder for the rules and readings.
"""

from boardgames_rl.core.registry import GameEntry, register_game
from boardgames_rl.games.white_castle.game import WhiteCastle

register_game(
    GameEntry(
        name=WhiteCastle.name,
        factory=WhiteCastle,
        test_configs=(
            {"num_players": 2},
            {"num_players": 3},
            {"num_players": 4},
            {"num_players": 2, "well_one_pays_tiles": False},
        ),
        summary="2-4 players, dice drafting worker placement in Himeji castle",
    )
)

__all__ = ["WhiteCastle"]
