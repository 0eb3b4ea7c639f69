"""Demonstrations on disk: a teacher's labelled decisions, collected once, cloned many times.

A strong teacher is slow (ISMCTS at 400 iterations takes about half a second per Castle
Nightingale decision), so its games are worth keeping. ``lab/experiments/collect_demos.py`` plays
them in chunks and writes each chunk here as it finishes; ``train_ppo --bc-data DIR`` clones them
instead of collecting ``--bc-games`` games (and, with ``--init-from``, fine-tunes a shipped
entry on them).

A demonstration folder holds:

* ``demos.json`` -- what the rows are: the game and its configuration, the learner's seat, the
  teacher, the actor that played (``""``: the teacher itself; else DAgger-style rows, the actor's
  moves labelled by the teacher), the opponents, the prior (its one-hot is part of the
  observation), the observation and action sizes, the seed and the games per chunk;
* ``chunk-00000.npz``, ... -- :class:`~lab.recipes.sb3.imitation.Demonstrations` arrays,
  written atomically inside the folder (a killed collector leaves whole chunks only; a link is
  replaced, never followed) and read as data: a regular file of at most
  :data:`MAX_CHUNK_BYTES`, each array's size checked from its header before it is read, with
  ``allow_pickle=False`` (never code).

:func:`load_demos` refuses, in one line, a folder made for another game, configuration, prior or
observation size, and a chunk whose arrays are damaged (wrong shapes or types, an illegal label,
a value that is not finite).
"""

from __future__ import annotations

import io
import json
import math
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import (
    UnsafeFileError,
    make_dir,
    read_bytes,
    read_json,
    write_stream,
    write_text,
)
from boardgames_rl.core.game import Game
from lab.recipes.sb3.imitation import Demonstrations

META_FILE = "demos.json"
"""The description of a demonstration folder."""
FIELDS = ("obs", "masks", "actions", "returns", "seats", "game_returns", "played")
"""The arrays of one chunk (the fields of :class:`Demonstrations`)."""
MATCH = ("game", "config", "prior", "observation_size", "num_actions")
"""What a folder must share with the run that clones it."""
MAX_META_BYTES = 2**20
"""Cap of ``demos.json`` read back."""
MAX_CHUNK_BYTES = 2**30
"""Cap of one chunk file, and of its arrays once read (1 GiB)."""


class DemosError(InvalidConfigError):
    """A demonstration folder that cannot be used (one line saying why and what to do)."""


def chunk_path(folder: Path, index: int) -> Path:
    """The file of chunk ``index``."""
    return folder / f"chunk-{index:05d}.npz"


def chunk_indices(folder: Path) -> list[int]:
    """The indices of the chunks present, sorted."""
    out = []
    for p in folder.glob("chunk-*.npz"):
        stem = p.stem.removeprefix("chunk-")
        if stem.isdigit():
            out.append(int(stem))
    return sorted(out)


def describe(
    game: Game,
    obs_size: int,
    *,
    seat: int | str,
    teacher: str,
    actor: str,
    opponents: list[str],
    prior: str,
    seed: int,
    chunk_games: int,
) -> dict[str, Any]:
    """The ``demos.json`` of a new folder."""
    return {
        "game": game.name,
        "config": json.loads(json.dumps(dict(game.config))),
        "seat": seat,
        "teacher": teacher,
        "actor": actor,
        "opponents": list(opponents),
        "prior": prior,
        "observation_size": int(obs_size),
        "num_actions": int(game.num_actions),
        "seed": int(seed),
        "chunk_games": int(chunk_games),
    }


def open_folder(folder: Path, meta: dict[str, Any]) -> None:
    """Create ``folder`` with ``meta``, or check that the folder there was made with the same
    settings (a resumed collection must add rows of the same kind)."""
    path = folder / META_FILE
    if path.is_file():
        old = read_meta(folder)
        changed = sorted(k for k in meta if old.get(k) != meta[k])
        if changed:
            raise DemosError(
                f"{folder} holds demonstrations with other settings ({', '.join(changed)}: "
                f"{', '.join(f'{old.get(k)!r}' for k in changed)}): use those or another --out"
            )
        return
    make_dir(folder, root=folder)
    write_text(path, json.dumps(meta, indent=1), folder)


def read_meta(folder: Path) -> dict[str, Any]:
    """``demos.json`` of ``folder`` (one-line :class:`DemosError` if missing or damaged)."""
    path = folder / META_FILE
    try:
        meta = read_json(path, MAX_META_BYTES, "demonstration description")
    except FileNotFoundError:
        raise DemosError(
            f"{folder}: no {META_FILE}; make the folder with lab/experiments/collect_demos.py"
        ) from None
    except UnsafeFileError as e:
        raise DemosError(f"{e}: collect the folder again") from e
    if not isinstance(meta, dict) or not all(k in meta for k in MATCH):
        raise DemosError(f"{path} does not describe demonstrations: collect the folder again")
    return meta


def save_chunk(folder: Path, index: int, data: Demonstrations) -> Path:
    """Write chunk ``index`` atomically inside ``folder`` (a temporary file renamed over the
    name; a link there is replaced, never followed)."""
    path = chunk_path(folder, index)
    arrays = {f: getattr(data, f) for f in FIELDS}
    write_stream(path, lambda f: np.savez(f, **arrays), folder)
    return path


