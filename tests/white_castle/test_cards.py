"""Every card and tile effect of The White Castle, one test id per table row.

The expected effects below are transcribed by hand from the data sheet
(``/work/shared/games/white_castle.md`` §9) and are deliberately NOT read from ``data.py``: a
wrong table entry or a wrong engine rule makes the matching test fail. Each effect is reached
through the real path of the game (a die placed in a room, a worker sent to a garden or yard,
a courtier reaching the Daimyo, a die on the Well or on the Domain) with the routine
decisions answered by ``helpers.drive``.

Expectation mini-language (comma separated): ``+N key`` (key food/iron/pearl/coin/seal/vp/pot;
``any`` = N resources of choice, ``drive`` takes pearl), ``lantern`` (the fixed Lantern Area
below), ``well`` (Well action with the fixed Well tiles below), ``seal->X`` / ``N coins->X``
(a paid part, accepted), and a final worker or pick: ``courtier``, ``warrior``, ``gardener``,
``domain``, ``light``, ``tile`` / ``tile coral|black|white``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from boardgames_rl.games.white_castle.data import (
    COLOURS,
    DAIMYO,
    DIE_TILES,
    DIPLOMATS,
    GARDENS,
    ROOM_VALUE,
    SPACE_NAMES,
    START_ACTIONS,
    STEWARDS,
    YARD_TILES,
)
from boardgames_rl.games.white_castle.scenario import Scenario

from .helpers import delta, do, drive, names, snapshot

BOARD = ["S2", "S4", "S9", "D2", "D7"]
BOARD_TILES = [[0, 1, 2], [0, 0, 1], [1, 2, 2], [0, 1], [1, 2]]
# Lantern Area used everywhere: R1 (+1 pearl), Coin-Decree (+1 coin), VP-Decree (+1 VP)
LANTERN_AREA = ["R1", "coin_decree", "vp_decree"]
LANTERN_GAIN = {"pearl": 1, "coin": 1, "vp": 1}
# Well tiles used everywhere: C2 (+1 iron), W4 (+1 coin); the Well action adds 1 seal
WELL_TILES = ["C2", "W4"]
WELL_GAIN = {"seal": 1, "iron": 1, "coin": 1}

# pick decisions on BOARD / BOARD_TILES, worked out by hand from the sheet's card tables
LIGHT_PICKS = [
    "block 2 of S2",
    "block 3 of S2",
    "block 2 of S4",
    "block 3 of S4",
    "block 1 of S9",
    "block 3 of S9",
    "block 2 of D2",
    "block 1 of D7",
]
TILE_PICKS = {
    "tile": [f"block {b} of {c}" for c in BOARD[:3] for b in (1, 2, 3)]
    + [f"block {b} of {c}" for c in BOARD[3:] for b in (1, 2)],
    "tile coral": ["block 1 of S2", "block 1 of S4", "block 2 of S4", "block 1 of D2"],
    "tile black": [
        "block 2 of S2",
        "block 3 of S4",
        "block 1 of S9",
        "block 2 of D2",
        "block 1 of D7",
    ],
    "tile white": ["block 3 of S2", "block 2 of S9", "block 3 of S9", "block 2 of D7"],
}
DOMAIN_PICKS = ["domain courtier row", "domain gardener row", "domain warrior row"]


def expect(spec: str) -> tuple[dict[str, int], str | None]:
    """Counter changes and final decision described by ``spec`` (see the module docstring)."""
    out: Counter = Counter()
    final = None
    for tok in (t.strip() for t in spec.split(",") if t.strip()):
        if tok.startswith("seal->"):
            out["seal"] -= 1
            tok = tok[len("seal->") :]
        elif " coins->" in tok:
            n, tok = tok.split(" coins->")
            out["coin"] -= int(n)
        if tok.startswith("+"):
            n, key = tok[1:].split()
            out["pearl" if key == "any" else key] += int(n)
        elif tok == "lantern":
            out.update(LANTERN_GAIN)
        elif tok == "well":
            out.update(WELL_GAIN)
        else:
            final = tok
    return {k: v for k, v in out.items() if v}, final


def check(s, before: dict[str, int], spec: str) -> None:
    """Drive seat 0's decisions and compare the result with ``spec``."""
    want, final = expect(spec)
    kind = drive(s)
    assert delta(s, before) == want
    if final is None:
        assert kind is None, f"unexpected pending {kind}: {names(s)}"
    elif final in ("courtier", "warrior", "gardener"):
        assert kind == final
    else:
        assert kind == "pick"
        want_picks = DOMAIN_PICKS if final == "domain" else LIGHT_PICKS
        assert names(s) == TILE_PICKS.get(final, want_picks)


