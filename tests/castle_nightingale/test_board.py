"""Castle Nightingale board geometry against data sheet section 2 (games/castle_nightingale.md)."""

from __future__ import annotations

import json
import re
from collections import Counter, deque

import numpy as np
import pytest

from boardgames_rl.games.castle_nightingale.board import (
    FIRST_GAME_LAYOUT,
    Board,
    Layout,
    all_layouts,
    board_of_list,
    get_board,
    local_to_xy,
    random_layout,
    reference_layout,
)
from boardgames_rl.games.castle_nightingale.data import (
    BOARD_NAMES,
    BOARD_SIDES,
    COLOUR_LETTERS,
    COLOURS,
    POSITIONS,
)

# ------------------------------------------------------------------ sheet 2.7, copied verbatim
MAP_A = """\
     A  B  C  D  E  F  G  H  I  J  K
 1  B. B. W. WV W. G. GV Y. P. P. P.
 2  B. P. P. W. G. G. Y. Y. R. R. PV
 3  B. BS P. P. G. Y. Y. YS R. R. G.
 4  W. W. W. ## ## ## ## ## RS G. G.
 5  RV W. RS ## ## ## ## ## G. G. G.
 6  R. R. R. ## ## ## ## ## Y. Y. YV
 7  BS B. B. ## ## ## ## ## W. WS Y.
 8  B. B. P. ## ## ## ## ## W. W. Y.
 9  B. P. P. Y. Y. WS B. P. P. P. R.
10  GV P. G. Y. Y. W. B. B. R. PS R.
11  G. G. G. Y. WV W. B. B. RV R. R."""

MAP_B = """\
     A  B  C  D  E  F  G  H  I  J  K
 1  Y. Y. R. R. W. W. W. B. Y. Y. B.
 2  Y. YS R. R. G. GV B. B. YS Y. B.
 3  W. W. WV R. GS G. B. B. P. PV B.
 4  RS G. GV ## ## ## ## ## P. P. P.
 5  R. G. G. ## ## ## ## ## R. R. R.
 6  R. P. P. ## ## ## ## ## B. R. R.
 7  P. PV P. ## ## ## ## ## B. GV G.
 8  R. Y. Y. ## ## ## ## ## BS G. G.
 9  R. Y. YS B. BS G. G. P. PV P. W.
10  R. W. W. BV B. G. G. Y. Y. W. W.
11  W. W. W. B. P. P. P. Y. Y. WS W."""

PASSAGES_AND_VASES = {
    "A": ("B3 H3 I4 C5 A7 J7 F9 J10", "D1 G1 K2 A5 K6 A10 E11 I11"),
    "B": ("B2 I2 E3 A4 I8 C9 E9 J11", "F2 C3 J3 C4 B7 J7 I9 D10"),
}

# ---------------------------------------------------------- sheet 2.6 zone lists, copied verbatim
ZONE_LISTS = """
I-A:   blue{00 01 10 20} white{02 03 04 13} green{05 06 14 15 24} yellow{07 16 17 25 26}
       purple{11 12 22 23} passage-1{21 blue} passage-2{27 yellow}                    vases 03 06
II-A:  purple{00 01 10 20} green{02 03 04 13 14 24} yellow{05 06 07 15 25} red{11 12 21 22}
       white{17 26 27} passage-1{16 white} passage-2{23 red}                           vases 01 05
III-A: red{00 01 02 10 12 20} blue{03 04 13 14 24} white{05 06 15} yellow{07 16 17 26 27}
       purple{21 22 23} passage-1{11 purple} passage-2{25 white}                       vases 02 06
IV-A:  green{00 01 10 20 21} blue{02 03 13 14 24} red{05 06 15 25} white{07 16 17 27}
       purple{11 12 22 23} passage-1{04 blue} passage-2{26 red}                        vases 01 06
I-B:   yellow{00 01 10} red{02 03 12 13 23} white-1{04 05 06} blue{07 16 17 26 27}
       green{14 15 25} white-2{20 21 22} passage-1{11 yellow} passage-2{24 green}      vases 15 22
II-B:  blue-1{00 01 02} purple{03 12 13 22 23} red{04 05 14 15 24} green{06 07 16 17}
       yellow{10 11 20} blue-2{25 26} passage-1{21 yellow} passage-2{27 blue}         vases 12 16
III-B: white{00 10 11 20} yellow{02 03 12 13} purple-1{04 05 06} blue{07 16 17 27}
       green{14 15 24 25} purple-2{21 22 23} passage-1{01 white} passage-2{26 blue}   vases 17 22
IV-B:  white{00 10 11 20 21} red-1{01 02 03} purple{04 14 15 24 25} red-2{05 06}
       yellow{12 13 23} green{16 17 26 27} passage-1{07 red} passage-2{22 yellow}     vases 14 27
"""

