"""Batched single-agent env: N games seen from the learner's seat, opponents played inside.

One core, :class:`BatchedCore`, and two thin facades:

* :class:`~boardgames_rl.envs.batched_sb3.BatchedVecEnv`: a stable-baselines3 ``VecEnv`` with
  ``action_masks()`` (sb3-contrib ``MaskablePPO`` uses it directly; needs the ``[train]`` extra);
* :class:`BatchedVectorEnv`: a ``gymnasium.vector.VectorEnv`` (autoreset mode ``SAME_STEP``).

::

    from boardgames_rl.envs.batched import BatchedVectorEnv
    from boardgames_rl.envs.batched_sb3 import BatchedVecEnv

    venv = BatchedVecEnv(make_game("white_castle", num_players=2), num_envs=64, seat=0,
                         opponents=None, seed=0, num_workers=2)   # None: random opponents
    model = MaskablePPO("MlpPolicy", venv).learn(100_000)
    venv.close()

Constructor (the same keywords for both facades and :class:`BatchedCore`):

* ``game``: the configured game; ``num_envs``: slots N.
* ``seat``: the learner's seat, or ``"random"`` (drawn per game, as in
  :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv`).
* ``opponents``: what :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv` accepts (``None``:
  random agents; an Agent; one Agent per other seat; a callable ``pool(rng)``); every slot gets
  its own deep copy (agents with memory never serve two games). Agents from spec strings:
  ``boardgames_rl.agents.make_agent(spec, game)`` (or the training layer's ``OpponentPool``).
* ``reward_shaping``: optional ``f(previous_state, new_state) -> per-seat array`` (the learner's
  entry is added to each step's reward, as in ``SingleAgentEnv``).
* ``seat_feature``: append the one-hot of the learner's seat to the observation where the game's
  view is seat-relative (:mod:`boardgames_rl.envs.policy_obs`, what training uses); default False
  (the observation is ``state.observation(seat)``).
* ``prior``: optional picklable ``factory() -> Agent`` (e.g. ``functools.partial(make_agent,
  "heuristic", game)``): each slot gets its own prior agent, and the observation ends with the
  one-hot of the move it would make for the learner
  (:func:`~boardgames_rl.envs.policy_obs.prior_feature`; what a residual policy such as
  :class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy` reads). Default None.
* ``seed``: base seed; slot ``i`` is seeded ``(seed, i)`` at the first reset
  (:func:`slot_seeds`), so slot ``i`` plays exactly the games of a ``GameAECEnv`` (or
  ``SingleAgentEnv``) reset with ``(seed, i)`` and then reset without a seed after each game, as
  in :class:`~boardgames_rl.envs.vector.VectorEnv`. The same seed gives the same trajectories
  in-process and with any worker count.
* ``num_workers``: 0 steps every slot in this process; ``k > 0`` splits the slots into ``k``
  contiguous chunks (:func:`~boardgames_rl.envs.chunks.worker_chunks`) stepped by ``k`` workers.
* ``main_steps``: whether this process is one of the ``k`` workers (default False). If False,
  ``k`` worker processes step the chunks, and this process is free from ``step_async`` to
  ``step_wait`` (for a learner that overlaps its own work with the step). If True, ``k - 1``
  processes are started and this process steps the first chunk itself in ``step_wait``, then
  watches the shared block for the others instead of sleeping: no process wakes up to finish a
  step, which suits a learner that calls ``step_wait`` right after ``step_async`` (SB3,
  gymnasium's ``step``; what training uses). ``k = 1`` with it is the in-process env. Results
  are the same either way.
* ``mp_context``: multiprocessing start method for workers (default ``"spawn"``).
* ``worker_spin``: seconds a worker that has stepped keeps watching the shared block for the next
  step (yielding its core at every look) before it sleeps on its socket; default
  :data:`DEFAULT_SPIN` (2 ms) when every worker can have a core (``num_workers <= os.cpu_count()``),
  else 0 (always sleep). Spinning spares the wake-ups of a sleeping process, which on this 2-core
  virtual machine cost more than a quarter of a fast game's step; it never changes results.
* ``env_factory``: advanced: a picklable ``factory() -> SingleAgentEnv`` (or subclass) called once
  per slot instead of the keywords above (the training layer uses it for self-play pools; it must
  return a fresh env with its own opponents each call).

Workers share memory with the main process: actions, observations, masks, rewards, dones,
final observations and episode statistics live in one shared block (``multiprocessing.RawArray``)
seen as numpy arrays by both sides. A step is a *post*: under a lock the main process counts one
more post in each worker's ``mail`` cell; a worker spinning on its cell starts at once (no system
call), and one asleep on its socket is sent one byte (written and read with ``os.write`` /
``os.read``). The worker that finishes last (the workers count themselves under the lock) sends
one byte back, so the main process wakes once per step; the actions and results are in the block.
Other commands are posted too and travel as small pickles on the socket (``reset`` with seeds,
rare method calls such as adding a self-play snapshot), never the buffers.
``step_async`` checks the actions (against the mask buffer: the slots do not check them again),
writes them and posts the step; the workers step their chunks concurrently while the main
process is free until ``step_wait``. With ``main_steps`` the main process steps its own chunk in
``step_wait``, counts itself in ``stepped`` and watches it (spinning up to ``worker_spin``, then
asleep, when the last worker sends its byte only then). A worker waiting for its next post
builds, one slot at a time, the next game of each slot whose game ended
(:meth:`~boardgames_rl.envs.single_agent.SingleAgentEnv.prepare_next_game`: the seed the reset
would draw, so the games are the same), which takes a game's setup (``new_state``: 35-200 us,
several steps' worth) off the step that ends it, where it made one worker's chunk the slower.
It builds while another worker still steps (the next step cannot come before all are done) or
once no step came while it spun, never in the moment between the last worker's finish and the
next post: a build started there held up the next step (White Castle's 190 us setup delayed
one worker's start in about one step in ten). The main process with ``main_steps`` builds its
slots' next games the same way while the workers still step. When the slot's opponents are
memoryless (:func:`~boardgames_rl.core.agent.is_memoryless`: ``RandomAgent``, the default, and
an opponent pool of such agents without self-play), a second part of the same work plays the
next game's opponent moves before the learner's first decision and encodes that first
observation (the opponents' generator comes from the game's seed, so the moves are those of the
reset): at 4 players in The White Castle that is another 160 us per game start, and with it the
lockstep bound (``benchmarks/batched_speed.py``) rose from 1.88 to 1.97.
Workers also ``gc.freeze()`` what they hold once set up: Python's full collections (one every
few thousand steps) then scan only the games in play, instead of stalling a worker, and so the
step, for 20-50 ms.

Per step every slot applies the learner's action and then plays the opponents (each through
:func:`~boardgames_rl.core.agent.agent_view`; a :class:`~boardgames_rl.core.agent.RandomAgent`
draws from the state's mask itself: no info set, no view, no second legality check) until the
learner is on move again or the game ends. A game that ends restarts at once (auto-reset): the
returned observation and mask are the new game's; the ended game's last observation, return
(sum of the rewards given, as SB3's ``Monitor`` reports it), length and per-seat returns are kept
for the episode infos.

Errors: malformed or illegal actions (checked against the current masks) raise before any slot
moves. A step is all or nothing: an exception inside a slot (an opponent agent, the shaping
callback) propagates naming the slot, and every slot that moved is rebuilt from its game's seed
and the learner's moves (the chunks of other workers are rolled back the same way), so the env
is as it was before the step and may step again; no game is copied on a step that succeeds. A
slot whose game cannot be rebuilt so (an agent whose moves depend on more than the game and its
generator) raises :class:`BrokenSlotsError`, and the env must then be ``reset()``. A worker that
dies raises a one-line ``RuntimeError`` naming it (worker, pid, slots, exit code), as
:class:`~boardgames_rl.envs.vector.VectorEnv` does; ``close()`` stops every worker.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import multiprocessing as mp
import os
import pickle
import select
import struct
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from boardgames_rl._util.threads import one_blas_thread_in_children
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.arguments import check_int, check_seat_option
from boardgames_rl.core.errors import IllegalActionError, MalformedActionError
from boardgames_rl.core.game import Game, State
from boardgames_rl.core.seeding import SeedLike, clone_rng
from boardgames_rl.envs import workers
from boardgames_rl.envs.aec import RewardShaping
from boardgames_rl.envs.chunks import worker_chunks
from boardgames_rl.envs.policy_obs import policy_obs_bounds, prior_feature, seat_in_observation
from boardgames_rl.envs.single_agent import OpponentsSpec, SingleAgentEnv

# ---------------------------------------------------------------------------- shared buffers


def _fields(
    game: Game, n: int, obs_size: int, num_workers: int = 1
) -> list[tuple[str, Any, tuple[int, ...]]]:
    p, w = game.num_players, max(1, num_workers)
    return [
        ("actions", np.int64, (n,)),
        ("observation", np.float32, (n, obs_size)),
        ("action_mask", np.bool_, (n, game.num_actions)),
        ("reward", np.float32, (n,)),
        ("terminated", np.bool_, (n,)),
        ("truncated", np.bool_, (n,)),
        ("final_observation", np.float32, (n, obs_size)),
        ("episode_return", np.float64, (n,)),
        ("episode_length", np.int64, (n,)),
        ("final_returns", np.float32, (n, p)),
        ("seat", np.int64, (n,)),
        ("game_seed", np.int64, (n,)),
        ("stepped", np.int64, (1,)),  # workers done with the current step (not per slot)
        ("failed", np.int64, (1,)),  # workers whose slots raised in the current step
        ("mail", np.int64, (w,)),  # per worker: steps posted so far (the worker watches it)
        ("asleep", np.int64, (w,)),  # per worker: 1 while it waits on its socket, not spinning
        ("main_asleep", np.int64, (1,)),  # main_steps: 1 while the main process sleeps on a step
        ("letter", np.int64, (w,)),  # per worker: what the last post is (STEP_POST, PIPE_POST)
    ]


SHARED = ("stepped", "failed", "mail", "asleep", "letter", "main_asleep")
"""Buffers that are not per slot (a worker sees all of them, not its rows)."""


def _layout(
    game: Game, n: int, obs_size: int, num_workers: int = 1
) -> tuple[dict[str, tuple], int]:
    """Offsets of every buffer in one block (each 64-byte aligned)."""
    table: dict[str, tuple] = {}
    offset = 0
    for name, dtype, shape in _fields(game, n, obs_size, num_workers):
        nbytes = int(np.dtype(dtype).itemsize * np.prod(shape))
        table[name] = (offset, dtype, shape)
        offset += -(-nbytes // 64) * 64
    return table, max(offset, 64)


def _views(block: Any, table: dict[str, tuple], rows: slice | None = None) -> dict[str, np.ndarray]:
    """numpy views of ``block`` (a buffer) by ``table``; ``rows`` selects a chunk of slots."""
    out = {}
    for name, (offset, dtype, shape) in table.items():
        count = int(np.prod(shape))
        arr = np.frombuffer(block, dtype=dtype, count=count, offset=offset).reshape(shape)
        out[name] = arr if rows is None or name in SHARED else arr[rows]
    return out


def slot_seeds(seed: int, num_envs: int) -> list[SeedLike]:
    """The seeds of a vector env's slots for the env's seed ``seed``: slot ``i`` plays the games
    of a :class:`~boardgames_rl.envs.aec.GameAECEnv` reset with ``(seed, i)`` (its seed stream,
    :func:`~boardgames_rl.core.seeding.seed_stream`), as every vector env of this package does."""
    return [(seed, i) for i in range(num_envs)]


# ---------------------------------------------------------------------------- slot factory


class SlotFactory:
    """The default ``env_factory``: a :class:`SingleAgentEnv` per call, with its own deep copy of
    ``opponents`` (picklable: what worker processes receive)."""

    def __init__(
        self,
        game: Game,
        seat: int | Literal["random"] = 0,
        opponents: OpponentsSpec = None,
        reward_shaping: RewardShaping | None = None,
    ):
        self.game, self.seat, self.opponents = game, seat, opponents
        self.reward_shaping = reward_shaping

    def __call__(self) -> SingleAgentEnv:
        return SingleAgentEnv(
            self.game,
            seat=self.seat,
            opponents=copy.deepcopy(self.opponents),
            reward_shaping=self.reward_shaping,
            illegal_action="raise",  # actions are checked against the masks before any slot moves
        )


# ---------------------------------------------------------------------------- the slots


@dataclass(slots=True)
class _Game:
    """What rebuilds a slot's game: its seed, the slot's seed stream as it stood once that seed
    was drawn, and the learner's actions since (games and opponents are deterministic)."""

    seed: int
    stream: np.random.Generator
    moves: list[int]


