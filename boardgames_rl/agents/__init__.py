"""Agents: random, per-game heuristics (and later ISMCTS, PPO), built from spec strings."""

from boardgames_rl.agents.registry import list_agents, make_agent, parse_spec, register_agent
from boardgames_rl.core.agent import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent", "list_agents", "make_agent", "parse_spec", "register_agent"]
