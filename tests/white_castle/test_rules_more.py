"""Scenario tests of the White Castle rules not covered by ``test_rules.py``.

Each test names the rulebook sentence it checks (``/work/shared/rulebooks/white_castle.txt``);
the readings of doubtful sentences are explained in ``docs/rules/white_castle.md`` §2.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle.data import DAIMYO, DIAMOND_ROW, DIE_TILES, YARD_TILES
from boardgames_rl.games.white_castle.legal import MAX_OPTS
from boardgames_rl.games.white_castle.scenario import Scenario
from boardgames_rl.games.white_castle.state import WhiteCastleState

from .helpers import delta, do, drive, names, snapshot

ROOMS = ["S2", "S4", "S9", "D2", "D7"]
TILES = [[0, 1, 2], [0, 0, 1], [1, 2, 2], [0, 1], [1, 2]]


def base(n=2, **pl):
    sc = Scenario(n).rooms(list(ROOMS), [list(t) for t in TILES])
    sc.set(steward_deck=["S5", "S7"], diplomat_deck=["D5"], well_tiles=["C2", "W4"])
    sc.player(0, **pl)
    return sc


# ---------------------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_daimyo_round_domains_and_yard_sides(n):
    """Setup 3 (1 Daimyo card), 5 (Round marker), 9 (Yard tiles), 10 (Domains)."""
    drawn = set()
    for seed in range(12):
        s = WhiteCastle(num_players=n).new_state(seed)
        # 3. one Daimyo card on the last level, all its positions free; no Daimyo deck kept
        assert s.daimyo in DAIMYO and s.daimyo_pos == [-1, -1, -1]
        drawn.add(s.daimyo)
        # 5. the Round marker on the first space
        assert s.round == 1
        # 10. before the starting pairs: 5 members of each kind at home, resources at 0
        assert s.phase == "draft"
        for pl in s.players:
            assert pl["members"] == [5, 5, 5] and pl["courtiers"] == [0, 0, 0, 0]
            assert all(pl[k] == 0 for k in ("food", "iron", "pearl", "coin", "seal", "vp", "pot"))
            assert pl["action_card"] is None and pl["lantern"] == []
        # 9. four different Yard tiles; sides as dealt in data sheet 9.8:
        # yard 1 front + back, yard 2 front, yard 3 back
        tiles = [t for y in s.yards for t, _ in y]
        assert len(set(tiles)) == 4 and set(tiles) <= set(YARD_TILES)
        assert [[face for _, face in y] for y in s.yards] == [[0, 1], [0], [1]]
    assert len(drawn) >= 4  # the card is drawn at random


def test_round_marker_advances_once_per_round():
    g = WhiteCastle(num_players=2)
    s = g.new_state(11)
    rng = np.random.default_rng(1)
    turns_per_round = {}
    while not s.is_terminal():
        a = int(rng.choice(s.legal_actions()))
        if s.decision["kind"] == "die" and a < MAX_OPTS:  # not a seal exchange
            turns_per_round[s.round] = turns_per_round.get(s.round, 0) + 1
        s.apply(a)
    assert turns_per_round == {1: 6, 2: 6, 3: 6}
    assert s.round == 3  # not advanced after the last round


def test_decree_card_joins_the_lantern_area_and_pays_out():
    """Setup 12: a Resource card granting a Decree puts it in the Lantern Area too."""
    s = WhiteCastle(num_players=2).new_state(4)
    s.offer = [["R7", "A1a"], ["R2", "A2a"], ["R4", "A3a"]]
    s._mask = None
    first, second = s.current_player, s.turn_order[0]
    do(s, "take starting pair R7")
    do(s, "take 1 food")
    assert s.players[first]["lantern"] == ["R7", "vp_decree"]
    do(s, "take starting pair R2")
    do(s, "take 1 iron")
    do(s, "take 1 iron")
    assert s.players[second]["lantern"] == ["R2"]  # R2 grants no Decree
    assert s.offer == [] and s.phase == "play"
    # the Decree's icon (+1 VP) is part of the Lantern reward: R7 +1 food, Decree +1 VP
    before = snapshot(s, first)
    s.decision = None
    s._exec(first, ["lantern"])
    s._run()
    assert delta(s, before, first) == {"food": 1, "vp": 1}


# ---------------------------------------------------------------------------- the turn
@pytest.mark.parametrize(
    ("colour", "value", "space"),
    [
        ("coral", 3, "steward room 1"),
        ("black", 4, "diplomat room 1"),
        ("white", 5, "outside the walls (warrior"),
        ("black", 6, "domain gardener row"),
    ],
)
def test_equal_value_placement_neither_gains_nor_pays(colour, value, space):
    """Turn 2: "If the values are the same, no coins are gained or paid"."""
    s = base(coin=0).bridges([[value, value]] * 3).turn(0).build()
    do(s, f"take {colour} die from the right")
    assert any(space in o for o in names(s))  # allowed with no coins at all
    do(s, space)
    assert s.players[0]["coin"] == 0


def _d11_position(first: str):
    """D11 (block 1: +1 PoT and Lantern) with the marker just before the 1-seal checkpoint."""
    sc = base(pot=5, seal=0, lantern=["seal_decree"])
    sc.rooms(["S2", "S4", "S9", "D11", "D7"]).bridges([[4, 4], [4, 4], [4, 4]])
    s = sc.turn(0).build()
    do(s, "take coral die from the right")
    do(s, "diplomat room 1")
    assert s.decision["kind"] == "order"
    assert names(s) == ["do +1 passage of time", "do lantern"]
    do(s, first)
    drive(s)
    pl = s.players[0]
    return pl["pot"], pl["seal"]


def test_player_chooses_the_order_of_a_space_actions():
    """Turn 4: "Carry out the action(s) ... in any order you choose"; both orders differ."""
    # time first: no seal, the marker stops before the checkpoint; then the Lantern gives 1 seal
    assert _d11_position("passage of time") == (5, 1)
    # Lantern first: the Seal-Decree pays the checkpoint, the marker passes
    assert _d11_position("lantern") == (6, 0)


def _lantern_at_the_checkpoint(seal: int, first: str | None):
    """Marker on space 5, Lantern Area = Seal Decree (+1 seal) and a Starting Action card
    (+1 PoT); a left die activates the Lantern; ``first`` is the icon chosen first (None: no
    order decision is expected). Returns (position, seals) once the Lantern is resolved."""
    sc = base(pot=5, seal=seal, coin=0, lantern=["seal_decree", "A1b"])
    s = sc.bridges([[4, 4], [4, 4], [4, 4]]).turn(0).build()
    do(s, "take coral die from the left")
    do(s, "steward room 1")  # S2 top block: pay 1 seal -> Courtier, resolved after the Lantern
    do(s, "yes: activate the lantern")
    if first is None:
        assert s.decision["kind"] == "checkpoint"
    else:
        assert s.decision["kind"] == "order"
        assert names(s) == ["do +1 seal", "do +1 passage of time"]
        do(s, first)
    if s.decision["kind"] == "checkpoint":
        do(s, "yes: pay 1 seals")
    assert s.decision["kind"] == "pay"  # the space's action comes after the Lantern
    pl = s.players[0]
    return pl["pot"], pl["seal"]


def test_lantern_icons_in_the_order_that_keeps_a_capped_seal():
    """Lantern: "you receive the benefits of all visible icons in your Lantern Area, in any
    order". On space 5 with 5 seals, Seal Decree + Starting Action card: moving first pays the
    checkpoint (5 -> 4) and the Decree's seal then fits (4 -> 5): space 6 with 5 seals."""
    assert _lantern_at_the_checkpoint(5, "passage of time") == (6, 5)
    # the other order loses the seal to the cap of 5: the player's choice matters here
    assert _lantern_at_the_checkpoint(5, "+1 seal") == (6, 4)


