"""Playing games between agents: one game, or a seeded series with seats rotated."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.arena.records import GameRecord
from boardgames_rl.arena.stats import wilson_interval
from boardgames_rl.core.agent import Agent, agent_view
from boardgames_rl.core.game import Game, State
from boardgames_rl.core.progress import progress_iter


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    on_step: Callable[[State, int, int], None] | None = None,
) -> GameRecord:
    """Play one game; seat ``i`` is played by ``agents[i]``. Reproducible from ``seed``.

    The record holds every action and the state seed, so :func:`~boardgames_rl.arena.replay`
    can rebuild the game.

    ``on_step(state, player, action)`` is called after every action (e.g. to print the game);
    ``state`` is the live state after the action: read it, don't change it.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    seeds = np.random.SeedSequence(seed).spawn(game.num_players + 1)
    rngs = [np.random.default_rng(s) for s in seeds[1:]]
    state_seed = int(seeds[0].generate_state(1, np.uint64)[0] >> np.uint64(1))
    state = game.new_state(state_seed)
    for agent in agents:
        agent.reset()
    actions: list[int] = []
    while not state.is_terminal():
        p = state.current_player
        action = agents[p].act(agent_view(agents[p], state, p), rngs[p])
        state.apply(action)
        action = int(action)
        actions.append(action)
        if on_step is not None:
            on_step(state, p, action)
    return GameRecord(
        seed,
        list(range(game.num_players)),
        state.returns().tolist(),
        len(actions),
        bool(state.truncated),
        game=game.name,
        config=game.config,
        agents=[str(getattr(a, "name", type(a).__name__)) for a in agents],
        state_seed=state_seed,
        actions=actions,
    )


@dataclass
class SeriesResult:
    """Results of a series of games among named agents (seats rotated)."""

    game: str
    config: dict
    agents: list[str]
    records: list[GameRecord] = field(default_factory=list)

    def wins(self, agent: int) -> float:
        """Games won by ``agent``; a win shared by k agents counts 1/k."""
        total = 0.0
        for r in self.records:
            holders = [r.seats[s] for s in r.winners]
            if agent in holders:
                total += 1.0 / len(holders)
        return total

    def win_rate(self, agent: int) -> tuple[float, float, float]:
        """(rate, low, high): win rate with its 95% Wilson interval."""
        n = len(self.records)
        w = self.wins(agent)
        low, high = wilson_interval(w, n)
        return (w / n if n else 0.0, low, high)

    def table(self) -> str:
        n = len(self.records)
        lines = [
            f"{self.game}: {n} games, seats rotated",
            f"{'agent':<24} {'wins':>7} {'win rate':>9} {'95% interval':>17} {'mean return':>12}",
        ]
        for i, name in enumerate(self.agents):
            rate, low, high = self.win_rate(i)
            mean = np.mean([r.returns[r.seats.index(i)] for r in self.records]) if n else 0.0
            lines.append(
                f"{name:<24} {self.wins(i):>7.1f} {rate:>9.3f} "
                f"{f'[{low:.3f}, {high:.3f}]':>17} {mean:>12.3f}"
            )
        truncated = sum(r.truncated for r in self.records)
        mean_len = np.mean([r.length for r in self.records]) if n else 0.0
        lines.append(f"mean length {mean_len:.1f} actions; truncated games {truncated}")
        return "\n".join(lines)

    def to_json(self) -> str:
        return json.dumps(
            {
                "game": self.game,
                "config": self.config,
                "agents": self.agents,
                "win_rates": {a: self.win_rate(i) for i, a in enumerate(self.agents)},
                "records": [asdict(r) for r in self.records],
            },
            indent=1,
        )


def play_series(
    game: Game,
    agents: Sequence[str | Agent],
    games: int,
    seed: int = 0,
    progress: bool = True,
) -> SeriesResult:
    """Play ``games`` games; the agents rotate through the seats (game i puts agent j in seat
    ``(i + j) % num_players``). With fewer agents than seats, the list is repeated."""
    built = [make_agent(a, game) for a in agents]
    names = [a if isinstance(a, str) else a.name for a in agents]
    if not 1 <= len(built) <= game.num_players:
        raise ValueError(f"{game.name}: give 1..{game.num_players} agents, got {len(built)}")
    result = SeriesResult(game.name, game.config, names)
    iterator = progress_iter(
        range(games),
        games,
        desc=f"{game.name}: {' vs '.join(names)}",
        unit="game",
        enabled=progress,
    )
    n = game.num_players
    for i in iterator:
        seat_agents = [((s - i) % n) % len(built) for s in range(n)]
        record = play_game(game, [built[j] for j in seat_agents], seed * 1_000_003 + i)
        record.seats = seat_agents
        result.records.append(record)
    return result
