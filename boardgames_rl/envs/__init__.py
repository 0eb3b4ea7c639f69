"""PettingZoo-style environment modules, and registration in PettingZoo's registry.

Importing this package registers every game of :func:`boardgames_rl.core.registry.list_games` as
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
import importlib.util
import inspect

import pettingzoo

from boardgames_rl.core.game import Game
from boardgames_rl.core.registry import game_entry, list_games
from boardgames_rl.envs._factory import env_functions, make_env, make_raw_env

__all__ = ["env_functions", "env_id", "make_env", "make_raw_env", "register_envs"]


def _game_version(name: str) -> int:
    entry = game_entry(name)
    factory = entry.factory
    if inspect.isclass(factory) and issubclass(factory, Game):
        return int(factory.version)
    config = entry.test_configs[0] if entry.test_configs else {}
    return int(factory(**config).version)


def env_id(name: str) -> str:
    """PettingZoo registry id of game ``name``, e.g. ``boardgames_rl/castle_flutterstone-v0``."""
    return f"boardgames_rl/{name}-v{_game_version(name)}"


def register_envs() -> list[str]:
    """Register every registered game with PettingZoo (skipping ids already there).

    The entry point is the game's module ``boardgames_rl.envs.<game>_v<version>:env`` when it
    exists, else the generic :func:`make_env` bound to the game name.

    Returns:
        the ids registered by this call.
    """
    added = []
    for name in list_games():
        version = _game_version(name)
        eid = f"boardgames_rl/{name}-v{version}"
        if eid in pettingzoo.aec_registry:
            continue
        module = f"{__name__}.{name}_v{version}"
        if importlib.util.find_spec(module) is not None:
            entry_point: object = f"{module}:env"
        else:
            entry_point = functools.partial(make_env, name)
        pettingzoo.register("aec", eid, entry_point=entry_point)
        added.append(eid)
    return added


register_envs()
