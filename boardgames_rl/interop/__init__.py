"""Bridges to other frameworks, each behind its extra:

- :mod:`~boardgames_rl.interop.openspiel` (``[openspiel]``): every game as a pyspiel game;
- :mod:`~boardgames_rl.interop.rllib` (``[rllib]``): RLlib ``MultiAgentEnv``, masked PPO module;
- :mod:`~boardgames_rl.interop.torchrl` (``[torchrl]``): TorchRL's ``PettingZooWrapper`` with
  masks and a ``MaskedCategorical`` actor.

Tournaments on Ray are the arena's ``backend="ray"`` (``[ray]``,
:mod:`boardgames_rl.arena.backends`).
"""
