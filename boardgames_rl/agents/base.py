"""The agent interface (defined in :mod:`boardgames_rl.core.agent`, the contract's layer)."""

from boardgames_rl.core.agent import Agent

__all__ = ["Agent"]
