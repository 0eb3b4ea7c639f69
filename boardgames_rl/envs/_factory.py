"""Generic PettingZoo-style module functions (``raw_env`` / ``env``) for any registered game.

A game's env module is three lines::

    from boardgames_rl.envs._factory import env_functions

    raw_env, env = env_functions("castle_flutterstone")

``raw_env(render_mode=None, reward_shaping=None, **config)`` is the bare
:class:`~boardgames_rl.envs.aec.GameAECEnv`; ``env(**kwargs)`` wraps it in PettingZoo's
``OrderEnforcingWrapper`` (no use before ``reset``). Unlike PettingZoo's classic environments it
adds neither ``TerminateIllegalWrapper`` nor ``AssertOutOfBoundsWrapper``: the game itself rejects
an illegal action with ``IllegalActionError`` and a malformed one (not an int in range) with
``MalformedActionError``, each naming the legal actions and leaving the env unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from boardgames_rl.envs.aec import GameAECEnv, RewardShaping
from boardgames_rl.registry import make_game


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
    """``make_raw_env`` wrapped like PettingZoo classic envs (bounds check + call order check)."""
    env: AECEnv = make_raw_env(game_name, **kwargs)
    env = wrappers.OrderEnforcingWrapper(env)
    return env


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
