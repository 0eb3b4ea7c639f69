"""The White Castle: data tables (data sheet ``/work/shared/games/white_castle.md``).

Effects are JSON-safe lists:
``["g", key, n]`` gain (key in food/iron/pearl/coin/seal/vp), ``["any", n]`` n resources of choice,
``["pot", n]`` Passage of Time steps, ``["lantern"]``, ``["well"]``, ``["courtier"]``,
``["gardener"]``, ``["warrior"]``, ``["domain"]`` personal domain action, ``["tile", c]`` any
die-tile action of colour c (-1 any) on the main board, ``["light"]`` any light block on the main
board, ``["payseal", eff]`` pay 1 seal then eff, ``["paycoin", n, eff]`` pay n coins then eff.
A block is ``[rows, dark, effects]`` (rows 0 top/coral, 1 middle/black, 2 bottom/white).
"""

from __future__ import annotations

from typing import Any

Effect = list[Any]
"""One effect: ``[kind, *arguments]``, JSON-safe (kept as it is in saved states)."""
Block = list[Any]
"""One block of a card: ``[rows, dark, effects]``."""

CORAL, BLACK, WHITE = 0, 1, 2
COLOURS = ("coral", "black", "white")
RESOURCES = ("food", "iron", "pearl")
RES_CAP = 7
SEAL_CAP = 5
ROUNDS = 3


def g(key: str, n: int = 1) -> Effect:
    return ["g", key, n]


C: Effect = ["courtier"]
W_: Effect = ["warrior"]
G_: Effect = ["gardener"]
LANT: Effect = ["lantern"]
WELL: Effect = ["well"]
DOM: Effect = ["domain"]
LIGHT: Effect = ["light"]


def pot(n: int) -> Effect:
    return ["pot", n]


def anyr(n: int) -> Effect:
    return ["any", n]


def tile(c: int = -1) -> Effect:
    return ["tile", c]


def ps(e: Effect) -> Effect:
    return ["payseal", e]


def pc(n: int, e: Effect) -> Effect:
    return ["paycoin", n, e]


def L(rows: tuple[int, ...] | list[int], *effs: Effect) -> Block:
    return [list(rows), False, list(effs)]


def D(rows: tuple[int, ...] | list[int], *effs: Effect) -> Block:
    return [list(rows), True, list(effs)]


# ---------------------------------------------------------------- starting cards (9.1-9.3)
# id -> (lantern effect, setup gains, decree id or None)
START_RESOURCES = {
    "R1": (g("pearl"), [g("food", 2), g("iron"), g("coin", 2), g("seal")], "coin_decree"),
    "R2": (g("pearl"), [anyr(2), g("coin", 4), g("seal", 2)], None),
    "R3": (g("pearl"), [g("iron", 2), g("pearl"), g("coin", 5), g("seal")], None),
    "R4": (g("iron"), [g("pearl", 2), g("iron"), g("coin", 4)], "seal_decree"),
    "R5": (g("iron"), [anyr(3), g("coin", 4), g("seal")], None),
    "R6": (g("iron"), [g("food"), g("iron", 2), g("pearl"), g("coin", 3), g("seal")], None),
    "R7": (g("food"), [anyr(1), g("coin", 2), g("seal", 2)], "vp_decree"),
    "R8": (g("food"), [g("food", 2), g("iron", 2), g("pearl"), g("coin", 4), g("seal")], None),
    "R9": (g("food"), [g("food", 4), g("iron", 2), g("coin", 3), g("seal", 2)], None),
}
DECREES = {"coin_decree": g("coin"), "seal_decree": g("seal"), "vp_decree": g("vp")}
START_ACTIONS = {
    "A1a": [L((0, 1, 2), C)],
    "A1b": [L((0, 1, 2), C)],
    "A2a": [L((0, 1, 2), W_)],
    "A2b": [L((0, 1, 2), W_)],
    "A3a": [L((0, 1, 2), G_)],
    "A3b": [L((0, 1, 2), G_)],
}
START_ACTION_LANTERN = pot(1)

