"""Game records that replay exactly: what was played, by whom, from which seed, move by move.

A :class:`GameRecord` holds the game name and configuration, the agent spec in every seat, the seed
given to ``Game.new_state`` and every action. :func:`replay` rebuilds the game from those fields
alone and checks that the same result comes out, so a saved tournament can be inspected, rendered
or re-scored later without the agents. Records are stored one JSON object per line (``.jsonl``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from boardgames_rl.core.errors import GameError
from boardgames_rl.core.files import UnsafeFileError, loads_json, read_text
from boardgames_rl.core.game import State
from boardgames_rl.registry import make_game

GAMES_FILE = "games.jsonl"
"""Name of the record file inside a tournament folder."""
MAX_RECORDS_BYTES = 2**30
"""Largest records file read back (1 GiB): a bigger file is refused before it is read."""
MAX_RETURN = 1e15
"""Largest magnitude of a recorded return: sums over any number of games stay finite."""
MAX_RECORD_INT = 2**128
"""Integers of a record (seeds, seats, actions, lengths, tables) are below this in magnitude."""


class ReplayMismatchError(ValueError):
    """Replaying a record did not give the recorded game (illegal action, other result or length).

    The record was tampered with, or the game engine changed since it was recorded.
    """


@dataclass
class GameRecord:
    """One played game, complete enough to be replayed with :func:`replay`.

    Attributes:
        seed: the match seed the game was played from (agents' generators derive from it).
        seats: ``seats[i]`` is the index (in the series or tournament) of the agent in seat i.
        returns: per-seat outcome at the end.
        length: number of actions played.
        truncated: True when the engine's safety cap ended the game.
        game: registry name of the game.
        config: the game's keyword configuration.
        agents: the agent spec (name) in every seat.
        state_seed: the seed given to ``game.new_state``.
        actions: every action, in order.
        table: tournament table index (``None`` outside tournaments).
        game_index: index of the game at its table (``None`` outside tournaments).
    """

    seed: int
    seats: list[int]
    returns: list[float]
    length: int
    truncated: bool
    game: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    agents: list[str] = field(default_factory=list)
    state_seed: int | None = None
    actions: list[int] = field(default_factory=list)
    table: int | None = None
    game_index: int | None = None

    @property
    def winners(self) -> list[int]:
        """Seats with the best return (several on a shared win; none on a truncated game)."""
        if self.truncated:
            return []
        best = max(self.returns)
        return [s for s, r in enumerate(self.returns) if r == best]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of every field."""
        return asdict(self)

    def to_json(self) -> str:
        """One line of JSON (no newline), the format of ``games.jsonl``."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict`; fields missing from older records take their defaults."""
        if not isinstance(d, dict):
            raise ValueError(f"a game record must be a JSON object, got {type(d).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"game record has unknown fields {unknown}; known: {sorted(known)}")
        missing = [k for k in ("seed", "seats", "returns", "length", "truncated") if k not in d]
        if missing:
            raise ValueError(f"game record lacks the required fields {missing}")
        for name, value in d.items():
            kind, ok = _FIELD_TYPES[name]
            if not ok(value):
                raise ValueError(f"game record field {name!r} must be {kind}, got {value!r:.60}")
        if len(d["seats"]) != len(d["returns"]):
            raise ValueError(
                f"game record has {len(d['seats'])} seats but {len(d['returns'])} returns"
            )
        return cls(**d)

    @classmethod
    def from_json(cls, text: str, source: str = "game record") -> GameRecord:
        """Inverse of :meth:`to_json` (strict JSON: ``boardgames_rl.core.files.loads_json``;
        ``source`` names the text in an error)."""
        return cls.from_dict(loads_json(text, source))


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -MAX_RECORD_INT < v < MAX_RECORD_INT


def _number(v: Any) -> bool:
    return (_int(v) or isinstance(v, float)) and math.isfinite(v) and abs(v) <= MAX_RETURN


_FIELD_TYPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "seed": ("an integer (below 2**128 in magnitude)", _int),
    "seats": (
        "a list of integers >= 0",
        lambda v: isinstance(v, list) and all(_int(x) and x >= 0 for x in v),
    ),
    "returns": (
        f"a list of finite numbers of magnitude at most {MAX_RETURN:g}",
        lambda v: isinstance(v, list) and all(_number(x) for x in v),
    ),
    "length": ("an integer >= 0", lambda v: _int(v) and v >= 0),
    "truncated": ("true or false", lambda v: isinstance(v, bool)),
    "game": ("a game name (string)", lambda v: isinstance(v, str)),
    "config": ("an object of options", lambda v: isinstance(v, dict)),
    "agents": (
        "a list of agent specs (strings)",
        lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    ),
    "state_seed": ("an integer or null", lambda v: v is None or _int(v)),
    "actions": (
        "a list of integers >= 0",
        lambda v: isinstance(v, list) and all(_int(x) and x >= 0 for x in v),
    ),
    "table": ("an integer >= 0 or null", lambda v: v is None or (_int(v) and v >= 0)),
    "game_index": ("an integer >= 0 or null", lambda v: v is None or (_int(v) and v >= 0)),
}
"""Type of every record field (checked by :meth:`GameRecord.from_dict`)."""


def read_jsonl(path: str | Path, allow_partial_tail: bool = False) -> list[GameRecord]:
    """Records from a ``.jsonl`` file (one per line; blank lines ignored).

    With ``allow_partial_tail`` a last line cut short (a write interrupted by a crash) is dropped
    instead of raising.

    Raises:
        FileNotFoundError: no such file.
        ValueError: not a regular UTF-8 file of at most :data:`MAX_RECORDS_BYTES`, or a line that
            is not a valid record (one line naming ``path:line``).
    """
    return [r for _, r in read_jsonl_numbered(path, allow_partial_tail)]


def read_jsonl_numbered(
    path: str | Path, allow_partial_tail: bool = False
) -> list[tuple[int, GameRecord]]:
    """``(line number, record)`` pairs of a ``.jsonl`` file (see :func:`read_jsonl`)."""
    path = Path(path)
    text = read_text(path, MAX_RECORDS_BYTES, "game records file")
    lines = text.split("\n")
    records = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append((n, GameRecord.from_dict(loads_json(line, f"{path}:{n}"))))
        except (ValueError, TypeError) as e:
            if allow_partial_tail and n == len(lines):  # the file does not end with a newline
                break
            if isinstance(e, UnsafeFileError):  # not strict JSON: the message names path:line
                raise
            raise ValueError(f"{path}:{n}: not a valid game record ({e})") from e
    return records


def load_records(path: str | Path) -> list[GameRecord]:
    """Records from a ``.jsonl`` file, or from a tournament folder (its ``games.jsonl``).

    Tournament records are returned in schedule order (table, then game index).
    """
    path = Path(path)
    folder = path.is_dir()
    if folder:
        path = path / GAMES_FILE
    try:
        records = read_jsonl(path)
    except FileNotFoundError:
        if folder:
            raise FileNotFoundError(
                f"{path.parent} is a folder without {GAMES_FILE}; give a tournament folder "
                f"(written by tournament(..., out=folder)) or a .jsonl file of records"
            ) from None
        raise FileNotFoundError(f"no such records file or tournament folder: {path}") from None
    return sort_records(records)


def sort_records(records: list[GameRecord]) -> list[GameRecord]:
    """Tournament records in schedule order; records without a table keep their order."""
    if all(r.table is not None and r.game_index is not None for r in records):
        return sorted(records, key=lambda r: (r.table, r.game_index))
    return list(records)


def replay(record: GameRecord, on_step: Callable[[State, int, int], None] | None = None) -> State:
    """Play a record's actions again from its seed and return the final state.

    ``on_step(state, player, action)`` is called after every action, as in ``play_game``.

    Raises:
        ValueError: the record lacks the game name or state seed (made by an older version).
        ReplayMismatchError: an action is illegal, or the result, length or truncation differ.
    """
    if not record.game or record.state_seed is None:
        raise ValueError(
            "this record cannot be replayed: it has no game name or state seed (records made "
            "before replay support); play the game again with play_game to get a full record"
        )
    game = make_game(record.game, **record.config)
    state = game.new_state(record.state_seed)
    where = f"{record.game} record (seed {record.seed}, table {record.table}, game "
    where += f"{record.game_index})"
    for step, action in enumerate(record.actions):
        if state.is_terminal():
            raise ReplayMismatchError(
                f"{where}: the game ended after {step} actions but the record has "
                f"{len(record.actions)}"
            )
        player = state.current_player
        try:
            state.apply(action)
        except GameError as e:
            raise ReplayMismatchError(f"{where}: action {step} cannot be replayed: {e}") from e
        if on_step is not None:
            on_step(state, player, action)
    problems = []
    if not state.is_terminal():
        problems.append(f"the game is not over after the {len(record.actions)} recorded actions")
    if len(record.actions) != record.length:
        problems.append(f"{len(record.actions)} actions recorded but length {record.length}")
    returns = state.returns().tolist()
    if returns != list(record.returns):
        problems.append(f"returns {returns} but the record says {record.returns}")
    if bool(state.truncated) != bool(record.truncated):
        problems.append(f"truncated={state.truncated} but the record says {record.truncated}")
    if problems:
        raise ReplayMismatchError(f"{where} does not replay: " + "; ".join(problems))
    return state