# the bracketed colour counts of the 2.6 headings (passage squares included)
COLOUR_COUNTS = {
    ("I", "A"): "B5 G5 P4 W4 Y6",
    ("I", "B"): "B5 G4 R5 W6 Y4",
    ("II", "A"): "G6 P4 R5 W4 Y5",
    ("II", "B"): "B6 G4 P5 R5 Y4",
    ("III", "A"): "B5 P4 R6 W4 Y5",
    ("III", "B"): "B5 G4 P6 W5 Y4",
    ("IV", "A"): "B6 G5 P4 R5 W4",
    ("IV", "B"): "G4 P5 R6 W5 Y4",
}

BOARD_SIDE_KEYS = [(name, side) for side in "AB" for name in BOARD_NAMES]
ALL_LAYOUTS = {side: all_layouts(side) for side in "AB"}


def parse_zone_lists() -> dict[tuple[str, str], tuple[dict, set[str]]]:
    """{(board, side): ({zone name: (frozenset of "rc" cells, passage colour or None)}, vases)}."""
    out = {}
    for block in re.split(r"\n(?=\S)", ZONE_LISTS.strip()):
        head, body = block.split(":", 1)
        board, side = head.split("-")
        zones = {}
        for name, inside in re.findall(r"([a-z]+(?:-\d)?)\{([^}]*)\}", body):
            items = inside.split()
            if name.startswith("passage"):
                assert len(items) == 2, block
                zones[name] = (frozenset(items[:1]), items[1])
            else:
                zones[name] = (frozenset(items), None)
        vases = set(re.search(r"vases ((?:\d\d ?)+)", body).group(1).split())
        out[(board, side)] = (zones, vases)
    return out


def rc(board: Board, sq: int) -> str:
    r, c = board.board_rc[sq]
    return f"{r}{c}"


def is_connected(nodes, neighbours) -> bool:
    nodes = set(nodes)
    if not nodes:
        return True
    start = next(iter(nodes))
    seen = {start}
    queue = deque([start])
    while queue:
        n = queue.popleft()
        for m in neighbours(n):
            if m in nodes and m not in seen:
                seen.add(m)
                queue.append(m)
    return seen == nodes


# ------------------------------------------------------------------------------- data tables (2.6)
def test_data_constants():
    assert COLOURS == ("red", "blue", "green", "yellow", "purple", "white")
    assert COLOUR_LETTERS == ("R", "B", "G", "Y", "P", "W")
    assert BOARD_NAMES == ("I", "II", "III", "IV")
    assert POSITIONS == ("N", "E", "S", "W")
    assert set(BOARD_SIDES) == set(BOARD_SIDE_KEYS)
    for rows in BOARD_SIDES.values():
        assert len(rows) == 3
        for row in rows:
            cells = row.split(" ")
            assert len(cells) == 8 and all(len(c) == 2 for c in cells)
            assert all(c[0] in COLOUR_LETTERS and c[1] in ".SV" for c in cells)


