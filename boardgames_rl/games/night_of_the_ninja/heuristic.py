"""The heuristic Night of the Ninja agent and ``evaluate`` (tests and experiments import them
from here); the code is in :mod:`boardgames_rl.games.night_of_the_ninja.ai`."""

from boardgames_rl.games.night_of_the_ninja.ai import NightOfTheNinjaHeuristic, View, evaluate

__all__ = ["NightOfTheNinjaHeuristic", "View", "evaluate"]
