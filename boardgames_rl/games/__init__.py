"""One package per game. Importing this module registers every game."""

from boardgames_rl.games import (  # noqa: F401
    castle_flutterstone,
    castle_nightingale,
    night_of_the_ninja,
    white_castle,
)
