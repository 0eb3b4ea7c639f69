"""Names of the actions in a given state.

Two kinds: :func:`option_name` is a short handle in codes (``take starting pair R2 + A3a``,
``block 2 of S7``) that scenario tests select options by; :func:`contextual_name` (what
``state.action_name``, the ``play`` menu, the AEC env and replays show) says in words what the
action does (``describe.py``'s words, no card or tile codes), at most :data:`MAX_NAME` characters
and distinct for the legal actions of every decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames_rl.games.white_castle.actions import MAX_OPTS
from boardgames_rl.games.white_castle.data import (
    CHECKPOINTS,
    COLOURS,
    GARDENS,
    PLANTS,
    SPACE_NAMES,
    START_RESOURCES,
    WORKERS,
    Effect,
    EffectKind,
)

if TYPE_CHECKING:
    from boardgames_rl.games.white_castle.state import Option, WhiteCastleState


def effect_name(e: Effect) -> str:
    k = e[0]
    if k == EffectKind.GAIN:
        return f"+{e[2]} {e[1]}"
    if k == EffectKind.ANY_RESOURCES:
        return f"+{e[1]} any resource"
    if k == EffectKind.TIME_STEPS:
        return f"+{e[1]} passage of time"
    if k in (EffectKind.PAY_SEAL, EffectKind.PAY_COINS):
        price = "1 seal" if k == EffectKind.PAY_SEAL else f"{e[1]} coins"
        return f"pay {price} -> {effect_name(e[-1])}"
    if k == EffectKind.ANY_TILE:
        return "any " + ("" if e[1] < 0 else COLOURS[e[1]] + " ") + "die-tile action"
    if k == EffectKind.LIGHT:
        return "any light-background action"
    if k in (EffectKind.ROOM_BLOCK, EffectKind.CARD_BLOCK):
        return f"block {e[2] + 1} of {e[1] if k == 'blockc' else f'room {e[1] + 1}'}"
    if k == EffectKind.DOMAIN_ROW:
        return f"domain {WORKERS[e[1]]} row"
    if k == EffectKind.CHOICE:
        return " or ".join(effect_name(x) for x in e[1:])
    return f"{k} action" if k in WORKERS else k


def option_name(state: WhiteCastleState, opt: Option) -> str:
    d = state.decision
    assert d is not None, "options are named while a decision is pending"
    kind = d["kind"]
    if kind == "pair":
        r, a = state.offer[opt[0]]
        return f"take starting pair {r} + {a}"
    if kind == "die":
        return f"take {COLOURS[opt[0]]} die from the {'left' if opt[1] == 0 else 'right'} end"
    if kind == "place":
        return f"place die on {SPACE_NAMES[opt[0]]}"
    if kind in ("order", "opt"):
        return "stop" if opt[0] == "stop" else "do " + effect_name(state.stack[-1]["effs"][opt[0]])
    if kind == "pick":
        return effect_name(d["choices"][opt[0]])
    if kind == "res":
        return f"take 1 {opt[0]}"
    if kind == "gardener":
        return "skip" if opt[0] == "skip" else f"gardener to garden {state.gardens[opt[0]]}"
    if kind == "warrior":
        return "skip" if opt[0] == "skip" else f"warrior to yard {opt[0] + 1}"
    if kind == "courtier":
        if opt[0] == "climb":
            where = "daimyo room" if opt[2] == 3 else SPACE_NAMES[opt[3]]
            return f"climb a courtier from level {opt[1]} to {where}"
        return {"aud": "audience: courtier to the gate", "stop": "stop"}[opt[0]]
    if kind == "daimyo":
        return f"daimyo position {opt[0] + 1}"
    yes = opt[0] == "yes"
    if kind == "lantern_q":
        return "yes: activate the lantern area" if yes else "no: skip the lantern"
    if kind == "checkpoint":
        cost = CHECKPOINTS[state.players[d["player"]]["pot"] + 1]
        return f"yes: pay {cost} seals to pass the checkpoint" if yes else "no: stop before it"
    if kind == "pay":
        what = f"{d['amount']} {d['key']}"
        return f"yes: pay {what} -> {effect_name(d['then'])}" if yes else "no: decline"
    if kind == "final":
        return "done: go to final scoring"
    return f"{kind}: {opt[0]}"


def option_names(state: WhiteCastleState) -> list[str]:
    return [option_name(state, o) for o in state.options()]


MAX_NAME = 90
EXCHANGE_WORDS = (
    "exchange 1 seal for 1 coin",
    "exchange 2 seals for 1 food",
    "exchange 2 seals for 1 iron",
    "exchange 2 seals for 1 pearl",
)


def _block_words(e: Effect, rooms: list[str | None]) -> str:
    """A block effect in words without the card's code: ``Steward room 2: +1 coin``."""
    from boardgames_rl.games.white_castle import describe as W

    if e[0] == EffectKind.CARD_BLOCK:
        return f"block {e[2] + 1}: {W.effects(W.card_blocks(e[1])[e[2]][2])}"
    return W.effect(e, rooms)


