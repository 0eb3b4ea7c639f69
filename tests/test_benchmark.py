"""The comparison benchmark (``lab/benchmarks/throughput.py``, outside the package, issue 12 and
14.5): a ``--quick`` run writes every ratio; it runs from a clone as a script or as a module (the
lab's command: the package has none, issue 41); no stub modules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.registry import make_game
from lab.benchmarks.baselines import (
    MissingBench,
    random_legal_action,
    random_legal_actions,
    require,
)
from lab.benchmarks.throughput import main

COLUMNS = ["engine", "aec_make", "aec_raw", "vec", "batched", "clone", "sample", "ismcts"]


def test_quick_run_writes_every_ratio_beside_the_baselines(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t.json"
    status = main(
        ["--quick", "--games", "castle_flutterstone", "--no-ppo", "--workers", "0", "--out", out]
    )
    assert status == 0
    captured = capsys.readouterr()
    assert "benchmark: round 2/2 done" in captured.err
    result = json.loads(out.read_text())
    assert result["settings"]["quick"] and result["settings"]["rounds"] == 2
    assert result["settings"]["timer"].startswith("time.thread_time")
    assert result["connect_four_us_per_step"]["raw"]["median"] > 0
    (row,) = result["games"].values()
    for column in COLUMNS:
        entry = row[column]
        assert len(entry["rounds"]) == 2, column
        assert 0 < entry["min"] <= entry["median"] <= entry["max"], column
    for name in (
        "openspiel_connect_four",
        "openspiel_connect_four_obs",
        "openspiel_python_tic_tac_toe",
        "texas_holdem_raw",
    ):
        assert result["baselines"][name]["median"] > 0, name
    table = captured.out
    assert "castle_flutterstone 2p" in table and "OpenSpiel connect_four" in table
    assert "QUICK" in table


def test_workers_column_alternates_persistent_envs_and_closes_them(tmp_path: Path) -> None:
    """The ``2w/0w`` column: the in-process env and the env with workers are built once and
    measured alternately every round (``--worker-pairs``), and their worker processes are gone
    when the run ends."""
    import multiprocessing

    out = tmp_path / "t.json"
    argv = ["--quick", "--games", "white_castle", "--no-ppo", "--no-progress", "--out", out]
    status = main([*argv, "--workers", "2", "--worker-pairs", "2", "--worker-seconds", "0.02"])
    assert status == 0
    result = json.loads(out.read_text())
    assert result["settings"]["worker_pairs"] == 2 and result["settings"]["workers"] == 2
    (row,) = result["games"].values()
    assert len(row["workers"]["rounds"]) == 2 and row["workers"]["median"] > 0
    per_step = row["seconds_batched_wall_ww"]["rounds"] + row["seconds_batched_wall_0w"]["rounds"]
    assert all(0 < s < 0.01 for s in per_step)
    assert not multiprocessing.active_children()


def test_worker_options_are_checked_in_one_line() -> None:
    for flag, value in (("--worker-pairs", "0"), ("--worker-seconds", "-1")):
        with pytest.raises(SystemExit) as e:
            main(["--quick", "--no-ppo", flag, value, "--out", ""])
        assert flag in str(e.value.code) and "\n" not in str(e.value.code)


def test_no_pygame_stub_is_left_in_sys_modules() -> None:
    """Issue 12: the benchmark must not stub ``pygame`` in ``sys.modules``; with the ``[bench]``
    extra it is the real package."""
    import lab.benchmarks.baselines as baselines

    baselines.pettingzoo_classic("connect_four_v3", wrapped=False)
    assert "pygame" in sys.modules and hasattr(sys.modules["pygame"], "__file__")
    text = Path(baselines.__file__).read_text() + Path(main.__code__.co_filename).read_text()
    assert "sys.modules[" not in text


def test_a_missing_bench_package_is_one_line_naming_the_extra() -> None:
    with pytest.raises(MissingBench) as e:
        require("no_such_module_xyz", "open_spiel", "OpenSpiel's connect_four")
    message = str(e.value.code)
    assert "\n" not in message and "[bench]" in message and "open_spiel" in message


def test_the_benchmark_is_not_in_the_package() -> None:
    import boardgames_rl

    package = Path(boardgames_rl.__file__).parent
    assert not (package / "benchmark.py").exists()


@pytest.mark.parametrize(
    "command",
    [["lab/benchmarks/throughput.py"], ["-m", "lab.benchmarks.throughput"]],
    ids=["script", "module"],
)
def test_the_lab_runs_the_benchmark_from_a_clone(command: list[str]) -> None:
    """``python lab/benchmarks/throughput.py`` and ``python -m lab.benchmarks.throughput`` from
    the clone's root reach the benchmark: its own argument check answers in one line."""
    root = Path(main.__code__.co_filename).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, *command, "--rounds", "0"],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=300,
        check=False,
    )
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "--rounds must be >= 1" in proc.stderr and proc.stderr.count("\n") == 1


