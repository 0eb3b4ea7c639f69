"""Where a tournament's games are played: this machine's worker processes, or a Ray cluster.

A backend turns the scheduled games into records, in any order;
:func:`~boardgames_rl.arena.tournament` writes them to ``games.jsonl`` as they come and sorts them
at the end, so the files of a tournament do not depend on the backend. Every game is played from its
own seed by agents rebuilt from their spec strings, so a game gives the same record in any process
on any machine.

- ``"process"`` (default): the games run in this process (``workers=1``) or in a
  ``multiprocessing`` spawn pool of ``workers`` processes.
- ``"ray"`` / :class:`RayBackend`: every game is one Ray task. Without an address the backend
  starts a local Ray with ``num_cpus=workers`` (and stops it at the end); with an address
  (``host:6379`` of ``ray start --head``, or ``"auto"``) it joins that cluster. When Ray is
  already initialised (``ray.init`` called by the caller, e.g. with a ``runtime_env``), that
  session is used and left running. A task whose worker or node dies is rerun by Ray (up to
  ``max_retries`` times) on another node; a game still lost after that is simply missing from
  ``games.jsonl``, and running the same tournament again plays it (resume).
"""

from __future__ import annotations

import socket
import sys
import uuid
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from boardgames_rl._util.extras import require
from boardgames_rl.arena.play import Player, ScheduledGame, play_scheduled
from boardgames_rl.arena.records import GameRecord
from boardgames_rl.core.game import Game

BACKENDS = ("process", "ray")


class RayConnectionError(ValueError):
    """The Ray cluster at the given address cannot be reached."""


class RayGameLostError(RuntimeError):
    """Ray gave up on a game (its retries used up); the games finished so far are recorded."""


class Backend(Protocol):
    """Plays scheduled games and yields their records as they finish (any order)."""

    name: str

    def play(
        self, game: Game, specs: list[str], tasks: list[ScheduledGame], workers: int
    ) -> Iterator[GameRecord]: ...


class ProcessBackend:
    """This machine: in this process (``workers=1``) or a spawn pool of ``workers`` processes."""

    name = "process"

    def play(
        self, game: Game, specs: list[str], tasks: list[ScheduledGame], workers: int
    ) -> Iterator[GameRecord]:
        return play_scheduled(game, specs, tasks, workers)


# --------------------------------------------------------------------- Ray
_RAY_PLAYERS: dict[str, Any] = {}
"""In a Ray worker process: the player (agents built once) of the tournament run being played."""


def _ray_play(key: str, game: Game, specs: list[str], task: Any, log: Any) -> dict[str, Any]:
    """The body of one Ray task: play ``task`` with this process's player for run ``key``."""
    if log is not None:  # count the attempt before playing (a lost node's game shows twice)
        import ray

        node = ray.get_runtime_context().get_node_id()
        ray.get(log.started.remote(task.table, task.game_index, node))
    player = _RAY_PLAYERS.get(key)
    if player is None:
        if "torch" in sys.modules:
            sys.modules["torch"].set_num_threads(1)
        _RAY_PLAYERS.clear()  # one tournament run at a time per worker process
        player = _RAY_PLAYERS[key] = Player(game, specs)
    record = player.play(task).to_dict()
    if log is not None:
        ray.get(log.finished.remote(task.table, task.game_index))
    return record


class _AttemptLog:
    """A Ray actor noting the node of every attempt of every game, in the order they start
    (``RayBackend(track_attempts=True)``)."""

    def __init__(self) -> None:
        self.nodes: dict[tuple[int, int], list[str]] = {}
        self.done: set[tuple[int, int]] = set()

    def started(self, table: int, game_index: int, node: str) -> None:
        self.nodes.setdefault((table, game_index), []).append(node)

    def finished(self, table: int, game_index: int) -> None:
        self.done.add((table, game_index))

    def running(self) -> dict[tuple[int, int], str]:
        return {k: v[-1] for k, v in self.nodes.items() if k not in self.done}

    def get(self) -> dict[tuple[int, int], list[str]]:
        return {k: list(v) for k, v in self.nodes.items()}


def _probe(address: str, timeout: float = 5.0) -> None:
    """Fail fast, with what to do, when ``host:port`` accepts no connection."""
    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        raise RayConnectionError(
            f"--address {address!r} is not host:port; give the head node's address as printed "
            "by `ray start --head` (e.g. 10.0.0.5:6379), 'auto', or no --address for a local Ray"
        )
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout).close()
    except OSError as e:
        raise RayConnectionError(_unreachable(address, str(e))) from None


def _unreachable(address: str, why: str) -> str:
    return (
        f"cannot reach a Ray cluster at {address} ({why}); start one with `ray start --head` "
        "on the head node and pass the address it prints (host:6379), or drop --address to "
        "run on a local Ray"
    )


