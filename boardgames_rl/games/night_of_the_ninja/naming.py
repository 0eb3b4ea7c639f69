"""Readable names of Night of the Ninja actions in the context of the pending decision.

Examples: ``"pick Spy 3"``, ``"keep Mystic 2"``, ``"play Blind Assassin 4"``, ``"done"``,
``"Spy 1 looks at player_2"``, ``"name player_3"``, ``"swap"``, ``"take Judge"``,
``"play it now"``, ``"keep it"``, ``"reveal"``, ``"look at honor token"``, ``"give a 3"``,
``"steal from player_1"``, ``"kill"``, ``"spare"``, ``"reveal Mirror Monk"``, ``"no react"``.

``NAMING`` gives, for each decision kind (``state.DECISIONS``), the words for the four kinds of
action id it may be answered with (a Ninja card, a player, ``DONE``, ``YES``); the Spirit
Merchant's ``LOOK_*`` and ``GIVE_*`` ids have the same name in every context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from boardgames_rl.games.night_of_the_ninja import actions
from boardgames_rl.games.night_of_the_ninja.data import CARD_KIND, CARD_NAMES

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState


class Words(NamedTuple):
    """Name templates of one decision kind. ``card``: ``{}`` is the card's name; ``player``:
    ``{who}`` the player's name, ``{card}`` / ``{verb}`` the resolving card's name and what it
    does to the player (``TARGET_VERB``)."""

    card: str = "card {}"
    player: str = "choose {who}"
    done: str = "done"
    yes: str = "yes"


GENERIC = Words()
"""The names when no decision is pending (and for the ids a kind is never answered with)."""

NAMING: dict[str, Words] = {
    "draft_pick1": Words(card="pick {}"),
    "draft_pick2": Words(card="keep {}"),
    "commit": Words(card="play {}", done="done"),
    "target": Words(player="{card} {verb} {who}"),
    "ss_first": Words(player="name {who}"),
    "ss_second": Words(player="name {who}"),
    "ss_swap": Words(done="don't swap", yes="swap"),
    "gd_take": Words(card="take {}"),
    "gd_use": Words(done="keep it", yes="play it now"),
    "kept_trickster": Words(card="play kept {}", done="don't play"),
    "tm_reveal": Words(done="don't reveal", yes="reveal"),
    "sm_look": Words(),
    "sm_swap": Words(done="no swap"),
    "thief_target": Words(player="steal from {who}", done="no theft"),
    "shinobi_kill": Words(done="spare", yes="kill"),
    "react": Words(card="reveal {}", done="no react"),
}
"""Decision kind -> its name templates."""

TARGET_VERB = {
    "Spy": "looks at",
    "Mystic": "looks at",
    "Troublemaker": "looks at",
    "Spirit Merchant": "visits",
    "Judge": "kills",
    "Blind Assassin": "attacks",
    "Shinobi": "looks at",
}
"""What a resolving card does to the player its owner names (decision ``target``)."""


def contextual_name(state: NightOfTheNinjaState, action: int) -> str:
    """Name of ``action`` for the pending decision (the generic name when none applies)."""
    g = state.game
    lay = g.layout
    d = state.decision
    words = NAMING[d["kind"]] if d else GENERIC
    if action < actions.PLAYER:
        return words.card.format(CARD_NAMES[action])
    if action < lay.DONE:
        who = g.player_names[action - actions.PLAYER]
        card = d["card"] if d else -1
        if card < 0:
            return words.player.format(who=who)
        verb = TARGET_VERB.get(CARD_KIND[card], "targets")
        return words.player.format(who=who, card=CARD_NAMES[card], verb=verb)
    if action == lay.DONE:
        return words.done
    if action == lay.YES:
        return words.yes
    if lay.GIVE <= action < lay.GIVE + 3:
        return f"give a {action - lay.GIVE + 2}"
    return actions.SPECIALS[action - lay.DONE]
