"""Issue 13: "a record's fields are type-checked, and a tournament's resume verifies each stored
game's outcome (replaying it ...) and refuses a tampered file with the line number"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardgames_rl.arena.records import GameRecord
from boardgames_rl.arena.tournament import TournamentMismatchError, tournament

GOOD = {"seed": 0, "seats": [0, 1], "returns": [1.0, -1.0], "length": 0, "truncated": False}


def _run(out: Path) -> None:
    tournament("castle_flutterstone", ["random", "heuristic"], 2, seed=3, out=out)


@pytest.mark.parametrize(
    "field,value",
    [
        ("returns", [1.0, 1.0]),
        ("length", 1),
        ("truncated", True),
        ("actions", [0, 0]),
        ("agents", ["heuristic", "heuristic"]),
    ],
)
def test_a_tampered_stored_game_is_refused_with_its_line(tmp_path: Path, field, value) -> None:
    _run(tmp_path)
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    record = json.loads(lines[1])
    record[field] = value
    lines[1] = json.dumps(record)
    (tmp_path / "games.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(TournamentMismatchError, match=r"games\.jsonl:2: .*does not check out"):
        _run(tmp_path)


def test_an_untouched_folder_resumes(tmp_path: Path) -> None:
    _run(tmp_path)
    before = (tmp_path / "games.jsonl").read_text()
    _run(tmp_path)
    assert (tmp_path / "games.jsonl").read_text() == before


@pytest.mark.parametrize(
    "field,value",
    [
        ("game", None),
        ("game", ["x"]),
        ("seed", "0"),
        ("seed", True),
        ("seats", [0, -1]),
        ("returns", [1, "a"]),
        ("returns", [1.0]),
        ("length", -1),
        ("truncated", 0),
        ("config", []),
        ("actions", [1.5]),
        ("table", "t"),
        ("state_seed", 1.0),
    ],
)
def test_record_fields_are_type_checked(field, value) -> None:
    with pytest.raises(ValueError, match=f"'{field}' must be|seats but"):
        GameRecord.from_dict({**GOOD, field: value})
    GameRecord.from_dict(GOOD)


def test_deeply_nested_json_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        GameRecord.from_json("[" * 100_000 + "]" * 100_000)
