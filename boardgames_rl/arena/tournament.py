"""Tournaments: every pairing of a list of agents, seats rotated, in parallel, resumable.

Schedule. A *table* is the agent index in every seat. Two-player games use one table per
unordered pair ``(i, j)``; games of N > 2 players use, for every ordered pair ``(i, j)``, the table
"agent i alone against a field of agent j" (``(i, j, j, ...)``). Every table plays ``games`` games.
With ``seats="rotate"`` game ``g`` of a table shifts its seats by ``g`` (seat ``s`` gets
``table[(s - g) % N]``), so the lone agent visits every seat and a pair alternates seats; with
``seats="fixed"`` every game uses the table as given.

Reproducibility. Game ``g`` of table ``t`` is played from a seed derived from
``(seed, t, g)`` only, and agents are rebuilt from their spec strings wherever the game is played,
so the records do not depend on ``workers``, on the backend (this machine's processes or a Ray
cluster, :mod:`boardgames_rl.arena.backends`) or on the order games finish.

Resume. With ``out`` the parameters go to ``out/tournament.json`` first and every finished game is
appended (and flushed) to ``out/games.jsonl`` at once; calling :func:`tournament` again with the
same ``out`` and parameters plays only the missing games. The parameters include, for an agent
whose play depends on files (``pretrained``: the shipped weights), what identifies those files
(:meth:`~boardgames_rl.core.agent.Agent.files_digest`): after a new entry is shipped, the old
folder is refused instead of resumed with games the new weights never played.

Files are data. The folder's files are read back with :mod:`boardgames_rl.core.files` (regular
files only, size caps, strict JSON; ``tournament.json`` checked field by field by
:func:`~boardgames_rl.arena.results.read_params`) and every file is written inside ``out``
without following a link. Agent specs are stored without ``trust``
(:func:`~boardgames_rl.agents.registry.spec_for_file`): ``trust=1`` is the person's opt-in, given
again with the same call to resume, and a ``tournament.json`` that carries it is refused.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl._util.progress import progress_bar
from boardgames_rl.agents.registry import make_agent, spec_for_file
from boardgames_rl.arena.backends import Backend, make_backend
from boardgames_rl.arena.play import ScheduledGame
from boardgames_rl.arena.records import (
    GAMES_FILE,
    GameRecord,
    ReplayMismatchError,
    read_jsonl_numbered,
    replay,
    sort_records,
)
from boardgames_rl.arena.results import (
    PARAMS_FILE,
    SEAT_MODES,
    TournamentResult,
    read_params,
    write_params,
    write_records,
)
from boardgames_rl.core.errors import GameError
from boardgames_rl.core.files import make_dir, open_append
from boardgames_rl.core.game import Game
from boardgames_rl.registry import make_game


class TournamentMismatchError(ValueError):
    """The ``out`` folder holds a tournament with other parameters than the ones given."""


def default_tables(num_players: int, num_agents: int) -> list[list[int]]:
    """Pairs for 2 players; "i alone against a field of j" for every ordered pair otherwise."""
    if num_players == 2:
        return [[i, j] for i, j in combinations(range(num_agents), 2)]
    return [[i] + [j] * (num_players - 1) for i, j in permutations(range(num_agents), 2)]


def game_seed(seed: int, table: int, game_index: int) -> int:
    """The match seed of game ``game_index`` at ``table`` (a non-negative 63-bit int)."""
    state = np.random.SeedSequence([seed, table, game_index]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


def schedule(
    tables: Sequence[Sequence[int]], games: int, seats: str, seed: int
) -> list[ScheduledGame]:
    """Every game of a tournament, in table then game order."""
    out = []
    for t, table in enumerate(tables):
        n = len(table)
        for g in range(games):
            shift = g if seats == "rotate" else 0
            order = tuple(int(table[(s - shift) % n]) for s in range(n))
            out.append(ScheduledGame(t, g, order, game_seed(seed, t, g)))
    return out


# --------------------------------------------------------------------- the tournament
def _check_inputs(
    game: Game | str,
    agents: Sequence[str],
    games: int,
    seats: str,
    workers: int,
    seed: int,
    tables: Sequence[Sequence[int]] | None,
) -> tuple[Game, list[str], list[list[int]], dict[str, str]]:
    if isinstance(game, str):
        game = make_game(game)
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game or a registered game name, got {game!r}")
    if isinstance(agents, str) or not all(isinstance(a, str) for a in agents):
        raise TypeError(
            "agents must be a list of agent spec strings, e.g. ['heuristic', 'random'] "
            "(specs, so that every worker can rebuild them)"
        )
    specs = [a.strip() for a in agents]
    if len(specs) < 2:
        raise ValueError(f"a tournament needs at least 2 agents, got {len(specs)}: {specs}")
    names = [spec_for_file(a) for a in specs]
    duplicates = sorted({a for a in names if names.count(a) > 1})
    if duplicates:
        raise ValueError(f"agent specs must be unique (trust=... aside); repeated: {duplicates}")
    files: dict[str, str] = {}
    for spec, name in zip(specs, names, strict=True):  # fail now, clearly, not in a worker
        digest = make_agent(spec, game).files_digest()
        if digest is not None:
            files[name] = digest
    if isinstance(games, bool) or not isinstance(games, int | np.integer) or games < 1:
        raise ValueError(f"games (per table) must be an int >= 1, got {games!r}")
    if seats not in SEAT_MODES:
        raise ValueError(f"seats must be one of {SEAT_MODES}, got {seats!r}")
    if isinstance(workers, bool) or not isinstance(workers, int | np.integer) or workers < 1:
        raise ValueError(f"workers must be an int >= 1, got {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if tables is None:
        table_list = default_tables(game.num_players, len(specs))
    else:
        table_list = [[int(a) for a in t] for t in tables]
        if not table_list:
            raise ValueError("tables is empty; give at least one table or None for the default")
        for t in table_list:
            if len(t) != game.num_players:
                raise ValueError(
                    f"table {t} has {len(t)} seats but {game.name} has {game.num_players}"
                )
            if not all(0 <= a < len(specs) for a in t):
                raise ValueError(f"table {t}: agent indices must be in [0, {len(specs)})")
    return game, specs, table_list, files


def _resume(out: Path, result: TournamentResult, tasks: list[ScheduledGame]) -> list[GameRecord]:
    """Prepare ``out``; return the records already played there (checked against ``tasks``).

    Every file is read with :mod:`boardgames_rl.core.files` (regular files only, size caps,
    strict JSON) and written inside ``out`` without following a link."""
    params = result.params()
    games_path = out / GAMES_FILE
    try:
        saved = read_params(out)
    except FileNotFoundError:
        if os.path.lexists(games_path):
            raise TournamentMismatchError(
                f"{out} holds {GAMES_FILE} but no {PARAMS_FILE}; use an empty or new folder"
            ) from None
        make_dir(out, out)
        write_params(out, params)
        return []
    if saved != params:
        diffs = [
            _difference(k, saved.get(k), params.get(k))
            for k in sorted(set(saved) | set(params))
            if saved.get(k) != params.get(k)
        ]
        raise TournamentMismatchError(
            f"{out} holds a tournament with other parameters ({'; '.join(diffs)}). Give the "
            f"same parameters to resume it, or another out folder for a new tournament"
        )
    by_key = {(t.table, t.game_index): t for t in tasks}
    done: dict[tuple[int, int], GameRecord] = {}
    try:
        numbered = read_jsonl_numbered(games_path, allow_partial_tail=True)
    except FileNotFoundError:
        return []
    except ValueError as e:
        raise TournamentMismatchError(
            f"{e}; the file was edited or damaged. Use a new folder"
        ) from e
    for line, r in numbered:
        task = by_key.get((r.table, r.game_index))  # type: ignore[arg-type]
        if task is None or task.seed != r.seed or tuple(r.seats) != task.seats:
            raise TournamentMismatchError(
                f"{games_path}:{line} holds a game (table {r.table}, game {r.game_index}) that "
                f"is not part of this tournament; the folder was edited or mixed. Use a new folder"
            )
        _verify(games_path, line, r, params)
        done[(r.table, r.game_index)] = r  # type: ignore[index]
    records = sort_records(list(done.values()))
    write_records(games_path, records, root=out)  # drops a half-written last line, duplicates
    return records


def _difference(key: str, saved: Any, given: Any) -> str:
    """One parameter that differs, for the mismatch message; ``agent_files`` (the weights an agent
    played with) per agent."""
    if key != "agent_files":
        return f"{key}: saved {saved!r:.200}, given {given!r:.200}"
    saved, given = saved or {}, given or {}
    return "; ".join(
        f"{a} played with other files ({saved.get(a) or 'not recorded'}; now {given.get(a)})"
        for a in sorted(set(saved) | set(given))
        if saved.get(a) != given.get(a)
    )


def _verify(games_path: Path, line: int, record: GameRecord, params: dict[str, Any]) -> None:
    """A stored game must be this tournament's (game, options, agents per seat) and must replay
    to its recorded outcome: a tampered ``returns`` (or any other field) is refused."""
    problem = ""
    if record.game != params.get("game") or record.config != params.get("config"):
        problem = f"it is a game of {record.game} {record.config}"
    elif record.agents != [params["agents"][i] for i in record.seats]:
        problem = f"its agents {record.agents} are not those of seats {record.seats}"
    else:
        try:
            replay(record)
        except (ReplayMismatchError, ValueError, GameError) as e:
            problem = str(e)
    if problem:
        raise TournamentMismatchError(
            f"{games_path}:{line}: the stored game (table {record.table}, game "
            f"{record.game_index}) does not check out ({problem}); the file was edited or "
            "damaged. Delete that line to replay the game, or use a new folder"
        )


def tournament(
    game: Game | str,
    agents: Sequence[str],
    games: int,
    seats: str = "rotate",
    workers: int = 1,
    seed: int = 0,
    out: str | Path | None = None,
    progress: bool = True,
    tables: Sequence[Sequence[int]] | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    backend: str | Backend = "process",
    address: str | None = None,
) -> TournamentResult:
    """Play every pairing of ``agents`` (see the module doc) and return the results.

    Args:
        game: a Game, or a registered name (default configuration).
        agents: at least two distinct agent spec strings, e.g. ``["heuristic", "random"]``.
        games: games per table (pair, or lone-agent/field combination).
        seats: ``"rotate"`` (every agent visits every seat) or ``"fixed"``.
        workers: processes playing games (``multiprocessing`` spawn pool when > 1).
        seed: tournament seed (non-negative int).
        out: folder for ``tournament.json``, ``games.jsonl`` (written as games finish) and, at
            the end, the result files of :meth:`TournamentResult.save`. An existing folder of
            the same tournament is resumed; one of another tournament raises
            :class:`TournamentMismatchError`.
        progress: show a tqdm progress bar.
        tables: explicit tables (agent index per seat) instead of the default pairings.
        on_game: called with each record once it is stored (e.g. to stop early).
        backend: where the games are played: ``"process"`` (this machine, ``workers``
            processes), ``"ray"`` (one Ray task per game; a local Ray of ``workers`` CPUs, or
            the cluster at ``address``) or a backend object such as
            :class:`~boardgames_rl.arena.backends.RayBackend`. The files do not depend on it.
        address: the Ray cluster's head (``host:6379``, ``"auto"``) for ``backend="ray"``.
    """
    game, specs, table_list, files = _check_inputs(
        game, agents, games, seats, workers, seed, tables
    )
    runner = make_backend(backend, address)
    names = [spec_for_file(s) for s in specs]  # what the files hold: never trust=...
    result = TournamentResult(
        game.name, game.config, names, int(games), seats, int(seed), table_list, agent_files=files
    )
    tasks = schedule(table_list, int(games), seats, int(seed))
    done: list[GameRecord] = []
    if out is not None:
        out = Path(out)
        done = _resume(out, result, tasks)
    done_keys = {(r.table, r.game_index) for r in done}
    todo = [t for t in tasks if (t.table, t.game_index) not in done_keys]
    records = list(done)
    bar = progress_bar(
        len(tasks), f"{game.name}: {len(specs)} agents", "game", len(done), enabled=progress
    )
    try:
        sink_cm = open_append(out / GAMES_FILE, out) if out is not None else nullcontext()
        with sink_cm as sink:
            for record in runner.play(game, specs, todo, int(workers)):
                records.append(record)
                if sink is not None:
                    sink.write(record.to_json() + "\n")
                    sink.flush()
                if bar is not None:
                    bar.update(1)
                if on_game is not None:
                    on_game(record)
    finally:
        if bar is not None:
            bar.close()
    result.records = sort_records(records)
    if out is not None:
        result.save(out)
    return result