@pytest.mark.parametrize("key", BOARD_SIDE_KEYS)
def test_heading_colour_counts_match_grid(key):
    counts = Counter(cell[0] for row in BOARD_SIDES[key] for cell in row.split())
    expected = {item[0]: int(item[1:]) for item in COLOUR_COUNTS[key].split()}
    assert dict(counts) == expected
    assert len(counts) == 5  # 2.3: every board side shows exactly five colours


# ---------------------------------------------------------------------------- reference maps (2.7)
@pytest.mark.parametrize(("side", "expected"), [("A", MAP_A), ("B", MAP_B)])
def test_reference_maps_cell_by_cell(side, expected):
    board = get_board(reference_layout(side))
    assert board.render_grid() == expected
    rows = expected.splitlines()[1:]
    for y, row in enumerate(rows):
        cells = row[4:].split(" ")
        assert len(cells) == 11
        for x, cell in enumerate(cells):
            label = f"{'ABCDEFGHIJK'[x]}{y + 1}"
            if cell == "##":
                with pytest.raises(KeyError, match="garden"):
                    board.square(label)
                continue
            sq = board.square(label)
            assert board.xy[sq] == (x, y)
            assert COLOUR_LETTERS[board.colour[sq]] == cell[0], label
            assert board.passage[sq] == (cell[1] == "S"), label
            assert board.vase_icon[sq] == (cell[1] == "V"), label


def test_first_game_layout_is_side_a_reference():
    assert reference_layout("A") == FIRST_GAME_LAYOUT
    assert Layout("A", (0, 1, 2, 3), (False,) * 4) == FIRST_GAME_LAYOUT
    assert get_board(FIRST_GAME_LAYOUT) is get_board(reference_layout("A"))


@pytest.mark.parametrize("side", ["A", "B"])
def test_reference_passages_and_vases(side):
    board = get_board(reference_layout(side))
    passages, vases = PASSAGES_AND_VASES[side]
    assert {board.label(s) for s in board.passages} == set(passages.split())
    assert {board.label(s) for s in board.vase_squares} == set(vases.split())
    assert list(board.passages) == sorted(board.passages)
    assert list(board.vase_squares) == sorted(board.vase_squares)


def test_render_grid_custom_cells():
    board = get_board(FIRST_GAME_LAYOUT)
    text = board.render_grid(lambda s: str(s))
    lines = text.splitlines()
    assert lines[0] == "    " + " ".join(f" {c}" for c in "ABCDEFGHIJK")
    assert lines[1].split()[1:] == [str(s) for s in range(11)]
    assert lines[4].split() == ["4", "33", "34", "35", *["##"] * 5, "36", "37", "38"]


# ------------------------------------------------------------------------------- squares, labels
def test_square_indexing_and_labels():
    board = get_board(FIRST_GAME_LAYOUT)
    assert board.num_squares == 96 == len(board.labels) == len(board.xy)
    assert board.labels[:12] == tuple(f"{c}1" for c in "ABCDEFGHIJK") + ("A2",)
    assert board.labels[33:39] == ("A4", "B4", "C4", "I4", "J4", "K4")
    assert board.labels[-1] == "K11"
    assert list(board.xy) == sorted(board.xy, key=lambda p: (p[1], p[0]))
    for sq, label in enumerate(board.labels):
        assert board.square(label) == sq and board.label(sq) == label
    assert board.square("c4") == board.square("C4")
    for bad in ("D4", "H8", "F6", "L1", "A12", "A0", "", "xyz"):
        with pytest.raises(KeyError):
            board.square(bad)
    with pytest.raises(KeyError):
        board.label(96)


def test_positions_cover_the_sheet_ranges():
    board = get_board(FIRST_GAME_LAYOUT)
    ranges = {0: ("A1", "H3"), 1: ("I1", "K8"), 2: ("D9", "K11"), 3: ("A4", "C11")}  # 2.2 table
    for pos, (first, last) in ranges.items():
        (x0, y0), (x1, y1) = board.xy[board.square(first)], board.xy[board.square(last)]
        expected = {
            board.square(f"{'ABCDEFGHIJK'[x]}{y + 1}")
            for x in range(x0, x1 + 1)
            for y in range(y0, y1 + 1)
        }
        assert set(board.squares_at[pos]) == expected
        assert len(board.squares_at[pos]) == 24
        assert all(board.position_of[s] == pos for s in expected)


