"""Castle Nightingale component tables: action cards, equipment tokens, seats and counts, and
the eight floor-board sides. Plain tables and kind enums only: the board geometry is in
``board.py``, the card and token effects in ``state.py``.

Source: the component data sheet that accompanies the rulebook (the card and token texts and the
board diagrams are ASSUMED content: the rulebook's help pages and the real diagrams are not
public). ``docs/rules/castle_nightingale.md`` says in our own words what each entry does.

Board sides: each is three strings, rows r0 (outer wall), r1, r2 (facing inwards), each holding
the eight cells c0..c7 as printed on the sheet: two characters per cell (colour letter, then the
square type) separated by single spaces. Square types: ``.`` plain floor, ``S`` secret passage
(a trap door), ``V`` vase icon.
"""

from __future__ import annotations

from typing import Final, NamedTuple


# ============================================================ action cards, equipment, counts
class CardInfo(NamedTuple):
    name: str
    move: int
    draws_equipment: bool
    text: str


NINJA_CARDS: Final[tuple[CardInfo, ...]] = (
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

SAMURAI_CARDS: Final[tuple[CardInfo, ...]] = (
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

NINJA_TOKENS: Final[tuple[str, ...]] = (
    "Soft Tabi",
    "Kawarimi",
    "Lockpick",
    "Shuko",
    "Blowgun",
    "Listening Tube",
    "Rice-Paper Map",
)
SOFT_TABI, KAWARIMI, LOCKPICK, SHUKO, BLOWGUN, LISTENING_TUBE, RICE_PAPER_MAP = range(7)
NINJA_TOKEN_TEXT: Final[tuple[str, ...]] = (
    "when the floor sings (or a Watch Fire burns), cancel that detection; the movement goes on",
    "cancel a capture by zone entry (not by lockdown); the discs and this turn's vases still go",
    "between placements: remove 1 closed trap door the samurai does not stand on",
    "the next footprint disc may go diagonally",
    "before the samurai moves: his movement is 1 zone shorter (never below 1)",
    "before choosing your card: look at the samurai's programmed tile(s)",
    "look into 2 vases on the board",
)
"""What each ninja token does when used openly (same order as NINJA_TOKENS)."""

SAMURAI_TOKENS: Final[tuple[str, ...]] = (
    "Alarm Bell",
    "Iron Bar",
    "Paper Lantern",
    "Straw Sandals",
    "Hound",
    "Watch Fire",
    "Inventory Ledger",
)
ALARM_BELL, IRON_BAR, PAPER_LANTERN, STRAW_SANDALS, HOUND, WATCH_FIRE, INVENTORY_LEDGER = range(7)
SAMURAI_TOKEN_TEXT: Final[tuple[str, ...]] = (
    "after the ninja's card is shown: exchange a programmed tile for one from your hand",
    "in your action step: close any open trap door (this can cause a lockdown)",
    "after a hidden ninja's movement: name a zone with a disc; he shows himself there or its "
    "discs go",
    "+1 or +2 zone entries this turn",
    "in your action step: remove up to 2 footprint discs",
    "in your action step: mark your zone; next turn the first disc placed there gives the ninja "
    "away",
    "look into 2 vases on the board",
)
"""What each samurai token does when used openly (same order as SAMURAI_TOKENS). Any token may
instead be discarded face down: the ninja jumps, the samurai adjusts his movement by 1."""

NINJA: Final = 0
SAMURAI: Final = 1
"""Seats: player 0 plays the ninjas, player 1 the samurai."""
HAND: Final = 0
PROGRAMMED: Final = 1
FACE_UP: Final = 2
"""``tile_loc`` values: a nightingale tile in the samurai's hand, programmed this turn, face up
(last turn's, safe now)."""
STOLEN: Final = -1
BANKED: Final = -2
"""``vase_where`` values besides a square: taken this turn (kept apart) / banked."""

NUM_VASES: Final = 8
NUM_RELICS: Final = 6
RELICS_TO_WIN: Final = 5
NINJAS: Final = 3
HAND_SIZE: Final = 3
NUM_DISCS: Final = 5
NUM_TRAPDOORS: Final = 8
SETUP_TRAPDOORS: Final = 2


# ============================================================ floor boards
COLOURS: Final[tuple[str, ...]] = ("red", "blue", "green", "yellow", "purple", "white")
"""The six floor colours; the index is the nightingale tile id."""

COLOUR_LETTERS: Final[tuple[str, ...]] = ("R", "B", "G", "Y", "P", "W")
"""One letter per colour, same order as COLOURS."""

BOARD_NAMES: Final[tuple[str, ...]] = ("I", "II", "III", "IV")
"""The four floor boards; the index is the board id."""

POSITIONS: Final[tuple[str, ...]] = ("N", "E", "S", "W")
"""The four floor-board positions around the garden, clockwise; the index is the position id."""

SIDES: Final[tuple[str, ...]] = ("A", "B")
"""Side A: light wood (first game, vases on the outer border). Side B: dark wood."""

PLAIN: Final = "."
PASSAGE: Final = "S"
VASE: Final = "V"
SQUARE_TYPES: Final[tuple[str, ...]] = (PLAIN, PASSAGE, VASE)

BOARD_ROWS: Final = 3
BOARD_COLS: Final = 8

GRID_SIZE: Final = 11
"""The castle is an 11 x 11 grid; columns A..K (x = 0..10), rows 1..11 (y = 0..10)."""

GARDEN_MIN: Final = 3
GARDEN_MAX: Final = 7
"""The garden covers x and y in GARDEN_MIN..GARDEN_MAX inclusive, i.e. D4-H8."""

BOARD_SIDES: Final[dict[tuple[str, str], tuple[str, str, str]]] = {
    # Board I, side A  (no red: B5 G5 P4 W4 Y6)
    ("I", "A"): (
        "B. B. W. WV W. G. GV Y.",
        "B. P. P. W. G. G. Y. Y.",
        "B. BS P. P. G. Y. Y. YS",
    ),
    # Board I, side B  (no purple: B5 G4 R5 W6 Y4)
    ("I", "B"): (
        "Y. Y. R. R. W. W. W. B.",
        "Y. YS R. R. G. GV B. B.",
        "W. W. WV R. GS G. B. B.",
    ),
    # Board II, side A (no blue: G6 P4 R5 W4 Y5)
    ("II", "A"): (
        "P. PV G. G. G. YV Y. Y.",
        "P. R. R. G. G. Y. WS W.",
        "P. R. R. RS G. Y. W. W.",
    ),
    # Board II, side B (no white: B6 G4 P5 R5 Y4)
    ("II", "B"): (
        "B. B. B. P. R. R. G. G.",
        "Y. Y. PV P. R. R. GV G.",
        "Y. YS P. P. R. B. B. BS",
    ),
    # Board III, side A (no green: B5 P4 R6 W4 Y5)
    ("III", "A"): (
        "R. R. RV B. B. W. WV Y.",
        "R. PS R. B. B. W. Y. Y.",
        "R. P. P. P. B. WS Y. Y.",
    ),
    # Board III, side B (no red: B5 G4 P6 W5 Y4)
    ("III", "B"): (
        "W. WS Y. Y. P. P. P. B.",
        "W. W. Y. Y. G. G. B. BV",
        "W. P. PV P. G. G. BS B.",
    ),
    # Board IV, side A (no yellow: B6 G5 P4 R5 W4)
    ("IV", "A"): (
        "G. GV B. B. BS R. RV W.",
        "G. P. P. B. B. R. W. W.",
        "G. G. P. P. B. R. RS W.",
    ),
    # Board IV, side B (no blue: G4 P5 R6 W5 Y4)
    ("IV", "B"): (
        "W. R. R. R. P. R. R. RS",
        "W. W. Y. Y. PV P. G. G.",
        "W. W. YS Y. P. P. G. GV",
    ),
}
