"""Text and image pictures of a Castle Flutterstone state."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.castle_flutterstone import data
from boardgames_rl.games.castle_flutterstone.landing import ZONE_NAMES

if TYPE_CHECKING:
    from boardgames_rl.games.castle_flutterstone.state import FlutterstoneState

FIGURE_LETTERS = "ABCD"
FIGURE_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
_DECISION_TEXT = {
    "place_ghost": "places the ghost figure in a window",
    "play_cards": "may play helpful ghosts",
    "flick": "flicks a bat",
    "move": "chooses how far to move",
    "draw": "may draw a ghost card",
    "discard": "must discard a helpful ghost (four held)",
    "give": "gives a pesky ghost away",
}


def _cards_text(state: FlutterstoneState, seat: int) -> str:
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
                if kind == data.Card.PESKY_GHOST and giver >= 0
                else ""
            )
            parts.append(f"PESKY {data.CARD_NAMES[kind]}{by}")
    return ", ".join(parts) or "-"


def render_text(state: FlutterstoneState, player: int | None = None) -> str:
    """Track, figures, cards and the pending decision. Everything here is public, so the view
    of a player differs from the omniscient one only by the '(you)' marker and the pile order."""
    g = state.game
    names = g.player_names
    variant = "pesky-ghost variant" if g.pesky_ghosts else "basic game"
    lines = [f"Castle Flutterstone | {g.num_players} players | {variant} | turn {state.turn_count}"]
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
        elif f >= 13:
            marks.append("_|".rjust(width))
        else:
            marks.append(".".rjust(width))
    lines.append("field " + "".join(nums))
    lines.append("      " + "".join(marks))
    lines.append("      (== rotten bridge: no stopping; _| castle steps; G last step)")
    for s in range(g.num_players):
        turn = ">" if s == state.turn_player and not state.is_terminal() else " "
        you = " (you)" if player == s else ""
        done = ""
        if s in state.finished and state.positions[s] >= g.goal:
            done = f"  FINISHED #{state.finished.index(s) + 1}"
        lines.append(
            f"{turn} {FIGURE_LETTERS[s]} {names[s]}{you:<6} field {state.positions[s]:>2}  "
            f"skill {g.skills[s].name:<8} cards: {_cards_text(state, s)}{done}"
        )
    last = ZONE_NAMES[state.last_outcome] if state.last_outcome >= 0 else "-"
    band = f"ghost in window {state.blocked_band}" if state.blocked_band else "windows free"
    lines.append(
        f"last bat: {last} | {band} | draw pile {len(state.draw_pile)} | "
        f"discards {sum(state.discard)}"
    )
    if state.is_terminal():
        if state.truncated:
            lines.append("game over: turn cap reached (draw)")
        else:
            order = ", ".join(names[s] for s in state.finished)
            lines.append(f"game over: {names[state.winner]} lifts the trophy. Order: {order}")
    else:
        who = names[state.current_player]
        extra = ""
        if state.phase_name == "move":
            extra = f" (up to {state.move_points})"
        elif state.phase_name in ("flick", "play_cards"):
            extra = f" ({state.shots_left} bat{'s' if state.shots_left != 1 else ''} to fly)"
        lines.append(f"{who} {_DECISION_TEXT[state.phase_name]}{extra}")
    return "\n".join(lines)


def _field_xy(f: int, goal: int) -> tuple[float, float]:
    """Board coordinates: the courtyard runs left to right, the steps climb the castle wall."""
    first_step = goal - 9
    if f < first_step:
        return float(f), 0.0
    k = f - first_step + 1
    return first_step - 0.5 + 0.55 * k, 0.45 * k


def render_rgb(state: FlutterstoneState, player: int | None = None) -> np.ndarray:
    """An RGB picture of the board: path, bridges, castle steps, figures and cards."""
    from matplotlib.patches import Circle, Rectangle

    from boardgames_rl.core.rendering import figure_to_rgb, new_figure

    g = state.game
    fig = new_figure(9, 4.2, dpi=90)
    ax = fig.add_subplot(1, 1, 1)
    first_step = g.goal - 9
    wall_x = first_step - 0.8
    ax.add_patch(
        Rectangle((wall_x, -0.6), g.goal - first_step + 2.5, 6.0, color="#d9d4c7", zorder=0)
    )
    ax.text(wall_x + 0.2, 5.0, "castle", fontsize=9, color="#6b6256")
    ax.add_patch(Rectangle((-0.6, -0.6), wall_x + 0.6, 1.2, color="#cfe8c1", zorder=0))
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
        ax.add_patch(
            Rectangle(
                (x - 0.42, y - 0.22),
                0.84,
                0.44,
                facecolor=face,
                edgecolor=edge,
                hatch=hatch,
                zorder=1,
            )
        )
        label = "S" if f == 0 else ("G" if f == g.goal else str(f))
        ax.text(x, y - 0.42, label, ha="center", va="top", fontsize=7, color="#333333")
    gx, gy = _field_xy(g.goal, g.goal)
    ax.plot([gx], [gy + 0.6], marker="*", markersize=16, color="#e6b800", zorder=3)
    at_field: dict[int, int] = {}
    for s, f in enumerate(state.positions):
        x, y = _field_xy(f, g.goal)
        k = at_field.get(f, 0)
        at_field[f] = k + 1
        ax.add_patch(
            Circle(
                (x + 0.18 * k - 0.1 * (f == 0), y + 0.2 + 0.22 * k * (f == 0)),
                0.2,
                facecolor=FIGURE_COLOURS[s],
                edgecolor="black",
                zorder=4,
            )
        )
        ax.text(
            x + 0.18 * k,
            y + 0.2 + 0.22 * k * (f == 0),
            FIGURE_LETTERS[s],
            ha="center",
            va="center",
            fontsize=7,
            color="white",
            zorder=5,
        )
    for s in range(g.num_players):
        you = " (you)" if player == s else ""
        turn = "> " if s == state.turn_player and not state.is_terminal() else "  "
        ax.text(
            -0.5,
            4.6 - 0.45 * s,
            f"{turn}{FIGURE_LETTERS[s]} {g.player_names[s]}{you}: {_cards_text(state, s)}",
            fontsize=8,
            color=FIGURE_COLOURS[s],
            va="top",
        )
    status = render_text(state, player).splitlines()[-1]
    ax.text(-0.5, -1.2, status, fontsize=8, va="top")
    ax.set_xlim(-0.8, g.goal - 2.5)
    ax.set_ylim(-1.6, 5.6)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    return figure_to_rgb(fig)
