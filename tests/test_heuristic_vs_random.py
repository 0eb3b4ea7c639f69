"""``lab/experiments/heuristic_vs_random.py``: one script asks every game the same question.

Each game runs a short series through the script's ``main`` and writes its records and summary;
the figures are recomputed here from the records, so a script that counted wrong would fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardgames_rl.arena import wilson_interval
from lab.experiments import heuristic_vs_random as script


def _run(tmp_path: Path, *argv: str) -> tuple[dict, dict]:
    out = tmp_path / "r.json"
    assert script.main([*argv, "--out", str(out)]) == 0
    return json.loads(out.read_text()), json.loads(out.with_suffix(".summary.json").read_text())


@pytest.mark.parametrize("game", ["castle_flutterstone", "white_castle"])
def test_two_seat_games_rotate_the_seats_and_count_the_heuristics_wins(tmp_path, game) -> None:
    records, summary = _run(tmp_path, "--game", game, "--games", "4", "--seed", "1")
    assert [r["seats"] for r in records["records"]] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert [r["seed"] for r in records["records"]] == [1_000_003 + i for i in range(4)]
    wins = 0.0
    for r in records["records"]:  # a win shared by k seats counts 1/k
        best = max(r["returns"])
        winners = [] if r["truncated"] else [s for s, x in enumerate(r["returns"]) if x == best]
        if r["seats"].index(0) in winners:
            wins += 1 / len(winners)
    assert summary["win_rate"] == pytest.approx(wins / 4)
    assert summary["ci95"] == pytest.approx(list(wilson_interval(wins, 4)))
    assert summary["games"] == 4 and summary["config"]["num_players"] == 2
    if game == "white_castle":
        assert len(summary["final_scores"]) == 4 and set(summary["mean_score"]) == {
            "heuristic",
            "random",
        }


def test_castle_nightingale_plays_each_role_over_the_same_seeds(tmp_path) -> None:
    records, summary = _run(tmp_path, "--game", "castle_nightingale", "--games", "2", "--seed", "5")
    assert list(summary["summary"]) == [
        "heuristic ninja vs random samurai",
        "random ninja vs heuristic samurai",
        "heuristic ninja vs heuristic samurai",
    ]
    for name, res in records["results"].items():
        assert [g["seed"] for g in res["games"]] == [5, 6]
        s = summary["summary"][name]
        for role in ("ninja", "samurai", "draw"):
            count = sum(g["winner"] == role for g in res["games"])
            assert s[role]["wins"] == count and s[role]["rate"] == count / 2


def test_night_of_the_ninja_rotates_one_heuristic_seat(tmp_path) -> None:
    records, summary = _run(
        tmp_path, "--game", "night_of_the_ninja", "--games", "5", "-c", "num_players=4"
    )
    assert [r["heuristic_seat"] for r in records["records"]] == [0, 1, 2, 3, 0]
    wins = sum(r["heuristic_seat"] in r["winners"] for r in records["records"])
    assert summary["any"]["heuristic"] == wins / 5
    assert summary["config"]["num_players"] == 4


def test_an_unknown_game_or_no_games_is_a_usage_error(tmp_path, capsys) -> None:
    for argv in (["--game", "chess"], ["--game", "white_castle", "--games", "0"]):
        with pytest.raises(SystemExit) as e:
            script.main([*argv, "--out", str(tmp_path / "x.json")])
        assert e.value.code == 2
    assert not (tmp_path / "x.json").exists()
