"""Castle Flutterstone observation, information set and pictures."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.castle_flutterstone.scenario import build
from boardgames_rl.registry import make_game


def fields(state, player):
    return state.game.observation_spec.unflatten(state.observation(player))


def test_observation_is_seat_relative():
    game = make_game("castle_flutterstone", num_players=3)
    s = build(game, positions=[3, 7, 12], turn=1)
    for viewer in range(3):
        obs = fields(s, viewer)
        for r in range(3):
            seat = (viewer + r) % 3
            assert obs["position"][r].argmax() == s.positions[seat]
        assert obs["turn_player"].argmax() == (1 - viewer) % 3


def test_cards_in_front_of_players_are_public():
    game = make_game("castle_flutterstone", num_players=2, pesky_ghosts=True)
    s = build(
        game,
        positions=[0, 0],
        cards={1: ["Second go", "Ghost jump", "Ghost jump"]},
        pesky={1: ["Eyes closed"]},
    )
    obs = fields(s, 0)
    assert list(obs["helpful_ready"][1]) == [1, 0, 2]
    assert list(obs["pesky_held"][1]) == [1, 0, 0]


def test_pile_contents_public_but_not_its_order():
    game = make_game("castle_flutterstone", num_players=2)
    a = build(game, positions=[0, 0], draw_pile=["Second go", "Ghost jump", "Second go"])
    b = build(game, positions=[0, 0], draw_pile=["Second go", "Second go", "Ghost jump"])
    assert np.array_equal(a.observation(0), b.observation(0))
    assert list(fields(a, 0)["draw_pile"]) == [2, 0, 1, 0, 0, 0]
    assert a.draw_pile != b.draw_pile


def test_info_set_sample_only_reorders_the_pile():
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    s = game.new_state(7)
    rng = np.random.default_rng(0)
    for _ in range(40):
        s.apply(int(rng.choice(s.legal_actions())))
    info = s.info_set(1)
    orders = set()
    for _ in range(10):
        t = info.sample(rng)
        assert sorted(t.draw_pile) == sorted(s.draw_pile)
        assert t.positions == s.positions and t.helpful_ready == s.helpful_ready
        orders.add(tuple(t.draw_pile))
    assert len(orders) > 1  # the order really is resampled
    assert "rng" not in info.knowledge
    assert sorted(info.knowledge["draw_pile"]) == sorted(s.draw_pile)
    # the knowledge holds nothing of the true order: a state differing only in the pile order
    # has the same information set
    other = s.clone()
    other.draw_pile = other.draw_pile[::-1]
    assert other.draw_pile != s.draw_pile
    assert other.info_set(1).knowledge == info.knowledge


def test_observation_within_spec_bounds_over_random_play():
    game = make_game("castle_flutterstone", num_players=4, pesky_ghosts=True)
    spec = game.observation_spec
    rng = np.random.default_rng(1)
    for seed in range(10):
        s = game.new_state(seed)
        while not s.is_terminal():
            for p in range(4):
                assert spec.contains(s.observation(p))
            s.apply(int(rng.choice(s.legal_actions())))


def test_text_and_image_pictures():
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    s = build(game, positions=[4, 9, 15], cards={0: ["Second go"]}, pesky={1: ["Eyes closed"]})
    text = s.render(0)
    assert "player_0 (you)" in text and "field  4" in text and "PESKY Eyes closed" in text
    assert "==" in text  # rotten bridges drawn
    img = s.render_rgb()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] > 100 and img.shape[1] > 200
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 10  # a real picture, not a blank
