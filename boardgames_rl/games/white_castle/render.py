"""Text rendering of the main board and the players' domains."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.white_castle import data as T


def render_text(s, player: int | None = None) -> str:
    out = [f"The White Castle  round {s.round}  phase {s.phase}  turn order {s.turn_order}"]
    for b, dice in enumerate(s.bridges):
        out.append(f"bridge {T.COLOURS[b]:<5}: {dice}   gardens {s.gardens[2 * b : 2 * b + 2]}")
    for r in range(5):
        tiles = "/".join(T.COLOURS[c] for c in s.room_tiles[r])
        out.append(f"{T.SPACE_NAMES[r]:<16} card {s.rooms[r]} tiles {tiles} dice {s.spaces[r]}")
    for sp in (5, 6, 7):
        out.append(f"{T.SPACE_NAMES[sp]}: dice {s.spaces[sp]}")
    out.append(f"daimyo {s.daimyo} positions {s.daimyo_pos}  well tiles {s.well_tiles}")
    out.append(f"yards {s.yards} warriors {s.yard_warriors}")
    out.append(f"gardeners {s.garden_workers}")
    if s.offer:
        out.append(f"starting pairs {s.offer}")
    seats = range(s.n) if player is None else [player, *(p for p in range(s.n) if p != player)]
    for p in seats:
        pl = s.players[p]
        out.append(
            f"player_{p}: food {pl['food']} iron {pl['iron']} pearl {pl['pearl']} coin "
            f"{pl['coin']} seal {pl['seal']} vp {pl['vp']} PoT {pl['pot']} domain "
            f"{pl['members']} dice {s.domain_dice[p]} courtiers {pl['courtiers']} card "
            f"{pl['action_card']} lantern {pl['lantern']}"
        )
    if s.decision is not None and s.phase != "over":
        from boardgames_rl.games.white_castle.naming import option_names

        out.append(
            f"player_{s.decision['p']} decides {s.decision['kind']}: " + "; ".join(option_names(s))
        )
    return "\n".join(out)


_DIE = ("#ff7f50", "#222222", "#f5f5f5")
_SEAT = ("#1f77b4", "#2ca02c", "#d62728", "#9467bd")


def render_rgb(s, player: int | None = None) -> np.ndarray:
    """The main board: castle rooms with tiles, cards and dice, outside spaces, the Well,
    bridges with dice, gardens, yards, and the tracks of every player."""
    from matplotlib.patches import Rectangle

    from boardgames_rl.core.rendering import figure_to_rgb, new_figure

    fig = new_figure(9, 7, dpi=80)
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.94))
    ax.set_xlim(0, 18)
    ax.set_ylim(15, 0)
    ax.axis("off")

    def die(x, y, colour, value, owner=None):
        edge = _SEAT[owner] if owner is not None else "black"
        ax.add_patch(Rectangle((x, y), 0.8, 0.8, facecolor=_DIE[colour], edgecolor=edge, lw=2))
        ax.text(
            x + 0.4,
            y + 0.4,
            str(value),
            ha="center",
            va="center",
            fontsize=9,
            color="white" if colour == 1 else "black",
        )

    # castle: Daimyo (top), diplomats, stewards
    ax.add_patch(Rectangle((6, 0.3), 6, 1.4, facecolor="#ddd", edgecolor="black"))
    ax.text(9, 1.0, f"Daimyo {s.daimyo}  positions {s.daimyo_pos}", ha="center", fontsize=8)
    for r in range(5):
        x = 1 + r * 3.2 if r < 3 else 3.5 + (r - 3) * 6.5
        y = 5.0 if r < 3 else 2.2
        w = 3.0 if r < 3 else 4.5
        ax.add_patch(
            Rectangle(
                (x, y), w, 2.6, facecolor="#f3e3c3" if r < 3 else "#c9d3ef", edgecolor="black"
            )
        )
        ax.text(x + 0.1, y + 0.4, f"{s.rooms[r] or '-'}", fontsize=8)
        for row, c in enumerate(s.room_tiles[r]):
            ax.add_patch(
                Rectangle(
                    (x + 0.1, y + 0.7 + row * 0.6), 0.5, 0.5, facecolor=_DIE[c], edgecolor="grey"
                )
            )
        for k, (v, o, b) in enumerate(s.spaces[r]):
            die(x + 1.2 + k * 0.9, y + 1.0, b, v, o)
    for sp in (5, 6, 7):
        x = 1 + (sp - 5) * 5.5
        ax.add_patch(Rectangle((x, 8.0), 5, 1.2, facecolor="#e8f0e0", edgecolor="black"))
        ax.text(x + 0.1, 8.35, T.SPACE_NAMES[sp][:24], fontsize=7)
        for k, (v, o, b) in enumerate(s.spaces[sp][:5]):
            die(x + 2.4 + k * 0.5, 8.3, b, v, o)
    for b, dice in enumerate(s.bridges):
        y = 9.6 + b * 1.0
        ax.text(0.2, y + 0.5, T.COLOURS[b], fontsize=8)
        for k, v in enumerate(dice):
            die(1.6 + k * 0.9, y, b, v)
        gs = s.gardens[2 * b : 2 * b + 2]
        ax.text(
            7, y + 0.5, f"gardens {gs} workers {s.garden_workers[2 * b : 2 * b + 2]}", fontsize=7
        )
    for y in range(3):
        ax.text(
            13,
            9.9 + y * 0.6,
            f"yard {y + 1} ({T.YARD_COST[y]} iron): {s.yards[y]} {s.yard_warriors[y]}",
            fontsize=6,
        )
    for p in range(s.n):
        pl = s.players[p]
        ax.text(
            0.2,
            13.0 + p * 0.45,
            f"P{p}: vp {pl['vp']} PoT {pl['pot']} "
            f"coin {pl['coin']} seal {pl['seal']} food {pl['food']} iron {pl['iron']} pearl "
            f"{pl['pearl']} courtiers {pl['courtiers']}",
            fontsize=7,
            color=_SEAT[p],
        )
    ax.set_title(f"The White Castle - round {s.round}, {s.phase}", fontsize=10)
    return figure_to_rgb(fig)
