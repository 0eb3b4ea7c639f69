"""Legal actions of every Castle Nightingale decision (the action mask).

``LEGAL`` maps every decision kind to the function that marks its legal actions in a zeroed
mask, ``rule(mask, state, decision)``; :func:`legal_mask` is the only reader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import FACE_UP

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


def _move_tokens(s: NightingaleState) -> list[int]:
    """Samurai tokens usable during his movement (W6 / W7)."""
    out = []
    for t in s.s_equip:
        if t == C.STRAW_SANDALS or (t == C.INVENTORY_LEDGER and s.ledger_targets()):
            out.append(t)
    return out


# ---------------------------------------------------------------------------- setup, programming
def _setup_close(mask, s, d):
    _squares(mask, s.open_passages())


def _setup_start(mask, s, d):
    b = s.board
    _squares(
        mask, [sq for sq in range(NUM_SQUARES) if not b.passage[sq] and sq not in s.vase_where]
    )


def _prog_s_card(mask, s, d):
    for card in s.s_hand:
        mask[A.SAMURAI_CARD + card] = True


def _hand_tiles(mask, s, d):
    for c in s.hand_tiles():
        mask[A.TILE + c] = True


def _prog_n_card(mask, s, d):
    for card in s.n_hand:
        mask[A.NINJA_CARD + card] = True
    if C.LISTENING_TUBE in s.n_equip:
        mask[A.NINJA_TOKEN + C.LISTENING_TUBE] = True


# ---------------------------------------------------------------------------- the ninja's phase
def _w2(mask, s, d):
    mask[A.PASS] = True
    if C.ALARM_BELL in s.s_equip and s.hand_tiles():
        mask[A.SAMURAI_TOKEN + C.ALARM_BELL] = True


def _bell_out(mask, s, d):
    for c in s.programmed_tiles():
        mask[A.TILE + c] = True


def _sprint_out(mask, s, d):
    _bell_out(mask, s, d)
    mask[A.PASS] = True


def _sprint_in(mask, s, d):
    if d["out"] < 0:
        mask[A.PASS] = True  # he kept his tiles: confirm
    else:
        _hand_tiles(mask, s, d)


def _closed_passages(mask, s, d):
    _squares(mask, [p for p in s.closed_passages() if p != s.samurai_sq])


def _lockpick(mask, s, d):
    _squares(mask, s.lockpick_targets())


def _pebble(mask, s, d):
    _squares(mask, s.pebble_targets())


def _scout(mask, s, d):
    _squares(mask, s.vases_on_board())


def _map_vase(mask, s, d):
    _squares(mask, s.map_targets())


def _listen(mask, s, d):
    asked = {c for c, _ in s.listen_answers}
    for c in range(6):
        if s.tile_loc[c] != FACE_UP and c not in asked:
            mask[A.TILE + c] = True


def _meditate(mask, s, d):
    _ninja_tokens(mask, s.peek)


def _muster(mask, s, d):
    _samurai_tokens(mask, s.peek)


def _start(mask, s, d):
    _squares(mask, s.start_options())


def _place(mask, s, d):
    opts = s.placements()
    _squares(mask, opts.free | opts.free_jumps)
    if opts.jump:
        mask[A.JUMP] = True
    if opts.may_stop:
        mask[A.PASS] = True
    _ninja_tokens(mask, s.w3_tokens())


def _jump_token(mask, s, d):
    _ninja_tokens(mask, s.jump_tokens())


def _jump_land(mask, s, d):
    opts = s.placements()
    land = opts.paid_jumps | opts.free_jumps
    if not land:  # (never met: a paid jump was legal) any landing, never an empty choice
        ctx = s.placement_context()
        land = {t for _o, t in s.board.jumps[ctx.current] if t not in ctx.visited}
        land.discard(s.samurai_sq)
    _squares(mask, land)


def _w4(mask, s, d):
    mask[A.PASS] = True
    if C.SOFT_TABI in s.n_equip:
        mask[A.NINJA_TOKEN + C.SOFT_TABI] = True


def _w3_end(mask, s, d):
    mask[A.PASS] = True
    _ninja_tokens(mask, s.w3_end_tokens())


def _decoy(mask, s, d):
    _squares(mask, s.decoy_targets())


def _w5(mask, s, d):
    mask[A.PASS] = True
    if C.PAPER_LANTERN in s.s_equip:
        mask[A.SAMURAI_TOKEN + C.PAPER_LANTERN] = True


def _lantern_zone(mask, s, d):
    for z in sorted({s.board.zone_of[sq] for sq in s.discs}):
        mask[A.ZONE + z] = True


def _lantern_choice(mask, s, d):
    mask[A.REVEAL] = True
    if any(s.board.zone_of[sq] != d["zone"] for sq in s.discs):
        mask[A.CLEAR] = True


def _lantern_disc(mask, s, d):
    _squares(mask, [sq for sq in s.discs if s.board.zone_of[sq] == d["zone"]])


# ---------------------------------------------------------------------------- the samurai's phase
def _w6_s(mask, s, d):
    mask[A.PASS] = True
    _samurai_tokens(mask, _move_tokens(s))


def _sandals(mask, s, d):
    mask[A.ADJUST_PLUS] = True
    mask[A.PLUS_TWO] = True


def _w6_n(mask, s, d):
    mask[A.PASS] = True
    if C.BLOWGUN in s.n_equip:
        mask[A.NINJA_TOKEN + C.BLOWGUN] = True


def _entry(mask, s, d):
    for z in s.board.zone_neighbours[s.samurai_zone]:
        mask[A.ZONE + z] = True
    _adjustments(mask, s, minus=True)


def _entry_end(mask, s, d):
    mask[A.PASS] = True
    _adjustments(mask, s, minus=False)


def _adjustments(mask, s, minus: bool) -> None:
    """During his movement: the +1 / -1 adjustment (a token, once) and the movement tokens."""
    f = s.flags
    if not f["adjust_used"] and s.s_equip:
        mask[A.ADJUST_PLUS] = True
        if minus and f["target"] - 1 >= max(1, f["entries"]):
            mask[A.ADJUST_MINUS] = True
    _samurai_tokens(mask, _move_tokens(s))


def _adjust_token(mask, s, d):
    _samurai_tokens(mask, s.s_equip)


def _final_square(mask, s, d):
    _squares(mask, s.board.zone_squares[s.samurai_zone])


def _vase_move(mask, s, d):
    _squares(mask, s.vase_move_targets(s.samurai_sq))


def _inspect_move(mask, s, d):
    mask[A.PASS] = True
    _squares(mask, s.vase_move_targets(s.vase_where[d["token"]]))


def _w8(mask, s, d):
    mask[A.PASS] = True
    if C.KAWARIMI in s.n_equip:
        mask[A.NINJA_TOKEN + C.KAWARIMI] = True


def _confiscate(mask, s, d):
    _squares(mask, s.confiscate_targets())


def _reopen(mask, s, d):
    _squares(mask, s.reopen_targets())


def _reopen_extra(mask, s, d):
    _squares(mask, s.reopen_targets(extra=True))


def _w9(mask, s, d):
    mask[A.PASS] = True
    usable = {  # W9 tokens, when they can do something
        C.IRON_BAR: bool(s.open_passages()),
        C.HOUND: len(s.discs) > s.discs_kept(),
        C.WATCH_FIRE: s.flags["watch_fire_next"] < 0,
        C.INVENTORY_LEDGER: bool(s.ledger_targets()),
    }
    _samurai_tokens(mask, [t for t in s.s_equip if usable.get(t, False)])


def _iron_bar(mask, s, d):
    _squares(mask, s.open_passages())


def _hound(mask, s, d):
    _squares(mask, s.discs)
    mask[A.PASS] = True


def _discs(mask, s, d):
    _squares(mask, s.discs)


def _bar(mask, s, d):
    _squares(mask, s.bar_targets())


def _inspect(mask, s, d):
    _squares(mask, s.inspect_targets())


def _ledger(mask, s, d):
    _squares(mask, s.ledger_targets())


Rule = Callable[[np.ndarray, "NightingaleState", dict], None]

LEGAL: dict[str, Rule] = {
    "setup_close": _setup_close,
    "setup_start": _setup_start,
    "prog_s_card": _prog_s_card,
    "prog_s_tile": _hand_tiles,
    "prog_n_card": _prog_n_card,
    "w2": _w2,
    "bell_out": _bell_out,
    "bell_in": _hand_tiles,
    "sprint_out": _sprint_out,
    "sprint_in": _sprint_in,
    "pick_lock": _closed_passages,
    "pebble": _pebble,
    "scout": _scout,
    "listen": _listen,
    "meditate": _meditate,
    "start": _start,
    "place": _place,
    "jump_token": _jump_token,
    "jump_land": _jump_land,
    "lockpick": _lockpick,
    "map_vase": _map_vase,
    "w4": _w4,
    "w3_end": _w3_end,
    "decoy": _decoy,
    "w5": _w5,
    "lantern_zone": _lantern_zone,
    "lantern_choice": _lantern_choice,
    "lantern_disc": _lantern_disc,
    "w6_s": _w6_s,
    "sandals": _sandals,
    "w6_n": _w6_n,
    "entry": _entry,
    "entry_end": _entry_end,
    "adjust_token": _adjust_token,
    "final_square": _final_square,
    "vase_move": _vase_move,
    "w8": _w8,
    "confiscate": _confiscate,
    "reopen": _reopen,
    "reopen_extra": _reopen_extra,
    "w9": _w9,
    "iron_bar": _iron_bar,
    "hound": _hound,
    "track": _discs,
    "bar": _bar,
    "sweep_keep": _discs,
    "inspect": _inspect,
    "inspect_move": _inspect_move,
    "muster": _muster,
    "ledger": _ledger,
}
"""Decision kind -> ``rule(mask, state, decision)`` marking its legal actions (in the order of
``state.DECISIONS``)."""


def legal_mask(s: NightingaleState) -> np.ndarray:
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    d = s.decision
    if d is None:
        return mask
    kind = d["kind"]
    rule = LEGAL.get(kind)
    if rule is not None:
        rule(mask, s, d)
    if not np.count_nonzero(mask):  # (cheaper than mask.any())
        raise RuntimeError(f"castle_nightingale: decision {kind!r} has no legal action")
    return mask
