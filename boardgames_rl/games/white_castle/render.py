"""Text board and picture of The White Castle, written for people.

``render_text(s, seat)`` is an aligned board of at most 100 columns: the castle floors with
the actions of their cards in words, Outside the Walls, the Well, bridges and gardens, training
yards, the Passage of Time track, every player's holdings and Domain, the pending decision with
its options and the effects still to resolve, and a legend. ``render_rgb(s, seat)`` draws the
same as the table looks. A seat's view shows what that seat's observation holds: everything but
the order of the Steward and Diplomat decks (the omniscient view, ``seat=None``, lists them).
"""

from __future__ import annotations

import textwrap
from collections import Counter

import numpy as np

from boardgames_rl.games.white_castle import describe as W
from boardgames_rl.games.white_castle import scoring
from boardgames_rl.games.white_castle.actions import MAX_OPTS
from boardgames_rl.games.white_castle.data import (
    CHECKPOINTS,
    COLOURS,
    DOMAIN_ICONS,
    GARDENS,
    OUTSIDE_CHOICES,
    PLANTS,
    POT_VP,
    ROOM_VALUE,
    ROUNDS,
    YARD_COST,
    YARD_VALUE,
    Effect,
    EffectKind,
    gain,
)
from boardgames_rl.games.white_castle.state import WhiteCastleState

WIDTH = 100


def _wrap(text: str, indent: int, first: str = "") -> list[str]:
    """``first`` + ``text`` wrapped to ``WIDTH`` with a hanging indent."""
    return textwrap.wrap(
        first + text, WIDTH, subsequent_indent=" " * indent, break_on_hyphens=False
    ) or [first.rstrip()]


def _seat(p: int, viewer: int | None) -> str:
    return f"P{p} (you)" if p == viewer else f"P{p}"


def _counted(seats: list[int], viewer: int | None) -> str:
    """``P0 x2 P3``: the seats of a list of figures, counted."""
    c = Counter(seats)
    return (
        " ".join(_seat(p, viewer) + (f" x{k}" if k > 1 else "") for p, k in sorted(c.items()))
        or "-"
    )


def _dice(slots: list[list[int]]) -> str:
    """Dice on a space, bottom first: ``coral 3 (P0) under black 5 (P1)``."""
    if not slots:
        return "-"
    return " under ".join(W.die(v, b, o) for v, o, b in slots)


def _icons(effs: list[Effect]) -> str:
    """Equal effects counted: ``+1 coin x2, +1 pearl``."""
    c = Counter(W.effect(e) for e in effs)
    return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in c.items()) or "nothing"


def _domain_gain(row: int, members_left: int) -> str:
    """What a die on a Domain row gives from the row itself, counted: ``+2 food, +2 coins``."""
    icons = DOMAIN_ICONS[row][: 5 - members_left]
    total: dict[str, int] = {}
    other = []
    for e in icons:
        if e[0] == EffectKind.GAIN:
            total[e[1]] = total.get(e[1], 0) + e[2]
        else:
            other.append(W.effect(e))
    parts = [W.effect(gain(k, n)) for k, n in total.items()] + other
    return ", ".join(parts) or "nothing yet"


def _castle(s: WhiteCastleState, viewer: int | None) -> list[str]:
    out = ["CASTLE  (a courtier reaching floor 1 or 2 takes that room's card as new action card)"]
    out.append(
        f"Floor 3  Daimyo {s.daimyo} (a courtier arriving activates the Lantern, then may take a"
        " free position)"
    )
    for i, o in enumerate(s.daimyo_pos):
        who = _seat(o, viewer) if o >= 0 else "free"
        out.append(f"{'':<15}{'pos ' + str(i + 1):<7}{W.daimyo_position(s.daimyo, i):<38} {who}")
    decks = (s.steward_deck, s.diplomat_deck)
    for floor, rooms, cover, deck, name in (
        (2, (3, 4), 4, 1, "Diplomat"),
        (1, (0, 1, 2), 3, 0, "Steward"),
    ):
        cards = decks[deck]
        if viewer is None:
            left = f"deck top first: {', '.join(cards) or 'empty'}"
        else:
            left = f"deck: {len(cards)} cards, order hidden"
        out += _wrap(f"{name} rooms (a die covers {cover}; {left})", 9, f"Floor {floor}  ")
        for r in rooms:
            card = s.rooms[r]
            blocks = W.card_blocks(card) if card else []
            for row, col in enumerate(s.room_tiles[r]):
                head = (
                    f"  room {r % 3 + 1 if r < 3 else r - 2}  {card or 'none':<4}"
                    if row == 0
                    else ""
                )
                if card:
                    bi = row if r >= 3 else next(i for i, b in enumerate(blocks) if row in b[0])
                    text = W.block(blocks[bi])
                else:
                    text = "(no card: deck empty)"
                dice = f"dice: {_dice(s.spaces[r])}" if row == 0 else ""
                out.append(f"{head:<15}{COLOURS[col]:<7}{text:<38} {dice}".rstrip())
    c = [
        ", ".join(
            f"{_seat(p, viewer)} x{s.players[p]['courtiers'][lvl]}"
            for p in range(s.n)
            if s.players[p]["courtiers"][lvl]
        )
        or "-"
        for lvl in range(4)
    ]
    out += _wrap(
        f"Gate {c[0]};  floor 1 {c[1]};  floor 2 {c[2]};  floor 3 {c[3]}", 11, "Courtiers  "
    )
    return out


