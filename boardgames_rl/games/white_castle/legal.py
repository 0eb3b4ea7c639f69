"""The legality of the White Castle seal exchanges (the action layout is in ``actions.py``;
``MAX_OPTS``, ``N_EXCHANGES`` and ``NUM_ACTIONS`` are re-exported here for older imports).

Actions ``0..MAX_OPTS-1`` choose option k of the pending decision (its options are listed by
``WhiteCastleState.options()``); the last four are the seal exchanges (1 seal -> 1 coin,
2 seals -> 1 food / iron / pearl), legal whenever the deciding player may exchange.
"""

from __future__ import annotations

from boardgames_rl.games.white_castle import data as T
from boardgames_rl.games.white_castle.actions import MAX_OPTS, N_EXCHANGES, NUM_ACTIONS

__all__ = ["MAX_OPTS", "N_EXCHANGES", "NUM_ACTIONS", "exchange_ok", "exchanges_ok", "legal_options"]


def exchange_ok(s, i: int) -> bool:
    """Exchanges: during the player's own turn, garden activation and before final scoring."""
    return exchanges_ok(s)[i]


def exchanges_ok(s) -> tuple[bool, ...]:
    """:func:`exchange_ok` of every exchange (1 seal -> coin, 2 seals -> food / iron / pearl)."""
    d = s.decision
    if d is None or s.phase == "draft":
        return _NONE
    if s.phase == "play" and d["player"] != s.turn_order[s.turns_taken % s.n]:
        return _NONE
    pl = s.players[d["player"]]
    seal = pl["seal"]
    if seal < 2:
        return _ONE if seal >= 1 else _NONE
    cap = T.RES_CAP
    return (True, pl["food"] < cap, pl["iron"] < cap, pl["pearl"] < cap)


_NONE = (False,) * N_EXCHANGES
_ONE = (True,) + (False,) * (N_EXCHANGES - 1)


def legal_options(s) -> list:
    return s.options()
