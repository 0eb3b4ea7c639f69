"""Legal actions of every Night of the Ninja decision (the action mask).

``LEGAL_ACTIONS`` maps each decision kind (``state.DECISIONS``) to the function that lists its
legal action ids; ``legal_ids`` looks the pending decision up there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import numpy as np

from boardgames_rl.games.night_of_the_ninja import actions, cards

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

_BOOL: Final = np.dtype(bool)
"""The mask's dtype as an object (``dtype=bool`` converts the type at every call)."""


def _dealt_cards(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``draft_pick1``: one of the 3 cards dealt."""
    return list(state.dealt[decision["player"]])


def _received_cards(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``draft_pick2``: one of the 2 cards received from the right neighbour."""
    return list(state.received[decision["player"]])


def _commitment(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``commit``: a held card of this phase or ``DONE`` (only ``DONE`` once it said so)."""
    lay = state.game.layout
    p = decision["player"]
    if state.commit_done[p]:
        return [lay.DONE]
    phase = state.phase
    return sorted(c for c in state.held(p) if cards.CARD_PHASE[c] == phase) + [lay.DONE]


def _card_targets(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``target``: the players the resolving card may name (``State.targets``)."""
    return [actions.PLAYER + q for q in state.targets(decision["player"], decision["card"])]


def _shapeshifter_first(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``ss_first``: any nameable player, itself included."""
    return [actions.PLAYER + q for q in state.shapeshifter_names()]


def _shapeshifter_second(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``ss_second``: any nameable player other than the first one named."""
    return [actions.PLAYER + q for q in state.shapeshifter_names(decision["target"])]


def _yes_or_done(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``ss_swap``, ``tm_reveal``, ``shinobi_kill``: ``DONE`` (no) or ``YES``."""
    lay = state.game.layout
    return [lay.DONE, lay.YES]


def _grave_digger_take(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``gd_take``: one of the (up to 2) discards the Grave Digger sees."""
    return sorted(c for c in state.gd[1:3] if c >= 0)


def _grave_digger_use(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``gd_use``: keep it (``DONE``), or play it now (``YES``) if it has an effect of its own."""
    lay = state.game.layout
    return [lay.DONE, lay.YES] if state.gd[3] in cards.ACTIVE_CARDS else [lay.DONE]


def _kept_trickster(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``kept_trickster``: the kept Trickster of this number (if it is the one kept) or ``DONE``."""
    lay = state.game.layout
    return (
        [decision["card"], lay.DONE]
        if state.kept[decision["player"]] == decision["card"]
        else [lay.DONE]
    )


def _merchant_look(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``sm_look``: the House card, or a token if the target holds one."""
    lay = state.game.layout
    return (
        [lay.LOOK_HOUSE, lay.LOOK_TOKEN] if state.tokens[decision["target"]] else [lay.LOOK_HOUSE]
    )


def _merchant_gives(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``sm_swap``: ``DONE`` or give a token of a value the owner holds."""
    lay = state.game.layout
    values = {state.token_value[t] for t in state.tokens[decision["player"]]}
    return [lay.DONE] + [lay.GIVE + i for i, v in enumerate(cards.TOKEN_VALUES) if v in values]


def _thief_victims(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``thief_target``: a player holding more tokens (``State.thief_targets``) or ``DONE``."""
    return [actions.PLAYER + q for q in state.thief_targets(decision["player"])] + [
        state.game.layout.DONE
    ]


def _reacts(state: NightOfTheNinjaState, decision: dict) -> list[int]:
    """``react``: the Mirror Monk / Martyr the victim holds, or ``DONE``."""
    held = state.held(decision["player"])
    return [c for c in cards.REACTS if c in held] + [state.game.layout.DONE]


LEGAL_ACTIONS: Final[dict[str, Callable[[NightOfTheNinjaState, dict], list[int]]]] = {
    "draft_pick1": _dealt_cards,
    "draft_pick2": _received_cards,
    "commit": _commitment,
    "target": _card_targets,
    "ss_first": _shapeshifter_first,
    "ss_second": _shapeshifter_second,
    "ss_swap": _yes_or_done,
    "gd_take": _grave_digger_take,
    "gd_use": _grave_digger_use,
    "kept_trickster": _kept_trickster,
    "tm_reveal": _yes_or_done,
    "sm_look": _merchant_look,
    "sm_swap": _merchant_gives,
    "thief_target": _thief_victims,
    "shinobi_kill": _yes_or_done,
    "react": _reacts,
}
"""Decision kind -> the function listing its legal action ids (``(state, decision) -> ids``)."""


def legal_ids(state: NightOfTheNinjaState) -> list[int]:
    """Ids of the legal actions of the pending decision (empty when the game is over)."""
    d = state.decision
    if d is None:
        return []
    rule = LEGAL_ACTIONS.get(d["kind"])
    if rule is None:
        raise RuntimeError(f"night_of_the_ninja: unknown decision {d['kind']!r}")
    return rule(state, d)


def legal_list(state: NightOfTheNinjaState) -> list[int]:
    """The legal actions ascending, each once: the actions of :func:`legal_mask`, listed without
    a mask (search loops read this)."""
    ids = _pending_ids(state)
    for i in range(1, len(ids)):
        if ids[i] <= ids[i - 1]:  # most rules list them ascending already
            return sorted(set(ids))
    return ids


def legal_mask(state: NightOfTheNinjaState) -> np.ndarray:
    """Boolean mask of shape ``(num_actions,)`` of the legal actions."""
    mask = bytearray(state.game.num_actions)  # a byte per action, read by numpy without a copy
    for a in _pending_ids(state):
        mask[a] = 1
    return np.frombuffer(mask, _BOOL)


def _pending_ids(state: NightOfTheNinjaState) -> list[int]:
    """:func:`legal_ids`, refused when a pending decision has no action (an engine fault)."""
    ids = legal_ids(state)
    if not ids and state.decision is not None:
        raise RuntimeError(f"night_of_the_ninja: decision {state.decision['kind']!r} has no action")
    return ids
