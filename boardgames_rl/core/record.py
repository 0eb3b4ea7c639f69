"""Read-only records: typed attributes set once, compiled as native classes.

A :class:`Record` subclass declares its attributes ``Final`` and sets each once in ``__init__``,
in the order of its ``FIELDS``. The compiled build (mypyc) stores them in the object itself: a
constructor call and an attribute read are C, not a Python ``__new__`` and a descriptor lookup as
for a named tuple (a search rollout builds a player's view at every move). mypy refuses a write to
a ``Final`` attribute, and the compiled build refuses one at run time with ``AttributeError``; the
pure build's plain classes do not check writes at run time.

Equality and ``repr`` go by ``FIELDS``: two records are equal when they are of the same class and
every field is equal.
"""

from __future__ import annotations

from typing import ClassVar


class Record:
    """A record of typed, read-only attributes (see the module docstring): equal by ``FIELDS``."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    """The attributes, in the order ``__init__`` takes them."""

    def __eq__(self, other: object) -> bool:
        # False, not NotImplemented, for another class: a record equals only its own kind (and
        # the compiled build checks that ``__eq__`` returns a bool)
        return type(other) is type(self) and all(
            getattr(self, k) == getattr(other, k) for k in self.FIELDS
        )

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # equal by value, and may hold lists

    def __repr__(self) -> str:
        parts = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.FIELDS)
        return f"{type(self).__name__}({parts})"
