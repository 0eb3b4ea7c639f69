"""Observation, info sets, names and renders of The White Castle."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle.naming import contextual_name, option_names
from boardgames_rl.games.white_castle.scenario import Scenario


def _midgame(n=3, steps=40, seed=2):
    s = WhiteCastle(num_players=n).new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        s.apply(int(rng.choice(s.legal_actions())))
    return s


def test_infoset_hides_only_deck_order():
    s = _midgame()
    info = s.info_set(0)
    t = info.sample(np.random.default_rng(1))
    assert sorted(t.steward_deck) == sorted(s.steward_deck)
    assert np.array_equal(t.observation(0), s.observation(0))
    assert np.array_equal(t.observation(1), s.observation(1))


def test_names_and_renders():
    s = _midgame()
    names = option_names(s)
    assert len(names) == len(s.options()) and all(names)
    for a in s.legal_actions():
        assert contextual_name(s, int(a))
    txt = s.render(0)
    assert "player_0" in txt and "bridge coral" in txt
    img = s.render_rgb()
    assert img.ndim == 3 and img.dtype == np.uint8
    assert WhiteCastle(num_players=2).action_name(16) == "exchange seal_to_coin"


def test_turn_order_tie_later_arrival_first():
    sc = Scenario(3).player(0, pot=4, pot_arr=9).player(1, pot=4, pot_arr=3).player(2, pot=1)
    s = sc.build()
    s._end_round()
    assert s.turn_order == [0, 1, 2]


def test_state_action_names_say_what_each_legal_action_does():
    """``state.action_name`` (what the CLI, the AEC env and replays show) is the contextual name:
    distinct for the legal actions of every decision, never the generic ``choose k``."""
    game = WhiteCastle(num_players=2)
    rng = np.random.default_rng(5)
    for seed in range(5):
        s = game.new_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            names = [s.action_name(int(a)) for a in legal]
            assert len(set(names)) == len(names), names
            assert not any(n.startswith("choose ") for n in names), names
            s.apply(int(rng.choice(legal)))
    assert s.action_name(0) == game.action_name(0)  # no decision pending: the generic name
