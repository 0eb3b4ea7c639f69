"""Exceptions raised by every game engine and adapter.

All of them derive from :class:`GameError`, so callers can catch one type. Every error is
raised *before* any state is touched: the state is unchanged after the exception.
"""

from __future__ import annotations

from boardgames_rl._util.extras import MissingExtraError as MissingExtraError


class GameError(Exception):
    """Base class of every error raised by boardgames_rl engines and adapters."""


class IllegalActionError(GameError, ValueError):
    """The action is well formed but not legal in the current state (its mask entry is 0)."""


class MalformedActionError(GameError, TypeError):
    """The value given as an action is not an integer in ``range(num_actions)``."""


class WrongPlayerError(GameError, ValueError):
    """A player tried to act when it is not their decision."""


class GameOverError(GameError, RuntimeError):
    """An action was applied to a terminal state."""


class InvalidConfigError(GameError, ValueError):
    """A game configuration value is out of range or inconsistent."""


class UnknownAgentError(InvalidConfigError):
    """An agent spec names no registered agent; the message lists the game's known agents."""


class InvalidStateError(GameError, ValueError):
    """A state dict given to :func:`boardgames_rl.load_state <boardgames_rl.registry.load_state>`
    is malformed or inconsistent with its game: wrong types, lengths or index ranges, unknown or
    missing fields, or a state that breaks the rules."""


class InvalidPlayerError(GameError, ValueError):
    """A seat number is not an int in ``range(num_players)`` (e.g. ``observation(-1)``)."""
