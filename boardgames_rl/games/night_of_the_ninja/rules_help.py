"""What ``?`` shows in ``boardgames-rl play``: the rules of the pending decision and the text of
the Ninja cards it involves, in our own words (written from the rulebook; the readings are in
``docs/rules/night_of_the_ninja.md``).

``RULES`` has one entry per decision kind of ``state.DECISIONS`` and ``CARD_TEXT`` one per card
kind (both checked by tests). The text uses only what the asking seat can see: its own hand, the
cards it was dealt or passed, the card resolving face up.
"""

from __future__ import annotations

import textwrap

from boardgames_rl.core.game import State
from boardgames_rl.games.night_of_the_ninja.data import (
    CARD_KIND,
    CARD_NAMES,
    PHASE_NAMES,
)
from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

CARD_TEXT: dict[str, str] = {
    "Spy": "Spy phase: look at another player's House card.",
    "Mystic": "Mystic phase: look at another player's House card and one Ninja card in their hand.",
    "Shapeshifter": "Trickster 1: look at the House cards of two players; you may swap them "
    "secretly (their owners do not look again).",
    "Grave Digger": "Trickster 2: look at two discarded Ninja cards and take one; play it at "
    "once or keep it face down for later.",
    "Troublemaker": "Trickster 3: look at another player's House card; you may show it to "
    "everyone.",
    "Spirit Merchant": "Trickster 4: look at another player's House card or one of their Honor "
    "tokens; you may swap one of your Honor tokens with one of theirs.",
    "Thief": "Trickster 5: show your House card; you may take one Honor token from a player who "
    "holds more tokens than you.",
    "Judge": "Trickster 6: show your House card and kill a player of your choice. Mirror Monk "
    "and Martyr do not work against it.",
    "Blind Assassin": "Blind Assassin phase: kill a player of your choice.",
    "Shinobi": "Shinobi phase: choose a player and look at their House card; you may kill them.",
    "Mirror Monk": "React: when a Blind Assassin or Shinobi kills you, show it: the killer dies "
    "instead.",
    "Martyr": "React: when a Blind Assassin or Shinobi kills you, show it: you still die but "
    "gain an Honor token.",
    "Mastermind": "Reveal: if you are alive at the House Reveal, your House wins the round (as "
    "the Ronin: no House wins).",
}
"""Card kind -> what the card does."""

_ROUND = (
    "A round: everyone gets a secret House card (Lotus or Crane, rank 1 highest; the Ronin with "
    "an odd count); draft two Ninja cards; the Night plays them phase by phase (Spy, Mystic, "
    "Trickster, Blind Assassin, Shinobi; within a phase from number 1 to 6); then the living "
    "show their Houses: the House of the highest-ranked survivor wins (ties: the next pair), "
    "and each of its members, dead or alive, draws an Honor token (2, 3 or 4 points). 10 points "
    "win the game."
)

_TARGET = (
    "Name the player your card acts on: a living one for a card that kills (Judge, Blind "
    "Assassin, Shinobi), any other player, dead or alive, for the others."
)

TITLES: dict[str, str] = {
    "draft_pick1": "Ninja Draft, first pick",
    "draft_pick2": "Ninja Draft, second pick",
    "commit": "the Night: play a card of this phase or be done",
    "target": "name the target of your card",
    "ss_first": "Shapeshifter: first player",
    "ss_second": "Shapeshifter: second player",
    "ss_swap": "Shapeshifter: swap the two House cards?",
    "gd_take": "Grave Digger: take a discarded card",
    "gd_use": "Grave Digger: play it now or keep it",
    "kept_trickster": "your kept Trickster: play it now?",
    "tm_reveal": "Troublemaker: show the House card to all?",
    "sm_look": "Spirit Merchant: look at a House card or an Honor token",
    "sm_swap": "Spirit Merchant: swap an Honor token?",
    "thief_target": "Thief: take an Honor token from whom?",
    "shinobi_kill": "Shinobi: kill or spare?",
    "react": "you are being killed: react?",
}
"""Decision kind -> its name in words."""