def _npz_arrays(blob: bytes) -> dict[str, np.ndarray]:
    """The arrays :data:`FIELDS` of an ``.npz`` file's bytes: each array's header is read first
    and its size checked against what the file holds and :data:`MAX_CHUNK_BYTES`, so nothing is
    allocated that the file cannot fill; no pickled array."""
    fmt = np.lib.format
    arrays: dict[str, np.ndarray] = {}
    total = 0
    with zipfile.ZipFile(io.BytesIO(blob)) as z:
        for name in FIELDS:
            member = z.getinfo(f"{name}.npy")  # KeyError: a missing array
            with z.open(member) as f:
                version = fmt.read_magic(f)
                if version == (1, 0):
                    shape, _, dtype = fmt.read_array_header_1_0(f)
                elif version == (2, 0):
                    shape, _, dtype = fmt.read_array_header_2_0(f)
                else:
                    raise ValueError(f"{name}: .npy format {version} is not supported")
                if dtype.hasobject:
                    raise ValueError(f"{name} holds Python objects")
                size = math.prod(shape) * dtype.itemsize
                total += size
                if size > member.file_size or total > MAX_CHUNK_BYTES:
                    raise ValueError(f"{name}: {list(shape)} {dtype} is more than the file holds")
            with z.open(member) as f:
                arrays[name] = fmt.read_array(f, allow_pickle=False)
    return arrays


def _read_chunk(path: Path, obs_size: int, num_actions: int) -> Demonstrations:
    try:
        arrays = _npz_arrays(read_bytes(path, MAX_CHUNK_BYTES, "demonstration chunk"))
    except Exception as e:  # noqa: BLE001 - any damage, a pickled array included: one line
        why = str(e).splitlines()[0][:100] if str(e) else type(e).__name__
        raise DemosError(
            f"{path}: not a demonstration chunk ({why}); delete it and collect again"
        ) from e
    n = len(arrays["actions"])
    expect = {
        "obs": ((n, obs_size), np.floating),
        "masks": ((n, num_actions), np.bool_),
        "actions": ((n,), np.integer),
        "returns": ((n,), np.floating),
        "seats": ((n,), np.integer),
        "played": ((n,), np.integer),
    }
    for name, (shape, kind) in expect.items():
        a = arrays[name]
        if a.shape != shape or not np.issubdtype(a.dtype, kind):
            raise DemosError(
                f"{path}: {name} is {a.dtype}{list(a.shape)}, expected {list(shape)} "
                f"({kind.__name__}); delete it and collect again"
            )
    g = arrays["game_returns"]
    if g.ndim != 1 or not np.issubdtype(g.dtype, np.floating):
        raise DemosError(f"{path}: game_returns is not a list of numbers; delete it")
    actions = arrays["actions"]
    if n and (
        actions.min() < 0
        or actions.max() >= num_actions
        or not arrays["masks"][np.arange(n), actions].all()
    ):
        raise DemosError(f"{path}: a label is not a legal action of its row; delete it")
    if not all(np.isfinite(arrays[f]).all() for f in ("obs", "returns", "game_returns")):
        raise DemosError(f"{path}: a value is not finite; delete it and collect again")
    return Demonstrations(
        obs=arrays["obs"].astype(np.float32),
        masks=arrays["masks"],
        actions=actions.astype(np.int64),
        returns=arrays["returns"].astype(np.float32),
        seats=arrays["seats"].astype(np.int64),
        game_returns=g.astype(np.float64),
        played=arrays["played"].astype(np.int64),
    )


def load_demos(
    folders: str | os.PathLike | list[str | os.PathLike],
    game: Game,
    prior: str,
    obs_size: int,
) -> tuple[Demonstrations, list[dict[str, Any]]]:
    """Every chunk of one or more folders (comma-separated in a string), checked against the run
    (``game`` with its configuration, the ``prior`` spec, the policy's ``obs_size``). Returns the
    rows (in folder then chunk order) and each folder's description."""
    from lab.recipes.sb3.imitation import aggregate

    if isinstance(folders, str):
        folders = [f for f in folders.split(",") if f]
    elif not isinstance(folders, list):
        folders = [folders]
    want = {
        "game": game.name,
        "config": json.loads(json.dumps(dict(game.config))),
        "prior": prior or "",
        "observation_size": int(obs_size),
        "num_actions": int(game.num_actions),
    }
    parts: list[Demonstrations] = []
    metas = []
    for folder in map(Path, folders):
        meta = read_meta(folder)
        wrong = [k for k in MATCH if meta.get(k) != want[k]]
        if wrong:
            raise DemosError(
                f"--bc-data {folder}: made for "
                + ", ".join(f"{k} {meta.get(k)!r}" for k in wrong)
                + ", the run has "
                + ", ".join(f"{want[k]!r}" for k in wrong)
                + " (give the folder's game, -c options and --prior)"
            )
        indices = chunk_indices(folder)
        if not indices:
            raise DemosError(f"--bc-data {folder}: no chunk yet; run collect_demos.py into it")
        parts += [
            _read_chunk(chunk_path(folder, i), want["observation_size"], want["num_actions"])
            for i in indices
        ]
        metas.append({**meta, "chunks": len(indices)})
    return (aggregate(parts) if len(parts) > 1 else parts[0]), metas