# ---------------------------------------------------------------- castle cards (9.4, 9.5)
# id -> (diamond, blocks)
STEWARDS = {
    "S1": (True, [D([0], ps(C)), L([1], g("seal"), g("vp")), L([2], g("food"), LANT)]),
    "S2": (False, [D([0], ps(C)), L([1], pot(1)), L([2], g("iron", 2))]),
    "S3": (True, [D([0], ps(C)), L([1], LANT), L([2], g("vp", 2))]),
    "S4": (False, [D([0], ps(W_)), L([1], g("coin"), WELL), L([2], LANT)]),
    "S5": (False, [D([0], ps(W_)), L([1], g("food"), g("pearl")), L([2], g("iron"), LANT)]),
    "S6": (True, [L([0], g("iron"), LANT), D([1], ps(G_)), L([2], anyr(2))]),
    "S7": (False, [L([0], pot(1)), D([1], ps(G_)), L([2], g("food", 2))]),
    "S8": (True, [L([0], g("coin"), WELL), D([1], ps(G_)), L([2], pot(1))]),
    "S9": (False, [L([0], g("coin"), WELL), D([1], ps(C)), L([2], g("food", 2))]),
    "S10": (False, [L([0], g("seal"), anyr(1)), D([1], ps(C)), L([2], g("iron"), g("food"))]),
    "S11": (True, [L([0], anyr(2)), L([1], g("pearl"), LANT), D([2], ps(W_))]),
    "S12": (False, [L([0], g("pearl", 2)), L([1], g("seal"), g("vp")), D([2], ps(G_))]),
    "S13": (False, [L([0], g("iron", 2)), L([1], LANT), D([2], ps(G_))]),
    "S14": (True, [L([0], g("vp", 2)), L([1], g("seal"), anyr(1)), D([2], ps(W_))]),
    "S15": (False, [L([0], pot(1)), L([1], g("pearl", 2)), D([2], ps(W_))]),
}
STEWARD_LANTERN = g("coin")
DIPLOMATS = {
    "D1": (True, [D([0], C), L([1, 2], anyr(3))]),
    "D2": (False, [D([0], C), L([1, 2], pot(2))]),
    "D3": (False, [D([0], C), L([1, 2], g("vp", 2), WELL)]),
    "D4": (False, [D([0], C), L([1, 2], g("seal"), LANT)]),
    "D5": (False, [D([0], W_), L([1, 2], anyr(3))]),
    "D6": (False, [D([0], W_), L([1, 2], pot(2))]),
    "D7": (False, [L([0], pot(2)), D([1, 2], G_)]),
    "D8": (False, [L([0], g("vp", 2), WELL), D([1, 2], G_)]),
    "D9": (True, [L([0, 1], g("vp", 2), WELL), D([2], W_)]),
    "D10": (False, [L([0, 1], g("coin", 2), LANT), D([2], W_)]),
    "D11": (False, [L([0, 1], pot(1), LANT), D([2], G_)]),
    "D12": (True, [L([0, 1], anyr(3)), D([2], G_)]),
}
DIPLOMAT_LANTERN = g("vp")

# ---------------------------------------------------------------- Daimyo cards (9.6, ASSUMED)
DAIMYO = {
    "DY1": [[g("vp", 4)], [C], [pot(2)]],
    "DY2": [[W_], [anyr(3)], [g("vp", 2), g("seal")]],
    "DY3": [[G_], [g("coin", 5)], [WELL, g("vp")]],
    "DY4": [[pot(2), g("vp")], [DOM], [g("seal", 2), anyr(1)]],
    "DY5": [[C], [W_], [g("vp", 3)]],
    "DY6": [[G_], [LIGHT], [g("coin", 4), pot(1)]],
    "DY7": [[g("pearl", 3)], [g("iron", 3)], [g("food", 3)]],
    "DY8": [[LANT, g("vp")], [tile()], [pot(2)]],
    "DY9": [[g("vp", 5)], [C, g("coin")], [G_, g("coin")]],
}

# ---------------------------------------------------------------- gardens (9.7)
# id -> (food cost, end VP, effect)
PLANTS = {
    "P1": (5, 9, pc(4, tile())),
    "P2": (4, 7, pc(3, G_)),
    "P3": (4, 7, pc(3, C)),
    "P4": (4, 7, pc(3, W_)),
    "P5": (3, 5, pc(4, DOM)),
}
STONES = {
    "G1": (1, 1, anyr(2)),
    "G2": (1, 1, g("coin", 3)),
    "G3": (2, 3, g("seal", 2)),
    "G4": (2, 3, LIGHT),
    "G5": (3, 5, WELL),
}
GARDENS = {**PLANTS, **STONES}