def board(**pl) -> Scenario:
    sc = Scenario(2).rooms(list(BOARD), [list(t) for t in BOARD_TILES])
    sc.set(well_tiles=list(WELL_TILES), steward_deck=["S5", "S7"], diplomat_deck=["D5"])
    sc.player(0, **{"seal": 1, "lantern": list(LANTERN_AREA), **pl})
    return sc


def dice(value: int) -> list[list[int]]:
    return [[value, value], [value, value], [value, value]]


# ------------------------------------------------------------------- castle cards (9.4, 9.5)
# card -> (diamond, [(rows, dark, effect spec)])
STEWARD_SHEET = {
    "S1": (True, ["D seal->courtier", "L +1 seal, +1 vp", "L +1 food, lantern"]),
    "S2": (False, ["D seal->courtier", "L +1 pot", "L +2 iron"]),
    "S3": (True, ["D seal->courtier", "L lantern", "L +2 vp"]),
    "S4": (False, ["D seal->warrior", "L +1 coin, well", "L lantern"]),
    "S5": (False, ["D seal->warrior", "L +1 food, +1 pearl", "L +1 iron, lantern"]),
    "S6": (True, ["L +1 iron, lantern", "D seal->gardener", "L +2 any"]),
    "S7": (False, ["L +1 pot", "D seal->gardener", "L +2 food"]),
    "S8": (True, ["L +1 coin, well", "D seal->gardener", "L +1 pot"]),
    "S9": (False, ["L +1 coin, well", "D seal->courtier", "L +2 food"]),
    "S10": (False, ["L +1 seal, +1 any", "D seal->courtier", "L +1 iron, +1 food"]),
    "S11": (True, ["L +2 any", "L +1 pearl, lantern", "D seal->warrior"]),
    "S12": (False, ["L +2 pearl", "L +1 seal, +1 vp", "D seal->gardener"]),
    "S13": (False, ["L +2 iron", "L lantern", "D seal->gardener"]),
    "S14": (True, ["L +2 vp", "L +1 seal, +1 any", "D seal->warrior"]),
    "S15": (False, ["L +1 pot", "L +2 pearl", "D seal->warrior"]),
}
# card -> (diamond, [(rows, "L|D effect")]) rows T=0, M=1, B=2
DIPLOMAT_SHEET = {
    "D1": (True, [("T", "D courtier"), ("MB", "L +3 any")]),
    "D2": (False, [("T", "D courtier"), ("MB", "L +2 pot")]),
    "D3": (False, [("T", "D courtier"), ("MB", "L +2 vp, well")]),
    "D4": (False, [("T", "D courtier"), ("MB", "L +1 seal, lantern")]),
    "D5": (False, [("T", "D warrior"), ("MB", "L +3 any")]),
    "D6": (False, [("T", "D warrior"), ("MB", "L +2 pot")]),
    "D7": (False, [("T", "L +2 pot"), ("MB", "D gardener")]),
    "D8": (False, [("T", "L +2 vp, well"), ("MB", "D gardener")]),
    "D9": (True, [("TM", "L +2 vp, well"), ("B", "D warrior")]),
    "D10": (False, [("TM", "L +2 coin, lantern"), ("B", "D warrior")]),
    "D11": (False, [("TM", "L +1 pot, lantern"), ("B", "D gardener")]),
    "D12": (True, [("TM", "L +3 any"), ("B", "D gardener")]),
}
ROW = {"T": 0, "M": 1, "B": 2}


