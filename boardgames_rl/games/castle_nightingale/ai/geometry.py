"""Board geometry for the AI: grid distances, passage travel and zone lookups, cached per layout."""

from __future__ import annotations

from collections import deque
from typing import Any

from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES, Board, Layout, get_board
from boardgames_rl.games.castle_nightingale.infoset import (
    CastleNightingaleInfoSet,
    CastleNightingaleView,
)

INF = 10**6
"""An unreachable distance (and the lowest score)."""


class Geo:
    """Per-layout data (cached): the board plus grid distances and passage/zone lookups."""

    def __init__(self, board: Board):
        self.board = board
        self.nb = board.neighbours
        self.diag = board.diagonals
        self.col = board.colour
        self.zone = board.zone_of
        self.zd = board.zone_distances
        self.znb = board.zone_neighbours
        self.zpass = board.zone_is_passage
        self.zsq = board.zone_squares
        self.zpos = board.zone_position
        self.pos = board.position_of
        self.nz = board.num_zones
        self.passages = board.passages
        self.pzone = tuple(board.zone_of[p] for p in board.passages)
        self.pindex_of_zone = {z: i for i, z in enumerate(self.pzone)}
        self.grid = [self._bfs(s) for s in range(NUM_SQUARES)]

    def _bfs(self, src: int) -> list[int]:
        dist = [INF] * NUM_SQUARES
        dist[src] = 0
        queue = deque([src])
        while queue:
            s = queue.popleft()
            for n in self.nb[s]:
                if dist[n] == INF:
                    dist[n] = dist[s] + 1
                    queue.append(n)
        return dist

    def travel(self, src: int, open_set: frozenset[int] | set[int], limit: int = 99) -> list[int]:
        """Disc steps from ``src`` with passage travel between open passages (BFS)."""
        dist = [INF] * NUM_SQUARES
        dist[src] = 0
        queue = deque([src])
        travelled = False
        while queue:
            s = queue.popleft()
            d = dist[s] + 1
            if d > limit:
                continue
            for n in self.nb[s]:
                if dist[n] > d:
                    dist[n] = d
                    queue.append(n)
            if not travelled and s in open_set:
                travelled = True  # BFS order: the first open passage reached is the nearest
                for p in open_set:
                    if dist[p] > d:
                        dist[p] = d
                        queue.append(p)
        return dist


_GEO: dict[tuple[Any, ...], Geo] = {}


def geo_of(k: CastleNightingaleView, merge_seams: bool = False) -> Geo:
    """The geometry of the layout in a knowledge dict (zones merged across seams if asked)."""
    side, boards, rotated = k.layout
    key = (side, tuple(boards), tuple(rotated), merge_seams)
    g = _GEO.get(key)
    if g is None:
        layout = Layout.from_list([side, list(boards), list(rotated)])
        g = _GEO[key] = Geo(get_board(layout, merge_seams))
    return g


def geo_for(info: CastleNightingaleInfoSet) -> Geo:
    """The geometry of an info set's game (zones merged across seams under that variant)."""
    return geo_of(info.view, bool(getattr(info.game, "merge_zones_across_seams", False)))
