"""The White Castle's consistency checks of an untrusted state dict (``SPEC.state_checks``, run
by ``State.from_dict`` after the learnt schema): the player count the game's, one entry per
player, the turn order a permutation of the seats, each yard tile
an id of the data sheet with a face it has, the round within the game's 3."""

from __future__ import annotations

from typing import Any

from boardgames_rl.core.dict_checks import ints_within, is_permutation
from boardgames_rl.core.game import Game
from boardgames_rl.games.white_castle import data

ROUNDS = 3


def problems(game: Game, d: dict[str, Any]) -> str | None:
    """The first broken rule of the inner state dict ``d``, as one line, or None."""
    n = game.num_players
    v = d.get("round")
    if isinstance(v, int) and v > ROUNDS:
        return f"round = {v} is past the game's limit {ROUNDS}"
    if "n" in d and d["n"] != n:
        return f"n = {d['n']!r:.20} is not the game's {n} players"
    for name in ("players", "domain_dice"):
        if name in d and (not isinstance(d[name], list) or len(d[name]) != n):
            return f"{name} must have {n} entries (one per player)"
    if "turn_order" in d and not is_permutation(d["turn_order"], n):
        return f"turn_order must list each seat 0..{n - 1} once"
    yards = d.get("yards", [])
    if len(yards) != len(data.YARD_COST):
        return f"yards must have {len(data.YARD_COST)} entries (one per yard)"
    for yard in yards:
        for tile in yard if isinstance(yard, list) else [None]:
            if (
                not isinstance(tile, list)
                or len(tile) != 2
                or not isinstance(tile[0], str)
                or tile[0] not in data.YARD_TILES
                or not ints_within(tile[1], 0, len(data.YARD_TILES[tile[0]]))
            ):
                return f"yards holds {tile!r:.30}, not a [yard tile id, face 0..1]"
    dec = d.get("decision")
    if isinstance(dec, dict) and "player" in dec and not ints_within(dec["player"], 0, n):
        return f"decision.player = {dec['player']!r} is not a seat"
    return None
