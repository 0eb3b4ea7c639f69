"""Issue 13: "VectorEnv.step is all-or-nothing: if any slot or callback (reward_shaping) raises, no
slot has changed; a dead worker is reported as such (clear error naming the worker, not
BrokenPipeError)"."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

from boardgames_rl.envs.vector import VectorEnv
from boardgames_rl.registry import make_game

GAME = make_game("castle_flutterstone", num_players=2)


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
        before_states, _ = _snapshot(venv, out)
        before_buffers = {k: venv._buffers[k].copy() for k in venv._buffers}
        actions = venv.sample_random_actions(rng)
        with pytest.raises(RuntimeError, match="shaping failed"):
            venv.step(actions)
        after_states, _ = _snapshot(venv, out)
        assert after_states == before_states
        for k, v in before_buffers.items():
            assert np.array_equal(venv._buffers[k], v), k
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
    buffers": the workers now write their rows of one shared block in place; the answers on the
    pipes are a status with no payload, and the results equal the in-process env's."""
    venv = VectorEnv(GAME, 6, seed=3, num_workers=2)
    local = VectorEnv(GAME, 6, seed=3)
    received: list = []
    try:
        for conn in venv._conns:
            recv = conn.recv

            def spy(recv=recv):
                message = recv()
                received.append(message)
                return message

            monkeypatch.setattr(conn, "recv", spy)
        a, b = venv.reset(), local.reset()
        rng = np.random.default_rng(0)
        for _ in range(30):
            for k in vars(a):
                np.testing.assert_array_equal(getattr(a, k), getattr(b, k))
            actions = local.sample_random_actions(rng)
            a, b = venv.step(actions), local.step(actions)
        assert len(received) == 2 * 31 and all(m == ("ok", None) for m in received)
    finally:
        venv.close()
