"""The search loops' legal-action lists (``core.game.legal_list``) and the promise behind them:
an engine that declares ``Game.shares_masks`` gives every state with the same legal actions the
same mask object, so that a search lists each of its few masks once."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.core.game import legal_list
from boardgames_rl.registry import make_game

SETUPS = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_flutterstone", {"num_players": 4, "pesky_ghosts": True}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"num_players": 5}),
    ("white_castle", {"num_players": 2}),
    ("white_castle", {"num_players": 4}),
]


@pytest.mark.parametrize(("name", "config"), SETUPS)
def test_the_list_is_the_legal_actions_and_a_shared_mask_is_one_object(name, config):
    game = make_game(name, **config)
    masks: dict[bytes, np.ndarray] = {}
    for seed in range(3):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            legal = legal_list(state)
            assert legal == state.legal_actions().tolist()
            assert all(type(a) is int for a in legal)
            mask = state.legal_action_mask()
            assert not mask.flags.writeable
            if game.shares_masks:
                assert masks.setdefault(mask.tobytes(), mask) is mask
                assert legal_list(state) is legal  # listed once
            state.apply(legal[int(rng.integers(len(legal)))])


def test_which_engines_share_their_masks():
    shared = {
        name
        for name in (
            "castle_flutterstone",
            "castle_nightingale",
            "night_of_the_ninja",
            "white_castle",
        )
        if make_game(name).shares_masks
    }
    assert shared == {"castle_flutterstone", "white_castle"}
