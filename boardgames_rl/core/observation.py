"""ObservationSpec: named fields <-> one flat ``float32`` vector.

Engines write their observation into one flat vector (what networks and PettingZoo spaces want);
notebooks and agents read it back by name::

    >>> from boardgames_rl.core.observation import Field, ObservationSpec
    >>> spec = ObservationSpec([Field("position", (4,), high=22), Field("my_cards", (3,), high=3)])
    >>> vec = spec.zeros()
    >>> spec.view(vec, "position")[:] = [3, 0, 7, 1]
    >>> vec
    array([3., 0., 7., 1., 0., 0., 0.], dtype=float32)
    >>> spec.unflatten(vec)["position"]
    array([3., 0., 7., 1.], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Field:
    """One named block of the observation vector.

    Attributes:
        name: unique field name.
        shape: shape of the block (flattened in C order inside the vector).
        low, high: bounds of every entry (used for the gymnasium ``Box``).
        description: what the field means, shown by :meth:`ObservationSpec.describe`.
    """

    name: str
    shape: tuple[int, ...]
    low: float = 0.0
    high: float = 1.0
    description: str = ""

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1


class ObservationSpec:
    """An ordered list of :class:`Field` s laid out in one flat ``float32`` vector."""

    def __init__(self, fields: Iterable[Field]):
        self.fields: tuple[Field, ...] = tuple(fields)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"duplicate observation field names: {dup}")
        self.slices: dict[str, slice] = {}
        start = 0
        for f in self.fields:
            if f.high < f.low:
                raise ValueError(f"field {f.name!r}: high {f.high} < low {f.low}")
            self.slices[f.name] = slice(start, start + f.size)
            start += f.size
        self.size: int = start
        self._by_name = {f.name: f for f in self.fields}
        self._layout = {
            f.name: (self.slices[f.name], f.shape if len(f.shape) > 1 else None)
            for f in self.fields
        }
        self.low = np.concatenate(
            [np.full(f.size, f.low, np.float32) for f in self.fields] or [np.zeros(0, np.float32)]
        )
        self.high = np.concatenate(
            [np.full(f.size, f.high, np.float32) for f in self.fields] or [np.zeros(0, np.float32)]
        )

    def __len__(self) -> int:
        return self.size

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Field:
        return self._by_name[name]

    def zeros(self) -> np.ndarray:
        """A new all-zero observation vector."""
        return np.zeros(self.size, dtype=np.float32)

    def view(self, vec: np.ndarray, name: str) -> np.ndarray:
        """A writable view of field ``name`` inside ``vec``, in the field's shape."""
        sl, shape = self._layout[name]
        out = vec[sl]
        return out if shape is None else out.reshape(shape)

    def flatten(self, values: Mapping[str, np.ndarray | float]) -> np.ndarray:
        """Pack a mapping with every field name into one flat vector (checks shapes)."""
        missing = [f.name for f in self.fields if f.name not in values]
        extra = sorted(set(values) - set(self._by_name))
        if missing or extra:
            raise ValueError(f"observation fields missing {missing}, unknown {extra}")
        vec = self.zeros()
        for f in self.fields:
            arr = np.asarray(values[f.name], dtype=np.float32)
            if arr.shape != f.shape and arr.size != f.size:
                raise ValueError(f"field {f.name!r}: expected shape {f.shape}, got {arr.shape}")
            vec[self.slices[f.name]] = arr.reshape(-1)
        return vec

    def unflatten(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Split a flat vector (or a batch ``[..., size]``) back into named fields."""
        vec = np.asarray(vec)
        if vec.shape[-1] != self.size:
            raise ValueError(f"expected last dimension {self.size}, got {vec.shape}")
        lead = vec.shape[:-1]
        return {f.name: vec[..., self.slices[f.name]].reshape(*lead, *f.shape) for f in self.fields}

    def contains(self, vec: np.ndarray) -> bool:
        """True when ``vec`` has the right size and every entry lies within its field bounds."""
        vec = np.asarray(vec)
        return (
            vec.shape == (self.size,)
            and bool(np.all(vec >= self.low))
            and bool(np.all(vec <= self.high))
        )

    def describe(self) -> str:
        """A table of fields, offsets, shapes, bounds and descriptions."""
        rows = [f"{'field':<28} {'offset':>6} {'shape':<10} {'range':<14} description"]
        for f in self.fields:
            s = self.slices[f.name]
            rows.append(
                f"{f.name:<28} {s.start:>6} {str(f.shape):<10} "
                f"{f'[{f.low:g}, {f.high:g}]':<14} {f.description}"
            )
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"ObservationSpec({len(self.fields)} fields, size={self.size})"
