"""Uniform random agent over the legal actions (defined in :mod:`boardgames_rl.core.agent`)."""

from boardgames_rl.core.agent import RandomAgent

__all__ = ["RandomAgent"]
