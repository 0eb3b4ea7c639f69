"""ISMCTS on every registered game: legal, deterministic given its seed, blind to everything its
info set hides, within its time budget, with clear spec errors; the games' ``evaluate``."""

from __future__ import annotations

import time

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.agents.ismcts import ISMCTSAgent, load_evaluate
from boardgames_rl.compiled import build_info
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.registry import list_games, make_game

GAMES = list_games()  # includes the test suite's toy game (registered by conftest)
PACKAGED = [n for n in GAMES if type(make_game(n)).__module__.startswith("boardgames_rl.games.")]


def _random_state(game, seed: int, depth: int):
    """A state reached by ``depth`` random actions from a seeded start (or the end, if sooner)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(depth):
        if state.is_terminal():
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def _decisions(game, count: int, first_seed: int = 0):
    """``count`` non-terminal states with at least two legal actions, from seeded random play."""
    found = []
    seed = first_seed
    while len(found) < count:
        state = _random_state(game, seed, 10 + 7 * (seed % 6))
        seed += 1
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append(state)
        assert seed < first_seed + 200, f"{game.name}: no decision states found"
    return found


def _small_agent(game, **kw) -> ISMCTSAgent:
    return ISMCTSAgent(iterations=12, rollout_depth=10, **kw)  # the game's evaluate, if any


@pytest.mark.parametrize("name", GAMES)
def test_legal_and_deterministic(name):
    game = make_game(name)
    agent = _small_agent(game)
    for i, state in enumerate(_decisions(game, 3)):
        before = state.to_dict()
        info = state.info_set(state.current_player)
        a1 = agent.act(info, np.random.default_rng(i))
        a2 = agent.act(info, np.random.default_rng(i))
        assert a1 == a2 and info.legal_action_mask[a1]
        assert state.to_dict() == before  # the search never touched the true state


@pytest.mark.parametrize("name", GAMES)
def test_never_peeks_at_the_true_state(name):
    """Two different true states with the same information set: same seed, same action.

    ``sample`` redraws everything hidden from the player on move (hidden cards, deck orders, and
    at least the state's chance generator, which decides future chance in every game), so the
    second state differs from the first in what the searcher must not know."""
    game = make_game(name)
    agent = _small_agent(game)
    for i, state in enumerate(_decisions(game, 3, first_seed=50)):
        p = state.current_player
        other = state.info_set(p).sample(np.random.default_rng(1000 + i))
        assert other.to_dict() != state.to_dict()  # a different true state ...
        info_a, info_b = state.info_set(p), other.info_set(p)
        assert np.array_equal(info_a.observation, info_b.observation)  # ... same information
        assert np.array_equal(info_a.legal_action_mask, info_b.legal_action_mask)
        a = agent.act(info_a, np.random.default_rng(i))
        b = agent.act(info_b, np.random.default_rng(i))
        assert a == b


def test_never_peeks_where_much_is_hidden():
    """Nightingale hides the samurai's and the ninja's hands and the ninja's position: many
    mid-game states, each against a sample that differs in those."""
    game = make_game("castle_nightingale")
    agent = _small_agent(game)
    for i, state in enumerate(_decisions(game, 6, first_seed=7)):
        p = state.current_player
        other = state.info_set(p).sample(np.random.default_rng(200 + i))
        a = agent.act(state.info_set(p), np.random.default_rng(i))
        b = agent.act(other.info_set(p), np.random.default_rng(i))
        assert a == b


@pytest.mark.parametrize("name", GAMES)
def test_evaluate_only_sees_sampled_states(name):
    game = make_game(name)
    state = _decisions(game, 1, first_seed=3)[0]
    seen = []

    def spy(s):
        seen.append(s)
        return np.zeros(game.num_players)

    agent = ISMCTSAgent(iterations=8, rollout_depth=0, evaluate=spy)
    agent.act(state.info_set(state.current_player), np.random.default_rng(0))
    assert seen and all(s is not state for s in seen)


@pytest.mark.parametrize("name", PACKAGED)
def test_evaluate_in_range_and_returns_at_the_end(name):
    game = make_game(name)
    evaluate = load_evaluate(game)
    assert evaluate is not None, f"{name}: add evaluate() next to its heuristic"
    for seed in range(4):
        state = _random_state(game, seed, 25 * seed)
        values = evaluate(state)
        assert values.shape == (game.num_players,)
        assert np.all(values >= -1.0) and np.all(values <= 1.0)
    state = _random_state(game, 9, 100_000)
    assert state.is_terminal()
    assert np.array_equal(evaluate(state), state.returns())


def test_flutterstone_evaluate_favours_the_leader():
    game = make_game("castle_flutterstone")
    state = game.new_state(0)
    state.positions = [12, 4]
    values = load_evaluate(game)(state)
    assert values[0] > 0 > values[1]


def test_flutterstone_evaluate_is_each_lead_over_the_best_other_figure():
    """``2 * lead / goal`` per seat, the lead over the best other figure, clipped to [-1, 1]; a
    figure past the last step counts as on it."""
    game = make_game("castle_flutterstone", num_players=4)
    state = game.new_state(0)
    goal = game.goal
    state.positions = [10, 4, 7, 0]
    values = load_evaluate(game)(state)
    assert values.dtype == np.float64
    assert values.tolist() == [2.0 * 3 / goal, 2.0 * -6 / goal, 2.0 * -3 / goal, 2.0 * -10 / goal]
    state.positions = [goal + 3, 4, 7, goal - 1]
    assert load_evaluate(game)(state).tolist() == [2.0 / goal, -1.0, -1.0, -2.0 / goal]


def test_nightingale_evaluate_counts_relics_and_captures():
    game = make_game("castle_nightingale")
    state = _decisions(game, 1)[0]
    evaluate = load_evaluate(game)
    base = evaluate(state)[0]
    state.captured += 1  # the samurai caught a ninja: worse for the ninja (seat 0)
    assert evaluate(state)[0] < base
    assert np.isclose(evaluate(state).sum(), 0.0)


def test_time_budget_respected():
    game = make_game("castle_nightingale")
    state = _decisions(game, 1)[0]
    agent = ISMCTSAgent(seconds=0.2, rollout_depth=20)
    start = time.perf_counter()
    agent.act(state.info_set(state.current_player), np.random.default_rng(0))
    elapsed = time.perf_counter() - start
    assert 0.2 <= elapsed < 1.0
    assert agent.last_iterations >= 1


def test_prior_action_is_kept_unless_the_search_clearly_prefers_another():
    game = make_game("castle_flutterstone")
    state = _decisions(game, 1)[0]
    info = state.info_set(state.current_player)
    heuristic = make_agent("heuristic", game)
    wanted = heuristic.act(info, np.random.default_rng(0))
    agent = ISMCTSAgent(iterations=10, rollout_depth=5, prior=heuristic, prior_visits=1000)
    assert agent.act(info, np.random.default_rng(0)) == wanted


def test_spec_string_builds_the_agent():
    game = make_game("castle_flutterstone")
    agent = make_agent("ismcts:iterations=10,rollout=heuristic,epsilon=0.2,rollout_depth=6", game)
    assert isinstance(agent, ISMCTSAgent)
    assert agent.iterations == 10 and agent.epsilon == 0.2 and agent.rollout_depth == 6
    assert agent.evaluate is True and agent._evaluator(game) is load_evaluate(game)
    plain = make_agent("ismcts:iterations=10,evaluate=false,prior=heuristic", game)
    assert plain._evaluator(game) is None and plain.prior is not None and plain.prior_visits > 0


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ismcts:iterations=0", "iterations"),
        ("ismcts:iterations=ten", "iterations"),
        ("ismcts:itrations=10", "unknown option"),
        ("ismcts:evaluate=maybe", "evaluate"),
        ("ismcts:epsilon=2", "epsilon"),
        ("ismcts:rollout_depth=-1", "rollout_depth"),
        ("ismcts:seconds=0", "seconds"),
        ("ismcts:rollout=nobody", "unknown agent"),
    ],
)
def test_spec_errors_are_clear(spec, words):
    game = make_game("castle_flutterstone")
    with pytest.raises(InvalidConfigError, match=words):
        make_agent(spec, game)


def test_cut_off_is_scored_by_evaluate():
    """Flutterstone, a move decision with 2+ points: scored by ``evaluate`` straight after the
    move (``rollout_depth=0``), the search advances as far as the greedy heuristic does; with the
    evaluation negated it does not."""
    from boardgames_rl.games.castle_flutterstone.state import MOVE

    game = make_game("castle_flutterstone")
    heuristic = make_agent("heuristic", game)
    evaluate = load_evaluate(game)
    searched = ISMCTSAgent(iterations=40, rollout_depth=0)  # the game's own evaluate
    inverted = ISMCTSAgent(iterations=40, rollout_depth=0, evaluate=lambda s: -evaluate(s))
    checked = 0
    for seed in range(300):
        state = _random_state(game, seed, 6 + seed % 60)
        if state.is_terminal() or state.phase != MOVE or state.move_points < 2:
            continue
        info = state.info_set(state.current_player)
        p = state.current_player
        greedy = heuristic.act(info, np.random.default_rng(0))

        def value_after(action: int, state=state, p=p) -> float:
            after = state.clone()
            after.apply(action)
            return float(evaluate(after)[p])

        # Ties (two pawns that reach equally far) may be broken either way: compare the values.
        best = value_after(greedy)
        assert value_after(searched.act(info, np.random.default_rng(seed))) == best
        assert value_after(inverted.act(info, np.random.default_rng(seed))) < best
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_tuned_preset_expands_per_game_and_explicit_keys_win():
    from boardgames_rl.agents.ismcts import TUNED_SETTINGS, tuned_spec
    from boardgames_rl.core.errors import InvalidConfigError

    for name in TUNED_SETTINGS:
        game = make_game(name)
        preset = make_agent("ismcts:preset=tuned,iterations=7", game)
        explicit = make_agent(tuned_spec(name, 7), game)
        assert preset.iterations == explicit.iterations == 7
        assert preset.rollout_depth == explicit.rollout_depth
        assert preset.prior_visits == explicit.prior_visits
        assert (preset.prior is None) == (explicit.prior is None)
    game = make_game("castle_nightingale")
    assert make_agent("ismcts:preset=tuned,rollout_depth=3", game).rollout_depth == 3
    with pytest.raises(InvalidConfigError, match="preset"):
        make_agent("ismcts:preset=fast", game)


# The count replaces the state class's ``_info_set``: a compiled engine's class cannot be patched,
# so the games whose state class is a plain Python class (the toy game; a game run in the pure
# build) are counted. The behaviour is the search's, the same for every game.
PATCHABLE = [
    n
    for n in GAMES
    if type(make_game(n).new_state(0)).__module__ not in build_info()["loaded_compiled"]
]


@pytest.mark.parametrize("name", PATCHABLE)
def test_no_info_set_per_rollout_move_for_a_mask_only_rollout_agent(name, monkeypatch):
    """Issue 14.4: "no info set per rollout move where the rollout agent does not need one": a
    rollout agent declaring ``needs_info_set = False`` (the random agent) is given a mask view,
    so the search builds no info set at all; an agent that needs one still gets the real one."""
    from boardgames_rl.core.agent import RandomAgent

    game = make_game(name)
    state = _decisions(game, 1, first_seed=4)[0]
    info = state.info_set(state.current_player)
    built = []
    original = type(state)._info_set

    def counting(self, player):
        built.append(player)
        return original(self, player)

    monkeypatch.setattr(type(state), "_info_set", counting)
    mask_only = ISMCTSAgent(iterations=10, rollout=RandomAgent(), rollout_depth=15)
    assert RandomAgent.needs_info_set is False
    mask_only.act(info, np.random.default_rng(0))
    assert built == []

    class Reader(RandomAgent):
        needs_info_set = True

        def act(self, info_set, rng):
            assert info_set.observation.shape == (game.observation_spec.size,)
            return super().act(info_set, rng)

    ISMCTSAgent(iterations=10, rollout=Reader(), rollout_depth=15).act(
        info, np.random.default_rng(0)
    )
    assert built  # the reader was given real info sets
