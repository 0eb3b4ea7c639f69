"""Wilson intervals on known counts and Bradley–Terry ratings on synthetic records."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.arena import GameRecord, fit_ratings, wilson_interval
from boardgames_rl.arena.ratings import expected_score, fit_bradley_terry, game_comparisons


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),  # textbook values (Newcombe 1998 style tables)
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_known_counts(wins, n, low, high):
    lo, hi = wilson_interval(wins, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_wilson_interval_without_games_is_uninformative():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_ends_are_exact_and_contain_the_rate():
    assert wilson_interval(0, 6)[0] == 0.0  # not 2.8e-17 from rounding
    assert wilson_interval(6, 6)[1] == 1.0
    for wins in range(8):
        low, high = wilson_interval(wins, 7)
        assert low <= wins / 7 <= high


def duel(a: int, b: int, result: float, k: int = 0) -> GameRecord:
    """A 2-player record: agent ``a`` in seat 0 against ``b``; result 1 win, 0 loss, 0.5 draw."""
    returns = {1.0: [1.0, -1.0], 0.0: [-1.0, 1.0], 0.5: [0.0, 0.0]}[result]
    return GameRecord(seed=k, seats=[a, b], returns=returns, length=1, truncated=False)


def test_stronger_agent_gets_higher_rating():
    records = [duel(1, 0, 1.0, k) for k in range(30)] + [duel(1, 0, 0.0, k) for k in range(10)]
    weak, strong = fit_ratings(records, ["weak", "strong"], bootstrap=50, seed=1)
    assert weak.rating == 0.0  # anchored at the first agent ("random" absent)
    # 30:10 -> 400*log10(3) = 191 Elo without prior; the weak prior pulls it a little to 0
    assert 150 < strong.rating < 191
    assert strong.low < strong.rating < strong.high
    assert expected_score(strong.rating, weak.rating) == pytest.approx(0.72, abs=0.04)


def test_symmetric_data_gives_equal_ratings():
    agents = ["a", "b", "c"]
    records = []
    for i in range(3):
        for j in range(3):
            if i != j:
                records += [duel(i, j, 1.0), duel(i, j, 0.0), duel(i, j, 0.5)]
    ratings = fit_ratings(records, agents, bootstrap=0)
    assert [r.rating for r in ratings] == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)


def test_random_is_the_anchor_and_order_follows_strength():
    # c beats b beats random, each 3:1
    records = [duel(1, 2, 1.0)] * 3 + [duel(1, 2, 0.0)] + [duel(0, 1, 1.0)] * 3
    records += [duel(0, 1, 0.0)]
    ratings = {r.agent: r.rating for r in fit_ratings(records, ["c", "b", "random"], bootstrap=0)}
    assert ratings["random"] == 0.0
    assert ratings["c"] > ratings["b"] > 0


def test_undefeated_agent_stays_finite():
    records = [duel(1, 0, 1.0, k) for k in range(20)]
    _, strong = fit_ratings(records, ["weak", "strong"], bootstrap=20)
    assert np.isfinite(strong.rating) and 300 < strong.rating < 1500


def test_bootstrap_is_reproducible_from_its_seed():
    records = [duel(0, 1, float(k % 3 == 0), k) for k in range(30)]
    first = fit_ratings(records, ["a", "b"], bootstrap=30, seed=5)
    assert first == fit_ratings(records, ["a", "b"], bootstrap=30, seed=5)
    assert first != fit_ratings(records, ["a", "b"], bootstrap=30, seed=6)


def test_multiplayer_winner_beats_each_non_winner():
    # 4 seats: agent 0 alone against a field of agent 1; seat 2 (agent 1) wins
    record = GameRecord(1, [0, 1, 1, 1], [-1.0, -1.0, 1.0, -1.0], 10, False)
    score = game_comparisons(record, 2)
    assert score[1, 0] == 1.0  # the winning field seat beat the lone agent once
    assert score[0, 1] == 0.0  # non-winners are not compared with each other
    # the lone agent wins: it beats every field seat
    record = GameRecord(1, [0, 1, 1, 1], [1.0, -1.0, -1.0, -1.0], 10, False)
    assert game_comparisons(record, 2)[0, 1] == 3.0


def test_shared_win_and_truncation_are_draws():
    shared = GameRecord(1, [0, 1, 2], [1.0, 1.0, -1.0], 5, False)
    score = game_comparisons(shared, 3)
    assert score[0, 1] == score[1, 0] == 0.5
    assert score[0, 2] == score[1, 2] == 1.0 and score[2, 0] == 0.0
    cut = GameRecord(1, [0, 1], [0.0, 0.0], 5, True)
    assert game_comparisons(cut, 2)[0, 1] == game_comparisons(cut, 2)[1, 0] == 0.5


def test_fit_rejects_bad_input():
    with pytest.raises(ValueError, match="square"):
        fit_bradley_terry(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="prior"):
        fit_bradley_terry(np.zeros((2, 2)), prior=0.0)


def test_ratings_recover_the_strengths_that_generated_the_games():
    rng = np.random.default_rng(0)
    truth = np.array([0.0, 200.0, 600.0])
    records = []
    for k in range(3000):
        a, b = (int(x) for x in rng.choice(3, 2, replace=False))
        won = rng.random() < expected_score(truth[a], truth[b])
        records.append(duel(a, b, 1.0 if won else 0.0, k))
    ratings = fit_ratings(records, ["random", "mid", "top"], bootstrap=100, seed=0)
    for r, true in zip(ratings, truth, strict=True):
        assert r.rating == pytest.approx(true, abs=45)
        assert r.low - 10 <= true <= r.high + 10
