"""Deprecated: the policy features (seat and prior) moved to :mod:`boardgames_rl.envs.policy_obs`
(they are the environments' and the agents', not the contract's). This alias goes in the next
release; each name it gives warns (DeprecationWarning)."""

from boardgames_rl._util.moved import moved_module

__getattr__ = moved_module(__name__, "boardgames_rl.envs.policy_obs")