def _well_tiles(s: WhiteCastleState, tiles: str) -> str:
    """The Well tiles' rewards, said to be for a die above 1 unless the flag pays them for a 1."""
    return tiles if s.game.well_one_pays_tiles else f"above 1: {tiles}"


def _outside(s: WhiteCastleState) -> list[str]:
    out = ["OUTSIDE THE WALLS (a die covers 5; the space gives one of two actions)"]
    for sp, side in ((5, "left"), (6, "right")):
        a, b = OUTSIDE_CHOICES[sp - 5]
        text = f"{W.effect(a).split()[0]} or {W.effect(b)}"
        out.append(f"  {side:<7}{text:<30}dice: {_dice(s.spaces[sp])}")
    tiles = ", ".join(W.die_tile_reward(t) for t in s.well_tiles)
    out.append(f"THE WELL (covers 1, any number of dice): +1 seal; {_well_tiles(s, tiles)}")
    dice = ", ".join(W.die(v, b, o).replace(" ", "\xa0") for v, o, b in s.spaces[7]) or "-"
    out += [x.replace("\xa0", " ") for x in _wrap(dice, 9, "  dice: ")]
    return out


def _bridges(s: WhiteCastleState, viewer: int | None) -> list[str]:
    out = [
        "BRIDGES (take a die from either end; the left end, lowest, also lets you use the Lantern)",
        "  and the GARDENS below each bridge (a gardener pays the food, gets the effect now and at",
        "  the end of rounds 1-2 while the bridge still holds a die, and the VP at the end)",
        f"  {'bridge':<7}{'dice':<12}{'garden':<19}{'effect':<37}gardeners",
    ]
    for b, dice in enumerate(s.bridges):
        for k in range(2):
            i = 2 * b + k
            gid = s.gardens[i]
            cost, vp, eff = GARDENS[gid]
            kind = "Plant" if gid in PLANTS else "Stone"
            garden = f"{cost} food {vp:>2} VP"
            who = " ".join(_seat(p, viewer) for p in s.garden_workers[i]) or "-"
            head = f"  {COLOURS[b]:<7}{' '.join(map(str, dice)) or '(empty)':<12}" if k == 0 else ""
            out.append(f"{head:<21}{kind:<6}{garden:<13}{W.effect(eff):<37}{who}".rstrip())
    return out


def _yards(s: WhiteCastleState, viewer: int | None) -> list[str]:
    out = [
        "TRAINING YARDS (a warrior pays the iron and gets every tile of the yard; at the end each",
        "  warrior scores its yard's value x its owner's courtiers inside the castle)",
    ]
    for y in range(3):
        tiles = "; ".join(W.yard_tile(t, f) for t, f in s.yards[y])
        who = _counted(s.yard_warriors[y], viewer)
        cost = f"{YARD_COST[y]} iron, value {YARD_VALUE[y]}"
        out.append(f"  yard {y + 1}  {cost:<18}{tiles:<42} warriors: {who}")
    return out


def _track(s: WhiteCastleState, viewer: int | None) -> list[str]:
    at: dict[int, list[int]] = {}
    for p in sorted(range(s.n), key=lambda p: -s.players[p]["pot_arr"]):
        at.setdefault(s.players[p]["pot"], []).append(p)
    marks = "   ".join(
        f"{pos}: " + " ".join(_seat(p, viewer) for p in ps) for pos, ps in sorted(at.items())
    )
    return [
        "PASSAGE OF TIME (0-20; entering 6 / 11 / 15 costs 1 / 2 / 3 seals; end VP: 3 from 6,",
        "  6 from 11, 10 at 15 up to 15 at 20; turn order: furthest first, on a tie the later",
        "  arrival)",
        *_wrap(marks, 2, "  markers (top of a stack first): "),
    ]


