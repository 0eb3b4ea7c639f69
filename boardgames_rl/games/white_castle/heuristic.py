"""The heuristic White Castle agent and ``evaluate`` (kept at this path for users who import
them from here); the code is in :mod:`boardgames_rl.games.white_castle.ai`."""

from boardgames_rl.games.white_castle.ai import WhiteCastleHeuristic, evaluate

__all__ = ["WhiteCastleHeuristic", "evaluate"]