def test_local_to_global_mapping_table():
    # the table of 2.2, corners of every position
    assert local_to_xy(0, 0, 0) == (0, 0) and local_to_xy(0, 2, 7) == (7, 2)  # N: A1, H3
    assert local_to_xy(1, 0, 0) == (10, 0) and local_to_xy(1, 2, 7) == (8, 7)  # E: K1, I8
    assert local_to_xy(2, 0, 0) == (10, 10) and local_to_xy(2, 2, 7) == (3, 8)  # S: K11, D9
    assert local_to_xy(3, 0, 0) == (0, 10) and local_to_xy(3, 2, 7) == (2, 3)  # W: A11, C4
    # rotation first maps (r, c) -> (2 - r, 7 - c)
    for pos in range(4):
        for r in range(3):
            for c in range(8):
                assert local_to_xy(pos, r, c, True) == local_to_xy(pos, 2 - r, 7 - c)
    with pytest.raises(ValueError):
        local_to_xy(4, 0, 0)
    with pytest.raises(ValueError):
        local_to_xy(0, 3, 0)


def test_rotated_board_placement():
    layout = Layout("B", (2, 0, 3, 1), (True, False, False, True))
    board = get_board(layout)
    # board III (side B) rotated at N: its physical (0, 0) lies at position-local (2, 7) = H3
    sq = board.local_square(0, 0, 0)
    assert board.label(sq) == "H3" and board.board_rc[sq] == (0, 0)
    assert board.cell_text(sq) == BOARD_SIDES[("III", "B")][0].split()[0]
    # board IV rotated at W: physical (2, 7) -> position-local (0, 0) = A11
    assert board.label(board.local_square(3, 2, 7)) == "A11"
    # board I unrotated at E: physical (0, 0) = K1
    assert board.label(board.local_square(1, 0, 0)) == "K1"
    for pos in range(4):
        rows = BOARD_SIDES[(BOARD_NAMES[layout.boards[pos]], "B")]
        for r in range(3):
            for c in range(8):
                assert board.cell_text(board.local_square(pos, r, c)) == rows[r].split()[c]


def test_outer_border():
    board = get_board(FIRST_GAME_LAYOUT)
    border = {s for s in range(96) if board.on_border[s]}
    assert len(border) == 40
    expected = set()
    for pos in range(4):
        for r in range(3):
            for c in range(8):
                if r == 0 or c == 0:
                    expected.add(board.local_square(pos, r, c))
    assert border == expected


# -------------------------------------------------------------------------------- adjacency, seams
def test_seams_follow_the_sheet_rule():
    # (r, 7) of each board touches the next board clockwise at (2, r), in the position frame
    for pos in range(4):
        nxt = (pos + 1) % 4
        for r in range(3):
            (x0, y0), (x1, y1) = local_to_xy(pos, r, 7), local_to_xy(nxt, 2, r)
            assert abs(x0 - x1) + abs(y0 - y1) == 1


def test_seams_first_game_labels():
    board = get_board(FIRST_GAME_LAYOUT)
    expected = {
        frozenset(p)
        for p in [
            ("H1", "I1"), ("H2", "I2"), ("H3", "I3"),  # N (r,7) - E (2,r)
            ("K8", "K9"), ("J8", "J9"), ("I8", "I9"),  # E (r,7) - S (2,r)
            ("D11", "C11"), ("D10", "C10"), ("D9", "C9"),  # S (r,7) - W (2,r)
            ("A4", "A3"), ("B4", "B3"), ("C4", "C3"),  # W (r,7) - N (2,r)
        ]
    }  # fmt: skip
    seams = {
        frozenset((board.label(s), board.label(n)))
        for s in range(96)
        for n in board.neighbours[s]
        if board.position_of[s] != board.position_of[n]
    }
    assert seams == expected
    for pos in range(4):
        nxt = (pos + 1) % 4
        for r in range(3):
            assert board.local_square(nxt, 2, r) in board.neighbours[board.local_square(pos, r, 7)]


