"""VectorEnv: N games of one game stepped together, with batched numpy arrays and auto-reset.

::

    venv = VectorEnv(make_game("castle_flutterstone", num_players=3), num_envs=64, seed=0)
    out = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = venv.sample_random_actions(rng)   # or policy(out.observation, out.action_mask)
        out = venv.step(actions)
        finished = out.terminated | out.truncated           # those slots already hold a new game

Each slot holds one game and is stepped for the player on move in that game. When a game ends the
step reports its outcome (``rewards``, ``final_returns``, ``episode_lengths``, ``terminated`` /
``truncated``) and the slot immediately starts its next game: the returned ``observation``,
``action_mask`` and ``current_player`` are already the new game's.

Seeding: slot ``i`` owns the seed stream ``seed_stream((seed, i))`` and every new game in it takes
``next_game_seed(stream)``, so slot ``i`` plays exactly the games of a
:class:`~boardgames_rl.envs.aec.GameAECEnv` reset with ``seed=(seed, i)`` (then reset without a
seed after each game). With ``num_workers > 0`` slots are split into contiguous chunks stepped in
worker processes; the results are identical. The buffers then live in one shared-memory block
(``multiprocessing.RawArray``) that each worker writes in place (its rows only); the pipes carry
the commands, each chunk's actions and a status, never the buffers.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import multiprocessing as mp
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from gymnasium import spaces

from boardgames_rl._util.threads import one_blas_thread_in_children
from boardgames_rl.core.arguments import check_int
from boardgames_rl.core.errors import IllegalActionError, MalformedActionError
from boardgames_rl.core.game import Game, State, apply_legal
from boardgames_rl.core.seeding import next_game_seed, seed_stream
from boardgames_rl.envs import workers
from boardgames_rl.envs.aec import RewardShaping
from boardgames_rl.envs.chunks import worker_chunks


@dataclass
class VectorStep:
    """Batched result of :meth:`VectorEnv.reset` / :meth:`VectorEnv.step` (N slots, P players).

    Attributes:
        observation: ``[N, D] float32``, observation of the player on move in each slot.
        action_mask: ``[N, A] bool``, legal actions of that player.
        current_player: ``[N] int64``, seat on move in each slot.
        rewards: ``[N, P] float32``, final returns on the step that ended a game, plus the
            optional shaping; 0 otherwise.
        terminated: ``[N] bool``, a game ended by its rules on this step (the slot restarted).
        truncated: ``[N] bool``, a game was cut by the engine's safety cap on this step.
        final_returns: ``[N, P] float32``, returns of the game that ended on this step (0 for
            slots whose game goes on).
        episode_lengths: ``[N] int64``, number of actions of the game that ended on this step
            (0 for slots whose game goes on).
    """

    observation: np.ndarray
    action_mask: np.ndarray
    current_player: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    final_returns: np.ndarray
    episode_lengths: np.ndarray

    @property
    def done(self) -> np.ndarray:
        """``terminated | truncated``: slots whose game ended on this step."""
        return self.terminated | self.truncated

    def copy(self) -> VectorStep:
        """A deep copy (arrays copied)."""
        return VectorStep(**{k: np.array(v, copy=True) for k, v in self.__dict__.items()})


_FIELDS = (
    "observation",
    "action_mask",
    "current_player",
    "rewards",
    "terminated",
    "truncated",
    "final_returns",
    "episode_lengths",
)


def _layout(game: Game, n: int) -> tuple[dict[str, tuple], int]:
    """Offset, dtype and shape of every buffer in one block (64-byte aligned), and its size."""
    p = game.num_players
    fields = [
        ("observation", np.float32, (n, game.observation_spec.size)),
        ("action_mask", np.bool_, (n, game.num_actions)),
        ("current_player", np.int64, (n,)),
        ("rewards", np.float32, (n, p)),
        ("terminated", np.bool_, (n,)),
        ("truncated", np.bool_, (n,)),
        ("final_returns", np.float32, (n, p)),
        ("episode_lengths", np.int64, (n,)),
    ]
    table, offset = {}, 0
    for name, dtype, shape in fields:
        table[name] = (offset, dtype, shape)
        offset += -(-int(np.dtype(dtype).itemsize * np.prod(shape)) // 64) * 64
    return table, max(offset, 64)


def _views(block: Any, table: dict[str, tuple], rows: slice) -> dict[str, np.ndarray]:
    """numpy views of ``block`` laid out by ``table``, rows ``rows`` of every buffer."""
    out = {}
    for name, (offset, dtype, shape) in table.items():
        arr = np.frombuffer(block, dtype=dtype, count=int(np.prod(shape)), offset=offset)
        out[name] = arr.reshape(shape)[rows]
    return out


def _allocate(game: Game, n: int) -> dict[str, np.ndarray]:
    table, size = _layout(game, n)
    return _views(bytearray(size), table, slice(None))


class _Slots:
    """The in-process engine behind :class:`VectorEnv`: a group of slots writing into buffers."""

    def __init__(
        self,
        game: Game,
        slot_ids: range,
        reward_shaping: RewardShaping | None,
        out: dict[str, np.ndarray],
    ):
        self.game = game
        self.slot_ids = slot_ids
        self.reward_shaping = reward_shaping
        self.out = out
        self.states: list[State] = []
        self.streams: list[np.random.Generator] = []
        self.lengths = np.zeros(len(slot_ids), dtype=np.int64)
        # each slot's game as its seed and the actions applied since: what rebuilds the state
        # as it was before a failed step (no copy of every game on every step)
        self.game_seeds: list[int] = []
        self.moves: list[list[int]] = []
        self.undo = False  # keep what :meth:`rollback` needs (worker processes)
        self._previous: tuple | None = None

    def reset(self, seed: int | None) -> None:
        if seed is not None or not self.streams:
            self.streams = [seed_stream(None if seed is None else (seed, i)) for i in self.slot_ids]
        self.game_seeds = [next_game_seed(s) for s in self.streams]
        self.moves = [[] for _ in self.slot_ids]
        self.states = [self.game.new_state(g) for g in self.game_seeds]
        self.lengths[:] = 0
        self._previous = None
        for k in ("rewards", "terminated", "truncated", "final_returns", "episode_lengths"):
            self.out[k].fill(0)
        for j, state in enumerate(self.states):
            self._write(j, state)

    def step(self, actions: np.ndarray) -> None:
        """All or nothing: the results are staged, and only when every slot and every
        ``reward_shaping`` call has succeeded are the games, streams and buffers committed (a new
        game's seed is drawn from a copy of its stream). An exception puts every slot that moved
        back as it was, so the env is as it was: from the clone ``reward_shaping`` needs anyway,
        else rebuilt from its game's seed and moves (:meth:`_replay`; games are deterministic),
        so a step copies no game. :meth:`rollback` undoes the last committed step (used when
        another worker's chunk failed)."""
        n = len(self.states)
        shaping, new_state = self.reward_shaping, self.game.new_state
        rewards = np.zeros_like(self.out["rewards"])
        final = np.zeros_like(self.out["final_returns"])
        term = np.zeros(n, dtype=bool)
        trunc = np.zeros(n, dtype=bool)
        ep_len = np.zeros(n, dtype=np.int64)
        lengths = self.lengths.copy()
        states, streams = list(self.states), list(self.streams)
        new_games: dict[int, int] = {}  # slot -> seed of the game started this step
        backups: list[State | None] = []  # with shaping: the clones it is given
        moved = 0  # slots 0..moved-1 may have changed
        chosen = [int(a) for a in actions]
        try:
            for j, state in enumerate(self.states):
                backup = state.clone() if shaping is not None else None
                backups.append(backup)
                moved = j + 1
                apply_legal(state, chosen[j])  # checked against the mask buffer already
                lengths[j] += 1
                if backup is not None and shaping is not None:
                    rewards[j] = shaping(backup, state)
                if state.is_terminal():
                    returns = state.returns()
                    rewards[j] += returns
                    final[j] = returns
                    if state.truncated:
                        trunc[j] = True
                    else:
                        term[j] = True
                    ep_len[j] = lengths[j]
                    lengths[j] = 0
                    streams[j] = copy.deepcopy(streams[j])
                    new_games[j] = next_game_seed(streams[j])
                    states[j] = new_state(new_games[j])
            staged = {
                "current_player": np.array([st.current_player for st in states], dtype=np.int64),
            }
            staged["observation"] = np.stack(
                [
                    st.observation(int(p))
                    for st, p in zip(states, staged["current_player"], strict=True)
                ]
            )
            staged["action_mask"] = np.stack([st.legal_action_mask() for st in states])
        except BaseException:
            for j in range(moved):  # the games stepped so far, as they were
                backup = backups[j] if j < len(backups) else None
                self.states[j] = backup if backup is not None else self._replay(j)
            raise
        # every slot succeeded: commit
        if self.undo:
            buffers = {k: v.copy() for k, v in self.out.items()}
            history = (list(self.game_seeds), list(self.moves), [len(m) for m in self.moves])
            self._previous = (backups, history, self.streams, self.lengths, buffers)
        for j, action in enumerate(chosen):
            if j in new_games:
                self.game_seeds[j], self.moves[j] = new_games[j], []
            else:
                self.moves[j].append(action)
        self.states, self.streams, self.lengths = states, streams, lengths
        out = self.out
        out["rewards"][:] = rewards
        out["final_returns"][:] = final
        out["terminated"][:] = term
        out["truncated"][:] = trunc
        out["episode_lengths"][:] = ep_len
        for k, v in staged.items():
            out[k][:] = v

    def _replay(self, j: int) -> State:
        """Slot ``j``'s game as committed: a new state from its seed with its moves applied."""
        state = self.game.new_state(self.game_seeds[j])
        for action in self.moves[j]:
            apply_legal(state, action)
        return state

    def rollback(self) -> None:
        """Undo the last :meth:`step` (no-op when there is none to undo)."""
        previous = self._previous
        if previous is None:
            return
        backups, (seeds, moves, counts), self.streams, self.lengths, buffers = previous
        self.game_seeds, self.moves = seeds, moves
        for j, count in enumerate(counts):
            del moves[j][count:]  # a game that went on had this step's move appended
        self.states = [
            backup if backup is not None else self._replay(j) for j, backup in enumerate(backups)
        ]
        for k, v in buffers.items():
            self.out[k][:] = v
        self._previous = None

    def _write(self, j: int, state: State) -> None:
        p = state.current_player
        self.out["current_player"][j] = p
        self.out["observation"][j] = state.observation(p)
        self.out["action_mask"][j] = state.legal_action_mask()


def _worker(
    conn: Any,
    payload: bytes,
    slot_ids: range,
    block: Any,
    table: dict[str, tuple],
) -> None:
    """Worker-process loop: owns a chunk of slots, writes their rows of the shared buffers and
    answers reset/step/rollback/close commands with a small status. ``payload`` holds the game
    and the reward shaping (:func:`boardgames_rl.envs.workers.dumps`)."""
    game, reward_shaping = workers.loads(payload)
    out = _views(block, table, slice(slot_ids.start, slot_ids.stop))
    slots = _Slots(game, slot_ids, reward_shaping, out)
    slots.undo = True
    gc.freeze()  # full collections scan only what comes later (no 20-50 ms stall in a step)
    try:
        while True:
            cmd, arg = conn.recv()
            try:
                if cmd == "reset":
                    slots.reset(arg)
                elif cmd == "step":
                    slots.step(arg)
                elif cmd == "rollback":
                    slots.rollback()
                elif cmd == "close":
                    conn.send(("ok", None))
                    break
                else:
                    raise ValueError(f"unknown command {cmd!r}")
            except Exception as exc:  # forwarded to the main process
                conn.send(("error", exc))
                continue
            conn.send(("ok", None))  # the results are in the shared block
    except (EOFError, KeyboardInterrupt):
        pass
    finally:
        conn.close()


class VectorEnv:
    """``num_envs`` games of ``game`` stepped together; see the module docstring.

    Args:
        game: the configured game.
        num_envs: number of slots N.
        seed: base seed used by the first :meth:`reset` when it gets none (``None``: OS entropy).
        reward_shaping: optional ``f(previous_state, new_state) -> per-seat array`` added to
            ``rewards`` on every step (clones the state each step when set, for the callback).
        num_workers: 0 steps every slot in this process; ``k > 0`` splits the slots into ``k``
            contiguous chunks stepped in worker processes (identical results).
        copy: return fresh arrays (default). ``False`` returns the internal buffers, which the
            next call overwrites (saves a copy per step).
        mp_context: multiprocessing start method for workers (default ``"spawn"``).
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seed: int | None = None,
        reward_shaping: RewardShaping | None = None,
        num_workers: int = 0,
        copy: bool = True,
        mp_context: str = "spawn",
    ):
        num_envs = check_int(num_envs, "num_envs", 1)
        num_workers = check_int(num_workers, "num_workers", 0)
        self.game = game
        self.num_envs = num_envs
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.copy = copy
        self.reward_shaping = reward_shaping
        self.observation_space = spaces.Box(
            game.observation_spec.low, game.observation_spec.high, dtype=np.float32
        )
        self.action_space = cast(spaces.Discrete, spaces.Discrete(game.num_actions))
        self.seed: int | None = seed
        num_workers = min(int(num_workers), self.num_envs)
        table, size = _layout(game, self.num_envs)
        ctx = mp.get_context(mp_context)
        # with workers the buffers live in shared memory: each worker writes its rows in place
        self._block: Any = ctx.RawArray("B", size) if num_workers else bytearray(size)
        self._buffers = _views(self._block, table, slice(None))
        self._has_reset = False
        self._closed = False
        self._rows = np.arange(self.num_envs)

        self.num_workers = num_workers
        self._slots: _Slots | None = None
        self._conns: list[Any] = []
        self._procs: list[Any] = []
        self._chunks: list[range] = []
        if num_workers == 0:
            self._slots = _Slots(game, range(self.num_envs), reward_shaping, self._buffers)
        else:
            payload = workers.dumps((game, reward_shaping))
            for chunk in worker_chunks(self.num_envs, num_workers):
                parent, child = ctx.Pipe()
                proc = ctx.Process(  # type: ignore[attr-defined]
                    target=_worker,
                    args=(child, payload, chunk, self._block, table),
                    daemon=True,
                )
                with one_blas_thread_in_children():
                    workers.start(proc)
                child.close()
                self._chunks.append(chunk)
                self._conns.append(parent)
                self._procs.append(proc)

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None) -> VectorStep:
        """Start a new game in every slot.

        With ``seed`` slot ``i`` restarts the stream ``seed_stream((seed, i))``. Without one, the
        first reset uses the constructor seed (or a fresh OS-entropy base seed) and later resets
        start the next game of each slot's stream.
        """
        self._check_open()
        if seed is None and not self._has_reset:
            if self.seed is None:
                self.seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
            seed = self.seed
        elif seed is not None:
            self.seed = int(seed)
        self._run("reset", seed)
        self._has_reset = True
        return self._result()

    def step(self, actions: np.ndarray) -> VectorStep:
        """Apply one action per slot (for that slot's player on move); finished games restart.

        All or nothing: actions are checked against the current masks before any game moves, the
        results are committed only when every slot and every ``reward_shaping`` call succeeded,
        and a slot that moved before an exception is put back as it was (rebuilt from its game's
        seed and moves, or from the clone ``reward_shaping`` is given; no game is copied on a
        step that succeeds), so any exception (an illegal or malformed action, a raising
        callback, a fault inside a game, a dead worker) leaves every slot unchanged. A dead
        worker raises ``RuntimeError`` naming it.
        """
        self._check_open()
        if not self._has_reset:
            raise RuntimeError("VectorEnv: call reset() before step()")
        actions = self._validate(actions)
        self._run("step", actions)
        return self._result()

    def sample_random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action for every slot (vectorised over the masks)."""
        mask = self._buffers["action_mask"]
        counts = mask.sum(axis=1)
        if not counts.all():
            raise RuntimeError("VectorEnv: a slot has no legal action (call reset() first?)")
        k = (rng.random(self.num_envs) * counts).astype(np.int64)
        np.minimum(k, counts - 1, out=k)
        # index of the (k+1)-th True in each row
        return (np.cumsum(mask, axis=1) <= k[:, None]).sum(axis=1).astype(np.int64)

    @property
    def states(self) -> list[State]:
        """The live game states (in-process mode only; for tests and debugging)."""
        if self._slots is None:
            raise RuntimeError("VectorEnv.states is only available with num_workers=0")
        return self._slots.states

    def close(self) -> None:
        """Stop the worker processes (if any). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for conn in self._conns:
            try:
                conn.send(("close", None))
                conn.recv()
            except (BrokenPipeError, EOFError, OSError):
                pass
            conn.close()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    def __repr__(self) -> str:
        return f"<VectorEnv {self.game!r} num_envs={self.num_envs} workers={self.num_workers}>"

    # ------------------------------------------------------------------ internals
    def _validate(self, actions: Any) -> np.ndarray:
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,) or not (
            np.issubdtype(arr.dtype, np.integer) and arr.dtype != np.bool_
        ):
            raise MalformedActionError(
                f"{self.game.name}: VectorEnv.step expects an integer array of shape "
                f"({self.num_envs},), got {arr.dtype} array of shape {arr.shape}"
            )
        bad = np.flatnonzero((arr < 0) | (arr >= self.num_actions))
        if bad.size:
            raise MalformedActionError(
                f"{self.game.name}: actions out of range [0, {self.num_actions}) in slots "
                f"{bad[:10].tolist()}: {arr[bad[:10]].tolist()}"
            )
        arr = arr.astype(np.int64, copy=False)
        legal = self._buffers["action_mask"][self._rows, arr]
        if not legal.all():
            bad = np.flatnonzero(~legal)
            i = int(bad[0])
            raise IllegalActionError(
                f"{self.game.name}: illegal actions in slots {bad[:10].tolist()}; e.g. slot {i}: "
                f"action {int(arr[i])} ({self.game.action_name(int(arr[i]))}) for player "
                f"{int(self._buffers['current_player'][i])}, legal: "
                f"{np.flatnonzero(self._buffers['action_mask'][i]).tolist()}"
            )
        return arr

    def _dead(self, w: int, exc: BaseException | None) -> RuntimeError:
        chunk, proc = self._chunks[w], self._procs[w]
        code = proc.exitcode if proc is not None else None
        how = f"exit code {code}" if code is not None else repr(exc)
        return RuntimeError(
            f"VectorEnv worker {w} (pid {proc.pid}, slots {chunk.start}-{chunk.stop - 1}) is dead "
            f"({how}); close this VectorEnv and make a new one (its error is printed above)"
        )

    def _run(self, cmd: str, arg: Any) -> None:
        """Run ``cmd`` in every slot group; all or nothing: when one group fails (an exception in a
        slot or a callback, or a dead worker) the groups that succeeded are rolled back and the
        buffers are left as they were."""
        if self._slots is not None:
            getattr(self._slots, cmd)(arg)
            return
        for w, (conn, chunk) in enumerate(zip(self._conns, self._chunks, strict=True)):
            try:
                conn.send((cmd, arg[chunk.start : chunk.stop] if cmd == "step" else arg))
            except (BrokenPipeError, EOFError, OSError) as exc:
                self._procs[w].join(timeout=1)
                raise self._dead(w, exc) from exc
        error: BaseException | None = None
        payloads: dict[int, Any] = {}
        for w, conn in enumerate(self._conns):
            try:
                status, payload = conn.recv()
            except (EOFError, OSError) as exc:
                self._procs[w].join(timeout=1)
                error = error or self._dead(w, exc)
                continue
            if status == "error":
                error = error or payload
            else:
                payloads[w] = payload
        if error is not None:
            if cmd == "step":
                for w in payloads:
                    with contextlib.suppress(BrokenPipeError, EOFError, OSError):
                        self._conns[w].send(("rollback", None))
                        self._conns[w].recv()
            raise error

    def _result(self) -> VectorStep:
        b = self._buffers
        if self.copy:
            return VectorStep(**{k: b[k].copy() for k in _FIELDS})
        return VectorStep(**{k: b[k] for k in _FIELDS})

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("VectorEnv is closed")
