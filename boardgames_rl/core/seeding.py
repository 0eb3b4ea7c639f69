"""Seed streams shared by every adapter, so that one seed means one game everywhere.

An environment (AEC, vector slot, single-agent) owns a *seed stream*: a generator made from the
seed given to ``reset``. Each new game takes its seed from that stream with :func:`next_game_seed`.
``VectorEnv`` slot ``i`` uses the stream of ``(seed, i)``, so its games equal those of a
``GameAECEnv`` reset with ``seed_stream((seed, i))``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

SeedLike = int | Sequence[int] | None


def seed_stream(seed: SeedLike) -> np.random.Generator:
    """A generator of game seeds; ``None`` draws fresh entropy from the OS."""
    if seed is not None and not isinstance(seed, int | np.integer):
        seed = [int(s) for s in seed]
    return np.random.default_rng(seed)


def next_game_seed(stream: np.random.Generator) -> int:
    """The seed of the next game drawn from ``stream`` (a non-negative 63-bit integer)."""
    return int(stream.integers(0, 2**63 - 1))


def make_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """A ``numpy`` generator from an int seed, ``None`` (OS entropy) or an existing generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and not isinstance(seed, int | np.integer):
        raise TypeError(f"seed must be an int, None or numpy Generator, got {type(seed).__name__}")
    return np.random.Generator(np.random.PCG64(seed))


def rng_to_state(rng: np.random.Generator) -> dict:
    """JSON-safe snapshot of a PCG64 generator."""
    st = rng.bit_generator.state
    return {
        "bit_generator": st["bit_generator"],
        "state": {"state": int(st["state"]["state"]), "inc": int(st["state"]["inc"])},
        "has_uint32": int(st["has_uint32"]),
        "uinteger": int(st["uinteger"]),
    }


def rng_from_state(d: dict) -> np.random.Generator:
    """Inverse of :func:`rng_to_state`."""
    if d.get("bit_generator") != "PCG64":
        raise ValueError(
            f"only PCG64 generator states are supported, got {d.get('bit_generator')!r}"
        )
    bg = np.random.PCG64()
    bg.state = {
        "bit_generator": "PCG64",
        "state": {"state": int(d["state"]["state"]), "inc": int(d["state"]["inc"])},
        "has_uint32": int(d["has_uint32"]),
        "uinteger": int(d["uinteger"]),
    }
    return np.random.Generator(bg)


def clone_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in exactly the same state."""
    bg = np.random.PCG64()
    bg.state = cast(Any, rng.bit_generator.state)
    return np.random.Generator(bg)