@pytest.mark.parametrize("side", ["A", "B"])
def test_seams_in_every_layout(side):
    for layout in ALL_LAYOUTS[side]:
        board = get_board(layout)
        contacts = [
            (s, n)
            for s in range(96)
            for n in board.neighbours[s]
            if board.position_of[s] != board.position_of[n]
        ]
        assert len(contacts) == 24  # 4 seams x 3 contacts, both directions


def test_neighbours_diagonals_and_jumps():
    board = get_board(FIRST_GAME_LAYOUT)
    garden = {(x, y) for x in range(3, 8) for y in range(3, 8)}
    for s in range(96):
        x, y = board.xy[s]
        for n in board.neighbours[s]:
            assert abs(board.xy[n][0] - x) + abs(board.xy[n][1] - y) == 1
            assert s in board.neighbours[n]
        for n in board.diagonals[s]:
            assert abs(board.xy[n][0] - x) == 1 == abs(board.xy[n][1] - y)
            assert s in board.diagonals[n]
        for over, land in board.jumps[s]:
            ox, oy = board.xy[over]
            lx, ly = board.xy[land]
            assert (ox - x, oy - y) in ((0, 1), (0, -1), (1, 0), (-1, 0))
            assert (lx - x, ly - y) == (2 * (ox - x), 2 * (oy - y))
            assert (ox, oy) not in garden and (lx, ly) not in garden
            assert over in board.neighbours[s] and over in board.neighbours[land]
            assert (over, s) in board.jumps[land]
        # every straight jump whose over and land cells are both squares is listed
        expected = 0
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            cells = [(x + dx, y + dy), (x + 2 * dx, y + 2 * dy)]
            if all(0 <= a <= 10 and 0 <= b <= 10 and (a, b) not in garden for a, b in cells):
                expected += 1
        assert len(board.jumps[s]) == expected
    sq = board.square
    assert board.neighbours[sq("C4")] == tuple(sorted((sq("C3"), sq("B4"), sq("C5"))))
    assert board.diagonals[sq("C3")] == tuple(sorted((sq("B2"), sq("D2"), sq("B4"))))
    assert {board.label(land) for _, land in board.jumps[sq("C4")]} == {"C2", "A4", "C6"}
    assert {board.label(land) for _, land in board.jumps[sq("D3")]} == {"D1", "B3", "F3"}
    assert board.jumps[sq("I6")] == tuple(
        sorted(
            ((sq("I5"), sq("I4")), (sq("I7"), sq("I8")), (sq("J6"), sq("K6"))), key=lambda j: j[1]
        )
    )
    assert len(board.neighbours[sq("A1")]) == 2


# ----------------------------------------------------------------------------------- zones (2.4)
@pytest.mark.parametrize("key", BOARD_SIDE_KEYS)
def test_zone_lists_match_sheet(key):
    name, side = key
    zones_expected, vases_expected = parse_zone_lists()[key]
    board_id = BOARD_NAMES.index(name)
    board = get_board(reference_layout(side))  # board i lies at position i
    got = {}
    for z in range(board.num_zones):
        if board.zone_position[z] != board_id:
            continue
        zone_name = board.zone_names[z]
        assert zone_name.startswith(f"{name}-{side} ")
        cells = frozenset(rc(board, s) for s in board.zone_squares[z])
        if board.zone_is_passage[z]:
            assert board.zone_colour[z] == -1
            (s,) = board.zone_squares[z]
            got[zone_name.split(" ")[1]] = (cells, COLOURS[board.colour[s]])
        else:
            assert all(
                COLOURS[board.colour[s]] == COLOURS[board.zone_colour[z]]
                for s in board.zone_squares[z]
            )
            assert zone_name.split(" ")[1].split("-")[0] == COLOURS[board.zone_colour[z]]
            got[zone_name.split(" ")[1]] = (cells, None)
    assert got == zones_expected
    vases = {rc(board, s) for s in board.squares_at[board_id] if board.vase_icon[s]}
    assert vases == vases_expected
    # the zones partition the board
    assert sorted(c for cells, _ in got.values() for c in cells) == sorted(
        f"{r}{c}" for r in range(3) for c in range(8)
    )


