"""The heuristic Castle Flutterstone agent and ``evaluate`` (kept at this path for the users who
import them from here); the code is in :mod:`boardgames_rl.games.castle_flutterstone.ai`."""

from boardgames_rl.games.castle_flutterstone.ai import (
    CastleFlutterstoneHeuristic,
    FlutterstoneHeuristic,
    evaluate,
)

__all__ = ["CastleFlutterstoneHeuristic", "FlutterstoneHeuristic", "evaluate"]
