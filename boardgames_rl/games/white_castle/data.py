"""The White Castle: data tables (data sheet ``/work/shared/games/white_castle.md``).

Effects are JSON-safe lists ``[kind, *arguments]`` whose kind is one of the :class:`EffectKind`
strings (kept as they are in saved states and read by the observation): ``gain``
``["g", key, n]`` (key in food/iron/pearl/coin/seal/vp), ``any_resources`` ``["any", n]`` n
resources of choice, ``time_steps`` ``["pot", n]`` Passage of Time steps, ``LANTERN``,
``WELL``, ``COURTIER``, ``GARDENER``, ``WARRIOR``, ``DOMAIN`` (personal domain action),
``any_tile(c)`` ``["tile", c]`` any die-tile action of colour c (-1 any) on the main board,
``LIGHT`` any light block on the main board, ``pay_seal(eff)`` pay 1 seal then eff,
``pay_coins(n, eff)`` pay n coins then eff.
The engine adds the kinds of its own frames (a die on the Well, a Domain row, a room's block, a
card's block, a choice, a pick among blocks, the courtier's second part, the Daimyo question).
A block is ``[rows, dark, effects]`` (rows 0 top/coral, 1 middle/black, 2 bottom/white), made by
``light_block`` or ``dark_block``.
"""

from __future__ import annotations

from typing import Any, Final

Effect = list[Any]
"""One effect: ``[kind, *arguments]``, JSON-safe (kept as it is in saved states)."""
Block = list[Any]
"""One block of a card: ``[rows, dark, effects]``."""


class EffectKind:
    """The kinds of effects (an effect's first item): the plain strings that effects, saved
    states and observations hold, written once here for the tables, the constructors below and
    the engine. Plain ``Final`` strings rather than enum members: the engine compares an
    effect's kind with them at every effect, and the compiled engine reads them as constants
    (an enum member's ``value`` costs a descriptor call at every read, in both builds)."""

    GAIN: Final = "g"
    ANY_RESOURCES: Final = "any"
    TIME_STEPS: Final = "pot"
    LANTERN: Final = "lantern"
    WELL: Final = "well"
    WELL_SPACE: Final = "wellspace"
    COURTIER: Final = "courtier"
    COURTIER_CONTINUED: Final = "courtier_cont"
    GARDENER: Final = "gardener"
    WARRIOR: Final = "warrior"
    DOMAIN: Final = "domain"
    DOMAIN_ROW: Final = "domrow"
    ANY_TILE: Final = "tile"
    LIGHT: Final = "light"
    PAY_SEAL: Final = "payseal"
    PAY_COINS: Final = "paycoin"
    ROOM_BLOCK: Final = "block"
    CARD_BLOCK: Final = "blockc"
    CHOICE: Final = "choice"
    PICK_OF: Final = "pickof"
    DAIMYO_QUESTION: Final = "daimyo_q"


CORAL: Final = 0
BLACK: Final = 1
WHITE: Final = 2
COLOURS: Final = ("coral", "black", "white")
RESOURCES: Final = ("food", "iron", "pearl")
RES_CAP: Final = 7
SEAL_CAP: Final = 5
ROUNDS: Final = 3


def gain(key: str, n: int = 1) -> Effect:
    """``+n key`` (food, iron, pearl, coin, seal or vp)."""
    return [EffectKind.GAIN, key, n]


COURTIER: Effect = [EffectKind.COURTIER]
WARRIOR: Effect = [EffectKind.WARRIOR]
GARDENER: Effect = [EffectKind.GARDENER]
LANTERN: Effect = [EffectKind.LANTERN]
WELL: Effect = [EffectKind.WELL]
DOMAIN: Effect = [EffectKind.DOMAIN]
LIGHT: Effect = [EffectKind.LIGHT]


def time_steps(n: int) -> Effect:
    """``n`` steps on the Passage of Time."""
    return [EffectKind.TIME_STEPS, n]


def any_resources(n: int) -> Effect:
    """``n`` resources of the player's choice."""
    return [EffectKind.ANY_RESOURCES, n]


def any_tile(colour: int = -1) -> Effect:
    """Any die-tile action of ``colour`` (-1: any colour) on the main board."""
    return [EffectKind.ANY_TILE, colour]


def pay_seal(effect: Effect) -> Effect:
    """Pay 1 seal, then ``effect``."""
    return [EffectKind.PAY_SEAL, effect]


def pay_coins(n: int, effect: Effect) -> Effect:
    """Pay ``n`` coins, then ``effect``."""
    return [EffectKind.PAY_COINS, n, effect]


def room_block(room: int, block: int) -> Effect:
    """The engine's effect of block ``block`` of the card in castle room ``room``."""
    return [EffectKind.ROOM_BLOCK, room, block]


