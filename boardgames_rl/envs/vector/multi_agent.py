"""VectorEnv: the multi-agent batched view, N games of one game stepped together.

::

    import numpy as np

    from boardgames_rl import make_game
    from boardgames_rl.envs.vector import VectorEnv

    venv = VectorEnv(make_game("castle_flutterstone", num_players=3), num_envs=64, seed=0)
    out = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = venv.sample_random_actions(rng)   # or policy(out.observation, out.action_mask)
        out = venv.step(actions)
        finished = out.terminated | out.truncated           # those slots already hold a new game
    venv.close()

Each slot holds one game and is stepped for the player on move in that game
(:mod:`~boardgames_rl.envs.vector.seat_slots`). When a game ends the step reports its outcome
(``rewards``, ``final_returns``, ``episode_lengths``, ``terminated`` / ``truncated``) and the slot
immediately starts its next game: the returned ``observation``, ``action_mask`` and
``current_player`` are already the new game's.

Seeding: slot ``i`` owns the seed stream ``seed_stream((seed, i))`` and every new game in it takes
``next_game_seed(stream)``, so slot ``i`` plays exactly the games of a
:class:`~boardgames_rl.envs.aec.GameAECEnv` reset with ``seed=(seed, i)`` (then reset without a
seed after each game). With ``num_workers > 0`` the slots are split into contiguous chunks
stepped by worker processes over shared memory (:mod:`~boardgames_rl.envs.vector.core`); the
results are identical.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from gymnasium import spaces

from boardgames_rl.core.game import Game, State
from boardgames_rl.envs.aec import RewardShaping
from boardgames_rl.envs.vector.core import VectorCore, slot_seeds
from boardgames_rl.envs.vector.seat_slots import ROWS, SeatKind


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
        worker_spin: see :class:`~boardgames_rl.envs.vector.core.VectorCore` (never changes
            results).
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
        worker_spin: float | None = None,
    ):
        self.core = VectorCore(
            SeatKind(game, reward_shaping), num_envs, num_workers, mp_context, worker_spin
        )
        self.game = game
        self.num_envs = self.core.num_envs
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.num_workers = self.core.num_workers
        self.copy = copy
        self.reward_shaping = reward_shaping
        self.observation_space = spaces.Box(
            game.observation_spec.low, game.observation_spec.high, dtype=np.float32
        )
        self.action_space = cast(spaces.Discrete, spaces.Discrete(game.num_actions))
        self.seed: int | None = seed
        self._buffers = {k: self.core.buffers[k] for k in ROWS}
        self._has_reset = False

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None) -> VectorStep:
        """Start a new game in every slot.

        With ``seed`` slot ``i`` restarts the stream ``seed_stream((seed, i))``. Without one, the
        first reset uses the constructor seed (or a fresh OS-entropy base seed) and later resets
        start the next game of each slot's stream.
        """
        if seed is None and not self._has_reset:
            if self.seed is None:
                self.seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
            seed = self.seed
        elif seed is not None:
            self.seed = int(seed)
        seeds = slot_seeds(int(seed), self.num_envs) if seed is not None else None
        self.core.reset(seeds)
        self._has_reset = True
        return self._result()

    def step(self, actions: np.ndarray) -> VectorStep:
        """Apply one action per slot (for that slot's player on move); finished games restart.

        All or nothing: actions are checked against the current masks before any game moves, the
        results are committed only when every slot and every ``reward_shaping`` call succeeded,
        and a slot that moved before an exception is put back as it was (rebuilt from its game's
        seed and moves, or from the clone ``reward_shaping`` is given; no game is copied on a
        step that succeeds), so any exception (an illegal or malformed action, a raising
        callback, a fault inside a game) leaves every slot unchanged. A dead worker raises
        ``RuntimeError`` naming it.
        """
        if not self._has_reset:
            self.core._check_open()
            raise RuntimeError("VectorEnv: call reset() before step()")
        self.core.start(actions)
        self.core.wait()
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
        if self.core._slots is None:
            raise RuntimeError("VectorEnv.states is only available with num_workers=0")
        return self.core._slots.states

    @property
    def _slots(self) -> Any:
        return self.core._slots

    @property
    def _procs(self) -> list[Any]:
        return self.core._procs

    def close(self) -> None:
        """Stop the worker processes (if any). Safe to call twice."""
        core = getattr(self, "core", None)  # None when the constructor raised
        if core is not None:
            core.close()

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    def __repr__(self) -> str:
        return f"<VectorEnv {self.game!r} num_envs={self.num_envs} workers={self.num_workers}>"

    def _result(self) -> VectorStep:
        b = self._buffers
        if self.copy:
            return VectorStep(**{k: b[k].copy() for k in ROWS})
        return VectorStep(**{k: b[k] for k in ROWS})
