"""One package per game, each declaring its ``SPEC``; the registry registers these."""

from boardgames_rl.games import (
    castle_flutterstone,
    castle_nightingale,
    night_of_the_ninja,
    white_castle,
)

BUILTIN_SPECS = (
    castle_flutterstone.SPEC,
    castle_nightingale.SPEC,
    night_of_the_ninja.SPEC,
    white_castle.SPEC,
)
"""The built-in games' specs, in registry order."""
