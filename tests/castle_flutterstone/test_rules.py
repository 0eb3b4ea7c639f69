"""Scenario tests for every rule of Castle Flutterstone (rulebook + data sheet readings).

Each test names the rule sentence it checks; docs/rules/castle_flutterstone.md maps rules to tests.
Landing zones are forced with ``forced_zones`` where a scenario needs a given shot result; the
landing model itself is tested in test_landing.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.core import IllegalActionError, InvalidConfigError
from boardgames_rl.games.castle_flutterstone import state as state_module
from boardgames_rl.games.castle_flutterstone.data import BRIDGES, DECK_COUNTS, GOAL, Card
from boardgames_rl.games.castle_flutterstone.landing import Zone
from boardgames_rl.games.castle_flutterstone.movement import advance, figure_ahead, ghost_jump
from boardgames_rl.games.castle_flutterstone.scenario import build
from boardgames_rl.registry import make_game

B = set(BRIDGES)


@pytest.fixture
def forced_zones(monkeypatch):
    """Replace the landing draw by a queue of zones; record the effects each flick saw."""
    queue: list[Zone] = []
    seen: list = []

    def fake(aim, force, skill, effects, rng, geometry=None, yaw=0.0):
        seen.append(effects)
        return queue.pop(0)

    monkeypatch.setattr(state_module, "landing_draw", fake)
    return queue, seen


def game(**kw):
    return make_game("castle_flutterstone", **kw)


def act(state, name):
    state.apply(state.game.action_from_name(name))


def legal_names(state):
    return {state.action_name(int(a)) for a in state.legal_actions()}


FLICK = "flick aim 20 force 1.00 yaw +0"


# ----------------------------------------------------------------------------- movement (pure)
class TestAdvance:
    def test_free_fields_count(self):
        assert advance(0, 3, set(), B, GOAL) == 3

    def test_occupied_fields_are_jumped_and_not_counted(self):
        # "If fields are occupied by another figure during your go, you jump over it.
        #  You don't count the fields you have jumped over."
        assert advance(6, 2, {7}, B, GOAL) == 9
        assert advance(6, 2, {7, 8}, B, GOAL) == 10 - 1  # 7, 8 jumped; 9 counts; 10 is a bridge
        assert advance(11, 1, {12, 13, 14}, B, GOAL) == 15

    def test_bridge_field_counts_as_a_field(self):
        # "Bridge fields also count as a field."
        assert advance(3, 3, set(), B, GOAL) == 6
        assert advance(4, 2, set(), B, GOAL) == 6

    def test_no_stopping_on_a_rotten_bridge_point_lost(self):
        # "you are not allowed to stop on the rotten bridge fields ... stop on the field before
        #  the bridge. The extra point is lost."
        assert advance(4, 1, set(), B, GOAL) == 4
        assert advance(3, 2, set(), B, GOAL) == 4
        assert advance(8, 2, set(), B, GOAL) == 9

    def test_occupied_field_before_the_bridge(self):
        # "If a different figure is already on the field in front of the bridge, you stop on the
        #  field before the figure, etc."
        assert advance(2, 2, {4}, B, GOAL) == 3
        assert advance(1, 2, {3, 4}, B, GOAL) == 2  # 2 counts, 3/4 jumped, 5 bridge: back to 2

    def test_never_backwards_past_the_start(self):
        assert advance(3, 1, {4}, B, GOAL) == 3

    def test_last_step_reached_without_exact_count(self):
        # "You don't have to have flown the precise number ... Excess points do not count."
        assert advance(20, 3, set(), B, GOAL) == GOAL
        assert advance(20, 1, {21}, B, GOAL) == GOAL


class TestGhostJump:
    def test_to_the_field_behind_the_next_figure(self):
        assert ghost_jump(2, {8, 15}, B, GOAL) == 7

    def test_before_the_bridge_when_the_field_behind_is_a_bridge(self):
        # "If the field behind it happens to be a bridge field, you put your figure before the
        #  bridge."
        assert ghost_jump(1, {6}, B, GOAL) == 4

    def test_needs_a_figure_ahead(self):
        assert figure_ahead(9, {3}, GOAL) is None
        with pytest.raises(ValueError):
            ghost_jump(9, {3}, B, GOAL)


# ----------------------------------------------------------------------------- setup and turns
def test_setup_basic_game_deck_has_only_helpful_ghosts():
    s = game().new_state(1)
    assert sorted(s.draw_pile) == sorted(
        int(c)
        for c in (Card.SECOND_GO, Card.MOVE_FORWARD, Card.GHOST_JUMP)
        for _ in range(DECK_COUNTS[c])
    )
    assert len(s.draw_pile) == 14
    assert s.positions == [0, 0]


def test_setup_variant_shuffles_pesky_ghosts_in():
    s = game(pesky_ghosts=True).new_state(1)
    assert len(s.draw_pile) == 28
    assert sum(1 for c in s.draw_pile if c >= Card.EYES_CLOSED) == 14


def test_youngest_starts_then_clockwise(forced_zones):
    queue, _ = forced_zones
    s = game(num_players=3).new_state(0)
    order = []
    for _ in range(6):
        order.append(s.current_player)
        queue.append(Zone.MISS)
        act(s, FLICK)
    assert order == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize(
    "bad",
    [
        {"num_players": 1},
        {"num_players": 5},
        {"aim_levels": 0},
        {"skills": "expert"},
        {"skills": ["average"]},
        {"bridges": [5, 6]},
    ],
)
def test_bad_config_raises_clear_error(bad):
    with pytest.raises(InvalidConfigError):
        game(**bad)


# ----------------------------------------------------------------------------- shot results
@pytest.mark.parametrize("zone,points", [(Zone.COURTYARD, 1), (Zone.CASTLE, 2), (Zone.WINDOW, 3)])
def test_move_up_to_n_fields(forced_zones, zone, points):
    queue, _ = forced_zones
    s = game().new_state(0)
    queue.append(zone)
    act(s, FLICK)
    assert s.phase_name == "move"
    assert legal_names(s) == {
        f"move {k} field" + ("" if k == 1 else "s") for k in range(points + 1)
    }
    act(s, f"move {points} field" + ("" if points == 1 else "s"))
    assert s.positions[0] == points
    assert s.current_player == 1


def test_moving_fewer_is_allowed(forced_zones):
    queue, _ = forced_zones
    s = game().new_state(0)
    queue.append(Zone.WINDOW)
    act(s, FLICK)
    act(s, "move 1 field")
    assert s.positions[0] == 1


def test_courtyard_move_can_be_made_mandatory(forced_zones):
    queue, _ = forced_zones
    s = game(courtyard_optional=False).new_state(0)
    queue.append(Zone.COURTYARD)
    act(s, FLICK)
    assert s.positions[0] == 1 and s.current_player == 1


def test_miss_figure_stays(forced_zones):
    queue, _ = forced_zones
    s = game().new_state(0)
    queue.append(Zone.MISS)
    act(s, FLICK)
    assert s.positions == [0, 0] and s.current_player == 1


def test_no_choice_is_offered_when_the_bridge_eats_every_point(forced_zones):
    queue, _ = forced_zones
    g = game()
    s = build(g, positions=[4, 0])
    queue.append(Zone.COURTYARD)
    act(s, FLICK)
    assert s.positions[0] == 4 and s.current_player == 1


def test_moat_draw_is_optional_and_card_lies_face_up(forced_zones):
    queue, _ = forced_zones
    g = game()
    s = g.new_state(3)
    queue.append(Zone.MOAT)
    act(s, FLICK)
    assert legal_names(s) == {"draw ghost card", "decline ghost card"}
    top = s.draw_pile[-1]
    act(s, "draw ghost card")
    assert s.helpful_new[0][top] == 1
    obs = g.observation_spec.unflatten(s.observation(1))  # the other player sees it (face up)
    assert obs["helpful_new"][1][top] == 1

    s2 = g.new_state(3)
    queue.append(Zone.MOAT)
    act(s2, FLICK)
    act(s2, "decline ghost card")
    assert sum(s2.helpful_new[0]) == 0 and len(s2.draw_pile) == 14


# ----------------------------------------------------------------------------- helpful ghosts
def test_helpful_ghost_only_usable_in_the_following_round(forced_zones):
    queue, _ = forced_zones
    g = game()
    s = build(
        g, positions=[0, 0], cards={0: ["Second go"]}, draw_pile=["Second go", "Moving forward"]
    )
    act(s, "play Second go")
    queue.extend([Zone.MOAT])
    act(s, FLICK)
    act(s, "draw ghost card")  # draws Second go in the first go of a double go
    assert s.phase_name == "flick"  # the second go: the new card cannot be played now
    assert s.helpful_new[0][Card.SECOND_GO] == 1 and s.helpful_ready[0][Card.SECOND_GO] == 0
    queue.append(Zone.MISS)
    act(s, FLICK)
    queue.append(Zone.MISS)
    act(s, FLICK)  # player 1's turn
    assert s.current_player == 0 and s.phase_name == "play_cards"
    assert "play Second go" in legal_names(s)


def test_several_helpful_ghosts_at_once(forced_zones):
    queue, _ = forced_zones
    g = game()
    s = build(g, positions=[2, 9], cards={0: ["Second go", "Moving forward", "Ghost jump"]})
    act(s, "play Moving forward")
    assert s.positions[0] == 3
    act(s, "play Ghost jump")
    assert s.positions[0] == 8
    act(s, "play Second go")
    assert s.phase_name == "flick" and s.shots_left == 2
    assert s.discard[:3] == [1, 1, 1]


def test_moving_forward_respects_the_bridge(forced_zones):
    g = game()
    s = build(g, positions=[4, 0], cards={0: ["Moving forward"]})
    act(s, "play Moving forward")
    assert s.positions[0] == 4


def test_ghost_jump_not_playable_without_a_figure_ahead():
    g = game()
    s = build(g, positions=[7, 3], cards={0: ["Ghost jump"]})
    assert s.phase_name == "flick"  # nothing playable: the play window is skipped
    with pytest.raises(IllegalActionError):
        act(s, "play Ghost jump")


def test_second_go_moves_after_each_go(forced_zones):
    queue, _ = forced_zones
    g = game()
    s = build(g, positions=[6, 0], cards={0: ["Second go"]})
    act(s, "play Second go")
    queue.extend([Zone.CASTLE, Zone.WINDOW])
    act(s, FLICK)
    act(s, "move 2 fields")
    assert s.positions[0] == 8 and s.current_player == 0
    act(s, FLICK)
    act(s, "move 3 fields")
    assert s.positions[0] == 11 and s.current_player == 1  # 9, 10 (bridge), 11


def test_never_more_than_three_helpful_ghosts(forced_zones):
    queue, _ = forced_zones
    g = game()
    s = build(
        g,
        positions=[0, 0],
        cards={0: ["Second go", "Moving forward", "Ghost jump"]},
        draw_pile=["Ghost jump"],
    )
    act(s, "start flicking")
    queue.append(Zone.MOAT)
    act(s, FLICK)
    act(s, "draw ghost card")
    assert s.phase_name == "discard"
    act(s, "discard Ghost jump")  # the new copy goes, the usable one stays
    assert s.helpful_ready[0] == [1, 1, 1] and s.helpful_new[0] == [0, 0, 0]
    assert s.current_player == 1


def test_win_in_the_middle_of_a_double_go(forced_zones):
    queue, _ = forced_zones
    g = game()
    s = build(g, positions=[20, 3], cards={0: ["Second go"]})
    act(s, "play Second go")
    queue.append(Zone.WINDOW)
    act(s, FLICK)
    act(s, "move 3 fields")
    assert s.is_terminal() and s.winner == 0
    assert list(s.returns()) == [1.0, -1.0]
    assert s.current_player == -1


def test_first_to_reach_the_last_step_wins(forced_zones):
    queue, _ = forced_zones
    g = game(num_players=3)
    s = build(g, positions=[3, 21, 20], turn=1)
    queue.append(Zone.COURTYARD)
    act(s, FLICK)
    act(s, "move 1 field")
    assert s.is_terminal() and list(s.returns()) == [-1.0, 1.0, -1.0]


def test_play_on_for_second_and_third_place(forced_zones):
    queue, _ = forced_zones
    g = game(num_players=3, play_on=True)
    s = build(g, positions=[21, 20, 3])
    queue.append(Zone.COURTYARD)
    act(s, FLICK)
    act(s, "move 1 field")
    assert not s.is_terminal() and s.current_player == 1
    assert 22 not in s._occupied(1)  # a finished figure does not block
    queue.append(Zone.CASTLE)
    act(s, FLICK)
    act(s, "move 2 fields")
    assert s.is_terminal()
    assert s.finished == [0, 1, 2]
    assert list(s.returns()) == [1.0, 0.0, -1.0]


# ----------------------------------------------------------------------------- pesky ghosts
def test_pesky_ghost_given_at_once_to_a_chosen_player(forced_zones):
    queue, _ = forced_zones
    g = game(num_players=3, pesky_ghosts=True)
    s = build(g, positions=[0, 0, 0], draw_pile=["Eyes closed"])
    queue.append(Zone.MOAT)
    act(s, FLICK)
    act(s, "draw ghost card")
    assert s.phase_name == "give" and s.current_player == 0
    assert legal_names(s) == {"give pesky card to player +1", "give pesky card to player +2"}
    act(s, "give pesky card to player +2")
    assert s.pesky[2] == [True, False, False]


def test_pesky_cards_act_on_every_go_of_the_next_turn_then_leave(forced_zones):
    queue, seen = forced_zones
    g = game(pesky_ghosts=True)
    s = build(
        g,
        positions=[0, 0],
        turn=1,
        cards={0: ["Second go"]},
        pesky={0: ["Eyes closed", "Change hands"]},
    )
    queue.append(Zone.MISS)
    act(s, FLICK)  # player 1 shoots unaffected
    assert not seen[-1].eyes_closed
    act(s, "play Second go")
    queue.extend([Zone.MISS, Zone.MISS])
    act(s, FLICK)
    act(s, FLICK)
    assert all(e.eyes_closed and e.change_hands for e in seen[-2:])
    assert s.pesky[0] == [False, False, False]
    assert s.discard[Card.EYES_CLOSED] == 1 and s.discard[Card.CHANGE_HANDS] == 1


def test_pesky_ghost_in_the_window_placed_by_the_giver(forced_zones):
    queue, seen = forced_zones
    g = game(num_players=3, pesky_ghosts=True)
    s = build(g, positions=[0, 0, 0], turn=1, pesky={1: ["Pesky ghost"]}, ghost_from={1: 2})
    assert s.phase_name == "place_ghost" and s.current_player == 2
    with pytest.raises(IllegalActionError):
        act(s, FLICK)
    act(s, "place ghost in window 2")
    assert s.current_player == 1 and s.blocked_band == 2
    queue.append(Zone.CASTLE)  # a bat stuck on the ghost counts as castle: up to 2
    act(s, FLICK)
    assert seen[-1].blocked_band == 2
    act(s, "move 2 fields")
    assert s.current_player == 2 and s.blocked_band == 0 and s.ghost_giver[1] == -1


def test_never_two_identical_pesky_ghosts_in_front_of_a_player(forced_zones):
    queue, _ = forced_zones
    g = game(num_players=3, pesky_ghosts=True)
    s = build(g, positions=[0, 0, 0], pesky={1: ["Eyes closed"]}, draw_pile=["Eyes closed"])
    queue.append(Zone.MOAT)
    act(s, FLICK)
    act(s, "draw ghost card")  # only player 2 qualifies: given automatically
    assert s.pesky[2][0] and s.current_player == 1


def test_pesky_card_discarded_when_nobody_qualifies(forced_zones):
    queue, _ = forced_zones
    g = game(pesky_ghosts=True)
    s = build(g, positions=[0, 0], pesky={1: ["Eyes closed"]}, draw_pile=["Eyes closed"])
    queue.append(Zone.MOAT)
    act(s, FLICK)
    act(s, "draw ghost card")
    assert s.discard[Card.EYES_CLOSED] == 1 and s.pesky[1] == [True, False, False]


def test_empty_pile_reshuffles_the_discards(forced_zones):
    queue, _ = forced_zones
    g = game()
    s = build(g, positions=[0, 0], draw_pile=[])
    s.discard = [0, 2, 0, 0, 0, 0]
    queue.append(Zone.MOAT)
    act(s, FLICK)
    act(s, "draw ghost card")
    assert s.helpful_new[0][Card.MOVE_FORWARD] == 1 and s.draw_pile == [Card.MOVE_FORWARD]
    assert sum(s.discard) == 0


def test_moat_gives_nothing_when_no_card_is_left(forced_zones):
    queue, _ = forced_zones
    s = build(game(), positions=[0, 0], draw_pile=[])
    queue.append(Zone.MOAT)
    act(s, FLICK)
    assert s.current_player == 1


def test_turn_cap_truncates_as_a_draw(forced_zones):
    queue, _ = forced_zones
    s = game(max_turns=3).new_state(0)
    for _ in range(3):
        queue.append(Zone.MISS)
        act(s, FLICK)
    assert s.is_terminal() and s.truncated and not s.returns().any()


def test_turn_cap_after_a_winner_gives_the_win_and_the_places(forced_zones):
    """Rulebook: "The first player to reach the last step wins the game" and "Once the winner has
    been ascertained, you can play on to see who takes second or third place." A play-on game
    stopped by the turn cap after someone reached the last step is not a draw: that player has
    won, and the others take their places by how far they got (equal fields share a place)."""
    queue, _ = forced_zones
    g = game(num_players=4, play_on=True, max_turns=4)
    s = build(g, positions=[21, 9, 0, 0])
    queue.append(Zone.CASTLE)
    act(s, FLICK)
    act(s, "move 1 field")  # seat 0 reaches the last step (turn 1)
    assert s.finished == [0] and not s.is_terminal()
    for _ in range(3):  # turns 2-4: nobody else gets home; the cap ends the game
        queue.append(Zone.MISS)
        act(s, FLICK)
    assert s.is_terminal() and not s.truncated and s.winner == 0
    np.testing.assert_array_equal(s.places(), [0, 1, 2.5, 2.5])
    np.testing.assert_allclose(s.returns(), [1.0, 1 / 3, -2 / 3, -2 / 3])
    # without a winner the cap is still a draw (truncation)
    t = game(num_players=4, play_on=True, max_turns=2).new_state(0)
    for _ in range(2):
        queue.append(Zone.MISS)
        act(t, FLICK)
    assert t.is_terminal() and t.truncated and not t.returns().any()


@pytest.mark.parametrize(
    "players, ghost_from, message",
    [
        (3, None, "seat 1 holds the Pesky ghost: name its giver in ghost_from"),
        (2, {1: 1}, r"ghost_from\[1\] = 1: the giver must be another seat"),
        (3, {1: 5}, r"ghost_from\[1\] = 5: the giver must be another seat"),
        (2, {0: 1}, "holding no Pesky ghost card"),
    ],
)
def test_build_rejects_a_pesky_ghost_card_without_a_giver(players, ghost_from, message):
    """Rulebook: "the player you gave the ghost card to is allowed to put the ghost in the window"
    (read: the giver places it, data sheet 9.5). A Pesky ghost card therefore always has a giver,
    another player; build() refuses one without, in one line (in a 2-player game the giver is
    the other seat unless named)."""
    g = game(num_players=players, pesky_ghosts=True)
    with pytest.raises(ValueError, match=message) as err:
        build(g, positions=[0] * players, pesky={1: ["Pesky ghost"]}, ghost_from=ghost_from)
    assert "\n" not in str(err.value)
    s = build(game(pesky_ghosts=True), positions=[0, 0], turn=1, pesky={1: ["Pesky ghost"]})
    assert s.phase_name == "place_ghost" and s.current_player == 0 and s.ghost_giver == [-1, 0]


def test_random_games_keep_invariants():
    """Property test: figures never share a path field nor stand on a bridge; at most three
    helpful cards; the card total is conserved."""
    for cfg in ({"num_players": 2}, {"num_players": 4, "pesky_ghosts": True}):
        g = game(**cfg)
        total = sum(g.deck_counts.values())
        rng = np.random.default_rng(5)
        for seed in range(30):
            s = g.new_state(seed)
            while not s.is_terminal():
                s.apply(int(rng.choice(s.legal_actions())))
                on_path = [q for q in s.positions if 0 < q < g.goal]
                assert len(on_path) == len(set(on_path))
                assert not set(on_path) & g.bridges
                for seat in range(g.num_players):
                    if s.phase_name == "discard" and seat == s.turn_player:
                        continue  # a fourth card was just drawn: one must go now
                    assert sum(s.helpful_ready[seat]) + sum(s.helpful_new[seat]) <= 3
                held = sum(
                    sum(r) + sum(n) for r, n in zip(s.helpful_ready, s.helpful_new, strict=True)
                )
                held += sum(sum(p) for p in s.pesky) + (s.pending_pesky >= 0)
                assert held + len(s.draw_pile) + sum(s.discard) == total
            assert s.winner >= 0 and s.positions[s.winner] == g.goal
