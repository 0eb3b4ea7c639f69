"""The Well (issue 40), from the rulebook's sentences, on every path that grants it.

"The Well ... The value of this space is always 1 ... If you place a die with a value greater
than 1, you gain the difference in coins (beyond the 1 value), plus the benefits indicated on the
2 tiles in the Well. You always gain 1 Daimyo Seal when placing a die here."
Turn step 4: "Carry out the action(s) for the space where you placed the die, in any order you
choose." "Daimyo Seals ... You can store up to 5. Use them to move past Checkpoints".

Paths: a die on the Well space; the Well action of a castle card's block (placed in its room, or
as the Action card on the Domain), of a Garden card (sent a Gardener, or activated at a round's
end), of a Yard tile (sent a Warrior) and of a Daimyo favour. The Well's seal is one of its
actions beside the tiles, ordered by the player; the engine asks the order only when it can
change the result (``docs/rules/white_castle.md`` §2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations

import numpy as np
import pytest

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.games.white_castle import WhiteCastle, WhiteCastleHeuristic
from boardgames_rl.games.white_castle.data import WELL_VALUE

from .helpers import RESOURCE_KEYS, delta, do, names, snapshot, table

ROOMS = ["S9", "S4", "S2", "D2", "D7"]  # S9 block 1 (top row): +1 coin, Well action
ROOM_TILES = [[0, 1, 2], [0, 0, 1], [1, 2, 2], [0, 1], [1, 2]]  # room 1 top tile: coral
# the reward sides of the die tiles, transcribed from the data sheet §9.9 (not read from data.py)
TILE_GAIN = {
    "C1": "food",
    "C2": "iron",
    "C3": "pearl",
    "C4": "coin",
    "C5": "seal",
    "K1": "food",
    "K2": "iron",
    "K3": "pearl",
    "K4": "vp",
    "K5": "pot",
    "W1": "food",
    "W2": "iron",
    "W3": "pearl",
    "W4": "coin",
    "W5": "pot",
}


def _game(flag: bool | None) -> WhiteCastle:
    return WhiteCastle(num_players=2) if flag is None else WhiteCastle(2, well_one_pays_tiles=flag)


def _state(game, well_tiles, players0, **fields):
    fields.setdefault("rooms", list(ROOMS))
    fields.setdefault("room_tiles", [list(t) for t in ROOM_TILES])
    fields.setdefault("steward_deck", ["S5", "S7"])
    fields.setdefault("diplomat_deck", ["D5"])
    return table(game, well_tiles=list(well_tiles), players={0: players0}, **fields)


# Each path: (game, Well tiles, die, player-0 fields) -> (state before the granting action,
# the action's name, the gains and costs of the path itself, not counting the Well's).
Path = Callable[..., tuple]


def space(game, tiles, die, pl):
    s = _state(game, tiles, pl, bridges=[[die, die], [die, die], [die, die]], turn=0)
    do(s, "take coral die from the right")
    return s, "place die on the well", {"coin": die - WELL_VALUE}


def room(game, tiles, die, pl):
    s = _state(game, tiles, {"coin": 5, **pl}, bridges=[[die, die], [6], [6]], turn=0)
    do(s, "take coral die from the right")
    return s, "place die on steward room 1", {"coin": die - 3 + 1}  # the room's 3; S9's +1 coin


def domain(game, tiles, die, pl):
    s = _state(
        game, tiles, {"coin": 5, "action_card": "S9", **pl}, bridges=[[die, die], [6], [6]], turn=0
    )
    do(s, "take coral die from the right")  # coral: the Courtier row, covered by S9's block 1
    return s, "place die on domain courtier row", {"coin": die - 6 + 1}


def garden(game, tiles, die, pl):
    gardens = ["G5", "G2", "P3", "G3", "P4", "G1"]
    s = _state(
        game,
        tiles,
        {"food": 3, "coin": 4, **pl},
        gardens=gardens,
        bridges=[[6], [die, die], [6]],
        turn=0,
    )
    do(s, "take black die from the right")
    do(s, "outside the walls (gardener")
    do(s, "gardener action")
    return s, "gardener to garden G5", {"food": -3}


def garden_round_end(game, tiles, die, pl):
    # seat 1 takes the round's last die; seat 0's Gardener on G5 (the coral bridge keeps dice)
    s = _state(
        game,
        tiles,
        pl,
        gardens=["G5", "G2", "P3", "G3", "P4", "G1"],
        garden_workers=[[0], [], [], [], [], []],
        bridges=[[die, 3, 4, 5], [], [6]],
        turn_order=[0, 1],
        turn=1,
        turns_taken=5,
    )
    do(s, "take coral die from the right")
    do(s, "place die on the well")
    assert s.decision["kind"] == "opt" and s.current_player == 0
    return s, "do well", {}


def yard(game, tiles, die, pl):
    yards = [[], [], [["Y4", 1]]]  # Y4's back face: Well action
    s = _state(
        game,
        tiles,
        {"iron": 1, "coin": 4, **pl},
        yards=yards,
        bridges=[[6], [6], [die, die]],
        turn=0,
    )
    do(s, "take white die from the right")
    do(s, "outside the walls (warrior")
    do(s, "warrior action")
    return s, "warrior to yard 3", {"iron": -1}


def daimyo(game, tiles, die, pl):
    fields = {"pearl": 2, "coin": 4, "courtiers": [0, 0, 1, 0], **pl}
    s = _state(game, tiles, fields, daimyo="DY3", bridges=[[6], [6], [die, die]], turn=0)
    do(s, "take white die from the right")
    do(s, "outside the walls (warrior")
    do(s, "courtier action")
    do(s, "daimyo room")  # the climb (2 pearl) and the Lantern (an empty Lantern Area)
    return s, "daimyo position 3", {"vp": 1}  # DY3's third favour: Well action, +1 VP


PATHS: dict[str, Path] = {
    "space": space,
    "room": room,
    "domain": domain,
    "garden": garden,
    "garden_round_end": garden_round_end,
    "yard": yard,
    "daimyo": daimyo,
}
CARD_PATHS = [p for p in PATHS if p != "space"]


def _finish(s) -> None:
    """Seat 0's routine decisions after the Well: accept checkpoints, stop the rest."""
    while s.decision is not None and s.current_player == 0:
        kind = s.decision["kind"]
        assert kind != "order", names(s)
        if kind == "checkpoint":
            do(s, "yes:")
        elif kind in ("courtier", "opt"):
            do(s, "stop")
        else:
            return


