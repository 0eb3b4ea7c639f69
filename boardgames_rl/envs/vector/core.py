"""The vector runtime's core: N slots over shared buffers, in this process or in a pool of workers.

One core serves every facade (:mod:`boardgames_rl.envs.vector`): the slots are of one of two
kinds, every seat (:mod:`~boardgames_rl.envs.vector.seat_slots`) or the learner's seat with the
opponents played inside (:mod:`~boardgames_rl.envs.vector.learner_slots`), and the pool, its
wire (``boardgames_rl.envs.vector.wire``), the validation and the failure contract are
written here once.

A worker waiting for its next post does work ahead for its slots (a learner slot builds its next
game, :meth:`~boardgames_rl.envs.single_agent.SingleAgentEnv.prepare_next_game`) while another
worker still steps, or once no step came while it spun, never in the moment between the last
worker's finish and the next post (a build started there would hold up the next step). Workers
``gc.freeze()`` what they hold once set up, so Python's full collections scan only the games in
play instead of stalling a step.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
import os
import select
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from boardgames_rl._util.threads import one_blas_thread_in_children
from boardgames_rl.core.arguments import check_int
from boardgames_rl.core.errors import IllegalActionError, MalformedActionError
from boardgames_rl.core.game import Game
from boardgames_rl.core.seeding import SeedLike
from boardgames_rl.envs import workers
from boardgames_rl.envs.chunks import worker_chunks
from boardgames_rl.envs.vector import wire
from boardgames_rl.envs.vector.errors import BrokenSlotsError, portable


def slot_seeds(seed: int, num_envs: int) -> list[SeedLike]:
    """The seeds of a vector env's slots for the env's seed ``seed``: slot ``i`` plays the games
    of a :class:`~boardgames_rl.envs.aec.GameAECEnv` reset with ``(seed, i)`` (its seed stream,
    :func:`~boardgames_rl.core.seeding.seed_stream`), as every vector env of this package does."""
    return [(seed, i) for i in range(num_envs)]


def _worker(
    conn: Any,
    block: Any,
    table: dict,
    first: int,
    stop: int,
    kind_bytes: bytes,
    lock: Any,
    num_workers: int,
    index: int = 0,
    spin: float = 0.0,
    main_watches: bool = False,
) -> None:
    """Worker-process loop: owns slots ``first..stop-1`` and answers the main process's commands.

    A step (``wire.STEP``) is answered only by the worker that finishes it last (``stepped``,
    counted under ``lock``, reaches ``num_workers``): it sends ``wire.DONE``, so the main process
    wakes once per step. With ``main_watches`` the main process steps a chunk itself and counts
    itself in ``stepped`` too (``num_workers`` includes it), then watches ``stepped``: the last
    worker sends :data:`DONE` only if the main process went to sleep (``main_asleep``). A worker
    whose slots raised sends its error first, then counts itself.
    """
    fd = conn.fileno()
    try:
        kind = workers.loads(kind_bytes)
        views = wire.views(block, table, slice(first, stop))
        stepped, failed, main_asleep = views["stepped"], views["failed"], views["main_asleep"]
        mail, asleep, letter = views["mail"], views["asleep"], views["letter"]
        slots = kind.build(first, stop - first, views, True)
        gc.freeze()  # what exists now (modules, tables, the slots' agents) is never scanned again
        seen = int(mail[index])  # posts taken so far (read before "ok": none comes before it)
        wire.send_message(fd, ("ok", None))
    except Exception as exc:
        with contextlib.suppress(OSError):
            wire.send_message(fd, ("error", portable(exc)))
        conn.close()
        return
    clock, pause = time.perf_counter, os.sched_yield
    try:
        while True:
            # waiting: build the next games of slots whose game ended, one at a time, while
            # another worker still steps (no step can be posted before it is done; a build
            # started once all are done would hold up the next step), ...
            while mail[index] == seen and stepped[0] < num_workers and slots.prepare_one():
                pass
            if spin > 0 and mail[index] == seen:  # spin a moment: the next step comes soon
                deadline = clock() + spin
                while mail[index] == seen and clock() < deadline:
                    pause()
            while mail[index] == seen and slots.prepare_one():
                pass  # ... or once no step came while spinning (the learner is busy elsewhere)
            with lock:  # posted while spinning, or going to sleep (the main process sees it)
                posted = mail[index] != seen
                asleep[index] = not posted
            message: Any = None
            if posted and letter[index] == wire.STEP_POST:
                tag = wire.STEP  # the hot path: no system call at all
            else:  # asleep (a STEP byte or a pickle comes), or a pickle posted
                tag, message = wire.receive(fd)
            seen += 1
            if tag == wire.STEP:  # no pickle; one byte back from the last worker
                try:
                    slots.step()
                except Exception as exc:
                    wire.send_message(fd, ("error", portable(exc)))
                    with lock:
                        failed[0] += 1
                with lock:
                    stepped[0] += 1
                    last = stepped[0] == num_workers
                    if last and main_watches:  # wake the main process only if it sleeps
                        last, main_asleep[0] = bool(main_asleep[0]), 0
                if last:
                    os.write(fd, wire.DONE)
                continue
            cmd, arg = message
            try:
                result = None
                if cmd == "reset":
                    slots.reset(arg)
                elif cmd == "call":
                    result = slots.call(*arg)
                elif cmd == "get_attr":
                    result = slots.get_attr(*arg)
                elif cmd == "set_attr":
                    slots.set_attr(*arg)
                elif cmd == "rollback":
                    slots.rollback()
                elif cmd == "close":
                    wire.send_message(fd, ("ok", None))
                    break
                else:
                    raise ValueError(f"unknown command {cmd!r}")
            except Exception as exc:
                wire.send_message(fd, ("error", portable(exc)))
                continue
            wire.send_message(fd, ("ok", result))
    except (EOFError, KeyboardInterrupt, OSError):
        pass
    finally:
        conn.close()


DEFAULT_SPIN = 0.002
"""Seconds a worker spins (yielding its core) for the next step before it sleeps on its socket."""


class VectorCore:
    """N slots of one kind stepped together over shared buffers: in this process
    (``num_workers=0``) or by a pool of worker processes on the wire of
    ``boardgames_rl.envs.vector.wire``; the facades read and write ``buffers``.

    Args:
        kind: what a slot is (:class:`~boardgames_rl.envs.vector.seat_slots.SeatKind`: every
            seat; :class:`~boardgames_rl.envs.vector.learner_slots.LearnerKind`: the learner's
            seat, opponents played inside); picklable, it travels to the workers.
        num_envs: slots N.
        num_workers: 0 steps every slot in this process; ``k > 0`` splits the slots into ``k``
            contiguous chunks (``boardgames_rl.envs.chunks.worker_chunks``).
        main_steps: whether this process is one of the ``k`` workers: ``k - 1`` processes are
            started and this process steps the first chunk itself in :meth:`wait`, then watches
            the shared block for the others (no process wakes up to finish a step; ``k = 1``
            with it is the in-process core). If False, this process is free from :meth:`start`
            to :meth:`wait`. Results are the same either way.
        mp_context: multiprocessing start method for workers (default ``"spawn"``).
        worker_spin: seconds a worker that has stepped keeps watching the shared block for the next
            step (yielding its core at every look) before it sleeps on its socket; default
            :data:`~boardgames_rl.envs.vector.core.DEFAULT_SPIN` when every worker can have a core
            (``num_workers <= os.cpu_count()``), else 0. It never changes results.

    A step is all or nothing: actions are checked against the mask buffer before any slot moves
    (:meth:`validate`); a chunk whose slot raised puts itself back, the chunks that stepped are
    rolled back, and the error is raised (the lowest slots' first). A dead worker raises a
    one-line ``RuntimeError`` naming it; the core must then be closed.
    """

    def __init__(
        self,
        kind: Any,
        num_envs: int,
        num_workers: int = 0,
        mp_context: str = "spawn",
        worker_spin: float | None = None,
        main_steps: bool = False,
    ):
        num_envs = check_int(num_envs, "num_envs", 1)
        num_workers = check_int(num_workers, "num_workers", 0)
        self.kind = kind
        self.game: Game = kind.game
        self.num_envs = int(num_envs)
        num_workers = min(int(num_workers), self.num_envs)
        chunks = worker_chunks(self.num_envs, num_workers)
        local = None  # main_steps: the chunk this process steps
        if main_steps and len(chunks) > 1:
            local = chunks.pop(0)
        elif main_steps:
            chunks = []  # one worker, and it is this process: in-process
        fields = [("actions", np.int64, (self.num_envs,)), *kind.fields(self.num_envs)]
        self._table, nbytes = wire.layout(fields + wire.control_fields(len(chunks)))
        if worker_spin is None:  # spin where every worker can have a core of its own
            worker_spin = DEFAULT_SPIN if num_workers <= (os.cpu_count() or 1) else 0.0
        if not isinstance(worker_spin, int | float) or not 0 <= worker_spin < float("inf"):
            raise ValueError(f"worker_spin must be seconds >= 0, got {worker_spin!r}")
        self.worker_spin = float(worker_spin)
        self.num_workers = num_workers
        self.main_steps = bool(main_steps) and num_workers > 0
        self._nprocs = len(chunks)  # worker processes
        self._local: Any = None  # main_steps: the chunk this process steps
        self._local_chunk = local or range(0)
        self._closed = False
        self._broken: str | None = "call reset() before step()"
        self._pending = False
        self._row_offsets = np.arange(self.num_envs, dtype=np.int64) * self.game.num_actions
        self._conns: list[Any] = []  # multiprocessing Connections (they own the sockets)
        self._fds: list[int] = []  # their file descriptors, what the wire uses
        self._poller = select.poll()  # every worker's descriptor (a step waits on all)
        self._procs: list[Any] = []
        self._chunks: list[range] = []
        self._slots: Any = None  # in-process: every slot
        if not chunks:
            self._block: Any = bytearray(nbytes)
            self.buffers = wire.views(self._block, self._table)
            self._flat_masks = self.buffers["action_mask"].reshape(-1)
            self._slots = kind.build(0, self.num_envs, self.buffers, False)
            return
        ctx = mp.get_context(mp_context)
        self._block = ctx.RawArray("B", nbytes)
        self.buffers = wire.views(self._block, self._table)
        self._flat_masks = self.buffers["action_mask"].reshape(-1)
        self._lock = ctx.Lock()  # guards the counts of the control cells
        data = workers.dumps(kind)
        try:
            for w, chunk in enumerate(chunks):
                parent, child = ctx.Pipe()
                proc = ctx.Process(  # type: ignore[attr-defined]
                    target=_worker,
                    args=(
                        child,
                        self._block,
                        self._table,
                        chunk.start,
                        chunk.stop,
                        data,
                        self._lock,
                        len(chunks) + (local is not None),  # what counts in "stepped"
                        w,
                        self.worker_spin,
                        local is not None,
                    ),
                    daemon=True,
                    name=f"boardgames_rl-vector-{w}",
                )
                with one_blas_thread_in_children():
                    workers.start(proc)
                child.close()
                self._chunks.append(chunk)
                self._conns.append(parent)
                self._fds.append(parent.fileno())
                self._poller.register(parent.fileno(), select.POLLIN)
                self._procs.append(proc)
            if local is not None:
                rows = wire.views(self._block, self._table, slice(local.start, local.stop))
                self._local = kind.build(local.start, len(local), rows, True)
            self._gather(range(len(chunks)))  # every worker built its slots
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ stepping
    def reset(self, seeds: Sequence[SeedLike] | None = None) -> None:
        """Start a new game in every slot: slot ``i``'s seed stream restarts from ``seeds[i]``
        (None: the slot's next game; :func:`slot_seeds` gives a vector env's seeds)."""
        self._check_open()
        if self._pending:
            self.wait()
        if seeds is None:
            seeds = [None] * self.num_envs
        seeds = list(seeds)
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset: {len(seeds)} seeds for {self.num_envs} slots")
        self._broken = "a reset failed; call reset() again"
        if self._slots is not None:
            self._slots.reset(seeds)
        else:
            self._broadcast("reset", [seeds[c.start : c.stop] for c in self._chunks])
            try:
                if self._local is not None:
                    self._local.reset(seeds[self._local_chunk.start : self._local_chunk.stop])
            finally:
                self._gather(range(self._nprocs))
        self._broken = None

    def validate(self, actions: Any) -> np.ndarray:
        """``actions`` as ``int64 [N]``; one-line error if malformed or illegal (nothing moves)."""
        arr = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if arr.ndim == 2 and arr.shape == (self.num_envs, 1):
            arr = arr[:, 0]
        if arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu":
            raise MalformedActionError(
                f"{self.game.name}: {self.kind.facade} expects an integer array of shape "
                f"({self.num_envs},), got {arr.dtype} array of shape {arr.shape}"
            )
        n = self.game.num_actions
        if arr.min() < 0 or arr.max() >= n:
            bad = np.flatnonzero((arr < 0) | (arr >= n))
            raise MalformedActionError(
                f"{self.game.name}: actions out of range [0, {n}) in slots "
                f"{bad[:10].tolist()}: {arr[bad[:10]].tolist()}"
            )
        arr = arr.astype(np.int64, copy=False)
        legal = self._flat_masks.take(self._row_offsets + arr)
        if not legal.all():
            bad = np.flatnonzero(~legal)
            i = int(bad[0])
            raise IllegalActionError(
                f"{self.game.name}: illegal actions in slots {bad[:10].tolist()}; e.g. slot {i}: "
                f"action {int(arr[i])} ({self.game.action_name(int(arr[i]))}) for "
                f"{self.kind.mover} {int(self.buffers[self.kind.mover][i])}, legal: "
                f"{np.flatnonzero(self.buffers['action_mask'][i]).tolist()}"
            )
        return arr

    def start(self, actions: Any) -> None:
        """Check ``actions`` and start the step (workers run while this process is free)."""
        self._check_open()
        if self._broken:
            raise RuntimeError(f"{self.game.name}: vector env: {self._broken}")
        if self._pending:
            raise RuntimeError(f"{self.game.name}: vector env: a step is already pending")
        self.buffers["actions"][:] = self.validate(actions)
        self._pending = True
        if self._slots is None:
            self.buffers["stepped"][0] = 0
            self.buffers["failed"][0] = 0
            self._post_step()

    def wait(self) -> None:
        """Finish the step started by :meth:`start` (buffers then hold its results). All or
        nothing: when a slot raised, the error is raised and every slot is as it was."""
        if not self._pending:
            raise RuntimeError(f"{self.game.name}: vector env: no step pending (call start)")
        self._pending = False
        try:
            if self._slots is not None:
                self._slots.step()  # puts its slots back itself when one raises
                return
            if self._local is not None:
                errors = self._step_local_and_watch(self._local)
            else:
                errors = self._wait_step()
        except BrokenSlotsError:
            self._broken = "a slot could not be put back after an error; call reset()"
            raise
        except BaseException as exc:
            # in-process slots put themselves back after an exception; a dead worker or an
            # interrupt loses the env
            if self._slots is None or not isinstance(exc, Exception):
                self._broken = self._broken or f"a step failed ({exc!r}); call reset()"
            raise
        if errors:
            self._undo_step(errors)

    def _undo_step(self, errors: dict[int, BaseException]) -> None:
        """A step failed in the chunks of ``errors`` (-1: this process's, under ``main_steps``),
        which put themselves back: roll back the chunks that stepped, so that the env is as it
        was before the step, and raise the error of the lowest slots."""
        error = errors[min(errors)]
        if any(isinstance(e, BrokenSlotsError) for e in errors.values()):
            self._broken = "a slot could not be put back after an error; call reset()"
            raise error
        stepped = [w for w in range(self._nprocs) if w not in errors]
        try:
            for w in stepped:
                self._send(w, "rollback")
            try:
                if self._local is not None and -1 not in errors:
                    self._local.rollback()
            finally:
                self._gather(stepped)
        except BaseException:
            self._broken = self._broken or "a step could not be undone; call reset()"
            raise
        raise error

    # ------------------------------------------------------------------ per-slot access
    def call(self, name: str, *args: Any, indices: Sequence[int] | None = None, **kw: Any) -> list:
        """``getattr(slot_env, name)(*args, **kw)`` for each slot in ``indices`` (default all)."""
        return self._per_slot("call", (name, args, kw), indices)

    def get_attr(self, name: str, indices: Sequence[int] | None = None) -> list:
        """``getattr(slot_env, name)`` for each slot in ``indices``."""
        return self._per_slot("get_attr", (name,), indices)

    def set_attr(self, name: str, value: Any, indices: Sequence[int] | None = None) -> None:
        """``setattr(slot_env, name, value)`` for each slot in ``indices``."""
        self._per_slot("set_attr", (name, value), indices)

    def _per_slot(self, cmd: str, arg: tuple, indices: Sequence[int] | None) -> list:
        self._check_open()
        if self._pending:
            self.wait()
        wanted = list(range(self.num_envs)) if indices is None else [int(i) for i in indices]
        if any(not 0 <= i < self.num_envs for i in wanted):
            raise IndexError(f"slot indices must be in [0, {self.num_envs}), got {wanted}")
        if self._slots is not None:
            got = getattr(self._slots, cmd)(*arg, wanted)
            return [] if got is None else got
        by_worker: dict[int, list[int]] = {}
        mine: list[int] = []  # main_steps: this process's slots
        for i in wanted:
            if i in self._local_chunk:
                mine.append(i - self._local_chunk.start)
                continue
            w = next(w for w, c in enumerate(self._chunks) if i in c)
            by_worker.setdefault(w, []).append(i - self._chunks[w].start)
        for w, local in by_worker.items():
            self._send(w, cmd, (*arg, local))
        merged: dict[int, Any] = {}
        try:
            if mine and self._local is not None:
                got = getattr(self._local, cmd)(*arg, mine)
                for j, value in zip(mine, got or [None] * len(mine), strict=True):
                    merged[self._local_chunk.start + j] = value
        finally:
            results = self._gather(list(by_worker))
        for w, local in by_worker.items():
            for j, value in zip(local, results[w] or [None] * len(local), strict=True):
                merged[self._chunks[w].start + j] = value
        return [] if cmd == "set_attr" else [merged[i] for i in wanted]

    @property
    def slots(self) -> Any:
        """The slots (in-process mode only; tests and debugging)."""
        if self._slots is None:
            raise RuntimeError("the slots are only available with num_workers=0")
        return self._slots

    @property
    def envs(self) -> list[Any]:
        """The learner slots' envs (in-process mode only; tests and debugging)."""
        return self.slots.envs

    # ------------------------------------------------------------------ workers
    def _post(self, workers: Sequence[int], kind: int) -> list[int]:
        """Post to ``workers``: each one's ``mail`` count goes up (a spinning worker sees it at
        once) with ``letter`` = ``kind``; returns those that were asleep on their socket (a
        step must wake them with a byte). A lock held by a worker killed inside it is given up
        on after a second (close still works)."""
        b = self.buffers
        with self._locked():
            asleep = []
            for w in workers:
                b["mail"][w] += 1
                b["letter"][w] = kind
                if b["asleep"][w]:
                    asleep.append(w)
                    b["asleep"][w] = 0
            return asleep

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the lock that guards the shared counts; one held by a worker killed inside it
        is given up on after a second (the caller then finds the worker dead)."""
        got = self._lock.acquire(timeout=1.0)
        try:
            yield
        finally:
            if got:
                self._lock.release()

    def _send(self, w: int, cmd: str, arg: Any = None) -> None:
        """Send worker ``w`` a pickled command."""
        try:
            self._post([w], wire.PIPE_POST)
            wire.send_message(self._fds[w], (cmd, arg))
        except (BrokenPipeError, EOFError, OSError) as exc:
            self._procs[w].join(timeout=1)
            raise self._dead(w, exc) from None

    def _post_step(self) -> None:
        """Tell every worker to step (the actions are in the shared block): a spinning worker
        sees its post at once; one asleep on its socket gets one :data:`STEP` byte."""
        for w in self._post(range(self._nprocs), wire.STEP_POST):
            try:
                wire.write(self._fds[w], wire.STEP)
            except (BrokenPipeError, EOFError, OSError) as exc:
                self._pending = False
                self._procs[w].join(timeout=1)
                raise self._dead(w, exc) from None

    def _broadcast(self, cmd: str, args: list | None = None) -> None:
        """Send ``cmd`` to every worker (``args[w]`` to worker ``w``); when one is dead, the
        answers of those already told are drained before the error is raised."""
        for w in range(self._nprocs):
            try:
                self._send(w, cmd, None if args is None else args[w])
            except RuntimeError:
                with contextlib.suppress(Exception):
                    self._gather(range(w))
                raise

    def _wait_step(self, asleep: bool = True) -> dict[int, BaseException]:
        """Wait for the :data:`DONE` of the worker that finished the step last (one wake-up;
        ``asleep`` False: every worker has counted itself already, nothing is sent), then take
        the errors workers sent before counting themselves (already in their pipes; ``failed``
        says whether any is left to read); returns them by worker. A dead worker raises."""
        errors: dict[int, BaseException] = {}
        done = not asleep
        while not done:
            done = self._read_step_answers([fd for fd, _ in self._poller.poll()], errors)
        if self.buffers["failed"][0] > len(errors):  # counted before DONE: in their pipes now
            self._read_step_answers(select.select(self._fds, [], [], 0)[0], errors)
        return errors

    def _step_local_and_watch(self, local: Any) -> dict[int, BaseException]:
        """``main_steps``: step this process's chunk, then, while the workers still step, build
        the next games of its slots whose game ended (as a worker does while it waits), then
        watch ``stepped`` for up to ``worker_spin`` seconds, then sleep until the last worker's
        :data:`DONE`. Returns the errors by worker, this chunk's (the lowest slots) as -1."""
        error: Exception | None = None
        try:
            local.step()
        except Exception as exc:
            error = exc
        b, n = self.buffers, self._nprocs + 1  # this process counts itself too
        stepped = b["stepped"]
        with self._locked():
            stepped[0] += 1
        while stepped[0] < n and error is None and local.prepare_one():
            pass
        if stepped[0] < n and self.worker_spin > 0:
            clock, pause = time.perf_counter, os.sched_yield
            deadline = clock() + self.worker_spin
            while stepped[0] < n and clock() < deadline:
                pause()
        asleep = False
        if stepped[0] < n:
            with self._locked():
                asleep = bool(stepped[0] < n)  # else the last worker counted meanwhile
                b["main_asleep"][0] = asleep
        errors = self._wait_step(asleep)
        if error is not None:
            errors[-1] = error
        return errors

    def _read_step_answers(self, fds: Sequence[int], errors: dict[int, BaseException]) -> bool:
        """Read one step answer from each of ``fds``: True if one is :data:`DONE`; errors go to
        ``errors`` by worker; a dead worker raises at once (the env is dead: close it)."""
        done = False
        for fd in fds:
            w = self._fds.index(fd)
            try:
                tag, message = wire.receive(fd)
            except (EOFError, OSError) as exc:
                self._procs[w].join(timeout=1)
                raise self._dead(w, exc) from None
            if tag == wire.DONE:
                done = True
            elif message[0] == "error":
                errors.setdefault(w, message[1])
        return done

    def _gather(self, workers: Sequence[int]) -> dict[int, Any]:
        error: BaseException | None = None
        results: dict[int, Any] = {}
        for w in workers:
            try:
                tag, message = wire.receive(self._fds[w])
            except (EOFError, OSError) as exc:
                self._procs[w].join(timeout=1)
                error = error or self._dead(w, exc)
                continue
            if tag == wire.DONE:
                results[w] = None
                continue
            status, payload = message
            if status == "error":
                error = error or payload
            else:
                results[w] = payload
        if error is not None:
            raise error
        return results

    def _dead(self, w: int, exc: BaseException | None) -> RuntimeError:
        chunk, proc = self._chunks[w], self._procs[w]
        code = proc.exitcode
        how = f"exit code {code}" if code is not None else type(exc).__name__
        self._broken = f"worker {w} is dead; close this env and make a new one"
        return RuntimeError(
            f"vector env worker {w} (pid {proc.pid}, slots {chunk.start}-{chunk.stop - 1}) is "
            f"dead ({how}); close this env and make a new one"
        )

    def close(self) -> None:
        """Stop the worker processes (if any); safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for w in range(len(self._fds)):
            with contextlib.suppress(Exception):
                self._send(w, "close")
        for fd, conn, proc in zip(self._fds, self._conns, self._procs, strict=False):
            with contextlib.suppress(Exception):  # a dead worker, or an answer not yet read
                while select.select([fd], [], [], 5)[0] and wire.receive(fd)[0] == wire.DONE:
                    pass  # then the close answer
            conn.close()
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"{self.game.name}: vector env is closed")

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()
