"""Castle Flutterstone component data as plain tables (no rules logic here).

Sources: the rulebook (../shared/rulebooks/castle_flutterstone.txt) and the component data sheet
(../shared/games/castle_flutterstone.md). Everything marked ASSUMED there is a default that the
game configuration may change.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

# --------------------------------------------------------------------------- track (data sheet 5.2)
GOAL: Final = 22
"""Index of the last step (the 10th step). Reaching it wins.
Index 0 is each colour's start field."""

BRIDGES: Final[tuple[int, ...]] = (5, 10)
"""Rotten bridge fields: they count as fields but no figure may stop on them."""

COURTYARD_FIELDS: Final = range(1, 13)
STEP_FIELDS: Final = range(13, GOAL + 1)
"""Fields 13..22 are the 10 steps of the castle (count sourced from the rulebook)."""


# ------------------------------------------------------------------------ ghost cards (sheet 6.2)
class Card(IntEnum):
    """The six ghost-card kinds. 0-2 are helpful (green), 3-5 pesky (red, variant only)."""

    SECOND_GO = 0
    MOVE_FORWARD = 1
    GHOST_JUMP = 2
    EYES_CLOSED = 3
    CHANGE_HANDS = 4
    PESKY_GHOST = 5


HELPFUL: Final[tuple[Card, ...]] = (Card.SECOND_GO, Card.MOVE_FORWARD, Card.GHOST_JUMP)
PESKY: Final[tuple[Card, ...]] = (Card.EYES_CLOSED, Card.CHANGE_HANDS, Card.PESKY_GHOST)

CARD_NAMES: Final[dict[Card, str]] = {
    Card.SECOND_GO: "Second go",
    Card.MOVE_FORWARD: "Moving forward",
    Card.GHOST_JUMP: "Ghost jump",
    Card.EYES_CLOSED: "Eyes closed",
    Card.CHANGE_HANDS: "Change hands",
    Card.PESKY_GHOST: "Pesky ghost",
}

DECK_COUNTS: Final[dict[Card, int]] = {
    Card.SECOND_GO: 5,
    Card.MOVE_FORWARD: 5,
    Card.GHOST_JUMP: 4,
    Card.EYES_CLOSED: 5,
    Card.CHANGE_HANDS: 5,
    Card.PESKY_GHOST: 4,
}
"""Copies per kind: 14 helpful + 14 pesky (the 14/14 split is sourced, the per-kind counts
assumed)."""

MAX_HELPFUL_HELD: Final = 3
"""A player may never have more than three helpful ghosts in front of them (rulebook)."""

WINDOW_BANDS: Final = 3
"""Window bands the pesky ghost figure can block (data sheet 7.1)."""

# --------------------------------------------------------------------------- shot results (sheet 4)
MOVE_POINTS: Final[dict[str, int]] = {
    "miss": 0,
    "courtyard": 1,
    "moat": 0,
    "castle": 2,
    "window": 3,
}
"""Fields a landing zone lets the figure move (up to). A bat stuck on the ghost counts as castle."""

MAX_MOVE_POINTS: Final = 3


# ------------------------------------------------------------------------- decision phases
# Phase ids as the state stores them (plain ints); ``Final``, so the compiled engine reads them as
# constants, not as module attributes.
PLACE_GHOST: Final = 0
PLAY_CARDS: Final = 1
FLICK: Final = 2
MOVE: Final = 3
DRAW: Final = 4
DISCARD: Final = 5
GIVE: Final = 6
OVER: Final = 7


class Phase(IntEnum):
    """The decision kinds, in the order of the observation's one-hot, then ``OVER`` once the
    game has ended. The state stores them as plain ints (the constants above: its fields marshal
    and dump as JSON); ``Phase(state.phase)`` names one."""

    PLACE_GHOST = PLACE_GHOST
    PLAY_CARDS = PLAY_CARDS
    FLICK = FLICK
    MOVE = MOVE
    DRAW = DRAW
    DISCARD = DISCARD
    GIVE = GIVE
    OVER = OVER


PHASES: Final[tuple[str, ...]] = tuple(phase.name.lower() for phase in Phase if phase != Phase.OVER)
"""Decision phases (``place_ghost`` .. ``give``); the observation one-hot follows this order:
``PHASES[k]`` names phase ``k``."""

PHASE_NAMES: Final[tuple[str, ...]] = (*PHASES, "over")
