"""Text and image pictures of a Night of the Ninja round, from a player's view or omniscient.

A seat's picture holds the public facts and that seat's own knowledge only (the observation's
information model, ``observation.py``): two true states sharing that seat's information set give
the same picture. ``player=None`` is an observer's omniscient view.

* :func:`render_text` -- a table of the seats (House card as known to the viewer, alive or what
  killed the player, Honor tokens with the values the viewer knows, Ninja cards held), then every
  public event of the round in order (cards played face up, who looked at or attacked whom, the
  reacts, the deaths, House Reveal and the tokens drawn or moved), the viewer's own knowledge,
  the decision in words and a legend; at most 100 columns at 11 players.
* :func:`render_rgb` -- the table seen from above: standees standing or knocked down in the
  colour of the House known to the viewer, each seat's House card, Honor tokens and the cards it
  played face up, arrows from each card to its targets, the round and phase in the middle, and
  a legend.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.night_of_the_ninja import data
from boardgames_rl.games.night_of_the_ninja.naming import TARGET_VERB

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

PENDING, RESOLVED, LOST = 0, 1, 2  # status of a played card, as in ``state.py``
SRC_GD = 1  # a played card that came from the Grave Digger
MARTYR_AWARD = 3  # ``state.AWARD_MARTYR``
AWARD_WORDS = ("House win", "Ronin survived", "tie survivor", "Martyr")
"""Why a player drew an Honor token (``state.AWARD_*``)."""
RESULT_WORDS = {
    data.LOTUS: "House Lotus wins",
    data.CRANE: "House Crane wins",
    2: "total tie: every survivor draws a token",
    3: "no House wins (the Ronin holds the Mastermind)",
}
STAGE_WORDS = {
    "draft1": "Ninja Draft, first pick",
    "draft2": "Ninja Draft, second pick",
    "phase_start": "Night, {phase} phase",
    "commit": "Night, {phase} phase: cards are played face down",
    "resolve": "Night, {phase} phase: cards resolve, number 1 first",
    "house_reveal": "House Reveal",
    "round_end": "end of the round",
    "over": "game over",
}
"""Engine stage -> its name in words (``{phase}``: the Night phase)."""

DECISION_WORDS = {
    "draft_pick1": "{p} keeps 1 of the 3 Ninja cards dealt (the other 2 pass to the left)",
    "draft_pick2": "{p} keeps 1 of the 2 cards received (the other is discarded face down)",
    "commit": "{p} plays a {phase} card face down, or is done for this phase",
    "target": "{p} names the player {card} {verb}",
    "ss_first": "{p}'s Shapeshifter names a first player",
    "ss_second": "{p}'s Shapeshifter names a second player (the first is {t})",
    "ss_swap": "{p}'s Shapeshifter has seen both House cards: swap them or not",
    "gd_take": "{p}'s Grave Digger takes 1 of the 2 discards it sees",
    "gd_use": "{p} plays the Grave Digger's card now or keeps it face down",
    "kept_trickster": "{p} may play the kept {card} now",
    "tm_reveal": "{p}'s Troublemaker has seen {t}'s House card: show it to all or not",
    "sm_look": "{p}'s Spirit Merchant looks at {t}'s House card or at one of {t}'s tokens",
    "sm_swap": "{p}'s Spirit Merchant may give one of its tokens for one of {t}'s",
    "thief_target": "{p}'s Thief takes a random token from a player holding more, or none",
    "shinobi_kill": "{p}'s Shinobi has seen {t}'s House card: kill {t} or spare",
    "react": "{p} is attacked by {o}'s {card}: reveal a Mirror Monk or Martyr, or not",
}
"""Decision kind -> what is being decided, in words (``{p}`` decides; ``{o}`` owns ``{card}``,
``{t}`` is its target)."""

LEGEND = (
    "legend: * you  > decides now  ? unknown | house: dealt = your card as dealt (a Shapeshifter",
    "  may have swapped it), seen = you looked at it, shown = shown to everyone, was = seen before",
    "  a Shapeshifter named that player | tokens: how many (the values you know) | cards: Ninja",
    "  cards held, + kept = one the Grave Digger keeps face down | rank 1 is a House's highest",
)
OMNISCIENT_LEGEND = (
    "legend: > decides now | house: the card now (the card dealt, if a Shapeshifter swapped it)",
    "  | tokens: how many: the values = the points | cards: Ninja cards held (face down)",
    "  | rank 1 is a House's highest",
)


def _names(state: NightOfTheNinjaState) -> tuple[str, ...]:
    return state.game.player_names


def stage_text(state: NightOfTheNinjaState) -> str:
    """The stage of the round in words."""
    if state.over:
        return STAGE_WORDS["over"]
    phase = data.PHASE_NAMES[state.phase] if 0 <= state.phase <= data.SHINOBI else ""
    return STAGE_WORDS.get(state.stage, state.stage).format(phase=phase)


def decision_text(state: NightOfTheNinjaState) -> str:
    """The pending decision in words (``""`` at the end)."""
    d = state.decision
    if not d:
        return ""
    names = _names(state)
    card = data.CARD_NAMES[d["card"]] if d["card"] >= 0 else ""
    verb = TARGET_VERB.get(data.CARD_KIND[d["card"]], "targets") if d["card"] >= 0 else ""
    phase = data.PHASE_NAMES[state.phase] if 0 <= state.phase <= data.SHINOBI else ""
    return DECISION_WORDS[d["kind"]].format(
        p=names[d["player"]],
        o=names[d["owner"]] if d["owner"] >= 0 else "",
        t=names[d["target"]] if d["target"] >= 0 else "",
        card=card,
        verb=verb,
        phase=phase,
    )


# ----------------------------------------------------------------------------- what is known
def visible_house(state: NightOfTheNinjaState, q: int, viewer: int | None) -> tuple[int, str]:
    """``(House card, how it is known)`` of seat ``q`` for ``viewer``: ``"now"`` (omniscient),
    ``"dealt"``, ``"seen"``, ``"shown"``, ``"was"`` (seen before a Shapeshifter named ``q``),
    or ``(-1, "")`` when unknown."""
    if viewer is None:
        return state.house[q], "now"
    card, how = (state.dealt_house[q], "dealt") if q == viewer else (-1, "")
    for who, target, house, pre in state.looks:
        if target == q and (who == viewer or who == -1):
            card, how = house, "was" if pre else ("shown" if who == -1 else "seen")
    return card, how


def _house_cell(state: NightOfTheNinjaState, q: int, viewer: int | None) -> str:
    card, how = visible_house(state, q, viewer)
    if card < 0:
        return "?"
    name = data.HOUSE_CARD_NAMES[card]
    if how == "now":
        dealt = state.dealt_house[q]
        return name if dealt == card else f"{name}, dealt {data.HOUSE_CARD_NAMES[dealt]}"
    return f"was {name}" if how == "was" else f"{name} {how}"


def _status_cell(state: NightOfTheNinjaState, q: int) -> str:
    if state.alive[q]:
        return "alive"
    return f"dead: {data.CARD_NAMES[state.death[q]]}"


def _tokens_cell(state: NightOfTheNinjaState, q: int, viewer: int | None) -> str:
    held = state.tokens[q]
    if not held:
        return "0"
    if viewer is None:
        values = sorted(state.token_value[t] for t in held)
        return f"{len(held)}: {' '.join(map(str, values))} = {sum(values)}"
    known = set(state.known[viewer])
    values = sorted(state.token_value[t] for t in held if t in known)
    parts = [str(v) for v in values] + ["?"] * (len(held) - len(values))
    return f"{len(held)} ({' '.join(parts)})"


def _cards_cell(state: NightOfTheNinjaState, q: int) -> str:
    committed = sum(1 for _c, o, _src in state.committed if o == q)
    count = len(state.hand[q]) + committed  # face-down commitments are still in front of the player
    return f"{count} + kept" if state.kept[q] >= 0 else str(count)


# ----------------------------------------------------------------------------- events
def _record_text(s: NightOfTheNinjaState, i: int, viewer: int | None) -> str:
    """One played card in words: who played it, on whom, and what came of it."""
    names = _names(s)
    card, owner, src, t1, t2, status = s.played[i]
    kind = data.CARD_KIND[card]
    name = data.CARD_NAMES[card]
    who = names[owner]
    head = f"{who}: {name}" + (" (from the Grave Digger)" if src == SRC_GD else "")
    if status == LOST:
        return f"{head} - lost, {who} died before it resolved"
    tgt = names[t1] if t1 >= 0 else ""
    text = ""
    if kind == "Spy":
        text = f"looked at {tgt}'s House card" if tgt else ""
    elif kind == "Troublemaker":
        text = f"looked at {tgt}'s House card" if tgt else ""
        shown = _troublemaker_showed(s, t1) if tgt and status == RESOLVED else None
        if shown is not None:
            text += ", showed it to all" if shown else ", kept it secret"
    elif kind == "Mystic":
        text = f"looked at {tgt}'s House card and a card in their hand" if tgt else ""
        seen = [c for w, t, c, _time in s.mystic if w == owner and t == t1]
        if viewer is None and seen:
            text += f" ({data.CARD_NAMES[seen[-1]] if seen[-1] >= 0 else 'none'})"
    elif kind == "Shapeshifter":
        if t1 >= 0 and t2 >= 0:
            text = f"named {tgt} and {names[t2]}, saw both House cards"
            swapped = s.ss[3] if s.ss else -1
            if swapped >= 0 and (viewer is None or viewer == owner):
                text += ", swapped them" if swapped else ", did not swap"
            elif swapped >= 0:
                text += ", may have swapped them"
    elif kind == "Grave Digger":
        if s.gd and s.gd[0] == owner and s.gd[3] >= 0:
            offered = sum(1 for c in s.gd[1:3] if c >= 0)
            taken = data.CARD_NAMES[s.gd[3]]
            text = (
                f"took {taken} from the discards"
                if viewer is None or viewer == owner
                else ("took one of 2 discards" if offered == 2 else "took the only discard")
            )
            if s.gd[4] == 0:
                text += ", keeps it face down"
            elif s.gd[4] == 1:
                text += ", played it at once"
        elif status == RESOLVED:
            text = "found no discards"
    elif kind == "Spirit Merchant":
        if tgt:
            text = f"visited {tgt}"
            if s.sm and s.sm[0] == owner and s.sm[1] == t1:
                text += ", looked at " + ("one of their tokens" if s.sm[2] else "their House card")
                if viewer is None and s.sm[2] == 1 and s.sm[3] >= 0:
                    text += f" (worth {s.token_value[s.sm[3]]})"
    elif kind == "Thief":
        text = "showed their House card"
        if status == RESOLVED:
            text += f", took a token from {tgt}" if tgt else ", took nothing"
    elif kind == "Judge":
        text = "showed their House card" + (f", killed {tgt}" if tgt else "")
    elif kind == "Blind Assassin":
        if tgt:
            text = f"attacked {tgt}" + (f": {tgt} died" if s.death[t1] == card else "")
    elif kind == "Shinobi":
        if tgt:
            text = f"looked at {tgt}'s House card"
            if s.death[t1] == card:
                text += f", attacked: {tgt} died"
            elif _reflected(s, i):
                text += ", attacked"
            elif status == RESOLVED:
                text += f", spared {tgt}"
    elif kind == "Mirror Monk":
        text = f"revealed: the attack turns back, {tgt} died" if tgt else "revealed"
    elif kind == "Martyr":
        text = f"revealed: {who} dies" + (
            " and draws an Honor token" if MARTYR_AWARD in s.awards[owner] else ""
        )
    elif kind == "Mastermind":
        text = "revealed at House Reveal: the Mastermind's House wins"
    if status == PENDING:
        d = s.decision
        now = d is not None and d["card"] == card and d["owner"] == owner
        state = "resolving" if now else "face up, resolves in turn"
        text = f"{text}, {state}" if text else state
    return f"{head} - {text}" if text else head


def _troublemaker_showed(state: NightOfTheNinjaState, t: int) -> bool | None:
    """Whether a resolved Troublemaker showed ``t``'s House card to all, as the public record
    tells it; ``None`` when the record cannot tell (``t`` showed its card itself with a Thief or
    Judge this round, or at House Reveal)."""
    shown = any(w == -1 and q == t for w, q, _h, _pre in state.looks)
    own_reveal = any(r[1] == t and data.CARD_KIND[r[0]] in ("Thief", "Judge") for r in state.played)
    if own_reveal or (state.result >= 0 and state.alive[t]):
        return None
    return shown


def _reflected(state: NightOfTheNinjaState, i: int) -> bool:
    """Whether the attack of played record ``i`` was turned back by a Mirror Monk."""
    card, owner, _src, t1, _t2, _status = state.played[i]
    return any(r[0] == data.MIRROR_MONK and r[1] == t1 and r[3] == owner for r in state.played[i:])


def token_moves(state: NightOfTheNinjaState) -> list[tuple[int, int, int]]:
    """``(giver, taker, count)``: Honor tokens (public identities) that changed hands this round
    (the Thief, the Spirit Merchant)."""
    n = state.game.num_players
    start = {t: p for p in range(n) for t in state.round_start_tokens[p]}
    moves: dict[tuple[int, int], int] = {}
    for q in range(n):
        for t in state.tokens[q]:
            p = start.get(t, -1)
            if p >= 0 and p != q:
                moves[(p, q)] = moves.get((p, q), 0) + 1
    return [(p, q, c) for (p, q), c in sorted(moves.items())]


def _own_knowledge(state: NightOfTheNinjaState, me: int) -> list[str]:
    """Lines of what seat ``me`` knows privately (its cards, draft, sights)."""
    names = _names(state)
    cn = data.CARD_NAMES
    out = []
    hand = ", ".join(cn[c] for c in state.hand[me]) or "none"
    line = f"your hand: {hand}"
    if state.kept[me] >= 0:
        line += f"; kept face down: {cn[state.kept[me]]}"
    mine = [cn[c] for c, o, _src in state.committed if o == me]
    if mine:
        line += f"; played face down this phase: {', '.join(mine)}"
    out.append(line)
    draft = f"your draft: dealt {', '.join(cn[c] for c in state.dealt[me])}"
    if state.pick1[me] >= 0:
        passed = ", ".join(cn[c] for c in state.dealt[me] if c != state.pick1[me])
        left = names[(me + 1) % state.game.num_players]
        draft += f"; kept {cn[state.pick1[me]]}, passed {passed} to {left}"
    if state.received[me]:
        draft += f"; received {', '.join(cn[c] for c in state.received[me])}"
    if state.discard_of[me] >= 0:
        draft += f"; discarded {cn[state.discard_of[me]]}"
    out.append(draft)
    for w, t, c, _time in state.mystic:
        if w == me:
            what = cn[c] if c >= 0 else "no card"
            out.append(f"your Mystic saw {what} in {names[t]}'s hand")
        elif t == me and c >= 0 and state.game.target_learns_look:
            out.append(f"{names[w]}'s Mystic saw your {cn[c]}")
    if state.gd and state.gd[0] == me:
        seen = [cn[c] for c in state.gd[1:3] if c >= 0]
        out.append(f"your Grave Digger saw {' and '.join(seen)} in the discards")
    if state.ss and state.ss[0] == me and state.ss[3] >= 0:
        out.append(f"you {'swapped' if state.ss[3] else 'did not swap'} the two House cards")
    if state.sm and state.sm[2] == 1 and state.sm[3] >= 0:
        value = state.token_value[state.sm[3]]
        if state.sm[0] == me:
            out.append(f"your Spirit Merchant saw a {value}-point token of {names[state.sm[1]]}")
        elif state.sm[1] == me and state.game.target_learns_look:
            out.append(f"{names[state.sm[0]]}'s Spirit Merchant saw your {value}-point token")
    return out


def _events(state: NightOfTheNinjaState, viewer: int | None) -> list[str]:
    names = _names(state)
    out = [f"  {_record_text(state, i, viewer)}" for i in range(len(state.played))]
    moves = {(p, q): c for p, q, c in token_moves(state)}
    for (p, q), c in moves.items():
        back = moves.get((q, p), 0)
        if back and p > q:
            continue  # said with the pair's first seat
        text = f"{c} Honor token{'s' if c > 1 else ''} moved from {names[p]} to {names[q]}"
        if back:
            text += f", {back} from {names[q]} to {names[p]}"
        out.append(f"  {text}")
    if state.result >= 0:
        out.append(
            f"  House Reveal: the living show their House cards; {RESULT_WORDS[state.result]}"
        )
        drawn = [
            f"{names[q]} ({AWARD_WORDS[a]})"
            for q in range(state.game.num_players)
            for a in state.awards[q]
            if a != MARTYR_AWARD
        ]
        out.append("  tokens drawn: " + (", ".join(drawn) or "none (the stack is empty)"))
    return out


def render_text(state: NightOfTheNinjaState, player: int | None = None) -> str:
    """The round as a table (one line per seat), the round's public events in order, the viewer's
    own knowledge, the decision in words and a legend. ``player=None`` shows everything."""
    g = state.game
    names = g.player_names
    view = "omniscient view" if player is None else f"{names[player]}'s view"
    goal = "one round" if g.mode == "round" else f"first to {g.target_score} points"
    lines = [
        f"Night of the Ninja | {g.num_players} players | round {state.round} ({goal}) | {view}",
        f"now: {stage_text(state)}",
        f"Honor stack: {len(state.stack)} tokens | draft discards: {len(state.discards)} face down",
        "",
        f"  {'seat':<11}{'house':<24}{'status':<24}{'tokens':<22}cards",
    ]
    deciding = state.decision["player"] if state.decision else -1
    for q in range(g.num_players):
        mark = ("*" if q == player else " ") + (">" if q == deciding else " ")
        lines.append(
            f"{mark}{names[q]:<11}{_house_cell(state, q, player):<24}{_status_cell(state, q):<24}"
            f"{_tokens_cell(state, q, player):<22}{_cards_cell(state, q)}"
        )
    events = _events(state, player)
    lines.append("")
    lines.append("this round:" if events else "this round: nothing played face up yet")
    lines += events
    if player is None:
        lines.append("")
        lines.append(
            "draft discards: " + (", ".join(data.CARD_NAMES[c] for c in state.discards) or "none")
        )
        for q in range(g.num_players):
            held = [data.CARD_NAMES[c] for c in state.hand[q]]
            held += [
                f"{data.CARD_NAMES[c]} (face down)" for c, o, _src in state.committed if o == q
            ]
            if state.kept[q] >= 0:
                held.append(f"{data.CARD_NAMES[state.kept[q]]} (kept)")
            if held:
                lines.append(f"{names[q]} holds: {', '.join(held)}")
    else:
        lines.append("")
        lines.append("you know:")
        lines += [f"  {line}" for line in _own_knowledge(state, player)]
    lines.append("")
    if state.is_terminal():
        if state.truncated:
            lines.append("game over: round cap reached (truncated)")
        else:
            scores = ", ".join(f"{names[p]} {state.score(p)}" for p in range(g.num_players))
            win = ", ".join(names[p] for p in state.winners) or "nobody"
            lines.append(f"game over: {win} won | points: {scores}")
    else:
        lines.append(f"decision: {decision_text(state)}")
    lines += OMNISCIENT_LEGEND if player is None else LEGEND
    return "\n".join(_wrap(line) for line in lines)


def _wrap(line: str, width: int = 100) -> str:
    """A line cut at spaces to at most ``width`` columns (continuations indented)."""
    if len(line) <= width:
        return line
    out, rest = [], line
    while len(rest) > width:
        cut = rest.rfind(" ", 0, width + 1)
        cut = cut if cut > 8 else width
        out.append(rest[:cut])
        rest = "    " + rest[cut:].lstrip()
    out.append(rest)
    return "\n".join(out)


# ----------------------------------------------------------------------------- picture
HOUSE_COLOURS: dict[int, str] = {
    data.LOTUS: "#d9559b",
    data.CRANE: "#2f74c0",
    data.RONIN_HOUSE: "#6d6d6d",
}
UNKNOWN_COLOUR = "#d4d4d4"
TOKEN_COLOURS = {2: "#c7a14a", 3: "#b8b8c8", 4: "#e0c040"}
CARD_W = 0.38  # width of a played card in the picture (in table units)
SEAT_R, TABLE_R, ARROW_R = 1.32, 0.7, 0.66  # radii of the seats, the table and the arrows' ends


def render_rgb(state: NightOfTheNinjaState, player: int | None = None) -> np.ndarray:
    """The table seen from above (see the module docstring), ``uint8 [H, W, 3]``."""
    from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Rectangle

    from boardgames_rl.core.rendering import figure_to_rgb, new_figure

    g = state.game
    n = g.num_players
    names = g.player_names
    fig = new_figure(10.0, 10.8, dpi=80)
    ax = fig.add_axes((0.0, 0.13, 1.0, 0.8))
    ax.set_xlim(-1.85, 1.85)
    ax.set_ylim(-1.8, 1.8)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Circle((0, 0), TABLE_R, facecolor="#efe4cc", edgecolor="#8a7350", linewidth=2))
    pos = []
    for q in range(n):
        ang = np.pi / 2 - 2 * np.pi * q / n
        pos.append((np.cos(ang), np.sin(ang)))
    deciding = state.decision["player"] if state.decision else -1
    for q in range(n):
        ux, uy = pos[q]
        x, y = SEAT_R * ux, SEAT_R * uy
        card, how = visible_house(state, q, player)
        face = HOUSE_COLOURS[data.house_of(card)] if card >= 0 else UNKNOWN_COLOUR
        if q == deciding:
            ax.add_patch(Circle((x, y + 0.02), 0.2, facecolor="#fff3a0", edgecolor="none"))
        if state.alive[q]:  # standee standing
            ax.add_patch(
                Rectangle((x - 0.045, y - 0.1), 0.09, 0.17, facecolor=face, edgecolor="black")
            )
            ax.add_patch(Circle((x, y + 0.11), 0.045, facecolor=face, edgecolor="black"))
        else:  # knocked down, with a red cross
            ax.add_patch(
                Rectangle(
                    (x - 0.12, y - 0.09), 0.17, 0.08, facecolor=face, edgecolor="black", hatch="//"
                )
            )
            ax.add_patch(Circle((x + 0.1, y - 0.05), 0.04, facecolor=face, edgecolor="black"))
            ax.plot([x - 0.08, x + 0.08], [y + 0.07, y - 0.0], color="#c00000", linewidth=2)
            ax.plot([x - 0.08, x + 0.08], [y - 0.0, y + 0.07], color="#c00000", linewidth=2)
        you = " (you)" if q == player else ""
        label = "House ?" if card < 0 else data.HOUSE_CARD_NAMES[card]
        if how == "now" and state.dealt_house[q] != card:
            label += f" (dealt {data.HOUSE_CARD_NAMES[state.dealt_house[q]]})"
        elif how in ("seen", "shown", "dealt", "was"):
            label = f"was {label}" if how == "was" else f"{label} ({how})"
        ax.text(x, y - 0.14, f"{names[q]}{you}", ha="center", va="top", fontsize=9, weight="bold")
        ax.text(x, y - 0.21, label, ha="center", va="top", fontsize=8)
        life = "alive" if state.alive[q] else f"killed: {data.CARD_NAMES[state.death[q]]}"
        colour = "black" if state.alive[q] else "#a00000"
        ax.text(x, y - 0.27, life, ha="center", va="top", fontsize=7.5, color=colour)
        holds = textwrap.wrap(_holds(state, q, player), 26)
        ax.text(x, y - 0.33, "\n".join(holds), ha="center", va="top", fontsize=7)
        drawn = ", ".join(AWARD_WORDS[a] for a in state.awards[q])
        ty = y - 0.43 - 0.055 * (len(holds) - 1)
        _draw_tokens(ax, state, q, player, x, ty, f"+ {drawn}" if drawn else "")
        # the cards it played face up this round, as small cards beside the standee
        played = [r for r in state.played if r[1] == q]
        side = 1 if ux >= -1e-9 else -1
        for j, rec in enumerate(played[-4:]):
            cx = x + 0.1 if side > 0 else x - 0.1 - CARD_W
            cy = y + 0.1 - 0.07 * j
            lost = rec[5] == LOST
            ax.add_patch(
                FancyBboxPatch(
                    (cx, cy - 0.028),
                    CARD_W,
                    0.056,
                    boxstyle="round,pad=0.005",
                    facecolor="#fbf6e9" if not lost else "#dddddd",
                    edgecolor="#6b2d00" if data.CARD_PHASE[rec[0]] >= 3 else "#555555",
                )
            )
            ax.text(
                cx + CARD_W / 2, cy, data.CARD_NAMES[rec[0]], ha="center", va="center", fontsize=7
            )
    for card, owner, _src, t1, t2, status in state.played:
        for t in (t1, t2):
            if t >= 0 and t != owner:
                (x0, y0), (x1, y1) = pos[owner], pos[t]
                kills = data.CARD_KIND[card] in (
                    "Blind Assassin",
                    "Shinobi",
                    "Judge",
                    "Mirror Monk",
                )
                ax.add_patch(
                    FancyArrowPatch(
                        (ARROW_R * x0, ARROW_R * y0),
                        (ARROW_R * x1, ARROW_R * y1),
                        arrowstyle="-|>",
                        mutation_scale=12,
                        color="#b22222" if kills else "#4a6fa5",
                        linewidth=1.6,
                        alpha=0.9 if status != LOST else 0.3,
                    )
                )
                lx, ly = ARROW_R * (0.72 * x0 + 0.28 * x1), ARROW_R * (0.72 * y0 + 0.28 * y1)
                ax.text(
                    lx,
                    ly,
                    data.CARD_NAMES[card],
                    ha="center",
                    va="center",
                    fontsize=6,
                    color="#b22222" if kills else "#4a6fa5",
                    bbox={"boxstyle": "round,pad=0.15", "fc": "#efe4cc", "ec": "none"},
                )
    info = [
        f"round {state.round}: {_short_stage(state)}",
        f"Honor stack: {len(state.stack)} tokens",
        f"draft discards: {len(state.discards)} face down",
    ]
    if state.result >= 0:
        info.append(RESULT_WORDS[state.result].split(":")[0])
    ax.text(
        -1.72,
        1.72,
        "\n".join(info),
        ha="left",
        va="top",
        fontsize=10,
        linespacing=1.5,
        bbox={"boxstyle": "round,pad=0.4", "fc": "#f7f1e3", "ec": "#8a7350"},
    )
    view = "omniscient view" if player is None else f"{names[player]}'s view"
    fig.text(
        0.5,
        0.975,
        f"Night of the Ninja - {n} players - {view}",
        ha="center",
        va="top",
        fontsize=14,
    )
    foot = decision_text(state) if state.decision else "game over"
    fig.text(0.5, 0.945, f"now: {foot}", ha="center", va="top", fontsize=10)
    _legend(fig, player)
    return figure_to_rgb(fig)


def _holds(state: NightOfTheNinjaState, q: int, viewer: int | None) -> str:
    """The Ninja cards seat ``q`` holds: their names for the omniscient view and the viewer's
    own seat, else how many (face-down commitments count, a kept Grave Digger card too)."""
    committed = [c for c, o, _src in state.committed if o == q]
    cards_held = state.hand[q] + committed + ([state.kept[q]] if state.kept[q] >= 0 else [])
    if not cards_held:
        return "holds no cards"
    if viewer is None or viewer == q:
        return "holds " + ", ".join(data.CARD_NAMES[c] for c in cards_held)
    kept = " (1 kept)" if state.kept[q] >= 0 else ""
    return f"holds {len(cards_held)} card{'s' if len(cards_held) > 1 else ''}{kept}"


def _short_stage(state: NightOfTheNinjaState) -> str:
    if state.over:
        return "game over"
    if state.stage in ("draft1", "draft2"):
        return STAGE_WORDS[state.stage]
    if state.stage in ("house_reveal", "round_end"):
        return "House Reveal"
    return f"Night: {data.PHASE_NAMES[state.phase]} phase"


def _draw_tokens(
    ax, state: NightOfTheNinjaState, q: int, viewer: int | None, x: float, y: float, note: str
):
    """Honor tokens as discs under a seat (the value written on those the viewer knows), and
    ``note`` (the tokens drawn this round and why) after them."""
    from matplotlib.patches import Circle

    held = state.tokens[q]
    if not held:
        text = "no tokens" + (f" {note}" if note else "")
        ax.text(x, y, text, ha="center", va="center", fontsize=7, color="#555555")
        return
    known = set(range(data.NUM_TOKENS)) if viewer is None else set(state.known[viewer])
    values = sorted(state.token_value[t] for t in held if t in known)
    labels = [str(v) for v in values] + ["?"] * (len(held) - len(values))
    r = 0.032
    step = 2.2 * r
    x0 = x - step * (len(labels) - 1) / 2
    for j, label in enumerate(labels):
        colour = TOKEN_COLOURS[int(label)] if label != "?" else "#8b5a2b"
        ax.add_patch(Circle((x0 + j * step, y), r, facecolor=colour, edgecolor="black", lw=0.8))
        ax.text(x0 + j * step, y, label, ha="center", va="center", fontsize=7, weight="bold")
    if note:
        end = x0 + (len(labels) - 1) * step + 1.5 * r
        ax.text(end, y, note, ha="left", va="center", fontsize=7, color="#1a7a1a")


def _legend(fig, viewer: int | None) -> None:
    """Keys for the colours and symbols, under the table."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Patch

    handles = [
        Patch(facecolor=HOUSE_COLOURS[data.LOTUS], edgecolor="black", label="Lotus"),
        Patch(facecolor=HOUSE_COLOURS[data.CRANE], edgecolor="black", label="Crane"),
        Patch(facecolor=HOUSE_COLOURS[data.RONIN_HOUSE], edgecolor="black", label="Ronin"),
        Patch(facecolor=UNKNOWN_COLOUR, edgecolor="black", label="House unknown"),
        Patch(facecolor="white", edgecolor="black", hatch="//", label="standee down: dead"),
        Line2D([], [], color="#b22222", linewidth=2, label="attack / kill"),
        Line2D([], [], color="#4a6fa5", linewidth=2, label="look / visit / theft"),
        Circle((0, 0), 1, facecolor="#8b5a2b", edgecolor="black", label="Honor token (? unseen)"),
        Patch(facecolor="#fbf6e9", edgecolor="#555555", label="card played face up"),
        Patch(facecolor="#fff3a0", edgecolor="none", label="decides now"),
    ]
    fig.legend(
        handles=handles,
        loc="lower center",
        bbox_to_anchor=(0.5, 0.04),
        ncol=5,
        fontsize=9,
        frameon=False,
        handlelength=1.6,
    )
    how = (
        "House card as now (dealt card in brackets after a Shapeshifter swap); token values shown"
        if viewer is None
        else "House: dealt = yours as dealt, seen = you looked, shown = shown to all, "
        "was = seen before a Shapeshifter named the player"
    )
    fig.text(0.5, 0.012, how + " | rank 1 is a House's highest", ha="center", fontsize=8.5)