def _gains(path, tiles, die, flag, **pl):
    s, action, own = PATHS[path](_game(flag), tiles, die, pl)
    before = snapshot(s)
    do(s, action)
    _finish(s)
    return s, delta(s, before), own


def _expected(own: dict, tiles, pays_tiles: bool) -> dict:
    """The path's own gains and costs, the Well's seal and, if paid, both tiles' rewards."""
    want = Counter(own)
    want.update({"seal": 1})
    if pays_tiles:
        want.update(TILE_GAIN[t] for t in tiles)
    return {k: v for k, v in want.items() if v}


# ---------------------------------------------------------------------------- the die's value
@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("flag", [None, False, True])
def test_well_space_pays_coins_and_tiles_for_a_die_above_one(die, flag):
    """ "If you place a die with a value greater than 1, you gain the difference in coins
    (beyond the 1 value), plus the benefits indicated on the 2 tiles in the Well. You always
    gain 1 Daimyo Seal". Default (the literal reading): a 1 gains only the seal; the flag
    ``well_one_pays_tiles=True`` (the data sheet's reading) pays both tiles for a 1 too."""
    tiles = ["C2", "K4"]
    s, got, own = _gains("space", tiles, die, flag)
    pays = die > 1 or flag is True
    assert got == _expected(own, tiles, pays)
    assert got["seal"] == 1 and got.get("coin", 0) == die - 1
    assert s.current_player == 1  # nothing left of seat 0's turn