class RayBackend:
    """Every game a Ray task, on a local Ray (``address=None``) or an existing cluster.

    Args:
        address: ``host:port`` of the cluster's head (``ray start --head`` prints it), a
            ``ray://host:10001`` Ray Client address (needs ``ray[client]``), or ``"auto"``;
            ``None`` starts a local Ray of its own with ``num_cpus=workers`` unless Ray is
            already initialised in this process (then that session is used, and kept).
        max_retries: how often Ray reruns a game whose worker process or node died.
        track_attempts: count the attempts of every game in :attr:`attempts` (one small
            actor call per game); :attr:`reruns` is then the number of games played again.
    """

    name = "ray"

    def __init__(
        self, address: str | None = None, max_retries: int = 3, track_attempts: bool = False
    ):
        if address is not None and (not isinstance(address, str) or not address.strip()):
            raise ValueError(f"address must be a non-empty string or None, got {address!r}")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"max_retries must be an int >= 0, got {max_retries!r}")
        require("ray", "tournaments on Ray (--backend ray)")  # before any file is written
        self.address = address.strip() if address else None
        self.max_retries = max_retries
        self.track_attempts = track_attempts
        self.attempt_nodes: dict[tuple[int, int], list[str]] = {}
        self._log: Any = None

    @property
    def attempts(self) -> dict[tuple[int, int], int]:
        """How often every game was started (needs ``track_attempts``; live during a run)."""
        return {k: len(v) for k, v in self.started_games().items()}

    def started_games(self) -> dict[tuple[int, int], list[str]]:
        """The Ray node ids of every attempt of every game started so far, in start order
        (needs ``track_attempts``; live during a run, final after it)."""
        if self._log is not None:
            import ray

            return ray.get(self._log.get.remote())
        return {k: list(v) for k, v in self.attempt_nodes.items()}

    def running_games(self) -> dict[tuple[int, int], str]:
        """During a run (with ``track_attempts``): the games being played now, each with the
        node id playing it, in start order."""
        if self._log is None:
            return {}
        import ray

        return ray.get(self._log.running.remote())

    @property
    def reruns(self) -> int:
        """Attempts beyond the first, summed over the games (needs ``track_attempts``)."""
        return sum(n - 1 for n in self.attempts.values() if n > 1)

    def _connect(self, ray: Any, workers: int) -> bool:
        """Initialise Ray if needed; True when this call started the session."""
        if ray.is_initialized():
            return False
        kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": "warning"}
        if self.address is None:
            # "local": a new instance of our own, never a Ray found on the machine (RAY_ADDRESS,
            # `ray start`): the CPUs are --workers
            ray.init(address="local", num_cpus=int(workers), **kwargs)
            return True
        if self.address != "auto":
            _probe(self.address)
        try:
            ray.init(address=self.address, **kwargs)
        except (ConnectionError, RuntimeError, TimeoutError) as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise RayConnectionError(_unreachable(self.address, first)) from None
        return True

    def play(
        self, game: Game, specs: list[str], tasks: list[ScheduledGame], workers: int
    ) -> Iterator[GameRecord]:
        ray = require("ray", "tournaments on Ray (--backend ray)")
        self.attempt_nodes = {}
        if not tasks:
            return
        started = self._connect(ray, workers)
        try:
            yield from self._run(ray, game, specs, tasks)
        finally:
            if started:
                ray.shutdown()

    def _run(
        self, ray: Any, game: Game, specs: list[str], tasks: Sequence[ScheduledGame]
    ) -> Iterator[GameRecord]:
        remote = ray.remote(num_cpus=1, max_retries=self.max_retries, retry_exceptions=False)
        play_task = remote(_ray_play)
        log = None
        if self.track_attempts:
            here = ray.get_runtime_context().get_node_id()
            strategy = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(here, False)
            log = ray.remote(num_cpus=0, scheduling_strategy=strategy)(_AttemptLog).remote()
            self._log = log
        key = uuid.uuid4().hex
        game_ref, specs_ref = ray.put(game), ray.put(list(specs))
        cpus = int(ray.cluster_resources().get("CPU", 1))
        window = max(8, 4 * cpus)  # tasks in flight: every CPU busy, the driver's memory bounded
        pending: dict[Any, ScheduledGame] = {}
        queue = list(tasks)
        queue.reverse()
        try:
            while queue or pending:
                while queue and len(pending) < window:
                    task = queue.pop()
                    pending[play_task.remote(key, game_ref, specs_ref, task, log)] = task
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    task = pending.pop(ref)
                    try:
                        record = ray.get(ref)
                    except ray.exceptions.RayError as e:
                        raise RayGameLostError(
                            f"Ray lost game {task.game_index} of table {task.table} after "
                            f"{self.max_retries} retries ({type(e).__name__}); the games "
                            "finished so far are recorded: run the same tournament again "
                            "(same --out) to play the missing ones"
                        ) from e
                    yield GameRecord.from_dict(record)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if log is not None:
                self.attempt_nodes = ray.get(log.get.remote())
                self._log = None
                ray.kill(log)


def make_backend(backend: str | Backend = "process", address: str | None = None) -> Backend:
    """The backend named ``backend`` (``"process"`` or ``"ray"``), or ``backend`` itself."""
    if not isinstance(backend, str):
        if address is not None:
            raise ValueError("give the address to the backend object, not beside it")
        if not callable(getattr(backend, "play", None)):
            raise TypeError(f"backend must be one of {BACKENDS} or a Backend, got {backend!r}")
        return backend
    if backend == "ray":
        return RayBackend(address)
    if backend == "process":
        if address is not None:
            raise ValueError("address is for backend='ray' (a Ray cluster's head, host:port)")
        return ProcessBackend()
    raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
