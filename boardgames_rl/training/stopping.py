"""When a training run stops early: SIGINT / SIGTERM, and a wall-clock limit.

A loop that a SIGTERM stops (here the process sends it to itself)::

    import os
    import signal

    from boardgames_rl.training.stopping import StopRequests

    steps = 0
    with StopRequests(max_seconds=600) as stop:
        while steps < 1000:
            if steps == 10:
                os.kill(os.getpid(), signal.SIGTERM)  # what a `kill` from outside sends
            if stop.requested:  # checked between env steps and between evaluation games
                break
            steps += 1
    if stop.signal:  # a run saves its checkpoint here, then exits 128 + signal
        print(f"stopped by signal {stop.signal} after {steps} steps")

Inside the ``with`` block SIGINT and SIGTERM only set :attr:`StopRequests.signal` (the first one
received); the previous handlers come back on leaving it. The wall clock only sets
:attr:`StopRequests.timed_out`, a normal end: the run is saved as incomplete and ``--resume``
continues it.

Worker processes are started inside :func:`children_ignore_sigint`: a Ctrl-C on the terminal
reaches the whole process group, and the run stops through its main process, which then closes
its workers (a worker that dies of a signal all the same, e.g. a SIGTERM to the group, is a stop
too: the checkpoint is the last update's).
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Iterator
from types import FrameType, TracebackType

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopRequests:
    """A signal received, or the wall-clock limit passed (``max_seconds`` <= 0: none)."""

    def __init__(self, max_seconds: float = 0.0):
        self.max_seconds = float(max_seconds)
        self.signal: int | None = None
        """The first signal received inside the ``with`` block, or None."""
        self._started = time.perf_counter()
        self._previous: dict[int, object] = {}

    def __enter__(self) -> StopRequests:
        self._started = time.perf_counter()
        for sig in SIGNALS:
            self._previous[sig] = signal.getsignal(sig)
            signal.signal(sig, self._on_signal)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]
        self._previous.clear()

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        if self.signal is None:
            self.signal = signum

    @property
    def timed_out(self) -> bool:
        """Whether the wall-clock limit has passed."""
        return self.max_seconds > 0 and time.perf_counter() - self._started >= self.max_seconds

    @property
    def requested(self) -> bool:
        """Whether the run should stop now (a signal, or the wall-clock limit)."""
        return self.signal is not None or self.timed_out

    @property
    def exit_code(self) -> int:
        """``128 + signal`` (130 for SIGINT, 143 for SIGTERM), 0 without a signal."""
        return 0 if self.signal is None else 128 + self.signal

    @property
    def name(self) -> str:
        return "" if self.signal is None else signal.Signals(self.signal).name


@contextlib.contextmanager
def children_ignore_sigint() -> Iterator[None]:
    """Processes started inside the block inherit SIGINT ignored (a spawned Python keeps it so),
    so a Ctrl-C, which the terminal sends to every process of the group, leaves them to the
    main process; the main process's own handler comes back on leaving the block."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
