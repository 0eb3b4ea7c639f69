"""The legal actions of a byte mask, listed for search loops.

An engine may mark its legal actions in a ``bytearray``, a byte per action (1: legal), which
numpy reads as a boolean mask without a copy. :func:`marked` lists the marked actions
ascending: in the compiled build through the C helper ``core.native_masks`` (``memchr`` from
mark to mark), in the pure build by :func:`split_marked` (one split of the bytes at the marks,
cheaper there than a ``find`` call per mark). Both give the same list
(``tests/test_masks.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from boardgames_rl import compiled as _build


def split_marked(mask: bytes | bytearray) -> list[int]:
    """The indices of the bytes equal to 1 in ``mask``, ascending: the bytes split at the marks
    into the runs before each, an index being the sum of the runs and marks before it."""
    out: list[int] = []
    index = -1
    for run in mask.split(b"\x01")[:-1]:
        index += len(run) + 1
        out.append(index)
    return out


marked: Callable[[bytes | bytearray], list[int]] = split_marked
"""The indices of the bytes equal to 1 in a mask, ascending (the compiled build's C helper, or
:func:`split_marked`)."""
if "boardgames_rl.core.native_masks" in _build.MODULES:
    from boardgames_rl.core import native_masks

    marked = native_masks.marked
