"""Smoke test of the throughput benchmark (boardgames_rl.benchmark), well under 20 s."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from boardgames_rl.benchmark import main, random_legal_action, random_legal_actions


def test_benchmark_writes_positive_figures(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t.json"
    status = main(
        ["--seconds", "0.2", "--games", "castle_flutterstone", "--out", out, "--no-progress"]
    )
    assert status == 0
    result = json.loads(out.read_text())
    for key in ("platform", "python", "numpy", "cpu_count"):
        assert key in result["machine"]
    assert result["timestamp"] and result["settings"]["seconds"] == 0.2

    games = [r for r in result["rows"] if r["kind"] == "game"]
    assert games and all(r["name"] == "castle_flutterstone" for r in games)
    for row in games:
        for column in ("engine", "aec", "vector"):
            assert row[column]["steps_per_s"] > 0, (row["label"], column)
            assert row[column]["steps"] > 0
        assert row["ratios"]["aec"]["vs_connect_four_v3_aec"] > 0
        assert row["ratios"]["aec"]["vs_texas_holdem_v4_aec"] > 0

    baselines = {r["name"]: r for r in result["rows"] if r["kind"] == "baseline"}
    assert set(baselines) == {"connect_four_v3", "texas_holdem_v4"}
    for row in baselines.values():
        assert row["aec"]["steps_per_s"] > 0
        assert "errors" not in row
    assert baselines["connect_four_v3"]["engine"] is None  # N/A, explained in the notes
    assert result["references_aec_steps_per_s"]["connect_four_v3"] > 0

    table = capsys.readouterr().out
    assert "castle_flutterstone [default]" in table and "pettingzoo connect_four_v3" in table


def test_random_legal_action_pickers_agree_and_stay_legal() -> None:
    rng = np.random.default_rng(0)
    masks = rng.random((200, 9)) < 0.3
    masks[:, 4] = True  # at least one legal action per row
    one = np.array([random_legal_action(m, np.random.default_rng(i)) for i, m in enumerate(masks)])
    assert masks[np.arange(len(masks)), one].all()
    batch = random_legal_actions(masks, np.random.default_rng(1))
    assert masks[np.arange(len(masks)), batch].all()
    # the same draw u gives the same action in both forms
    u_rng = np.random.default_rng(7)
    row_rng = np.random.default_rng(7)
    batch = random_legal_actions(masks, u_rng)
    single = [random_legal_action(m, row_rng) for m in masks]
    assert batch.tolist() == single
    # uniform over the legal actions
    counts = np.bincount(
        [random_legal_action(masks[0] | True, rng) for _ in range(9000)], minlength=9
    )
    assert counts.min() > 850 and counts.max() < 1150