def castle_blocks(card: str) -> list[tuple[list[int], bool, str]]:
    """(rows, dark, effect spec) of every block of ``card`` according to the sheet."""
    if card in STEWARD_SHEET:
        return [([i], b[0] == "D", b[2:]) for i, b in enumerate(STEWARD_SHEET[card][1])]
    return [([ROW[r] for r in rows], b[0] == "D", b[2:]) for rows, b in DIPLOMAT_SHEET[card][1]]


CASTLE = [*STEWARD_SHEET, *DIPLOMAT_SHEET]


def test_castle_decks_are_complete():
    assert sorted(STEWARDS) == sorted(STEWARD_SHEET)
    assert sorted(DIPLOMATS) == sorted(DIPLOMAT_SHEET)


@pytest.mark.parametrize("card", CASTLE)
def test_castle_card_diamond_rows_and_background(card):
    diamond, blocks = STEWARDS.get(card) or DIPLOMATS[card]
    sheet = STEWARD_SHEET.get(card) or DIPLOMAT_SHEET[card]
    assert diamond == sheet[0]
    assert [(b[0], b[1]) for b in blocks] == [(r, d) for r, d, _ in castle_blocks(card)]


STEWARD_CASES = [(c, i) for c in STEWARD_SHEET for i in range(3)]
DIPLOMAT_CASES = [(c, i) for c in DIPLOMAT_SHEET for i in range(2)]


@pytest.mark.parametrize(("card", "block"), STEWARD_CASES + DIPLOMAT_CASES)
def test_castle_block_effect_from_a_room(card, block):
    """A die of the colour of the tile beside a block resolves exactly that block."""
    room = 0 if card in STEWARD_SHEET else 3
    rooms = list(BOARD)
    rooms[room] = card
    tiles = [list(t) for t in BOARD_TILES]
    tiles[room] = [0, 1, 2] if room < 3 else [0, 1]
    value = ROOM_VALUE[room]  # equal value: no coins
    s = board().rooms(rooms, tiles).bridges(dice(value)).turn(0).build()
    before = snapshot(s)
    do(s, f"take {COLOURS[block]} die from the right")
    do(s, f"place die on {SPACE_NAMES[room]}")
    check(s, before, castle_blocks(card)[block][2])


@pytest.mark.parametrize("card", CASTLE)
def test_castle_card_on_the_domain_fires_the_block_of_each_row(card):
    """As an Action card, a Domain row resolves the block covering that row (§9.5)."""
    for row in range(3):
        spec = next(e for rows, _, e in castle_blocks(card) if row in rows)
        s = board(action_card=card).bridges(dice(6)).turn(0).build()
        before = snapshot(s)
        do(s, f"take {COLOURS[row]} die from the right")
        do(s, f"place die on {SPACE_NAMES[8 + row]}")
        check(s, before, spec)


@pytest.mark.parametrize("card", CASTLE)
def test_climbing_to_a_card_offers_its_light_blocks(card):
    room = 0 if card in STEWARD_SHEET else 3
    rooms = list(BOARD)
    rooms[room] = card
    lvl = 0 if room == 0 else 1
    sc = board(pearl=2, courtiers=[1, 0, 0, 0] if lvl == 0 else [0, 1, 0, 0])
    s = sc.rooms(rooms).bridges(dice(5)).turn(0).build()
    do(s, "take white die from the right")
    do(s, "outside the walls (warrior")
    do(s, "courtier action")
    do(s, f"to {SPACE_NAMES[room]}")
    light = [f"block {i + 1} of {card}" for i, b in enumerate(castle_blocks(card)) if not b[1]]
    assert s.players[0]["action_card"] == card
    assert names(s) == light


