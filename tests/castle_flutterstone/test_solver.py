"""The race solver: its values are win probabilities, its decisions follow them, its cache is
data, and the ``solver`` spec exists only where it applies.

A small track (goal 8, one bridge, a 3 x 4 grid of flicks at one yaw) solves in well under a
second, so these tests solve it for real; the default track's table is the same code on bigger
arrays."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardgames_rl.agents import list_agents, make_agent
from boardgames_rl.arena import play_series
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.games.castle_flutterstone.ai import race_agent
from boardgames_rl.games.castle_flutterstone.ai.race_agent import RaceSolverAgent, solved
from boardgames_rl.games.castle_flutterstone.ai.solver import (
    HANDS,
    STALL_DISCOUNT,
    RaceModel,
    _turn_values,
    hand_index,
    solve,
    two_player_twin,
)
from boardgames_rl.games.castle_flutterstone.infoset import flutterstone_info_set
from boardgames_rl.games.castle_flutterstone.landing import Zone
from boardgames_rl.games.castle_flutterstone.scenario import build
from boardgames_rl.registry import make_game
from boardgames_rl.testing import check_agent_no_peeking

SMALL = {"goal": 8, "bridges": [3], "aim_levels": 3, "force_levels": 4, "yaws": [-15, 0]}


@pytest.fixture(autouse=True, scope="module")
def private_cache(tmp_path_factory):
    """The tests solve into a cache folder of their own (never the user's); the small track is
    solved once per module and shared through the process's table store."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BOARDGAMES_RL_CACHE", str(tmp_path_factory.mktemp("race") / "cache"))
        race_agent._SOLVED.clear()
        yield
        race_agent._SOLVED.clear()


def small_game(**extra):
    return make_game("castle_flutterstone", **{**SMALL, **extra})


def test_the_tables_are_a_fixed_point_of_one_more_backup():
    game = small_game()
    tables = solve(game, tol=1e-10)
    assert tables.residual <= 1e-10
    again = _turn_values(RaceModel(game), tables.value, 0, STALL_DISCOUNT)[2]
    assert np.abs(again - tables.value[0]).max() <= 1e-9
    assert np.all((tables.value >= 0) & (tables.value <= 1))


def test_the_value_of_the_opening_is_the_win_rate_of_the_solver_against_itself():
    """What the table says the first player's chance is must be what happens: 2,000 games of
    the solver against itself (the table's only modelling differences, the deck's mix and the
    stall discount, move it by far less than the interval)."""
    game = small_game()
    model, tables = solved(game)
    predicted = float(tables.value[0, 0, 0, 0, 0])
    result = play_series(game, ["solver", "solver"], 2000, seed=3, progress=False)
    first_wins = sum(1 for r in result.records if r.returns[0] > 0) / len(result.records)
    assert abs(first_wins - predicted) < 0.03, (first_wins, predicted)


def test_one_field_from_the_last_step_it_flicks_for_any_progress():
    """Rulebook: any courtyard, castle or window landing moves at least one field, and
    reaching the last step wins; one field short, the best flick is the one most likely to
    land on any of them (nothing else matters)."""
    game = small_game()
    agent = make_agent("solver", game)
    state = build(game, positions=[game.goal - 1, 2])
    action = agent.act(state.info_set(0), np.random.default_rng(0))
    table = RaceModel(game).tables[0]
    progress = table[:, [Zone.COURTYARD, Zone.CASTLE, Zone.WINDOW]].sum(axis=1)
    assert progress[action] == pytest.approx(progress.max())


def test_it_plays_a_moving_forward_card_that_wins_at_once():
    """'Moving forward: You can move forward a field immediately.' One field from the last
    step, playing it wins for certain, better than any flick."""
    game = small_game()
    state = build(game, positions=[game.goal - 1, 0], cards={0: ["Moving forward"]})
    agent = make_agent("solver", game)
    action = agent.act(state.info_set(0), np.random.default_rng(0))
    assert game.action_name(action) == "play Moving forward"


def test_it_beats_random_on_the_small_track():
    """(On a track this short the heuristic is about as good: the default track's figures are
    ``lab/experiments/flutterstone_solver.py``'s.)"""
    game = small_game()
    vs_random = play_series(game, ["solver", "random"], 200, seed=1, progress=False)
    assert vs_random.win_rate(0)[1] > 0.9


@pytest.mark.parametrize(
    ("players", "spec"),
    [(n, "solver:progress=false") for n in (2, 3, 4)] + [(4, "solver:moat=0.3,progress=false")],
)
def test_decisions_are_deterministic_legal_and_finish(players, spec):
    game = small_game(num_players=players)
    agent = make_agent(spec, game)
    for seed in range(5):
        state = game.new_state(seed)
        while not state.is_terminal():
            info = state.info_set(state.current_player)
            a = agent.act(info, np.random.default_rng(seed))
            assert a == agent.act(info, np.random.default_rng(seed + 100))
            assert info.legal_action_mask[a]
            state.apply(a)
        assert not state.truncated


def test_the_cache_is_reused_and_a_bad_cache_file_is_solved_again():
    game = small_game()
    model, tables = solved(game, progress=False)
    key = json.dumps(game.config, sort_keys=True)
    path = race_agent._cache_path(key)
    assert path.is_file()
    race_agent._SOLVED.clear()
    _, again = solved(game, progress=False)
    assert again.sweeps <= 2  # started from the cached fixed point
    np.testing.assert_allclose(again.value, tables.value, atol=1e-7)
    good = path.read_bytes()
    try:
        hostile = path.with_name("hostile.npz")  # a pickled object is never unpickled
        np.savez(hostile, value=np.array([object()], dtype=object), config=np.array(key))
        other = path.with_name("other.npz")  # another game's table under this name
        np.savez(other, value=tables.value[:, :-1], config=np.array(key))
        for bad in (b"not a zip file", b"", hostile.read_bytes(), other.read_bytes()):
            path.write_bytes(bad)
            assert race_agent._read_cached(path, model, key) is None
        race_agent._SOLVED.clear()
        _, fresh = solved(game, progress=False)  # solved again, and the cache rewritten
        assert fresh.sweeps > 2
        np.testing.assert_allclose(fresh.value, tables.value, atol=1e-6)
        assert race_agent._read_cached(path, model, key) is not None
    finally:
        path.write_bytes(good)


def test_the_default_tracks_tables_ship_with_the_package_and_are_solved():
    """Every race the solver reads on the default track (2 players, and each seat pair's twin at
    3 and 4) has its table in the package, and that table is the solved one: one more sweep
    moves no win probability by more than the solver's tolerance. With an empty cache the
    solver starts from it instead of solving for a minute or two."""
    from lab.recipes.ship_race_tables import default_races, main

    races = default_races()
    assert races and main(["--check"]) == 0
    for key, game in races.items():
        model = RaceModel(game)
        shipped = race_agent._read_cached(race_agent.shipped_path(key), model, key)
        assert shipped is not None, f"no shipped table for {key}"
        assert solve(game, start=shipped, max_sweeps=1, model=model).residual <= 1e-7
    race_agent._SOLVED.clear()
    key, game = next(iter(races.items()))
    assert not race_agent._cache_path(key).exists()  # this module's empty cache folder
    _, tables = solved(game, progress=False)
    assert tables.sweeps <= 2
    assert not race_agent._cache_path(key).exists()  # the shipped table is not copied


def test_the_spec_exists_only_where_the_solver_applies():
    game = small_game()
    assert "solver" in list_agents(game) and "solver" not in list_agents()
    assert isinstance(make_agent("solver:cache=false,progress=false", game), RaceSolverAgent)
    for players in (3, 4):
        assert isinstance(make_agent("solver", small_game(num_players=players)), RaceSolverAgent)
    with pytest.raises(InvalidConfigError, match="basic 2/3/4-player game only"):
        make_agent("solver", make_game("castle_flutterstone", pesky_ghosts=True))
    with pytest.raises(InvalidConfigError, match="basic 2/3/4-player game only"):
        make_agent("solver", make_game("castle_flutterstone", play_on=True))
    with pytest.raises(InvalidConfigError, match="unknown agent 'solver' for white_castle"):
        make_agent("solver", make_game("white_castle"))


def test_hands_cover_every_holding_once():
    assert len(HANDS) == len(set(HANDS)) == 20
    assert all(sum(h) <= 3 for h in HANDS)
    assert hand_index([1, 1, 1]) == HANDS.index((1, 1, 1))


def test_it_reads_only_its_information_set():
    """The only hidden fact, the order of the draw pile, never changes a decision."""
    check_agent_no_peeking("solver", small_game(), states=30, samples=3)


# ---------------------------------------------------------------- three and four players


def test_with_more_players_it_reads_the_two_player_race_of_each_pair_of_skills():
    """A bigger table is raced with the 2-player tables of the two seats' skills: the twin game
    has the track, landing model and skills of the pair, and one table per skill pair is
    solved (and shared by the process)."""
    game = small_game(num_players=3, skills=["average", "average", "novice"])
    twin = two_player_twin(game, (0, 2))
    assert twin.num_players == 2 and twin.config["skills"] == ["average", "novice"]
    assert {k: v for k, v in twin.config.items() if k not in ("num_players", "skills",
            "max_turns")} == {k: v for k, v in game.config.items()
                              if k not in ("num_players", "skills", "max_turns")}  # fmt: skip
    agent = RaceSolverAgent(game, progress=False)
    race = agent.race(0, 2)
    _, tables = solved(twin, progress=False)
    assert race.tables is tables and (race.mover, race.rival) == (0, 1)
    same = agent.race(0, 1)
    assert same.tables is solved(two_player_twin(game, (0, 1)), progress=False)[1]


def test_its_rival_is_the_opponent_likeliest_to_win_their_race():
    """Seat 0's rival is the opponent whose chance to win a two-player race against it, as the
    next mover, is highest: here the one nearest the last step, whoever sits where."""
    game = small_game(num_players=4)
    agent = RaceSolverAgent(game, progress=False)
    for ahead in (1, 2, 3):
        positions = [0, 0, 0, 0]  # the start field holds any number of figures
        positions[ahead] = game.goal - 1
        state = build(game, positions=positions)
        view = flutterstone_info_set(state.info_set(0)).view
        assert agent.rival(view, 0) == ahead
        t = agent.race(0, ahead)
        chances = [float(t.tables.value[t.rival, positions[j], 0, 0, 0]) for j in (1, 2, 3)]
        assert max(chances) == chances[ahead - 1]


def test_with_more_players_where_a_move_ends_counts_every_figure():
    """'Only free fields count': moving one field with figures on the next two fields ends
    beyond both of them, which the 2-player tables alone (one other figure) cannot know; the
    agent reads it from the path. One field short of the last step behind two figures, a
    'Moving forward' card wins, and the agent plays it."""
    game = small_game(num_players=3)
    goal = game.goal
    state = build(game, positions=[goal - 3, goal - 2, goal - 1], cards={0: ["Moving forward"]})
    agent = RaceSolverAgent(game, progress=False)
    action = agent.act(state.info_set(0), np.random.default_rng(0))
    assert game.action_name(action) == "play Moving forward"


def test_with_more_players_it_reads_only_its_information_set():
    check_agent_no_peeking("solver", small_game(num_players=3), states=20, samples=3)


def test_moat_values_a_moat_landing_at_that_share_of_the_drawn_cards_value():
    """``moat=λ``: a moat landing is worth λ times the value of the card drawn (each kind with
    the pile's chances, a fourth card discarded at best) plus 1 - λ times drawing nothing."""
    game = small_game(num_players=4)
    hand = [1, 0, 0]
    share = np.array([0.5, 0.25, 0.25])
    values = {h: 0.1 + 0.05 * h for h in range(len(HANDS))}

    def after(a: int, h: int) -> float:
        return values[h] + 0.01 * a

    drawn = sum(
        share[c] * after(3, hand_index([1 + (c == 0), int(c == 1), int(c == 2)])) for c in range(3)
    )
    nothing = after(3, hand_index(hand))
    for moat in (1.0, 0.3, 0.0):
        agent = RaceSolverAgent(game, progress=False, moat=moat)
        expected = moat * drawn + (1 - moat) * nothing
        assert agent._moat_value(after, 3, hand, share) == pytest.approx(expected, abs=1e-12)


def test_the_moat_option_reaches_the_agent_and_a_bad_value_is_refused_in_one_line():
    game = small_game(num_players=4)
    assert make_agent("solver:moat=0.3", game).moat == 0.3
    assert make_agent("solver", game).moat == 1.0
    for bad in ("1.5", "-0.1", "nan"):
        with pytest.raises(InvalidConfigError, match="moat") as e:
            make_agent(f"solver:moat={bad}", game)
        assert "\n" not in str(e.value)


def test_a_file_may_name_the_solver_priors_of_a_closed_set_only():
    """A model file or a pretrained entry names its prior from ``SAFE_PRIORS``: ``solver`` and
    ``solver:moat=0.3`` are fixed names (the option is not read from the file); any other
    option string is refused in one line."""
    from boardgames_rl.envs.policy_obs import SAFE_PRIORS, prior_agent

    game = small_game(num_players=4)
    assert "solver:moat=0.3" in SAFE_PRIORS
    assert prior_agent("solver:moat=0.3", game).moat == 0.3
    assert prior_agent("solver", game).moat == 1.0
    for other in ("solver:moat=0.5", "solver:moat=0.30", "solver:cache=false", "solver:"):
        with pytest.raises(InvalidConfigError, match="a prior must be one of") as e:
            prior_agent(other, game, "entry.json")
        assert "\n" not in str(e.value)
