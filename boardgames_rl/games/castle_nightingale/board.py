"""Castle Nightingale board geometry: layouts, squares, adjacency, jumps and colour zones.

Pure functions and immutable data only (no game rules). Implements the board section of the
component data sheet that accompanies the rulebook; the board sides themselves are tables in
``data.py``.

Conventions:
- squares are indexed 0..95 in global reading order (row 1 A..K, row 2 A..K, ...), skipping
  the garden;
- positions are 0..3 = N, E, S, W; boards are 0..3 = I..IV; colours index ``data.COLOURS``;
- "physical" local coordinates ``(r, c)`` are the coordinates printed on the board side (sheet
  2.6); a board rotated 180 degrees first maps them to ``(2 - r, 7 - c)``, then its position's
  mapping (2.2) gives the global ``(x, y)``.
"""

from __future__ import annotations

import itertools
import marshal
import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import numpy as np
from mypy_extensions import mypyc_attr

from boardgames_rl.games.castle_nightingale.data import (
    BOARD_COLS,
    BOARD_NAMES,
    BOARD_ROWS,
    BOARD_SIDES,
    COLOUR_LETTERS,
    COLOURS,
    GARDEN_MAX,
    GARDEN_MIN,
    GRID_SIZE,
    PASSAGE,
    POSITIONS,
    SIDES,
    SQUARE_TYPES,
    VASE,
)

NUM_SQUARES: Final = 96
_ANSI_ESCAPE: Final = re.compile(r"\x1b\[[0-9;]*m")
COLUMN_LETTERS: Final = "ABCDEFGHIJK"


# ------------------------------------------------------------------------------- coordinates (2.2)
def is_garden(x: int, y: int) -> bool:
    """True for the garden cells D4-H8."""
    return GARDEN_MIN <= x <= GARDEN_MAX and GARDEN_MIN <= y <= GARDEN_MAX


def is_square(x: int, y: int) -> bool:
    """True for the 96 floor squares: inside the 11 x 11 grid and not garden."""
    return 0 <= x < GRID_SIZE and 0 <= y < GRID_SIZE and not is_garden(x, y)


def xy_label(x: int, y: int) -> str:
    """Global label of a cell, e.g. (2, 3) -> "C4"."""
    return f"{COLUMN_LETTERS[x]}{y + 1}"


def local_to_xy(position: int, r: int, c: int, rotated: bool = False) -> tuple[int, int]:
    """Global (x, y) of local cell (r, c) of the board at `position` (0..3 = N, E, S, W), sheet 2.2.

    With ``rotated`` the board lies turned by 180 degrees: (r, c) -> (2 - r, 7 - c) first.
    """
    if not (0 <= r < BOARD_ROWS and 0 <= c < BOARD_COLS):
        raise ValueError(f"local cell ({r}, {c}) is outside the 3 x 8 board")
    if rotated:
        r, c = BOARD_ROWS - 1 - r, BOARD_COLS - 1 - c
    last = GRID_SIZE - 1
    if position == 0:  # N
        return c, r
    if position == 1:  # E
        return last - r, c
    if position == 2:  # S
        return last - c, last - r
    if position == 3:  # W
        return r, last - c
    raise ValueError(f"position must be 0..3 (N, E, S, W), got {position!r}")


def parse_side(board: int, side: str) -> tuple[tuple[tuple[int, str], ...], ...]:
    """The printed side as a 3 x 8 table of (colour index, type char) per physical (r, c)."""
    rows = BOARD_SIDES[(BOARD_NAMES[board], side)]
    table = []
    for row in rows:
        cells = row.split()
        if len(cells) != BOARD_COLS or any(len(cell) != 2 for cell in cells):
            raise ValueError(f"malformed row {row!r} of board {BOARD_NAMES[board]}-{side}")
        parsed = []
        for cell in cells:
            letter, kind = cell[0], cell[1]
            if letter not in COLOUR_LETTERS or kind not in SQUARE_TYPES:
                raise ValueError(f"bad cell {cell!r} on board {BOARD_NAMES[board]}-{side}")
            parsed.append((COLOUR_LETTERS.index(letter), kind))
        table.append(tuple(parsed))
    if len(table) != BOARD_ROWS:
        raise ValueError(f"board {BOARD_NAMES[board]}-{side} must have {BOARD_ROWS} rows")
    return tuple(table)