# ------------------------------------------------------------------- lantern icons (9.10)
LANTERN_SHEET = {
    **{r: "+1 pearl" for r in ("R1", "R2", "R3")},
    **{r: "+1 iron" for r in ("R4", "R5", "R6")},
    **{r: "+1 food" for r in ("R7", "R8", "R9")},
    "coin_decree": "+1 coin",
    "seal_decree": "+1 seal",
    "vp_decree": "+1 vp",
    **{a: "+1 pot" for a in ("A1a", "A1b", "A2a", "A2b", "A3a", "A3b")},
    **{c: "+1 coin" for c in STEWARD_SHEET},
    **{c: "+1 vp" for c in DIPLOMAT_SHEET},
}


@pytest.mark.parametrize("card", list(LANTERN_SHEET))
def test_lantern_icon(card):
    s = board(lantern=[card]).bridges(dice(5)).turn(0).build()
    s.decision = None
    s._exec(0, ["lantern"])
    before = snapshot(s)  # _exec only queued the icon
    s._run()
    s._mask = None
    check(s, before, LANTERN_SHEET[card])


# ------------------------------------------------------------------- starting cards (9.1-9.3)
START_SHEET = {
    "R1": ("coin_decree", "+2 food, +1 iron, +2 coin, +1 seal"),
    "R2": (None, "+2 any, +4 coin, +2 seal"),
    "R3": (None, "+2 iron, +1 pearl, +5 coin, +1 seal"),
    "R4": ("seal_decree", "+2 pearl, +1 iron, +4 coin"),
    "R5": (None, "+3 any, +4 coin, +1 seal"),
    "R6": (None, "+1 food, +2 iron, +1 pearl, +3 coin, +1 seal"),
    "R7": ("vp_decree", "+1 any, +2 coin, +2 seal"),
    "R8": (None, "+2 food, +2 iron, +1 pearl, +4 coin, +1 seal"),
    "R9": (None, "+4 food, +2 iron, +3 coin, +2 seal"),
}


@pytest.mark.parametrize("card", list(START_SHEET))
def test_starting_resource_card(card):
    from boardgames_rl.games.white_castle import WhiteCastle

    s = WhiteCastle(num_players=2).new_state(3)
    s.offer = [["R9" if card != "R9" else "R8", "A2a"], [card, "A3b"], ["R5", "A1a"]]
    s._mask = None
    p = s.current_player
    before = snapshot(s, p)
    do(s, f"take starting pair {card} + A3b")
    decree, spec = START_SHEET[card]
    want, _ = expect(spec)
    assert drive(s, p) is None
    assert delta(s, before, p) == want
    pl = s.players[p]
    assert pl["action_card"] == "A3b"
    assert pl["lantern"] == [card] + ([decree] if decree else [])


START_ACTION_SHEET = {
    "A1a": "courtier",
    "A1b": "courtier",
    "A2a": "warrior",
    "A2b": "warrior",
    "A3a": "gardener",
    "A3b": "gardener",
}


@pytest.mark.parametrize("card", list(START_ACTION_SHEET))
def test_starting_action_card_block_covers_every_row(card):
    assert sorted(START_ACTIONS) == sorted(START_ACTION_SHEET)
    for row in range(3):
        s = board(action_card=card).bridges(dice(6)).turn(0).build()
        before = snapshot(s)
        do(s, f"take {COLOURS[row]} die from the right")
        do(s, f"place die on {SPACE_NAMES[8 + row]}")
        check(s, before, START_ACTION_SHEET[card])


# ------------------------------------------------------------------- Daimyo cards (9.6)
DAIMYO_SHEET = {
    "DY1": ["+4 vp", "courtier", "+2 pot"],
    "DY2": ["warrior", "+3 any", "+2 vp, +1 seal"],
    "DY3": ["gardener", "+5 coin", "well, +1 vp"],
    "DY4": ["+2 pot, +1 vp", "domain", "+2 seal, +1 any"],
    "DY5": ["courtier", "warrior", "+3 vp"],
    "DY6": ["gardener", "light", "+4 coin, +1 pot"],
    "DY7": ["+3 pearl", "+3 iron", "+3 food"],
    "DY8": ["lantern, +1 vp", "tile", "+2 pot"],
    "DY9": ["+5 vp", "courtier, +1 coin", "gardener, +1 coin"],
}


