"""Bradley–Terry ratings on the Elo scale, with bootstrap confidence intervals.

Every game is turned into pairwise comparisons between seats held by *different* agents:

* the winner(s) beat each non-winner (a 2-player game is one comparison);
* winners of a shared win draw with each other; a draw counts half a win to each side;
* two non-winners are not compared (the game says nothing about their order);
* a truncated game (no winner) is a draw between every pair of seats.

The strengths ``gamma`` maximise the Bradley–Terry likelihood ``P(a beats b) = g_a / (g_a + g_b)``
(fitted by damped Newton steps on the log-strengths). A weak prior — one virtual win and one
virtual loss of every agent against a fixed reference of strength 1 — keeps undefeated or winless
agents finite and barely moves the others. Ratings are ``400 * log10(gamma)`` (the Elo scale:
200 points ≈ 76%),
**anchored so that the anchor agent is 0**: ``"random"`` if it takes part, else the first agent.
A rating is therefore "Elo points above the anchor"; the anchor's own interval is ``[0, 0]``.

The 95% interval comes from a bootstrap over games (games resampled with replacement, a fixed
seed), so it reflects the correlations between comparisons of one game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from boardgames_rl.arena.records import GameRecord

ELO_SCALE = 400.0 / np.log(10.0)
"""Elo points per natural-log unit of strength."""


@dataclass(frozen=True)
class Rating:
    """One agent's rating (Elo points above the anchor) with its 95% bootstrap interval."""

    agent: str
    rating: float
    low: float
    high: float


def game_comparisons(record: GameRecord, num_agents: int) -> np.ndarray:
    """``score[a, b]``: points agent ``a`` took from agent ``b`` in one game (see module doc).

    ``score + score.T`` is the number of comparisons between ``a`` and ``b``.
    """
    score = np.zeros((num_agents, num_agents))
    seats = record.seats
    winners = set(range(len(seats))) if record.truncated else set(record.winners)
    for s, a in enumerate(seats):
        for t, b in enumerate(seats):
            if a == b or s == t:
                continue
            if s in winners and t in winners:
                score[a, b] += 0.5
            elif s in winners:
                score[a, b] += 1.0
    return score


def comparison_tensor(records: Sequence[GameRecord], num_agents: int) -> np.ndarray:
    """Per-game comparison matrices stacked into shape ``(games, agents, agents)``."""
    if not records:
        return np.zeros((0, num_agents, num_agents))
    return np.stack([game_comparisons(r, num_agents) for r in records])


def _log_likelihood(theta: np.ndarray, wins: np.ndarray, prior: float) -> float:
    diff = theta[:, None] - theta[None, :]
    pairs = float(np.sum(wins * -np.logaddexp(0.0, -diff)))
    return pairs + prior * float(np.sum(-np.logaddexp(0.0, -theta) - np.logaddexp(0.0, theta)))


def fit_bradley_terry(
    wins: np.ndarray, prior: float = 1.0, tol: float = 1e-9, max_iter: int = 100
) -> np.ndarray:
    """Elo-scale strengths (relative to the prior's reference, strength 1 = 0) from a win matrix.

    Maximises the Bradley–Terry log-likelihood plus the prior by damped Newton steps on the
    log-strengths (the objective is strictly concave, so this converges in a few steps).

    Args:
        wins: ``wins[a, b]`` points ``a`` scored against ``b`` (draws as halves).
        prior: virtual wins and virtual losses of every agent against the reference.
        tol: stop when no log-strength moves more than this.
        max_iter: Newton step cap.
    """
    wins = np.array(wins, dtype=float)
    n = wins.shape[0] if wins.ndim else 0
    if wins.shape != (n, n):
        raise ValueError(f"wins must be a square matrix, got shape {wins.shape}")
    if prior <= 0:
        raise ValueError(f"prior must be > 0 so that ratings stay finite, got {prior}")
    np.fill_diagonal(wins, 0.0)
    games = wins + wins.T
    theta = np.zeros(n)
    current = _log_likelihood(theta, wins, prior)
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))  # P(a beats b)
        ref = 1.0 / (1.0 + np.exp(-theta))  # P(a beats the reference)
        grad = wins.sum(axis=1) + prior - (games * p).sum(axis=1) - 2 * prior * ref
        curvature = games * p * (1.0 - p)
        neg_hessian = -curvature
        np.fill_diagonal(neg_hessian, curvature.sum(axis=1) + 2 * prior * ref * (1.0 - ref))
        step = np.linalg.solve(neg_hessian, grad)
        scale = 1.0
        while True:  # backtracking: the full Newton step may overshoot far from the optimum
            trial = theta + scale * step
            value = _log_likelihood(trial, wins, prior)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, current = trial, value
        if np.max(np.abs(scale * step)) < tol:
            break
    return ELO_SCALE * theta


def anchor_index(agents: Sequence[str]) -> int:
    """The agent rated 0: ``"random"`` if present, else the first agent."""
    return list(agents).index("random") if "random" in agents else 0


def fit_ratings(
    records: Sequence[GameRecord],
    agents: Sequence[str],
    bootstrap: int = 200,
    seed: int = 0,
    prior: float = 1.0,
) -> list[Rating]:
    """Ratings of ``agents`` (indexed by ``record.seats``) from ``records``, with 95% intervals.

    Args:
        records: played games; ``seats[i]`` is an index into ``agents``.
        agents: agent names.
        bootstrap: number of bootstrap resamples for the interval (0: no interval).
        seed: seed of the bootstrap resampling.
        prior: weak prior strength (see :func:`~boardgames_rl.arena.ratings.fit_bradley_terry`).
    """
    n = len(agents)
    if n < 1:
        raise ValueError("fit_ratings needs at least one agent")
    per_game = comparison_tensor(records, n)
    anchor = anchor_index(agents)
    point = fit_bradley_terry(per_game.sum(axis=0), prior)
    point = point - point[anchor]
    low, high = point.copy(), point.copy()
    if bootstrap > 0 and len(records) > 0:
        rng = np.random.default_rng(seed)
        g = len(records)
        samples = np.empty((bootstrap, n))
        for k in range(bootstrap):
            weights = rng.multinomial(g, np.full(g, 1.0 / g)).astype(float)
            fit = fit_bradley_terry(np.tensordot(weights, per_game, axes=1), prior)
            samples[k] = fit - fit[anchor]
        low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return [
        Rating(str(a), float(point[i]), float(low[i]), float(high[i])) for i, a in enumerate(agents)
    ]


def expected_score(rating_a: float, rating_b: float) -> float:
    """Bradley–Terry probability that ``a`` beats ``b`` given Elo-scale ratings."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))
