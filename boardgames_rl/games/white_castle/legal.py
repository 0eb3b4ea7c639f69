"""The White Castle action layout and the legality of seal exchanges.

Actions ``0..MAX_OPTS-1`` choose option k of the pending decision (its options are listed by
``WhiteCastleState.options()``); the last four are the seal exchanges (1 seal -> 1 coin,
2 seals -> 1 food / iron / pearl), legal whenever the deciding player may exchange.
"""

from __future__ import annotations

from boardgames_rl.games.white_castle import data as T

MAX_OPTS = 16
N_EXCHANGES = len(T.EXCHANGES)
NUM_ACTIONS = MAX_OPTS + N_EXCHANGES


def exchange_ok(s, i: int) -> bool:
    """Exchanges: during the player's own turn, garden activation and before final scoring."""
    d = s.decision
    if d is None or s.phase == "draft":
        return False
    if s.phase == "play" and d["p"] != s.turn_order[s.turns_taken % s.n]:
        return False
    pl = s.players[d["p"]]
    if i == 0:
        return pl["seal"] >= 1
    return pl["seal"] >= 2 and pl[T.RESOURCES[i - 1]] < T.RES_CAP


def legal_options(s) -> list:
    return s.options()
