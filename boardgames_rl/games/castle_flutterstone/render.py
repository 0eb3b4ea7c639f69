"""Text and image pictures of a Castle Flutterstone state, each with a legend.

Everything at this table is public (ghost cards lie face up) except the order of the face-down
draw pile, so a player's view (``player`` = a seat) and an observer's (``None``, omniscient)
differ only there: a player sees the pile's contents by kind, an observer also sees its order.
The flick grid is explained in words under the board whenever a bat is to be flicked, with the
landing chances of the best flicks for the player on move (from the landing model, public).
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.castle_flutterstone import data
from boardgames_rl.games.castle_flutterstone.data import Card
from boardgames_rl.games.castle_flutterstone.flick_values import FlickValues
from boardgames_rl.games.castle_flutterstone.landing import ZONE_NAMES
from boardgames_rl.games.castle_flutterstone.naming import (
    DECISION_WORDS,
    ZONE_WORDS,
    flick_words,
    window_yaws,
)

if TYPE_CHECKING:
    from matplotlib.artist import Artist

    from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState

WIDTH = 100
"""No text line is wider."""

FIGURE_LETTERS = "ABCD"
FIGURE_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")

TRACK_LEGEND: dict[str, str] = {
    "S": "start field",
    ".": "free field",
    "==": "rotten bridge (counts as a field, no stopping on it)",
    "_|": "castle step",
    "G": "last step: the first figure there wins",
}
"""Every glyph of the track lines besides the figures' letters."""

ROW_LEGEND: dict[str, str] = {
    ">": "whose turn it is",
    "(next turn)": "drawn this turn, usable from the next turn",
    "PESKY": "a pesky ghost acting on that player's next turn",
}
"""Marks of the player rows."""

_HINTS = FlickValues(card_value=0.0, win_bonus=0.0)
"""Expected fields of the flicks for the hint lines (tables cached for the process)."""


def _cards_text(state: CastleFlutterstoneState, seat: int) -> str:
    parts = []
    for kind in data.HELPFUL:
        ready, new = state.helpful_ready[seat][kind], state.helpful_new[seat][kind]
        if ready:
            parts.append(f"{ready}x {data.CARD_NAMES[kind]}")
        if new:
            parts.append(f"{new}x {data.CARD_NAMES[kind]} (next turn)")
    for k, kind in enumerate(data.PESKY):
        if state.pesky[seat][k]:
            giver = state.ghost_giver[seat]
            by = (
                f" from {state.game.player_names[giver]}"
                if kind == Card.PESKY_GHOST and giver >= 0
                else ""
            )
            parts.append(f"PESKY {data.CARD_NAMES[kind]}{by}")
    return ", ".join(parts) or "-"


def _pile_text(state: CastleFlutterstoneState, player: int | None, top: int = 0) -> list[str]:
    """The draw pile: by kind for a player, also in order (top first; only the ``top`` first
    cards if given) for an observer."""
    counts = [state.draw_pile.count(kind) for kind in range(len(Card))]
    kinds = ", ".join(f"{counts[k]} {data.CARD_NAMES[k]}" for k in Card if counts[k])
    lines = [f"draw pile {len(state.draw_pile)} face down ({kinds or 'empty'})"]
    if player is None and state.draw_pile:
        cards = [data.CARD_NAMES[Card(c)] for c in reversed(state.draw_pile)]
        more = len(cards) - top if top and len(cards) > top else 0
        order = ", ".join(cards[: len(cards) - more]) + (f", ... ({more} more)" if more else "")
        lines.append(f"pile from the top (observer view only, hidden from players): {order}")
    discards = ", ".join(
        f"{state.discard[k]} {data.CARD_NAMES[k]}" for k in Card if state.discard[k]
    )
    lines.append(f"discard pile {sum(state.discard)}" + (f" ({discards})" if discards else ""))
    return lines


