"""Readable contextual names of the actions in a given state."""

from __future__ import annotations

from boardgames_rl.games.white_castle import data as T
from boardgames_rl.games.white_castle.legal import MAX_OPTS


def effect_name(e) -> str:
    k = e[0]
    if k == "g":
        return f"+{e[2]} {e[1]}"
    if k == "any":
        return f"+{e[1]} any resource"
    if k == "pot":
        return f"+{e[1]} passage of time"
    if k in ("payseal", "paycoin"):
        return f"pay {'1 seal' if k == 'payseal' else f'{e[1]} coins'} -> {effect_name(e[-1])}"
    if k == "tile":
        return "any " + ("" if e[1] < 0 else T.COLOURS[e[1]] + " ") + "die-tile action"
    if k == "light":
        return "any light-background action"
    if k in ("block", "blockc"):
        return f"block {e[2] + 1} of {e[1] if k == 'blockc' else f'room {e[1] + 1}'}"
    if k == "domrow":
        return f"domain {T.WORKERS[e[1]]} row"
    if k == "choice":
        return " or ".join(effect_name(x) for x in e[1:])
    return f"{k} action" if k in T.WORKERS else k


def option_name(s, opt) -> str:
    d = s.decision
    kind = d["kind"]
    if kind == "pair":
        r, a = s.offer[opt[0]]
        return f"take starting pair {r} + {a}"
    if kind == "die":
        return f"take {T.COLOURS[opt[0]]} die from the {'left' if opt[1] == 0 else 'right'} end"
    if kind == "place":
        return f"place die on {T.SPACE_NAMES[opt[0]]}"
    if kind in ("order", "opt"):
        return "stop" if opt[0] == "stop" else "do " + effect_name(s.stack[-1]["effs"][opt[0]])
    if kind == "pick":
        return effect_name(d["choices"][opt[0]])
    if kind == "res":
        return f"take 1 {opt[0]}"
    if kind == "gardener":
        return "skip" if opt[0] == "skip" else f"gardener to garden {s.gardens[opt[0]]}"
    if kind == "warrior":
        return "skip" if opt[0] == "skip" else f"warrior to yard {opt[0] + 1}"
    if kind == "courtier":
        if opt[0] == "climb":
            where = "daimyo room" if opt[2] == 3 else T.SPACE_NAMES[opt[3]]
            return f"climb a courtier from level {opt[1]} to {where}"
        return {"aud": "audience: courtier to the gate", "stop": "stop"}[opt[0]]
    if kind == "daimyo":
        return f"daimyo position {opt[0] + 1}"
    yes = opt[0] == "yes"
    if kind == "lantern_q":
        return "yes: activate the lantern area" if yes else "no: skip the lantern"
    if kind == "checkpoint":
        cost = T.CHECKPOINTS[s.players[d["player"]]["pot"] + 1]
        return f"yes: pay {cost} seals to pass the checkpoint" if yes else "no: stop before it"
    if kind == "pay":
        what = f"{d['amount']} {d['key']}"
        return f"yes: pay {what} -> {effect_name(d['then'])}" if yes else "no: decline"
    if kind == "final":
        return "done: go to final scoring"
    return f"{kind}: {opt[0]}"


def option_names(s) -> list[str]:
    return [option_name(s, o) for o in s.options()]


def contextual_name(s, action: int) -> str:
    if action >= MAX_OPTS:
        return "exchange " + T.EXCHANGES[action - MAX_OPTS]
    return option_name(s, s.options()[action])