# ---------------------------------------------------------------- yards (5.1, 9.8)
YARD_COST = (5, 3, 1)
YARD_VALUE = (2, 1, 1)
YARD_TILES = {
    "Y1": (C, g("pearl", 3)),
    "Y2": (W_, pot(2)),
    "Y3": (G_, g("food", 3)),
    "Y4": (tile(CORAL), WELL),
    "Y5": (tile(WHITE), g("seal", 2)),
    "Y6": (tile(BLACK), g("coin", 5)),
    "Y7": (tile(), LIGHT),
    "Y8": (DOM, g("vp", 2)),
}
# (yard, face) for the 4 drawn tiles in order: 0 = front, 1 = back
YARD_DEAL = ((0, 0), (0, 1), (1, 0), (2, 1))

# ---------------------------------------------------------------- die tiles (9.9)
DIE_TILES = {
    "C1": (CORAL, g("food")),
    "C2": (CORAL, g("iron")),
    "C3": (CORAL, g("pearl")),
    "C4": (CORAL, g("coin")),
    "C5": (CORAL, g("seal")),
    "K1": (BLACK, g("food")),
    "K2": (BLACK, g("iron")),
    "K3": (BLACK, g("pearl")),
    "K4": (BLACK, g("vp")),
    "K5": (BLACK, pot(1)),
    "W1": (WHITE, g("food")),
    "W2": (WHITE, g("iron")),
    "W3": (WHITE, g("pearl")),
    "W4": (WHITE, g("coin")),
    "W5": (WHITE, pot(1)),
}

# ---------------------------------------------------------------- board (4)
N_STEWARD, N_DIPLOMAT = 3, 2
ROOM_ROWS = (3, 3, 3, 2, 2)  # die tiles per room: Steward rooms 0-2, Diplomat rooms 3-4
ROOM_FLOOR = (1, 1, 1, 2, 2)
DIAMOND_ROW = 1  # the diamond tile space of each Steward room (ASSUMED: the middle row)
# numbered spaces 1-10 as (room, row)
NUMBERED_SPACES = ((0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2), (3, 0), (3, 1), (4, 0), (4, 1))
ROOM_VALUE = (3, 3, 3, 4, 4)
OUTSIDE_VALUE = 5
WELL_VALUE = 1
DOMAIN_VALUE = 6
SPACE_VALUE = (*ROOM_VALUE, OUTSIDE_VALUE, OUTSIDE_VALUE)
"""Value printed on each room (0-4) and Outside the Walls (5-6) space."""
# spaces: 0-4 rooms, 5 outside left, 6 outside right, 7 well, 8-10 domain rows
SPACE_NAMES = (
    "steward room 1",
    "steward room 2",
    "steward room 3",
    "diplomat room 1",
    "diplomat room 2",
    "outside the walls (gardener/courtier)",
    "outside the walls (warrior/courtier)",
    "the well",
    "domain courtier row (coral)",
    "domain gardener row (black)",
    "domain warrior row (white)",
)
OUTSIDE_CHOICES = ((G_, C), (W_, C))

# domain rows (9.11): icons uncovered in order as members leave
DOMAIN_ICONS = (
    (g("food"), g("food"), g("coin", 2), g("food"), g("seal")),
    (g("iron"), g("iron"), LANT, g("iron"), g("coin", 2)),
    (g("pearl"), g("pearl"), g("seal"), g("pearl"), LANT),
)
WORKERS = ("courtier", "gardener", "warrior")  # domain row index = worker index

# ---------------------------------------------------------------- tracks (7, 11)
POT_MAX = 20
CHECKPOINTS = {6: 1, 11: 2, 15: 3}
POT_VP = [0] * 6 + [3] * 5 + [6] * 4 + [10, 11, 12, 13, 14, 15]
COURTIER_VP = (1, 3, 6, 10)  # gate, floor 1, floor 2, floor 3
EXCHANGES = ("seal_to_coin", "seals_to_food", "seals_to_iron", "seals_to_pearl")
