"""The White Castle action layout: the same ``Discrete(20)`` for every player count.

==================  ===============================================================================
ids                 meaning (the pending decision gives the context, see ``naming.py``)
==================  ===============================================================================
``0 .. 15``         ``choose k``: option ``k`` of the pending decision (its options are listed by
                    ``WhiteCastleState.options()``; at most ``MAX_OPTS``)
``16 .. 19``        the seal exchanges ``EXCHANGES``: 1 seal -> 1 coin; 2 seals -> 1 food / iron /
                    pearl (legal when ``legal.exchanges_ok`` says so)
==================  ===============================================================================
"""

from __future__ import annotations

from typing import Final

from boardgames_rl.games.white_castle.data import EXCHANGES

MAX_OPTS: Final = 16
N_EXCHANGES: Final = len(EXCHANGES)
NUM_ACTIONS: Final = MAX_OPTS + N_EXCHANGES


def generic_name(action: int) -> str:
    """The context-free name of an action id (``choose 3``, ``exchange 1 seal -> 1 coin``)."""
    if 0 <= action < MAX_OPTS:
        return f"choose {action}"
    if MAX_OPTS <= action < NUM_ACTIONS:
        return f"exchange {EXCHANGES[action - MAX_OPTS]}"
    raise KeyError(action)