def card_block(card: str, block: int) -> Effect:
    """The engine's effect of block ``block`` of ``card``."""
    return [EffectKind.CARD_BLOCK, card, block]


def domain_row(row: int) -> Effect:
    """The engine's effect of a die on the player's Domain row ``row``."""
    return [EffectKind.DOMAIN_ROW, row]


def well_space(value: int) -> Effect:
    """The engine's effect of a die of ``value`` placed on the Well."""
    return [EffectKind.WELL_SPACE, value]


def choice(*effects: Effect) -> Effect:
    """One of ``effects``, the player's pick."""
    return [EffectKind.CHOICE, *effects]


def pick_of(effects: list[Effect]) -> Effect:
    """One of ``effects`` (a list), the player's pick."""
    return [EffectKind.PICK_OF, effects]


def courtier_continued(audience: bool, climb: bool) -> Effect:
    """The rest of a courtier action (``audience`` / ``climb``: the parts already done)."""
    return [EffectKind.COURTIER_CONTINUED, audience, climb]


DAIMYO_QUESTION: Effect = [EffectKind.DAIMYO_QUESTION]
"""The engine's question of a free Daimyo position (a courtier reached floor 3)."""


def light_block(rows: tuple[int, ...] | list[int], *effects: Effect) -> Block:
    """A light-background block beside ``rows``."""
    return [list(rows), False, list(effects)]


def dark_block(rows: tuple[int, ...] | list[int], *effects: Effect) -> Block:
    """A dark-background block (not for "any light action") beside ``rows``."""
    return [list(rows), True, list(effects)]


# ---------------------------------------------------------------- starting cards (9.1-9.3)
# id -> (lantern effect, setup gains, decree id or None)
START_RESOURCES: Final = {
    "R1": (
        gain("pearl"),
        [gain("food", 2), gain("iron"), gain("coin", 2), gain("seal")],
        "coin_decree",
    ),
    "R2": (gain("pearl"), [any_resources(2), gain("coin", 4), gain("seal", 2)], None),
    "R3": (gain("pearl"), [gain("iron", 2), gain("pearl"), gain("coin", 5), gain("seal")], None),
    "R4": (gain("iron"), [gain("pearl", 2), gain("iron"), gain("coin", 4)], "seal_decree"),
    "R5": (gain("iron"), [any_resources(3), gain("coin", 4), gain("seal")], None),
    "R6": (
        gain("iron"),
        [gain("food"), gain("iron", 2), gain("pearl"), gain("coin", 3), gain("seal")],
        None,
    ),
    "R7": (gain("food"), [any_resources(1), gain("coin", 2), gain("seal", 2)], "vp_decree"),
    "R8": (
        gain("food"),
        [gain("food", 2), gain("iron", 2), gain("pearl"), gain("coin", 4), gain("seal")],
        None,
    ),
    "R9": (
        gain("food"),
        [gain("food", 4), gain("iron", 2), gain("coin", 3), gain("seal", 2)],
        None,
    ),
}
DECREES: Final = {"coin_decree": gain("coin"), "seal_decree": gain("seal"), "vp_decree": gain("vp")}
START_ACTIONS: Final = {
    "A1a": [light_block((0, 1, 2), COURTIER)],
    "A1b": [light_block((0, 1, 2), COURTIER)],
    "A2a": [light_block((0, 1, 2), WARRIOR)],
    "A2b": [light_block((0, 1, 2), WARRIOR)],
    "A3a": [light_block((0, 1, 2), GARDENER)],
    "A3b": [light_block((0, 1, 2), GARDENER)],
}
START_ACTION_LANTERN: Final = time_steps(1)