def _players(s: WhiteCastleState, viewer: int | None) -> list[str]:
    tot = scoring.totals(s)
    out = [
        "PLAYERS  food iron pearl coins seals  VP  PoT  in Domain  in castle  score",
        "         (caps 7, 7, 7; 5 seals)               C / G / W  Gt 1 2 3   if it ended now",
    ]
    for p in range(s.n):
        pl = s.players[p]
        mem = " / ".join(str(m) for m in pl["members"])
        cou = " ".join(str(c) for c in pl["courtiers"])
        out.append(
            f"{_seat(p, viewer):<9}{pl['food']:>4}{pl['iron']:>5}{pl['pearl']:>6}{pl['coin']:>6}"
            f"{pl['seal']:>6}{pl['vp']:>4}{pl['pot']:>5}  {mem:<9}  {cou:<9}{tot[p]:>6}"
        )
    out.append("  (C / G / W = courtiers, gardeners, warriors; Gt = Gate, 1 2 3 = castle floors)")
    for p in range(s.n):
        pl = s.players[p]
        card = pl["action_card"]
        out += _wrap(
            f"{card}: {W.action_card(card)}" if card else "none yet",
            4,
            f"{_seat(p, viewer)}  action card ",
        )
        lant = Counter(W.lantern_entry(c) for c in pl["lantern"])
        out += _wrap(
            ", ".join(k if n == 1 else f"{k} x{n}" for k, n in lant.items()) or "empty",
            4,
            "    Lantern area: ",
        )
        rows = []
        for r in range(3):
            d = s.domain_dice[p][r]
            die = f" [die {d}]" if d else ""
            rows.append(f"{COLOURS[r]} {_domain_gain(r, pl['members'][r])}{die}")
        out += _wrap(";  ".join(rows), 4, "    Domain rows give (then the card's block): ")
    return out


def _decision(s: WhiteCastleState, viewer: int | None) -> list[str]:
    if s.phase == "over":
        return _final(s, viewer)
    d = s.decision
    if d is None:
        return []
    p = d["player"]
    what = W.DECISION_WORDS.get(d["kind"], d["kind"])
    if d["kind"] == "place" and s.held:
        col, val, left = s.held
        end = "left end: may use the Lantern" if left else "right end"
        what += f": {COLOURS[col]} {val} ({end})"
    elif d["kind"] == "checkpoint":
        cost = CHECKPOINTS[s.players[p]["pot"] + 1]
        what += f" ({cost} seals, {d['steps']} steps to go)"
    elif d["kind"] == "pay":
        what += f" ({d['amount']} {d['key']}: {W.effect(d['then'], s.rooms)})"
    elif d["kind"] == "res":
        what += f" ({d['left']} to choose)"
    out = _wrap(what, 4, f"NOW: {_seat(p, viewer)} to decide -- ")
    pending = [W.effect(e, s.rooms) for fr in reversed(s.stack) for e in fr["effs"] if fr["p"] == p]
    if pending and d["kind"] not in ("order", "opt"):
        out += _wrap("; ".join(pending), 4, "  still to resolve: ")
    out.append("  options:")
    for o in s.options():
        out += _wrap(W.option_text(s, o), 8, "    - ")
    if s.legal_action_mask()[MAX_OPTS:].any() and viewer in (None, p):
        out.append("      (seal exchanges: 1 seal -> 1 coin, 2 seals -> 1 food / iron / pearl)")
    return out


def _final(s: WhiteCastleState, viewer: int | None) -> list[str]:
    keys = ("track", "coins_seals", "resources", "passage_of_time", "courtiers", "warriors")
    heads = ("VP track", "coins+seals", "resources", "PoT", "courtiers", "warriors")
    out = [
        f"GAME OVER -- winner {_seat(s.winner(), viewer)}",
        "         " + "".join(f"{h:>12}" for h in heads) + f"{'gardeners':>10}{'total':>7}",
    ]
    for p, b in enumerate(s.scores()):
        out.append(
            f"{_seat(p, viewer):<9}"
            + "".join(f"{b[k]:>12}" for k in keys)
            + f"{b['gardeners']:>10}{b['total']:>7}"
        )
    return out


def _offer(s: WhiteCastleState, viewer: int | None) -> list[str]:
    if not s.offer:
        return []
    order = ", ".join(_seat(p, viewer) for p in s.draft_left)
    left = f"still to choose: {order}" if order else "every player has chosen; one is left over"
    out = [f"STARTING PAIRS (taken in reverse turn order; {left})"]
    for r, a in s.offer:
        out += _wrap(W.starting_pair(r, a), 12, f"  {r} + {a:<4} ")
    return out


