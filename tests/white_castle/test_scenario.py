"""The scenario builder (``scenario.build``, issue 12's one builder style) and its errors."""

from __future__ import annotations

import pytest

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle.scenario import Scenario, build, legal_names, play

ROOMS = ["S2", "S4", "S9", "D2", "D7"]


def test_build_sets_fields_players_and_the_turn():
    """``build`` overwrites the named state and player fields on a blank board and starts the
    given seat's turn (choose a die); ``play`` then answers by contextual names."""
    game = WhiteCastle(num_players=3)
    s = build(game, rooms=ROOMS, bridges=[[5, 1], [2], [6]], players={1: {"coin": 4}}, turn=1)
    assert s.rooms == ROOMS and s.bridges == [[1, 5], [2], [6]]  # bridges sorted
    assert s.players[1]["coin"] == 4 and s.players[0]["coin"] == 0
    assert s.current_player == 1 and s.decision["kind"] == "die"
    assert s.turns_taken == 1  # seat 1's place in the turn order
    first = legal_names(s)[0]
    play(s, first)
    assert s.decision["kind"] == "place" and s.current_player == 1


def test_build_copies_its_arguments():
    """The state owns its data: editing the arguments afterwards changes nothing."""
    bridges = [[1, 2], [3], [4]]
    s = build(WhiteCastle(), bridges=bridges, turn=0)
    bridges[0].append(6)
    assert s.bridges[0] == [1, 2]


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"roms": ROOMS}, "no state field 'roms'"),
        ({"players": {0: {"coins": 3}}}, "no player field 'coins'"),
        ({"players": {2: {"coin": 3}}}, "player 2 is not a seat"),
        ({"turn": 5}, "turn 5 is not a seat"),
    ],
)
def test_build_refuses_unknown_fields_in_one_line(kwargs, words):
    with pytest.raises(ValueError, match=words) as err:
        build(WhiteCastle(), **kwargs)
    assert "\n" not in str(err.value)


def test_deprecated_scenario_wrapper_builds_the_same_state():
    """The chained ``Scenario`` records its calls and hands them to ``build``."""
    sc = Scenario(2).rooms(ROOMS, [[0, 1, 2]] * 3 + [[0, 1]] * 2).bridges([[3], [4], [6, 1]])
    a = sc.player(0, coin=5).player(0, pearl=2).set(diplomat_deck=["D5"]).turn(0).build()
    b = build(
        WhiteCastle(),
        rooms=ROOMS,
        room_tiles=[[0, 1, 2]] * 3 + [[0, 1]] * 2,
        bridges=[[3], [4], [1, 6]],
        players={0: {"coin": 5, "pearl": 2}},
        diplomat_deck=["D5"],
        turn=0,
    )
    assert a.to_dict() == b.to_dict()