def decision_text(state: CastleFlutterstoneState) -> str:
    """The pending decision (or the result) in words, e.g. ``player_2 chooses how far to move
    (up to 2 fields)``."""
    g = state.game
    names = g.player_names
    if state.is_terminal():
        if state.truncated:
            return "game over: turn cap reached (draw)"
        order = ", ".join(names[s] for s in state.finished)
        return f"game over: {names[state.winner]} lifts the trophy. Order: {order}"
    phase = state.phase_name
    extra = ""
    if phase == "move":
        extra = f" (up to {state.move_points} field{'s' if state.move_points != 1 else ''})"
    elif phase in ("flick", "play_cards"):
        extra = f" ({state.shots_left} bat{'s' if state.shots_left != 1 else ''} to fly)"
    elif phase == "give":
        extra = f" ({data.CARD_NAMES[Card(state.pending_pesky)]}: to whom?)"
    elif phase == "place_ghost":
        extra = f" (it blocks one window for {names[state.turn_player]}'s flicks)"
    return f"{names[state.current_player]} {DECISION_WORDS[phase]}{extra}"


def aim_legend(state: CastleFlutterstoneState) -> list[str]:
    """What ``flick aim E force F yaw Y`` means, for this game's grid and landing model."""
    g = state.game
    aims = f"{g.aims[0]:g}-{g.aims[-1]:g}"
    lines = [
        f"a flick is 'flick aim E force F{' yaw Y' if g.geometry.yaw_max else ''}': aim E ="
        f" launch elevation in degrees ({aims}; low arc flies flat at the wall, high arc lobs"
        " the bat over it), force F = 0 softest .. 1 full"
    ]
    if g.geometry.yaw_max:
        wins = ", ".join(
            f"window {k} {(lo + hi) / 2:+.0f}"
            for k, (lo, hi) in enumerate(window_yaws(g.geometry), 1)
        )
        yaws = ", ".join(f"{y:+g}" for y in g.yaws)
        lines.append(
            f"yaw Y = lateral aim in degrees, - left / + right (offered {yaws}); window centres:"
            f" {wins} (1 wide and low, 2 middle, 3 narrow and high); beyond the wall's edge a"
            " bat flies past"
        )
    else:
        lines.append(
            "landing model v1: no lateral aim; the three windows are one column in the middle"
        )
    lines.append("landings: " + "; ".join(ZONE_WORDS[z] for z in ZONE_NAMES))
    return lines


def flick_outlook(state: CastleFlutterstoneState) -> tuple[np.ndarray, np.ndarray]:
    """``(values, table)`` of every flick for the player on move: the expected fields of each
    flick (``values[a]``) and its landing chances by zone (``table[a]``, ``ZONE_NAMES`` order),
    from the landing model, the player's skill and the pesky effects (all public)."""
    g = state.game
    p = state.turn_player
    can_draw = bool(state.draw_pile) or any(state.discard)
    values = _HINTS.values(g, p, state.positions, state.pesky[p], state.blocked_band, can_draw)
    table = _HINTS.table(g, g.skills[p], state.effects())
    return values, table


def chances_text(chances: np.ndarray) -> str:
    """``miss P%, courtyard P%, castle P%, window P%``: each zone's landing chance (zones under 0.5%
    left out)."""
    return ", ".join(
        f"{zone} {chances[z]:.0%}" for z, zone in enumerate(ZONE_NAMES) if chances[z] >= 0.005
    )


def best_flick_ids(state: CastleFlutterstoneState, count: int = 3) -> list[int]:
    """The ``count`` flicks with the most expected fields for the player on move, best first."""
    values, _table = flick_outlook(state)
    return [int(a) for a in np.argsort(-values, kind="stable")[:count]]


def best_flicks(state: CastleFlutterstoneState, count: int = 3) -> list[str]:
    """The ``count`` flicks with the most expected progress for the player on move, with their
    landing chances (public: the landing model, the player's skill and the pesky effects)."""
    g = state.game
    values, table = flick_outlook(state)
    lines = []
    for a in best_flick_ids(state, count):
        lines.append(f"  {g._action_name(a)} ({flick_words(g, a)})")
        lines.append(f"      lands: {chances_text(table[a])}; {values[a]:.2f} fields expected")
    return lines


PICTURE_COLUMNS = 31
"""Columns of the wall in the landing picture: one per unit of lateral distance."""


