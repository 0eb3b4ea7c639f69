"""Win rate of one agent against an opponent agent, seats chosen, with a 95% Wilson interval."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.arena.match import play_game
from boardgames_rl.arena.stats import wilson_interval
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.game import Game


class EvaluationStopped(Exception):
    """:func:`evaluate` was told to stop (its ``stop`` said true) before its last game."""


@dataclass
class EvalResult:
    """Outcome of an evaluation: ``wins`` counts a win shared by k players as 1/k."""

    opponent: str
    games: int
    wins: float
    rate: float
    low: float
    high: float
    mean_return: float

    def as_dict(self) -> dict:
        return asdict(self)


def evaluate(
    agent: Agent,
    game: Game,
    opponent: str,
    games: int,
    seats: Sequence[int] | None = None,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> EvalResult:
    """Play ``games`` games of ``agent`` against ``opponent`` (an agent spec, one instance per
    other seat); game ``i`` puts ``agent`` in ``seats[i % len(seats)]`` (default: every seat in
    turn). Reproducible from ``seed``. ``stop`` (optional) is asked before every game: when it
    says true the evaluation is abandoned with :class:`EvaluationStopped` (a training run's
    SIGINT / SIGTERM does not wait for the rest of a long evaluation)."""
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    seats = list(range(game.num_players)) if seats is None else [int(s) for s in seats]
    if not seats or not all(0 <= s < game.num_players for s in seats):
        raise ValueError(f"{game.name}: seats must be in [0, {game.num_players}), got {seats}")
    others = [make_agent(opponent, game) for _ in range(game.num_players - 1)]
    wins = 0.0
    returns = []
    for i in range(games):
        if stop is not None and stop():
            raise EvaluationStopped(f"evaluation against {opponent} stopped after {i} games")
        seat = seats[i % len(seats)]
        lineup = list(others)
        lineup.insert(seat, agent)
        record = play_game(game, lineup, seed * 1_000_003 + i)
        if seat in record.winners:
            wins += 1.0 / len(record.winners)
        returns.append(record.returns[seat])
    low, high = wilson_interval(wins, games)
    return EvalResult(opponent, games, wins, wins / games, low, high, float(np.mean(returns)))
