"""Reading an info set's typed ``view`` (:class:`~..infoset.CastleNightingaleView`): the public
facts and what its player knows, as the policies use them (never anything hidden)."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.ai.geometry import INF, Geo
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import NINJA
from boardgames_rl.games.castle_nightingale.infoset import CastleNightingaleView

N_MOVES = tuple(c.move for c in C.NINJA_CARDS)
"""Movement value of each ninja card."""
S_MOVES = tuple(c.move for c in C.SAMURAI_CARDS)
"""Movement value of each samurai card."""


def open_passages(k: CastleNightingaleView, g: Geo) -> list[int]:
    return [p for i, p in enumerate(g.passages) if not k.closed[i]]


def ninja_starts(k: CastleNightingaleView, g: Geo) -> list[int]:
    """Where the ninja may start its next movement (public): figurine, else discs, else the open
    passages."""
    if k.ninja_sq >= 0:
        return [k.ninja_sq]
    if k.discs:
        return list(k.discs)
    out = [p for p in open_passages(k, g) if p != k.samurai_sq]
    return out or [sq for sq in range(NUM_SQUARES) if not g.board.passage[sq]]


def vase_values(k: CastleNightingaleView, player: int) -> dict[int, float]:
    """Square -> value of the vase on it to the ninja, as ``player`` knows it."""
    knows = k.ninja_knows if player == NINJA else k.samurai_knows
    content = k.vase_content
    where = k.vase_where
    known_relics = sum(1 for t in range(C.NUM_VASES) if knows[t] and content[t])
    if player == NINJA:
        unknown = sum(1 for t in range(C.NUM_VASES) if not knows[t])
        odds = (C.NUM_RELICS - known_relics) / unknown if unknown else 0.0
    else:
        odds = 0.75
    out = {}
    for t, w in enumerate(where):
        if w >= 0:
            out[w] = (1.0 if content[t] else 0.0) if knows[t] else odds
    return out


def ninja_card_moves(k: CastleNightingaleView) -> dict[int, int]:
    """Movement value -> number of ninja cards that may be played now, as the samurai sees it
    (the hand seen from the Watchtower, else every card not in the ninja's discard pile)."""
    known = k.known_n_hand
    cards = known if len(known) >= 3 else [c for c in range(10) if c not in k.n_discard]
    counts: dict[int, int] = {}
    for c in cards:
        counts[N_MOVES[c]] = counts.get(N_MOVES[c], 0) + 1
    return counts


def mask_squares(legal: np.ndarray) -> list[int]:
    """The squares legal in an action mask."""
    return [int(a) for a in np.flatnonzero(legal[: A.ZONE])]


def ninja_here(k: CastleNightingaleView, g: Geo) -> list[int]:
    """Squares the ninja is known to be on or can start from (the samurai's view: the figurine,
    else the discs, else the open passages, else his own square)."""
    if k.ninja_sq >= 0:
        return [k.ninja_sq]
    if k.discs:
        return list(k.discs)
    return [p for p in open_passages(k, g) if p != k.samurai_sq] or [k.samurai_sq]


def ninja_distance(k: CastleNightingaleView, g: Geo) -> list[int]:
    """Disc steps (passage travel included) from the ninja's possible starts to each square."""
    opens = frozenset(open_passages(k, g))
    dist = [INF] * NUM_SQUARES
    for s in ninja_here(k, g):
        ds = g.travel(s, opens, 6)
        dist = [min(a, b) for a, b in zip(dist, ds, strict=True)]
    return dist
