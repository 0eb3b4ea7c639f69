"""Scenario tests of The White Castle rules."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.core.errors import IllegalActionError
from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle.data import (
    DIAMOND_ROW,
    DIPLOMATS,
    PLANTS,
    START_ACTIONS,
    START_RESOURCES,
    STEWARDS,
    STONES,
)
from boardgames_rl.games.white_castle.scenario import Scenario

from .helpers import do, exchange, names

ROOMS = ["S2", "S4", "S9", "D2", "D7"]
TILES = [[0, 1, 2], [0, 0, 1], [1, 2, 2], [0, 1], [1, 2]]


def base(n=2, **pl):
    sc = Scenario(n).rooms(list(ROOMS), TILES).bridges([[1, 3, 5], [2, 4], [6]])
    sc.set(steward_deck=["S5", "S7"], diplomat_deck=["D5"])
    sc.player(0, **pl)
    return sc


# ---------------------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    for seed in range(20):
        s = WhiteCastle(num_players=n).new_state(seed)
        castle = s.rooms + s.steward_deck + s.diplomat_deck
        if n == 2:
            assert not any(STEWARDS.get(c, DIPLOMATS.get(c))[0] for c in castle)
            assert len(s.steward_deck) == 6 and len(s.diplomat_deck) == 7
        else:
            assert len(s.steward_deck) == 12 and len(s.diplomat_deck) == 10
        assert all(len(set(t)) >= 2 for t in s.room_tiles)
        assert sorted(s.room_tiles[r][DIAMOND_ROW] for r in range(3)) == [0, 1, 2]
        assert len(s.well_tiles) == 2
        assert all(len(b) == n + 1 and b == sorted(b) for b in s.bridges)
        assert all(g in PLANTS for g in s.gardens[0::2])
        assert all(g in STONES for g in s.gardens[1::2])
        assert [len(y) for y in s.yards] == [2, 1, 1]
        assert len(s.offer) == n + 1
        assert s.phase == "draft" and s.current_player == s.turn_order[-1]
        kinds = {_dark(c) for c in s.rooms}
        assert len(kinds) > 1


def _dark(card):
    from boardgames_rl.games.white_castle.state import _dark_kind

    return _dark_kind(card)


def test_draft_reverse_order_and_gains():
    s = WhiteCastle(num_players=3).new_state(5)
    order = list(s.turn_order)
    seen = []
    while s.phase == "draft":
        p = s.current_player
        if s.decision["kind"] == "pair":
            seen.append(p)
        s.apply(0)
    assert seen == order[::-1]
    for p in range(3):
        pl = s.players[p]
        assert pl["action_card"] in START_ACTIONS
        assert pl["lantern"][0] in START_RESOURCES
        assert pl["coin"] >= 2
    assert s.current_player == order[0]


# ---------------------------------------------------------------------------- the turn
def test_dice_only_from_ends_and_single_die_is_left():
    s = base().turn(0).build()
    assert names(s) == [
        "take coral die from the left end",
        "take coral die from the right end",
        "take black die from the left end",
        "take black die from the right end",
        "take white die from the left end",
    ]
    do(s, "coral die from the right")
    assert s.bridges[0] == [1, 3]


def test_placement_coins_gain_and_pay_and_refusal():
    s = base(coin=0).turn(0).build()
    do(s, "coral die from the right")  # 5
    do(s, "steward room 1")  # value 3 -> +2
    assert s.players[0]["coin"] == 2
    s = base(coin=2).turn(0).build()
    do(s, "coral die from the left")  # 1
    opts = names(s)
    assert not any("outside" in o for o in opts)  # would cost 4
    assert any("steward room 1" in o for o in opts)  # costs 2
    assert not any("domain" in o for o in opts)  # costs 5


def test_placement_refused_unless_exchange():
    s = base(coin=3, seal=1).turn(0).build()
    do(s, "coral die from the left")
    assert not any("outside" in o for o in names(s))
    exchange(s, 0)
    assert s.players[0]["coin"] == 4 and s.players[0]["seal"] == 0
    assert any("outside the walls (gardener" in o for o in names(s))


def test_exchange_illegal_without_seals_leaves_state():
    s = base(coin=0).turn(0).build()
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        exchange(s, 1)
    assert s.to_dict() == before


def test_stacking_three_players_not_two():
    for n, can in ((2, False), (3, True)):
        sc = base(n)
        sc.set(spaces=[[[2, 1, 0]], [], [], [], [], [], [], []])
        s = sc.turn(0).build()
        do(s, "coral die from the right")
        assert any("steward room 1" in o for o in names(s)) == can
    sc = base(3)
    sc.set(spaces=[[[2, 1, 0], [4, 1, 0]], [], [], [], [], [], [], []])
    s = sc.turn(0).build()
    do(s, "coral die from the right")
    assert not any("steward room 1" in o for o in names(s))


def test_stacked_die_covers_the_die_value():
    sc = base(3, coin=0)
    sc.set(spaces=[[[2, 1, 0]], [], [], [], [], [], [], []])
    s = sc.turn(0).build()
    do(s, "coral die from the right")  # 5 on a 2 -> +3
    do(s, "steward room 1")
    assert s.players[0]["coin"] == 3


def test_lantern_only_for_left_die_and_optional():
    s = base(coin=5).player(0, lantern=["R1", "coin_decree"]).turn(0).build()
    do(s, "coral die from the left")
    do(s, "the well")
    assert s.decision["kind"] == "lantern_q"
    do(s, "yes")
    pl = s.players[0]
    assert pl["pearl"] == 1 and pl["coin"] == 6  # R1 pearl, decree coin; die 1 on the well: 0
    s = base(coin=5).player(0, lantern=["R1"]).turn(0).build()
    do(s, "coral die from the right")
    do(s, "the well")
    assert s.decision is None or s.decision["kind"] != "lantern_q"


def test_well():
    s = base(coin=0).set(well_tiles=["C2", "K4"]).turn(0).build()
    do(s, "coral die from the right")  # 5
    do(s, "the well")
    pl = s.players[0]
    assert (pl["coin"], pl["seal"], pl["iron"], pl["vp"]) == (4, 1, 1, 1)


def test_room_needs_die_colour_and_double_steward():
    s = base(coin=5, seal=1).turn(0).build()
    do(s, "white die from the left")  # 6 white
    opts = names(s)
    assert not any("steward room 2" in o for o in opts)  # room 2 tiles coral/coral/black
    s = base(coin=5, seal=2).turn(0).build()
    do(s, "coral die from the right")  # 5 coral on S4 room with two coral tiles
    do(s, "steward room 2")
    assert s.decision["kind"] == "opt"
    assert names(s) == ["do block 1 of room 2", "do block 2 of room 2", "stop"]
    do(s, "block 2")  # +1 coin + well
    pl = s.players[0]
    assert pl["coin"] == 5 + 2 + 1 and pl["seal"] == 3
    assert names(s) == ["do block 1 of room 2", "stop"]
    do(s, "stop")


def test_domain_row_colour_icons_and_card_block():
    s = base(coin=0).player(0, members=[3, 5, 5], action_card="S2").turn(0).build()
    do(s, "coral die from the right")  # coral 5 -> needs 1 coin for value 6
    assert not any("domain" in o for o in names(s))
    s = base(coin=1, seal=1).player(0, members=[3, 5, 5], action_card="S2").turn(0).build()
    do(s, "white die from the left")
    assert any("domain warrior row" in o for o in names(s))
    assert not any("domain courtier row" in o for o in names(s))
    s = base(coin=1, seal=1).player(0, members=[3, 5, 5], action_card="S2").turn(0).build()
    do(s, "coral die from the right")
    do(s, "domain courtier row")
    pl = s.players[0]
    assert pl["coin"] == 0  # paid 1; the 2 uncovered icons are food, food
    assert pl["food"] == 2
    assert s.decision["kind"] == "pay"  # S2 top block: pay 1 seal -> courtier
    assert s.domain_dice[0] == [5, 0, 0]


def test_outside_walls_courtier_audience_and_climb_takes_card():
    s = base(coin=5, pearl=2).turn(0).build()
    do(s, "white die from the left")  # 6 -> +1
    do(s, "outside the walls (warrior")
    do(s, "skip the lantern")
    do(s, "courtier action")
    do(s, "audience")
    pl = s.players[0]
    assert pl["courtiers"] == [1, 0, 0, 0] and pl["members"][0] == 4 and pl["coin"] == 4
    do(s, "to steward room 2")
    assert pl["courtiers"] == [0, 1, 0, 0] and pl["pearl"] == 0
    assert pl["action_card"] == "S4" and pl["lantern"][-1] == "A1a"
    assert s.rooms[1] == "S5" and s.steward_deck == ["S7"]
    # one light block of the new card
    assert names(s) == ["block 2 of S4", "block 3 of S4"]


def test_daimyo_room_lantern_and_position():
    sc = base(coin=0, pearl=2, courtiers=[0, 0, 1, 0], lantern=["R4"]).set(daimyo="DY7")
    s = sc.turn(0).build()
    do(s, "white die from the left")
    do(s, "outside the walls (warrior")
    do(s, "skip the lantern")
    do(s, "courtier action")
    do(s, "daimyo room")
    pl = s.players[0]
    assert pl["iron"] == 1  # lantern of R4
    do(s, "daimyo position 2")
    assert pl["iron"] == 4 and s.daimyo_pos == [-1, 0, -1]


def test_gardener_and_warrior():
    sc = base(coin=0, food=5, iron=1).set(gardens=["P1", "G2", "P2", "G1", "P3", "G3"])
    s = sc.turn(0).build()
    do(s, "white die from the left")
    do(s, "outside the walls (gardener")
    do(s, "skip the lantern")
    do(s, "gardener action")
    opts = names(s)
    assert "gardener to garden P1" in opts and "skip" in opts
    do(s, "garden G2")
    pl = s.players[0]
    assert pl["food"] == 4 and pl["coin"] == 1 + 3 and s.garden_workers[1] == [0]
    s = base(iron=3).set(yards=[[["Y1", 1]], [["Y3", 1]], [["Y5", 1]]]).turn(0).build()
    do(s, "white die from the left")
    do(s, "outside the walls (warrior")
    do(s, "skip the lantern")
    do(s, "warrior action")
    assert names(s) == ["warrior to yard 2", "warrior to yard 3", "skip"]
    do(s, "yard 2")
    pl = s.players[0]
    assert pl["iron"] == 0 and pl["food"] == 3 and s.yard_warriors[1] == [0]


def test_passage_of_time_checkpoint_and_caps():
    s = base(pot=4, seal=1).turn(0).build()
    s.decision = None
    s._exec(0, ["pot", 3])
    assert s.players[0]["pot"] == 5 and s.decision["kind"] == "checkpoint"
    do(s, "yes")
    assert s.players[0]["pot"] == 7 and s.players[0]["seal"] == 0
    s = base(pot=4, seal=0).build()
    s._exec(0, ["pot", 3])
    assert s.players[0]["pot"] == 5
    s = base(food=6, seal=5).build()
    s.gain(0, "food", 3)
    s.gain(0, "seal", 2)
    assert s.players[0]["food"] == 7 and s.players[0]["seal"] == 5


def test_round_end_turn_order_gardens_and_reroll():
    sc = base(coin=20).player(1, coin=20, pot=3).set(gardens=["P1", "G2", "P2", "G3", "P3", "G1"])
    sc.set(garden_workers=[[], [0], [], [0], [], []], bridges=[[1, 2, 3, 4], [], [5]])
    sc.set(turn_order=[0, 1])
    s = sc.turn(1, turns_taken=5).build()
    do(s, "coral die from the left")
    do(s, "the well")
    do(s, "no")  # lantern
    # 3 dice left: round over, player 1 leads on PoT; player 0's G2 (coral bridge) activates
    assert s.turn_order == [1, 0]
    assert s.decision["kind"] == "opt" and s.current_player == 0
    assert names(s) == ["do +3 coin", "stop"]
    do(s, "+3 coin")
    assert s.round == 2 and s.players[0]["coin"] == 23
    assert all(len(b) == 3 for b in s.bridges)
    assert s.current_player == 1 and s.decision["kind"] == "die"


def test_full_game_ends_and_scores():
    g = WhiteCastle(num_players=3)
    s = g.new_state(7)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        s.apply(int(rng.choice(s.legal_actions())))
    r = s.returns()
    assert sorted(r) == [-1, -1, 1]
    assert s.round == 3


def test_seal_exchanges_for_resources_and_cap():
    s = base(seal=5, food=7).turn(0).build()
    mask = s.legal_action_mask()
    from boardgames_rl.games.white_castle.legal import MAX_OPTS

    assert mask[MAX_OPTS] and not mask[MAX_OPTS + 1] and mask[MAX_OPTS + 2]
    exchange(s, 2)
    assert s.players[0]["iron"] == 1 and s.players[0]["seal"] == 3


def test_daimyo_full_courtier_stays_with_lantern_only():
    sc = base(coin=0, pearl=2, courtiers=[0, 0, 1, 0], lantern=["R4"])
    sc.set(daimyo="DY7", daimyo_pos=[1, 1, 1])
    s = sc.turn(0).build()
    do(s, "white die from the left")
    do(s, "outside the walls (warrior")
    do(s, "skip the lantern")
    do(s, "courtier action")
    do(s, "daimyo room")
    pl = s.players[0]
    assert pl["courtiers"] == [0, 0, 0, 1] and pl["iron"] == 1
    assert s.decision["kind"] == "courtier"  # the audience may still follow
    do(s, "stop")


def test_diplomat_tile_matches_its_block():
    s = base(coin=5).turn(0).build()
    do(s, "black die from the right")  # 4 black: diplomat room 2 tiles black/white -> block 1
    do(s, "diplomat room 2")
    do(s, "skip the lantern") if s.decision["kind"] == "lantern_q" else None
    # D7 block 1: +2 PoT (light); applied straight away
    assert s.players[0]["pot"] == 2


def test_yard_tile_action_offers_blocks_of_that_colour():
    sc = base(iron=3).set(yards=[[], [["Y4", 0]], []])
    s = sc.turn(0).build()
    do(s, "white die from the left")
    do(s, "outside the walls (warrior")
    do(s, "skip the lantern")
    do(s, "warrior action")
    do(s, "yard 2")
    # coral tiles: room 1 row 0 (S2 block 1), room 2 rows 0-1 (S4 blocks 1-2), room 4 row 0
    assert names(s) == [
        "block 1 of S2",
        "block 1 of S4",
        "block 2 of S4",
        "block 1 of D2",
    ]


def test_game_end_final_exchange_and_scoring():
    sc = base(coin=20, seal=2).player(1, coin=20).set(round=3, turn_order=[0, 1])
    sc.set(bridges=[[1, 2, 3, 4], [], []])
    s = sc.turn(1, turns_taken=5).build()
    do(s, "coral die from the left")
    do(s, "the well")
    do(s, "skip the lantern")
    assert s.phase == "final" and s.current_player == 0
    exchange(s, 1)
    do(s, "done")
    assert s.current_player == 1  # the Well gave player 1 a seal
    do(s, "done")
    assert s.is_terminal() and s.players[0]["food"] == 1
    assert s.winner() in (0, 1) and sorted(s.returns()) == [-1.0, 1.0]
