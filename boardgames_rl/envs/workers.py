"""Starting a vector env's worker processes so that a script needs no ``__main__`` guard.

With the ``spawn`` (and ``forkserver``) start method, Python starts each child by importing the
parent's main script again, so that whatever the parent pickled by reference to it can be found.
In a script without ``if __name__ == "__main__":`` that import runs the script's own
``BatchedVectorEnv(..., num_workers=2)`` a second time, inside the child, where starting
processes is forbidden: the worker died at start-up (or, in other scripts, the child ran the
script's whole work again).

The vector runtime's workers need nothing from the main script: what they build their slots
from (the game, the opponents, the reward shaping, an env factory) travels as one
``cloudpickle`` payload (:func:`dumps`), which carries functions and classes defined in the
main script by value. So the children are started without importing it (:func:`start`). An
object of a class defined in the main script sent to a worker *later* (``env_method`` arguments)
is pickled by reference and cannot be found there: define such classes in a module.
"""

from __future__ import annotations

import contextlib
import pickle
import threading
from collections.abc import Iterator
from typing import Any

_PATCH_LOCK = threading.Lock()


def dumps(obj: Any) -> bytes:
    """``obj`` as the workers' start-up payload: ``cloudpickle`` (lambdas, local functions and
    the main script's classes by value; installed with gymnasium), plain pickle otherwise."""
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - gymnasium depends on cloudpickle
        return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return bytes(cloudpickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def loads(data: bytes) -> Any:
    """Inverse of :func:`dumps` (between our own processes only: never a file's bytes)."""
    return pickle.loads(data)


@contextlib.contextmanager
def without_main_script() -> Iterator[None]:
    """Processes started in the block (``spawn``, ``forkserver``) do not import the parent's
    main script: what they run must live in a module."""
    from multiprocessing import spawn

    original = spawn.get_preparation_data

    def preparation_data(name: str) -> dict[str, Any]:
        data = original(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    with _PATCH_LOCK:
        spawn.get_preparation_data = preparation_data
        try:
            yield
        finally:
            spawn.get_preparation_data = original


def start(process: Any) -> None:
    """Start ``process`` (a ``multiprocessing`` Process whose target lives in this package and
    whose arguments are :func:`dumps` payloads, pipes and shared memory) without importing the
    parent's main script in the child."""
    with without_main_script():
        process.start()
