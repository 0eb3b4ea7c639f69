"""The White Castle legal actions: the mask of the pending decision (``legal_mask``) and the
legality of the seal exchanges (the action layout is in ``actions.py``; ``MAX_OPTS``,
``N_EXCHANGES`` and ``NUM_ACTIONS`` are re-exported here for older imports).

Actions ``0..MAX_OPTS-1`` choose option k of the pending decision (its options are listed by
``WhiteCastleState.options()``): the first ``len(options)`` are legal. The last four are the seal
exchanges (1 seal -> 1 coin, 2 seals -> 1 food / iron / pearl), legal whenever the deciding
player may exchange (:func:`exchanges_ok`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from boardgames_rl.games.white_castle.actions import MAX_OPTS, N_EXCHANGES, NUM_ACTIONS
from boardgames_rl.games.white_castle.data import RES_CAP

if TYPE_CHECKING:
    from boardgames_rl.games.white_castle.state import WhiteCastleState

__all__ = [
    "MAX_OPTS",
    "N_EXCHANGES",
    "NUM_ACTIONS",
    "exchange_ok",
    "exchanges_ok",
    "legal_mask",
    "legal_options",
]

_NONE: Final = (False,) * N_EXCHANGES
_ONE: Final = (True,) + (False,) * (N_EXCHANGES - 1)
_MASKS: Final[dict[tuple[int, tuple[bool, ...]], np.ndarray]] = {}
"""Read-only legal-action masks by (number of options, exchanges allowed), shared by states."""


def legal_mask(state: WhiteCastleState, options: list[list[Any]] | None = None) -> np.ndarray:
    """Read-only boolean mask of the legal actions of ``state``'s pending decision (all False
    once over): its ``options`` (``state.options()`` when not given) and the exchanges
    :func:`exchanges_ok` allows. Masks are shared: every state with the same legal actions gets
    the same array."""
    if state.phase == "over" or state.decision is None:
        key = (0, _NONE)
    else:
        if options is None:
            options = state.options()
        key = (len(options), exchanges_ok(state))
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[: key[0]] = True
        mask[MAX_OPTS : MAX_OPTS + N_EXCHANGES] = key[1]
        mask.flags.writeable = False
        mask = _MASKS.setdefault(key, mask)
    return mask


def exchange_ok(state: WhiteCastleState, i: int) -> bool:
    """Exchanges: during the player's own turn, garden activation and before final scoring."""
    return exchanges_ok(state)[i]


def exchanges_ok(state: WhiteCastleState) -> tuple[bool, ...]:
    """:func:`exchange_ok` of every exchange (1 seal -> coin, 2 seals -> food / iron / pearl)."""
    decision = state.decision
    if decision is None or state.phase == "draft":
        return _NONE
    seat: int = decision["player"]
    if state.phase == "play" and seat != state.turn_order[state.turns_taken % state.n]:
        return _NONE
    held = state.players[seat]
    seal = held["seal"]
    if seal < 2:
        return _ONE if seal >= 1 else _NONE
    return (True, held["food"] < RES_CAP, held["iron"] < RES_CAP, held["pearl"] < RES_CAP)


def legal_options(state: WhiteCastleState) -> list[list[Any]]:
    """The options of the pending decision (``choose k`` picks option ``k``)."""
    return state.options()