def test_random_legal_action_pickers_agree_and_stay_legal() -> None:
    rng = np.random.default_rng(0)
    masks = rng.random((200, 9)) < 0.3
    masks[:, 4] = True  # at least one legal action per row
    one = np.array([random_legal_action(m, np.random.default_rng(i)) for i, m in enumerate(masks)])
    assert masks[np.arange(len(masks)), one].all()
    batch = random_legal_actions(masks, np.random.default_rng(1))
    assert masks[np.arange(len(masks)), batch].all()
    # the same draw u gives the same action in both forms
    batch = random_legal_actions(masks, np.random.default_rng(7))
    row_rng = np.random.default_rng(7)
    assert batch.tolist() == [random_legal_action(m, row_rng) for m in masks]
    # uniform over the legal actions
    counts = np.bincount(
        [random_legal_action(masks[0] | True, rng) for _ in range(9000)], minlength=9
    )
    assert counts.min() > 850 and counts.max() < 1150


def test_no_progress_prints_no_round_lines(tmp_path: Path, capsys) -> None:
    argv = ["--quick", "--games", "castle_flutterstone", "--no-ppo", "--workers", "0"]
    code = main([*argv, "--no-progress", "--out", str(tmp_path / "t.json")])
    captured = capsys.readouterr()
    assert int(code or 0) == 0 and (tmp_path / "t.json").is_file()
    assert "round" not in captured.err


def test_lockstep_bound_is_what_equal_chunks_in_lockstep_allow(tmp_path: Path) -> None:
    """``lab/benchmarks/batched_speed.py``'s ``lockstep bound``: one worker gains nothing but the
    game builds it does while waiting (a bound just above 1); two chunks in lockstep gain less
    than twice that, and the run writes the bound into its table and JSON."""
    from lab.benchmarks.batched_speed import lockstep_bound
    from lab.benchmarks.batched_speed import main as batched_main

    game = make_game("castle_flutterstone", num_players=2)
    rng = np.random.default_rng(0)
    one = lockstep_bound(game, 8, 1, 60, rng, seed=0)
    two = lockstep_bound(game, 8, 2, 60, rng, seed=0)
    eight = lockstep_bound(game, 8, 8, 60, rng, seed=0)
    assert 1.0 <= one < 1.3
    assert 1.2 < two < 2 * one
    assert two < eight < 8 * one  # one slot per worker: the slowest slot of each step
    out = tmp_path / "b.json"
    result = batched_main(
        ["--num-envs", "4", "--rounds", "1", "--cpu-seconds", "0.05", "--spin", "0.002"]
        + ["--games", "castle_flutterstone", "--out", str(out)]
    )
    (row,) = result["rounds"]["castle_flutterstone 2p"]
    assert 1.0 < row["lockstep_bound"] < 2 * one
    assert "lockstep bound 2w" in result["table"] and out.exists()