@pytest.mark.parametrize(("card", "pos"), [(c, i) for c in DAIMYO_SHEET for i in range(3)])
def test_daimyo_position(card, pos):
    assert sorted(DAIMYO) == sorted(DAIMYO_SHEET)
    s = board(pearl=2, courtiers=[0, 0, 1, 0]).set(daimyo=card).bridges(dice(5)).turn(0).build()
    do(s, "take white die from the right")
    do(s, "outside the walls (warrior")
    do(s, "courtier action")
    before = snapshot(s)
    do(s, "daimyo room")
    assert delta(s, before) == {"pearl": -2 + 1, "coin": 1, "vp": 1}  # climb + lantern
    before = snapshot(s)
    do(s, f"daimyo position {pos + 1}")
    assert s.daimyo_pos[pos] == 0 and s.players[0]["courtiers"] == [0, 0, 0, 1]
    check(s, before, DAIMYO_SHEET[card][pos])


# ------------------------------------------------------------------- gardens (9.7)
GARDEN_SHEET = {
    "P1": (5, 9, "4 coins->tile"),
    "P2": (4, 7, "3 coins->gardener"),
    "P3": (4, 7, "3 coins->courtier"),
    "P4": (4, 7, "3 coins->warrior"),
    "P5": (3, 5, "4 coins->domain"),
    "G1": (1, 1, "+2 any"),
    "G2": (1, 1, "+3 coin"),
    "G3": (2, 3, "+2 seal"),
    "G4": (2, 3, "light"),
    "G5": (3, 5, "well"),
}


@pytest.mark.parametrize("card", list(GARDEN_SHEET))
def test_garden_card(card):
    assert sorted(GARDENS) == sorted(GARDEN_SHEET)
    cost, vp, spec = GARDEN_SHEET[card]
    gardens = ["P2", "G2", "P3", "G3", "P4", "G1"] if card != "P2" else ["P1", "G2"] * 3
    gardens[0] = card
    s = board(food=7, coin=10).set(gardens=gardens).bridges(dice(5)).turn(0).build()
    do(s, "take black die from the right")
    do(s, "outside the walls (gardener")
    do(s, "gardener action")
    before = snapshot(s)
    s.apply(names(s).index(f"gardener to garden {card}"))
    assert s.garden_workers[0] == [0] and s.players[0]["members"][1] == 4
    want = f"+{-cost} food, {spec}"  # the food cost, then the card's effect
    check(s, before, want)
    assert s.scores()[0]["gardeners"] == vp


# ------------------------------------------------------------------- yard tiles (9.8)
YARD_SHEET = {
    "Y1": ("courtier", "+3 pearl"),
    "Y2": ("warrior", "+2 pot"),
    "Y3": ("gardener", "+3 food"),
    "Y4": ("tile coral", "well"),
    "Y5": ("tile white", "+2 seal"),
    "Y6": ("tile black", "+5 coin"),
    "Y7": ("tile", "light"),
    "Y8": ("domain", "+2 vp"),
}


@pytest.mark.parametrize(("tile", "face"), [(t, f) for t in YARD_SHEET for f in (0, 1)])
def test_yard_tile_face(tile, face):
    assert sorted(YARD_TILES) == sorted(YARD_SHEET)
    s = board(iron=1).set(yards=[[], [], [[tile, face]]]).bridges(dice(5)).turn(0).build()
    do(s, "take white die from the right")
    do(s, "outside the walls (warrior")
    do(s, "warrior action")
    before = snapshot(s)
    do(s, "warrior to yard 3")
    assert s.yard_warriors[2] == [0] and s.players[0]["members"][2] == 4
    check(s, before, "+-1 iron, " + YARD_SHEET[tile][face])


