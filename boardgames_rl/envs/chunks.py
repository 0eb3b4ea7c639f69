"""How a vector env's slots split among its worker processes.

The vector runtime (:mod:`boardgames_rl.envs.vector.core`, behind every vector facade) gives each
worker one contiguous chunk of slots, the sizes as equal as they can be; the batched env's
benchmark (``lab/benchmarks/batched_speed.py``) uses the same split to bound what workers can gain.
"""

from __future__ import annotations

import numpy as np


def worker_chunks(num_envs: int, num_workers: int) -> list[range]:
    """The slots of each of ``num_workers`` workers: contiguous ranges covering
    ``range(num_envs)`` in order, sizes differing by at most one (empty if ``num_workers`` is 0).

    >>> worker_chunks(5, 2)
    [range(0, 2), range(2, 5)]
    """
    if num_workers <= 0:
        return []
    bounds = np.linspace(0, num_envs, num_workers + 1).round().astype(int)
    return [range(int(bounds[w]), int(bounds[w + 1])) for w in range(num_workers)]