def test_lantern_order_is_not_asked_when_no_cap_bites():
    """Lantern "in any order": with 4 seals the Decree's seal fits in every order (gains go
    first, as before), so no order decision is asked and nothing is lost."""
    assert _lantern_at_the_checkpoint(4, None) == (6, 4)


def _d4_seal_and_lantern(first: str):
    """D4 middle+bottom block (+1 seal, Lantern) with 5 seals on space 5, Lantern = +1 PoT."""
    sc = base(pot=5, seal=5, coin=0, lantern=["A1b"])
    sc.rooms(["S2", "S4", "S9", "D4", "D7"]).bridges([[4, 4], [4, 4], [4, 4]])
    s = sc.turn(0).build()
    do(s, "take black die from the right")
    do(s, "diplomat room 1")
    assert s.decision["kind"] == "order"
    assert names(s) == ["do +1 seal", "do lantern"]
    do(s, first)
    if s.decision is not None and s.decision["kind"] == "checkpoint":
        do(s, "yes: pay 1 seals")
    assert s.current_player == 1
    pl = s.players[0]
    return pl["pot"], pl["seal"]


def test_space_actions_in_the_order_that_keeps_a_capped_seal():
    """Turn 4: "Carry out the action(s) for the space ... in any order you choose": a +1 seal
    at the cap of 5 is not forced first when the Lantern's Passage of Time could spend a seal."""
    assert _d4_seal_and_lantern("lantern") == (6, 5)
    assert _d4_seal_and_lantern("+1 seal") == (6, 4)