# ------------------------------------------------------------------- die tiles (9.9)
DIE_TILE_SHEET = {
    "C1": ("coral", "+1 food"),
    "C2": ("coral", "+1 iron"),
    "C3": ("coral", "+1 pearl"),
    "C4": ("coral", "+1 coin"),
    "C5": ("coral", "+1 seal"),
    "K1": ("black", "+1 food"),
    "K2": ("black", "+1 iron"),
    "K3": ("black", "+1 pearl"),
    "K4": ("black", "+1 vp"),
    "K5": ("black", "+1 pot"),
    "W1": ("white", "+1 food"),
    "W2": ("white", "+1 iron"),
    "W3": ("white", "+1 pearl"),
    "W4": ("white", "+1 coin"),
    "W5": ("white", "+1 pot"),
}


@pytest.mark.parametrize("tile", list(DIE_TILE_SHEET))
def test_die_tile_colour_and_well_reward(tile):
    assert sorted(DIE_TILES) == sorted(DIE_TILE_SHEET)
    colour, reward = DIE_TILE_SHEET[tile]
    assert COLOURS[DIE_TILES[tile][0]] == colour
    partner = "K4" if tile != "K4" else "C4"
    s = board().set(well_tiles=[tile, partner]).bridges(dice(2)).turn(0).build()
    before = snapshot(s)
    do(s, "take coral die from the right")
    do(s, "place die on the well")
    # die 2 on the Well (value 1): +1 coin, +1 seal, and both tile rewards
    check(s, before, f"+1 coin, +1 seal, {reward}, {DIE_TILE_SHEET[partner][1]}")


# ------------------------------------------------------------------- Domain rows (9.11)
DOMAIN_SHEET = [
    ["+1 food", "+1 food", "+2 coin", "+1 food", "+1 seal"],
    ["+1 iron", "+1 iron", "lantern", "+1 iron", "+2 coin"],
    ["+1 pearl", "+1 pearl", "+1 seal", "+1 pearl", "lantern"],
]


@pytest.mark.parametrize(("row", "gone"), [(r, k) for r in range(3) for k in range(6)])
def test_domain_row_uncovered_icons(row, gone):
    members = [5, 5, 5]
    members[row] = 5 - gone
    s = board(members=members).bridges(dice(6)).turn(0).build()
    before = snapshot(s)
    do(s, f"take {COLOURS[row]} die from the right")
    do(s, f"place die on {SPACE_NAMES[8 + row]}")
    # value 6 on value 6: no coins; the icons, then the A1a block (Courtier action)
    check(s, before, ", ".join([*DOMAIN_SHEET[row][:gone], "courtier"]))


# ------------------------------------------------------------------- Outside the Walls (4)
@pytest.mark.parametrize(
    ("space", "offer"),
    [(5, ["gardener action", "courtier action"]), (6, ["warrior action", "courtier action"])],
)
def test_outside_the_walls_offers_one_of_two_actions(space, offer):
    s = board().bridges(dice(5)).turn(0).build()
    before = snapshot(s)
    do(s, "take coral die from the right")
    do(s, f"place die on {SPACE_NAMES[space]}")
    assert delta(s, before) == {} and names(s) == offer
    do(s, offer[0])
    assert s.decision["kind"] == offer[0].split()[0]


# ------------------------------------------------------------------- Training Yards (5.1)
@pytest.mark.parametrize(("yard", "cost"), [(1, 5), (2, 3), (3, 1)])
def test_training_yard_iron_cost(yard, cost):
    """A warrior goes to a yard only if its iron cost is paid; the cost is taken."""
    for iron, offered in ((cost - 1, False), (cost, True)):
        s = board(iron=iron).set(yards=[[], [], []]).bridges(dice(5)).turn(0).build()
        do(s, "take white die from the right")
        do(s, "outside the walls (warrior")
        do(s, "warrior action")
        assert (f"warrior to yard {yard}" in names(s)) == offered
    do(s, f"warrior to yard {yard}")
    assert s.players[0]["iron"] == 0 and s.yard_warriors[yard - 1] == [0]
