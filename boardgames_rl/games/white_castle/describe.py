"""The White Castle in words: effects, card blocks, cards, tiles, phases and decisions.

Used by the text board (``render.render_text``), the picture (``render.render_rgb``) and
``legend()``. Every code the board shows (card and tile ids) comes with its text here.
"""

from __future__ import annotations

from boardgames_rl.games.white_castle.data import (
    COLOURS,
    DAIMYO,
    DECREES,
    DIE_TILES,
    DIPLOMATS,
    DOMAIN_VALUE,
    GARDENS,
    PLANTS,
    START_ACTIONS,
    START_RESOURCES,
    STEWARDS,
    YARD_COST,
    YARD_TILES,
    Block,
    Effect,
    EffectKind,
)
from boardgames_rl.games.white_castle.state import (  # one definition
    Option,
    WhiteCastleState,
    card_blocks,
    lantern_icon,
)

PHASE_WORDS = {
    "draft": "choosing starting pairs",
    "play": "placing dice",
    "gardens": "end of round: gardens activate",
    "final": "final seal exchanges before scoring",
    "over": "game over",
}

DECISION_WORDS = {
    "pair": "choose a starting pair (Resource card + Action card)",
    "die": "take a die from either end of a bridge",
    "place": "place the die taken",
    "order": "choose which action to resolve next",
    "opt": "choose an action to resolve (each at most once) or stop",
    "pick": "choose one",
    "res": "choose a resource (food, iron or pearl)",
    "pay": "pay for the action or decline",
    "checkpoint": "pay seals to pass a Passage of Time checkpoint",
    "lantern_q": "activate the Lantern area (die from the left end)?",
    "gardener": "send a gardener to a garden",
    "warrior": "send a warrior to a training yard",
    "courtier": "courtier action: audience at the Gate and/or climb",
    "daimyo": "take a Daimyo position",
    "final": "last seal exchanges, then final scoring",
}

WORKER_WORDS = ("Courtier", "Gardener", "Warrior")
ROW_WORDS = ("top", "middle", "bottom")
LEVEL_WORDS = ("the Gate", "floor 1", "floor 2", "floor 3")
ROOM_WORDS = (
    "Steward room 1",
    "Steward room 2",
    "Steward room 3",
    "Diplomat room 1",
    "Diplomat room 2",
)
SPACE_WORDS = (
    *ROOM_WORDS,
    "Outside the Walls, left",
    "Outside the Walls, right",
    "the Well",
    "own Domain, coral row",
    "own Domain, black row",
    "own Domain, white row",
)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def effect(e: Effect, rooms: list[str | None] | None = None) -> str:
    """One effect in words: ``["g", "food", 2]`` -> ``+2 food``. ``rooms`` (the room cards)
    names the block a pending ``block`` effect refers to."""
    k = e[0]
    if k == EffectKind.GAIN:
        key, n = e[1], e[2]
        if key == "vp":
            return f"+{n} VP"
        if key in ("coin", "seal"):
            return "+" + plural(n, key)
        return f"+{n} {key}"
    if k == EffectKind.ANY_RESOURCES:
        return f"+{n} any resource" if (n := e[1]) == 1 else f"+{e[1]} any resources"
    if k == EffectKind.TIME_STEPS:
        return f"+{e[1]} Passage of Time"
    if k == EffectKind.LANTERN:
        return "Lantern"
    if k == EffectKind.WELL:
        return "Well action"
    if k in (EffectKind.COURTIER, EffectKind.GARDENER, EffectKind.WARRIOR):
        return k.capitalize() + " action"
    if k == EffectKind.DOMAIN:
        return "Domain action"
    if k == EffectKind.ANY_TILE:
        return "any " + ("" if e[1] < 0 else COLOURS[e[1]] + " ") + "die-tile action"
    if k == EffectKind.LIGHT:
        return "any light action"
    if k == EffectKind.PAY_SEAL:
        return f"pay 1 seal: {effect(e[1])}"
    if k == EffectKind.PAY_COINS:
        return f"pay {e[1]} coins: {effect(e[2])}"
    if k == EffectKind.ROOM_BLOCK:
        card = rooms[e[1]] if rooms is not None else None
        if card is None:
            return f"{ROOM_WORDS[e[1]]} block {e[2] + 1}"
        return f"{ROOM_WORDS[e[1]]}: {effects(card_blocks(card)[e[2]][2])}"
    if k == EffectKind.CARD_BLOCK:
        return f"{e[1]} block {e[2] + 1} ({effects(card_blocks(e[1])[e[2]][2])})"
    if k == EffectKind.DOMAIN_ROW:
        return f"Domain {COLOURS[e[1]]} row"
    if k == EffectKind.CHOICE:
        return " or ".join(effect(x) for x in e[1:])
    if k == EffectKind.WELL_SPACE:
        return "the Well's rewards"
    if k == EffectKind.COURTIER_CONTINUED:
        return "rest of the Courtier action"
    if k == EffectKind.DAIMYO_QUESTION:
        return "a Daimyo position if one is free"
    if k == EffectKind.PICK_OF:
        return f"one light block of {e[1][0][1]}" if e[1] else "nothing"
    return str(k)


