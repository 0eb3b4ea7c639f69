"""The White Castle encoder's memo of decision and pending blocks gives the previous encoder's
vectors.

The decision block (but for ``die`` / ``place`` decisions) and the pending block are looked up by
a serialised key of everything they read (``observation._decision_block`` / ``_pending_block``),
so an entry written for one state is reused in other states and other games. Over many seeded
games played on one state object each (the memo warm across games), every observation of the
seat on move and of a random other seat must equal ``previous_encoder`` bit for bit, also when
the memo is emptied as it fills (a tiny ``_MEMO_MAX``).
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle import observation as O

from .previous_encoder import encode as previous_encode


def _play(game: WhiteCastle, seeds: range) -> int:
    n = game.num_players
    hits = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        s = game.new_state(seed)
        while not s.is_terminal():
            for p in (s.current_player, int(rng.integers(n))):
                before = len(O._layout(n).decision_memo) + len(O._layout(n).pending_memo)
                got = s.observation(p)
                hits += before == len(O._layout(n).decision_memo) + len(O._layout(n).pending_memo)
                assert np.array_equal(got, previous_encode(s, p)), (seed, p)
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return hits


@pytest.mark.parametrize("n", [2, 4])
def test_memo_reused_across_games_gives_the_previous_vectors(n):
    """Twelve games per player count on a warm memo: identical vectors, and the memo is used."""
    hits = _play(WhiteCastle(num_players=n), range(100, 112))
    assert hits > 100


def test_memo_emptied_when_full_gives_the_previous_vectors(monkeypatch):
    """With room for 8 entries the memo is emptied again and again: identical vectors."""
    monkeypatch.setattr(O, "_MEMO_MAX", 8)
    lay = O._layout(3)
    monkeypatch.setattr(lay, "decision_memo", {})
    monkeypatch.setattr(lay, "pending_memo", {})
    _play(WhiteCastle(num_players=3), range(200, 204))
    assert len(lay.decision_memo) <= 8 and len(lay.pending_memo) <= 8
