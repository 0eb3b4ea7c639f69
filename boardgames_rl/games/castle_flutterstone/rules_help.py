"""What ``?`` shows in ``boardgames-rl play``: the rules of the pending decision and the text of
the ghost cards it involves, in our own words (written from the rulebook; the landing model and
every reading are in ``docs/rules/castle_flutterstone.md``). Every fact of this game is public
except the order of the draw pile.

``RULES`` has one entry per decision phase of ``data.PHASES`` (checked by a test).
"""

from __future__ import annotations

import textwrap

from boardgames_rl.core.game import State
from boardgames_rl.games.castle_flutterstone.data import (
    CARD_NAMES,
    GOAL,
    HELPFUL,
    MAX_HELPFUL_HELD,
    PESKY,
    PHASES,
    Card,
)
from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState

CARD_TEXT: dict[Card, str] = {
    Card.SECOND_GO: "helpful: this turn you flick two bats, one after the other, and move after "
    "each.",
    Card.MOVE_FORWARD: "helpful: move your figure one field forward at once.",
    Card.GHOST_JUMP: "helpful: move up to the next figure ahead and stand on the field behind "
    "it (in front of a bridge if that field is a bridge field).",
    Card.EYES_CLOSED: "pesky: on your next turn you flick with your eyes closed (your aim "
    "spreads much more).",
    Card.CHANGE_HANDS: "pesky: on your next turn you flick with your other hand (less precise).",
    Card.PESKY_GHOST: "pesky: on your next turn the player who gave it to you puts the ghost "
    "figure in a window; a bat that sticks on the ghost moves you up to 2 fields.",
}
"""Ghost card kind -> what it does."""

_FLICK = (
    "Flick a bat at the castle. The action names your aim (default landing model): 'aim' is "
    "the elevation in degrees (10 flat .. 60 steep), 'force' how hard you strike "
    "(0.00 .. 1.00), 'yaw' the direction left (-) or right (+) in degrees: window 1 (low, "
    "wide) is at yaw -15, window 2 (middle, narrow) at 0, window 3 (high, narrowest) at +15; "
    "beyond +-29 the bat flies past the wall. Your skill adds noise to every shot. Where it "
    "lands: courtyard 1 field, castle or a step 2 fields, a window 3, the moat 0 but you may "
    "draw a ghost card, past or over the castle 0."
)

RULES: dict[str, str] = {
    "place_ghost": "You gave the turn player the Pesky ghost card: put the ghost figure in one "
    "of the three windows as an obstacle for every shot of this turn.",
    "play_cards": "Start of your turn: play any of your helpful ghost cards (drawn on an earlier "
    "turn) one at a time, then start flicking. A card drawn this turn waits for your next "
    "turn.",
    "flick": _FLICK,
    "move": "Move your figure forward up to the fields your bat earned. Only free fields count: "
    "you jump over other figures without counting them. You may not stop on a rotten bridge "
    "field: if you cannot get across, you stop before it (the extra points are lost). Excess "
    f"points at the last step (field {GOAL}) do not matter: reaching it wins.",
    "draw": "Your bat fell into the moat: you may draw a ghost card from the pile (it lies "
    "face up in front of you). A helpful one can be played from your next turn; a pesky one "
    "must be given away at once.",
    "discard": f"You may never hold more than {MAX_HELPFUL_HELD} helpful ghost cards: discard "
    "one of them.",
    "give": "You drew a pesky ghost: give it at once to another player who is still racing and "
    "holds no card of that kind; it acts on their next turn.",
}
"""Decision phase -> the rules of that decision, in our own words."""

TITLES: dict[str, str] = {
    "place_ghost": "place the ghost figure in a window",
    "play_cards": "play helpful ghost cards, then flick",
    "flick": "flick a bat (aim, force, yaw)",
    "move": "move your figure",
    "draw": "draw a ghost card from the pile?",
    "discard": "discard a helpful ghost card",
    "give": "give the pesky ghost card to a player",
}


def involved(state: CastleFlutterstoneState, player: int) -> list[str]:
    """Lines naming the ghost cards in play for ``player`` and the turn player (all public)."""
    s = state
    out = []
    turn = s.turn_player
    names = s.game.player_names
    for seat in dict.fromkeys((player, turn)):
        who = "you" if seat == player else names[seat]
        for k, card in enumerate(HELPFUL):
            n = s.helpful_ready[seat][k] + s.helpful_new[seat][k]
            if n:
                new = s.helpful_new[seat][k]
                when = f", {new} drawn this turn" if new else ""
                out.append(f"{who}: {n} x {CARD_NAMES[card]}{when} - {CARD_TEXT[card]}")
        for k, card in enumerate(PESKY):
            if s.pesky[seat][k]:
                out.append(f"{who}: {CARD_NAMES[card]} - {CARD_TEXT[card]}")
    if s.pending_pesky >= 0:
        card = Card(s.pending_pesky)
        out.append(f"drawn, to give away: {CARD_NAMES[card]} - {CARD_TEXT[card]}")
    return out


def _wrap(text: str, first: str, rest: str | None = None) -> str:
    return textwrap.fill(text, 98, initial_indent=first, subsequent_indent=rest or first)


def rules_help(state: State, player: int) -> str:
    """The rules of ``state``'s pending decision and the ghost cards involved, for the person
    at seat ``player`` (``GameSpec.rules_help``)."""
    if not isinstance(state, CastleFlutterstoneState):
        raise TypeError(
            "castle_flutterstone: rules_help explains Castle Flutterstone states only; got a "
            f"state of {state.game.name}"
        )
    s = state
    if s.is_terminal():
        return f"The game is over: the first figure on the last step (field {GOAL}) won."
    phase = PHASES[s.phase]
    lines = [f"RULES - {TITLES[phase]}", _wrap(RULES[phase], "  ")]
    if s.current_player != player:
        lines.append("  (this decision is another player's)")
    extra = involved(s, player)
    if extra:
        lines.append("ghost cards:")
        lines += [_wrap(line, "  ", "    ") for line in extra]
    lines.append(
        _wrap(
            f"Goal: be the first to reach the last step (field {GOAL}); fields 1-12 are the "
            "courtyard, 13-22 the castle steps.",
            "",
        )
    )
    return "\n".join(lines)
