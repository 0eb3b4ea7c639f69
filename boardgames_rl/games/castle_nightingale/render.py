"""Text and image pictures of a Castle Nightingale state, from a player's view or omniscient."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES
from boardgames_rl.games.castle_nightingale.data import (
    COLOURS,
    NINJA,
    NINJA_CARDS,
    NINJA_TOKENS,
    SAMURAI,
    SAMURAI_CARDS,
    SAMURAI_TOKENS,
)

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import NightingaleState

_ANSI = {0: "\x1b[41m", 1: "\x1b[44m", 2: "\x1b[42m", 3: "\x1b[43m", 4: "\x1b[45m", 5: "\x1b[47m"}
_RGB = ("#e05252", "#4f7fd9", "#5cb85c", "#f0d24a", "#a46cc8", "#f4f4f4")


def _cell(s: NightingaleState, sq: int, viewer: int | None) -> str:
    b = s.board
    letter = "RBGYPW"[b.colour[sq]]
    if sq == s.samurai_sq:
        mark = "So" if sq in s.discs else "S"  # a disc he stands on (variant keep_last_disc)
    elif sq == s.ninja_sq:
        mark = "N"
    elif sq in s.discs:
        mark = "o"
    elif sq in s.vase_where:
        t = s.vase_where.index(sq)
        known = viewer is None or (s.ninja_knows if viewer == NINJA else s.samurai_knows)[t]
        mark = ("$" if s.vase_content[t] else "0") if known else "V"
    elif b.passage[sq]:
        mark = "#" if s.closed[b.passages.index(sq)] else "@"
    else:
        mark = "."
    return letter + mark


def render_text(s: NightingaleState, player: int | None = None, colour: bool = False) -> str:
    """The castle and both players' public facts, plus what ``player`` privately knows
    (``None``: everything). Legend: S samurai, So samurai on a footprint disc, N ninja, o disc,
    V vase ($ relic, 0 empty if known), @ open passage, # closed passage (a cell widens to 3
    characters everywhere when one needs it). ``colour=True`` adds ANSI floor colours."""
    b = s.board

    def cell(sq: int) -> str:
        text = _cell(s, sq, player)
        return f"{_ANSI[b.colour[sq]]}\x1b[30m{text}\x1b[0m" if colour else text

    view = {None: "omniscient", NINJA: "ninja's view", SAMURAI: "samurai's view"}[player]
    lines = [f"Castle Nightingale | turn {s.turn} | {view} | side {s.layout[0]}"]
    lines.append(b.render_grid(cell))
    face_up = [COLOURS[c] for c in range(6) if s.tile_loc[c] == 2]
    revealed = [COLOURS[c] for c in range(6) if s.tile_revealed[c]]
    lines.append(
        f"face-up tile: {', '.join(face_up) or '-'} | revealed this turn: "
        f"{', '.join(revealed) or '-'}"
    )
    stolen = sum(1 for w in s.vase_where if w == -1)
    banked = sum(1 for w in s.vase_where if w == -2)
    relics = f" ({s.banked_relics()} relics)" if player in (None, NINJA) else ""
    lines.append(
        f"ninja: vases banked {banked}{relics}, this turn {stolen} | captured {s.captured}/3"
        f" | tokens ninja {len(s.n_equip)} samurai {len(s.s_equip)}"
    )
    if s.n_card >= 0 and (s.n_card_shown or player in (None, NINJA)):
        lines.append(f"ninja card: {NINJA_CARDS[s.n_card].name}")
    if s.s_card >= 0 and (s.s_card_shown or player in (None, SAMURAI)):
        lines.append(f"samurai card: {SAMURAI_CARDS[s.s_card].name}")
    if player in (None, NINJA):
        lines.append(
            "ninja hand: "
            + ", ".join(NINJA_CARDS[c].name for c in s.n_hand)
            + " | tokens: "
            + (", ".join(NINJA_TOKENS[t] for t in s.n_equip) or "-")
        )
    if player in (None, SAMURAI):
        tiles = [COLOURS[c] for c in s.programmed_tiles()]
        lines.append(
            "samurai hand: "
            + ", ".join(SAMURAI_CARDS[c].name for c in s.s_hand)
            + " | tokens: "
            + (", ".join(SAMURAI_TOKENS[t] for t in s.s_equip) or "-")
            + f" | programmed tile: {', '.join(tiles) or '-'}"
        )
    if s.is_terminal():
        result = "draw (turn limit)" if s.draw else f"{('ninja', 'samurai')[s.winner]} wins"
        lines.append(f"game over: {result}")
    else:
        who = ("ninja", "samurai")[s.current_player]
        lines.append(f"{who} decides: {s.decision['kind']}")
    return "\n".join(lines)


def banked_text(s: NightingaleState, player: int | None) -> str:
    """Captures and banked vases for a picture's title: the relic vases banked (what the ninja
    needs 5 of) for a viewer who knows them (the ninja, omniscient); the samurai sees only how
    many vases were banked, not what they hold."""
    banked = sum(1 for w in s.vase_where if w == -2)
    if player == SAMURAI:
        return f"captured {s.captured}/3, vases banked {banked}"
    return f"captured {s.captured}/3, relic vases banked {s.banked_relics()} (of {banked} vases)"


def render_rgb(s: NightingaleState, player: int | None = None) -> np.ndarray:
    """The castle as ``player`` sees it: floor colours, zones, passages, vases, discs, figures."""
    from matplotlib.patches import Circle, Rectangle

    from boardgames_rl.core.rendering import figure_to_rgb, new_figure

    b = s.board
    fig = new_figure(7.5, 7.9, dpi=80)
    ax = fig.add_axes((0.02, 0.06, 0.96, 0.9))
    ax.add_patch(Rectangle((3, 3), 5, 5, color="#7aa35a"))
    ax.text(5.5, 5.5, "garden", ha="center", va="center", color="white", fontsize=12)
    for sq in range(NUM_SQUARES):
        x, y = b.xy[sq]
        ax.add_patch(
            Rectangle(
                (x, y), 1, 1, facecolor=_RGB[b.colour[sq]], edgecolor="#555555", linewidth=0.5
            )
        )
        for n in b.neighbours[sq]:  # thick lines between zones
            if b.zone_of[n] != b.zone_of[sq]:
                nx, ny = b.xy[n]
                if nx == x + 1:
                    ax.plot([x + 1, x + 1], [y, y + 1], color="black", linewidth=2)
                if ny == y + 1:
                    ax.plot([x, x + 1], [y + 1, y + 1], color="black", linewidth=2)
        cx, cy = x + 0.5, y + 0.5
        if b.passage[sq]:
            closed = s.closed[b.passages.index(sq)]
            ax.add_patch(
                Rectangle(
                    (x + 0.2, y + 0.2),
                    0.6,
                    0.6,
                    facecolor="#333333" if closed else "none",
                    edgecolor="black",
                    linewidth=1.5,
                    hatch="xx",
                )
            )
        if sq in s.vase_where:
            t = s.vase_where.index(sq)
            known = player is None or (s.ninja_knows if player == NINJA else s.samurai_knows)[t]
            face = ("#d4a017" if s.vase_content[t] else "#bbbbbb") if known else "#8b5a2b"
            ax.add_patch(
                Rectangle((x + 0.3, y + 0.15), 0.4, 0.7, facecolor=face, edgecolor="black")
            )
        if sq in s.discs:
            ax.add_patch(Circle((cx, cy), 0.22, facecolor="#222222", edgecolor="white"))
        if sq == s.ninja_sq:
            ax.add_patch(Circle((cx, cy), 0.38, facecolor="black", edgecolor="red", linewidth=2))
            ax.text(cx, cy, "N", color="white", ha="center", va="center", fontsize=10)
        if sq == s.samurai_sq:
            ax.add_patch(Circle((cx, cy), 0.38, facecolor="#b22222", edgecolor="gold", linewidth=2))
            ax.text(cx, cy, "S", color="white", ha="center", va="center", fontsize=10)
            if sq in s.discs:  # a disc under him (variant keep_last_disc): drawn in the corner
                ax.add_patch(
                    Circle((x + 0.8, y + 0.8), 0.16, facecolor="#222222", edgecolor="white")
                )
    for i, letter in enumerate("ABCDEFGHIJK"):
        ax.text(i + 0.5, -0.3, letter, ha="center", fontsize=8)
    for j in range(11):
        ax.text(-0.3, j + 0.5, str(j + 1), va="center", fontsize=8)
    view = {None: "omniscient", NINJA: "ninja's view", SAMURAI: "samurai's view"}[player]
    ax.set_title(
        f"Castle Nightingale, turn {s.turn} ({view}); {banked_text(s, player)}", fontsize=9
    )
    ax.set_xlim(-0.6, 11.1)
    ax.set_ylim(11.1, -0.6)
    ax.set_aspect("equal")
    ax.axis("off")
    return figure_to_rgb(fig)
