"""The flat action space of Castle Nightingale and its readable names.

Every decision is one small choice among these ids; what a square or a zone means depends on the
decision being made (``State.action_name`` names it in context, ``Game.action_name`` generically).
"""

from __future__ import annotations

from typing import Final

from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import (
    COLOURS,
    NINJA_CARDS,
    NINJA_TOKENS,
    SAMURAI_CARDS,
    SAMURAI_TOKENS,
)

MAX_ZONES: Final = 32

SQUARE: Final = 0
ZONE: Final = SQUARE + NUM_SQUARES
NINJA_CARD: Final = ZONE + MAX_ZONES
SAMURAI_CARD: Final = NINJA_CARD + len(NINJA_CARDS)
TILE: Final = SAMURAI_CARD + len(SAMURAI_CARDS)
NINJA_TOKEN: Final = TILE + len(COLOURS)
SAMURAI_TOKEN: Final = NINJA_TOKEN + len(NINJA_TOKENS)
PASS: Final = SAMURAI_TOKEN + len(SAMURAI_TOKENS)
JUMP: Final = PASS + 1
ADJUST_PLUS: Final = JUMP + 1
ADJUST_MINUS: Final = ADJUST_PLUS + 1
REVEAL: Final = ADJUST_MINUS + 1
CLEAR: Final = REVEAL + 1
PLUS_TWO: Final = CLEAR + 1
NUM_ACTIONS: Final = PLUS_TWO + 1

SPECIAL_NAMES: Final = {
    PASS: "pass",
    JUMP: "jump",
    ADJUST_PLUS: "adjust +1",
    ADJUST_MINUS: "adjust -1",
    REVEAL: "lantern: reveal",
    CLEAR: "lantern: clear",
    PLUS_TWO: "+2 entries",
}


def generic_name(action: int, labels: tuple[str, ...]) -> str:
    """State-independent name of an action id."""
    if action < ZONE:
        return f"square {labels[action]}"
    if action < NINJA_CARD:
        return f"zone #{action - ZONE}"
    if action < SAMURAI_CARD:
        return f"ninja card {NINJA_CARDS[action - NINJA_CARD].name}"
    if action < TILE:
        return f"samurai card {SAMURAI_CARDS[action - SAMURAI_CARD].name}"
    if action < NINJA_TOKEN:
        return f"tile {COLOURS[action - TILE]}"
    if action < SAMURAI_TOKEN:
        return f"ninja token {NINJA_TOKENS[action - NINJA_TOKEN]}"
    if action < PASS:
        return f"samurai token {SAMURAI_TOKENS[action - SAMURAI_TOKEN]}"
    return SPECIAL_NAMES[action]