def _game(env: SingleAgentEnv, info: dict[str, Any]) -> _Game:
    """The game ``env`` has just started (``info``: what its start returned)."""
    assert env._seed_stream is not None
    return _Game(info["game_seed"], clone_rng(env._seed_stream), [])


@dataclass(slots=True)
class _Undo:
    """What :meth:`_Slots.rollback` needs to undo the last committed step."""

    ended: dict[int, _Game]  # slot -> its game before the step (the slots whose game ended)
    returns: list[float]
    lengths: list[int]
    rows: dict[int, tuple]  # slot -> its episode rows before the step (ended slots)
    last: tuple[np.ndarray, np.ndarray, np.ndarray]  # reward, terminated, truncated


class _Slots:
    """A chunk of slots (one :class:`SingleAgentEnv` each) writing into buffer views.

    A step is all or nothing: when a slot raises, every slot that moved is rebuilt from its
    game's seed and the learner's moves (:meth:`SingleAgentEnv.replay_game`) and its rows are
    put back, so the chunk is as it was; :meth:`rollback` undoes the last committed step the
    same way (when another chunk failed). No game is copied on a step that succeeds."""

    def __init__(
        self,
        envs: list[SingleAgentEnv],
        first: int,
        out: dict[str, np.ndarray],
        prior: Callable[[], Agent] | None = None,
    ):
        self.envs = envs
        self.first = first
        self.out = out
        game = envs[0].game
        self.obs_size = game.observation_spec.size
        self.priors = [prior() for _ in envs] if prior is not None else None
        if prior is not None:  # the observation comes from the info set the prior reads
            for env in envs:
                env._first_observation_ahead = False
        self.prior_at = out["observation"].shape[1] - (game.num_actions if prior else 0)
        self.feature = self.prior_at != self.obs_size  # the seat feature
        self.returns = [0.0] * len(envs)
        self.lengths = [0] * len(envs)
        self.prefetch = False  # a worker's slots build their next games while it waits
        self.unprepared: list[int] = []  # slots whose next game is not built yet
        self.games: list[_Game] = []
        self._undo: _Undo | None = None

    def reset(self, seeds: Sequence[SeedLike]) -> None:
        out = self.out
        self._undo = None
        for k in ("reward", "terminated", "truncated", "episode_return", "episode_length"):
            out[k].fill(0)
        games = []
        for j, env in enumerate(self.envs):
            info = self._call(j, env._start, seeds[j])
            games.append(_game(env, info))
            self._write_start(j, env, info)
        self.games = games
        self.returns = [0.0] * len(self.envs)
        self.lengths = [0] * len(self.envs)
        if self.prefetch:
            self.unprepared = list(range(len(self.envs)))

    def prepare_one(self) -> bool:
        """Do one part of one slot's next game ahead of its reset (its initial state, then the
        opponents' opening moves and the learner's first observation:
        :meth:`~boardgames_rl.envs.single_agent.SingleAgentEnv.prepare_next_game`, the same game,
        so results never change); False when every slot's next game is ready."""
        unprepared = self.unprepared
        while unprepared:
            if self.envs[unprepared[-1]].prepare_next_game():
                return True
            unprepared.pop()
        return False

    def step(self) -> None:
        """Step every slot with its action from the ``actions`` buffer (checked against the mask
        buffer by the caller, so not checked again) and write the results; all or nothing."""
        out = self.out
        actions = out["actions"].tolist()
        obs, mask = out["observation"], out["action_mask"]
        size, feature = self.obs_size, self.feature
        returns, lengths = list(self.returns), list(self.lengths)
        rewards = [0.0] * len(self.envs)
        terms = [False] * len(self.envs)
        truncs = [False] * len(self.envs)
        ended: dict[int, _Game] = {}  # slot -> the game it started
        rows: dict[int, tuple] = {}  # slot -> its episode rows as they were
        j = 0
        try:
            for j, env in enumerate(self.envs):
                reward, terminated, truncated, info = env._advance(actions[j], True)
                rewards[j] = reward
                returns[j] += reward
                lengths[j] += 1
                state = env.game_state
                if terminated or truncated:
                    terms[j], truncs[j] = terminated, truncated
                    rows[j] = self._episode_rows(j)
                    final = out["final_observation"]
                    final[j, :size] = state.observation(env._seat)
                    if feature:
                        final[j, size:] = obs[j, size:]
                    out["episode_return"][j] = returns[j]
                    out["episode_length"][j] = lengths[j]
                    out["final_returns"][j] = info["returns"]
                    returns[j] = 0.0
                    lengths[j] = 0
                    start = env._start(None)
                    ended[j] = _game(env, start)
                    self._write_start(j, env, start)
                    continue
                self._write_observation(j, state, env._seat)
                mask[j] = state.legal_action_mask()
        except Exception as exc:
            error = exc if isinstance(exc, SlotError) else SlotError(self.first + j, exc)
            self._put_back(range(j + 1), self.games, rows, error)
            raise error from exc
        # every slot succeeded: commit
        last = (out["reward"].copy(), out["terminated"].copy(), out["truncated"].copy())
        before = {j: self.games[j] for j in ended}
        self._undo = _Undo(before, self.returns, self.lengths, rows, last)
        games = self.games
        for j, action in enumerate(actions):
            if j in ended:
                games[j] = ended[j]
            else:
                games[j].moves.append(action)
        self.returns, self.lengths = returns, lengths
        if self.prefetch:
            self.unprepared.extend(ended)
        out["reward"][:] = rewards
        out["terminated"][:] = terms
        out["truncated"][:] = truncs

    def rollback(self) -> None:
        """Undo the last committed :meth:`step` (no-op when there is none to undo)."""
        undo, self._undo = self._undo, None
        if undo is None:
            return
        for j, game in enumerate(self.games):
            if j in undo.ended:
                self.games[j] = undo.ended[j]
            else:
                game.moves.pop()
        self.returns, self.lengths = undo.returns, undo.lengths
        self._put_back(range(len(self.envs)), self.games, undo.rows, None)
        for k, v in zip(("reward", "terminated", "truncated"), undo.last, strict=True):
            self.out[k][:] = v

    def _episode_rows(self, j: int) -> tuple:
        out = self.out
        return (
            out["final_observation"][j].copy(),
            out["episode_return"][j].copy(),
            out["episode_length"][j].copy(),
            out["final_returns"][j].copy(),
        )

    def _put_back(
        self,
        slots: range,
        games: list[_Game],
        rows: dict[int, tuple],
        error: SlotError | None,
    ) -> None:
        """Rebuild ``slots`` from ``games`` and write their rows as they were. A slot that
        cannot be rebuilt (an agent whose moves depend on more than the game and its
        generator) raises :class:`BrokenSlotsError`: the env must then be reset."""
        out = self.out
        for j in slots:
            env, game = self.envs[j], games[j]
            before = None
            if self.priors is not None:
                prior = self.priors[j]
                prior.reset()

                def before(env: SingleAgentEnv = env, prior: Agent = prior) -> None:
                    prior_feature(prior, env.game_state.info_set(env._seat))

            try:
                env.replay_game(game.seed, game.stream, game.moves, before)
                self._write_observation(j, env.game_state, env._seat)
                self._write_seat(j, env, game.seed)
            except Exception as exc:
                cause = error or SlotError(self.first + j, exc)
                raise BrokenSlotsError(cause.slot, cause.original) from exc
            if j in rows:
                for k, v in zip(_EPISODE_ROWS, rows[j], strict=True):
                    out[k][j] = v
        if self.prefetch:
            self.unprepared = list(range(len(self.envs)))

    def _write_start(self, j: int, env: SingleAgentEnv, info: dict[str, Any]) -> None:
        if self.priors is not None:
            self.priors[j].reset()
            self._write_observation(j, env.game_state, env._seat)
        else:  # encoded ahead with the game where its opening was played ahead
            self.out["observation"][j, : self.obs_size] = env.learner_observation()
        self._write_seat(j, env, info["game_seed"])

    def _write_seat(self, j: int, env: SingleAgentEnv, game_seed: int) -> None:
        """Slot ``j``'s seat feature, mask, seat and game seed rows."""
        out, seat = self.out, env._seat
        if self.feature:
            row = out["observation"][j, self.obs_size : self.prior_at]
            row[:] = 0
            row[seat] = 1
        out["action_mask"][j] = env.game_state.legal_action_mask()
        out["seat"][j] = seat
        out["game_seed"][j] = game_seed

    def _write_observation(self, j: int, state: State, seat: int) -> None:
        """Slot ``j``'s observation row (the seat feature excepted), encoded once: with a prior,
        the info set the prior reads gives it (``InfoSet.observation`` is
        ``state.observation(seat)``), then the prior's one-hot."""
        row = self.out["observation"][j]
        if self.priors is None:
            row[: self.obs_size] = state.observation(seat)
            return
        info_set = state.info_set(seat)
        row[: self.obs_size] = info_set.observation
        row[self.prior_at :] = self._call(j, partial(prior_feature, self.priors[j]), info_set)

    def _call(self, j: int, fn: Callable, arg: Any) -> Any:
        try:
            return fn(arg)
        except Exception as exc:
            raise SlotError(self.first + j, exc) from exc

    def call(self, name: str, args: tuple, kwargs: dict, local: Sequence[int]) -> list[Any]:
        return [getattr(self.envs[j], name)(*args, **kwargs) for j in local]

    def get_attr(self, name: str, local: Sequence[int]) -> list[Any]:
        return [getattr(self.envs[j], name) for j in local]

    def set_attr(self, name: str, value: Any, local: Sequence[int]) -> None:
        for j in local:
            setattr(self.envs[j], name, value)


