"""Final scoring on hand-made end positions."""

from __future__ import annotations

import pytest

from boardgames_rl.games.white_castle import WhiteCastle

from .helpers import table

G2, G3 = WhiteCastle(num_players=2), WhiteCastle(num_players=3)


def test_breakdown():
    s = table(
        G2,
        players={
            0: dict(vp=10, coin=7, seal=3, food=7, iron=3, pearl=2, pot=12, courtiers=[1, 2, 1, 1])
        },
        yard_warriors=[[0], [0, 1], [0]],
        garden_workers=[[0], [], [1], [0], [], []],
        gardens=["P1", "G1", "P2", "G3", "P3", "G2"],
    )
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
    s = table(G2, players=[{"pot": 20}, {"pot": 15}])
    assert s.scores()[0]["passage_of_time"] == 15
    assert s.scores()[1]["passage_of_time"] == 10
    s = table(G2, players=[{"vp": 5}, {"vp": 5}], turn_order=[1, 0], phase="over")
    assert s.winner() == 1
    assert list(s.returns()) == [-1.0, 1.0]


# ----------------------------------------------------------------------------------------------
# One test per end-scoring rule of the rulebook ("End of Game and Scoring"), on hand-made
# end positions; expected values are worked out by hand from the rulebook text.


@pytest.mark.parametrize(
    ("coin", "seal", "points"),
    [(4, 0, 0), (5, 0, 1), (3, 2, 1), (0, 5, 1), (9, 5, 2), (14, 1, 3), (2, 2, 0)],
)
def test_every_five_coins_and_or_seals(coin, seal, points):
    """1.1: "For every 5 coins and/or Daimyo Seals you have, gain 1 Clan Point (rounded down)"."""
    s = table(G2, players={0: {"coin": coin, "seal": seal}})
    assert s.scores()[0]["coins_seals"] == points


@pytest.mark.parametrize(("units", "points"), [(0, 0), (2, 0), (3, 1), (4, 1), (6, 1), (7, 2)])
def test_each_resource_between_three_and_six_or_seven(units, points):
    """1.2: 3-6 units of a resource: 1 point; 7 units: 2 points; counted per resource."""
    for res in ("food", "iron", "pearl"):
        s = table(G2, players={0: {res: units}})
        assert s.scores()[0]["resources"] == points
    s = table(G2, players={0: dict(food=units, iron=units, pearl=units)})
    assert s.scores()[0]["resources"] == 3 * points


# data sheet §7: season 1 = 0-5, season 2 = 6-10, season 3 = 11-14, season 4 = 15-20
POT_POINTS = [0] * 6 + [3] * 5 + [6] * 4 + [10, 11, 12, 13, 14, 15]


@pytest.mark.parametrize("space", range(21))
def test_passage_of_time_by_season(space):
    """2: second season 3, third season 6, fourth season the space's value (10-15)."""
    s = table(G2, players={0: {"pot": space}})
    assert s.scores()[0]["passage_of_time"] == POT_POINTS[space]


@pytest.mark.parametrize(("level", "points"), [(0, 1), (1, 3), (2, 6), (3, 10)])
def test_courtier_points_by_level(level, points):
    """3.1: Gate 1, first floor 3, second floor 6, third floor 10, per courtier."""
    courtiers = [0, 0, 0, 0]
    courtiers[level] = 2
    s = table(G2, players={0: {"courtiers": courtiers}})
    assert s.scores()[0]["courtiers"] == 2 * points


@pytest.mark.parametrize(
    ("courtiers", "yards", "points"),
    [
        ([3, 0, 0, 0], [[0], [], [0]], 0),  # Gate courtiers do not count
        ([3, 1, 0, 0], [[0], [], [0]], (2 + 1) * 1),
        ([1, 1, 1, 1], [[0], [], [0]], (2 + 1) * 3),
        ([0, 2, 0, 0], [[0, 0, 1], [1, 0], [1]], (2 + 2 + 1) * 2),  # only own warriors
        ([0, 2, 0, 0], [[], [], []], 0),
    ],
)
def test_warrior_value_times_courtiers_inside(courtiers, yards, points):
    """3.2: total Warrior value (yard 1: 2, yards 2-3: 1) times Courtiers inside the Castle."""
    s = table(G2, players={0: {"courtiers": courtiers}}, yard_warriors=yards)
    assert s.scores()[0]["warriors"] == points


def test_gardener_points_are_the_card_numbers():
    """3.3: each Gardener scores the number on its card (P1 9, G3 3, P5 5, G1 1)."""
    s = table(
        G2,
        gardens=["P1", "G3", "P5", "G1", "P2", "G2"],
        garden_workers=[[0, 1], [0], [1], [0], [], [1]],
    )
    assert s.scores()[0]["gardeners"] == 9 + 3 + 1
    assert s.scores()[1]["gardeners"] == 9 + 5 + 1


def test_three_player_end_position_winner_and_tie_break():
    """A hand-made 3-player end: totals by category; equal totals go to the higher seat in
    the final turn order."""
    s = table(
        G3,
        gardens=["P1", "G1", "P2", "G2", "P3", "G3"],
        phase="over",
        players=[
            dict(vp=12, coin=6, seal=0, food=3, pot=11, courtiers=[1, 1, 0, 0]),
            dict(vp=5, coin=4, seal=1, pearl=7, pot=6, courtiers=[0, 0, 1, 0]),
            dict(vp=0, coin=0, iron=6, pot=15, courtiers=[2, 0, 0, 0]),
        ],
        yard_warriors=[[0], [1], [2, 2]],
        garden_workers=[[], [1], [], [], [], [2]],
        turn_order=[2, 1, 0],
    )
    # p0: 12 + 1 (6 coins) + 1 (food 3) + 6 (PoT 11) + 1 + 3 (Gate, floor 1) + 2 * 1 (yard 1)
    # p1: 5 + 1 (4 + 1) + 2 (pearl 7) + 3 (PoT 6) + 6 (floor 2) + 1 * 1 (yard 2) + 1 (G1)
    # p2: 0 + 0 + 1 (iron 6) + 10 (PoT 15) + 2 (two at the Gate) + 0 (no courtier inside) + 3
    assert [b["total"] for b in s.scores()] == [26, 19, 16]
    assert s.winner() == 0 and list(s.returns()) == [1.0, -1.0, -1.0]
    s.players[1]["vp"] += 7  # now 26 as well: p1 is higher in the final turn order than p0
    assert [b["total"] for b in s.scores()] == [26, 26, 16]
    assert s.winner() == 1 and list(s.returns()) == [-1.0, 1.0, -1.0]