# ------------------------------------------------------------------------------------ layouts (2.5)
@mypyc_attr(native_class=False)  # validates what a caller passes (lists, numpy ints) itself
@dataclass(frozen=True)
class Layout:
    """Which board lies at which position, on which side, and which boards are turned 180°."""

    side: str
    boards: tuple[int, ...]
    """Board id (0..3 = I..IV) at positions N, E, S, W (4 of them, checked)."""
    rotated: tuple[bool, ...]
    """Per position N, E, S, W: is that board rotated 180 degrees (side B only; 4, checked)."""

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"Layout side must be 'A' or 'B', got {self.side!r}")
        # As given (any objects, not yet the fields' types: a bool is not a board id).
        raw_boards: Any = getattr(self, "boards")  # noqa: B009
        raw_rotated: Any = getattr(self, "rotated")  # noqa: B009
        try:
            given_boards: tuple[object, ...] = tuple(raw_boards)
            given_rotated: tuple[object, ...] = tuple(raw_rotated)
        except TypeError as exc:
            raise ValueError(f"Layout boards/rotated must be sequences of 4: {exc}") from None
        if len(given_boards) != 4 or any(
            isinstance(b, (bool, np.bool_)) or not isinstance(b, (int, np.integer))
            for b in given_boards
        ):
            raise ValueError(f"Layout boards must be 4 board ids 0..3, got {raw_boards!r}")
        boards = tuple(int(b) for b in given_boards)  # type: ignore[call-overload]
        if sorted(boards) != [0, 1, 2, 3]:
            raise ValueError(
                f"Layout boards must be a permutation of 0..3 (each board used once), got {boards}"
            )
        if len(given_rotated) != 4 or any(
            not isinstance(f, (bool, np.bool_)) for f in given_rotated
        ):
            raise ValueError(f"Layout rotated must be 4 booleans, got {raw_rotated!r}")
        rotated = tuple(bool(f) for f in given_rotated)
        if self.side == "A" and any(rotated):
            raise ValueError(
                "side A boards are never rotated (the vase icons must stay on the outer border)"
            )
        object.__setattr__(self, "boards", boards)
        object.__setattr__(self, "rotated", rotated)

    def to_list(self) -> list:
        """JSON-safe form: ``[side, [board ids], [rotated flags]]``."""
        return [self.side, list(self.boards), list(self.rotated)]

    @classmethod
    def from_list(cls, data: Sequence) -> Layout:
        """Inverse of ``to_list``."""
        if len(data) != 3:
            raise ValueError(f"Layout.from_list expects [side, boards, rotated], got {data!r}")
        side, boards, rotated = data
        return cls(side, tuple(boards), tuple(rotated))

    def describe(self) -> str:
        """E.g. "A: N=I E=II S=III W=IV" (a trailing '*' marks a rotated board)."""
        parts = [
            f"{POSITIONS[p]}={BOARD_NAMES[b]}{'*' if rot else ''}"
            for p, (b, rot) in enumerate(zip(self.boards, self.rotated))
        ]
        return f"{self.side}: " + " ".join(parts)


FIRST_GAME_LAYOUT: Final = Layout("A", (0, 1, 2, 3), (False, False, False, False))


def reference_layout(side: str) -> Layout:
    """Boards I, II, III, IV at N, E, S, W, none rotated (the 2.7 reference maps)."""
    return Layout(side, (0, 1, 2, 3), (False, False, False, False))


