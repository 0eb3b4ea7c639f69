"""Errors of the vector runtime's slots, and making any exception fit the wire."""

from __future__ import annotations

import pickle


class SlotError(RuntimeError):
    """An exception raised inside one slot (an opponent, the shaping callback, the engine)."""

    def __init__(self, slot: int, exc: BaseException):
        super().__init__(f"slot {slot}: {type(exc).__name__}: {exc}")
        self.slot = slot
        self.original = exc

    def __reduce__(self):  # picklable across the worker pipe
        return (type(self), (self.slot, self.original))


class BrokenSlotsError(SlotError):
    """A slot raised and could not be put back as it was (an agent whose moves depend on more
    than the game and its generator): the env must be reset before it steps again."""

    def __init__(self, slot: int, exc: BaseException):
        super().__init__(slot, exc)
        self.args = (f"{self.args[0]} (the env could not be put back: call reset())",)


def portable(exc: BaseException) -> BaseException:
    """``exc`` if it pickles, else a RuntimeError with its text."""
    try:
        pickle.dumps(exc)
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
