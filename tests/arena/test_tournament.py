"""Tournaments: pairings, seat rotation, determinism across workers, resume, files, bad input."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest

from boardgames_rl.arena import (
    TournamentMismatchError,
    TournamentResult,
    load_records,
    tournament,
)
from boardgames_rl.arena.tournament import default_tables, schedule
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.registry import make_game

FLUTTER = make_game("castle_flutterstone", num_players=2)
NINJA = make_game("night_of_the_ninja", num_players=4)
AGENTS = ["random", "heuristic"]


def seat_counts(records, num_agents, num_players):
    counts = Counter()
    for r in records:
        for seat, agent in enumerate(r.seats):
            counts[agent, seat] += 1
    return [[counts[a, s] for s in range(num_players)] for a in range(num_agents)]


def test_two_player_pairings_cover_every_pair_with_seats_alternating():
    agents = ["random", "heuristic", "heuristic:win_bonus=3"]
    result = tournament(FLUTTER, agents, 4, progress=False, seed=1)
    assert len(result.records) == 3 * 4
    pairs = Counter(frozenset(r.seats) for r in result.records)
    assert pairs == {frozenset(p): 4 for p in [(0, 1), (0, 2), (1, 2)]}
    for table in range(3):
        games = [r for r in result.records if r.table == table]
        assert [r.seats for r in games][:2] == [games[0].seats, games[0].seats[::-1]]
    assert seat_counts(result.records, 3, 2) == [[4, 4]] * 3
    for r in result.records:
        assert r.agents == [agents[a] for a in r.seats]


def test_multiplayer_tables_put_each_agent_alone_against_a_field():
    assert default_tables(4, 3) == [
        [0, 1, 1, 1],
        [0, 2, 2, 2],
        [1, 0, 0, 0],
        [1, 2, 2, 2],
        [2, 0, 0, 0],
        [2, 1, 1, 1],
    ]
    tasks = schedule(default_tables(4, 3), 4, "rotate", 0)
    # the lone agent visits every seat once per table, and every agent sits in every seat equally
    for t in range(6):
        lone = default_tables(4, 3)[t][0]
        seats = [task.seats.index(lone) for task in tasks if task.table == t]
        assert sorted(seats) == [0, 1, 2, 3]
    assert seat_counts(tasks, 3, 4) == [[8, 8, 8, 8]] * 3
    fixed = schedule([[0, 1, 1, 1]], 3, "fixed", 0)
    assert all(task.seats == (0, 1, 1, 1) for task in fixed)


def test_explicit_tables_override_the_default():
    result = tournament(NINJA, AGENTS, 2, progress=False, tables=[[1, 1, 0, 0]], seats="fixed")
    assert [r.seats for r in result.records] == [[1, 1, 0, 0]] * 2


def test_seeds_depend_only_on_table_and_game_index():
    a = schedule(default_tables(2, 3), 3, "rotate", 5)
    b = schedule(default_tables(2, 3), 3, "rotate", 5)
    assert a == b
    assert len({t.seed for t in a}) == len(a)
    assert {t.seed for t in a}.isdisjoint(
        t.seed for t in schedule(default_tables(2, 3), 3, "rotate", 6)
    )


def test_results_do_not_depend_on_workers():
    one = tournament(NINJA, AGENTS, 2, workers=1, progress=False, seed=3)
    two = tournament(NINJA, AGENTS, 2, workers=2, progress=False, seed=3)
    assert [r.to_dict() for r in one.records] == [r.to_dict() for r in two.records]
    assert one.win_rates() == two.win_rates()


def test_resume_after_interruption_plays_each_game_once(tmp_path):
    out = tmp_path / "t"
    full = tournament(FLUTTER, AGENTS, 6, progress=False, seed=2)
    first: list[tuple[int, int]] = []

    def stop_after_three(record):
        first.append((record.table, record.game_index))
        if len(first) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tournament(FLUTTER, AGENTS, 6, progress=False, seed=2, out=out, on_game=stop_after_three)
    assert len(load_records(out)) == 3
    # a write cut short by a crash leaves half a line: resume drops it
    with open(out / "games.jsonl", "a") as f:
        f.write(full.records[3].to_json()[:40])
    second: list[tuple[int, int]] = []
    resumed = tournament(
        FLUTTER,
        AGENTS,
        6,
        progress=False,
        seed=2,
        out=out,
        on_game=lambda r: second.append((r.table, r.game_index)),
    )
    assert len(second) == 3 and set(first).isdisjoint(second)
    assert [r.to_dict() for r in resumed.records] == [r.to_dict() for r in full.records]
    assert load_records(out) == full.records
    # calling again on a finished tournament plays nothing
    third: list = []
    tournament(FLUTTER, AGENTS, 6, progress=False, seed=2, out=out, on_game=third.append)
    assert third == []


def test_resume_with_other_parameters_is_refused(tmp_path):
    out = tmp_path / "t"
    tournament(FLUTTER, AGENTS, 2, progress=False, seed=2, out=out)
    with pytest.raises(TournamentMismatchError, match="games: saved 2, given 3"):
        tournament(FLUTTER, AGENTS, 3, progress=False, seed=2, out=out)
    with pytest.raises(TournamentMismatchError, match="seed"):
        tournament(FLUTTER, AGENTS, 2, progress=False, seed=9, out=out)
    with pytest.raises(TournamentMismatchError, match="config"):
        tournament(
            make_game("castle_flutterstone", num_players=2, goal=20),
            AGENTS,
            2,
            progress=False,
            seed=2,
            out=out,
        )


def test_files_are_written(tmp_path):
    out = tmp_path / "t"
    result = tournament(
        NINJA, ["random", "heuristic", "heuristic:accuse_bonus=1"][:2], 2, progress=False, out=out
    )
    names = {p.name for p in out.iterdir()}
    assert {
        "tournament.json",
        "games.jsonl",
        "results.csv",
        "pairwise.csv",
        "ratings.csv",
        "results.json",
        "heatmap.png",
    } <= names
    with open(out / "results.csv") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == [
        "agent",
        "games",
        "seats",
        "wins",
        "win_rate",
        "win_low",
        "win_high",
        "mean_return",
        "rating",
        "rating_low",
        "rating_high",
    ]
    assert {row["agent"] for row in rows} == set(AGENTS)
    assert sum(int(row["seats"]) for row in rows) == 4 * len(result.records)
    with open(out / "pairwise.csv") as f:
        header = next(csv.reader(f))
    assert header == ["agent", "opponent", "score", "comparisons", "win_rate", "low", "high"]
    with open(out / "ratings.csv") as f:
        assert next(csv.reader(f)) == ["rank", "agent", "rating", "low", "high"]
    assert (out / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads((out / "results.json").read_text())
    assert summary["games_played"] == len(result.records) == 4
    loaded = TournamentResult.load(out)
    assert loaded.records == result.records and loaded.ratings() == result.ratings()


def test_result_statistics_and_tables():
    result = tournament(FLUTTER, AGENTS, 6, progress=False, seed=0)
    rates = result.win_rates()
    assert set(rates) == set(AGENTS)
    for rate, low, high in rates.values():
        assert 0 <= low <= rate <= high <= 1
    pw = result.pairwise()
    assert pw.count[0, 1] == pw.count[1, 0] == 6
    assert pw.rate[0, 1] + pw.rate[1, 0] == pytest.approx(1.0)
    # 2-player, no draws: the pairwise rate is the win rate
    assert pw.rate[1, 0] == pytest.approx(rates["heuristic"][0])
    ratings = result.ratings()
    assert ratings["random"] == (0.0, 0.0, 0.0)
    assert result.mean_length == pytest.approx(
        sum(r.length for r in result.records) / len(result.records)
    )
    text = result.table()
    assert "rating" in text and "heuristic" in text and "'random' = 0" in text
    md = result.to_markdown()
    assert md.startswith("| agent |") and "`heuristic`" in md


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"agents": ["random", "nobody"]}, InvalidConfigError, "unknown agent"),
        ({"agents": ["random"]}, ValueError, "at least 2 agents"),
        ({"agents": ["random", "random"]}, ValueError, "unique"),
        ({"agents": "random"}, TypeError, "spec strings"),
        ({"games": 0}, ValueError, "games"),
        ({"seats": "shuffle"}, ValueError, "seats must be one of"),
        ({"workers": 0}, ValueError, "workers"),
        ({"seed": -1}, ValueError, "seed"),
        ({"tables": [[0, 1, 1]]}, ValueError, "has 3 seats"),
        ({"tables": [[0, 2]]}, ValueError, "agent indices"),
    ],
)
def test_bad_input_raises_clearly_and_writes_nothing(tmp_path, kwargs, error, message):
    args = {
        "game": FLUTTER,
        "agents": AGENTS,
        "games": 2,
        "progress": False,
        "out": tmp_path / "t",
    } | kwargs
    with pytest.raises(error, match=message):
        tournament(**args)
    assert not (tmp_path / "t").exists()


def test_unknown_game_name_is_refused():
    with pytest.raises(InvalidConfigError, match="unknown game"):
        tournament("chess", AGENTS, 1, progress=False)