def random_layout(side: str, rng: np.random.Generator) -> Layout:
    """Setup placement (2.5): a uniformly random order of the boards; on side B each board is also
    rotated 180 degrees with probability 1/2, independently. Side A is never rotated."""
    if side not in SIDES:
        raise ValueError(f"side must be 'A' or 'B', got {side!r}")
    boards = tuple(int(b) for b in rng.permutation(4))
    rotated: tuple[bool, ...]
    if side == "A":
        rotated = (False, False, False, False)
    else:
        rotated = tuple(bool(f) for f in rng.integers(0, 2, size=4))
    return Layout(side, boards, rotated)


def all_layouts(side: str) -> tuple[Layout, ...]:
    """Every allowed layout of a side: 24 on side A, 24 x 16 = 384 on side B."""
    if side not in SIDES:
        raise ValueError(f"side must be 'A' or 'B', got {side!r}")
    flags = [(False,) * 4] if side == "A" else list(itertools.product((False, True), repeat=4))
    return tuple(
        Layout(side, perm, rot) for perm in itertools.permutations(range(4)) for rot in flags
    )


# --------------------------------------------------------------------------------------- the board
def _tuples(rows: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in rows)


class Board:
    """Immutable geometry of one layout. Build it with ``get_board(layout)`` (cached).

    ``merge_seams`` is the variant ``merge_zones_across_seams`` (sheet 2.4, default off): colour
    zones of the same colour that touch across a board seam become one zone, named by joining
    their per-board names with ``+`` (e.g. ``"II-B blue-2+III-B blue"``); its ``zone_position``
    is the board of its first part, and ``zone_positions`` lists every board it lies on.
    """

    num_squares = NUM_SQUARES

    def __init__(self, layout: Layout, merge_seams: bool = False) -> None:
        if not isinstance(layout, Layout):
            raise TypeError(f"Board needs a Layout, got {type(layout).__name__}")
        self.layout = layout
        self.merge_seams = bool(merge_seams)
        side = layout.side

        # ---- squares, global reading order
        xy = [(x, y) for y in range(GRID_SIZE) for x in range(GRID_SIZE) if is_square(x, y)]
        assert len(xy) == NUM_SQUARES
        index = {p: i for i, p in enumerate(xy)}
        self.xy: tuple[tuple[int, int], ...] = tuple(xy)
        self.labels: tuple[str, ...] = tuple(xy_label(x, y) for x, y in xy)
        self._by_label = {lab: i for i, lab in enumerate(self.labels)}
        self._index = index

        colour = [-1] * NUM_SQUARES
        kind = [""] * NUM_SQUARES
        position_of = [-1] * NUM_SQUARES
        board_rc: list[tuple[int, int]] = [(-1, -1)] * NUM_SQUARES
        local_sq = {}  # (position, physical r, physical c) -> square
        for pos in range(4):
            board_id, rot = layout.boards[pos], layout.rotated[pos]
            table = parse_side(board_id, side)
            for r in range(BOARD_ROWS):
                for c in range(BOARD_COLS):
                    sq = index[local_to_xy(pos, r, c, rot)]
                    if position_of[sq] != -1:
                        raise AssertionError(f"square {self.labels[sq]} covered twice")
                    colour[sq], kind[sq] = table[r][c]
                    position_of[sq] = pos
                    board_rc[sq] = (r, c)
                    local_sq[(pos, r, c)] = sq
        assert min(position_of) == 0
        self._local_sq = local_sq

        self.colour: tuple[int, ...] = tuple(colour)
        self.passage: tuple[bool, ...] = tuple(k == PASSAGE for k in kind)
        self.vase_icon: tuple[bool, ...] = tuple(k == VASE for k in kind)
        self.position_of: tuple[int, ...] = tuple(position_of)
        last = GRID_SIZE - 1
        self.on_border: tuple[bool, ...] = tuple(x in (0, last) or y in (0, last) for x, y in xy)
        """Outer border of the castle (2.2: local row 0 and local column 0 of every position)."""
        self.board_rc: tuple[tuple[int, int], ...] = tuple(board_rc)
        """Physical local (r, c) of each square on its own board (before any rotation)."""
        self.passages: tuple[int, ...] = tuple(s for s in range(NUM_SQUARES) if self.passage[s])
        self.vase_squares: tuple[int, ...] = tuple(
            s for s in range(NUM_SQUARES) if self.vase_icon[s]
        )
        self.squares_at: tuple[tuple[int, ...], ...] = _tuples(
            [s for s in range(NUM_SQUARES) if position_of[s] == p] for p in range(4)
        )
        self.passages_at: tuple[tuple[int, ...], ...] = _tuples(
            [s for s in self.passages if position_of[s] == p] for p in range(4)
        )

        # ---- adjacency on the global grid (the garden and the outside are not squares)
        def around(steps: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
            out = []
            for x, y in xy:
                near = [index[(x + dx, y + dy)] for dx, dy in steps if is_square(x + dx, y + dy)]
                out.append(tuple(sorted(near)))
            return tuple(out)

        orth = ((0, -1), (1, 0), (0, 1), (-1, 0))
        self.neighbours: tuple[tuple[int, ...], ...] = around(orth)
        self.diagonals: tuple[tuple[int, ...], ...] = around(((-1, -1), (1, -1), (1, 1), (-1, 1)))
        jumps = []
        for x, y in xy:
            row = []
            for dx, dy in orth:
                over, land = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
                if is_square(*over) and is_square(*land):
                    row.append((index[over], index[land]))
            jumps.append(tuple(sorted(row, key=lambda ol: ol[1])))
        self.jumps: tuple[tuple[tuple[int, int], ...], ...] = tuple(jumps)
        # the landing squares of ``jumps``, per square, in the same order
        self.landings: tuple[tuple[int, ...], ...] = tuple(
            tuple(land for _over, land in row) for row in jumps
        )

        self._build_zones()

    # ------------------------------------------------------------------------------- zones (2.4)
    def _build_zones(self) -> None:
        side = self.layout.side
        zone_of = [-1] * NUM_SQUARES
        zones: list[tuple[int, ...]] = []
        names: list[str] = []
        zone_colour: list[int] = []
        zone_passage: list[bool] = []
        zone_position: list[int] = []
        for pos in range(4):
            board_name = BOARD_NAMES[self.layout.boards[pos]]
            # squares of this board in physical local reading order (r, then c)
            order = sorted(self.squares_at[pos], key=lambda s: self.board_rc[s])
            found: list[tuple[tuple[int, ...], int, bool]] = []  # (cells, colour, is passage)
            seen: set[int] = set()
            for start in order:
                if start in seen:
                    continue
                if self.passage[start]:
                    seen.add(start)
                    found.append(((start,), self.colour[start], True))
                    continue
                cells = {start}
                queue = deque([start])
                while queue:
                    s = queue.popleft()
                    for n in self.neighbours[s]:
                        if (
                            n not in cells
                            and self.position_of[n] == pos
                            and not self.passage[n]
                            and self.colour[n] == self.colour[start]
                        ):
                            cells.add(n)
                            queue.append(n)
                seen |= cells
                found.append((tuple(sorted(cells)), self.colour[start], False))
            # `found` is already in order of each zone's first cell in local reading order
            colour_total = {
                col: sum(1 for _, c, p in found if c == col and not p) for col in range(6)
            }
            colour_seen = dict.fromkeys(range(6), 0)
            passage_seen = 0
            for zone_cells, col, is_passage in found:
                if is_passage:
                    passage_seen += 1
                    name = f"{board_name}-{side} passage-{passage_seen}"
                else:
                    colour_seen[col] += 1
                    name = f"{board_name}-{side} {COLOURS[col]}"
                    if colour_total[col] > 1:
                        name += f"-{colour_seen[col]}"
                zid = len(zones)
                for s in zone_cells:
                    zone_of[s] = zid
                zones.append(zone_cells)
                names.append(name)
                zone_colour.append(-1 if is_passage else col)
                zone_passage.append(is_passage)
                zone_position.append(pos)

        if self.merge_seams:
            zones, names, zone_colour, zone_passage, zone_position = _merge_across_seams(
                self, zone_of, zones, names, zone_colour, zone_passage, zone_position
            )
        self.num_zones: int = len(zones)
        self.zone_of: tuple[int, ...] = tuple(zone_of)
        self.zone_squares: tuple[tuple[int, ...], ...] = tuple(zones)
        self.zone_names: tuple[str, ...] = tuple(names)
        self.zone_colour: tuple[int, ...] = tuple(zone_colour)
        self.zone_is_passage: tuple[bool, ...] = tuple(zone_passage)
        self.zone_position: tuple[int, ...] = tuple(zone_position)
        self.zone_positions: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted({self.position_of[s] for s in cells})) for cells in zones
        )
        adjacent: list[set[int]] = [set() for _ in zones]
        for s in range(NUM_SQUARES):
            for n in self.neighbours[s]:
                a, b = zone_of[s], zone_of[n]
                if a != b:
                    adjacent[a].add(b)
        self.zone_neighbours: tuple[tuple[int, ...], ...] = _tuples(sorted(z) for z in adjacent)
        self._zone_by_name = {name: z for z, name in enumerate(names)}

    # ------------------------------------------------------------------------------------- lookups
    def label(self, sq: int) -> str:
        """Global label of a square, e.g. 0 -> "A1"."""
        if not (0 <= sq < NUM_SQUARES):
            raise KeyError(f"square index must be 0..{NUM_SQUARES - 1}, got {sq!r}")
        return self.labels[sq]

    def square(self, label: str) -> int:
        """Square index of a global label such as "C4" (case-insensitive)."""
        try:
            return self._by_label[label.strip().upper()]
        except (KeyError, AttributeError):
            raise KeyError(
                f"{label!r} is not a floor square (columns A-K, rows 1-11, the garden D4-H8 "
                "is not a square)"
            ) from None

    def zone(self, name: str) -> int:
        """Zone id of a zone name such as "II-B blue-2"."""
        try:
            return self._zone_by_name[name]
        except KeyError:
            raise KeyError(f"no zone named {name!r} in layout {self.layout.describe()}") from None

    def local_square(self, position: int, r: int, c: int) -> int:
        """The square at physical local (r, c) of the board at `position` (rotation applied)."""
        try:
            return self._local_sq[(position, r, c)]
        except KeyError:
            raise KeyError(f"no local cell ({r}, {c}) at position {position!r}") from None

    def cell_text(self, sq: int) -> str:
        """Default 2-character cell text: colour letter + type ('.', 'S' or 'V')."""
        kind = PASSAGE if self.passage[sq] else VASE if self.vase_icon[sq] else "."
        return COLOUR_LETTERS[self.colour[sq]] + kind

    _zone_distances: tuple[tuple[int, ...], ...] | None = None

    @property
    def zone_distances(self) -> tuple[tuple[int, ...], ...]:
        """All-pairs shortest path lengths in the zone graph (-1 when unreachable; computed at
        the first read)."""
        if self._zone_distances is None:
            self._zone_distances = self._all_zone_distances()
        return self._zone_distances

    def _all_zone_distances(self) -> tuple[tuple[int, ...], ...]:
        out = []
        for start in range(self.num_zones):
            dist = [-1] * self.num_zones
            dist[start] = 0
            queue = deque([start])
            while queue:
                z = queue.popleft()
                for n in self.zone_neighbours[z]:
                    if dist[n] < 0:
                        dist[n] = dist[z] + 1
                        queue.append(n)
            out.append(tuple(dist))
        return tuple(out)

    def render_grid(
        self,
        cell: Callable[[int], str] | None = None,
        garden: str = "#",
        garden_label: str = "",
    ) -> str:
        """The 11 x 11 map in the format of sheet 2.7 ('##' is the garden).

        `cell(sq)` gives each square's text (default ``cell_text``); all cells are padded to the
        width of the widest one and the column letters are right-aligned over them. The garden
        cells are filled with the character ``garden``; ``garden_label`` is written centred on
        the garden's middle row.
        """
        cell = cell or self.cell_text
        texts = [str(cell(s)) for s in range(NUM_SQUARES)]
        shown = [len(_ANSI_ESCAPE.sub("", t)) for t in texts]  # colour escapes take no room
        width = max(2, *shown)
        lines = ["    " + " ".join(letter.rjust(width) for letter in COLUMN_LETTERS)]
        span = (GARDEN_MAX - GARDEN_MIN + 1) * (width + 1) - 1
        for y in range(GRID_SIZE):
            row = []
            for x in range(GRID_SIZE):
                if is_square(x, y):
                    i = self._index[(x, y)]
                    row.append(texts[i] + " " * (width - shown[i]))
                elif x == GARDEN_MIN:
                    mid = y == (GARDEN_MIN + GARDEN_MAX) // 2 and garden_label
                    plain = " ".join([garden * width] * (GARDEN_MAX - GARDEN_MIN + 1))
                    fill = f" {garden_label} ".center(span, garden) if mid else plain
                    row.append(fill)
            lines.append(f"{y + 1:2d}  " + " ".join(row).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        merged = ", zones merged across seams" if self.merge_seams else ""
        return f"Board({self.layout.describe()}{merged})"


def _merge_across_seams(
    board: Board,
    zone_of: list[int],
    zones: list[tuple[int, ...]],
    names: list[str],
    colours: list[int],
    passages: list[bool],
    positions: list[int],
) -> tuple[list[tuple[int, ...]], list[str], list[int], list[bool], list[int]]:
    """Join same-colour colour zones touching across a seam (variant, sheet 2.4); ``zone_of``
    is rewritten in place. Merged zones keep the order of their first part."""
    parent = list(range(len(zones)))

    def root(z: int) -> int:
        while parent[z] != z:
            parent[z] = parent[parent[z]]
            z = parent[z]
        return z

    for sq in range(NUM_SQUARES):
        for n in board.neighbours[sq]:
            a, b = zone_of[sq], zone_of[n]
            if (
                board.position_of[sq] != board.position_of[n]
                and not passages[a]
                and not passages[b]
                and colours[a] == colours[b]
            ):
                ra, rb = root(a), root(b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for z in range(len(zones)):
        groups.setdefault(root(z), []).append(z)
    order = sorted(groups)  # by the smallest (first) part id
    new_id = {z: i for i, r in enumerate(order) for z in groups[r]}
    for sq in range(NUM_SQUARES):
        zone_of[sq] = new_id[zone_of[sq]]
    return (
        [tuple(sorted(s for z in groups[r] for s in zones[z])) for r in order],
        ["+".join(names[z] for z in groups[r]) for r in order],
        [colours[r] for r in order],
        [passages[r] for r in order],
        [positions[r] for r in order],
    )


@lru_cache(maxsize=1024)
def get_board(layout: Layout, merge_seams: bool = False) -> Board:
    """The (cached) Board of a layout (24 + 384 layouts), zones merged across seams or not."""
    return Board(layout, merge_seams)


_BOARDS_OF_LISTS: Final[dict[tuple[bytes, bool], Board]] = {}


def board_of_list(data: list[Any], merge_seams: bool) -> Board:
    """The Board of a layout in its list form (a state's ``layout`` field): checked and built
    by :meth:`Layout.from_list` and :func:`get_board` the first time, then found by the list's
    exact bytes (``marshal``, which tells a bool from an int and refuses what is not plain
    data), so that a state sampled or restored with a layout seen before skips both."""
    try:
        key = (marshal.dumps(data), merge_seams)
    except ValueError:  # not plain data (numpy ints): checked every time
        return get_board(Layout.from_list(data), merge_seams)
    board = _BOARDS_OF_LISTS.get(key)
    if board is None:
        board = get_board(Layout.from_list(data), merge_seams)
        if len(_BOARDS_OF_LISTS) < 4096:
            _BOARDS_OF_LISTS[key] = board
    return board
