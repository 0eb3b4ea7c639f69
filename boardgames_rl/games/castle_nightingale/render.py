"""Text and image pictures of a Castle Nightingale state, from a player's view or omniscient.

Both are built from what the viewer may know (``player`` 0 = the ninja, 1 = the samurai,
``None`` = an observer who sees everything): the public board (floor colours, trap doors, vases
face down, footprint discs, figurines, face-up tiles, cards shown, discards, tokens used openly,
counts) plus that player's own hand, tokens, programmed card and tile, the vases it has looked
into and what it has learned. Every glyph of the text board is explained by the legend printed
under it (``MARKS``); every pending decision is named in words (``naming.DECISION_WORDS``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import (
    BANKED,
    COLOUR_LETTERS,
    COLOURS,
    FACE_UP,
    HAND,
    NINJA,
    NINJA_CARDS,
    NINJA_TOKENS,
    NINJAS,
    PROGRAMMED,
    RELICS_TO_WIN,
    SAMURAI,
    SAMURAI_CARDS,
    SAMURAI_TOKENS,
    STOLEN,
)
from boardgames_rl.games.castle_nightingale.naming import decision_words

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState

WIDTH = 100
"""Every line of the text board fits this many columns."""

MARKS: dict[str, str] = {
    ".": "floor",
    "V": "vase, contents unseen",
    "$": "vase holding a relic",
    "0": "empty vase",
    "@": "open trap door",
    "#": "closed trap door",
    "o": "footprint disc",
    "N": "ninja figurine",
    "S": "samurai figurine",
    "So": "samurai on a disc",
}
"""The second part of a board cell (after the floor-colour letter) -> its meaning."""

VIEW_NAMES = {None: "omniscient view", NINJA: "ninja's view", SAMURAI: "samurai's view"}
ROLE = ("ninja", "samurai")

_ANSI = {0: "\x1b[41m", 1: "\x1b[44m", 2: "\x1b[42m", 3: "\x1b[43m", 4: "\x1b[45m", 5: "\x1b[47m"}
_RGB = ("#e05252", "#4f7fd9", "#5cb85c", "#f0d24a", "#a46cc8", "#f4f4f4")
_VASE_UNSEEN, _VASE_RELIC, _VASE_EMPTY = "#7a4a1e", "#ffc400", "#d0d0d0"
_DISC = "#222222"


def _knows(state: CastleNightingaleState, viewer: int | None) -> list[bool]:
    if viewer is None:
        return [True] * len(state.vase_where)
    return list(state.ninja_knows if viewer == NINJA else state.samurai_knows)


def cell_mark(state: CastleNightingaleState, sq: int, viewer: int | None) -> str:
    """What ``viewer`` sees on square ``sq``: one of the keys of :data:`MARKS`."""
    b = state.board
    if sq == state.samurai_sq:
        return "So" if sq in state.discs else "S"  # a disc under him (variant keep_last_disc)
    if sq == state.ninja_sq:
        return "N"
    if sq in state.discs:
        return "o"
    if sq in state.vase_where:
        t = state.vase_where.index(sq)
        if _knows(state, viewer)[t]:
            return "$" if state.vase_content[t] else "0"
        return "V"
    if b.passage[sq]:
        return "#" if state.closed[b.passages.index(sq)] else "@"
    return "."


def _cell(state: CastleNightingaleState, sq: int, viewer: int | None) -> str:
    return COLOUR_LETTERS[state.board.colour[sq]] + cell_mark(state, sq, viewer)


def legend_lines(shown: set[str] | None = None) -> list[str]:
    """The legend printed under the text board: every glyph a cell can show, but "So" (the
    samurai on a disc, variant ``keep_last_disc`` only) only when ``shown`` holds it."""
    pairs = zip(COLOUR_LETTERS, COLOURS, strict=True)
    colours = ", ".join(f"{letter} {name}" for letter, name in pairs)
    marks = [
        f"{mark} {meaning}"
        for mark, meaning in MARKS.items()
        if mark != "So" or (shown is not None and mark in shown)
    ]
    lines = [f"legend: a cell is its floor colour ({colours})", "        then what lies on it:"]
    row = "         "
    for item in marks:
        if len(row) + len(item) + 3 > WIDTH:
            lines.append(row.rstrip(" |"))
            row = "         "
        row += item + " | "
    lines.append(row.rstrip(" |"))
    lines.append("        garden: nobody may enter or cross it; the samurai moves zone by zone")
    return lines


def _names(items, table) -> str:
    return ", ".join(table[i] if isinstance(table[i], str) else table[i].name for i in items)


def _cards(cards: list[int], table) -> str:
    return ", ".join(f"{table[c].name} (move {table[c].move})" for c in cards) or "-"


def _tile_lines(state: CastleNightingaleState, viewer: int | None) -> list[str]:
    face_up = [COLOURS[c] for c in range(6) if state.tile_loc[c] == FACE_UP]
    sang = [COLOURS[c] for c in range(6) if state.tile_revealed[c]]
    out = [
        f"tiles   : face up (safe this turn): {', '.join(face_up) or '-'} | "
        f"turned up this turn: {', '.join(sang) or '-'}"
    ]
    if viewer in (None, SAMURAI):
        programmed = [COLOURS[c] for c in range(6) if state.tile_loc[c] == PROGRAMMED]
        in_hand = [COLOURS[c] for c in range(6) if state.tile_loc[c] == HAND]
        who = "his" if viewer is None else "your"
        out.append(
            f"          {who} programmed tile: {', '.join(programmed) or '-'} | "
            f"in {who} hand: {', '.join(in_hand) or '-'}"
        )
    if viewer in (None, NINJA):
        sure = [COLOURS[c] for c in range(6) if state.tile_in[c]]
        safe = [COLOURS[c] for c in range(6) if state.tile_out[c]]
        who = "the ninja knows" if viewer is None else "you know"
        out.append(
            f"          {who}: programmed {', '.join(sure) or '-'} | "
            f"not programmed {', '.join(safe) or '-'}"
        )
    if state.listen_answers:
        answers = ", ".join(f"{COLOURS[c]} {'yes' if a else 'no'}" for c, a in state.listen_answers)
        out.append(f"          Listen at the Floor answers: {answers}")
    return out


def _vase_line(state: CastleNightingaleState, viewer: int | None) -> str:
    stolen = [t for t, w in enumerate(state.vase_where) if w == STOLEN]
    banked = [t for t, w in enumerate(state.vase_where) if w == BANKED]
    on_board = sum(1 for w in state.vase_where if w >= 0)
    line = f"vases   : {on_board} on the board | carried this turn {len(stolen)}"
    if viewer in (None, NINJA):
        line += f" ({_count(sum(state.vase_content[t] for t in stolen), 'relic')})"
    line += f" | banked {len(banked)}"
    if viewer in (None, NINJA):
        line += f" ({_count(state.banked_relics(), 'relic')})"
    line += f" | the ninja wins with {RELICS_TO_WIN} relics banked"
    return line


def _card_line(state: CastleNightingaleState, viewer: int | None) -> str:
    def played(card: int, shown: bool, owner: int, table) -> str:
        if card < 0:
            return "-"
        if shown:
            return f"{table[card].name} (shown)"
        if viewer in (None, owner):
            return f"{table[card].name} (face down)"
        return "a card face down"

    n = played(state.n_card, state.n_card_shown, NINJA, NINJA_CARDS)
    m = played(state.s_card, state.s_card_shown, SAMURAI, SAMURAI_CARDS)
    return f"played  : ninja {n} | samurai {m}"


def _hand_lines(state: CastleNightingaleState, viewer: int | None) -> list[str]:
    out = []
    for who in (NINJA, SAMURAI):
        hand, table = (state.n_hand, NINJA_CARDS) if who == NINJA else (state.s_hand, SAMURAI_CARDS)
        equip, tokens = (
            (state.n_equip, NINJA_TOKENS) if who == NINJA else (state.s_equip, SAMURAI_TOKENS)
        )
        label = f"{ROLE[who]:<8}:"
        if viewer in (None, who):
            out.append(
                f"{label} hand {_cards(hand, table)} | tokens {_names(equip, tokens) or '-'}"
            )
        else:
            line = f"{label} {_count(len(hand), 'card')} in hand, {_count(len(equip), 'token')}"
            if who == NINJA and state.known_n_hand:
                line += f" | seen with the Watchtower: {_cards(state.known_n_hand, NINJA_CARDS)}"
            out.append(line)
        used = state.n_used if who == NINJA else state.s_used
        spent = state.n_spent if who == NINJA else state.s_spent
        discard = state.n_discard if who == NINJA else state.s_discard
        out.append(f"          discards {_names(discard, table) or '-'}")
        extra = f"          tokens used openly {_names(used, tokens) or '-'}"
        if spent:
            extra += f" | {_count(len(spent), 'token')} spent face down"
            if viewer in (None, who):
                extra += f" ({_names(spent, tokens)})"
        out.append(extra)
    return out


def _board_lines(state: CastleNightingaleState) -> list[str]:
    """Public facts about the board that the grid alone does not make plain."""
    b = state.board
    out = []
    if state.samurai_zone >= 0:
        line = (
            f"samurai : on {b.labels[state.samurai_sq]} (zone {b.zone_names[state.samurai_zone]})"
        )
        if state.stage == "s_entries" or (
            state.decision and state.decision["kind"] in ("entry", "entry_end")
        ):
            f = state.flags
            line += f" | moving: {f['entries']} of {f['target']} zone entries made"
            line += " (his square is chosen at the end)"
        out.append(line)
    captured = f"{state.captured} of {NINJAS} ninjas captured"
    if state.ninja_sq >= 0:
        where = f"seen on {b.labels[state.ninja_sq]}"
    elif state.discs:
        where = "hidden: he next starts from one of the discs"
    elif state.ninja_in_castle() and not state.game.lockdown_needs_trace:
        where = "hidden, no disc left (a lockdown still catches him)"
    else:
        where = "off the board: he next enters by an open trap door"
    out.append(f"ninja   : {where} | {captured}")
    if state.discs:
        discs = " ".join(sorted((b.labels[q] for q in state.discs), key=_label_key))
        out.append(f"discs   : {discs}")
    if state.start_sq >= 0:
        out.append(f"          this turn the ninja started on {b.labels[state.start_sq]}")
    fire = state.flags.get("watch_fire_zone", -1)
    fire_next = state.flags.get("watch_fire_next", -1)
    if fire >= 0:
        out.append(f"          Watch Fire burns in zone {b.zone_names[fire]} (the floor sings)")
    if fire_next >= 0:
        out.append(f"          Watch Fire next turn in zone {b.zone_names[fire_next]}")
    return out


def render_text(
    state: CastleNightingaleState, player: int | None = None, colour: bool = False
) -> str:
    """The castle as ``player`` sees it (``None``: omniscient), a legend of its glyphs, the
    public facts, that player's own cards, tokens and knowledge, and the pending decision in
    words. Fits :data:`WIDTH` columns. ``colour=True`` adds ANSI floor colours."""
    b = state.board

    def cell(sq: int) -> str:
        text = _cell(state, sq, player)
        return f"{_ANSI[b.colour[sq]]}\x1b[30m{text}\x1b[0m" if colour else text

    lines = [
        f"Castle Nightingale | {_turn(state)} | {VIEW_NAMES[player]} | "
        f"floor boards side {state.layout[0]}"
    ]
    lines.append(b.render_grid(cell, garden=" ", garden_label="garden"))
    lines.extend(legend_lines({cell_mark(state, sq, player) for sq in range(NUM_SQUARES)}))
    lines.extend(_board_lines(state))
    lines.append(_vase_line(state, player))
    lines.extend(_tile_lines(state, player))
    lines.append(_card_line(state, player))
    lines.extend(_hand_lines(state, player))
    d = state.decision
    if d is None:
        result = "a draw at the turn limit" if state.draw else f"the {ROLE[state.winner]} wins"
        lines.append(f"game over: {result}")
    else:
        lines.append(f"to decide: {ROLE[d['player']]} | {decision_words(state)}")
    return "\n".join(_wrap(line) for text in lines for line in text.split("\n"))


def _turn(state: CastleNightingaleState) -> str:
    return f"turn {state.turn} of {state.game.max_turns}" if state.turn else "setup"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _label_key(label: str) -> tuple[int, str]:
    return int(label[1:]), label[0]


def _wrap(line: str) -> str:
    """Break a line longer than :data:`WIDTH` at ' | ', else after a comma, else at a space,
    continuing indented."""
    if len(line) <= WIDTH or "\x1b" in line:
        return line
    out, rest = [], line
    while len(rest) > WIDTH:
        for sep, keep in ((" | ", 0), (", ", 1), (" ", 0)):
            cut = rest.rfind(sep, 0, WIDTH - keep)
            if cut > 10:
                break
        else:
            cut, sep, keep = WIDTH, "", 0
        out.append(rest[: cut + keep])
        rest = "          " + rest[cut + len(sep) :]
    out.append(rest)
    return "\n".join(out)


def banked_text(state: CastleNightingaleState, player: int | None) -> str:
    """Captures and banked vases for a picture's title: the relic vases banked (what the ninja
    needs 5 of) for a viewer who knows them (the ninja, omniscient); the samurai sees only how
    many vases were banked, not what they hold."""
    banked = sum(1 for w in state.vase_where if w == BANKED)
    if player == SAMURAI:
        return f"captured {state.captured}/3, vases banked {banked}"
    relics = state.banked_relics()
    return f"captured {state.captured}/3, relic vases banked {relics} (of {banked} vases)"


# ---------------------------------------------------------------------------------- the picture
def _draw_passage(ax, x: float, y: float, closed: bool, size: float = 0.6) -> None:
    from matplotlib.patches import Rectangle

    pad = (1 - size) / 2
    ax.add_patch(
        Rectangle(
            (x + pad, y + pad),
            size,
            size,
            facecolor="#333333" if closed else "white",
            edgecolor="black",
            linewidth=1.5,
            hatch="xx" if closed else None,
        )
    )
    if not closed:  # an open hatch: a dark hole in a light frame
        ax.add_patch(Rectangle((x + 0.35, y + 0.35), 0.3, 0.3, facecolor="black", edgecolor="none"))


def _draw_vase(ax, x: float, y: float, face: str, size: float = 9) -> None:
    """A vase: brown when its contents are unseen, gold with "$" (a relic) or grey with "0"
    (empty) when the viewer has looked into it (the text board's glyphs)."""
    from matplotlib.patches import Ellipse, Rectangle

    kw: dict[str, Any] = {"facecolor": face, "edgecolor": "black", "linewidth": 1.3}
    ax.add_patch(Ellipse((x + 0.5, y + 0.56), 0.5, 0.62, **kw))
    ax.add_patch(Rectangle((x + 0.39, y + 0.12), 0.22, 0.16, **kw))
    mark = {_VASE_RELIC: "$", _VASE_EMPTY: "0"}.get(face)
    if mark:
        ax.text(x + 0.5, y + 0.58, mark, ha="center", va="center", fontsize=size, weight="bold")


def _draw_figure(ax, cx: float, cy: float, who: int, size: float = 0.38) -> None:
    from matplotlib.patches import Circle

    face, edge = ("black", "red") if who == NINJA else ("#b22222", "gold")
    ax.add_patch(Circle((cx, cy), size, facecolor=face, edgecolor=edge, linewidth=2))
    ax.text(cx, cy, "NS"[who], color="white", ha="center", va="center", fontsize=10, weight="bold")


def _draw_disc(ax, cx: float, cy: float, r: float = 0.22) -> None:
    from matplotlib.patches import Circle

    ax.add_patch(Circle((cx, cy), r, facecolor=_DISC, edgecolor="white", linewidth=1.2))


def _draw_board(ax, state: CastleNightingaleState, player: int | None) -> None:
    from matplotlib.patches import Rectangle

    b = state.board
    knows = _knows(state, player)
    ax.add_patch(Rectangle((3, 3), 5, 5, color="#7aa35a"))
    ax.text(5.5, 5.5, "garden", ha="center", va="center", color="white", fontsize=12)
    fire = state.flags.get("watch_fire_zone", -1)
    for sq in range(NUM_SQUARES):
        x, y = b.xy[sq]
        ax.add_patch(
            Rectangle(
                (x, y), 1, 1, facecolor=_RGB[b.colour[sq]], edgecolor="#777777", linewidth=0.5
            )
        )
    for sq in range(NUM_SQUARES):  # thick lines between zones, over every square
        x, y = b.xy[sq]
        for n in b.neighbours[sq]:
            if b.zone_of[n] != b.zone_of[sq]:
                nx, ny = b.xy[n]
                if nx == x + 1:
                    ax.plot([x + 1, x + 1], [y, y + 1], color="black", linewidth=2)
                if ny == y + 1:
                    ax.plot([x, x + 1], [y + 1, y + 1], color="black", linewidth=2)
    for sq in range(NUM_SQUARES):
        x, y = b.xy[sq]
        cx, cy = x + 0.5, y + 0.5
        if b.zone_of[sq] == state.samurai_zone:
            ax.add_patch(
                Rectangle((x + 0.12, y + 0.12), 0.76, 0.76, fill=False, ec="#8b6508", ls=":", lw=2)
            )
        if fire >= 0 and b.zone_of[sq] == fire:
            ax.add_patch(
                Rectangle((x + 0.05, y + 0.05), 0.9, 0.9, fill=False, edgecolor="#ff6a00", lw=2.5)
            )
        if sq == state.start_sq:
            ax.add_patch(
                Rectangle((x + 0.08, y + 0.08), 0.84, 0.84, fill=False, ec="black", ls="--", lw=1)
            )
        if b.passage[sq]:
            _draw_passage(ax, x, y, state.closed[b.passages.index(sq)])
        if sq in state.vase_where:
            t = state.vase_where.index(sq)
            face = (
                (_VASE_RELIC if state.vase_content[t] else _VASE_EMPTY)
                if knows[t]
                else _VASE_UNSEEN
            )
            _draw_vase(ax, x, y, face)
        if sq in state.discs and sq != state.samurai_sq:
            _draw_disc(ax, cx, cy)
        if sq == state.ninja_sq:
            _draw_figure(ax, cx, cy, NINJA)
        if sq == state.samurai_sq:
            _draw_figure(ax, cx, cy, SAMURAI)
            if sq in state.discs:  # a disc under him (variant keep_last_disc): drawn in the corner
                _draw_disc(ax, x + 0.82, y + 0.82, 0.15)
    for i, letter in enumerate("ABCDEFGHIJK"):
        ax.text(i + 0.5, -0.25, letter, ha="center", va="center", fontsize=9)
    for j in range(11):
        ax.text(-0.3, j + 0.5, str(j + 1), ha="center", va="center", fontsize=9)
    ax.set_xlim(-0.6, 11.05)
    ax.set_ylim(11.05, -0.55)
    ax.set_aspect("equal")
    ax.axis("off")


def _draw_legend(ax, state: CastleNightingaleState, player: int | None) -> None:
    """The key to the picture, and the nightingale tiles: which colour is safe, which sang,
    which is programmed (for the samurai and an observer) or known (for the ninja)."""
    from matplotlib.patches import Rectangle

    ax.set_xlim(0, 15)
    ax.set_ylim(26.5, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    y = 0.6
    ax.text(0, y, "Legend", fontsize=11, weight="bold", va="center")
    y += 1.4
    ax.text(0, y, "floor colours = the nightingale tiles:", fontsize=8.5, va="center")
    y += 0.5
    for c, name in enumerate(COLOURS):
        row, col = divmod(c, 3)
        x0, y0 = col * 4.5, y + row * 1.1
        ax.add_patch(Rectangle((x0, y0), 0.9, 0.9, facecolor=_RGB[c], edgecolor="#555555"))
        ax.text(x0 + 1.1, y0 + 0.45, name, fontsize=8.5, va="center")
    y += 2.7
    items = [
        ("vase_unseen", "vase, contents unseen"),
        ("vase_relic", "vase holding a relic"),
        ("vase_empty", "empty vase"),
        ("open", "open trap door (secret passage)"),
        ("closed", "closed trap door"),
        ("disc", "footprint disc"),
        ("ninja", "ninja figurine (seen)"),
        ("samurai", "samurai figurine"),
        ("start", "the ninja's start this turn"),
        ("fire", "Watch Fire zone (it sings)"),
        ("szone", "the samurai's zone"),
        ("zone", "thick line: edge of a colour zone"),
    ]
    for key, text in items:
        x0, y0 = 0.0, y - 0.5
        if key.startswith("vase"):
            face = {"vase_unseen": _VASE_UNSEEN, "vase_relic": _VASE_RELIC}.get(key, _VASE_EMPTY)
            _draw_vase(ax, x0, y0, face, size=6)
        elif key in ("open", "closed"):
            _draw_passage(ax, x0, y0, key == "closed")
        elif key == "disc":
            _draw_disc(ax, 0.5, y)
        elif key in ("ninja", "samurai"):
            _draw_figure(ax, 0.5, y, NINJA if key == "ninja" else SAMURAI, size=0.42)
        elif key == "start":
            ax.add_patch(
                Rectangle((0.08, y0 + 0.08), 0.84, 0.84, fill=False, ec="black", ls="--", lw=1)
            )
        elif key == "szone":
            ax.add_patch(
                Rectangle((0.12, y0 + 0.12), 0.76, 0.76, fill=False, ec="#8b6508", ls=":", lw=2)
            )
        elif key == "fire":
            ax.add_patch(
                Rectangle((0.05, y0 + 0.05), 0.9, 0.9, fill=False, edgecolor="#ff6a00", lw=2.5)
            )
        else:
            ax.plot([0.1, 0.9], [y, y], color="black", linewidth=2)
        ax.text(1.3, y, text, fontsize=8.5, va="center")
        y += 1.15
    y += 0.4
    ax.text(0, y, "Nightingale tiles in play", fontsize=11, weight="bold", va="center")
    y += 1.2
    for c, name in enumerate(COLOURS):
        loc = state.tile_loc[c]
        if loc == FACE_UP:
            status = "face up: safe this turn"
        elif state.tile_revealed[c]:
            status = "programmed, turned up: it sang"
        elif player in (None, SAMURAI):
            hand = "in your hand" if player == SAMURAI else "in the samurai's hand"
            status = "programmed (face down)" if loc == PROGRAMMED else hand
        elif state.tile_in[c]:
            status = "you know it is programmed"
        elif state.tile_out[c]:
            status = "you know it is safe"
        else:
            status = "unknown to you"
        ax.add_patch(Rectangle((0, y - 0.45), 0.9, 0.9, facecolor=_RGB[c], edgecolor="#555555"))
        bold = "bold" if loc == PROGRAMMED and player in (None, SAMURAI) else "normal"
        ax.text(1.3, y, f"{name}: {status}", fontsize=8.5, va="center", weight=bold)
        y += 1.05


def _info_lines(state: CastleNightingaleState, player: int | None) -> list[str]:
    """The facts under the picture, in the text board's words (no line is cut)."""
    lines = [_card_line(state, player)]
    for line in _hand_lines(state, player)[0::3]:
        lines.append(line)
    lines.extend(line for line in _board_lines(state) if line[:8] in ("samurai ", "ninja   "))
    if state.decision is None:
        lines.append("game over: " + ("a draw" if state.draw else f"the {ROLE[state.winner]} wins"))
    else:
        lines.append(f"to decide: {ROLE[state.decision['player']]} | {decision_words(state)}")
    return [" ".join(line.split()) for line in lines]


def render_rgb(state: CastleNightingaleState, player: int | None = None) -> np.ndarray:
    """The castle as ``player`` sees it (``None``: omniscient): floor colours, zones, trap doors,
    vases, discs, figurines, with a legend and the nightingale tiles beside it, and the cards,
    hands and pending decision under it."""
    from boardgames_rl.core.rendering import figure_to_rgb, new_figure

    fig = new_figure(11.6, 9.4, dpi=80)
    fig.patch.set_facecolor("white")
    board_ax = fig.add_axes((0.0, 0.225, 0.66, 0.72))
    _draw_board(board_ax, state, player)
    legend_ax = fig.add_axes((0.665, 0.225, 0.33, 0.72))
    _draw_legend(legend_ax, state, player)
    fig.text(
        0.01,
        0.975,
        f"Castle Nightingale - {_turn(state)} - {VIEW_NAMES[player]} - "
        f"{banked_text(state, player)}",
        fontsize=12,
        weight="bold",
        va="top",
    )
    for i, line in enumerate(_info_lines(state, player)):
        fig.text(0.01, 0.205 - i * 0.03, line, fontsize=9.5, va="top", family="monospace")
    return figure_to_rgb(fig)
