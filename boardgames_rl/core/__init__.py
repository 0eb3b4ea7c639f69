"""The contract every game implements and the adapters written once against it."""

from boardgames_rl.core.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidConfigError,
    MalformedActionError,
    WrongPlayerError,
)
from boardgames_rl.core.game import TERMINAL, Game, InfoSet, State
from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.core.registry import GameEntry, game_entry, list_games, make_game, register_game

__all__ = [
    "TERMINAL",
    "Field",
    "Game",
    "GameEntry",
    "GameError",
    "GameOverError",
    "IllegalActionError",
    "InfoSet",
    "InvalidConfigError",
    "MalformedActionError",
    "ObservationSpec",
    "State",
    "WrongPlayerError",
    "game_entry",
    "list_games",
    "make_game",
    "register_game",
]
