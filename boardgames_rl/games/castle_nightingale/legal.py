"""Legal actions of every Castle Nightingale decision (the action mask).

``LEGAL`` maps every decision kind to the function that marks its legal actions in a zeroed
mask (a ``bytearray``, one byte per action), ``rule(mask, state, decision)``; :func:`legal_bytes`
is the only reader (:func:`legal_mask` reads its bytes as an array, :func:`legal_list` lists
them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from boardgames_rl.core.masks import marked
from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import FACE_UP

_BOOL: Final = np.dtype(bool)
"""The mask's dtype as an object (``dtype=bool`` converts the type at every call)."""

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState


def _squares(mask: bytearray, squares: Iterable[int]) -> None:
    for sq in squares:
        mask[A.SQUARE + sq] = True


def _ninja_tokens(mask: bytearray, tokens: Iterable[int]) -> None:
    for t in tokens:
        mask[A.NINJA_TOKEN + t] = True


def _samurai_tokens(mask: bytearray, tokens: Iterable[int]) -> None:
    for t in tokens:
        mask[A.SAMURAI_TOKEN + t] = True


def _move_tokens(state: CastleNightingaleState) -> list[int]:
    """Samurai tokens usable during his movement (W6 / W7)."""
    out = []
    for t in state.s_equip:
        if t == C.STRAW_SANDALS or (t == C.INVENTORY_LEDGER and state.ledger_targets()):
            out.append(t)
    return out


# ---------------------------------------------------------------------------- setup, programming
def _setup_close(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.open_passages())


