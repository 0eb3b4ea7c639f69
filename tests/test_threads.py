"""Worker processes start with one BLAS / OpenMP thread each (``_util.threads``).

Measured on 2 cores: two processes evaluating the Castle Nightingale pretrained policy, each
with OpenBLAS's default thread pool, held 1.5 cores each (a second thread spinning) and ran about
2.5x slower than one alone. The variables are read when a child loads its libraries, so the
checks read each real worker's initial environment from ``/proc/<pid>/environ``.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from pathlib import Path

import pytest

from boardgames_rl._util.threads import THREAD_VARIABLES, one_blas_thread_in_children
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv
from boardgames_rl.envs.vector import VectorEnv
from boardgames_rl.registry import make_game

needs_proc = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


def start_environment(pid: int) -> dict[str, str]:
    """The environment process ``pid`` started with."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)


def _child_environment(queue) -> None:
    queue.put({name: os.environ.get(name) for name in THREAD_VARIABLES})


def test_children_get_one_thread_and_this_process_is_left_as_it_was(monkeypatch):
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")  # the user's choice is kept
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    with one_blas_thread_in_children():
        proc = ctx.Process(target=_child_environment, args=(queue,))
        proc.start()
    seen = queue.get(timeout=60)
    proc.join(60)
    assert seen == {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "3"}
    assert "OMP_NUM_THREADS" not in os.environ and "OPENBLAS_NUM_THREADS" not in os.environ
    assert os.environ["MKL_NUM_THREADS"] == "3"


def test_the_environment_is_put_back_when_the_start_fails(monkeypatch):
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RuntimeError), one_blas_thread_in_children():
        raise RuntimeError("a worker failed to start")
    assert not any(name in os.environ for name in THREAD_VARIABLES)


@needs_proc
def test_vector_env_and_batched_env_workers_start_with_one_thread(monkeypatch):
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    game = make_game("castle_flutterstone", num_players=2)
    vec = VectorEnv(game, 2, seed=0, num_workers=1)
    batched = BatchedVecEnv(game, 2, seed=0, num_workers=1)
    try:
        procs = [*vec._procs, *batched.core._procs]
        assert len(procs) == 2
        for proc in procs:
            env = start_environment(proc.pid)
            assert all(env.get(name) == "1" for name in THREAD_VARIABLES), proc
    finally:
        vec.close()
        batched.close()
    assert not any(name in os.environ for name in THREAD_VARIABLES)
