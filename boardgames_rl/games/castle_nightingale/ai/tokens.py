"""What each equipment token is worth to its owner (the heuristic's weights, in relics)."""

from __future__ import annotations

from boardgames_rl.games.castle_nightingale import data as C

NINJA_TOKEN_VALUE = {
    C.KAWARIMI: 1.6,
    C.SOFT_TABI: 1.4,
    C.LISTENING_TUBE: 1.0,
    C.LOCKPICK: 0.9,
    C.BLOWGUN: 0.8,
    C.RICE_PAPER_MAP: 0.6,
    C.SHUKO: 0.5,
}
SAMURAI_TOKEN_VALUE = {
    C.PAPER_LANTERN: 1.6,
    C.IRON_BAR: 1.5,
    C.ALARM_BELL: 1.1,
    C.STRAW_SANDALS: 1.0,
    C.HOUND: 0.9,
    C.WATCH_FIRE: 0.8,
    C.INVENTORY_LEDGER: 0.5,
}
