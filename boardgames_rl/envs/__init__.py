"""PettingZoo-style environment modules, and registration in PettingZoo's registry.

Importing this package registers every game of :func:`boardgames_rl.registry.list_games` as
``boardgames_rl/<game>-v<version>``, so that::

    import boardgames_rl
    import pettingzoo

    env = pettingzoo.make("aec", "boardgames_rl/castle_flutterstone-v0", num_players=3)

works. Registration is idempotent (no "Overriding environment" warning on a second import or a
second :func:`register_envs` call); call :func:`register_envs` again after registering a game at
run time.
"""

from __future__ import annotations

import functools
import inspect

import pettingzoo

from boardgames_rl.core.game import Game
from boardgames_rl.envs._factory import env_functions, make_env, make_raw_env
from boardgames_rl.registry import game_spec, list_games

__all__ = ["env_functions", "env_id", "make_env", "make_raw_env", "register_envs"]


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


register_envs()