# ---------------------------------------------------------------- castle cards (9.4, 9.5)
# id -> (diamond, blocks)
STEWARDS: Final = {
    "S1": (
        True,
        [
            dark_block([0], pay_seal(COURTIER)),
            light_block([1], gain("seal"), gain("vp")),
            light_block([2], gain("food"), LANTERN),
        ],
    ),
    "S2": (
        False,
        [
            dark_block([0], pay_seal(COURTIER)),
            light_block([1], time_steps(1)),
            light_block([2], gain("iron", 2)),
        ],
    ),
    "S3": (
        True,
        [
            dark_block([0], pay_seal(COURTIER)),
            light_block([1], LANTERN),
            light_block([2], gain("vp", 2)),
        ],
    ),
    "S4": (
        False,
        [
            dark_block([0], pay_seal(WARRIOR)),
            light_block([1], gain("coin"), WELL),
            light_block([2], LANTERN),
        ],
    ),
    "S5": (
        False,
        [
            dark_block([0], pay_seal(WARRIOR)),
            light_block([1], gain("food"), gain("pearl")),
            light_block([2], gain("iron"), LANTERN),
        ],
    ),
    "S6": (
        True,
        [
            light_block([0], gain("iron"), LANTERN),
            dark_block([1], pay_seal(GARDENER)),
            light_block([2], any_resources(2)),
        ],
    ),
    "S7": (
        False,
        [
            light_block([0], time_steps(1)),
            dark_block([1], pay_seal(GARDENER)),
            light_block([2], gain("food", 2)),
        ],
    ),
    "S8": (
        True,
        [
            light_block([0], gain("coin"), WELL),
            dark_block([1], pay_seal(GARDENER)),
            light_block([2], time_steps(1)),
        ],
    ),
    "S9": (
        False,
        [
            light_block([0], gain("coin"), WELL),
            dark_block([1], pay_seal(COURTIER)),
            light_block([2], gain("food", 2)),
        ],
    ),
    "S10": (
        False,
        [
            light_block([0], gain("seal"), any_resources(1)),
            dark_block([1], pay_seal(COURTIER)),
            light_block([2], gain("iron"), gain("food")),
        ],
    ),
    "S11": (
        True,
        [
            light_block([0], any_resources(2)),
            light_block([1], gain("pearl"), LANTERN),
            dark_block([2], pay_seal(WARRIOR)),
        ],
    ),
    "S12": (
        False,
        [
            light_block([0], gain("pearl", 2)),
            light_block([1], gain("seal"), gain("vp")),
            dark_block([2], pay_seal(GARDENER)),
        ],
    ),
    "S13": (
        False,
        [
            light_block([0], gain("iron", 2)),
            light_block([1], LANTERN),
            dark_block([2], pay_seal(GARDENER)),
        ],
    ),
    "S14": (
        True,
        [
            light_block([0], gain("vp", 2)),
            light_block([1], gain("seal"), any_resources(1)),
            dark_block([2], pay_seal(WARRIOR)),
        ],
    ),
    "S15": (
        False,
        [
            light_block([0], time_steps(1)),
            light_block([1], gain("pearl", 2)),
            dark_block([2], pay_seal(WARRIOR)),
        ],
    ),
}
STEWARD_LANTERN: Final = gain("coin")
DIPLOMATS: Final = {
    "D1": (True, [dark_block([0], COURTIER), light_block([1, 2], any_resources(3))]),
    "D2": (False, [dark_block([0], COURTIER), light_block([1, 2], time_steps(2))]),
    "D3": (False, [dark_block([0], COURTIER), light_block([1, 2], gain("vp", 2), WELL)]),
    "D4": (False, [dark_block([0], COURTIER), light_block([1, 2], gain("seal"), LANTERN)]),
    "D5": (False, [dark_block([0], WARRIOR), light_block([1, 2], any_resources(3))]),
    "D6": (False, [dark_block([0], WARRIOR), light_block([1, 2], time_steps(2))]),
    "D7": (False, [light_block([0], time_steps(2)), dark_block([1, 2], GARDENER)]),
    "D8": (False, [light_block([0], gain("vp", 2), WELL), dark_block([1, 2], GARDENER)]),
    "D9": (True, [light_block([0, 1], gain("vp", 2), WELL), dark_block([2], WARRIOR)]),
    "D10": (False, [light_block([0, 1], gain("coin", 2), LANTERN), dark_block([2], WARRIOR)]),
    "D11": (False, [light_block([0, 1], time_steps(1), LANTERN), dark_block([2], GARDENER)]),
    "D12": (True, [light_block([0, 1], any_resources(3)), dark_block([2], GARDENER)]),
}
DIPLOMAT_LANTERN: Final = gain("vp")

# ---------------------------------------------------------------- Daimyo cards (9.6, ASSUMED)
DAIMYO: Final = {
    "DY1": [[gain("vp", 4)], [COURTIER], [time_steps(2)]],
    "DY2": [[WARRIOR], [any_resources(3)], [gain("vp", 2), gain("seal")]],
    "DY3": [[GARDENER], [gain("coin", 5)], [WELL, gain("vp")]],
    "DY4": [[time_steps(2), gain("vp")], [DOMAIN], [gain("seal", 2), any_resources(1)]],
    "DY5": [[COURTIER], [WARRIOR], [gain("vp", 3)]],
    "DY6": [[GARDENER], [LIGHT], [gain("coin", 4), time_steps(1)]],
    "DY7": [[gain("pearl", 3)], [gain("iron", 3)], [gain("food", 3)]],
    "DY8": [[LANTERN, gain("vp")], [any_tile()], [time_steps(2)]],
    "DY9": [[gain("vp", 5)], [COURTIER, gain("coin")], [GARDENER, gain("coin")]],
}