def render_text(s: WhiteCastleState, player: int | None = None) -> str:
    """The board as text (at most 100 columns); ``player`` None = the omniscient view."""
    view = "omniscient view" if player is None else f"view of P{player}"
    turn = f"turn {min(s.turns_taken + 1, 3 * s.n)} of {3 * s.n}" if s.phase == "play" else ""
    out = [
        f"THE WHITE CASTLE   round {s.round} of {ROUNDS}   {turn}   "
        f"{W.PHASE_WORDS.get(s.phase, s.phase)}   ({view})",
        "Turn order: " + ", ".join(_seat(p, player) for p in s.turn_order),
        "",
    ]
    blank = [""]
    out += _offer(s, player) + (blank if s.offer else [])
    out += _castle(s, player) + blank + _outside(s) + blank + _bridges(s, player) + blank
    out += _yards(s, player) + blank + _track(s, player) + blank + _players(s, player) + blank
    out += _decision(s, player)
    out += blank + legend(s.n).splitlines()
    return "\n".join(line.rstrip() for line in out)


def legend(n: int = 4) -> str:
    """The legend of the text board and picture (also printed under every text board)."""
    lines = W.legend(n).splitlines()
    return "\n".join(x for line in lines for x in _wrap(line.strip(), 2, "  "))[2:]


# ---------------------------------------------------------------- picture
_DIE_FACE = ("#f07560", "#262626", "#fafafa")
_DIE_INK = ("black", "white", "black")
_SEAT = ("#1f6fd1", "#2e9e3e", "#8e44ad", "#d4a017")
_PAPER = "#f6f0e1"


class _Canvas:
    """A matplotlib axes in board units (1 unit = half an inch, y grows downwards)."""

    def __init__(self, ax):
        self.ax = ax

    def box(self, x, y, w, h, fc="white", ec="#555555", lw=1.0, z=1):
        from matplotlib.patches import FancyBboxPatch

        self.ax.add_artist(
            FancyBboxPatch(
                (x, y),
                w,
                h,
                boxstyle="round,pad=0,rounding_size=0.15",
                fc=fc,
                ec=ec,
                lw=lw,
                zorder=z,
            )
        )

    def text(
        self,
        x,
        y,
        s,
        size=7.0,
        width=None,
        color="black",
        weight="normal",
        ha="left",
        va="top",
        z=5,
        lines=None,
    ):
        """Text at (x, y) wrapped to ``width`` board units; returns the height used."""
        if width is not None:
            chars = max(8, int(width * 60 / size))
            parts = textwrap.wrap(s, chars, break_on_hyphens=False) or [""]
            if lines is not None and len(parts) > lines:
                parts = textwrap.wrap(s, int(chars * 1.25), break_on_hyphens=False)
            s = "\n".join(parts)
        self.ax.text(
            x,
            y,
            s,
            fontsize=size,
            color=color,
            weight=weight,
            ha=ha,
            va=va,
            zorder=z,
            linespacing=1.15,
        )
        return (s.count("\n") + 1) * size * 1.2 / 36

    def die(self, x, y, colour, value, owner=None, size=0.62):
        from matplotlib.patches import FancyBboxPatch

        edge = _SEAT[owner] if owner is not None else "#777777"
        self.ax.add_artist(
            FancyBboxPatch(
                (x, y),
                size,
                size,
                boxstyle="round,pad=0,rounding_size=0.1",
                fc=_DIE_FACE[colour],
                ec=edge,
                lw=2.2 if owner is not None else 1.0,
                zorder=6,
            )
        )
        self.ax.text(
            x + size / 2,
            y + size / 2,
            str(value),
            ha="center",
            va="center",
            fontsize=8.5 * size / 0.62,
            color=_DIE_INK[colour],
            weight="bold",
            zorder=7,
        )

    def tile(self, x, y, colour, size=0.45):
        from matplotlib.patches import Rectangle

        self.ax.add_artist(
            Rectangle((x, y), size, size, fc=_DIE_FACE[colour], ec="#555555", lw=0.8, zorder=4)
        )

    def disc(self, x, y, p, r=0.2, label=None, filled=True):
        from matplotlib.patches import Circle

        self.ax.add_artist(
            Circle((x, y), r, fc=_SEAT[p] if filled else "white", ec=_SEAT[p], lw=1.2, zorder=8)
        )
        if label:
            self.ax.text(
                x,
                y,
                label,
                ha="center",
                va="center",
                fontsize=6,
                color="white",
                weight="bold",
                zorder=9,
            )


