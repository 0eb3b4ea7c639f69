"""The heuristic Castle Nightingale agent and ``evaluate`` (the agent registry and ISMCTS import
them from here); the code is in :mod:`boardgames_rl.games.castle_nightingale.ai`."""

from boardgames_rl.games.castle_nightingale.ai import NightingaleHeuristic, evaluate

__all__ = ["NightingaleHeuristic", "evaluate"]