def test_zone_names_examples():
    board_b = get_board(reference_layout("B"))
    z = board_b.zone("II-B blue-2")
    assert {rc(board_b, s) for s in board_b.zone_squares[z]} == {"25", "26"}
    board_a = get_board(FIRST_GAME_LAYOUT)
    z = board_a.zone("III-A passage-1")
    assert board_a.zone_is_passage[z] and [rc(board_a, s) for s in board_a.zone_squares[z]] == [
        "11"
    ]
    with pytest.raises(KeyError):
        board_a.zone("II-B blue-2")


@pytest.mark.parametrize("side", ["A", "B"])
def test_zone_identity_and_ordering_in_every_layout(side):
    reference = get_board(reference_layout(side))
    ref_zones = {
        reference.zone_names[z]: frozenset(reference.board_rc[s] for s in reference.zone_squares[z])
        for z in range(reference.num_zones)
    }
    for layout in ALL_LAYOUTS[side]:
        board = get_board(layout)
        assert board.num_zones == (28 if side == "A" else 32)
        zones = {
            board.zone_names[z]: frozenset(board.board_rc[s] for s in board.zone_squares[z])
            for z in range(board.num_zones)
        }
        assert zones == ref_zones  # names and cells do not depend on placement or rotation
        keys = [
            (board.zone_position[z], min(board.board_rc[s] for s in board.zone_squares[z]))
            for z in range(board.num_zones)
        ]
        assert keys == sorted(keys)
        for s in range(96):
            z = board.zone_of[s]
            assert s in board.zone_squares[z]
            assert board.zone_position[z] == board.position_of[s]
            assert board.zone_is_passage[z] == board.passage[s]
            if not board.passage[s]:
                assert board.zone_colour[z] == board.colour[s]
        for pos in range(4):
            names = [
                board.zone_names[z] for z in range(board.num_zones) if board.zone_position[z] == pos
            ]
            prefix = f"{BOARD_NAMES[layout.boards[pos]]}-{side} "
            assert all(n.startswith(prefix) for n in names)
            assert len(names) == (7 if side == "A" else 8)
            assert sum("passage" in n for n in names) == 2


def test_zone_adjacency_definition():
    for layout in (FIRST_GAME_LAYOUT, Layout("B", (3, 1, 0, 2), (True, False, True, True))):
        board = get_board(layout)
        expected = [set() for _ in range(board.num_zones)]
        for s in range(96):
            for n in board.neighbours[s]:
                if board.zone_of[s] != board.zone_of[n]:
                    expected[board.zone_of[s]].add(board.zone_of[n])
        assert [set(n) for n in board.zone_neighbours] == expected
        for z, near in enumerate(board.zone_neighbours):
            assert list(near) == sorted(near) and z not in near
            for y in near:
                assert z in board.zone_neighbours[y]
        # passage-to-passage travel gives no adjacency: passages only touch what they touch
        for p in board.passages:
            zp = board.zone_of[p]
            assert set(board.zone_neighbours[zp]) == {board.zone_of[n] for n in board.neighbours[p]}
    # a cross-seam adjacency in the first-game layout: H1 (I-A yellow) touches I1 (II-A purple)
    board = get_board(FIRST_GAME_LAYOUT)
    zy, zp = board.zone("I-A yellow"), board.zone("II-A purple")
    assert zp in board.zone_neighbours[zy]
    assert board.zone_of[board.square("H1")] == zy and board.zone_of[board.square("I1")] == zp