def test_capped_gain_without_a_spender_is_not_asked():
    """Turn 4 "in any order": S5 bottom block (+1 iron, Lantern) with 7 iron. No order can keep
    the iron (the Lantern of a Starting Action card spends no iron), so nothing is asked."""
    sc = base(pot=5, seal=5, coin=0, iron=7, lantern=["A1b"])
    sc.rooms(["S2", "S5", "S9", "D2", "D7"], [[0, 1, 2], [0, 1, 2], [1, 2, 2], [0, 1], [1, 2]])
    s = sc.bridges([[3, 3], [3, 3], [3, 3]]).turn(0).build()
    do(s, "take white die from the right")
    do(s, "steward room 2")
    assert s.decision["kind"] == "checkpoint"  # iron gained (lost to the cap), then the Lantern
    assert s.players[0]["iron"] == 7


def test_domain_row_icons_in_the_order_that_keeps_a_capped_seal():
    """Domain: "1. Gain Visible Rewards: Collect any Resources, Daimyo Seals, coins, and/or
    Lantern Rewards shown in the line ... 2. Gain Action Card Reward". Step 1's icons in any
    order (Warrior row, all 5 gone: 3 pearl, +1 seal, Lantern), then step 2 (the card block)."""
    sc = base(pot=5, seal=5, coin=0, members=[5, 5, 0], lantern=["A1b"])
    s = sc.bridges([[6, 6], [6, 6], [6, 6]]).turn(0).build()
    do(s, "take white die from the right")
    do(s, "domain warrior row")
    assert s.players[0]["pearl"] == 3  # the pearls fit: gained first
    assert s.decision["kind"] == "order"
    assert names(s) == ["do +1 seal", "do lantern"]
    do(s, "lantern")
    do(s, "yes: pay 1 seals")
    pl = s.players[0]
    assert (pl["pot"], pl["seal"]) == (6, 5)
    assert s.decision["kind"] == "courtier"  # step 2: the A1a block (Courtier action)


# ---------------------------------------------------------------------------- the Well
def test_the_well_takes_any_number_of_dice():
    """The Well: "no limit to the number of dice"; each die counts against value 1."""
    sc = base(coin=0).set(spaces=[[], [], [], [], [], [], [], [[6, 1, 0], [5, 1, 1], [3, 0, 2]]])
    s = sc.bridges([[4, 4], [4, 4], [4, 4]]).turn(0).build()
    do(s, "take white die from the right")
    before = snapshot(s)
    do(s, "the well")
    assert len(s.spaces[7]) == 4
    # 4 - 1 = 3 coins, 1 seal, C2 (+1 iron) and W4 (+1 coin)
    assert delta(s, before) == {"coin": 4, "seal": 1, "iron": 1}


