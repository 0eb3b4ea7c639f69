"""Deprecated: moved to :mod:`boardgames_rl._util.threads` (this alias goes in the next
release)."""

from boardgames_rl._util import threads as _new
from boardgames_rl._util.moved import moved_module

__getattr__ = moved_module(__name__, _new)
