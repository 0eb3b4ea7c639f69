"""Saved demonstrations: ``lab/experiments/collect_demos.py`` and the SB3 recipe's ``--bc-data``.

The collector is driven as a subprocess: chunks are the same whatever the worker count, the
same command again only adds what is missing, a folder made with other settings is refused in
one line. A chunk is data, never code: one holding a pickled object, a truncated file, an illegal
label or a folder made for another prior is refused in one line. ``--init-from ENTRY --bc-data``
fine-tunes the entry's actor on the rows (it moves toward the labels, starting from the entry).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from boardgames_rl.registry import make_game  # noqa: E402
from lab.recipes.sb3.demos import (  # noqa: E402
    DemosError,
    chunk_path,
    load_demos,
)

from .helpers import COLLECT_DEMOS, tiny_run  # noqa: E402
from .test_init_from import ENTRY, _entry_flags  # noqa: E402

SCRIPT = COLLECT_DEMOS
GAME = ["--game", "white_castle", "-c", "num_players=2"]
COLLECT = [*GAME, "--teacher", "heuristic", "--opponents", "random", "--prior", "heuristic"]


def _collect(out: Path, games: int, *extra: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, str(SCRIPT), *COLLECT, "--chunk-games", "2", "--games", str(games)]
    return subprocess.run(
        [*cmd, "--out", str(out), "--no-progress", *extra],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


@pytest.fixture(scope="module")
def demos_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demos") / "wc"
    done = _collect(out, 4)
    assert done.returncode == 0, done.stderr
    return out


def test_chunks_do_not_depend_on_workers_and_a_rerun_adds_only_what_is_missing(
    demos_dir: Path, tmp_path: Path
) -> None:
    other = tmp_path / "wc2"
    done = _collect(other, 4, "--workers", "2")
    assert done.returncode == 0, done.stderr
    for k in (0, 1):
        a, b = _arrays(chunk_path(demos_dir, k)), _arrays(chunk_path(other, k))
        assert a.keys() == b.keys()
        for name in a:
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    assert len(_arrays(chunk_path(other, 0))["game_returns"]) == 2
    before = chunk_path(other, 0).stat().st_mtime_ns
    more = _collect(other, 6)
    assert more.returncode == 0, more.stderr
    assert "2 of 3 chunks present, 1 to play" in more.stdout
    assert chunk_path(other, 2).is_file() and chunk_path(other, 0).stat().st_mtime_ns == before
    # other settings into the same folder: one line, nothing written
    refused = subprocess.run(
        [sys.executable, str(SCRIPT), *GAME, "--teacher", "random", "--out", str(other)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1, refused.stderr
    assert "other settings" in refused.stderr and not chunk_path(other, 3).exists()


def test_rows_are_the_teachers_legal_moves_from_the_run_observation(demos_dir: Path) -> None:
    game = make_game("white_castle", num_players=2)
    meta = json.loads((demos_dir / "demos.json").read_text())
    data, sources = load_demos(str(demos_dir), game, "heuristic", meta["observation_size"])
    assert sources[0]["teacher"] == "heuristic" and sources[0]["chunks"] == 2
    assert data.games == 4 and len(data) > 4
    assert data.masks[np.arange(len(data)), data.actions].all()
    assert set(np.unique(data.returns)) <= set(np.unique(data.game_returns))
    # each row ends with the prior's one-hot of a legal move; the heuristic teacher mostly plays
    # it (the two heuristics break ties with their own generators)
    prior_part = data.obs[:, -game.num_actions :]
    assert (prior_part.sum(axis=1) == 1).all()
    assert data.masks[np.arange(len(data)), prior_part.argmax(axis=1)].all()
    assert (prior_part.argmax(axis=1) == data.actions).mean() > 0.6


def _copy(src: Path, dest: Path) -> Path:
    dest.mkdir()
    for f in src.iterdir():
        (dest / f.name).write_bytes(f.read_bytes())
    return dest


def test_a_damaged_or_foreign_folder_is_refused_in_one_line(demos_dir: Path, tmp_path) -> None:
    game = make_game("white_castle", num_players=2)
    size = json.loads((demos_dir / "demos.json").read_text())["observation_size"]
    with pytest.raises(DemosError, match="made for prior 'heuristic'") as e:
        load_demos(str(demos_dir), game, "", size - game.num_actions)
    assert "\n" not in str(e.value)
    with pytest.raises(DemosError, match="made for game 'white_castle'"):
        load_demos(str(demos_dir), make_game("castle_flutterstone"), "heuristic", size)
    # a pickled object in a chunk: refused, never unpickled
    pickled = _copy(demos_dir, tmp_path / "pickled")
    arrays = _arrays(chunk_path(pickled, 1))
    arrays["obs"] = np.array([{"x": 1}] * len(arrays["actions"]), dtype=object)
    with open(chunk_path(pickled, 1), "wb") as f:
        np.savez(f, **arrays)  # type: ignore[arg-type]  # stub: **arrays could be allow_pickle
    with pytest.raises(DemosError, match="chunk-00001.npz: not a demonstration chunk"):
        load_demos(str(pickled), game, "heuristic", size)
    truncated = _copy(demos_dir, tmp_path / "truncated")
    blob = chunk_path(truncated, 0).read_bytes()
    chunk_path(truncated, 0).write_bytes(blob[: len(blob) // 3])
    with pytest.raises(DemosError, match="delete it and collect again"):
        load_demos(str(truncated), game, "heuristic", size)
    illegal = _copy(demos_dir, tmp_path / "illegal")
    arrays = _arrays(chunk_path(illegal, 0))
    arrays["actions"][0] = int(np.flatnonzero(~arrays["masks"][0])[0])
    with open(chunk_path(illegal, 0), "wb") as f:
        np.savez(f, **arrays)  # type: ignore[arg-type]  # stub: **arrays could be allow_pickle
    with pytest.raises(DemosError, match="not a legal action"):
        load_demos(str(illegal), game, "heuristic", size)
    with pytest.raises(DemosError, match="no demos.json"):
        load_demos(str(tmp_path), game, "heuristic", size)


def test_init_from_with_bc_data_fine_tunes_the_entry(demos_dir: Path, tmp_path: Path) -> None:
    """The run starts from the entry, clones the rows (``bc.csv``, ``BC_DATA.json``), and
    evaluates the fine-tuned policy at step 0; its accuracy on the rows rises epoch by epoch."""
    out = tmp_path / "run"
    flags = [*_entry_flags(ENTRY), "--init-from", ENTRY, "--bc-data", str(demos_dir)]
    settings = tiny_run(out, "white_castle", 64, *flags, "--bc-epochs", "3")
    assert settings["bc_data"] == str(demos_dir)
    rows = (out / "bc.csv").read_text().splitlines()
    assert len(rows) == 1 + 3
    header = rows[0].split(",")
    accuracy = [float(r.split(",")[header.index("accuracy")]) for r in rows[1:]]
    assert accuracy[-1] >= accuracy[0]
    assert json.loads((out / "BC_DATA.json").read_text())[0]["chunks"] == 2
    assert (out / "eval.csv").read_text().splitlines()[1].startswith("0,")


def test_bc_data_with_bc_games_is_refused(demos_dir: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as e:
        tiny_run(out, "white_castle", 64, "--bc-data", str(demos_dir), "--bc-games", "3")
    text = str(e.value.code) if not isinstance(e.value.code, int) else capsys.readouterr().err
    assert "choose one" in text and text.strip().count("\n") == 0, text
    assert not out.exists()