def test_the_well_with_a_one_gives_only_the_seal():
    """The Well (default, the literal reading): "If you place a die with a value greater than
    1, you gain the difference in coins ..., plus the benefits indicated on the 2 tiles in the
    Well. You always gain 1 Daimyo Seal": a 1 gains only the seal. Every path and value:
    ``test_well.py``."""
    s = base(coin=0).bridges([[1, 1], [4], [4]]).turn(0).build()
    assert s.game.well_one_pays_tiles is False
    do(s, "take coral die from the right")
    before = snapshot(s)
    do(s, "the well")
    assert delta(s, before) == {"seal": 1}
    assert s.current_player == 1  # nothing else to resolve
    # a die above 1 pays the coins and both tiles (C2 +1 iron, W4 +1 coin)
    s = base(coin=0).bridges([[4, 4], [4], [4]]).turn(0).build()
    do(s, "take coral die from the right")
    before = snapshot(s)
    do(s, "the well")
    assert delta(s, before) == {"seal": 1, "iron": 1, "coin": 4}


def test_the_well_with_a_one_pays_both_tiles_under_the_flag():
    """The data sheet's reading (§14.3, config ``well_one_pays_tiles=True``, the default before
    issue 40): a 1 gains no coins (1 - 1 = 0) but the seal and both tiles (C2 +1 iron, W4 +1
    coin)."""
    sc = base(coin=0).bridges([[1, 1], [4], [4]])
    sc.game = WhiteCastle(num_players=2, well_one_pays_tiles=True)
    s = sc.turn(0).build()
    do(s, "take coral die from the right")
    before = snapshot(s)
    do(s, "the well")
    assert delta(s, before) == {"seal": 1, "iron": 1, "coin": 1}
    assert s.current_player == 1


# ---------------------------------------------------------------------------- clan members
def test_gardener_goes_only_to_a_card_without_own_gardener():
    sc = base(food=7).set(garden_workers=[[0], [1], [], [], [], []])
    s = sc.bridges([[5, 5], [5, 5], [5, 5]]).turn(0).build()
    do(s, "take black die from the right")
    do(s, "outside the walls (gardener")
    do(s, "gardener action")
    # P1 holds our gardener; G1 only the opponent's, which does not exclude it
    assert names(s) == [f"gardener to garden {g}" for g in ["G1", "P2", "G2", "P3", "G3"]] + [
        "skip"
    ]
    sc = base(food=7).set(garden_workers=[[0]] * 6)
    s = sc.bridges([[5, 5], [5, 5], [5, 5]]).turn(0).build()
    do(s, "take black die from the right")
    do(s, "outside the walls (gardener")
    do(s, "gardener action")
    # every card already holds one of ours: the action does nothing
    assert s.current_player == 1 and s.players[0]["members"] == [5, 5, 5]


def _courtier_decision(**pl):
    s = base(**pl).bridges([[5, 5], [5, 5], [5, 5]]).turn(0).build()
    do(s, "take white die from the right")
    do(s, "outside the walls (warrior")
    do(s, "courtier action")
    return s


def test_climb_two_levels_for_five_pearl():
    """Social Climbing: "pay 2 or 5 Mother-of-Pearl to move up 1 or 2 levels"."""
    s = _courtier_decision(pearl=4, courtiers=[1, 0, 0, 0])
    assert not any("diplomat" in o for o in names(s))  # 4 pearl: one level only
    s = _courtier_decision(pearl=5, courtiers=[1, 0, 0, 0])
    assert any("from level 0 to steward room 1" in o for o in names(s))
    do(s, "from level 0 to diplomat room 1")
    pl = s.players[0]
    assert pl["pearl"] == 0 and pl["courtiers"] == [0, 0, 1, 0]
    assert pl["action_card"] == "D2" and pl["lantern"] == ["A1a"]
    assert s.rooms[3] == "D5" and s.diplomat_deck == []
    s = _courtier_decision(pearl=5, courtiers=[0, 1, 0, 0], lantern=["R4"])
    do(s, "from level 1 to daimyo room")
    assert s.players[0]["courtiers"] == [0, 0, 0, 1] and s.players[0]["iron"] == 1


