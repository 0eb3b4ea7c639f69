"""PettingZoo glue: the ``env``/``raw_env`` module functions of every game and registration in
PettingZoo's registry.

Every registered game becomes ``boardgames_rl/<game>-v<version>``::

    import boardgames_rl
    import pettingzoo

    env = pettingzoo.make("aec", "boardgames_rl/castle_flutterstone-v0", num_players=3)

:func:`register_envs` runs when :mod:`boardgames_rl.envs` is imported; it is idempotent (no
"Overriding environment" warning on a second call); call it again after registering a game at run
time.

A game's env module (``boardgames_rl.envs.<game>_v<version>``) is three lines::

    from boardgames_rl.envs.pettingzoo import env_functions

    raw_env, env = env_functions("castle_flutterstone")

``raw_env(render_mode=None, reward_shaping=None, **config)`` is the bare
:class:`~boardgames_rl.envs.aec.GameAECEnv`; ``env(**kwargs)`` wraps it in PettingZoo's
``OrderEnforcingWrapper`` (no use before ``reset``). Unlike PettingZoo's classic environments it
adds neither ``TerminateIllegalWrapper`` nor ``AssertOutOfBoundsWrapper``: the game itself rejects
an illegal action with ``IllegalActionError`` and a malformed one (not an int in range) with
``MalformedActionError``, each naming the legal actions and leaving the env unchanged.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import pettingzoo
from pettingzoo import AECEnv

from boardgames_rl.core.game import Game
from boardgames_rl.envs.aec import GameAECEnv, GameOrderEnforcingWrapper, RewardShaping
from boardgames_rl.registry import game_spec, list_games, make_game

__all__ = ["env_functions", "env_id", "make_env", "make_raw_env", "register_envs"]


def make_raw_env(
    game_name: str,
    render_mode: str | None = None,
    reward_shaping: RewardShaping | None = None,
    **config: Any,
) -> GameAECEnv:
    """The unwrapped AEC environment of game ``game_name`` configured by ``config``."""
    return GameAECEnv(
        make_game(game_name, **config), render_mode=render_mode, reward_shaping=reward_shaping
    )


def make_env(game_name: str, **kwargs: Any) -> AECEnv:
    """``make_raw_env`` wrapped like PettingZoo classic envs: the call order check of
    ``OrderEnforcingWrapper`` (as :class:`~boardgames_rl.envs.aec.GameOrderEnforcingWrapper`)."""
    return GameOrderEnforcingWrapper(make_raw_env(game_name, **kwargs))


def env_functions(
    game_name: str,
) -> tuple[Callable[..., GameAECEnv], Callable[..., AECEnv]]:
    """``(raw_env, env)`` module functions for ``game_name`` (looked up in the registry lazily)."""

    def raw_env(
        render_mode: str | None = None,
        reward_shaping: RewardShaping | None = None,
        **config: Any,
    ) -> GameAECEnv:
        return make_raw_env(
            game_name, render_mode=render_mode, reward_shaping=reward_shaping, **config
        )

    def env(**kwargs: Any) -> AECEnv:
        return make_env(game_name, **kwargs)

    raw_env.__doc__ = (
        f"Unwrapped :class:`GameAECEnv` of ``{game_name}``; keyword arguments other than "
        "``render_mode`` and ``reward_shaping`` configure the game."
    )
    env.__doc__ = (
        f"``{game_name}`` AEC environment wrapped like PettingZoo classic envs "
        "(OrderEnforcingWrapper); same arguments as ``raw_env``."
    )
    raw_env.__qualname__ = raw_env.__name__ = "raw_env"
    env.__qualname__ = env.__name__ = "env"
    return raw_env, env


def _game_version(name: str) -> int:
    entry = game_spec(name)
    factory = entry.game
    if inspect.isclass(factory) and issubclass(factory, Game):
        return int(factory.version)
    config = entry.test_configs[0] if entry.test_configs else {}
    return int(getattr(factory(**config), "version", 0))


def env_id(name: str) -> str:
    """PettingZoo registry id of game ``name``, e.g. ``boardgames_rl/castle_flutterstone-v0``."""
    return f"boardgames_rl/{name}-v{_game_version(name)}"


def register_envs() -> list[str]:
    """Register every registered game with PettingZoo (skipping ids already there).

    The entry point is :func:`make_env` bound to the game's name (the modules
    ``boardgames_rl.envs.<game>_v<version>`` give the same ``env``/``raw_env`` for imports).

    Returns:
        the ids registered by this call.
    """
    added = []
    for name in list_games():
        version = _game_version(name)
        eid = f"boardgames_rl/{name}-v{version}"
        if eid in pettingzoo.aec_registry:
            continue
        entry_point = functools.partial(make_env, name)
        pettingzoo.register("aec", eid, entry_point=entry_point)
        added.append(eid)
    return added
