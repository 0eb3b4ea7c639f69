"""Game records: JSON round trip, loading, and exact replay on every game."""

from __future__ import annotations

import dataclasses

import pytest

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.arena import (
    GameRecord,
    ReplayMismatchError,
    load_records,
    play_game,
    replay,
    tournament,
)
from boardgames_rl.arena.match import GameRecord as MatchGameRecord
from boardgames_rl.registry import list_games, make_game


def flutterstone_record(seed: int = 4) -> GameRecord:
    game = make_game("castle_flutterstone", num_players=2)
    return play_game(game, [make_agent("random", game), make_agent("heuristic", game)], seed)


def test_old_import_path_still_works():
    assert MatchGameRecord is GameRecord


def test_play_game_fills_the_replay_fields():
    record = flutterstone_record()
    assert record.game == "castle_flutterstone"
    assert record.config["num_players"] == 2
    assert record.agents == ["random", "heuristic"]
    assert isinstance(record.state_seed, int)
    assert len(record.actions) == record.length > 0
    assert all(isinstance(a, int) for a in record.actions)


def test_json_round_trip():
    record = flutterstone_record()
    line = record.to_json()
    assert "\n" not in line
    assert GameRecord.from_json(line) == record


def test_from_json_rejects_unknown_and_missing_fields():
    d = flutterstone_record().to_dict()
    with pytest.raises(ValueError, match="unknown fields"):
        GameRecord.from_dict({**d, "colour": "red"})
    del d["returns"]
    with pytest.raises(ValueError, match="returns"):
        GameRecord.from_dict(d)


def test_replay_calls_on_step_and_gives_the_final_state():
    record = flutterstone_record()
    steps = []
    state = replay(record, on_step=lambda s, p, a: steps.append((p, a)))
    assert [a for _, a in steps] == record.actions
    assert state.is_terminal()
    assert state.returns().tolist() == record.returns


GAMES = ["castle_flutterstone", "castle_nightingale", "night_of_the_ninja", "white_castle"]


def test_the_four_games_are_registered():
    assert set(GAMES) <= set(list_games())


@pytest.mark.parametrize("name", GAMES)
def test_every_record_of_a_small_tournament_replays(name):
    result = tournament(name, ["random", "heuristic"], 2, progress=False, seed=7)
    assert len(result.records) == result.expected_games
    for record in result.records:
        again = GameRecord.from_json(record.to_json())
        state = replay(again)
        assert state.returns().tolist() == record.returns


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: {"returns": [-x for x in r.returns]},
        lambda r: {"actions": r.actions[:-1]},
        lambda r: {"actions": r.actions + [0]},
        lambda r: {"actions": [10**6] + r.actions[1:]},
        lambda r: {"length": r.length + 1},
        lambda r: {"state_seed": r.state_seed + 1},
    ],
    ids=["returns", "short", "long", "bad-action", "length", "seed"],
)
def test_tampered_record_raises(tamper):
    record = flutterstone_record()
    bad = dataclasses.replace(record, **tamper(record))
    with pytest.raises(ReplayMismatchError):
        replay(bad)


def test_record_without_replay_fields_says_so():
    legacy = GameRecord(seed=1, seats=[0, 1], returns=[1.0, -1.0], length=3, truncated=False)
    with pytest.raises(ValueError, match="cannot be replayed"):
        replay(legacy)


def test_load_records_from_file_and_folder(tmp_path):
    result = tournament(
        "castle_flutterstone", ["random", "heuristic"], 2, progress=False, out=tmp_path / "t"
    )
    from_folder = load_records(tmp_path / "t")
    assert from_folder == result.records
    assert load_records(tmp_path / "t" / "games.jsonl") == result.records
    with pytest.raises(FileNotFoundError, match="no such"):
        load_records(tmp_path / "missing.jsonl")
    with pytest.raises(FileNotFoundError, match="games.jsonl"):
        load_records(tmp_path)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(result.records[0].to_json() + "\n{not json\n")
    with pytest.raises(ValueError, match="broken.jsonl:2"):
        load_records(broken)