@pytest.mark.parametrize("tiles", [["C5", "W5"], ["K5", "W5"], ["C1", "W4"]])
def test_well_space_with_a_one_never_pays_tiles_by_default(tiles):
    """The same sentence over other tiles: a 1 gains the seal and nothing else, whatever the
    tiles would give (Passage of Time, a seal, resources, coins)."""
    s, got, _ = _gains("space", tiles, 1, None, pot=5, seal=2)
    assert got == {"seal": 1}
    _, got, _ = _gains("space", tiles, 1, True, pot=5, seal=2)
    want = Counter({"seal": 1}) + Counter(TILE_GAIN[t] for t in tiles)
    if "pot" in want and want["pot"] >= 1:
        want["seal"] -= 1  # the marker passes the checkpoint at 6 (1 seal)
    assert got == {k: v for k, v in want.items() if v}


@pytest.mark.parametrize("flag", [None, True])
@pytest.mark.parametrize("path", CARD_PATHS)
def test_well_action_of_cards_gardens_and_yards_pays_the_seal_and_both_tiles(path, flag):
    """The Well action of a card, garden, yard or Daimyo favour places no die: the die sentence
    does not apply, so it is the seal and both tiles (data sheet §8), no coins, under either
    value of ``well_one_pays_tiles``, even when the die that led there shows 1."""
    tiles = ["C3", "K4"]
    for die in (1, 5) if path not in ("domain",) else (1, 6):
        if path == "garden_round_end" and die == 5:
            continue  # seat 1's die; the garden is activated whatever it was
        s, got, own = _gains(path, tiles, die, flag)
        assert got == _expected(own, tiles, True), (path, die)


# ---------------------------------------------------------------------------- the order
def _issue_example(path: str, first: str | None, flag: bool | None = None, **pl):
    """5 seals, Passage of Time 5, Well tiles K5 (+1 Passage of Time) and C3 (+1 pearl);
    ``first``: the Well action chosen first at the order decision (None: none expected)."""
    fields = {"seal": 5, "pot": 5, **pl}
    s, action, _ = PATHS[path](_game(flag), ["K5", "C3"], 5, fields)
    pearl = s.players[0]["pearl"]
    do(s, action)
    if first is None:
        assert s.decision["kind"] != "order"
    else:
        assert s.decision["kind"] == "order" and s.current_player == 0
        assert names(s) == ["do +1 seal", "do +1 passage of time"]
        assert s.players[0]["pearl"] == pearl + 1  # the pearl fits: gained without asking
        do(s, first)
    _finish(s)
    return s.players[0]["pot"], s.players[0]["seal"]


@pytest.mark.parametrize("path", list(PATHS))
def test_well_seal_and_tiles_in_the_order_the_player_chooses(path):
    """Issue 40's example: with 5 seals, Passage of Time 5 and a Well tile that advances the
    marker past the 1-seal checkpoint, taking the tile first pays the checkpoint (5 -> 4 seals)
    and the Well's seal then fits: Passage of Time 6 with 5 seals. The seal first is lost to
    the cap of 5 (6 with 4 seals). The player is asked, on every path granting the Well."""
    assert _issue_example(path, "passage of time") == (6, 5)
    assert _issue_example(path, "+1 seal") == (6, 4)


def test_well_order_at_a_later_checkpoint():
    """The same at the 2-seal checkpoint (Passage of Time 10 -> 11): 5 - 2 + 1 = 4 seals."""
    assert _issue_example("space", "passage of time", pot=10) == (11, 4)
    assert _issue_example("space", "+1 seal", pot=10) == (11, 3)


@pytest.mark.parametrize("path", list(PATHS))
def test_well_order_not_asked_when_no_cap_bites(path):
    """With 4 seals the seal fits in every order (gained first, nothing lost): no question.
    With 5 seals but Passage of Time 2 the tile's single step reaches no checkpoint, so
    nothing can spend a seal: the seal is lost whatever the order, no question either."""
    assert _issue_example(path, None, seal=4) == (6, 4)
    assert _issue_example(path, None, pot=2) == (3, 5)


