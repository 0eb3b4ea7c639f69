"""The results script and the training-speed benchmark run end to end on a tiny budget."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load(relative: str):
    spec = importlib.util.spec_from_file_location(Path(relative).stem, ROOT / relative)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_ppo_results_writes_the_report(tmp_path: Path) -> None:
    script = _load("experiments/ppo_results.py")
    results = script.main(
        [
            "--runs",
            "white_castle",
            "--timesteps",
            "128",
            "--eval-games",
            "4",
            "--docs-dir",
            str(tmp_path / "docs"),
            "--runs-dir",
            str(tmp_path / "runs"),
            "--train-arg=--n-envs=2",
            "--train-arg=--n-steps=64",
            "--train-arg=--batch-size=64",
            "--train-arg=--eval-games=2",
            "--train-arg=--no-progress",
            "--train-arg=--net=16",
        ]
    )
    assert [r["run"]["name"] for r in results] == ["white_castle"]
    ev = results[0]["eval"]
    assert set(ev["ppo_vs_random"]["per_seat"]) == {0, 1}
    assert ev["ppo_vs_random"]["overall"]["games"] == 4
    report = (tmp_path / "docs" / "results.md").read_text()
    assert "| white_castle | random | 128 |" in report
    assert (tmp_path / "docs" / "img" / "ppo_white_castle.png").stat().st_size > 0
    assert json.loads((tmp_path / "runs" / "results.json").read_text())[0]["steps"] == 128


def test_training_speed_benchmark_runs(tmp_path: Path) -> None:
    bench = _load("benchmarks/training_speed.py")
    out = tmp_path / "speed.json"
    result = bench.main(
        [
            "--timesteps",
            "32",
            "--n-envs",
            "1",
            "--n-steps",
            "32",
            "--batch-size",
            "32",
            "--n-epochs",
            "1",
            "--net",
            "16",
            "--out",
            str(out),
        ]
    )
    rows = result["results"]
    assert rows[0]["workload"].startswith("CartPole") and rows[0]["ratio_to_cartpole"] == 1.0
    assert len(rows) == 1 + len(bench.WORKLOADS)
    assert all(0 < r["env_share"] < 1 and r["steps"] == 32 for r in rows)
    assert json.loads(out.read_text())["table"] == result["table"]