# ---------------------------------------------------------------- gardens (9.7)
# id -> (food cost, end VP, effect)
PLANTS: Final = {
    "P1": (5, 9, pay_coins(4, any_tile())),
    "P2": (4, 7, pay_coins(3, GARDENER)),
    "P3": (4, 7, pay_coins(3, COURTIER)),
    "P4": (4, 7, pay_coins(3, WARRIOR)),
    "P5": (3, 5, pay_coins(4, DOMAIN)),
}
STONES: Final = {
    "G1": (1, 1, any_resources(2)),
    "G2": (1, 1, gain("coin", 3)),
    "G3": (2, 3, gain("seal", 2)),
    "G4": (2, 3, LIGHT),
    "G5": (3, 5, WELL),
}
GARDENS: Final = {**PLANTS, **STONES}

# ---------------------------------------------------------------- yards (5.1, 9.8)
YARD_COST: Final = (5, 3, 1)
YARD_VALUE: Final = (2, 1, 1)
YARD_TILES: Final = {
    "Y1": (COURTIER, gain("pearl", 3)),
    "Y2": (WARRIOR, time_steps(2)),
    "Y3": (GARDENER, gain("food", 3)),
    "Y4": (any_tile(CORAL), WELL),
    "Y5": (any_tile(WHITE), gain("seal", 2)),
    "Y6": (any_tile(BLACK), gain("coin", 5)),
    "Y7": (any_tile(), LIGHT),
    "Y8": (DOMAIN, gain("vp", 2)),
}
# (yard, face) for the 4 drawn tiles in order: 0 = front, 1 = back
YARD_DEAL: Final = ((0, 0), (0, 1), (1, 0), (2, 1))

# ---------------------------------------------------------------- die tiles (9.9)
DIE_TILES: Final = {
    "C1": (CORAL, gain("food")),
    "C2": (CORAL, gain("iron")),
    "C3": (CORAL, gain("pearl")),
    "C4": (CORAL, gain("coin")),
    "C5": (CORAL, gain("seal")),
    "K1": (BLACK, gain("food")),
    "K2": (BLACK, gain("iron")),
    "K3": (BLACK, gain("pearl")),
    "K4": (BLACK, gain("vp")),
    "K5": (BLACK, time_steps(1)),
    "W1": (WHITE, gain("food")),
    "W2": (WHITE, gain("iron")),
    "W3": (WHITE, gain("pearl")),
    "W4": (WHITE, gain("coin")),
    "W5": (WHITE, time_steps(1)),
}

# ---------------------------------------------------------------- board (4)
N_STEWARD: Final = 3
N_DIPLOMAT: Final = 2
ROOM_ROWS: Final = (3, 3, 3, 2, 2)  # die tiles per room: Steward rooms 0-2, Diplomat rooms 3-4
ROOM_FLOOR: Final = (1, 1, 1, 2, 2)
DIAMOND_ROW: Final = 1  # the diamond tile space of each Steward room (ASSUMED: the middle row)
# numbered spaces 1-10 as (room, row)
NUMBERED_SPACES: Final = (
    (0, 0),
    (0, 2),
    (1, 0),
    (1, 2),
    (2, 0),
    (2, 2),
    (3, 0),
    (3, 1),
    (4, 0),
    (4, 1),
)
ROOM_VALUE: Final = (3, 3, 3, 4, 4)
OUTSIDE_VALUE: Final = 5
WELL_VALUE: Final = 1
DOMAIN_VALUE: Final = 6
SPACE_VALUE: Final = (*ROOM_VALUE, OUTSIDE_VALUE, OUTSIDE_VALUE)
"""Value printed on each room (0-4) and Outside the Walls (5-6) space."""
# spaces: 0-4 rooms, 5 outside left, 6 outside right, 7 well, 8-10 domain rows
SPACE_NAMES: Final = (
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
OUTSIDE_CHOICES: Final = ((GARDENER, COURTIER), (WARRIOR, COURTIER))

# domain rows (9.11): icons uncovered in order as members leave
DOMAIN_ICONS: Final = (
    (gain("food"), gain("food"), gain("coin", 2), gain("food"), gain("seal")),
    (gain("iron"), gain("iron"), LANTERN, gain("iron"), gain("coin", 2)),
    (gain("pearl"), gain("pearl"), gain("seal"), gain("pearl"), LANTERN),
)
WORKERS: Final = ("courtier", "gardener", "warrior")  # domain row index = worker index

# ---------------------------------------------------------------- tracks (7, 11)
POT_MAX: Final = 20
CHECKPOINTS: Final = {6: 1, 11: 2, 15: 3}
POT_VP: Final = [0] * 6 + [3] * 5 + [6] * 4 + [10, 11, 12, 13, 14, 15]
COURTIER_VP: Final = (1, 3, 6, 10)  # gate, floor 1, floor 2, floor 3
EXCHANGES: Final = ("seal_to_coin", "seals_to_food", "seals_to_iron", "seals_to_pearl")
