"""Every-seat slots: each slot is one game stepped for the player on move, whoever it is.

The slots behind the multi-agent view (:class:`~boardgames_rl.envs.vector.VectorEnv`): a step
applies one action per slot for that slot's player on move; a game that ends reports its
outcome (``rewards``, ``final_returns``, ``episode_lengths``, ``terminated`` / ``truncated``) and
the slot starts its next game at once. Slot ``j`` keeps its game's seed and the actions applied
since, which rebuild the game as it was before a failed step (no copy of any game per step).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgames_rl.core.game import Game, State, apply_legal
from boardgames_rl.core.seeding import SeedLike, next_game_seed, seed_stream
from boardgames_rl.envs.aec import RewardShaping

ROWS = (
    "observation",
    "action_mask",
    "current_player",
    "rewards",
    "terminated",
    "truncated",
    "final_returns",
    "episode_lengths",
)
"""The slots' buffers (what a step writes)."""


class SeatKind:
    """Every-seat slots of ``game`` with an optional ``reward_shaping``. Picklable: what worker
    processes receive."""

    mover = "current_player"
    facade = "VectorEnv.step"

    def __init__(self, game: Game, reward_shaping: RewardShaping | None):
        self.game, self.reward_shaping = game, reward_shaping

    def fields(self, n: int) -> list[tuple[str, Any, tuple[int, ...]]]:
        """The slots' buffers (the core adds ``actions`` and its control cells)."""
        game, p = self.game, self.game.num_players
        return [
            ("observation", np.float32, (n, game.observation_spec.size)),
            ("action_mask", np.bool_, (n, game.num_actions)),
            ("current_player", np.int64, (n,)),
            ("rewards", np.float32, (n, p)),
            ("terminated", np.bool_, (n,)),
            ("truncated", np.bool_, (n,)),
            ("final_returns", np.float32, (n, p)),
            ("episode_lengths", np.int64, (n,)),
        ]

    def build(self, first: int, count: int, out: dict[str, np.ndarray], ahead: bool) -> SeatSlots:
        """Slots ``first .. first + count - 1`` writing into ``out``; ``ahead`` (a worker's or
        ``main_steps``' chunk): keep what :meth:`SeatSlots.rollback` needs."""
        slots = SeatSlots(self.game, range(first, first + count), self.reward_shaping, out)
        slots.undo = ahead
        return slots


class SeatSlots:
    """A chunk of every-seat slots (one game state each) writing into buffer views."""

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

    def reset(self, seeds: Sequence[SeedLike]) -> None:
        """Start a new game in every slot: slot ``j``'s stream restarts from ``seeds[j]`` (None:
        the next game of its stream; a fresh OS-entropy stream if it has none)."""
        if not self.streams:
            self.streams = [seed_stream(s) for s in seeds]
        else:
            self.streams = [
                seed_stream(s) if s is not None else stream
                for s, stream in zip(seeds, self.streams, strict=True)
            ]
        self.game_seeds = [next_game_seed(s) for s in self.streams]
        self.moves = [[] for _ in self.slot_ids]
        self.states = [self.game.new_state(g) for g in self.game_seeds]
        self.lengths[:] = 0
        self._previous = None
        for k in ("rewards", "terminated", "truncated", "final_returns", "episode_lengths"):
            self.out[k].fill(0)
        for j, state in enumerate(self.states):
            self._write(j, state)

    def step(self) -> None:
        """Step every slot with its action from the ``actions`` buffer (checked against the mask
        buffer by the caller). All or nothing: the results are staged, and only when every slot
        and every ``reward_shaping`` call has succeeded are the games, streams and buffers
        committed (a new game's seed is drawn from a copy of its stream). An exception puts
        every slot that moved back as it was, so the env is as it was: from the clone
        ``reward_shaping`` needs anyway, else rebuilt from its game's seed and moves
        (``_replay``; games are deterministic), so a step copies no game. :meth:`rollback`
        undoes the last committed step (used when another worker's chunk failed)."""
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
        chosen = self.out["actions"].tolist()
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
            buffers = {k: self.out[k].copy() for k in ROWS}
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

    def prepare_one(self) -> bool:
        """Nothing is built ahead for these slots."""
        return False

    def call(self, name: str, args: tuple, kwargs: dict, local: Sequence[int]) -> list[Any]:
        raise TypeError(f"the multi-agent vector env has no per-slot env to call {name!r} on")

    def get_attr(self, name: str, local: Sequence[int]) -> list[Any]:
        raise TypeError(f"the multi-agent vector env has no per-slot env to read {name!r} from")

    def set_attr(self, name: str, value: Any, local: Sequence[int]) -> None:
        raise TypeError(f"the multi-agent vector env has no per-slot env to set {name!r} on")
