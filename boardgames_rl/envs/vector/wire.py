"""The vector runtime's wire and shared block: how the main process and its workers talk.

Every buffer lives in one shared block (``multiprocessing.RawArray``, or a ``bytearray`` in
process) seen as numpy arrays by both sides (:func:`layout`, :func:`views`): the slots' rows
(actions, observations, masks, rewards, ...) and the control cells (:data:`CONTROL`) through
which a step is posted and counted.

A step is a *post*: under a lock the main process counts one more post in each worker's ``mail``
cell with ``letter`` = :data:`STEP_POST`; a worker spinning on its cell starts at once (no system
call), one asleep on its socket is sent one :data:`STEP` byte. The worker that finishes last
(``stepped``, counted under the lock) sends one :data:`DONE` byte back, so the main process wakes
once per step. Other commands (reset with seeds, rollback, per-slot calls) are posted with
``letter`` = :data:`PIPE_POST` and travel as small pickles on the socket, never the buffers.

The socket (one pair per worker) is read and written with ``os.read`` / ``os.write`` on its file
descriptor: one system call per signal, none of ``Connection``'s framing. A message is one tag
byte, :data:`STEP` or :data:`DONE`, or :data:`PICKLED` followed by a 4-byte length and a pickle
(commands, answers and errors; between our own processes only).
"""

from __future__ import annotations

import os
import pickle
import struct
from typing import Any

import numpy as np

Field = tuple[str, Any, tuple[int, ...]]
"""A buffer: its name, dtype and shape."""


def control_fields(num_workers: int) -> list[Field]:
    """The control cells of a pool of ``num_workers`` workers (not per slot)."""
    w = max(1, num_workers)
    return [
        ("stepped", np.int64, (1,)),  # workers done with the current step
        ("failed", np.int64, (1,)),  # workers whose slots raised in the current step
        ("mail", np.int64, (w,)),  # per worker: posts so far (the worker watches it)
        ("asleep", np.int64, (w,)),  # per worker: 1 while it waits on its socket, not spinning
        ("main_asleep", np.int64, (1,)),  # main_steps: 1 while the main process sleeps on a step
        ("letter", np.int64, (w,)),  # per worker: what the last post is (STEP_POST, PIPE_POST)
    ]


CONTROL = ("stepped", "failed", "mail", "asleep", "letter", "main_asleep")
"""Buffers that are not per slot (a worker sees all of them, not its rows)."""


def layout(fields: list[Field]) -> tuple[dict[str, tuple], int]:
    """Offset, dtype and shape of every buffer in one block (each 64-byte aligned), and its size."""
    table: dict[str, tuple] = {}
    offset = 0
    for name, dtype, shape in fields:
        nbytes = int(np.dtype(dtype).itemsize * np.prod(shape))
        table[name] = (offset, dtype, shape)
        offset += -(-nbytes // 64) * 64
    return table, max(offset, 64)


def views(block: Any, table: dict[str, tuple], rows: slice | None = None) -> dict[str, np.ndarray]:
    """numpy views of ``block`` (a buffer) by ``table``; ``rows`` selects a chunk of slots."""
    out = {}
    for name, (offset, dtype, shape) in table.items():
        count = int(np.prod(shape))
        arr = np.frombuffer(block, dtype=dtype, count=count, offset=offset).reshape(shape)
        out[name] = arr if rows is None or name in CONTROL else arr[rows]
    return out


STEP = b"S"
"""The step command (actions are in the shared block); sent only to a worker asleep."""
STEP_POST, PIPE_POST = 0, 1
"""What a post is (the ``letter`` buffer): a step (actions in the shared block, no byte unless
the worker is asleep), or a pickled message (always on the socket)."""
DONE = b"K"
"""A worker's answer to :data:`STEP` when its slots stepped (results are in the shared block)."""
PICKLED = b"P"
"""The tag of a pickled message (its 4-byte length and its pickle follow)."""
_LENGTH = struct.Struct("!I")


def write(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` (every message the main process sends goes through here)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def send_message(fd: int, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    write(fd, PICKLED + _LENGTH.pack(len(data)) + data)


def _read_exactly(fd: int, n: int) -> bytes:
    parts = []
    while n:
        part = os.read(fd, n)
        if not part:
            raise EOFError("the other end of the pipe closed")
        parts.append(part)
        n -= len(part)
    return b"".join(parts)


def receive(fd: int) -> tuple[bytes, Any]:
    """The next message on ``fd``: ``(STEP or DONE, None)`` or ``(PICKLED, the object)``;
    ``EOFError`` when the other end closed."""
    tag = os.read(fd, 1)
    if tag == PICKLED:
        (size,) = _LENGTH.unpack(_read_exactly(fd, _LENGTH.size))
        return tag, pickle.loads(_read_exactly(fd, size))
    if tag in (STEP, DONE):
        return tag, None
    if not tag:
        raise EOFError("the other end of the pipe closed")
    raise RuntimeError(f"vector env: unexpected message tag {tag!r} on the worker pipe")