def _draw_track(c: _Canvas, s: WhiteCastleState, x0: float, y0: float, w: float) -> None:
    cell = w / 21
    c.text(
        x0,
        y0,
        "Passage of Time (seal cost to enter a checkpoint; VP at the end below each "
        "space; later arrival on top)",
        size=7.5,
        weight="bold",
    )
    y = y0 + 0.45
    stacks: dict[int, list[int]] = {}
    for p in sorted(range(s.n), key=lambda p: s.players[p]["pot_arr"]):
        stacks.setdefault(s.players[p]["pot"], []).append(p)
    for i in range(21):
        x = x0 + i * cell
        fc = "#fde9b8" if i in CHECKPOINTS else "#fffaf0"
        c.box(x, y, cell - 0.06, 1.55, fc=fc, ec="#9a8a6a", lw=0.7)
        c.text(x + 0.08, y + 0.05, str(i), size=7, weight="bold")
        if i in CHECKPOINTS:
            c.text(
                x + cell - 0.12, y + 0.05, f"{CHECKPOINTS[i]}s", size=6, ha="right", color="#9b2c00"
            )
        c.text(
            x + cell / 2,
            y + 1.5,
            f"{POT_VP[i]}VP",
            size=5.5,
            ha="center",
            va="bottom",
            color="#555555",
        )
        for k, p in enumerate(stacks.get(i, [])):
            # a stack: the first arrival at the bottom, each later one on top of it
            c.disc(x + cell / 2 + 0.1, y + 1.08 - k * 0.25, p, r=0.15, label=str(p))


def _draw_stack(c: _Canvas, slots: list[list[int]], x: float, y: float) -> None:
    """A space's dice as they lie: a second die sits on top of the first, offset."""
    for k, (v, o, b) in enumerate(slots):
        c.die(x + k * 0.5, y + k * 0.16, b, v, o)


def _draw_offer(
    c: _Canvas, s: WhiteCastleState, x: float, y: float, w: float, h: float, viewer: int | None
) -> None:
    """The starting pairs on offer (Resource card + Action card), in words."""
    c.box(x, y, w, h, fc="#fff4d6", ec="#b08a2e", lw=1.4)
    order = ", ".join(f"P{p}" for p in s.draft_left) or "nobody (one pair is left over)"
    c.text(x + 0.12, y + 0.1, "Starting pairs on offer", size=7.5, weight="bold")
    yy = y + 0.45
    yy += (
        c.text(
            x + 0.12,
            yy,
            f"taken in reverse turn order; still to choose: {order}",
            size=7.0,
            width=w - 0.25,
        )
        + 0.1
    )
    for r, a in s.offer:
        c.text(x + 0.12, yy, f"{r} + {a}", size=7.5, weight="bold")
        yy += 0.3
        yy += c.text(x + 0.3, yy, W.starting_pair(r, a), size=7.0, width=w - 0.45) + 0.1


def _draw_room(
    c: _Canvas,
    s: WhiteCastleState,
    r: int,
    x: float,
    y: float,
    w: float,
    h: float,
    viewer: int | None,
) -> None:
    card = s.rooms[r]
    name = W.ROOM_WORDS[r]
    fc = "#efe2c4" if r < 3 else "#dfe3f0"
    c.box(x, y, w, h, fc=fc)
    cover = ROOM_VALUE[r]
    c.text(x + 0.12, y + 0.1, f"{name}: {card or 'no card'}", size=7.5, weight="bold")
    c.text(x + w - 0.1, y + 0.12, f"covers {cover}", size=6.5, ha="right", color="#555555")
    _draw_stack(c, s.spaces[r], x + w - 1.25, y + 0.38)
    rows = s.room_tiles[r]
    top = y + 1.15
    row_h = (h - 1.25) / len(rows)
    blocks = W.card_blocks(card) if card else []
    for row, col in enumerate(rows):
        ry = top + row * row_h
        c.tile(x + 0.15, ry + 0.05, col)
        if not card:
            continue
        bi = row if r >= 3 else next(i for i, b in enumerate(blocks) if row in b[0])
        b = blocks[bi]
        if b[1]:
            c.box(x + 0.72, ry, w - 0.85, row_h - 0.08, fc="#6b5a45", ec="#6b5a45", lw=0.5, z=2)
        c.text(
            x + 0.8,
            ry + 0.04,
            W.effects(b[2]),
            size=6.8,
            width=w - 1.0,
            color="white" if b[1] else "black",
            z=5,
        )


_SCORE_WORDS = {
    "track": "VP track",
    "coins_seals": "coins+seals",
    "resources": "resources",
    "passage_of_time": "PoT",
    "courtiers": "courtiers",
    "warriors": "warriors",
    "gardeners": "gardeners",
}


