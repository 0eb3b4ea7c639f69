"""One BLAS thread per worker process.

numpy's OpenBLAS (and torch's OpenMP, and MKL) start as many threads as the machine has cores,
and a matrix-vector product as small as a pretrained policy's already runs on several. In a pool
of one worker per core, every worker then keeps extra threads spinning beside the other workers,
and the pool runs slower than its workers would one at a time.

:func:`one_blas_thread_in_children` gives the processes started inside it one thread each, as a
worker pool wants (each worker is one unit of parallelism). The variables are read when a
child's libraries load, so they are set in this process's environment around the start and put
back afterwards; this process's own libraries, already loaded, are not affected. It works for
children that load their libraries themselves (the ``spawn`` and ``forkserver`` start methods,
which every pool of the package uses); a forked child keeps the parent's thread pools. A
variable the user set is kept as it is.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
"""The environment variables that size the BLAS / OpenMP thread pools of a new process."""


@contextmanager
def one_blas_thread_in_children() -> Iterator[None]:
    """Processes started inside the block load their BLAS / OpenMP libraries with one thread
    (unless the user set the variable: then the user's value)."""
    saved = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
