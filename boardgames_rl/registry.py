"""The game registry: name -> :class:`~boardgames_rl.core.spec.GameSpec`, the one table that finds
a game by name (for :func:`make_game`, the agents, the CLI and :func:`load_state`).

The four built-in games are registered when this module is imported (their specs are listed
explicitly in ``boardgames_rl.games``); :func:`register_game` adds a game defined anywhere::

    from boardgames_rl import make_game
    from boardgames_rl.core.spec import GameSpec
    from boardgames_rl.registry import register_game
    from boardgames_rl.testing.toy_game import ToyGame  # stands for your Game subclass

    register_game(GameSpec(name="toy_bluff", game=ToyGame, summary="a toy bluffing game"))
    game = make_game("toy_bluff", num_players=3)

The spec's name is the game class's ``name``; ``heuristic=`` adds the game's hand-written agent
(see :class:`~boardgames_rl.core.GameSpec` for every field).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from boardgames_rl import games
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, State
from boardgames_rl.core.spec import GameSpec
from boardgames_rl.state_checks import checked_state

__all__ = ["GameSpec", "game_spec", "list_games", "load_state", "make_game", "register_game"]

_GAMES: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> None:
    """Add a game to the registry (the name must be new)."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register_game takes a GameSpec, got {type(spec).__name__}")
    if spec.name in _GAMES:
        raise ValueError(f"game {spec.name!r} is already registered")
    _GAMES[spec.name] = spec


def list_games() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_GAMES)


def game_spec(name: str) -> GameSpec:
    """The spec of game ``name`` (``-`` and ``_`` are interchangeable)."""
    key = name.replace("-", "_") if isinstance(name, str) else name
    if key not in _GAMES:
        raise InvalidConfigError(
            f"unknown game {name!r}; registered games: {', '.join(sorted(_GAMES))}"
        )
    return _GAMES[key]


def make_game(name: str, **config: Any) -> Game:
    """Build a configured game by name, e.g. ``make_game("castle_flutterstone", num_players=3)``."""
    return game_spec(name).game(**config)


def load_state(d: Mapping[str, Any]) -> State:
    """Rebuild a state of any registered game from :meth:`State.to_dict
    <boardgames_rl.core.State.to_dict>` output, checked first.

    The one checked path for a state dict: the dict is untrusted input, so its types, lengths,
    index ranges and consistency with the game (the game's ``GameSpec.state_checks``) are checked
    (``boardgames_rl.state_checks``) and a state that loads plays by the rules.

    Raises:
        InvalidStateError: anything wrong with the dict (one line naming the field).
    """
    return checked_state(d, MappingProxyType(_GAMES))


for _spec in games.BUILTIN_SPECS:
    register_game(_spec)
