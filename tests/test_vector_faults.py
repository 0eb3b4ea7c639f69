"""Issue 13: "VectorEnv.step is all-or-nothing: if any slot or callback (reward_shaping) raises, no
slot has changed; a dead worker is reported as such (clear error naming the worker, not
BrokenPipeError)"."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

from boardgames_rl.core.seeding import next_game_seed, seed_stream
from boardgames_rl.envs.batched import SHARED, SlotError
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv
from boardgames_rl.envs.vector import VectorEnv
from boardgames_rl.registry import make_game
from boardgames_rl.testing.toy_game import ToyGame

GAME = make_game("castle_flutterstone", num_players=2)
_FAULTY_APPLIES = [0]  # moves made by faulty states in this process


class FaultyToy(ToyGame):
    """The toy game whose game ``faulty_seed`` raises on the ``fail_at``-th move made by such
    games in a process (an engine fault, injected: a replay of that game counts too). A toy
    game, not a built-in engine: a compiled engine's state class cannot be subclassed here.
    The two values are configuration, so that the game pickles to the workers."""

    def __init__(self, faulty_seed: int, fail_at: int, **config):
        super().__init__(**config)
        self.faulty_seed, self.fail_at = faulty_seed, fail_at
        self._config.update(faulty_seed=faulty_seed, fail_at=fail_at)

    def new_state(self, seed=None):
        state = super().new_state(seed)
        if seed == self.faulty_seed:
            state.__class__ = _faulty_class(type(state))
        return state


def _faulty_class(base: type) -> type:
    def _apply(self, action):
        _FAULTY_APPLIES[0] += 1
        if _FAULTY_APPLIES[0] == self.game.fail_at:
            base._apply(self, action)  # half a move: the state has changed
            raise RuntimeError("engine fault")
        base._apply(self, action)

    return type("Faulty" + base.__name__, (base,), {"_apply": _apply})


class FailingShaping:
    """Raises on call number ``at`` (counted in the process that runs it)."""

    def __init__(self, at: int):
        self.at, self.calls = at, 0

    def __call__(self, previous, state):
        self.calls += 1
        if self.calls == self.at:
            raise RuntimeError("shaping failed")
        return np.zeros(state.game.num_players)


def _snapshot(venv: VectorEnv, out) -> tuple:
    states = [s.to_dict() for s in venv.states] if venv.num_workers == 0 else None
    return states, {k: np.array(v, copy=True) for k, v in vars(out).items()}


def _failing_step_changes_nothing(venv: VectorEnv, out, actions, match: str) -> None:
    """``venv.step(actions)`` raises (``match``) and every state and buffer is as it was."""
    before_states, _ = _snapshot(venv, out)
    before_buffers = {k: venv._buffers[k].copy() for k in venv._buffers}
    with pytest.raises(RuntimeError, match=match):
        venv.step(actions)
    after_states, _ = _snapshot(venv, out)
    assert after_states == before_states
    for k, v in before_buffers.items():
        assert np.array_equal(venv._buffers[k], v), k


@pytest.mark.parametrize("workers", [0, 2])
def test_a_raising_callback_leaves_every_slot_unchanged(workers: int) -> None:
    # slot 2 is the third call of the step (in-process) / the first of worker 1's second slot
    venv = VectorEnv(
        GAME,
        4,
        seed=0,
        reward_shaping=FailingShaping(4 + 3 if workers == 0 else 4),
        num_workers=workers,
    )
    try:
        out = venv.reset(seed=0)
        rng = np.random.default_rng(0)
        out = venv.step(venv.sample_random_actions(rng))  # one good step (4 calls in-process)
        actions = venv.sample_random_actions(rng)
        _failing_step_changes_nothing(venv, out, actions, "shaping failed")
        # the same actions now go through (the callback raises only once) and match a clean env
        got = venv.step(actions)
        clean = VectorEnv(GAME, 4, seed=0, reward_shaping=FailingShaping(-1))
        clean.reset(seed=0)
        rng2 = np.random.default_rng(0)
        clean.step(clean.sample_random_actions(rng2))
        want = clean.step(clean.sample_random_actions(rng2))
        assert np.array_equal(got.observation, want.observation)
        assert np.array_equal(got.rewards, want.rewards)
    finally:
        venv.close()


@pytest.mark.parametrize("workers", [0, 2])
def test_an_engine_fault_leaves_every_slot_unchanged(workers: int) -> None:
    """No ``reward_shaping``, so no slot is cloned: the slots that moved before the fault (slot
    2, the faulty slot 3, and with workers worker 0's committed chunk) are rebuilt from their
    game's seed and moves; the env is as it was, and the same actions then give the clean
    env's step."""
    _FAULTY_APPLIES[0] = 0
    faulty_seed = next_game_seed(seed_stream((0, 3)))
    game = FaultyToy(faulty_seed, fail_at=2, num_players=2)
    venv = VectorEnv(game, 4, seed=0, num_workers=workers)
    clean = VectorEnv(ToyGame(num_players=2), 4, seed=0)
    try:
        out, want = venv.reset(seed=0), clean.reset(seed=0)
        rng = np.random.default_rng(0)
        actions = venv.sample_random_actions(rng)
        out, want = venv.step(actions), clean.step(actions)  # the faulty game's first move
        actions = venv.sample_random_actions(rng)
        _failing_step_changes_nothing(venv, out, actions, "engine fault")
        for _ in range(40):  # the same actions go through now, and every later step matches
            got, want = venv.step(actions), clean.step(actions)
            for k in vars(want):
                np.testing.assert_array_equal(getattr(got, k), getattr(want, k), err_msg=k)
            actions = clean.sample_random_actions(rng)
    finally:
        venv.close()
        clean.close()


def test_games_rebuilt_from_their_moves_are_the_games_played() -> None:
    """The rebuild an undone step relies on, on every game (the engines are deterministic):
    after random play through game ends, every slot's seed and moves give its state again."""
    ended = 0
    for name, config in [
        ("castle_flutterstone", {"num_players": 3}),
        ("castle_nightingale", {}),
        ("night_of_the_ninja", {"num_players": 5}),
        ("white_castle", {"num_players": 2}),
    ]:
        venv = VectorEnv(make_game(name, **config), 3, seed=1)
        venv.reset()
        rng = np.random.default_rng(1)
        for _ in range(150):
            ended += int(venv.step(venv.sample_random_actions(rng)).terminated.sum())
        slots = venv._slots
        for j, state in enumerate(slots.states):
            assert slots._replay(j).to_dict() == state.to_dict(), (name, j)
    assert ended  # a slot's history starts again with its next game


def test_a_dead_worker_is_named() -> None:
    venv = VectorEnv(GAME, 4, seed=0, num_workers=2)
    try:
        venv.reset(seed=0)
        os.kill(venv._procs[1].pid, signal.SIGKILL)
        time.sleep(0.5)
        with pytest.raises(RuntimeError, match=r"worker 1 \(pid \d+, slots 2-3\) is dead"):
            venv.step(venv.sample_random_actions(np.random.default_rng(0)))
    finally:
        venv.close()


def test_workers_write_shared_buffers_and_the_pipes_carry_no_buffers(monkeypatch) -> None:
    """Issue 14: "with workers the main process and the workers run in lockstep, pickling whole
    buffers": the workers write their rows of one shared block in place; a step sends at most a
    byte per worker (none to a spinning one), and the results equal the in-process env's."""
    from boardgames_rl.envs.vector import wire

    venv = VectorEnv(GAME, 6, seed=3, num_workers=2)
    local = VectorEnv(GAME, 6, seed=3)
    sent: list[bytes] = []
    write = wire.write

    def spy(fd: int, data: bytes) -> None:
        sent.append(bytes(data))
        write(fd, data)

    try:
        a, b = venv.reset(), local.reset()
        monkeypatch.setattr(wire, "write", spy)
        rng = np.random.default_rng(0)
        for _ in range(30):
            for k in vars(a):
                np.testing.assert_array_equal(getattr(a, k), getattr(b, k))
            actions = local.sample_random_actions(rng)
            a, b = venv.step(actions), local.step(actions)
        assert set(sent) <= {wire.STEP} and len(sent) <= 2 * 30
    finally:
        venv.close()
        local.close()


class Boom:
    """Reward shaping that raises (set on chosen slots of a batched env with ``set_attr``)."""

    def __call__(self, previous, state):
        raise RuntimeError("shaping failed")


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize(
    "workers,main_steps", [(0, False), (2, False), (2, True)], ids=["in-process", "2w", "main"]
)
def test_a_failed_batched_step_changes_nothing(workers: int, main_steps: bool) -> None:
    """Issue 41: "one failure contract (a failed step changes nothing)": the batched env's step is
    all or nothing too. A slot raising after it moved (its shaping runs once the opponents have
    played) leaves every buffer as it was, in this process and in every worker (the chunks that
    stepped roll back), and the env then plays on exactly as one that never failed."""
    venv = BatchedVecEnv(
        GAME,
        6,
        seat="random",
        seed=4,
        seat_feature=True,
        num_workers=workers,
        main_steps=main_steps,
    )
    clean = BatchedVecEnv(GAME, 6, seat="random", seed=4, seat_feature=True)
    try:
        np.testing.assert_array_equal(venv.reset(), clean.reset())
        rng = np.random.default_rng(0)
        ended = 0
        for step in range(120):
            actions = _legal(clean.action_masks(), rng)
            if step in (5, 40, 90):
                failing = [0, 5] if step == 90 else [3]
                before = {k: v.copy() for k, v in venv.core.buffers.items() if k not in SHARED}
                venv.set_attr("reward_shaping", Boom(), indices=failing)
                with pytest.raises(SlotError, match=rf"^slot {failing[0]}: RuntimeError: shaping"):
                    venv.step(actions)
                venv.set_attr("reward_shaping", None, indices=failing)
                for k, v in before.items():
                    if k != "actions":
                        np.testing.assert_array_equal(venv.core.buffers[k], v, err_msg=k)
            got, want = venv.step(actions), clean.step(actions)
            for x, y in zip(got[:3], want[:3], strict=True):
                np.testing.assert_array_equal(x, y)
            for i, (a, b) in enumerate(zip(got[3], want[3], strict=True)):
                assert ("episode" in a) == ("episode" in b)
                if "episode" in a:
                    ended += 1
                    assert a["episode"]["r"] == b["episode"]["r"], i
                    np.testing.assert_array_equal(
                        a["terminal_observation"], b["terminal_observation"]
                    )
        assert ended  # games ended (and restarted) around the failed steps
    finally:
        venv.close()
        clean.close()
