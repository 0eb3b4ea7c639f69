"""``core.masks.marked``: the legal actions of a byte mask, the same in both builds."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.compiled import build_info
from boardgames_rl.core import masks


def _masks() -> list[bytes | bytearray]:
    rng = np.random.default_rng(7)
    out: list[bytes | bytearray] = [b"", b"\x00", b"\x01", bytearray(b"\x01\x01"), b"\x00" * 9]
    for size in (1, 2, 3, 31, 175, 600, 4096):
        for p in (0.0, 0.02, 0.5, 1.0):
            out.append(bytearray((rng.random(size) < p).astype(np.uint8).tobytes()))
    return out


@pytest.mark.parametrize("mask", _masks(), ids=lambda m: f"{len(m)}-{sum(m)}")
def test_marked_lists_the_bytes_equal_to_one(mask):
    """Both versions list exactly the bytes equal to 1, ascending."""
    want = [i for i, b in enumerate(mask) if b == 1]
    assert masks.split_marked(mask) == want
    assert masks.marked(mask) == want


def test_the_compiled_build_lists_through_its_c_helper():
    compiled = build_info()["build"] == "compiled"
    assert (masks.marked is not masks.split_marked) == compiled
    if compiled:
        with pytest.raises(TypeError):
            masks.marked([1, 0, 1])  # a list is no buffer of bytes: refused, not read