def test_well_with_a_one_asks_no_order_by_default():
    """A 1 on the Well gains only the seal (default): nothing to order, the seal is lost at 5.
    Under ``well_one_pays_tiles=True`` the tiles come too, and so does the question."""
    s, action, _ = space(_game(None), ["K5", "C3"], 1, {"seal": 5, "pot": 5})
    do(s, action)
    assert s.current_player == 1 and (s.players[0]["pot"], s.players[0]["seal"]) == (5, 5)
    s, action, _ = space(_game(True), ["K5", "C3"], 1, {"seal": 5, "pot": 5})
    do(s, action)
    assert s.decision["kind"] == "order"


def _outcomes(s) -> set:
    """Every end of seat 0's Well resolution over all orders (checkpoints paid)."""
    kind = s.decision["kind"] if s.decision is not None and s.current_player == 0 else None
    if kind == "order":
        out: set = set()
        for a in range(len(s.options())):
            c = s.clone()
            c.apply(a)
            out |= _outcomes(c)
        return out
    if kind == "checkpoint":
        c = s.clone()
        do(c, "yes:")
        return _outcomes(c)
    return {tuple(s.players[0][k] for k in RESOURCE_KEYS)}


# tiles with every kind of reward: a resource, coins, a seal, VP, Passage of Time (two kinds)
ORDER_TILES = ["C2", "C4", "C5", "K4", "K5", "W5"]


@pytest.mark.parametrize("path", ["space", "yard"])
def test_well_order_is_asked_exactly_when_it_changes_the_result(path):
    """ "In any order you choose", asked only when it matters: over seals 3-5, every Passage of
    Time position around the checkpoints, iron at the cap or not and every pair of tiles, the
    order decision is met if and only if two orders end differently."""
    asked = 0
    for t1, t2 in combinations(ORDER_TILES, 2):
        for seal in (3, 4, 5):
            for pot in (0, 3, 4, 5, 9, 10, 13, 14, 15, 19, 20):
                s, action, _ = PATHS[path](_game(None), [t1, t2], 5, {"seal": seal, "pot": pot})
                s.players[0]["iron"] = 7 if pot % 2 else 6
                do(s, action)
                met = s.decision["kind"] == "order" and s.current_player == 0
                # the first decision is the only place an order question can come first
                ends = _outcomes(s)
                assert met == (len(ends) > 1), (t1, t2, seal, pot, ends)
                asked += met
    assert asked > 0


# ---------------------------------------------------------------------------- the flag
def test_well_flag_default_validation_and_config():
    """Default: the literal reading (``well_one_pays_tiles`` False, not kept in ``config``);
    True is kept and round-trips; anything but a bool is refused in one line."""
    assert WhiteCastle().well_one_pays_tiles is False
    assert WhiteCastle(num_players=3).config == {"num_players": 3}
    assert WhiteCastle(num_players=3, well_one_pays_tiles=False).config == {"num_players": 3}
    g = WhiteCastle(num_players=3, well_one_pays_tiles=True)
    assert g.config == {"num_players": 3, "well_one_pays_tiles": True}
    assert WhiteCastle(**g.config) == g and WhiteCastle(**g.config).well_one_pays_tiles
    # an on/off option like every game's (core.options.parse_bool): words and 1/0 too
    for on in (True, 1, "true", "Yes", "on", np.bool_(True)):
        assert WhiteCastle(well_one_pays_tiles=on).config == {
            "num_players": 2,
            "well_one_pays_tiles": True,
        }
    for off in (False, 0, "false", "no", "OFF"):
        assert WhiteCastle(well_one_pays_tiles=off).config == {"num_players": 2}
    for bad in (2, "maybe", None, 1.0, 0.5):
        with pytest.raises(InvalidConfigError, match="well_one_pays_tiles") as err:
            WhiteCastle(num_players=2, well_one_pays_tiles=bad)
        assert "\n" not in str(err.value)


# ---------------------------------------------------------------------------- the heuristic
def test_heuristic_orders_the_well_to_keep_the_seal():
    """The heuristic agent meets the Well's order question and keeps the capped seal."""
    s, action, _ = space(_game(None), ["K5", "C3"], 5, {"seal": 5, "pot": 5})
    do(s, action)
    assert s.decision["kind"] == "order"
    agent = WhiteCastleHeuristic()
    a = agent.act(s.info_set(0), np.random.default_rng(0))
    assert names(s)[a] == "do +1 passage of time"
