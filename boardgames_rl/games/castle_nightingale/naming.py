"""Readable names of Castle Nightingale actions in the context of the pending decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale.board_data import COLOURS
from boardgames_rl.games.castle_nightingale.cards import (
    NINJA_CARDS,
    NINJA_TOKENS,
    SAMURAI_CARDS,
    SAMURAI_TOKENS,
)

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import NightingaleState

_SQUARE_VERBS = {
    "setup_close": "close trap door on {}",
    "setup_start": "samurai starts on {}",
    "pick_lock": "pick the lock on {}",
    "lockpick": "Lockpick on {}",
    "pebble": "throw pebble: samurai to {}",
    "scout": "scout vase on {}",
    "map_vase": "Rice-Paper Map: look at vase on {}",
    "start": "ninja starts on {}",
    "place": "disc -> {}",
    "jump_land": "jump -> {}",
    "decoy": "decoy disc -> {}",
    "lantern_disc": "ninja appears on {}",
    "final_square": "samurai square {}",
    "vase_move": "move the vase to {}",
    "inspect_move": "move the inspected vase to {}",
    "confiscate": "confiscated vase -> {}",
    "reopen": "reopen passage {}",
    "reopen_extra": "reopen passage {}",
    "iron_bar": "Iron Bar closes {}",
    "hound": "Hound removes the disc on {}",
    "track": "remove the disc on {}",
    "bar": "bar the hatch on {}",
    "sweep_keep": "keep the disc on {}",
    "inspect": "inspect vase on {}",
    "ledger": "Ledger: look at vase on {}",
}


def contextual_name(s: NightingaleState, action: int) -> str:
    labels = s.board.labels
    kind = s.decision["kind"] if s.decision else ""
    if action < A.ZONE:
        verb = _SQUARE_VERBS.get(kind, "square {}")
        return verb.format(labels[action])
    if action < A.NINJA_CARD:
        z = action - A.ZONE
        name = s.board.zone_names[z] if z < s.board.num_zones else f"zone #{z}"
        return f"name zone {name}" if kind == "lantern_zone" else f"samurai enters zone {name}"
    if action < A.SAMURAI_CARD:
        return f"play card {NINJA_CARDS[action - A.NINJA_CARD].name}"
    if action < A.TILE:
        return f"programme card {SAMURAI_CARDS[action - A.SAMURAI_CARD].name}"
    if action < A.NINJA_TOKEN:
        colour = COLOURS[action - A.TILE]
        return {
            "prog_s_tile": f"programme nightingale tile {colour}",
            "listen": f"listen: is {colour} programmed?",
            "bell_out": f"Alarm Bell: take back {colour}",
            "sprint_out": f"Sprint: take back {colour}",
            "bell_in": f"Alarm Bell: programme {colour} instead",
            "sprint_in": f"Sprint: programme {colour} instead",
        }.get(kind, f"tile {colour}")
    if action < A.SAMURAI_TOKEN:
        token = NINJA_TOKENS[action - A.NINJA_TOKEN]
        if kind == "jump_token":
            return f"discard {token} to jump"
        if kind == "meditate":
            return f"keep {token}"
        return f"use {token}"
    if action < A.PASS:
        token = SAMURAI_TOKENS[action - A.SAMURAI_TOKEN]
        if kind == "adjust_token":
            return f"discard {token} to adjust"
        if kind == "muster":
            return f"keep {token}"
        return f"use {token}"
    if action == A.PASS:
        return {
            "entry_end": "end the movement",
            "sprint_out": "keep the tiles",
            "sprint_in": "keep the tiles",
            "inspect_move": "leave the vase",
            "place": "stop: the unplaced discs go back",
        }.get(kind, "pass")
    if action == A.ADJUST_PLUS and kind == "sandals":
        return "+1 entry"
    return A.SPECIAL_NAMES[action]
