"""The results script and the training-speed benchmark run end to end on a tiny budget."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(relative: str):
    spec = importlib.util.spec_from_file_location(Path(relative).stem, ROOT / relative)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_ppo_results_writes_the_report(tmp_path: Path) -> None:
    script = _load("lab/experiments/ppo_results.py")
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
    report = json.loads((tmp_path / "docs" / "results" / "ppo" / "results.json").read_text())
    assert report["runs"][0]["name"] == "white_castle" and report["runs"][0]["steps"] == 128
    assert set(report["provenance"]) == {"date", "commit", "machine"}
    assert (tmp_path / "docs" / "img" / "ppo_white_castle.png").stat().st_size > 0
    assert json.loads((tmp_path / "runs" / "results.json").read_text())[0]["steps"] == 128


def test_training_speed_benchmark_runs(tmp_path: Path) -> None:
    bench = _load("lab/benchmarks/training_speed.py")
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


def test_prior_departures_lists_departures_and_plays_variants_on_the_same_games(
    tmp_path: Path,
) -> None:
    """The script replays the entry's games (its replay checks every move against the record)
    and plays each variant on the same seeds; a variant that changes nothing plays the entry's
    games exactly, and a deferring variant plays the prior's move at every deferred decision."""
    script = _load("lab/experiments/prior_departures.py")  # registers "pretrained_variant"
    try:
        _check_prior_departures(script, tmp_path)
    finally:
        from boardgames_rl.agents.registry import unregister_agent

        unregister_agent("pretrained_variant")


def _check_prior_departures(script, tmp_path: Path) -> None:
    from boardgames_rl.agents.pretrained import PretrainedAgent
    from boardgames_rl.arena.match import play_game
    from boardgames_rl.core.agent import RandomAgent
    from boardgames_rl.registry import make_game

    game = make_game("castle_nightingale")
    same = f"samurai:scale={PretrainedAgent(game).prior_scale(1)!r}"  # the entry's own scale
    out = tmp_path / "departures.json"
    argv = ["--games", "2", "--seed", "3", "--out", str(out), "--variant", same]
    script.main(argv + ["--variant", "ninja:defer=place"])
    data = json.loads(out.read_text())
    entry = data["agents"]["pretrained"]["seat_wins"]
    assert [s for s, _ in entry] == [0, 1]
    assert data["agents"][same]["seat_wins"] == entry
    kinds = {kind for game in data["departures"] for kind in game["decisions"]}
    assert {"place", "prog_n_card", "w9"} <= kinds
    assert all(set(g["departures"]) <= set(g["decisions"]) for g in data["departures"])
    assert set(data["provenance"]) == {"date", "commit", "machine"}
    assert not out.with_suffix(".md").exists()  # the site's page is docs/generate.py's

    # the samurai's trap-door choice: the entry departs from the heuristic there (every time in
    # 200 seeded games), so deferring to the prior changes the move the entry would make
    seen: list[tuple[bool, int, int, int]] = []  # deferred, played, prior's move, entry's move

    class Watched(script.VariantAgent):
        def logits(self, info_set, feature):
            out = super().logits(info_set, feature)
            own = script.PretrainedAgent.logits(self, info_set, feature)
            mask = np.asarray(info_set.legal_action_mask, bool)
            deferred = bool(info_set.observation[self.defer_columns].any())
            moves = (np.where(mask, x, -np.inf).argmax() for x in (out, feature, own))
            seen.append((deferred, *map(int, moves)))
            return out

    play_game(game, [RandomAgent(), Watched(game, seat=1, defer="setup_close")], seed=5)
    deferred = [(played, prior, own) for d, played, prior, own in seen if d]
    assert deferred and all(played == prior for played, prior, _ in deferred)
    assert any(own != prior for _, prior, own in deferred)
    assert any(played != prior for d, played, prior, _ in seen if not d)  # elsewhere: its own
    with pytest.raises(ValueError, match="unknown decision kinds"):
        script.VariantAgent(game, seat=0, defer="no_such_kind")


def test_seat_balance_counts_every_win_once_for_any_worker_count(tmp_path: Path) -> None:
    """``lab/experiments/seat_balance.py``: the seats' shares of the wins add up to the share of
    games with a winner (a victory shared by k counts 1/k each), the figures are the same played in
    one process or two, a bad agent spec stops at once with one line, and ``--games 0`` is a usage
    error (it once played nothing and then divided by zero)."""
    import subprocess

    script = ROOT / "lab" / "experiments" / "seat_balance.py"
    figures = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        cmd = [sys.executable, str(script), "white_castle", "--agent", "random", "--games", "24"]
        cmd += ["--seed", "4", "--workers", str(workers), "--no-progress", "--out", str(out)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        summary = json.loads((out / "seat_balance.json").read_text())
        assert summary["games"] == 24 and [r["seat"] for r in summary["seats"]] == [0, 1]
        decided = (summary["games"] - summary["truncated"]) / summary["games"]
        assert sum(r["rate"] for r in summary["seats"]) == pytest.approx(decided)
        assert all(r["low"] <= r["rate"] <= r["high"] for r in summary["seats"])
        assert set(summary["provenance"]) == {"date", "commit", "machine"}
        assert not (out / "table.md").exists()  # the site's page is docs/generate.py's
        figures.append(summary["seats"])
    assert figures[0] == figures[1]
    bad = [sys.executable, str(script), "white_castle", "--agent", "bogus", "--games", "2"]
    refused = subprocess.run(bad, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1
    assert "unknown agent 'bogus'" in refused.stderr
    no_games = subprocess.run(
        [*bad[:3], "--games", "0"], capture_output=True, text=True, timeout=120
    )
    assert no_games.returncode == 2 and "--games: must be an integer >= 1" in no_games.stderr