def _setup_start(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    b = state.board
    _squares(
        mask, [sq for sq in range(NUM_SQUARES) if not b.passage[sq] and sq not in state.vase_where]
    )


def _prog_s_card(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    for card in state.s_hand:
        mask[A.SAMURAI_CARD + card] = True


def _hand_tiles(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    for c in state.hand_tiles():
        mask[A.TILE + c] = True


def _prog_n_card(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    for card in state.n_hand:
        mask[A.NINJA_CARD + card] = True
    if C.LISTENING_TUBE in state.n_equip:
        mask[A.NINJA_TOKEN + C.LISTENING_TUBE] = True


# ---------------------------------------------------------------------------- the ninja's phase
def _w2(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    if C.ALARM_BELL in state.s_equip and state.hand_tiles():
        mask[A.SAMURAI_TOKEN + C.ALARM_BELL] = True


def _bell_out(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    for c in state.programmed_tiles():
        mask[A.TILE + c] = True


def _sprint_out(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _bell_out(mask, state, decision)
    mask[A.PASS] = True


def _sprint_in(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    if decision["out"] < 0:
        mask[A.PASS] = True  # he kept his tiles: confirm
    else:
        _hand_tiles(mask, state, decision)


def _closed_passages(
    mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]
) -> None:
    _squares(mask, [p for p in state.closed_passages() if p != state.samurai_sq])


def _lockpick(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.lockpick_targets())


def _pebble(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.pebble_targets())


def _scout(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.vases_on_board())


def _map_vase(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.map_targets())


def _listen(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    asked = {c for c, _ in state.listen_answers}
    for c in range(6):
        if state.tile_loc[c] != FACE_UP and c not in asked:
            mask[A.TILE + c] = True


def _meditate(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _ninja_tokens(mask, state.peek)


def _muster(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _samurai_tokens(mask, state.peek)


def _start(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.start_options())


def _place(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    opts = state.placements()
    _squares(mask, opts.free | opts.free_jumps)
    if opts.jump:
        mask[A.JUMP] = True
    if opts.may_stop:
        mask[A.PASS] = True
    _ninja_tokens(mask, state.w3_tokens(opts))


def _jump_token(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _ninja_tokens(mask, state.jump_tokens())


def _jump_land(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    opts = state.placements()
    land = opts.paid_jumps | opts.free_jumps
    if not land:  # (never met: a paid jump was legal) any landing, never an empty choice
        ctx = state.placement_context()
        jumps = state.board.jumps[ctx.current]
        land = frozenset(t for _o, t in jumps if t not in ctx.visited and t != state.samurai_sq)
    _squares(mask, land)


def _w4(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    if C.SOFT_TABI in state.n_equip:
        mask[A.NINJA_TOKEN + C.SOFT_TABI] = True


def _w3_end(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    _ninja_tokens(mask, state.w3_end_tokens())


def _decoy(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.decoy_targets())


def _w5(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    if C.PAPER_LANTERN in state.s_equip:
        mask[A.SAMURAI_TOKEN + C.PAPER_LANTERN] = True


def _lantern_zone(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    for z in sorted({state.board.zone_of[sq] for sq in state.discs}):
        mask[A.ZONE + z] = True


def _lantern_choice(
    mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]
) -> None:
    mask[A.REVEAL] = True
    if any(state.board.zone_of[sq] != decision["zone"] for sq in state.discs):
        mask[A.CLEAR] = True


def _lantern_disc(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, [sq for sq in state.discs if state.board.zone_of[sq] == decision["zone"]])


# ---------------------------------------------------------------------------- the samurai's phase
def _w6_s(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    _samurai_tokens(mask, _move_tokens(state))


def _sandals(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.ADJUST_PLUS] = True
    mask[A.PLUS_TWO] = True


def _w6_n(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    if C.BLOWGUN in state.n_equip:
        mask[A.NINJA_TOKEN + C.BLOWGUN] = True


def _entry(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    for z in state.board.zone_neighbours[state.samurai_zone]:
        mask[A.ZONE + z] = True
    _adjustments(mask, state, minus=True)


def _entry_end(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    _adjustments(mask, state, minus=False)


def _adjustments(mask: bytearray, state: CastleNightingaleState, minus: bool) -> None:
    """During his movement: the +1 / -1 adjustment (a token, once) and the movement tokens."""
    f = state.flags
    if not f["adjust_used"] and state.s_equip:
        mask[A.ADJUST_PLUS] = True
        if minus and f["target"] - 1 >= max(1, f["entries"]):
            mask[A.ADJUST_MINUS] = True
    _samurai_tokens(mask, _move_tokens(state))


def _adjust_token(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _samurai_tokens(mask, state.s_equip)


def _final_square(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.board.zone_squares[state.samurai_zone])


def _vase_move(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.vase_move_targets(state.samurai_sq))


def _inspect_move(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    _squares(mask, state.vase_move_targets(state.vase_where[decision["token"]]))


def _w8(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    if C.KAWARIMI in state.n_equip:
        mask[A.NINJA_TOKEN + C.KAWARIMI] = True


def _confiscate(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.confiscate_targets())


def _reopen(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.reopen_targets())


def _reopen_extra(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.reopen_targets(extra=True))


def _w9(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    mask[A.PASS] = True
    usable = {  # W9 tokens, when they can do something
        C.IRON_BAR: bool(state.open_passages()),
        C.HOUND: len(state.discs) > state.discs_kept(),
        C.WATCH_FIRE: state.flags["watch_fire_next"] < 0,
        C.INVENTORY_LEDGER: bool(state.ledger_targets()),
    }
    _samurai_tokens(mask, [t for t in state.s_equip if usable.get(t, False)])


def _iron_bar(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.open_passages())


def _hound(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.discs)
    mask[A.PASS] = True


def _discs(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.discs)


def _bar(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.bar_targets())


def _inspect(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.inspect_targets())


def _ledger(mask: bytearray, state: CastleNightingaleState, decision: dict[str, Any]) -> None:
    _squares(mask, state.ledger_targets())


Rule = Callable[[bytearray, "CastleNightingaleState", dict[str, Any]], None]

LEGAL: Final[dict[str, Rule]] = {
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


def legal_bytes(state: CastleNightingaleState) -> bytearray:
    """The legal actions of the pending decision, one byte per action (1: legal): its rule marks
    them in a zeroed ``bytearray`` (a byte is cheaper to write than a numpy item)."""
    mask = bytearray(A.NUM_ACTIONS)
    decision = state.decision
    if decision is not None:
        kind = decision["kind"]
        rule = LEGAL.get(kind)
        if rule is not None:
            rule(mask, state, decision)
        if 1 not in mask:
            raise RuntimeError(f"castle_nightingale: decision {kind!r} has no legal action")
    return mask


def legal_mask(state: CastleNightingaleState) -> np.ndarray:
    """The mask of the pending decision: :func:`legal_bytes` read as a bool array without a
    copy."""
    return np.frombuffer(legal_bytes(state), _BOOL)


def legal_list(state: CastleNightingaleState) -> list[int]:
    """The legal actions ascending (the marked bytes of :func:`legal_bytes`), for search loops,
    without making, freezing and scanning a numpy mask (a search asks for a list, not a mask)."""
    return marked(legal_bytes(state))