class SlotError(RuntimeError):
    """An exception raised inside one slot (an opponent, the shaping callback, the engine)."""

    def __init__(self, slot: int, exc: BaseException):
        super().__init__(f"slot {slot}: {type(exc).__name__}: {exc}")
        self.slot = slot
        self.original = exc

    def __reduce__(self):  # picklable across the worker pipe
        return (type(self), (self.slot, self.original))


class BrokenSlotsError(SlotError):
    """A slot raised and could not be put back as it was (an agent whose moves depend on more
    than the game and its generator): the env must be reset before it steps again."""

    def __init__(self, slot: int, exc: BaseException):
        super().__init__(slot, exc)
        self.args = (f"{self.args[0]} (the env could not be put back: call reset())",)


_EPISODE_ROWS = ("final_observation", "episode_return", "episode_length", "final_returns")


def _worker(
    conn: Any,
    block: Any,
    table: dict,
    first: int,
    stop: int,
    factory_bytes: bytes,
    lock: Any,
    num_workers: int,
    index: int = 0,
    spin: float = 0.0,
    main_watches: bool = False,
) -> None:
    """Worker-process loop: owns slots ``first..stop-1`` and answers the main process's commands.

    A step (:data:`STEP`) is answered only by the worker that finishes it last (``stepped``,
    counted under ``lock``, reaches ``num_workers``): it sends :data:`DONE`, so the main process
    wakes once per step. With ``main_watches`` the main process steps a chunk itself and counts
    itself in ``stepped`` too (``num_workers`` includes it), then watches ``stepped``: the last
    worker sends :data:`DONE` only if the main process went to sleep (``main_asleep``). A worker
    whose slots raised sends its error first, then counts itself.
    """
    fd = conn.fileno()
    try:
        factory, prior = workers.loads(factory_bytes)
        views = _views(block, table, slice(first, stop))
        stepped, failed, main_asleep = views["stepped"], views["failed"], views["main_asleep"]
        mail, asleep, letter = views["mail"], views["asleep"], views["letter"]
        slots = _Slots([factory() for _ in range(stop - first)], first, views, prior)
        slots.prefetch = True
        gc.freeze()  # what exists now (modules, tables, the slots' agents) is never scanned again
        seen = int(mail[index])  # posts taken so far (read before "ok": none comes before it)
        _send_message(fd, ("ok", None))
    except Exception as exc:
        with contextlib.suppress(OSError):
            _send_message(fd, ("error", _portable(exc)))
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
            if posted and letter[index] == STEP_POST:
                tag = STEP  # the hot path: no system call at all
            else:  # asleep (a STEP byte or a pickle comes), or a pickle posted
                tag, message = _receive(fd)
            seen += 1
            if tag == STEP:  # no pickle; one byte back from the last worker
                try:
                    slots.step()
                except Exception as exc:
                    _send_message(fd, ("error", _portable(exc)))
                    with lock:
                        failed[0] += 1
                with lock:
                    stepped[0] += 1
                    last = stepped[0] == num_workers
                    if last and main_watches:  # wake the main process only if it sleeps
                        last, main_asleep[0] = bool(main_asleep[0]), 0
                if last:
                    os.write(fd, DONE)
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
                    _send_message(fd, ("ok", None))
                    break
                else:
                    raise ValueError(f"unknown command {cmd!r}")
            except Exception as exc:
                _send_message(fd, ("error", _portable(exc)))
                continue
            _send_message(fd, ("ok", result))
    except (EOFError, KeyboardInterrupt, OSError):
        pass
    finally:
        conn.close()


