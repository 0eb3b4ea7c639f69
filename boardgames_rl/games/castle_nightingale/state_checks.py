"""Castle Nightingale's consistency checks of an untrusted state dict (``SPEC.state_checks``, run
by ``State.from_dict`` after the learnt schema): each side's 10 cards (deck, hand, discard and
the card in play) conserved, each id once; its 7 tokens (stack, equipped, used, spent, at the
bottom) in range, the stack holding each at most once; the 8 vases and 6 tiles one entry each;
square ids in
range; the turn within ``max_turns``; the winner -1 or a seat."""

from __future__ import annotations

from typing import Any

from boardgames_rl.core.dict_checks import ints_within, is_permutation
from boardgames_rl.core.game import Game
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES

CARDS = 10
"""Cards in each side's deck (ids 0..9)."""
TOKENS = 7
"""Tokens in each side's stack (ids 0..6)."""
VASES = 8
TILES = 6


def problems(game: Game, d: dict[str, Any]) -> str | None:
    """The first broken rule of the inner state dict ``d``, as one line, or None."""
    v = d.get("turn")
    limit = getattr(game, "max_turns", 10**6)
    if isinstance(v, int) and v > limit:
        return f"turn = {v} is past the game's limit {limit}"
    for side in ("n", "s"):
        piles = [f"{side}_deck", f"{side}_hand", f"{side}_discard"]
        for name in piles:
            if not isinstance(d.get(name, []), list) or not ints_within(d.get(name, []), 0, CARDS):
                return f"{name} holds a card id outside 0..{CARDS - 1}"
        card = d.get(f"{side}_card", -1)
        if not ints_within(card, -1, CARDS):
            return f"{side}_card = {card!r:.20} is not -1 or a card id"
        held = [c for name in piles for c in d.get(name, [])] + ([card] if card >= 0 else [])
        if not is_permutation(held, CARDS):
            return f"{', '.join(piles)} and {side}_card must hold each of the {CARDS} cards once"
        stacks = [f"{side}_{k}" for k in ("stack", "equip", "used", "spent", "bottom")]
        for name in stacks:
            if not isinstance(d.get(name, []), list) or not ints_within(d.get(name, []), 0, TOKENS):
                return f"{name} holds a token id outside 0..{TOKENS - 1}"
        stack = d.get(f"{side}_stack", [])
        if len(set(stack)) != len(stack):
            return f"{side}_stack holds a token twice"
    if not ints_within(d.get("known_n_hand", []), 0, CARDS):
        return f"known_n_hand holds a card id outside 0..{CARDS - 1}"
    for name, size in (
        ("vase_content", VASES), ("vase_where", VASES), ("ninja_knows", VASES),
        ("samurai_knows", VASES), ("tile_loc", TILES), ("tile_revealed", TILES),
        ("tile_in", TILES), ("tile_out", TILES),
    ):  # fmt: skip
        if name in d and (not isinstance(d[name], list) or len(d[name]) != size):
            return f"{name} must have {size} entries"
    for name, lo in (
        ("discs", 0), ("turn_discs", 0), ("samurai_sq", -1), ("ninja_sq", -1), ("start_sq", -1),
        ("vase_where", -2),
    ):  # fmt: skip
        if name in d and not ints_within(d[name], lo, NUM_SQUARES):
            return f"{name} holds a square id outside {lo}..{NUM_SQUARES - 1}"
    v = d.get("winner")
    if isinstance(v, int) and not isinstance(v, bool) and not -1 <= v < game.num_players:
        return f"winner = {v} is not -1 or a seat"
    dec = d.get("decision")
    if isinstance(dec, dict) and "player" in dec and not ints_within(dec["player"], 0, 2):
        return f"decision.player = {dec['player']!r} is not a seat"
    return None