# ------------------------------------------------------------------------ playability checks (2.8)
@pytest.mark.parametrize("key", BOARD_SIDE_KEYS)
def test_every_board_side(key):
    name, side = key
    board = get_board(reference_layout(side))
    pos = BOARD_NAMES.index(name)
    squares = board.squares_at[pos]
    passages = [s for s in squares if board.passage[s]]
    vases = [s for s in squares if board.vase_icon[s]]
    assert len(passages) == 2 and len(vases) == 2 and not set(passages) & set(vases)
    assert tuple(passages) == board.passages_at[pos]
    assert len({board.colour[s] for s in squares}) == 5
    zones = sorted({board.zone_of[s] for s in squares})
    colour_zones = [z for z in zones if not board.zone_is_passage[z]]
    assert len(colour_zones) == (5 if side == "A" else 6)
    if side == "B":  # one colour split in two
        split = Counter(board.zone_colour[z] for z in colour_zones)
        assert sorted(split.values()) == [1, 1, 1, 1, 2]
    # every colour zone is connected, and it stays connected without the passage squares
    for z in colour_zones:
        assert is_connected(board.zone_squares[z], lambda s: board.neighbours[s])
    # the board's zones are connected, with and without the passage zones
    assert is_connected(zones, lambda z: board.zone_neighbours[z])
    assert is_connected(colour_zones, lambda z: board.zone_neighbours[z])
    # and so are its squares, with and without the passage squares
    assert is_connected(squares, lambda s: board.neighbours[s])
    assert is_connected(set(squares) - set(passages), lambda s: board.neighbours[s])
    # no two zones of the same colour touch on one board
    for z in colour_zones:
        for y in board.zone_neighbours[z]:
            if y in colour_zones:
                assert board.zone_colour[y] != board.zone_colour[z]
    # a passage never joins two same-colour zones of its own colour
    for p in passages:
        same = {
            board.zone_of[n]
            for n in board.neighbours[p]
            if board.position_of[n] == pos
            and not board.passage[n]
            and board.colour[n] == board.colour[p]
        }
        assert len(same) <= 1
    # 2.5: side A vase icons lie on local row 0; side B vase icons lie off the outer border
    for s in vases:
        r, c = board.board_rc[s]
        if side == "A":
            assert r == 0
        else:
            assert r != 0 and c != 0


@pytest.mark.parametrize("side", ["A", "B"])
def test_every_allowed_layout(side):
    layouts = ALL_LAYOUTS[side]
    assert len(layouts) == (24 if side == "A" else 384)
    assert len(set(layouts)) == len(layouts)
    diameters = Counter()
    for layout in layouts:
        board = get_board(layout)
        assert Counter(board.colour) == {c: 16 for c in range(6)}
        assert is_connected(range(96), lambda s, b=board: b.neighbours[s])
        assert len(board.passages) == 8 and len(board.vase_squares) == 8
        assert all(len(p) == 2 for p in board.passages_at)
        assert all(len(near) >= 2 for near in board.zone_neighbours)
        dist = board.zone_distances
        assert all(d >= 0 for row in dist for d in row)  # the zone graph is connected
        diameter = max(max(row) for row in dist)
        diameters[diameter] += 1
        assert 8 <= diameter <= 9, layout
        if side == "A":
            assert not any(board.vase_icon[s] and not board.on_border[s] for s in range(96))
    assert set(diameters) == {8, 9}


def test_first_game_layout_has_no_same_colour_seam_contact():
    board = get_board(FIRST_GAME_LAYOUT)
    for s in range(96):
        for n in board.neighbours[s]:
            if board.position_of[s] != board.position_of[n]:
                assert board.colour[s] != board.colour[n], (board.label(s), board.label(n))