def landing_picture(
    state: CastleFlutterstoneState, marks: dict[int, str] | None = None
) -> list[str]:
    """A small text picture of the wall as the catapult sees it: the windows (their numbers;
    ``G`` where the ghost figure blocks one), the moat and the courtyard in front, the yaws
    offered (``^``) and, under them, ``marks`` (``{flick id: label}``: where those flicks aim),
    and a key. At most 41 columns."""
    g = state.game
    geo = g.geometry
    half = geo.wall_half_width
    cols = PICTURE_COLUMNS
    scale = (cols - 1) / (2 * half)  # columns per unit of lateral distance

    def col(y: float) -> int:
        return max(0, min(cols - 1, round((y + half) * scale)))

    def band_row(k: int) -> str:
        (ylo, yhi), _z = geo.window_lateral[k - 1], geo.window_bands[k - 1]
        mark = "G" if state.blocked_band == k else str(k)
        return "".join(mark if ylo < j / scale - half < yhi else " " for j in range(cols))

    bands = len(geo.window_bands)
    rows = ["castle  " + "_n" * (cols // 2) + "_"]
    for k in range(bands, 0, -1):  # highest window first
        rows.append("       |" + band_row(k) + "|")
        rows.append("       |" + " " * cols + "|")
    rows[1] = "castle |" + rows[1][8:]
    rows[0] = "        " + rows[0][8:]
    rows.append("moat   ~" + "~" * cols + "~")
    rows.append("yard   ." + "." * cols + ".")
    yaw_marks = [" "] * cols
    labels = [" "] * (cols + 6)
    for yaw in g.yaws:
        c = col(geo.wall_x * np.tan(np.radians(yaw)))
        yaw_marks[c] = "^"
        text = f"{yaw:+g}" if yaw else "0"
        start = max(0, c + 1 - len(text) // 2 - (len(text) % 2 == 0))
        labels[start : start + len(text)] = text
    rows.append("yaw     " + "".join(yaw_marks).rstrip())
    rows.append("       " + "".join(labels).rstrip())
    if marks:
        under = [" "] * (cols + 6)
        for a, label in marks.items():
            c = col(geo.wall_x * np.tan(np.radians(g._flicks[a][0]))) + 1
            while under[c] != " ":
                c += 1
            under[c] = label
        rows.append("best   " + "".join(under).rstrip())
    key = "key    " + " ".join(str(k) for k in range(1, bands + 1)) + " windows"
    rows.append(key + (", G ghost figure" if state.blocked_band else ""))
    return rows


HINT_MARKS = "abc"
"""Marks of the best flicks in the hint and under the landing picture (letters, so that they
are not read as the numbers of a menu)."""


def best_flicks_block(state: CastleFlutterstoneState, count: int = 3) -> list[str]:
    """The best flicks for the player on move (marked a, b, c) with their landing chances, and
    the landing picture beside them (where each aims, marked with its letter)."""
    g = state.game
    values, table = flick_outlook(state)
    ids = best_flick_ids(state, min(count, len(HINT_MARKS)))
    picture = landing_picture(state, dict(zip(ids, HINT_MARKS, strict=False)))
    left = max(len(row) for row in picture) + 2
    hints: list[str] = []
    room = WIDTH - left
    for mark, a in zip(HINT_MARKS, ids, strict=False):
        hints.append(f"{mark}) {g._action_name(a)}: {values[a]:.2f} fields expected")
        hints.append(f"   {flick_words(g, a)}")
        lands = f"lands: {chances_text(table[a])}"
        hints += textwrap.wrap(lands, room, initial_indent="   ", subsequent_indent="     ")
    height = max(len(picture), len(hints))
    picture += [""] * (height - len(picture))
    hints += [""] * (height - len(hints))
    return [f"{p:<{left}}{h}".rstrip() for p, h in zip(picture, hints, strict=True)]


def render_text(state: CastleFlutterstoneState, player: int | None = None) -> str:
    """Track, figures, cards, piles, the pending decision in words, the legends, and while a
    bat is to be flicked, what the flick's numbers mean and the best flicks' chances."""
    g = state.game
    names = g.player_names
    variant = "pesky-ghost variant" if g.pesky_ghosts else "basic game"
    view = "observer view" if player is None else f"seen by {names[player]}"
    lines = [
        f"Castle Flutterstone | {g.num_players} players | {variant} | turn {state.turn_count}"
        f" | {view}"
    ]
    nums, marks = [], []
    for f in range(g.goal + 1):
        here = [FIGURE_LETTERS[s] for s, q in enumerate(state.positions) if q == f]
        label = "S" if f == 0 else ("G" if f == g.goal else str(f))
        width = max(3, len(here) + 1)
        nums.append(label.rjust(width))
        if here:
            marks.append("".join(here).rjust(width))
        elif f in g.bridges:
            marks.append("==".rjust(width))
        elif f >= g.goal - 9:
            marks.append("_|".rjust(width))
        else:
            marks.append(".".rjust(width))
    lines.append("field " + "".join(nums))
    lines.append("      " + "".join(marks))
    figures = ", ".join(f"{FIGURE_LETTERS[s]} {names[s]}" for s in range(g.num_players))
    glyphs = "; ".join(f"{k} {v}" for k, v in TRACK_LEGEND.items())
    lines += textwrap.wrap(f"legend: {figures}; {glyphs}", WIDTH, subsequent_indent="        ")
    for s in range(g.num_players):
        turn = ">" if s == state.turn_player and not state.is_terminal() else " "
        you = " (you)" if player == s else ""
        done = ""
        if s in state.finished and state.positions[s] >= g.goal:
            done = f"  FINISHED #{state.finished.index(s) + 1}"
        row = (
            f"{turn} {FIGURE_LETTERS[s]} {names[s]}{you:<6} field {state.positions[s]:>2}  "
            f"skill {g.skills[s].name:<8} cards: {_cards_text(state, s)}{done}"
        )
        lines += textwrap.wrap(row, WIDTH, subsequent_indent=" " * 20)
    marks_used = [f"{k} {v}" for k, v in ROW_LEGEND.items() if k != "PESKY" or g.pesky_ghosts]
    if player is not None:
        marks_used.append("(you) your figure")
    lines += textwrap.wrap(
        "marks: " + "; ".join(marks_used),
        WIDTH,
        subsequent_indent="       ",
    )
    last = ZONE_NAMES[state.last_outcome] if state.last_outcome >= 0 else "none yet"
    band = f"ghost figure in window {state.blocked_band}" if state.blocked_band else "windows free"
    lines.append(f"last bat: {last} | {band}")
    for line in _pile_text(state, player):
        lines += textwrap.wrap(line, WIDTH, subsequent_indent="    ")
    lines.append(decision_text(state))
    if state.phase_name == "flick" and not state.is_terminal():
        for line in aim_legend(state):
            lines += textwrap.wrap(line, WIDTH, subsequent_indent="    ")
        lines.append(
            f"best flicks for {names[state.turn_player]} now (landing model), and where they aim:"
        )
        lines += best_flicks_block(state)
    return "\n".join(lines)


def _field_xy(field: int, goal: int) -> tuple[float, float]:
    """Board coordinates: the courtyard runs left to right, the steps climb the castle wall."""
    first_step = goal - 9
    if field < first_step:
        return float(field), 0.0
    k = field - first_step + 1
    return first_step - 0.5 + 0.62 * k, 0.5 * k


def _draw_wall(ax, state: CastleFlutterstoneState) -> None:
    """The castle wall seen from the flicker's seat: its three windows, where each yaw points,
    and the ghost figure in the window it blocks."""
    from matplotlib.patches import Ellipse, Rectangle

    geo = state.game.geometry
    half, height = geo.wall_half_width, geo.wall_height
    ax.add_patch(Rectangle((-half, 0), 2 * half, height, facecolor="#c9bfae", edgecolor="#6b6256"))
    for x in np.arange(-half, half, 3.0):  # battlements
        ax.add_patch(Rectangle((x, height), 1.5, 1.5, facecolor="#c9bfae", edgecolor="#6b6256"))
    for k, ((ylo, yhi), (zlo, zhi)) in enumerate(
        zip(geo.window_lateral, geo.window_bands, strict=True), start=1
    ):
        ax.add_patch(
            Rectangle((ylo, zlo), yhi - ylo, zhi - zlo, facecolor="#2b2b3a", edgecolor="#e6b800")
        )
        if geo.yaw_max:
            ax.text((ylo + yhi) / 2, zhi + 0.4, f"window {k}", ha="center", va="bottom", fontsize=7)
        else:  # landing model v1: one column of windows, labels beside them
            ax.text(yhi + 0.8, (zlo + zhi) / 2, f"window {k}", va="center", fontsize=7)
        if state.blocked_band == k:
            cx, cz = (ylo + yhi) / 2, (zlo + zhi) / 2
            ax.add_patch(
                Ellipse((cx, cz), 4.6, 3.0, facecolor="white", edgecolor="black", zorder=5)
            )
            ax.text(cx, cz, "ghost", ha="center", va="center", fontsize=6, zorder=6)
    if geo.yaw_max:
        for yaw in state.game.yaws:
            y = geo.wall_x * np.tan(np.radians(yaw))
            ax.plot([y], [-1.6], marker="^", color="#444444", markersize=5, clip_on=False)
            ax.text(y, -2.4, f"{yaw:+g}", ha="center", va="top", fontsize=6, color="#444444")
        ax.text(0, -4.6, "yaw Y (degrees) points here", ha="center", va="top", fontsize=7)
    aims = f"{state.game.aims[0]:g}-{state.game.aims[-1]:g}"
    ax.text(
        0,
        -6.6,
        f"flick aim E force F{' yaw Y' if geo.yaw_max else ''}: E elevation {aims} degrees,\n"
        "F 0 softest .. 1 full"
        + (", Y - left / + right" if geo.yaw_max else " (model v1: no lateral aim)"),
        ha="center",
        va="top",
        fontsize=7,
    )
    ax.text(0, height + 2.2, "the wall, seen from the catapult", ha="center", fontsize=8)
    ax.set_xlim(-half - 9, half + 9)
    ax.set_ylim(-11.0, height + 4.5)
    ax.set_aspect("equal")
    ax.axis("off")


def render_rgb(state: CastleFlutterstoneState, player: int | None = None) -> np.ndarray:
    """An RGB picture: the path and the castle steps with the figures, the wall with its windows
    (and the ghost figure), each player's cards, the piles (in order only for an observer), the
    pending decision in words, and a legend."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Patch, Rectangle

    from boardgames_rl.core.rendering import figure_to_rgb, new_figure

    g = state.game
    names = g.player_names
    fig = new_figure(11, 6.4, dpi=90)
    view = "observer view (everything)" if player is None else f"seen by {names[player]}"
    variant = "pesky-ghost variant" if g.pesky_ghosts else "basic game"
    fig.text(
        0.01,
        0.975,
        f"Castle Flutterstone  |  {g.num_players} players, {variant}  |  turn {state.turn_count}"
        f"  |  {view}",
        fontsize=11,
        weight="bold",
        va="top",
    )
    # ---- players and cards (top left)
    for s in range(g.num_players):
        you = " (you)" if player == s else ""
        turn = "> " if s == state.turn_player and not state.is_terminal() else "   "
        done = ""
        if s in state.finished and state.positions[s] >= g.goal:
            done = f" (finished #{state.finished.index(s) + 1})"
        row = (
            f"{turn}{FIGURE_LETTERS[s]}  {names[s]}{you}: field {state.positions[s]}{done},"
            f" skill {g.skills[s].name}, cards: {_cards_text(state, s)}"
        )
        fig.text(
            0.015,
            0.90 - 0.05 * s,
            textwrap.shorten(row, 95),
            fontsize=9,
            color=FIGURE_COLOURS[s],
            va="top",
            weight="bold" if turn.strip() else "normal",
        )
    # ---- the board (bottom)
    ax = fig.add_axes((0.01, 0.22, 0.66, 0.58))
    first_step = g.goal - 9
    wall_x = first_step - 0.8
    ax.add_patch(Rectangle((wall_x, -0.7), 0.62 * 10 + 1.6, 6.4, color="#e4ded1", zorder=0))
    ax.text(wall_x + 0.2, 5.3, "castle", fontsize=9, color="#6b6256")
    ax.add_patch(Rectangle((-0.6, -0.7), wall_x + 0.6, 1.4, color="#cfe8c1", zorder=0))
    ax.text(0.7, 0.85, "courtyard path", fontsize=8, color="#4a7a3a")
    for f in range(g.goal + 1):
        x, y = _field_xy(f, g.goal)
        if f in g.bridges:
            face, edge, hatch = "#a0522d", "#5a2d0c", "////"
        elif f == 0:
            face, edge, hatch = "#ffffff", "#555555", None
        elif f >= first_step:
            face, edge, hatch = "#9e9e9e", "#4a4a4a", None
        else:
            face, edge, hatch = "#f6f1df", "#8a7f5a", None
        w, h = (0.84, 0.44) if f < first_step else (0.6, 0.44)
        ax.add_patch(
            Rectangle(
                (x - w / 2, y - h / 2), w, h, facecolor=face, edgecolor=edge, hatch=hatch, zorder=1
            )
        )
        label = "S" if f == 0 else ("G" if f == g.goal else str(f))
        if f < first_step:
            ax.text(x, y - 0.32, label, ha="center", va="top", fontsize=7, color="#333333")
        else:  # on the staircase the label sits inside the step
            goal = f == g.goal
            ax.text(
                x,
                y,
                label,
                ha="center",
                va="center",
                fontsize=7 if goal else 6,
                zorder=2,
                color="#ffe066" if goal else "white",
                weight="bold" if goal else "normal",
            )
    gx, gy = _field_xy(g.goal, g.goal)
    ax.plot([gx + 0.62], [gy], marker="*", markersize=16, color="#e6b800", zorder=3)
    at_field: dict[int, int] = {}
    for s, f in enumerate(state.positions):  # figures sharing a field (start, goal) stack up
        x, y = _field_xy(f, g.goal)
        k = at_field.get(f, 0)
        at_field[f] = k + 1
        cx, cy = x, y + 0.45 + 0.47 * k
        ax.add_patch(
            Circle(
                (cx, cy),
                0.22,
                facecolor=FIGURE_COLOURS[s],
                edgecolor="black",
                linewidth=2.0 if player == s else 0.8,
                zorder=4,
            )
        )
        ax.text(
            cx,
            cy,
            FIGURE_LETTERS[s],
            ha="center",
            va="center",
            fontsize=7,
            color="white",
            weight="bold",
            zorder=5,
        )
    ax.set_xlim(-0.8, gx + 1.1)
    ax.set_ylim(-1.0, gy + 0.45 + 0.47 * g.num_players)
    ax.set_aspect("equal")
    ax.axis("off")
    # ---- the wall (right)
    _draw_wall(fig.add_axes((0.68, 0.27, 0.31, 0.60)), state)
    # ---- status: last bat, piles, decision
    last = ZONE_NAMES[state.last_outcome] if state.last_outcome >= 0 else "none yet"
    band = f"ghost figure in window {state.blocked_band}" if state.blocked_band else "windows free"
    status = [decision_text(state), f"last bat: {last}  |  {band}", *_pile_text(state, player, 8)]
    if state.phase_name == "flick" and not state.is_terminal():
        name, chances = (line.strip() for line in best_flicks(state, 1))
        status.insert(1, f"best flick now: {name}; {chances}")
    wrapped = [
        part for line in status for part in textwrap.wrap(line, 105, subsequent_indent="    ")
    ]
    fig.text(0.015, 0.215, "\n".join(wrapped[:7]), fontsize=8.5, va="top", linespacing=1.45)
    # ---- legend (bottom right)
    handles: list[Artist] = [
        Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            markerfacecolor=FIGURE_COLOURS[s],
            markeredgecolor="black",
            markersize=9,
            label=f"{FIGURE_LETTERS[s]} {names[s]}" + (" (you)" if player == s else ""),
        )
        for s in range(g.num_players)
    ]
    handles += [
        Patch(facecolor="#ffffff", edgecolor="#555555", label="S start field"),
        Patch(facecolor="#f6f1df", edgecolor="#8a7f5a", label="path field"),
        Patch(
            facecolor="#a0522d",
            edgecolor="#5a2d0c",
            hatch="////",
            label="rotten bridge: no stopping",
        ),
        Patch(facecolor="#9e9e9e", edgecolor="#4a4a4a", label="castle step"),
        Line2D(
            [],
            [],
            marker="*",
            linestyle="",
            color="#e6b800",
            markersize=12,
            label="G last step: first there wins",
        ),
        Patch(facecolor="#2b2b3a", edgecolor="#e6b800", label="window (3 fields)"),
    ]
    if g.pesky_ghosts:
        handles.append(Patch(facecolor="white", edgecolor="black", label="ghost figure blocks it"))
    fig.legend(
        handles=handles,
        loc="lower right",
        bbox_to_anchor=(0.995, 0.01),
        ncol=2,
        fontsize=7.5,
        frameon=True,
        title="legend",
        title_fontsize=8,
    )
    return figure_to_rgb(fig)
