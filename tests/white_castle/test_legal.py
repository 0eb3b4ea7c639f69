"""``legal.legal_mask``: the pending decision's options, then the seal exchanges the deciding
player may make (rulebook: "At any time during your turn, you may exchange 1 Daimyo Seal for 1
coin, or 2 Daimyo Seals for 1 resource of your choice"; readings in docs/rules note 9)."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle.actions import MAX_OPTS, NUM_ACTIONS
from boardgames_rl.games.white_castle.legal import exchanges_ok, legal_mask
from boardgames_rl.games.white_castle.scenario import build


def _turn(**holdings: int):
    return build(WhiteCastle(), bridges=[[1, 3], [2], [6]], players={0: holdings}, turn=0)


def test_mask_is_the_options_then_the_exchanges_allowed() -> None:
    s = _turn(seal=2, food=7)
    mask = legal_mask(s)
    assert mask.dtype == bool and mask.shape == (NUM_ACTIONS,) and not mask.flags.writeable
    n = len(s.options())
    assert n == 4  # coral left and right, black and white (one die: its left end only)
    assert np.array_equal(np.flatnonzero(mask[:MAX_OPTS]), np.arange(n))
    # 1 seal -> coin and 2 seals -> iron / pearl; food is already at 7
    assert mask[MAX_OPTS:].tolist() == [True, False, True, True]
    assert exchanges_ok(s) == (True, False, True, True)
    assert mask is s.legal_action_mask()  # the state's mask is this shared array


def test_one_seal_allows_only_the_coin_and_none_allows_nothing() -> None:
    assert legal_mask(_turn(seal=1))[MAX_OPTS:].tolist() == [True, False, False, False]
    assert not legal_mask(_turn(seal=0))[MAX_OPTS:].any()


def test_no_exchange_outside_ones_own_turn_and_nothing_once_over() -> None:
    s = build(WhiteCastle(), bridges=[[1, 3], [2], [6]], players={1: {"seal": 3}}, turn=0)
    assert not legal_mask(s)[MAX_OPTS:].any()  # seat 1 holds seals but it is seat 0's turn
    s.phase, s.decision = "over", None
    assert not legal_mask(s).any()
