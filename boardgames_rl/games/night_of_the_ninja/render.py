"""Text and image pictures of a Night of the Ninja round, from a player's view or omniscient."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.night_of_the_ninja import cards

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

_STATUS = ("face up", "resolved", "lost")
_AWARD = ("House win", "Ronin", "tie", "Martyr")
_STAGE_TEXT = {"draft1": "Ninja Draft (first pick)", "draft2": "Ninja Draft (second pick)"}


def _stage_text(s: NightOfTheNinjaState) -> str:
    if s.over:
        return "game over"
    if s.stage in _STAGE_TEXT:
        return _STAGE_TEXT[s.stage]
    return f"Night: {cards.PHASE_NAMES[s.phase]} phase"


def _house_text(s: NightOfTheNinjaState, q: int, viewer: int | None) -> str:
    if viewer is None:
        now = cards.HOUSE_CARD_NAMES[s.house[q]]
        if s.house[q] != s.dealt_house[q]:
            now += f" (dealt {cards.HOUSE_SHORT[s.dealt_house[q]]})"
        return now
    text = f"{cards.HOUSE_CARD_NAMES[s.dealt_house[q]]} (dealt)" if q == viewer else "?"
    for who, target, house, pre in s.looks:
        if target == q and (who == viewer or who == -1):
            name = cards.HOUSE_CARD_NAMES[house]
            text = f"{name}{' (revealed)' if who == -1 else ''}" if not pre else f"was {name}"
    return text


def _tokens_text(s: NightOfTheNinjaState, q: int, viewer: int | None) -> str:
    held = s.tokens[q]
    if viewer is None:
        return f"{len(held)} ({s.score(q)} pts)"
    known = set(s.known[viewer])
    values = sorted(s.token_value[t] for t in held if t in known)
    hidden = len(held) - len(values)
    parts = [str(v) for v in values] + ["?"] * hidden
    return f"{len(held)} [{' '.join(parts)}]" if held else "0"


def render_text(s: NightOfTheNinjaState, player: int | None = None) -> str:
    """The round as a table: one line per seat (House card known to the viewer, alive or what
    killed it, tokens, cards held), then the played cards, the discards and the decision.
    ``player=None`` shows everything."""
    g = s.game
    names = g.player_names
    view = "omniscient" if player is None else f"{names[player]}'s view"
    lines = [
        f"Night of the Ninja | {g.num_players} players | round {s.round} | {_stage_text(s)} "
        f"| {view} | stack {len(s.stack)} tokens"
    ]
    lines.append(f"{'seat':<11}{'house':<26}{'state':<26}{'tokens':<16}cards")
    for q in range(g.num_players):
        mark = "*" if q == player else " "
        state = "alive" if s.alive[q] else f"dead ({cards.CARD_NAMES[s.death[q]]})"
        if player is None or player == q:
            cards_text = ", ".join(cards.CARD_NAMES[c] for c in s.hand[q]) or "-"
            if s.kept[q] >= 0:
                cards_text += f" | kept {cards.CARD_NAMES[s.kept[q]]}"
            mine = [c for c, o, _ in s.committed if o == q]
            if mine:
                cards_text += " | committed " + ", ".join(cards.CARD_NAMES[c] for c in mine)
        else:
            cards_text = f"{s.held_count(q) + sum(1 for _, o, _ in s.committed if o == q)} held"
        awards = ", ".join(_AWARD[a] for a in s.awards[q])
        if awards:
            state += f" +{awards}"
        lines.append(
            f"{mark}{names[q]:<10}{_house_text(s, q, player):<26}{state:<26}"
            f"{_tokens_text(s, q, player):<16}{cards_text}"
        )
    if s.played:
        lines.append("played:")
        for card, owner, src, t1, t2, status in s.played:
            targets = " & ".join(names[t] for t in (t1, t2) if t >= 0)
            arrow = f" -> {targets}" if targets else ""
            gd = " (Grave Digger)" if src else ""
            lines.append(
                f"  {cards.CARD_NAMES[card]}{gd} by {names[owner]}{arrow}: {_STATUS[status]}"
            )
    if player is None:
        lines.append("discards: " + (", ".join(cards.CARD_NAMES[c] for c in s.discards) or "-"))
        if s.ss:
            lines.append(f"Shapeshifter swapped: {bool(s.ss[3] == 1)}")
    else:
        lines.append(f"discards: {len(s.discards)} face down")
        seen = [(t, c) for w, t, c, _ in s.mystic if w == player]
        for t, c in seen:
            what = cards.CARD_NAMES[c] if c >= 0 else "no card"
            lines.append(f"your Mystic saw {what} in {names[t]}'s hand")
        if g.target_learns_look:  # the target sees which card / token was looked at
            for w, t, c, _ in s.mystic:
                if t == player and w != player and c >= 0:
                    lines.append(f"{names[w]}'s Mystic saw your {cards.CARD_NAMES[c]}")
            if s.sm and s.sm[1] == player and s.sm[2] == 1:
                value = s.token_value[s.sm[3]]
                lines.append(f"{names[s.sm[0]]}'s Spirit Merchant looked at your {value}-token")
        if s.gd and s.gd[0] == player:
            seen_gd = [cards.CARD_NAMES[c] for c in s.gd[1:3] if c >= 0]
            lines.append(f"your Grave Digger saw {', '.join(seen_gd)}")
        if s.ss and s.ss[0] == player and s.ss[3] >= 0:
            lines.append(f"you {'swapped' if s.ss[3] else 'did not swap'} the House cards")
    if s.result >= 0:
        text = {0: "Lotus wins", 1: "Crane wins", 2: "total tie", 3: "no House wins (Ronin)"}
        extra = " by the Mastermind" if s.by_mastermind else ""
        lines.append(f"round result: {text[s.result]}{extra}")
    if s.is_terminal():
        if s.truncated:
            lines.append("game over: round cap reached (truncated)")
        else:
            scores = ", ".join(f"{names[p]} {s.score(p)}" for p in range(g.num_players))
            win = ", ".join(names[p] for p in s.winners) or "-"
            lines.append(f"game over: winners {win} | scores {scores}")
    else:
        d = s.decision
        extra = f" ({cards.CARD_NAMES[d['card']]})" if d["card"] >= 0 else ""
        lines.append(f"{names[d['player']]} decides: {d['kind']}{extra}")
    return "\n".join(lines)


def render_rgb(s: NightOfTheNinjaState, player: int | None = None) -> np.ndarray:
    """A round table: seats in a circle with standees (standing or knocked down), known or
    revealed House cards, played cards with arrows to their targets, and token counts."""
    from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

    from boardgames_rl.core.rendering import figure_to_rgb, new_figure

    g = s.game
    n = g.num_players
    fig = new_figure(8.0, 8.0, dpi=80)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.92))
    ax.set_xlim(-1.6, 1.6)
    ax.set_ylim(-1.6, 1.6)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Circle((0, 0), 0.95, facecolor="#e8dcc2", edgecolor="#8a7350", linewidth=2))
    colours = {cards.LOTUS: "#e377c2", cards.CRANE: "#1f77b4", cards.RONIN_HOUSE: "#7f7f7f"}
    pos = []
    for q in range(n):
        ang = np.pi / 2 - 2 * np.pi * q / n
        pos.append((1.2 * np.cos(ang), 1.2 * np.sin(ang)))
    for q in range(n):
        x, y = pos[q]
        house = _visible_house(s, q, player)
        face = colours[cards.house_of(house)] if house >= 0 else "#cccccc"
        if s.alive[q]:  # standee standing
            ax.add_patch(
                Rectangle(
                    (x - 0.06, y - 0.12),
                    0.12,
                    0.24,
                    facecolor=face,
                    edgecolor="black",
                    linewidth=1.5,
                )
            )
            ax.add_patch(Circle((x, y + 0.17), 0.06, facecolor=face, edgecolor="black"))
        else:  # knocked down
            ax.add_patch(
                Rectangle(
                    (x - 0.14, y - 0.05),
                    0.24,
                    0.1,
                    facecolor=face,
                    edgecolor="black",
                    linewidth=1.5,
                    hatch="//",
                )
            )
            ax.add_patch(Circle((x + 0.16, y), 0.05, facecolor=face, edgecolor="black"))
        label = cards.HOUSE_SHORT[house] if house >= 0 else "?"
        you = " (you)" if q == player else ""
        ax.text(x, y - 0.22, f"{g.player_names[q]}{you}", ha="center", fontsize=8)
        ax.text(x, y - 0.31, f"house {label} | tokens {len(s.tokens[q])}", ha="center", fontsize=7)
        played_names = [cards.CARD_NAMES[r[0]] for r in s.played if r[1] == q]
        if played_names:
            ax.text(
                x, y + 0.27, "\n".join(played_names[-3:]), ha="center", fontsize=6, color="#6b2d00"
            )
    for card, owner, _src, t1, t2, status in s.played:
        for t in (t1, t2):
            if t >= 0 and t != owner:
                (x0, y0), (x1, y1) = pos[owner], pos[t]
                ax.add_patch(
                    FancyArrowPatch(
                        (0.75 * x0, 0.75 * y0),
                        (0.75 * x1, 0.75 * y1),
                        arrowstyle="->",
                        mutation_scale=10,
                        color="#b22222" if cards.CARD_PHASE[card] >= 3 else "#555555",
                        alpha=0.9 if status != 2 else 0.3,
                    )
                )
    ax.text(0, 0.1, f"round {s.round}", ha="center", fontsize=11)
    ax.text(0, -0.05, _stage_text(s), ha="center", fontsize=9)
    ax.text(
        0,
        -0.2,
        f"stack: {len(s.stack)} tokens | discards: {len(s.discards)}",
        ha="center",
        fontsize=8,
    )
    view = "omniscient" if player is None else f"{g.player_names[player]}'s view"
    ax.set_title(f"Night of the Ninja ({view})", fontsize=11)
    return figure_to_rgb(fig)


def _visible_house(s: NightOfTheNinjaState, q: int, viewer: int | None) -> int:
    if viewer is None:
        return s.house[q]
    house = s.dealt_house[q] if q == viewer else -1
    for who, target, card, pre in s.looks:
        if target == q and (who == viewer or who == -1) and not pre:
            house = card
    return house
