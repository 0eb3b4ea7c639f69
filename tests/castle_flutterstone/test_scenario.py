"""The scenario builder (``scenario.build`` / ``play``), card conservation over random play and
in sampled information-set states, and the omniscient ``state_vector``."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.games.castle_flutterstone import scenario
from boardgames_rl.games.castle_flutterstone.data import Card
from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState
from boardgames_rl.registry import make_game


def test_build_starts_from_a_new_game_and_setup_is_its_deprecated_spelling():
    """``build`` overwrites named fields of ``game.new_state(seed)``; the deprecated
    ``CastleFlutterstoneState.setup`` takes the same as counts (the draw pile top last)."""
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    s = scenario.build(
        game,
        positions=[0, 14, 20],
        turn=1,
        cards={0: ["Second go", "Ghost jump"], 1: ["moving forward", "Moving forward"]},
        new_cards={2: ["Second go"]},
        pesky={0: ["Pesky ghost"], 1: [Card.EYES_CLOSED]},
        ghost_from={0: 2},
        draw_pile=["Change hands", "Second go"],
        seed=5,
    )
    with pytest.warns(DeprecationWarning, match="use scenario.build"):
        t = CastleFlutterstoneState.setup(
            game,
            [0, 14, 20],
            turn_player=1,
            helpful=[[1, 0, 1], [0, 2, 0], [0, 0, 0]],
            helpful_new=[[0, 0, 0], [0, 0, 0], [1, 0, 0]],
            pesky=[[False, False, True], [True, False, False], [False] * 3],
            ghost_giver=[2, -1, -1],
            draw_pile=[Card.SECOND_GO, Card.CHANGE_HANDS],
            seed=5,
        )
    assert s.to_dict() == t.to_dict()
    assert s.draw_pile[-1] == Card.CHANGE_HANDS  # the top card is drawn first
    assert s.helpful_ready[1] == [0, 2, 0] and s.helpful_new[1] == [0, 0, 0]  # turn 1 started
    fresh = game.new_state(5)
    assert s.rng.bit_generator.state == fresh.rng.bit_generator.state  # the new game's chance
    default, new = scenario.build(seed=3), make_game("castle_flutterstone").new_state(3)
    assert default.game.num_players == 2
    reshuffled = {"draw_pile", "rng"}  # the default pile is the rest of the deck, shuffled again
    assert {k: v for k, v in default.to_dict()["state"].items() if k not in reshuffled} == {
        k: v for k, v in new.to_dict()["state"].items() if k not in reshuffled
    }


def test_build_refuses_an_unknown_field_in_one_line_listing_the_known_ones():
    game = make_game("castle_flutterstone")
    with pytest.raises(ValueError, match="no field hands; the fields are positions, turn") as e:
        scenario.build(game, hands={0: ["Second go"]})
    assert "\n" not in str(e.value)


def test_build_runs_the_games_state_checks():
    """A full draw pile must hold the deck's cards; the state checks refuse one that does not
    add up (a hand-made draw pile may leave cards out of the game)."""
    game = make_game("castle_flutterstone")
    s = scenario.build(game, draw_pile=["Second go"])
    assert s.draw_pile == [Card.SECOND_GO]
    with pytest.raises(ValueError, match="turn: no seat 2"):
        scenario.build(game, turn=2)


def test_build_default_pile_holds_the_rest_of_the_deck():
    game = make_game("castle_flutterstone", num_players=2, pesky_ghosts=True)
    s = scenario.build(game, cards={0: ["Ghost jump"]}, discard=["Eyes closed", "Second go"])
    scenario.check_invariants(s)
    assert s.discard[Card.EYES_CLOSED] == 1 and s.discard[Card.SECOND_GO] == 1
    assert len(s.draw_pile) == 28 - 3


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"cards": {0: ["Eyes closed"]}}, "not cards kinds"),
        ({"cards": {5: ["Second go"]}}, "no seat 5"),
        ({"cards": {0: ["Joker"]}}, "no ghost card 'Joker'"),
        ({"pesky": {0: ["Pesky ghost"]}, "num_players": 3}, "name its giver"),
        ({"ghost_from": {1: 0}}, "holding no Pesky ghost"),
        ({"cards": {0: ["Ghost jump"] * 3, 1: ["Ghost jump"] * 2}}, "the deck has 4"),
    ],
)
def test_build_rejects_impossible_positions_in_one_line(kwargs, message):
    game = make_game(
        "castle_flutterstone", num_players=kwargs.pop("num_players", 2), pesky_ghosts=True
    )
    with pytest.raises(ValueError, match=message) as e:
        scenario.build(game, **kwargs)
    assert "\n" not in str(e.value)


def test_play_answers_decisions_by_name():
    """Rulebook, Ghost jump: "you may jump forward as far as the next figure in front of you";
    the figure lands on the field behind it."""
    game = make_game("castle_flutterstone", num_players=2)
    s = scenario.build(game, positions=[7, 3], turn=1, cards={1: ["Ghost jump"]})
    assert scenario.legal_names(s) == ["play Ghost jump", "start flicking"]
    scenario.play(s, "play Ghost jump")
    assert s.positions == [7, 6] and s.phase_name == "flick"
    with pytest.raises(ValueError, match=r"not legal at decision 'flick' for player_1; legal:"):
        scenario.play(s, "draw ghost card")


@pytest.mark.parametrize(
    "config",
    [
        {"num_players": 4, "pesky_ghosts": True},
        {"num_players": 3, "pesky_ghosts": True, "play_on": True, "landing_model": "v1"},
    ],
)
def test_every_card_stays_in_one_place_over_random_play_and_in_samples(config):
    """Ghost cards are held, in the draw pile, in the discard pile or about to be given:
    never lost, never doubled (also in states sampled from an information set)."""
    game = make_game("castle_flutterstone", **config)
    rng = np.random.default_rng(3)
    for seed in range(6):
        s = game.new_state(seed)
        while not s.is_terminal():
            scenario.check_invariants(s)
            if rng.random() < 0.05:
                scenario.check_invariants(s.info_set(s.current_player).sample(rng))
            s.apply(int(rng.choice(s.legal_actions())))
        scenario.check_invariants(s)


def test_state_vector_holds_every_seats_cards_and_the_finish_order():
    """``state_vector`` is omniscient: ghost cards lie face up, so it holds every seat's cards
    (two states differing only in seat 1's cards differ), the finish order (two play-on states
    differing only in who finished first differ), and nothing of the pile order."""
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True, play_on=True)
    a = scenario.build(game, positions=[3, 7, 12], cards={1: ["Second go"]}, seed=2)
    b = scenario.build(game, positions=[3, 7, 12], cards={1: ["Ghost jump"]}, seed=2)
    assert not np.array_equal(a.state_vector(), b.state_vector())
    spec = game.state_spec
    assert spec.contains(a.state_vector()) and a.state_vector().shape == (spec.size,)
    seat1 = spec.unflatten(a.state_vector())["helpful_ready"][1]
    assert list(seat1) == [1, 0, 0]
    c = a.clone()
    c.draw_pile = c.draw_pile[::-1]
    assert np.array_equal(a.state_vector(), c.state_vector())
    first, second = a.clone(), a.clone()
    first.finished, second.finished = [0, 2], [2, 0]
    for s in (first, second):
        s.positions = [game.goal, 7, game.goal]
    assert np.array_equal(first.observation(1), second.observation(1))  # finish flags only
    v1, v2 = (spec.unflatten(s.state_vector())["finish_order"] for s in (first, second))
    assert v1[0, 0] == 1 and v1[2, 1] == 1 and v2[2, 0] == 1 and v2[0, 1] == 1