# The wire (one socket pair per worker, read and written with ``os.read`` / ``os.write`` on its
# file descriptor: one system call per signal, none of ``Connection``'s framing): a message is
# one tag byte, :data:`STEP` (main -> worker: step your slots, the actions are in the shared
# block) or :data:`DONE` (worker -> main: stepped, the results are in the shared block), or
# :data:`PICKLED` followed by a 4-byte length and a pickle (commands, answers and errors).
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


def _write(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` (every message the main process sends goes through here)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _send_message(fd: int, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    _write(fd, PICKLED + _LENGTH.pack(len(data)) + data)


def _read_exactly(fd: int, n: int) -> bytes:
    parts = []
    while n:
        part = os.read(fd, n)
        if not part:
            raise EOFError("the other end of the pipe closed")
        parts.append(part)
        n -= len(part)
    return b"".join(parts)


def _receive(fd: int) -> tuple[bytes, Any]:
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
    raise RuntimeError(f"batched env: unexpected message tag {tag!r} on the worker pipe")


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it pickles, else a RuntimeError with its text."""
    try:
        pickle.dumps(exc)
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


# ---------------------------------------------------------------------------- the core

DEFAULT_SPIN = 0.002
"""Seconds a worker spins (yielding its core) for the next step before it sleeps on its socket."""


class BatchedCore:
    """The engine behind both facades; see the module docstring for the arguments.

    Buffers (numpy views, overwritten by the next call; copy what you keep): ``observation``
    ``[N, D] float32``, ``action_mask`` ``[N, A] bool``, ``reward`` ``[N] float32``,
    ``terminated`` / ``truncated`` ``[N] bool``, and for slots whose game ended on the last step
    ``final_observation``, ``episode_return``, ``episode_length``, ``final_returns`` ``[N, P]``;
    ``seat`` and ``game_seed`` of every slot's current game.
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        seat: int | Literal["random"] = 0,
        opponents: OpponentsSpec = None,
        reward_shaping: RewardShaping | None = None,
        seat_feature: bool = False,
        seed: int | None = None,
        num_workers: int = 0,
        mp_context: str = "spawn",
        env_factory: Callable[[], SingleAgentEnv] | None = None,
        prior: Callable[[], Agent] | None = None,
        worker_spin: float | None = None,
        main_steps: bool = False,
    ):
        num_envs = check_int(num_envs, "num_envs", 1)
        num_workers = check_int(num_workers, "num_workers", 0)
        seat = check_seat_option(seat, game.num_players)
        self.game = game
        self.num_envs = int(num_envs)
        self.seed = seed
        self.seat_feature = bool(seat_feature) and not seat_in_observation(game)
        spec = game.observation_spec
        if self.seat_feature:
            low, high = policy_obs_bounds(game)
        else:
            low, high = spec.low, spec.high
        self.prior = prior
        if prior is not None:
            n = game.num_actions
            low = np.concatenate([low, np.zeros(n, np.float32)])
            high = np.concatenate([high, np.ones(n, np.float32)])
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = cast(spaces.Discrete, spaces.Discrete(game.num_actions))
        factory = env_factory or SlotFactory(game, seat, opponents, reward_shaping)
        num_workers = min(int(num_workers), self.num_envs)
        chunks = worker_chunks(self.num_envs, num_workers)
        local = None  # main_steps: the chunk this process steps
        if main_steps and len(chunks) > 1:
            local = chunks.pop(0)
        elif main_steps:
            chunks = []  # one worker, and it is this process: in-process
        self._table, nbytes = _layout(game, self.num_envs, int(low.shape[0]), len(chunks))
        if worker_spin is None:  # spin where every worker can have a core of its own
            worker_spin = DEFAULT_SPIN if num_workers <= (os.cpu_count() or 1) else 0.0
        if not isinstance(worker_spin, int | float) or not 0 <= worker_spin < float("inf"):
            raise ValueError(f"worker_spin must be seconds >= 0, got {worker_spin!r}")
        self.worker_spin = float(worker_spin)
        self.num_workers = num_workers
        self.main_steps = bool(main_steps) and num_workers > 0
        self._nprocs = len(chunks)  # worker processes
        self._local: _Slots | None = None  # main_steps: the chunk this process steps
        self._local_chunk = local or range(0)
        self._closed = False
        self._broken: str | None = "call reset() before step()"
        self._pending = False
        self._row_offsets = np.arange(self.num_envs, dtype=np.int64) * game.num_actions
        self._conns: list[Any] = []  # multiprocessing Connections (they own the sockets)
        self._fds: list[int] = []  # their file descriptors, what the wire uses
        self._poller = select.poll()  # every worker's descriptor (a step waits on all)
        self._procs: list[Any] = []
        self._chunks: list[range] = []
        self._slots: _Slots | None = None
        if not chunks:
            self._block: Any = bytearray(nbytes)
            self.buffers = _views(self._block, self._table)
            self._flat_masks = self.buffers["action_mask"].reshape(-1)
            self._slots = _Slots([factory() for _ in range(self.num_envs)], 0, self.buffers, prior)
            return
        ctx = mp.get_context(mp_context)
        self._block = ctx.RawArray("B", nbytes)
        self.buffers = _views(self._block, self._table)
        self._flat_masks = self.buffers["action_mask"].reshape(-1)
        self._lock = ctx.Lock()  # guards buffers["stepped"]
        data = workers.dumps((factory, prior))
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
                    name=f"boardgames_rl-batched-{w}",
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
                views = _views(self._block, self._table, slice(local.start, local.stop))
                self._local = _Slots([factory() for _ in local], local.start, views, prior)
                self._local.prefetch = True  # builds next games while it watches the workers
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
                f"{self.game.name}: batched step expects an integer array of shape "
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
                f"action {int(arr[i])} ({self.game.action_name(int(arr[i]))}) for seat "
                f"{int(self.buffers['seat'][i])}, legal: "
                f"{np.flatnonzero(self.buffers['action_mask'][i]).tolist()}"
            )
        return arr

    def start(self, actions: Any) -> None:
        """Check ``actions`` and start the step (workers run while this process is free)."""
        self._check_open()
        if self._broken:
            raise RuntimeError(f"{self.game.name}: batched env: {self._broken}")
        if self._pending:
            raise RuntimeError(f"{self.game.name}: batched env: a step is already pending")
        self.buffers["actions"][:] = self.validate(actions)
        self._pending = True
        if self._slots is None:
            self.buffers["stepped"][0] = 0
            self.buffers["failed"][0] = 0
            self._post_step()

    def wait(self) -> None:
        """Finish the step started by :meth:`start` (buffers then hold its results)."""
        if not self._pending:
            raise RuntimeError(f"{self.game.name}: batched env: no step pending (call start)")
        self._pending = False
        try:
            if self._slots is not None:
                self._slots.step()  # all or nothing
                return
            if self._local is not None:
                errors = self._step_local_and_watch(self._local)
            else:
                errors = self._wait_step()
        except BrokenSlotsError:
            self._broken = "a slot could not be put back after an error; call reset()"
            raise
        except SlotError:  # in-process: the slots put themselves back
            raise
        except BaseException as exc:  # a dead worker, an interrupt: the env is lost
            self._broken = self._broken or f"a step failed ({exc}); call reset()"
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
    def envs(self) -> list[SingleAgentEnv]:
        """The slots' envs (in-process mode only; tests and debugging)."""
        if self._slots is None:
            raise RuntimeError("the slots' envs are only available with num_workers=0")
        return self._slots.envs

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
            self._post([w], PIPE_POST)
            _send_message(self._fds[w], (cmd, arg))
        except (BrokenPipeError, EOFError, OSError) as exc:
            self._procs[w].join(timeout=1)
            raise self._dead(w, exc) from None

    def _post_step(self) -> None:
        """Tell every worker to step (the actions are in the shared block): a spinning worker
        sees its post at once; one asleep on its socket gets one :data:`STEP` byte."""
        for w in self._post(range(self._nprocs), STEP_POST):
            try:
                _write(self._fds[w], STEP)
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

    def _step_local_and_watch(self, local: _Slots) -> dict[int, BaseException]:
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
                tag, message = _receive(fd)
            except (EOFError, OSError) as exc:
                self._procs[w].join(timeout=1)
                raise self._dead(w, exc) from None
            if tag == DONE:
                done = True
            elif message[0] == "error":
                errors.setdefault(w, message[1])
        return done

    def _gather(self, workers: Sequence[int]) -> dict[int, Any]:
        error: BaseException | None = None
        results: dict[int, Any] = {}
        for w in workers:
            try:
                tag, message = _receive(self._fds[w])
            except (EOFError, OSError) as exc:
                self._procs[w].join(timeout=1)
                error = error or self._dead(w, exc)
                continue
            if tag == DONE:
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
            f"batched env worker {w} (pid {proc.pid}, slots {chunk.start}-{chunk.stop - 1}) is "
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
                while select.select([fd], [], [], 5)[0] and _receive(fd)[0] == DONE:
                    pass  # then the close answer
            conn.close()
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"{self.game.name}: batched env is closed")

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


# ---------------------------------------------------------------------------- gymnasium facade


class BatchedVectorEnv(gym.vector.VectorEnv):
    """:class:`BatchedCore` as a ``gymnasium.vector.VectorEnv`` (same constructor keywords).

    * ``single_observation_space`` ``Box(float32)``, ``single_action_space`` ``Discrete(A)``;
      ``observation_space`` / ``action_space`` are their batched forms (``MultiDiscrete`` for
      actions).
    * ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``: on the step that ends a
      game the returned observation is already the next game's, and ``infos`` holds
      ``"final_obs"`` (object array, the ended game's last observation where ``"_final_obs"``)
      and ``"final_info"`` (``"episode": {"r", "l"}``, ``"returns"`` per seat, with
      ``"_final_info"``).
    * ``reset(seed=s)`` seeds slot ``i`` with ``(s, i)`` (a list gives one seed per slot);
      infos hold ``"seat"`` and ``"game_seed"`` arrays. Every ``step`` info holds ``"seat"``.
    * :meth:`action_masks` gives the ``[N, A]`` legal-action masks of the current decisions.

    Wrappers written for gymnasium's default ``NEXT_STEP`` mode (e.g.
    ``gymnasium.wrappers.vector.RecordEpisodeStatistics``, which skips the step after a done)
    miscount here; the episode statistics are in ``infos["final_info"]["episode"]``.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game: Game, num_envs: int, **kwargs: Any):
        self.core = BatchedCore(game, num_envs, **kwargs)
        self.num_envs = self.core.num_envs
        self.single_observation_space = self.core.single_observation_space
        self.single_action_space = self.core.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._first_seed = kwargs.get("seed")
        self._has_reset = False
        self._started = time.perf_counter()

    def reset(
        self, *, seed: int | Sequence[SeedLike] | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None and not self._has_reset:
            seed = self._first_seed
        if seed is None:
            seeds: list[SeedLike] = [None] * self.num_envs
        elif isinstance(seed, int | np.integer):
            seeds = slot_seeds(int(seed), self.num_envs)
        else:
            seeds = list(seed)
        self.core.reset(seeds)
        self._has_reset = True
        b = self.core.buffers
        return b["observation"].copy(), {
            "seat": b["seat"].copy(),
            "game_seed": b["game_seed"].copy(),
        }

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        self.core.start(actions)
        self.core.wait()
        b = self.core.buffers
        term, trunc = b["terminated"].copy(), b["truncated"].copy()
        infos: dict[str, Any] = {"seat": b["seat"].copy()}
        done = term | trunc
        if done.any():
            ended = np.flatnonzero(done)
            n = self.num_envs
            final_obs = np.full(n, None, dtype=object)
            for i, row in zip(ended, b["final_observation"][ended], strict=True):
                final_obs[i] = row  # rows of one copy
            r, length = np.zeros(n, np.float64), np.zeros(n, np.int64)
            returns = np.zeros_like(b["final_returns"])
            r[ended] = b["episode_return"][ended]
            length[ended] = b["episode_length"][ended]
            returns[ended] = b["final_returns"][ended]
            final_info = {
                "episode": {"r": r, "l": length, "_r": done.copy(), "_l": done.copy()},
                "returns": returns,
                "_episode": done.copy(),
                "_returns": done.copy(),
            }
            infos.update(
                final_obs=final_obs, _final_obs=done, final_info=final_info, _final_info=done
            )
        return b["observation"].copy(), b["reward"].copy(), term, trunc, infos

    def action_masks(self) -> np.ndarray:
        """``[N, A] bool``: the legal actions of each slot's current decision."""
        return self.core.buffers["action_mask"].copy()

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``name`` of every slot's env: called with the arguments if callable, else read."""
        values = self.core.get_attr(name)
        if values and callable(values[0]):
            return tuple(self.core.call(name, *args, **kwargs))
        return tuple(values)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return tuple(self.core.get_attr(name))

    def set_attr(self, name: str, values: Any) -> None:
        if not isinstance(values, list | tuple):
            values = [values] * self.num_envs
        for i, v in enumerate(values):
            self.core.set_attr(name, v, indices=[i])

    def close_extras(self, **kwargs: Any) -> None:
        core = getattr(self, "core", None)  # None when the constructor raised
        if core is not None:
            core.close()

    def __repr__(self) -> str:
        return (
            f"BatchedVectorEnv({self.core.game.name}, num_envs={self.num_envs}, "
            f"workers={self.core.num_workers}{', main steps' if self.core.main_steps else ''})"
        )