def effects(effs: list[Effect]) -> str:
    """A list of effects joined: ``+1 coin, Well action``."""
    return ", ".join(effect(e) for e in effs) if effs else "nothing"


def block(b: Block) -> str:
    """A card block: dark blocks are marked (only light ones may be chosen by light actions)."""
    return ("(dark) " if b[1] else "") + effects(b[2])


def card_id(card: str) -> str:
    """The id a person reads: the printed id, or the Decree's name (``Coin Decree``)."""
    return card_name(card) if card in DECREES else card


def lantern_entry(card: str) -> str:
    """A card of a Lantern area: ``+1 pearl (R3)``."""
    return f"{effect(lantern_icon(card))} ({card_id(card)})"


def card_name(card: str) -> str:
    """``S7`` -> ``Steward S7``; decrees get their printed name."""
    if card in STEWARDS:
        return f"Steward {card}"
    if card in DIPLOMATS:
        return f"Diplomat {card}"
    if card in START_ACTIONS:
        return f"Starting Action {card}"
    if card in START_RESOURCES:
        return f"Starting Resource {card}"
    if card in DECREES:
        return {"coin": "Coin", "seal": "Seal", "vp": "VP"}[card.split("_")[0]] + " Decree"
    return card


def action_card(card: str) -> str:
    """An action card's blocks with the rows they cover: ``top: ...; middle+bottom: ...``."""
    out = []
    for rows, dark, effs in card_blocks(card):
        where = "all rows" if len(rows) == 3 else "+".join(ROW_WORDS[r] for r in rows)
        out.append(f"{where}: {block([rows, dark, effs])}")
    return "; ".join(out)


def resource_card(card: str) -> str:
    """A Starting Resource card: what it gives at setup (and its Decree)."""
    lant, gains, decree = START_RESOURCES[card]
    text = effects(gains)
    if decree:
        text += f", {card_name(decree)}"
    return text


def starting_pair(res: str, act: str) -> str:
    """``R2 + A3a`` in words: ``+2 any resources, +4 coins, +2 seals; card: Gardener action``."""
    lant = effect(START_RESOURCES[res][0])
    return f"{resource_card(res)} (lantern {lant}); action card: {action_card(act)}"


def daimyo_position(card: str, i: int) -> str:
    return effects(DAIMYO[card][i])


def garden(gid: str) -> str:
    cost, vp, eff = GARDENS[gid]
    kind = "Plant" if gid in PLANTS else "Stone"
    return f"{kind}, {cost} food, {vp} VP at the end: {effect(eff)}"


def yard_tile(tid: str, face: int) -> str:
    return effect(YARD_TILES[tid][face])


def die_tile_reward(tid: str) -> str:
    return effect(DIE_TILES[tid][1])


def die(value: int, colour: int, owner: int | None = None) -> str:
    """``coral 5 (P1)``."""
    own = "" if owner is None else f" (P{owner})"
    return f"{COLOURS[colour]} {value}{own}"


