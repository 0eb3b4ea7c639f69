"""Readable names of Night of the Ninja actions in the context of the pending decision.

Examples: ``"pick Spy 3"``, ``"keep Mystic 2"``, ``"play Blind Assassin 4"``, ``"done"``,
``"Spy 1 looks at player_2"``, ``"name player_3"``, ``"swap"``, ``"take Judge"``,
``"play it now"``, ``"keep it"``, ``"reveal"``, ``"look at honor token"``, ``"give a 3"``,
``"steal from player_1"``, ``"kill"``, ``"spare"``, ``"reveal Mirror Monk"``, ``"no react"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames_rl.games.night_of_the_ninja import actions as A
from boardgames_rl.games.night_of_the_ninja.cards import CARD_NAMES

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.state import NinjaState

_CARD_VERB = {
    "draft_pick1": "pick {}",
    "draft_pick2": "keep {}",
    "commit": "play {}",
    "gd_take": "take {}",
    "kept_trickster": "play kept {}",
    "react": "reveal {}",
}
_DONE = {
    "commit": "done",
    "ss_swap": "don't swap",
    "gd_use": "keep it",
    "kept_trickster": "don't play",
    "tm_reveal": "don't reveal",
    "sm_swap": "no swap",
    "thief_target": "no theft",
    "shinobi_kill": "spare",
    "react": "no react",
}
_YES = {"ss_swap": "swap", "gd_use": "play it now", "tm_reveal": "reveal", "shinobi_kill": "kill"}
_TARGET_VERB = {
    "Spy": "looks at",
    "Mystic": "looks at",
    "Troublemaker": "looks at",
    "Spirit Merchant": "visits",
    "Judge": "kills",
    "Blind Assassin": "attacks",
    "Shinobi": "looks at",
}


def contextual_name(s: NinjaState, action: int) -> str:
    """Name of ``action`` for the pending decision (the generic name when none applies)."""
    g = s.game
    lay = g.layout
    d = s.decision
    kind = d["kind"] if d else ""
    if action < A.PLAYER:
        return _CARD_VERB.get(kind, "card {}").format(CARD_NAMES[action])
    if action < lay.DONE:
        who = g.player_names[action - A.PLAYER]
        if kind == "target":
            from boardgames_rl.games.night_of_the_ninja.cards import CARD_KIND

            verb = _TARGET_VERB.get(CARD_KIND[d["card"]], "targets")
            return f"{CARD_NAMES[d['card']]} {verb} {who}"
        if kind in ("ss_first", "ss_second"):
            return f"name {who}"
        if kind == "thief_target":
            return f"steal from {who}"
        return f"choose {who}"
    if action == lay.DONE:
        return _DONE.get(kind, "done")
    if action == lay.YES:
        return _YES.get(kind, "yes")
    if lay.GIVE <= action < lay.GIVE + 3:
        return f"give a {action - lay.GIVE + 2}"
    return A.SPECIALS[action - lay.DONE]