def test_gate_courtier_climbs_and_domain_courtier_cannot():
    """The rulebook's "already in the Castle (not at the Gate)" versus "Courtiers at the Gate
    can move to any first-floor room": Gate courtiers climb (docs/rules §2)."""
    s = _courtier_decision(pearl=5, coin=0)
    assert names(s) == ["stop"]  # no courtier in the castle, no coins for an audience
    s = _courtier_decision(pearl=2, coin=2)
    do(s, "audience")
    assert s.players[0]["courtiers"] == [1, 0, 0, 0]
    assert names(s) == [f"climb a courtier from level 0 to steward room {i}" for i in (1, 2, 3)] + [
        "stop"
    ]


def test_climbing_into_a_room_whose_deck_is_exhausted():
    s = _courtier_decision(pearl=2, courtiers=[1, 0, 0, 0])
    s.steward_deck = []
    do(s, "to steward room 2")
    pl = s.players[0]
    assert pl["action_card"] == "S4" and s.rooms[1] is None  # no refill possible
    do(s, "block 3 of S4")
    # the empty room takes no die and offers no action
    s = base(coin=9).rooms(["S2", None, "S9", "D2", "D7"]).bridges([[5, 5]] * 3).turn(0).build()
    do(s, "take coral die from the right")
    assert not any("steward room 2" in o for o in names(s))
    # a courtier climbing there moves but takes no card
    s = _courtier_decision(pearl=2, courtiers=[1, 0, 0, 0])
    s.rooms[1] = None
    do(s, "to steward room 2")
    pl = s.players[0]
    assert pl["courtiers"] == [0, 1, 0, 0] and pl["pearl"] == 0
    assert pl["action_card"] == "A1a" and pl["lantern"] == []
    assert s.decision["kind"] == "courtier" and names(s) == ["stop"]


# ---------------------------------------------------------------------------- Passage of Time
@pytest.mark.parametrize(("start", "cost"), [(5, 1), (10, 2), (14, 3)])
def test_checkpoint_costs(start, cost):
    """Checkpoints cost 1, 2 or 3 Daimyo Seals to pass (into spaces 6, 11 and 15)."""
    s = base(pot=start, seal=cost).turn(0).build()
    s.decision = None
    s._exec(0, ["pot", 2])
    assert names(s) == [f"yes: pay {cost} seals to pass the checkpoint", "no: stop before it"]
    do(s, "yes:")
    assert s.players[0]["pot"] == start + 2 and s.players[0]["seal"] == 0
    # refusing stops the marker before the checkpoint; the rest of the move is lost
    s = base(pot=start, seal=cost).turn(0).build()
    s.decision = None
    s._exec(0, ["pot", 2])
    do(s, "no:")
    assert s.players[0]["pot"] == start and s.players[0]["seal"] == cost
    # one seal short: no question, the marker stops
    s = base(pot=start, seal=cost - 1).turn(0).build()
    s.decision = None
    s._exec(0, ["pot", 2])
    assert s.decision is None and s.players[0]["pot"] == start


# ---------------------------------------------------------------------------- end of round
def _last_turn(round_no: int):
    sc = base(coin=20).player(1, coin=20).set(round=round_no, turn_order=[0, 1])
    sc.set(gardens=["P1", "G2", "P2", "G3", "P3", "G1"], garden_workers=[[], [0], [], [], [], []])
    s = sc.bridges([[1, 2, 3, 4], [], []]).turn(1, turns_taken=5).build()
    do(s, "coral die from the left")
    do(s, "the well")
    do(s, "skip the lantern")
    return s  # 3 dice left, all on the coral bridge above player 0's G2


def test_no_garden_activation_after_round_three():
    s = _last_turn(2)
    assert s.decision["kind"] == "opt" and names(s) == ["do +3 coin", "stop"]  # round 2: fires
    s = _last_turn(3)
    assert s.phase == "final" and s.round == 3
    assert s.current_player == 1 and s.decision["kind"] == "final"  # only the seal holder
    do(s, "done")
    assert s.is_terminal() and s.players[0]["coin"] == 20


