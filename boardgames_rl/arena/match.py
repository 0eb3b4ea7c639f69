"""Series of games between agents: seeded, with seats rotated (one game: :func:`play_game`,
from :mod:`boardgames_rl.arena.play`, importable here too)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from boardgames_rl._util.progress import progress_iter
from boardgames_rl.arena.play import ScheduledGame, play_game, play_scheduled
from boardgames_rl.arena.records import GameRecord
from boardgames_rl.arena.stats import wilson_interval
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.game import Game

__all__ = ["GameRecord", "SeriesResult", "play_game", "play_series"]


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
    workers: int = 1,
    first_seats: Sequence[int] | None = None,
) -> SeriesResult:
    """Play ``games`` games; the agents rotate through the seats (game i puts agent j in seat
    ``(i + j) % num_players``). With fewer agents than seats, the list is repeated.
    ``first_seats`` limits the first agent to those seats (game i puts it in
    ``first_seats[i % len(first_seats)]``, the others after it in seat order), e.g. ``[0]`` for
    an agent that plays only the first seat; the default is every seat (the rotation above).

    Game ``i`` is played from seed ``seed * 1_000_003 + i`` whatever ``workers`` is: with
    ``workers > 1`` the games are shared among that many spawned processes (the tournament's
    pool, one BLAS thread each), every agent rebuilt there from its spec string, and the records
    are the same as in one process. That needs every agent given as a spec string; an
    :class:`~boardgames_rl.agents.Agent` object is played in this process only."""
    names = [a if isinstance(a, str) else a.name for a in agents]
    if not 1 <= len(names) <= game.num_players:
        raise ValueError(f"{game.name}: give 1..{game.num_players} agents, got {len(names)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"play_series: workers must be an int >= 1, got {workers!r}")
    n = game.num_players
    firsts = list(range(n)) if first_seats is None else [int(s) for s in first_seats]
    if not firsts or any(not 0 <= s < n for s in firsts):
        raise ValueError(f"play_series: first_seats must be seats in [0, {n}), got {first_seats!r}")
    offsets = [firsts[i % len(firsts)] for i in range(games)]
    seat_agents = [[((s - k) % n) % len(names) for s in range(n)] for k in offsets]
    seeds = [seed * 1_000_003 + i for i in range(games)]
    result = SeriesResult(game.name, game.config, names)
    if workers > 1 and not all(isinstance(a, str) for a in agents):
        raise ValueError(
            "play_series: workers > 1 needs every agent as a spec string (each worker builds "
            "its own); pass the spec instead of the Agent object, or workers=1"
        )
    desc = f"{game.name}: {' vs '.join(names)}"
    result.records = _play_specs(game, agents, seat_agents, seeds, workers, desc, progress)
    return result


def _play_specs(
    game: Game,
    specs: Sequence[str | Agent],
    seat_agents: list[list[int]],
    seeds: list[int],
    workers: int,
    desc: str,
    progress: bool,
) -> list[GameRecord]:
    """The series' games by the tournament's players (one agent per spec and seat, built from
    its spec, or the Agent given; in ``workers`` processes when more than one), in game order."""
    tasks = [
        ScheduledGame(0, i, tuple(seats), seed)
        for i, (seats, seed) in enumerate(zip(seat_agents, seeds, strict=True))
    ]
    records = list(
        progress_iter(
            play_scheduled(game, specs, tasks, workers), len(tasks), desc=desc, unit="game",
            enabled=progress,
        )
    )  # fmt: skip
    records.sort(key=lambda r: r.game_index)
    for record in records:  # a series' record, as one played here: no tournament table
        record.table = record.game_index = None
    return records