RULES: dict[str, str] = {
    "draft_pick1": "Ninja Draft: keep one of the three Ninja cards dealt to you; the other two "
    "go to the player on your left.",
    "draft_pick2": "Ninja Draft: keep one of the two cards passed to you; the last one is "
    "discarded face down.",
    "commit": "Night phase: play a card of this phase face up, or be done for this phase. You "
    "are asked once per card you hold, so no one learns from the asking what you hold; a card "
    "not played in its phase cannot be played later this round (you may hold it as a bluff). "
    "Played cards resolve from number 1 to 6.",
    "target": _TARGET,
    "ss_first": "Shapeshifter: name the first of the two players whose House cards you look at "
    "(yourself allowed).",
    "ss_second": "Shapeshifter: name the second player (not the first).",
    "ss_swap": "Shapeshifter: you have seen both House cards; swap them secretly or leave them.",
    "gd_take": "Grave Digger: take one of the two discarded Ninja cards you see.",
    "gd_use": "Grave Digger: play the card you took now (if it has an effect of its own), or "
    "keep it face down to play it later at its own time.",
    "kept_trickster": "You kept a Trickster with the Grave Digger: play it now, at its number, "
    "or keep waiting.",
    "tm_reveal": "Troublemaker: you have looked at the House card; show it to everyone or keep "
    "it to yourself.",
    "sm_look": "Spirit Merchant: look at the target's House card or at one of their Honor "
    "tokens (chosen at random).",
    "sm_swap": "Spirit Merchant: give one of your Honor tokens (choose its value) for the one "
    "you saw (or a random one after a House look), or make no swap.",
    "thief_target": "Thief: take a random Honor token from a player holding more tokens than "
    "you, or take none.",
    "shinobi_kill": "Shinobi: you have seen the House card; kill this player or spare them.",
    "react": "You are being killed by a Blind Assassin or a Shinobi: show a Mirror Monk (the "
    "killer dies instead) or a Martyr (you die but gain an Honor token), or do nothing.",
}
"""Decision kind -> the rules of that decision, in our own words."""


def _card_line(card: int) -> str:
    return f"{CARD_NAMES[card]}: {CARD_TEXT[CARD_KIND[card]]}"


def _ninja_state(state: State) -> NightOfTheNinjaState:
    if not isinstance(state, NightOfTheNinjaState):
        raise TypeError(f"night_of_the_ninja rules help needs its own state, got {type(state)}")
    return state


def involved(state: State, player: int) -> list[str]:
    """Lines naming the cards of the pending decision that ``player`` sees."""
    s = _ninja_state(state)
    d = s.decision or {}
    kind = d.get("kind")
    mine = d.get("player") == player
    cards: list[tuple[str, int]] = []
    if kind == "draft_pick1" and mine:
        cards = [("dealt to you", c) for c in s.dealt[player]]
    elif kind == "draft_pick2" and mine:
        cards = [("passed to you", c) for c in s.received[player]]
    elif kind in ("commit", "react", "kept_trickster") and mine:
        cards = [("in your hand", c) for c in s.hand[player]]
        if s.kept[player] >= 0:
            cards.append(("kept face down", s.kept[player]))
    card = d.get("card", -1)
    if card is not None and card >= 0 and kind not in ("draft_pick1", "draft_pick2", "commit"):
        owner = d.get("owner", -1)
        who = "your card" if owner == player else f"{s.game.player_names[owner]}'s card"
        cards.insert(0, (f"resolving ({who})", card))
    seen: set[tuple[str, int]] = set()
    out = []
    for where, c in cards:
        if (where, c) not in seen:
            seen.add((where, c))
            out.append(f"{where}: {_card_line(c)}")
    return out


def _wrap(text: str, first: str, rest: str | None = None) -> str:
    return textwrap.fill(text, 98, initial_indent=first, subsequent_indent=rest or first)


def rules_help(state: State, player: int) -> str:
    """The rules of ``state``'s pending decision and the cards involved, for the person at seat
    ``player`` (``GameSpec.rules_help``)."""
    s = _ninja_state(state)
    if s.decision is None:
        return "The game is over: the first player to 10 points of Honor wins."
    kind = s.decision["kind"]
    phase = s.phase
    where = f" ({PHASE_NAMES[phase]} phase)" if kind == "commit" and 0 <= phase < 5 else ""
    lines = [f"RULES - {TITLES[kind]}{where}", _wrap(RULES[kind], "  ")]
    if s.decision.get("player") != player:
        lines.append("  (this decision is another player's)")
    extra = involved(s, player)
    if extra:
        lines.append("cards:")
        lines += [_wrap(line, "  ", "    ") for line in extra]
    lines.append(_wrap(_ROUND, ""))
    return "\n".join(lines)