# ---------------------------------------------------------------------------------- layouts (2.5)
def test_layout_validation():
    with pytest.raises(ValueError, match="side"):
        Layout("C", (0, 1, 2, 3), (False,) * 4)
    with pytest.raises(ValueError, match="permutation"):
        Layout("A", (0, 0, 1, 2), (False,) * 4)
    with pytest.raises(ValueError, match="permutation"):
        Layout("B", (1, 2, 3, 4), (False,) * 4)
    with pytest.raises(ValueError, match="board ids"):
        Layout("A", (0, 1, 2), (False,) * 4)
    with pytest.raises(ValueError, match="board ids"):
        Layout("A", (True, False, 2, 3), (False,) * 4)
    with pytest.raises(ValueError, match="4 booleans"):
        Layout("B", (0, 1, 2, 3), (0, 1, 0, 1))
    with pytest.raises(ValueError, match="4 booleans"):
        Layout("B", (0, 1, 2, 3), (False,) * 3)
    with pytest.raises(ValueError, match="never rotated"):
        Layout("A", (0, 1, 2, 3), (False, True, False, False))
    layout = Layout("B", [3, 2, 1, 0], [True, False, False, True])
    assert layout.boards == (3, 2, 1, 0) and layout.rotated == (True, False, False, True)
    assert hash(layout) == hash(Layout("B", (3, 2, 1, 0), (True, False, False, True)))
    with pytest.raises(TypeError):
        Board("A")  # type: ignore[arg-type]


def test_layout_json_round_trip():
    for layout in (FIRST_GAME_LAYOUT, *ALL_LAYOUTS["B"][::37]):
        data = json.loads(json.dumps(layout.to_list()))
        assert Layout.from_list(data) == layout
    assert FIRST_GAME_LAYOUT.to_list() == ["A", [0, 1, 2, 3], [False, False, False, False]]
    with pytest.raises(ValueError):
        Layout.from_list(["A", [0, 1, 2, 3]])


def test_random_layout():
    def draws(side, seed):
        rng = np.random.default_rng(seed)
        return [random_layout(side, rng) for _ in range(300)]

    for side in "AB":
        assert draws(side, 7) == draws(side, 7)
        assert draws(side, 7) != draws(side, 8)
    side_a = draws("A", 1)
    assert all(not any(layout.rotated) for layout in side_a)
    assert all(layout.side == "A" for layout in side_a)
    assert len({layout.boards for layout in side_a}) == 24
    side_b = draws("B", 1)
    assert all(layout.side == "B" for layout in side_b)
    rotated = np.array([layout.rotated for layout in side_b])
    assert 0.4 < rotated.mean() < 0.6
    assert len({layout.boards for layout in side_b}) == 24
    assert all(layout in ALL_LAYOUTS["B"] for layout in side_b)
    with pytest.raises(ValueError):
        random_layout("C", np.random.default_rng(0))


def test_get_board_is_cached():
    layout = Layout("B", (1, 0, 3, 2), (False, True, True, False))
    assert get_board(layout) is get_board(Layout.from_list(layout.to_list()))
    assert repr(get_board(layout)) == "Board(B: N=II E=I* S=IV* W=III)"


def test_board_of_a_state_layout_is_found_by_its_exact_value():
    """A state's board is found by its layout list's exact bytes: a list seen before skips the
    checks, but one that differs only in types (ints for the rotated flags, numpy ints for the
    board ids) is still checked and refused, or built, as ``Layout.from_list`` would."""
    data = ["B", [1, 0, 3, 2], [False, True, True, False]]
    board = board_of_list(data, False)
    assert board is get_board(Layout.from_list(data), False)
    assert board_of_list(list(data), False) is board
    merged = board_of_list(data, True)
    assert merged is get_board(Layout.from_list(data), True)
    assert merged is not board
    with pytest.raises(ValueError, match="4 booleans"):
        board_of_list(["B", [1, 0, 3, 2], [0, 1, 1, 0]], False)
    assert board_of_list(["B", [np.int64(b) for b in (1, 0, 3, 2)], data[2]], False) is board
    with pytest.raises(ValueError, match="permutation"):
        board_of_list(["B", [np.int64(0)] * 4, data[2]], False)
    with pytest.raises(ValueError, match="never rotated"):
        board_of_list(["A", [1, 0, 3, 2], [False, True, True, False]], False)
