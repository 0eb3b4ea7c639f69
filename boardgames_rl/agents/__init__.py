"""Agents: random, per-game heuristics (and later ISMCTS, PPO), built from spec strings."""

from boardgames_rl.agents.base import Agent
from boardgames_rl.agents.random_agent import RandomAgent
from boardgames_rl.agents.registry import list_agents, make_agent, parse_spec, register_agent

__all__ = ["Agent", "RandomAgent", "list_agents", "make_agent", "parse_spec", "register_agent"]
