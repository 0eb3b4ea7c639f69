"""boardgames-rl: faithful, fast, leak-free board-game environments for RL research.

Importing the package registers every game with PettingZoo's registry, so
``pettingzoo.make("aec", "boardgames_rl/castle_flutterstone-v0")`` works after
``import boardgames_rl``.
"""

# First: which build of the engines runs (compiled or pure Python; see boardgames_rl.compiled).
from boardgames_rl.compiled import build_info  # noqa: I001
import boardgames_rl.envs  # noqa: F401  (registers every game with PettingZoo)
from boardgames_rl.agents.registry import make_agent
from boardgames_rl.core import (
    Game,
    GameError,
    IllegalActionError,
    InfoSet,
    InvalidConfigError,
    ObservationSpec,
    State,
)
from boardgames_rl.core.agent import Agent
from boardgames_rl.registry import GameSpec, list_games, load_state, make_game, register_game

__version__ = "0.1.0"
"""The installed version of boardgames-rl."""

__all__ = [
    "Agent",
    "GameSpec",
    "Game",
    "GameError",
    "IllegalActionError",
    "InfoSet",
    "InvalidConfigError",
    "ObservationSpec",
    "State",
    "__version__",
    "build_info",
    "list_games",
    "load_state",
    "make_agent",
    "make_game",
    "register_game",
]