def _draw_domain(
    c: _Canvas,
    s: WhiteCastleState,
    p: int,
    x: float,
    y: float,
    w: float,
    h: float,
    viewer: int | None,
    total: int,
) -> None:
    pl = s.players[p]
    c.box(x, y, w, h, fc="#fbfbf6", ec=_SEAT[p], lw=2.0)
    you = " (you)" if p == viewer else ""
    c.disc(x + 0.35, y + 0.35, p, r=0.2, label=str(p))
    c.text(x + 0.7, y + 0.1, f"P{p} = player_{p}{you}", size=8.5, weight="bold", color=_SEAT[p])
    c.text(
        x + w - 0.15,
        y + 0.12,
        f"{'final score' if s.phase == 'over' else 'score now'} {total}   "
        f"VP track {pl['vp']}   PoT {pl['pot']}",
        size=7.5,
        ha="right",
        weight="bold",
    )
    res = (
        f"food {pl['food']}   iron {pl['iron']}   pearl {pl['pearl']}   coins {pl['coin']}"
        f"   seals {pl['seal']}"
    )
    c.text(x + 0.2, y + 0.68, res, size=7.5)
    # the three Domain rows: die space, members at home (leave from the left), gains
    row_h = 0.5 if h < 6 else 0.62
    yy = y + 1.15
    for r in range(3):
        ry = yy + r * row_h
        d = s.domain_dice[p][r]
        if d:
            c.die(x + 0.2, ry, r, d, p, size=0.44)
        else:
            c.tile(x + 0.2, ry, r, size=0.44)
        left = pl["members"][r]
        for k in range(5):
            c.disc(x + 0.95 + k * 0.36, ry + 0.22, p, r=0.14, filled=k >= 5 - left)
        label = f"{W.WORKER_WORDS[r]}s {left}/5; a die here gives {_domain_gain(r, left)}"
        c.text(x + 2.85, ry + 0.04, label, size=6.5, width=w - 3.0, lines=1)
    yy += 3 * row_h + 0.05
    cou = pl["courtiers"]
    gard = sum(g.count(p) for g in s.garden_workers)
    war = sum(yw.count(p) for yw in s.yard_warriors)
    c.text(
        x + 0.2,
        yy,
        f"courtiers: Gate {cou[0]}, floor 1 {cou[1]}, floor 2 {cou[2]}, "
        f"floor 3 {cou[3]}   gardeners out {gard}   warriors out {war}",
        size=6.5,
    )
    yy += 0.38
    card = pl["action_card"]
    text = f"Action card {card}: {W.action_card(card)}" if card else "Action card: none yet"
    yy += c.text(x + 0.2, yy, text, size=6.5, width=w - 0.4) + 0.08
    lant = Counter(W.lantern_entry(k) for k in pl["lantern"])
    text = ", ".join(k if n == 1 else f"{k} x{n}" for k, n in lant.items()) or "empty"
    yy += c.text(x + 0.2, yy, f"Lantern: {text}", size=6.5, width=w - 0.4)
    if s.phase == "over":
        b = scoring.breakdown(s, p)
        parts = ", ".join(f"{_SCORE_WORDS[k]} {b[k]}" for k in _SCORE_WORDS)
        c.text(x + 0.2, yy + 0.05, f"Final score: {parts}", size=6.5, width=w - 0.4, weight="bold")


