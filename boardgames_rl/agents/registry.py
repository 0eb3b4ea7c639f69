"""Agents by spec string, so the CLI, notebooks and tournaments name them alike.

A spec is ``name`` or ``name:key=value,key=value``, e.g. ``"random"``, ``"heuristic"``,
``"heuristic:win_bonus=5"``. Values are parsed as int, float, bool or left as strings.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from boardgames_rl.agents.base import Agent
from boardgames_rl.agents.random_agent import RandomAgent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game
from boardgames_rl.core.options import parse_option_string

AgentFactory = Callable[..., Agent]
_AGENTS: dict[str, Callable[..., Agent]] = {}


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """``factory(game, **kwargs) -> Agent``."""
    _AGENTS[name] = factory


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=400,c=1.4"`` -> ``("ismcts", {"iterations": 400, "c": 1.4})``."""
    name, _, rest = spec.strip().partition(":")
    kwargs = parse_option_string(rest, f"agent spec {spec!r}")
    return name.strip(), kwargs


def _heuristic(game: Game, **kwargs: Any) -> Agent:
    try:
        module = importlib.import_module(f"boardgames_rl.games.{game.name}.heuristic")
    except ModuleNotFoundError as e:
        raise InvalidConfigError(f"no heuristic agent for game {game.name!r} yet") from e
    classes = [
        v
        for v in vars(module).values()
        if isinstance(v, type) and issubclass(v, Agent) and v.__module__ == module.__name__
    ]
    return classes[0](**kwargs)


def make_agent(spec: str | Agent, game: Game) -> Agent:
    """An agent from a spec string (or an Agent, returned as is)."""
    if isinstance(spec, Agent):
        return spec
    name, kwargs = parse_spec(spec)
    if name not in _AGENTS:
        raise InvalidConfigError(
            f"unknown agent {name!r}; known agents: {', '.join(sorted(_AGENTS))}"
        )
    try:
        agent = _AGENTS[name](game, **kwargs)
    except TypeError as e:
        raise InvalidConfigError(f"agent spec {spec!r}: {e}") from e
    agent.name = spec if isinstance(spec, str) else agent.name
    return agent


def list_agents() -> list[str]:
    return sorted(_AGENTS)


def _ismcts(game: Game, **kwargs: Any) -> Agent:
    from boardgames_rl.agents.ismcts import build_ismcts

    return build_ismcts(game, **kwargs)


register_agent("random", lambda game, **kw: RandomAgent(**kw))
register_agent("heuristic", _heuristic)
register_agent("ismcts", _ismcts)
register_agent("ppo", lambda g, **kw: importlib.import_module(f"{__package__}.ppo").build(g, **kw))
