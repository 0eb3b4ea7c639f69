"""The heuristic Castle Nightingale agent and ``evaluate`` (the agent registry and ISMCTS import
them from here); the code is in :mod:`boardgames_rl.games.castle_nightingale.ai`."""

from boardgames_rl.games.castle_nightingale.ai import CastleNightingaleHeuristic, evaluate
from boardgames_rl.games.castle_nightingale.renamed import renamed

__all__ = ["CastleNightingaleHeuristic", "evaluate"]

__getattr__ = renamed(__name__, globals())
