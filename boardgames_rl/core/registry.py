"""Registry of games: name -> factory, plus the configurations the conformance suite runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game


@dataclass(frozen=True)
class GameEntry:
    """One registered game.

    Attributes:
        name: registry name.
        factory: ``factory(**config) -> Game``.
        test_configs: configurations the conformance suite runs (each a kwargs dict).
        summary: one-line description for ``boardgames-rl list``.
    """

    name: str
    factory: Callable[..., Game]
    test_configs: tuple[dict[str, Any], ...] = field(default_factory=lambda: ({},))
    summary: str = ""


_GAMES: dict[str, GameEntry] = {}


def register_game(entry: GameEntry) -> None:
    """Add a game to the registry (the name must be new)."""
    if entry.name in _GAMES:
        raise ValueError(f"game {entry.name!r} is already registered")
    _GAMES[entry.name] = entry


def list_games() -> list[str]:
    """Registered game names, sorted."""
    _ensure_loaded()
    return sorted(_GAMES)


def game_entry(name: str) -> GameEntry:
    _ensure_loaded()
    key = name.replace("-", "_")
    if key not in _GAMES:
        raise InvalidConfigError(
            f"unknown game {name!r}; registered games: {', '.join(sorted(_GAMES))}"
        )
    return _GAMES[key]


def make_game(name: str, **config: Any) -> Game:
    """Build a configured game by name, e.g. ``make_game("castle_flutterstone", num_players=3)``."""
    return game_entry(name).factory(**config)


def _ensure_loaded() -> None:
    import boardgames_rl.games  # noqa: F401  (registers the games)
