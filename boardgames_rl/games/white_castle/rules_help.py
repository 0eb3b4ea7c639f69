"""What ``?`` shows in ``boardgames-rl play``: the rules of the pending decision and the text of
the cards and tiles it involves, in our own words (written from the rulebook; the readings are
in ``docs/rules/white_castle.md``). Every fact of this game is public except the decks' order.

``RULES`` has one entry per decision kind of ``observation.KINDS`` (checked by a test).
"""

from __future__ import annotations

import textwrap

from boardgames_rl.core.game import State, state_as
from boardgames_rl.games.white_castle import describe as D
from boardgames_rl.games.white_castle.data import DAIMYO
from boardgames_rl.games.white_castle.state import WhiteCastleState

_TURN = (
    "A turn: take a die from either end of a bridge (the left end, the lowest, also gives your "
    "Lantern reward), place it on a space with a die icon (a higher die gains the difference "
    "in coins, a lower one pays it), then do that space's actions in the order you like. 3 "
    "rounds of 3 turns each; a round ends when 3 dice are left on the bridges. The most Clan "
    "Points (VP) wins."
)

RULES: dict[str, str] = {
    "pair": "Setup, in reverse turn order: choose one pair of a Starting Resource card (what "
    "you get now, and its lantern icon for your Lantern area) and a Starting Action card (the "
    "actions of your Domain rows).",
    "die": "Take one die from either end of a bridge; the dice in the middle are out of reach "
    "(the nearest die slides into the gap). A die from the left end (the lowest) lets you "
    "activate your Lantern area.",
    "place": "Place the die on a space with a die icon: a castle room (its actions are those "
    "of the card beside the tiles of the die's colour; a colour with no action there cannot "
    "go), Outside the Walls (any colour: one of its two actions), the Well (value 1: +1 seal; "
    "a die above 1 also gains the Well's two tiles' rewards) or your Domain row of that colour "
    "(coral: courtier, black: gardener, white: warrior row; its rewards, then your action "
    "card's block). The die covers a value: higher gives the difference in coins, lower costs "
    "it.",
    "order": "Choose which of the pending actions to do next; every one will be done.",
    "opt": "Choose one of the actions on offer (each at most once), or stop.",
    "pick": "Choose one of the options listed.",
    "res": "Choose a resource to gain (food, iron or mother-of-pearl; at most 7 of each).",
    "pay": "Pay the cost of this action (in resources, coins or seals) to carry it out, or "
    "decline it. 2 seals may be exchanged for 1 resource and 1 seal for 1 coin at any time.",
    "checkpoint": "Your influence marker reaches a checkpoint of the Passage of Time: pay 1, 2 "
    "or 3 Daimyo seals (for the 1st, 2nd, 3rd) to pass it, or stop before it.",
    "lantern_q": "You took the die from the left end: gain every lantern icon of your Lantern "
    "area (your Starting Resource card, Decrees and the cards put there when a courtier "
    "climbed), in the order you like.",
    "gardener": "Gardener: send your leftmost gardener to a Garden card you have no gardener "
    "on, pay its food cost and take its reward now. Gardens reward their gardeners again at "
    "the end of rounds 1 and 2 (if the bridge still has a die) and score their VP at the end.",
    "warrior": "Warrior: send your leftmost warrior to a training yard, pay its iron cost and "
    "take its reward. At the end each warrior scores its yard's value times your courtiers "
    "inside the castle.",
    "courtier": "Courtier: request an audience (your leftmost courtier to the Gate for 2 coins) "
    "and/or climb (a courtier in the castle moves up 1 level for 2 mother-of-pearl or 2 levels "
    "for 5). Reaching floor 1 or 2 you take that room's card as your new action card (the old "
    "one goes to your Lantern area) and do one of its light actions; reaching floor 3 gives your "
    "Lantern reward and a Daimyo position.",
    "daimyo": "Your courtier reached the Daimyo's room: take a free position on the Daimyo card "
    "and its reward.",
    "final": "Before the final scoring: exchange seals (2 for 1 resource, 1 for 1 coin) as you "
    "like, then score: 1 VP per 5 coins and seals, 1 VP per resource with 3-6 left (2 with 7), "
    "the Passage of Time (3, 6, or 10-15), courtiers (Gate 1, floor 1 3, floor 2 6, floor 3 "
    "10), warriors (yard value x courtiers inside the castle), gardeners (their Garden's VP).",
}
"""Decision kind -> the rules of that decision, in our own words."""


def involved(state: WhiteCastleState, player: int) -> list[str]:
    """Lines naming the cards and tiles of the pending decision (all public)."""
    s = state
    d = s.decision or {}
    kind = d.get("kind")
    p = s.players[player]
    card = p["action_card"]
    out = [f"your action card {card}: {D.action_card(card)}" if card else "no action card yet"]
    lantern = [D.lantern_entry(c) for c in p["lantern"]]
    out.append(f"your Lantern area: {'; '.join(lantern) or 'empty'}")
    if kind == "pair":
        for res, act in s.offer:
            out.append(f"pair {res} + {act}: {D.starting_pair(res, act)}")
    if kind in ("place", "die"):
        for i, room in enumerate(s.rooms):
            if room is None:  # its deck ran out
                out.append(f"{D.ROOM_WORDS[i]}: no card (its deck is empty)")
            else:
                out.append(f"{D.ROOM_WORDS[i]}: {D.card_name(room)}: {D.action_card(room)}")
        tiles = "; ".join(D.die_tile_reward(t) for t in s.well_tiles)
        one = "a 1 too" if s.game.well_one_pays_tiles else "not for a 1"
        out.append(f"the Well's tiles (for a die above 1, {one}): {tiles}")
    if kind == "gardener":
        out += [f"Garden {g}: {D.garden(g)}" for g in s.gardens]
    if kind == "warrior":
        for i, yard in enumerate(s.yards):
            tiles = "; ".join(D.yard_tile(t, face) for t, face in yard)
            out.append(f"yard {i + 1}: {tiles}")
    if kind == "daimyo":
        n = len(DAIMYO[s.daimyo])
        out += [f"{s.daimyo} position {i + 1}: {D.daimyo_position(s.daimyo, i)}" for i in range(n)]
    if kind == "courtier":
        floors = ", ".join(
            f"{D.LEVEL_WORDS[k]}: {n}" for k, n in enumerate(p["courtiers"]) if n
        )  # fmt: skip
        out.append(f"your courtiers: {floors or 'none in the castle'}")
    return out


def _wrap(text: str, first: str, rest: str | None = None) -> str:
    return textwrap.fill(text, 98, initial_indent=first, subsequent_indent=rest or first)


def rules_help(state: State, player: int) -> str:
    """The rules of ``state``'s pending decision and the cards and tiles involved, for the
    person at seat ``player`` (``GameSpec.rules_help``)."""
    s = state_as(state, WhiteCastleState, "white_castle rules_help")
    if s.decision is None:
        return "The game is over: the most Clan Points wins (a tie: higher in the turn order)."
    kind = s.decision["kind"]
    lines = [f"RULES - {D.DECISION_WORDS.get(kind, kind)}", _wrap(RULES[kind], "  ")]
    if s.decision.get("player") != player:
        lines.append("  (this decision is another player's)")
    lines.append("involved:")
    lines += [_wrap(line, "  ", "    ") for line in involved(s, player)]
    lines.append(_wrap(_TURN, ""))
    return "\n".join(lines)
