"""The castle_flutterstone solver's cache file is data (issue 39): a damaged, foreign or planted
file at the cache path is solved again and replaced, never a traceback, a hang or a write
through a link.

Driven through the real entry point (``make_agent("solver")`` playing its first decision, and
the CLI for the FIFO, which hung the old reader) on a tiny track that solves quickly. The bad
files are built with numpy and the standard library only.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.games.castle_flutterstone.ai import race_agent
from boardgames_rl.registry import make_game

TINY = {"goal": 6, "bridges": [2, 4], "aim_levels": 2, "force_levels": 3, "yaws": [-15, 15]}
GAME = make_game("castle_flutterstone", **TINY)


def _first_decision(cache: Path, monkeypatch: pytest.MonkeyPatch):
    """A fresh solver agent (nothing remembered in this process) plays its first decision with
    its cache in ``cache``; returns its tables."""
    monkeypatch.setenv("BOARDGAMES_RL_CACHE", str(cache))
    race_agent._SOLVED.clear()
    agent = make_agent("solver:progress=false", GAME)
    state = GAME.new_state(0)
    info = state.info_set(state.current_player)
    assert info.legal_action_mask[agent.act(info, np.random.default_rng(0))]
    return agent.tables


@pytest.fixture(scope="module")
def solved_once(tmp_path_factory: pytest.TempPathFactory):
    """The good cache file's name, bytes and value table (solved once for the module)."""
    cache = tmp_path_factory.mktemp("good_cache")
    with pytest.MonkeyPatch.context() as mp:
        tables = _first_decision(cache, mp)
    (path,) = cache.iterdir()
    yield path.name, path.read_bytes(), tables.value.copy()
    race_agent._SOLVED.clear()


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _huge_header(good: bytes) -> bytes:
    """The good archive with a value.npy whose header claims a (2**20, 2**20) table (8 TiB)."""
    head = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        head, {"descr": "<f8", "fortran_order": False, "shape": (1 << 20, 1 << 20)}
    )
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good)) as src, zipfile.ZipFile(out, "w") as dst:
        dst.writestr("config.npy", src.read("config.npy"))
        dst.writestr("value.npy", head.getvalue() + bytes(64))
    return out.getvalue()


def _key(good: bytes) -> np.ndarray:
    with np.load(io.BytesIO(good), allow_pickle=False) as f:
        return f["config"]


BAD: dict[str, Callable[[bytes, np.ndarray], bytes]] = {
    "truncated npz": lambda good, value: good[: len(good) // 2],
    "plain .npy": lambda good, value: (lambda b: (np.save(b, value), b.getvalue())[1])(
        io.BytesIO()
    ),
    "structured dtype": lambda good, value: _npz(
        value=np.zeros(value.shape, dtype=[("a", "<f8")]), config=_key(good)
    ),
    "wrong dtype": lambda good, value: _npz(value=value.astype(np.float32), config=_key(good)),
    "header claims 8 TiB": lambda good, value: _huge_header(good),
}


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_cache_file_is_solved_again_and_replaced(
    kind: str, solved_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, good, value = solved_once
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / name).write_bytes(BAD[kind](good, value))
    tables = _first_decision(cache, monkeypatch)  # solved again: no traceback
    assert tables.sweeps > 2
    np.testing.assert_allclose(tables.value, value, atol=1e-6)
    assert _first_decision(cache, monkeypatch).sweeps <= 2  # the rewritten file is read back


def test_a_link_at_the_cache_path_is_replaced_never_followed(
    solved_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Links to ``/dev/zero`` and to a file outside the cache folder are not the cache: solved
    again, and the new file replaces the link (the outside file is never written); a link
    planted where the old writer put its temporary file is left alone too."""
    name, _, value = solved_once
    cache = tmp_path / "cache"
    cache.mkdir()
    outside = tmp_path / "outside.txt"
    for target in ("/dev/zero", outside):
        outside.write_text("keep me")
        (cache / name).unlink(missing_ok=True)
        (cache / name).symlink_to(target)
        (cache / name).with_suffix(".tmp.npz").unlink(missing_ok=True)
        (cache / name).with_suffix(".tmp.npz").symlink_to(outside)
        tables = _first_decision(cache, monkeypatch)
        assert tables.sweeps > 2
        np.testing.assert_allclose(tables.value, value, atol=1e-6)
        assert not (cache / name).is_symlink() and (cache / name).is_file()
        assert outside.read_text() == "keep me"
        assert _first_decision(cache, monkeypatch).sweeps <= 2


def test_a_fifo_at_the_cache_path_does_not_hang_the_cli(solved_once, tmp_path: Path) -> None:
    """``boardgames-rl arena`` with the solver: a FIFO planted at the cache path is not read
    (the old reader blocked on it forever), the race is solved again and the FIFO replaced."""
    name, _, _ = solved_once
    cache = tmp_path / "cache"
    cache.mkdir()
    os.mkfifo(cache / name)
    options = [
        f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in TINY.items()
    ]
    cmd = [sys.executable, "-m", "boardgames_rl.cli", "arena", "castle_flutterstone", "solver"]
    cmd += ["random", "-n", "1", "--no-progress", *(a for o in options for a in ("-c", o))]
    env = {**os.environ, "BOARDGAMES_RL_CACHE": str(cache)}
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=90)
    except subprocess.TimeoutExpired:
        pytest.fail("the solver blocked on a FIFO at its cache path")
    assert run.returncode == 0, run.stderr
    assert (cache / name).is_file()
