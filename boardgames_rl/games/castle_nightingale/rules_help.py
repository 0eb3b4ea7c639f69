"""What ``?`` says in ``boardgames-rl play`` for Castle Nightingale (``SPEC.rules_help``): the
pending decision in words, the turn in brief, the rule that decision follows, and the text of the
cards and tokens involved, from what the asking seat can see."""

from __future__ import annotations

import textwrap

from boardgames_rl.core.game import State
from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale.data import (
    NINJA,
    NINJA_CARDS,
    NINJA_TOKEN_TEXT,
    NINJA_TOKENS,
    SAMURAI,
    SAMURAI_CARDS,
    SAMURAI_TOKEN_TEXT,
    SAMURAI_TOKENS,
)
from boardgames_rl.games.castle_nightingale.naming import decision_words
from boardgames_rl.games.castle_nightingale.state import as_nightingale_state

__all__ = ["TURN_OUTLINE", "rules_help"]


TURN_OUTLINE = (
    "A turn: 1. programming: the samurai chooses his card and nightingale tile face down, then "
    "the ninja his card; 2. the ninja shows his card, does its action, then places as many "
    "footprint discs as it moves, one square at a time (a disc on the programmed colour makes "
    "the floor sing: he is seen); 3. the samurai shows tile and card, enters as many zones as it "
    "moves (entering the seen ninja's zone captures him), then does its action; 4. vases taken "
    "are banked, hands refilled, the tile turns face up. The ninja wins with 5 relics banked, "
    "the samurai by capturing 3 ninjas."
)
"""The turn in a few words (the first paragraph of ``rules_help``)."""

_CARD_OF: dict[str, int] = {
    **dict.fromkeys(
        ("sprint_out", "sprint_in", "pick_lock", "pebble", "scout", "listen", "meditate", "decoy"),
        NINJA,
    ),
    **dict.fromkeys(("track", "bar", "sweep_keep", "inspect", "inspect_move", "muster"), SAMURAI),
}
"""Decisions that carry out an action card: whose card it is."""

_RULES: dict[str, str] = {
    "prog_s_tile": "The programmed colour sings when the ninja places a disc on it this turn; "
    "last turn's face-up tile is not available.",
    "place": "Each disc goes on an orthogonally adjacent square (never the samurai's, never "
    "back on this turn's discs); from an open trap door the next disc may go to any other "
    "open trap door; one jump over a square per turn costs a token discarded face down. He "
    "must place every disc: only moves after which all of them (or as many as any path allows) "
    "can still be placed are offered, a jump he can pay for (or a Shuko held) counting as a way.",
    "start": "With no disc and no figurine on the board he enters by an open trap door; with "
    "discs he starts from one of them (the others go); a seen figurine starts where it is.",
    "entry": "Each entry goes into an adjacent zone (a trap door square is a zone of its own; "
    "entering an open one closes it); he may adjust by 1 zone once, paying a token face down.",
    "entry_end": "Ending on a disc removes it; ending on a vase: he looks into it and moves it.",
    "final_square": "Ending on a disc removes it; ending on a vase: he looks into it and moves "
    "it on the same board.",
}
"""Rule reminders for decisions the card and token texts do not cover."""
_MUST_PLACE = "a jump he can pay for (or a Shuko held) counting as a way."
_NEVER_FORCED = (
    "no token counting as a way (variant never_force_token): he may stop where only paying "
    "for a jump could go on."
)


def rules_help(state: State, player: int) -> str:
    """For a person at ``player``'s seat: the pending decision in words, the turn in brief, the
    rule it follows, and the text of the cards and tokens involved (their own hand when they
    choose a card, the card being carried out, the tokens they may use now). Uses only what that
    seat can see."""
    state = as_nightingale_state(state)
    if state.decision is None:
        return "The game is over."
    kind = state.decision["kind"]
    lines = [f"Now: {decision_words(state)}.", "", TURN_OUTLINE]
    if kind in _RULES:
        rule = _RULES[kind]
        if kind == "place" and state.game.never_force_token:
            rule = rule.replace(_MUST_PLACE, _NEVER_FORCED)
        lines += ["", rule]
    cards = []
    if kind in ("prog_n_card", "prog_s_card") and player == state.decision["player"]:
        hand, table = (
            (state.n_hand, NINJA_CARDS) if player == NINJA else (state.s_hand, SAMURAI_CARDS)
        )
        cards = [table[c] for c in hand]
    elif kind in _CARD_OF:
        owner = _CARD_OF[kind]
        card, shown = (
            (state.n_card, state.n_card_shown)
            if owner == NINJA
            else (state.s_card, state.s_card_shown)
        )
        if card >= 0 and (shown or owner == player):
            cards = [(NINJA_CARDS if owner == NINJA else SAMURAI_CARDS)[card]]
    if cards:
        lines += ["", "Cards (movement: action):"]
        lines += [f"  {c.name} ({c.move}): {c.text}" for c in cards]
    if player == state.decision["player"]:
        tokens = []
        for a in state.legal_actions():
            if A.NINJA_TOKEN <= a < A.SAMURAI_TOKEN:
                t = int(a) - A.NINJA_TOKEN
                tokens.append((NINJA_TOKENS[t], NINJA_TOKEN_TEXT[t]))
            elif A.SAMURAI_TOKEN <= a < A.PASS:
                t = int(a) - A.SAMURAI_TOKEN
                tokens.append((SAMURAI_TOKENS[t], SAMURAI_TOKEN_TEXT[t]))
        if tokens:
            lines += ["", "Equipment you may use now:"]
            lines += [f"  {name}: {text}" for name, text in tokens]
    return "\n".join(_fill(line) for line in lines)


def _fill(line: str, width: int = 100) -> str:
    if len(line) <= width:
        return line
    indent = "    " if line.startswith("  ") else ""
    return textwrap.fill(line, width, subsequent_indent=indent)