_LEGEND = """\
  Cards: S1-S15 Steward (floor 1), D1-D12 Diplomat (floor 2), DY1-DY9 Daimyo (floor 3),
  R1-R9 Starting Resource, A1-A3 Starting Action (two copies a/b), Coin / Seal / VP Decree.
  A die on a space covers its value (Steward 3, Diplomat 4, Outside 5, Well 1, Domain 6):
  higher gives the difference in coins, lower costs it. A room resolves the blocks of the
  tiles of the die's colour. (dark) blocks cannot be taken by 'any light action'.
  Lantern: gain every lantern icon of your Lantern area. Caps: 7 food/iron/pearl, 5 seals."""


def legend(n: int = 4) -> str:
    """The key to every code the board shows (card and tile ids, seats, abbreviations)."""
    seats = ", ".join(f"P{p} = player_{p}" for p in range(n))
    head = f"  {seats}; VP = clan points; PoT = Passage of Time."
    if len(head) > 92:
        head = f"  {seats};\n  VP = clan points; PoT = Passage of Time."
    return "\n".join(["LEGEND", head, _LEGEND])


def option_text(state: WhiteCastleState, opt: Option) -> str:
    """One option of the pending decision in words (card and tile ids written out)."""
    from boardgames_rl.games.white_castle.naming import option_name

    d = state.decision
    assert d is not None, "options are named while a decision is pending"
    kind = d["kind"]
    rooms = state.rooms
    if kind == "pair":
        r, a = state.offer[opt[0]]
        return f"{r} + {a}: {starting_pair(r, a)}"
    if kind == "die":
        b, end = opt
        dice = state.bridges[b]
        v = dice[0] if end == 0 else dice[-1]
        where = "left end (lowest; the Lantern may be used)" if end == 0 else "right end"
        return f"take the {COLOURS[b]} {v} from the {where}"
    if kind == "place":
        sp = opt[0]
        covered = DOMAIN_VALUE if sp >= 8 else state.covered(sp)
        held = state.held
        assert held is not None  # a die is placed after it was taken
        delta = held[1] - covered
        money = (
            f"+{plural(delta, 'coin')}"
            if delta > 0
            else (f"pay {plural(-delta, 'coin')}" if delta < 0 else "no coins")
        )
        return f"{SPACE_WORDS[sp]} ({money})"
    if kind in ("order", "opt"):
        if opt[0] == "stop":
            return "stop"
        return effect(state.stack[-1]["effs"][opt[0]], rooms)
    if kind == "pick":
        return effect(d["choices"][opt[0]], rooms)
    if kind == "gardener" and opt[0] != "skip":
        gid = state.gardens[opt[0]]
        return f"garden {opt[0] % 2 + 1} under the {COLOURS[opt[0] // 2]} bridge: {garden(gid)}"
    if kind == "warrior" and opt[0] != "skip":
        y = opt[0]
        tiles = "; ".join(yard_tile(t, f) for t, f in state.yards[y])
        return f"yard {y + 1}: pay {YARD_COST[y]} iron, get {tiles}"
    if kind == "courtier" and opt[0] == "climb":
        _, lvl, to, room = opt
        cost = 2 if to - lvl == 1 else 5
        src = LEVEL_WORDS[lvl]
        if to == 3:
            return f"climb from {src} to the Daimyo floor ({cost} pearl)"
        card = rooms[room]
        take = f", take {card}: {action_card(card)}" if card else " (no card left)"
        return f"climb from {src} to {ROOM_WORDS[room]} ({cost} pearl){take}"
    if kind == "courtier" and opt[0] == "aud":
        return "audience: pay 2 coins, a courtier goes to the Gate"
    if kind == "pay" and opt[0] == "yes":
        return f"yes: pay {plural(d['amount'], d['key'])}, then {effect(d['then'], rooms)}"
    if kind == "daimyo":
        return f"position {opt[0] + 1}: {daimyo_position(state.daimyo, opt[0])}"
    return option_name(state, opt)
