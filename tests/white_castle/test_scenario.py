"""The scenario builder (``scenario.build``, issue 41's one builder style) and its errors."""

from __future__ import annotations

import pytest

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle.scenario import (
    FIELDS,
    Scenario,
    blank_fields,
    build,
    legal_names,
    play,
)
from boardgames_rl.games.white_castle.state import KEYS
from boardgames_rl.testing import scenario as testing_scenario

ROOMS = ["S2", "S4", "S9", "D2", "D7"]


def test_build_starts_from_the_seeded_game_and_overwrites_only_named_fields():
    """Every field not named is the one ``game.new_state(seed)`` dealt."""
    game = WhiteCastle(num_players=3)
    fresh = game.new_state(7)
    s = build(game, seed=7, bridges=[[5, 1], [2], [6]])
    assert s.bridges == [[1, 5], [2], [6]]  # bridges sorted
    for key in KEYS:
        if key != "bridges":
            assert getattr(s, key) == getattr(fresh, key), key
    assert s.decision["kind"] == "pair"  # the starting draft, as dealt


def test_build_sets_fields_players_and_the_turn():
    """``build`` overwrites the named state and player fields and starts the given seat's turn
    (choose a die; the draft is over); ``play`` then answers by contextual names."""
    game = WhiteCastle(num_players=3)
    s = build(game, rooms=ROOMS, bridges=[[5, 1], [2], [6]], players={1: {"coin": 4}}, turn=1)
    assert s.rooms == ROOMS and s.bridges == [[1, 5], [2], [6]]
    assert s.players[1]["coin"] == 4 and s.players[0]["coin"] == 0
    assert s.current_player == 1 and s.decision["kind"] == "die" and s.phase == "play"
    assert s.offer == [] and s.draft_left == []
    assert s.turns_taken == s.turn_order.index(1)  # seat 1's place in the turn order
    first = legal_names(s)[0]
    play(s, first)
    assert s.decision["kind"] == "place" and s.current_player == 1


def test_play_and_legal_names_are_the_testing_helpers():
    assert play is testing_scenario.play and legal_names is testing_scenario.legal_names


def test_build_copies_its_arguments():
    """The state owns its data: editing the arguments afterwards changes nothing."""
    bridges = [[1, 2], [3], [4]]
    s = build(WhiteCastle(), bridges=bridges, turn=0)
    bridges[0].append(6)
    assert s.bridges[0] == [1, 2]


def test_fields_document_every_state_field():
    assert set(FIELDS) == (set(KEYS) - {"n"}) | {"turn"}


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"roms": ROOMS}, "no state field 'roms'; fields: players, turn, round"),
        ({"players": {0: {"coins": 3}}}, "no player field 'coins'"),
        ({"players": {2: {"coin": 3}}}, "player 2 is not a seat"),
        ({"turn": 5}, "turn 5 is not a seat"),
        ({"turn_order": [0, 0]}, "turn_order must list each seat"),
        ({"round": 4}, "round = 4 is past the game's limit"),
    ],
)
def test_build_refuses_unknown_fields_and_broken_states_in_one_line(kwargs, words):
    with pytest.raises(ValueError, match=words) as err:
        build(WhiteCastle(), **kwargs)
    assert "\n" not in str(err.value)


def test_blank_table_fields():
    s = build(WhiteCastle(), **blank_fields(players={1: {"coin": 3}}, turn=0))
    assert s.rooms == [None] * 5 and s.bridges == [[], [], []] and s.turn_order == [0, 1]
    assert [pl["action_card"] for pl in s.players] == ["A1a", "A1a"]
    assert [pl["coin"] for pl in s.players] == [0, 3] and s.decision["kind"] == "die"


def test_deprecated_scenario_wrapper_builds_the_same_state():
    """The chained ``Scenario`` records its calls and hands them to ``build`` on a blank table."""
    sc = Scenario(2).rooms(ROOMS, [[0, 1, 2]] * 3 + [[0, 1]] * 2).bridges([[3], [4], [6, 1]])
    a = sc.player(0, coin=5).player(0, pearl=2).set(diplomat_deck=["D5"]).turn(0).build()
    b = build(
        WhiteCastle(),
        **blank_fields(
            rooms=ROOMS,
            room_tiles=[[0, 1, 2]] * 3 + [[0, 1]] * 2,
            bridges=[[3], [4], [1, 6]],
            players={0: {"coin": 5, "pearl": 2}},
            diplomat_deck=["D5"],
            turn=0,
        ),
    )
    assert a.to_dict() == b.to_dict()
