"""Castle Nightingale action cards, equipment tokens and nightingale tiles as plain tables.

Source: component data sheet ``shared/games/castle_nightingale.md`` sections 3-6 (ASSUMED content:
the rulebook's help pages are not public). Effects are implemented in ``state.py``.
"""

from __future__ import annotations

from typing import NamedTuple


class CardInfo(NamedTuple):
    name: str
    move: int
    draws_equipment: bool
    text: str


NINJA_CARDS: tuple[CardInfo, ...] = (
    CardInfo("Sprint", 5, False, "the samurai may secretly exchange one programmed tile"),
    CardInfo("Rooftop Leap", 4, False, "this turn's jump costs no equipment token"),
    CardInfo("Pick the Lock", 4, False, "remove 1 closed trap door the samurai does not stand on"),
    CardInfo(
        "Thrown Pebble", 3, False, "move the samurai to a free square of an adjacent colour zone"
    ),
    CardInfo("Vanish", 3, False, "may start from any open passage this turn"),
    CardInfo("Scout", 3, True, "look at 1 vase on the board, then draw 1 equipment"),
    CardInfo("False Trail", 2, False, "2 decoy discs if the movement ends hidden"),
    CardInfo("Listen at the Floor", 2, False, "ask whether 2 colours are programmed"),
    CardInfo("Supply Cache", 2, True, "draw 1 equipment"),
    CardInfo("Meditate", 1, True, "look at the top 2 equipment tokens, keep 1"),
)
(
    SPRINT,
    ROOFTOP_LEAP,
    PICK_THE_LOCK,
    THROWN_PEBBLE,
    VANISH,
    SCOUT,
    FALSE_TRAIL,
    LISTEN,
    SUPPLY_CACHE,
    MEDITATE,
) = range(10)

SAMURAI_CARDS: tuple[CardInfo, ...] = (
    CardInfo("Forced March", 4, False, "no action"),
    CardInfo("Patrol", 3, True, "draw 1 equipment"),
    CardInfo("Track the Trail", 3, False, "remove 1 footprint disc (last-disc rule)"),
    CardInfo("Bar the Hatch", 2, False, "close 1 open passage on your floor board"),
    CardInfo("Lantern Sweep", 2, False, "remove the discs in your zone and adjacent zones"),
    CardInfo("Silent Night", 2, False, "next turn has no face-up tile"),
    CardInfo("Inspect the Vases", 2, False, "look at 1 vase in or next to your zone, may move it"),
    CardInfo("Twin Nightingales", 1, False, "programme 2 tiles next turn"),
    CardInfo("Muster the Guard", 1, True, "look at the top 2 equipment tokens, keep 1"),
    CardInfo(
        "Watchtower", 1, True, "draw 1 equipment; see the ninja's hand at the end of the turn"
    ),
)
(
    FORCED_MARCH,
    PATROL,
    TRACK_THE_TRAIL,
    BAR_THE_HATCH,
    LANTERN_SWEEP,
    SILENT_NIGHT,
    INSPECT_THE_VASES,
    TWIN_NIGHTINGALES,
    MUSTER_THE_GUARD,
    WATCHTOWER,
) = range(10)

NINJA_TOKENS: tuple[str, ...] = (
    "Soft Tabi",
    "Kawarimi",
    "Lockpick",
    "Shuko",
    "Blowgun",
    "Listening Tube",
    "Rice-Paper Map",
)
SOFT_TABI, KAWARIMI, LOCKPICK, SHUKO, BLOWGUN, LISTENING_TUBE, RICE_PAPER_MAP = range(7)

SAMURAI_TOKENS: tuple[str, ...] = (
    "Alarm Bell",
    "Iron Bar",
    "Paper Lantern",
    "Straw Sandals",
    "Hound",
    "Watch Fire",
    "Inventory Ledger",
)
ALARM_BELL, IRON_BAR, PAPER_LANTERN, STRAW_SANDALS, HOUND, WATCH_FIRE, INVENTORY_LEDGER = range(7)

NINJA, SAMURAI = 0, 1
"""Seats: player 0 plays the ninjas, player 1 the samurai."""
HAND, PROGRAMMED, FACE_UP = 0, 1, 2
"""``tile_loc`` values: a nightingale tile in the samurai's hand, programmed this turn, face up
(last turn's, safe now)."""
STOLEN, BANKED = -1, -2
"""``vase_where`` values besides a square: taken this turn (kept apart) / banked."""

NUM_VASES = 8
NUM_RELICS = 6
RELICS_TO_WIN = 5
NINJAS = 3
HAND_SIZE = 3
NUM_DISCS = 5
NUM_TRAPDOORS = 8
SETUP_TRAPDOORS = 2