def render_rgb(s: WhiteCastleState, player: int | None = None) -> np.ndarray:
    """The table as a picture: the main board laid out as the real one (Passage of Time track
    on top, the castle floors with their cards' blocks next to their die tiles, Outside the Walls
    on both sides, the Well, the Training Yards, the three bridges with their dice and the gardens
    below them) and every player's Domain on the right."""
    from boardgames_rl.core.rendering import figure_to_rgb, new_figure

    W_UNITS, H_UNITS = 40.0, 21.6
    fig = new_figure(W_UNITS / 2, H_UNITS / 2, dpi=96)
    fig.patch.set_facecolor("white")
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, W_UNITS)
    ax.set_ylim(H_UNITS, 0)
    ax.axis("off")
    c = _Canvas(ax)
    view = "omniscient view" if player is None else f"view of P{player}"
    phase = W.PHASE_WORDS.get(s.phase, s.phase)
    c.text(
        0.4,
        0.2,
        f"The White Castle  -  round {s.round} of {ROUNDS}  -  {phase}  -  {view}",
        size=12,
        weight="bold",
    )
    turn_order = " > ".join(f"P{p}" for p in s.turn_order)
    now = ""
    if s.phase == "over":
        finals = ", ".join(f"P{p} {v}" for p, v in enumerate(scoring.totals(s)))
        now = f"game over: P{s.winner()} wins (final scores {finals})"
    elif s.decision is not None:
        now = f"P{s.decision['player']} to decide: {W.DECISION_WORDS[s.decision['kind']]}"
        opts = " / ".join(W.option_text(s, o) for o in s.options())
        if s.decision["kind"] in ("pick", "order", "opt", "res") and len(opts) < 110:
            now += f": {opts}"
        if s.decision["kind"] == "place" and s.held:
            col, val, left = s.held
            now += f" ({COLOURS[col]} {val} from the {'left' if left else 'right'} end)"
    c.text(0.4, 0.95, f"turn order {turn_order}   |   {now}", size=8.5, width=27.0, lines=1)

    # board background
    c.box(0.2, 1.45, 27.1, 19.95, fc=_PAPER, ec="#9a8a6a", lw=1.2, z=0)
    _draw_track(c, s, 0.5, 1.6, 26.6)

    # castle
    cx, cw = 7.0, 14.3
    c.box(cx - 0.15, 4.05, cw + 0.3, 12.0, fc="#e9e4da", ec="#8a7f6a", lw=1.0, z=0.5)
    # floor 3: Daimyo
    dx, dw = cx + 2.2, cw - 4.4
    c.box(dx, 4.2, dw, 2.25, fc="#e6d3ef")
    c.text(
        dx + 0.12,
        4.28,
        f"Floor 3  Daimyo {s.daimyo}: a courtier arriving gains the Lantern, then a free position",
        size=7,
        weight="bold",
        width=dw - 0.2,
        lines=1,
    )
    pw = dw / 3
    for i in range(3):
        px = dx + i * pw
        c.box(px + 0.08, 4.75, pw - 0.16, 1.6, fc="white", ec="#9a7fb0", lw=0.8, z=2)
        c.text(
            px + 0.18, 4.82, f"{i + 1}: {W.daimyo_position(s.daimyo, i)}", size=6.8, width=pw - 0.9
        )
        o = s.daimyo_pos[i]
        if o >= 0:
            c.disc(px + pw - 0.4, 5.95, o, r=0.2, label=str(o))
    # floors 2 and 1
    decks = (s.steward_deck, s.diplomat_deck)
    for floor, rooms, ytop, h, deck in ((2, (3, 4), 6.6, 3.0, 1), (1, (0, 1, 2), 9.9, 4.35, 0)):
        k = len(rooms)
        rw = (cw - 0.2 * (k - 1)) / k
        for j, r in enumerate(rooms):
            _draw_room(c, s, r, cx + j * (rw + 0.2), ytop, rw, h, player)
        cards = decks[deck]
        if player is None:
            info = f"deck, top first: {', '.join(cards) or 'empty'}"
        else:
            info = f"deck: {len(cards)} cards (order hidden)"
        c.text(
            cx,
            ytop + h + 0.02,
            f"Floor {floor} ({'Diplomat' if deck else 'Steward'}) {info}",
            size=6.2,
            color="#444444",
            width=cw,
            lines=1,
        )
    # the Gate and courtiers by level
    gy = 14.75
    c.box(cx, gy, cw, 1.15, fc="#d9cfbf")
    c.text(cx + 0.12, gy + 0.08, "Gate and castle floors: courtiers", size=7, weight="bold")
    for lvl, name in enumerate(("Gate", "floor 1", "floor 2", "floor 3")):
        lx = cx + 0.15 + lvl * cw / 4
        c.text(lx, gy + 0.52, name, size=6.5)
        k = 0
        for p in range(s.n):
            m = s.players[p]["courtiers"][lvl]
            if m:
                c.disc(lx + 0.95 + k * 0.66, gy + 0.7, p, r=0.15, label=str(p))
                c.text(lx + 1.12 + k * 0.66, gy + 0.6, f"x{m}", size=6)
                k += 1

    # the Well (left)
    wx, wy, ww = 0.5, 4.2, 6.2
    # during the draft no die is out yet: the Well and Outside the Walls (left) shrink and the
    # starting pairs on offer take the rest of the column
    drafting = bool(s.offer)
    c.box(wx, wy, ww, 1.6 if drafting else 4.9, fc="#cfe3ea")
    c.text(
        wx + 0.12,
        wy + 0.1,
        "The Well (covers 1; any number of dice)",
        size=7.5,
        weight="bold",
        width=ww - 0.2,
        lines=1,
    )
    tiles = ", ".join(W.die_tile_reward(t) for t in s.well_tiles)
    c.text(wx + 0.12, wy + 0.5, f"gives +1 seal; {_well_tiles(s, tiles)}", size=7, width=ww - 0.3)
    for k, (v, o, b) in enumerate(s.spaces[7]):
        c.die(wx + 0.2 + (k % 7) * 0.82, wy + 1.3 + (k // 7) * 0.8, b, v, o)
    # Outside the Walls (both sides of the castle)
    for sp, ox in ((5, 0.5), (6, cx + cw + 0.4)):
        first, second = OUTSIDE_CHOICES[sp - 5]
        oy = 6.0 if drafting and sp == 5 else 9.9
        c.box(ox, oy, 5.8 if sp == 6 else ww, 1.2 if drafting else 2.6, fc="#dcebd2")
        side = "left" if sp == 5 else "right"
        c.text(
            ox + 0.12, oy + 0.1, f"Outside the Walls, {side} (covers 5)", size=7.5, weight="bold"
        )
        c.text(ox + 0.12, oy + 0.55, f"{W.effect(first)} or {W.effect(second)}", size=7)
        _draw_stack(c, s.spaces[sp], ox + 0.3, oy + 1.2)
    if drafting:
        _draw_offer(c, s, wx, 7.4, ww, 8.65, player)
    # Training yards (right of the castle, top)
    yx, yw = cx + cw + 0.4, 5.8
    c.text(yx, 4.2, "Training Yards (warriors)", size=7.5, weight="bold")
    for y in range(3):
        yy = 4.6 + y * 1.75
        c.box(yx, yy, yw, 1.6, fc="#ead9d0")
        c.text(
            yx + 0.1,
            yy + 0.06,
            f"Yard {y + 1}: {YARD_COST[y]} iron, worth {YARD_VALUE[y]} per courtier inside",
            size=6.3,
            weight="bold",
            width=yw - 0.2,
            lines=1,
        )
        tiles = "; ".join(W.yard_tile(t, f) for t, f in s.yards[y])
        c.text(yx + 0.1, yy + 0.45, tiles, size=6.8, width=yw - 0.3)
        for k, p in enumerate(s.yard_warriors[y]):
            c.disc(yx + yw - 0.3 - k * 0.38, yy + 1.3, p, r=0.15, label=str(p))
    # a short key beside the castle (right, below Outside)
    kx, ky = cx + cw + 0.4, 12.8
    key = (
        "Key: a die covers the printed value (higher: gain the difference in coins, lower: "
        "pay it). Square = die tile; a room resolves the blocks next to the tiles of the "
        "die's colour. Dark blocks: not for 'any light action'. Die border and discs = "
        "owner's colour. A gardener's card fires again at the end of rounds 1-2 while the "
        "bridge above it holds a die."
    )
    c.text(kx, ky, key, size=6.3, width=5.8, color="#333333")

    # bridges and gardens (bottom)
    by = 16.35
    bw = (27.0 - 0.6) / 3
    for b in range(3):
        bx = 0.5 + b * (bw + 0.2)
        c.box(bx, by, bw, 1.3, fc="#b9d3e8", ec="#5b7fa0")
        c.text(bx + 0.12, by + 0.08, f"{COLOURS[b]} bridge", size=7.5, weight="bold")
        dice = s.bridges[b]
        if dice:
            c.text(bx + 0.12, by + 0.45, "left end\n(Lantern)", size=5.8, color="#333333")
            for k, v in enumerate(dice):
                c.die(bx + 1.5 + k * 0.75, by + 0.5, b, v)
        else:
            c.text(bx + 1.5, by + 0.6, "(no dice left)", size=7)
        for g in range(2):
            i = 2 * b + g
            gid = s.gardens[i]
            cost, vp, eff = GARDENS[gid]
            gx, gw = bx + g * bw / 2, bw / 2 - 0.1
            kind = "Plant" if gid in PLANTS else "Stone"
            c.box(gx, by + 1.45, gw, 3.35, fc="#e3efd6" if kind == "Plant" else "#e4e2dc")
            c.text(gx + 0.12, by + 1.55, f"{kind} garden", size=7.5, weight="bold")
            c.text(gx + 0.12, by + 1.95, f"{cost} food; {vp} VP at the end", size=7)
            c.text(gx + 0.12, by + 2.4, W.effect(eff), size=7, width=gw - 0.3)
            for k, p in enumerate(s.garden_workers[i]):
                c.disc(gx + 0.35 + k * 0.45, by + 4.45, p, r=0.18, label=str(p))

    # players' Domains (right)
    tot = scoring.totals(s)
    order = [player, *(p for p in range(s.n) if p != player)] if player is not None else range(s.n)
    top, bottom = 1.45, 21.4
    ph = (bottom - top - 0.2 * (s.n - 1)) / s.n
    ph = min(ph, 7.5)
    for k, p in enumerate(order):
        _draw_domain(c, s, p, 27.6, top + k * (ph + 0.2), 12.2, ph, player, tot[p])
    return figure_to_rgb(fig)