def _effect_words(e: Effect, rooms: list[str | None]) -> str:
    from boardgames_rl.games.white_castle import describe as W

    if e[0] in (EffectKind.ROOM_BLOCK, EffectKind.CARD_BLOCK):
        return _block_words(e, rooms)
    if e[0] == EffectKind.CHOICE:
        return " or ".join(_effect_words(x, rooms) for x in e[1:])
    if e[0] == EffectKind.PICK_OF:
        return "one light block of a card" if e[1] else "nothing"
    return W.effect(e, rooms)


def menu_name(state: WhiteCastleState, opt: Option) -> str:
    """One option of the pending decision in words, for a menu line (may be cut later)."""
    from boardgames_rl.games.white_castle import describe as W

    d = state.decision
    assert d is not None, "options are named while a decision is pending"
    kind = d["kind"]
    rooms = state.rooms
    if kind == "pair":
        r, a = state.offer[opt[0]]
        lant = W.effect(START_RESOURCES[r][0])
        blocks = W.card_blocks(a)
        card = W.effects(blocks[0][2]) if len(blocks) == 1 else W.action_card(a)
        return f"{W.resource_card(r)}; lantern {lant}; {card} card"
    if kind == "die":
        b, end = opt
        dice = state.bridges[b]
        v = dice[0] if end == 0 else dice[-1]
        return f"take the {COLOURS[b]} {v} from the {'left' if end == 0 else 'right'} end"
    if kind == "place":
        return "place die: " + W.option_text(state, opt)
    if kind in ("order", "opt"):
        if opt[0] == "stop":
            return "stop"
        return "do " + _effect_words(state.stack[-1]["effs"][opt[0]], rooms)
    if kind == "pick":
        return _effect_words(d["choices"][opt[0]], rooms)
    if kind == "gardener" and opt[0] != "skip":
        cost, vp, eff = GARDENS[state.gardens[opt[0]]]
        kind_word = "plant" if state.gardens[opt[0]] in PLANTS else "stone"
        where = f"{COLOURS[opt[0] // 2]} garden {opt[0] % 2 + 1}"
        return f"gardener to {where} ({kind_word}, {cost} food, {vp} VP): {W.effect(eff)}"
    if kind == "warrior" and opt[0] != "skip":
        return "warrior to " + W.option_text(state, opt)
    if kind == "courtier" and opt[0] == "climb":
        _, lvl, to, room = opt
        cost = 2 if to - lvl == 1 else 5
        src = W.LEVEL_WORDS[lvl]
        if to == 3:
            return f"climb from {src} to the Daimyo floor ({cost} pearl)"
        room_card = rooms[room]
        take = f": {W.action_card(room_card)}" if room_card else " (no card left)"
        return f"climb from {src} to {W.ROOM_WORDS[room]} ({cost} pearl){take}"
    if kind == "courtier" and opt[0] == "aud":
        return W.option_text(state, opt)
    if kind == "pay" and opt[0] == "yes":
        return f"yes: pay {W.plural(d['amount'], d['key'])}, then {_effect_words(d['then'], rooms)}"
    if kind == "daimyo":
        return "daimyo " + W.option_text(state, opt)
    if kind == "checkpoint" and opt[0] == "yes":
        cost = CHECKPOINTS[state.players[d["player"]]["pot"] + 1]
        return f"yes: pay {W.plural(cost, 'seal')} to pass the checkpoint"
    return option_name(state, opt)


def _fit(name: str, room: int) -> str:
    return name if len(name) <= room else name[: room - 3].rstrip(" ,;:") + "..."


def menu_names(state: WhiteCastleState) -> list[str]:
    """The words for every option of the pending decision: cut to :data:`MAX_NAME` characters,
    and numbered (`` [2]``) where two would read the same."""
    names = [_fit(menu_name(state, o), MAX_NAME) for o in state.options()]
    seen: dict[str, int] = {}
    for n in names:
        seen[n] = seen.get(n, 0) + 1
    count: dict[str, int] = {}
    out = []
    for n in names:
        if seen[n] == 1:
            out.append(n)
            continue
        count[n] = count.get(n, 0) + 1
        out.append(f"{_fit(n, MAX_NAME - 5)} [{count[n]}]")
    return out


def contextual_name(state: WhiteCastleState, action: int) -> str:
    if action >= MAX_OPTS:
        return EXCHANGE_WORDS[action - MAX_OPTS]
    return menu_names(state)[action]