# ---------------------------------------------------------------------------- die-tile deal
class _Perms:
    """A stand-in generator that returns the given permutations in order (and shuffles by them)."""

    def __init__(self, *perms):
        self.perms = [list(p) for p in perms]

    def permutation(self, n):
        p = self.perms.pop(0)
        assert sorted(p) == list(range(n))
        return np.array(p)

    def shuffle(self, x):  # numpy's shuffle of a list: the order its permutation gives
        p = self.permutation(len(x))
        x[:] = [x[i] for i in p]


IDS = sorted(DIE_TILES)


def _bag(*tiles):
    return [IDS.index(t) for t in tiles]


# diamonds C1 (room 1), K1 (room 2), W1 (room 3) are drawn first: the first tile of each colour
PASS_OVER = _bag(
    "C1", "K1", "W1", "C2", "C3", "K2", "W2", "K3", "W3", "C4", "K4", "W4", "C5", "K5", "W5"
)
PASS_OVER_ROOMS = [[0, 0, 1], [0, 1, 2], [1, 2, 2], [0, 1], [2, 0]]
ALL_WHITE_TAIL = _bag(
    "C1", "K1", "W1", "C2", "K2", "C3", "K3", "K4", "C4", "C5", "K5", "W2", "W3", "W4", "W5"
)


def _deal(*perms):
    s = WhiteCastleState.empty(WhiteCastle(num_players=2))
    s.rng = _Perms(*perms)
    s._deal_tiles()
    assert s.rng.perms == []
    return s


def test_die_tile_that_would_make_a_room_single_coloured_goes_to_the_next_space():
    # space 2 would get C3 next to C2 and the coral diamond: C3 passes to space 3, K2 fills 2
    s = _deal(PASS_OVER, [0, 1, 2])
    assert s.room_tiles == PASS_OVER_ROOMS
    assert s.well_tiles == ["K5", "W5"]


def test_die_tile_at_space_ten_is_swapped_with_a_remaining_tile():
    bag = _bag(
        "C1", "K1", "W1", "C2", "K2", "C3", "K3", "K4", "C4", "C5", "W3", "W2", "W4", "K5", "W5"
    )
    s = _deal(bag, [0, 1, 2])
    # room 5 starts with W2; W4 would make it single-coloured and is swapped with K5
    assert s.room_tiles == [[0, 0, 1], [0, 1, 1], [1, 2, 0], [0, 2], [2, 1]]
    assert s.well_tiles == ["W4", "W5"]


def test_die_tile_deal_is_redone_when_no_tile_fits_space_ten():
    # the three tiles left for space 10 are all white like its room: deal again
    s = _deal(ALL_WHITE_TAIL, [0, 1, 2], PASS_OVER, [0, 1, 2])
    assert s.room_tiles == PASS_OVER_ROOMS


def test_die_tile_deal_keeps_every_tile_and_two_colours_per_room():
    s = WhiteCastleState.empty(WhiteCastle(num_players=2))
    for seed in range(200):
        s.rng = np.random.default_rng(seed)
        s._deal_tiles()
        assert all(len(set(t)) >= 2 for t in s.room_tiles)
        assert sorted(s.room_tiles[r][DIAMOND_ROW] for r in range(3)) == [0, 1, 2]
        colours = [c for t in s.room_tiles for c in t] + [DIE_TILES[t][0] for t in s.well_tiles]
        assert sorted(colours) == [0] * 5 + [1] * 5 + [2] * 5


def test_common_reserve_is_unlimited():
    """Setup 6: coins and Clan Points come from an unlimited reserve (+40/+80 tiles); only
    resources (7) and seals (5) are capped."""
    s = base(coin=30, vp=95, seal=4, food=6).build()
    for key, n in (("coin", 10), ("vp", 10), ("seal", 3), ("food", 3)):
        s.gain(0, key, n)
    pl = s.players[0]
    assert (pl["coin"], pl["vp"], pl["seal"], pl["food"]) == (40, 105, 5, 7)
