"""Legal actions of every Castle Nightingale decision (the action mask)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import cards as C
from boardgames_rl.games.castle_nightingale.cards import FACE_UP

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import NightingaleState


def _squares(mask: np.ndarray, squares) -> None:
    for sq in squares:
        mask[A.SQUARE + sq] = True


def _ninja_tokens(mask: np.ndarray, tokens) -> None:
    for t in tokens:
        mask[A.NINJA_TOKEN + t] = True


def _samurai_tokens(mask: np.ndarray, tokens) -> None:
    for t in tokens:
        mask[A.SAMURAI_TOKEN + t] = True


def legal_mask(s: NightingaleState) -> np.ndarray:
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    d = s.decision
    if d is None:
        return mask
    kind = d["kind"]
    b = s.board
    f = s.flags
    if kind == "setup_close":
        _squares(mask, s.open_passages())
    elif kind == "setup_start":
        _squares(mask, [sq for sq in range(96) if not b.passage[sq] and sq not in s.vase_where])
    elif kind == "prog_s_card":
        for card in s.s_hand:
            mask[A.SAMURAI_CARD + card] = True
    elif kind == "prog_s_tile":
        for c in s.hand_tiles():
            mask[A.TILE + c] = True
    elif kind == "prog_n_card":
        for card in s.n_hand:
            mask[A.NINJA_CARD + card] = True
        if C.LISTENING_TUBE in s.n_equip:
            mask[A.NINJA_TOKEN + C.LISTENING_TUBE] = True
    elif kind == "w2":
        mask[A.PASS] = True
        if C.ALARM_BELL in s.s_equip and s.hand_tiles():
            mask[A.SAMURAI_TOKEN + C.ALARM_BELL] = True
    elif kind in ("bell_out", "sprint_out"):
        for c in s.programmed_tiles():
            mask[A.TILE + c] = True
        if kind == "sprint_out":
            mask[A.PASS] = True
    elif kind in ("bell_in", "sprint_in"):
        if kind == "sprint_in" and d["out"] < 0:
            mask[A.PASS] = True  # he kept his tiles: confirm
        else:
            for c in s.hand_tiles():
                mask[A.TILE + c] = True
    elif kind in ("pick_lock", "lockpick"):
        _squares(mask, [p for p in s.closed_passages() if p != s.samurai_sq])
    elif kind == "pebble":
        _squares(mask, s.pebble_targets())
    elif kind == "scout":
        _squares(mask, s.vases_on_board())
    elif kind == "map_vase":
        _squares(mask, s.map_targets())
    elif kind == "listen":
        asked = {c for c, _ in s.listen_answers}
        for c in range(6):
            if s.tile_loc[c] != FACE_UP and c not in asked:
                mask[A.TILE + c] = True
    elif kind == "meditate":
        _ninja_tokens(mask, s.peek)
    elif kind == "muster":
        _samurai_tokens(mask, s.peek)
    elif kind == "start":
        _squares(mask, s.start_options())
    elif kind == "place":
        opts = s.placements()
        _squares(mask, opts.free | opts.free_jumps)
        if opts.paid_jumps:
            mask[A.JUMP] = True
        if opts.may_stop:
            mask[A.PASS] = True
        usable = {  # W3 tokens, when they can do something
            C.LOCKPICK: any(p != s.samurai_sq for p in s.closed_passages()),
            C.SHUKO: not f["shuko"],
            C.RICE_PAPER_MAP: bool(s.map_targets()),
        }
        _ninja_tokens(mask, [t for t in s.n_equip if usable.get(t, False)])
    elif kind == "jump_token":
        _ninja_tokens(mask, s.n_equip)
    elif kind == "jump_land":
        opts = s.placements()
        land = opts.paid_jumps | opts.free_jumps
        if not land:  # the token paid was the Shuko the look-ahead counted on: any landing
            ctx = s.placement_context()
            land = {t for _o, t in b.jumps[ctx.current] if t not in ctx.visited}
            land.discard(s.samurai_sq)
        _squares(mask, land)
    elif kind == "w4":
        mask[A.PASS] = True
        if C.SOFT_TABI in s.n_equip:
            mask[A.NINJA_TOKEN + C.SOFT_TABI] = True
    elif kind == "w3_end":
        mask[A.PASS] = True
        _ninja_tokens(mask, s.w3_end_tokens())
    elif kind == "decoy":
        _squares(mask, s.decoy_targets())
    elif kind == "w5":
        mask[A.PASS] = True
        if C.PAPER_LANTERN in s.s_equip:
            mask[A.SAMURAI_TOKEN + C.PAPER_LANTERN] = True
    elif kind == "lantern_zone":
        for z in sorted({b.zone_of[sq] for sq in s.discs}):
            mask[A.ZONE + z] = True
    elif kind == "lantern_choice":
        mask[A.REVEAL] = True
        if any(b.zone_of[sq] != d["zone"] for sq in s.discs):
            mask[A.CLEAR] = True
    elif kind == "lantern_disc":
        _squares(mask, [sq for sq in s.discs if b.zone_of[sq] == d["zone"]])
    elif kind == "w6_s":
        mask[A.PASS] = True
        _samurai_tokens(mask, _move_tokens(s))
    elif kind == "sandals":
        mask[A.ADJUST_PLUS] = True
        mask[A.PLUS_TWO] = True
    elif kind == "w6_n":
        mask[A.PASS] = True
        if C.BLOWGUN in s.n_equip:
            mask[A.NINJA_TOKEN + C.BLOWGUN] = True
    elif kind in ("entry", "entry_end"):
        if kind == "entry":
            for z in b.zone_neighbours[s.samurai_zone]:
                mask[A.ZONE + z] = True
        else:
            mask[A.PASS] = True
        if not f["adjust_used"] and s.s_equip:
            mask[A.ADJUST_PLUS] = True
            if kind == "entry" and f["target"] - 1 >= max(1, f["entries"]):
                mask[A.ADJUST_MINUS] = True
        _samurai_tokens(mask, _move_tokens(s))
    elif kind == "adjust_token":
        _samurai_tokens(mask, s.s_equip)
    elif kind == "final_square":
        _squares(mask, b.zone_squares[s.samurai_zone])
    elif kind == "vase_move":
        _squares(mask, s.vase_move_targets(s.samurai_sq))
    elif kind == "inspect_move":
        mask[A.PASS] = True
        _squares(mask, s.vase_move_targets(s.vase_where[d["token"]]))
    elif kind == "w8":
        mask[A.PASS] = True
        if C.KAWARIMI in s.n_equip:
            mask[A.NINJA_TOKEN + C.KAWARIMI] = True
    elif kind == "confiscate":
        _squares(mask, s.confiscate_targets())
    elif kind == "reopen":
        _squares(mask, s.reopen_targets())
    elif kind == "reopen_extra":
        _squares(mask, s.reopen_targets(extra=True))
    elif kind == "w9":
        mask[A.PASS] = True
        usable = {  # W9 tokens, when they can do something
            C.IRON_BAR: bool(s.open_passages()),
            C.HOUND: len(s.discs) > s.discs_kept(),
            C.WATCH_FIRE: s.flags["watch_fire_next"] < 0,
            C.INVENTORY_LEDGER: bool(s.ledger_targets()),
        }
        _samurai_tokens(mask, [t for t in s.s_equip if usable.get(t, False)])
    elif kind == "iron_bar":
        _squares(mask, s.open_passages())
    elif kind in ("hound", "track"):
        _squares(mask, s.discs)
        if kind == "hound":
            mask[A.PASS] = True
    elif kind == "bar":
        _squares(mask, s.bar_targets())
    elif kind == "sweep_keep":
        _squares(mask, s.discs)
    elif kind == "inspect":
        _squares(mask, s.inspect_targets())
    elif kind == "ledger":
        _squares(mask, s.ledger_targets())
    if not mask.any():
        raise RuntimeError(f"castle_nightingale: decision {kind!r} has no legal action")
    return mask


def _move_tokens(s: NightingaleState) -> list[int]:
    """Samurai tokens usable during his movement (W6 / W7)."""
    out = []
    for t in s.s_equip:
        if t == C.STRAW_SANDALS or (t == C.INVENTORY_LEDGER and s.ledger_targets()):
            out.append(t)
    return out
