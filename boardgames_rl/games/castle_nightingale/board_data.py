"""Castle Nightingale board data as plain tables (no geometry code, no rules logic here).

Source: the component data sheet ../shared/games/castle_nightingale.md, section 2.6 (ASSUMED
content: the real board diagrams are not public). Change these tables only together with the sheet.

Each board side is three strings, rows r0 (outer wall), r1, r2 (facing inwards), each holding the
eight cells c0..c7 exactly as printed in the sheet: two characters per cell (colour letter, then
the square type) separated by single spaces. Square types: ``.`` plain floor, ``S`` secret passage,
``V`` vase icon.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "white")
"""The six floor colours; the index is the nightingale tile id."""

COLOUR_LETTERS: tuple[str, ...] = ("R", "B", "G", "Y", "P", "W")
"""One letter per colour, same order as COLOURS."""

BOARD_NAMES: tuple[str, ...] = ("I", "II", "III", "IV")
"""The four floor boards; the index is the board id."""

POSITIONS: tuple[str, ...] = ("N", "E", "S", "W")
"""The four floor-board positions around the garden, clockwise; the index is the position id."""

SIDES: tuple[str, ...] = ("A", "B")
"""Side A: light wood (first game, vases on the outer border). Side B: dark wood."""

PLAIN = "."
PASSAGE = "S"
VASE = "V"
SQUARE_TYPES: tuple[str, ...] = (PLAIN, PASSAGE, VASE)

BOARD_ROWS = 3
BOARD_COLS = 8

GRID_SIZE = 11
"""The castle is an 11 x 11 grid; columns A..K (x = 0..10), rows 1..11 (y = 0..10)."""

GARDEN_MIN = 3
GARDEN_MAX = 7
"""The garden covers x and y in GARDEN_MIN..GARDEN_MAX inclusive, i.e. D4-H8."""

BOARD_SIDES: dict[tuple[str, str], tuple[str, str, str]] = {
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
