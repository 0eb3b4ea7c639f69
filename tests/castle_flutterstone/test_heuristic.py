"""The heuristic Flutterstone agent: its decisions in set-up positions, and its strength."""

from __future__ import annotations

import numpy as np

from boardgames_rl.arena import play_series
from boardgames_rl.games.castle_flutterstone.heuristic import CastleFlutterstoneHeuristic
from boardgames_rl.games.castle_flutterstone.landing import Effects, landing_grid
from boardgames_rl.games.castle_flutterstone.scenario import build
from boardgames_rl.games.castle_flutterstone.state import DRAW
from boardgames_rl.registry import make_game

RNG = np.random.default_rng(0)


def choose(state):
    """The heuristic's action, by its fixed name (``game.action_name``: no words appended)."""
    p = state.current_player
    return state.game.action_name(CastleFlutterstoneHeuristic().act(state.info_set(p), RNG))


def flick_values(game, effects, skill="average"):
    table = landing_grid(game.yaws, game.aims, game.forces, skill, effects, game.geometry)
    return table.reshape(-1, 5) @ np.array([0, 1, 0.8, 2, 3])


def test_flick_is_the_best_expected_progress_on_the_grid():
    """Default model v2: the best (yaw, elevation, force) of the 605 flicks; v1: the old answer."""
    game = make_game("castle_flutterstone")
    best = int(np.argmax(flick_values(game, Effects())))
    assert choose(game.new_state(0)) == game.action_name(best) == "flick aim 15 force 1.00 yaw -15"
    old = make_game("castle_flutterstone", landing_model="v1")
    best = int(np.argmax(flick_values(old, Effects())))
    assert choose(old.new_state(0)) == old.action_name(best) == "flick aim 50 force 0.50"


def test_aim_follows_the_ghost_and_the_pesky_cards():
    """The shooter's best aim moves to another window when the ghost blocks window 1 (data sheet
    7.2b: 'the shooter's best aim moves to another window'), and with eyes closed."""
    game = make_game("castle_flutterstone", num_players=2, pesky_ghosts=True)
    s = build(game, positions=[0, 0], pesky={0: ["Pesky ghost"]}, ghost_from={0: 1})
    s.apply(game.action_from_name("place ghost in window 1"))
    best = int(np.argmax(flick_values(game, Effects(blocked_band=1))))
    assert choose(s) == game.action_name(best) == "flick aim 25 force 1.00 yaw +0"
    s = build(game, positions=[0, 0], pesky={0: ["Eyes closed"]})
    assert choose(s) == "flick aim 20 force 1.00 yaw +0"


def test_moves_as_far_as_possible_and_plays_useful_cards():
    game = make_game("castle_flutterstone")
    s = build(game, positions=[2, 9], cards={0: ["Second go", "Moving forward", "Ghost jump"]})
    assert choose(s) == "play Ghost jump"  # 2 -> 8 beats moving forward one field
    s = build(game, positions=[4, 0], cards={0: ["Moving forward"]})
    assert choose(s) == "start flicking"  # moving forward from before the bridge gains nothing


def test_discards_the_least_useful_card_and_targets_the_leader():
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    s = build(
        game,
        positions=[3, 15, 8],
        cards={0: ["Second go", "Moving forward", "Ghost jump"]},
        draw_pile=["Second go", "Eyes closed"],
    )
    s.apply(game.action_from_name("start flicking"))
    s.phase, s.shots_left = DRAW, 1  # as after a moat landing: the draw decision
    s._mask = None
    assert choose(s) == "draw ghost card"
    s.apply(game.action_from_name("draw ghost card"))
    assert choose(s) == "discard Moving forward"


def test_gives_pesky_to_the_leader():
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    s = build(game, positions=[3, 15, 8], draw_pile=["Eyes closed"])
    s.phase, s.shots_left = DRAW, 1
    s._mask = None
    s.apply(game.action_from_name("draw ghost card"))
    assert s.phase_name == "give"
    assert choose(s) == "give pesky card to player +1"  # player 1 leads


def test_places_the_ghost_where_it_hurts_most():
    game = make_game("castle_flutterstone", num_players=2, pesky_ghosts=True)
    s = build(game, positions=[3, 5 + 1], turn=1, pesky={1: ["Pesky ghost"]}, ghost_from={1: 0})
    assert s.current_player == 0
    values = [flick_values(game, Effects(blocked_band=band)).max() for band in (1, 2, 3)]
    assert int(np.argmin(values)) == 0  # window 1 is the average shooter's best
    assert choose(s) == f"place ghost in window {int(np.argmin(values)) + 1}"


def test_heuristic_beats_random_in_at_least_90_percent_of_1000_games():
    """Acceptance figure (issues 2 and 11): 1,000 seeded 2-player games, seats rotated, default
    landing model v2; the lower end of the 95% Wilson interval is at least 0.90."""
    game = make_game("castle_flutterstone", num_players=2)
    result = play_series(game, ["heuristic", "random"], 1000, seed=0, progress=False)
    rate, low, high = result.win_rate(0)
    assert low >= 0.90, result.table()
