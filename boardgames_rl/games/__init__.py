"""One package per game. Importing this module registers every game."""

from boardgames_rl.games import castle_flutterstone, castle_nightingale  # noqa: F401
