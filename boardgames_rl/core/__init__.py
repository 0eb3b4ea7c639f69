"""The contract every game implements (numpy only): Game, State, InfoSet, GameSpec, errors,
ObservationSpec, seeding, options. The registry is :mod:`boardgames_rl.registry`; the adapters are
in :mod:`boardgames_rl.envs`."""

from boardgames_rl.core.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidConfigError,
    InvalidPlayerError,
    InvalidStateError,
    MalformedActionError,
    MissingExtraError,
    WrongPlayerError,
)
from boardgames_rl.core.game import TERMINAL, Game, InfoSet, State
from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.core.spec import GameSpec

__all__ = [
    "TERMINAL",
    "Field",
    "Game",
    "GameSpec",
    "GameError",
    "GameOverError",
    "IllegalActionError",
    "InfoSet",
    "InvalidConfigError",
    "InvalidPlayerError",
    "InvalidStateError",
    "MalformedActionError",
    "MissingExtraError",
    "ObservationSpec",
    "State",
    "WrongPlayerError",
]
