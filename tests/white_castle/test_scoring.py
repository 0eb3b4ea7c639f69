"""Final scoring on hand-made end positions."""

from __future__ import annotations

from boardgames_rl.games.white_castle.scenario import Scenario


def test_breakdown():
    sc = Scenario(2)
    sc.player(0, vp=10, coin=7, seal=3, food=7, iron=3, pearl=2, pot=12, courtiers=[1, 2, 1, 1])
    sc.set(yard_warriors=[[0], [0, 1], [0]], garden_workers=[[0], [], [1], [0], [], []])
    sc.set(gardens=["P1", "G1", "P2", "G3", "P3", "G2"])
    s = sc.build()
    b = s.scores()[0]
    assert b == {
        "track": 10,
        "coins_seals": 2,
        "resources": 3,
        "passage_of_time": 6,
        "courtiers": 1 + 6 + 6 + 10,
        "warriors": (2 + 1 + 1) * 4,
        "gardeners": 9 + 3,
        "total": 10 + 2 + 3 + 6 + 23 + 16 + 12,
    }


def test_pot_values_and_tie_by_turn_order():
    sc = Scenario(2).player(0, pot=20).player(1, pot=15)
    s = sc.build()
    assert s.scores()[0]["passage_of_time"] == 15
    assert s.scores()[1]["passage_of_time"] == 10
    sc = Scenario(2).player(0, vp=5).player(1, vp=5).set(turn_order=[1, 0], phase="over")
    s = sc.build()
    assert s.winner() == 1
    assert list(s.returns()) == [-1.0, 1.0]
