"""The play loop every arena function shares: one game between agents (:func:`play_game`), and
scheduled games played by agents built from their specs (:class:`Player`,
:func:`play_scheduled`), in this process or in a spawn pool of worker processes.

A scheduled game (:class:`ScheduledGame`) is played from its own seed by agents rebuilt from their
spec strings wherever it runs, so its record is the same in any process, with any number of
workers and on any backend (:mod:`boardgames_rl.arena.backends`). Series
(:func:`~boardgames_rl.arena.match.play_series`), tournaments
(:func:`~boardgames_rl.arena.tournament.tournament`) and the backends all play through here.
"""

from __future__ import annotations

import multiprocessing
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl._util.threads import one_blas_thread_in_children
from boardgames_rl.agents.registry import make_agent, spec_for_file
from boardgames_rl.arena.records import GameRecord
from boardgames_rl.core.agent import Agent, agent_view
from boardgames_rl.core.game import Game, State


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


@dataclass(frozen=True)
class ScheduledGame:
    """One game of a schedule: its table, its index at the table, seats and seed."""

    table: int
    game_index: int
    seats: tuple[int, ...]
    seed: int


class Player:
    """Plays scheduled games; one agent per (spec, seat), built on first use and reused. An
    :class:`Agent` given instead of a spec plays as it is, in every seat it gets (in-process
    series only: a worker rebuilds agents from their specs). A record names each agent by its spec
    as files store it (:func:`~boardgames_rl.agents.registry.spec_for_file`: without ``trust``)."""

    def __init__(self, game: Game, specs: Sequence[str | Agent]):
        self.game = game
        self.specs = list(specs)
        self.names = [spec_for_file(s) if isinstance(s, str) else s.name for s in self.specs]
        self._agents: dict[tuple[int, int], Agent] = {}

    def agent(self, index: int, seat: int) -> Agent:
        """The agent of spec ``index`` in ``seat`` (built on first use)."""
        key = (index, seat)
        if key not in self._agents:
            self._agents[key] = make_agent(self.specs[index], self.game)
        return self._agents[key]

    def play(self, task: ScheduledGame) -> GameRecord:
        """The record of ``task``, with its seats, agent names, table and index."""
        agents = [self.agent(a, s) for s, a in enumerate(task.seats)]
        record = play_game(self.game, agents, task.seed)
        record.seats = list(task.seats)
        record.agents = [self.names[a] for a in task.seats]
        record.table = task.table
        record.game_index = task.game_index
        return record


_WORKER: Player | None = None
"""In a pool's worker process: the player of the games it is given."""


def _init_worker(game: Game, specs: list[str]) -> None:
    global _WORKER
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    _WORKER = Player(game, specs)


def _play_in_worker(task: ScheduledGame) -> dict[str, Any]:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.play(task).to_dict()


def play_scheduled(
    game: Game, specs: Sequence[str | Agent], tasks: list[ScheduledGame], workers: int
) -> Iterator[GameRecord]:
    """Records of ``tasks`` as they finish (any order with several workers): in this process
    when ``workers <= 1``, else in a spawn pool of ``workers`` processes (one BLAS thread each)
    that rebuild the agents from ``specs``."""
    if workers <= 1 or len(tasks) <= 1:
        player = Player(game, specs)
        for task in tasks:
            yield player.play(task)
        return
    if not spawn_can_start():
        warnings.warn(
            "workers > 1 needs the main script to be importable (spawned workers re-import it); "
            "it is not (stdin?), so the games are played in this process. Results are the same.",
            RuntimeWarning,
            stacklevel=3,
        )
        yield from play_scheduled(game, specs, tasks, 1)
        return
    ctx = multiprocessing.get_context("spawn")
    with one_blas_thread_in_children():  # the pool starts its workers here
        pool = ctx.Pool(min(workers, len(tasks)), _init_worker, (game, specs))
    with pool:
        for d in pool.imap_unordered(_play_in_worker, tasks):
            yield GameRecord.from_dict(d)


def spawn_can_start() -> bool:
    """False when ``__main__`` is a file that spawned workers could not re-import (stdin)."""
    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    return main_file is None or Path(main_file).exists()
