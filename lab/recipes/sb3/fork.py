"""Fork a training run: a new run folder that continues another from one of its policies.

A second phase of training (a lower learning rate, another league) should start from the best
policy a run has evaluated, not from wherever it happened to stop, and must leave the first run
as it was. :func:`fork_run` writes a new run folder whose checkpoint is the source's
``best/model.zip`` (``model="best"``: the policy that scored highest in the run's evaluations,
kept by :class:`~lab.recipes.sb3.callbacks.EvalCallback`) or its last checkpoint
(``model="last"``), at that policy's step count:

* ``model.zip`` (weights and optimiser state);
* ``checkpoints/pool-<t>.pt``: the source's self-play snapshots at its last checkpoint (past
  selves the forked policy is trained against; with ``best`` they may be later than ``t``);
* ``progress.csv`` / ``eval.csv``: the source's rows up to step ``t``;
* ``config.json`` (written last, the commit point): the source's settings, ``out`` the new
  folder, ``num_timesteps = t``, ``complete`` false;
* ``FORK.json``: where it came from (source folder, which policy, its step count and score).

Continuing the fork is an ordinary resume (``train_ppo --resume --out DEST``, or the recipe's
``train`` again), with any new learning rate or league given on that command line.

The source is only read, as data (its ``config.json`` checked, regular files of capped size);
every file of the fork is written inside ``dest``, never through a link.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import (
    UnsafeFileError,
    make_dir,
    read_bytes,
    read_text,
    write_stream,
    write_text,
)
from boardgames_rl.training.checkpoint import (
    CHECKPOINT_DIR,
    LOGS,
    MAX_LOG_BYTES,
    MAX_MODEL_BYTES,
    MODEL_FILE,
)
from lab.recipes.sb3.args import read_config, settings_for_file
from lab.recipes.sb3.callbacks import read_best

STEP_COLUMNS = ("timesteps", "time/total_timesteps")
"""The step column of each CSV log (``eval.csv``, SB3's ``progress.csv``)."""


def cut_log_at(source: Path, dest: Path, steps: int, root: Path | None = None) -> int:
    """Copy the CSV log ``source`` to ``dest`` (inside the folder ``root``, default its own) up
    to the last row at or before ``steps`` (rows without a step value are kept with the row before
    them); returns the bytes written."""
    try:
        lines = read_text(source, MAX_LOG_BYTES, "training log").splitlines(keepends=True)
    except FileNotFoundError:
        return 0
    if not lines:
        write_text(dest, "", root)
        return 0
    header = lines[0].rstrip("\r\n").split(",")
    column = next((header.index(c) for c in STEP_COLUMNS if c in header), None)
    kept = [lines[0]]
    for line in lines[1:]:
        cells = line.rstrip("\r\n").split(",")
        value = cells[column] if column is not None and column < len(cells) else ""
        try:
            if value and float(value) > steps:
                break
        except ValueError:
            pass
        kept.append(line)
    text = "".join(kept)
    write_text(dest, text, root)
    return len(text.encode())


def _copy(source: Path, dest: Path, root: Path) -> None:
    """The regular file ``source`` (at most :data:`MAX_MODEL_BYTES`) as ``dest`` inside ``root``."""
    blob = read_bytes(source, MAX_MODEL_BYTES, "model file")
    write_stream(dest, lambda f: f.write(blob), root)


def fork_run(source: Path, dest: Path, model: Literal["best", "last"] = "best") -> dict[str, Any]:
    """Write the run folder ``dest`` continuing ``source`` from its ``model`` policy (see the
    module docstring); returns the fork record. One-line :class:`InvalidConfigError` if the
    source has no such policy or ``dest`` is not empty; the source is only read."""
    source, dest = Path(source), Path(dest)
    config = read_config(source)
    checkpoint = config.get("checkpoint")
    if not isinstance(checkpoint, dict):
        raise InvalidConfigError(f"{source}: no checkpoint in config.json: nothing to fork")
    if dest.exists() and any(dest.iterdir()):
        raise InvalidConfigError(f"{dest} is not empty: give a new folder for the fork")
    if model == "best":
        best = read_best(source / "best")
        if best["score"] < 0:
            raise InvalidConfigError(
                f"{source} has no best/ policy (it predates best-keeping or never evaluated): "
                "fork --model last"
            )
        steps, score, model_file = int(best["timesteps"]), float(best["score"]), "best/model.zip"
    elif model == "last":
        steps, score = int(config.get("num_timesteps", 0)), None
        model_file = str(checkpoint["model"])
    else:
        raise InvalidConfigError(f"model must be best or last, got {model!r}")
    model_path, pool_path = source / model_file, source / checkpoint["pool"]
    for path in (model_path, pool_path):
        if not path.is_file():
            raise InvalidConfigError(f"{path} is missing: restore it before forking {source}")
    make_dir(dest / CHECKPOINT_DIR, root=dest)  # dest is the person's; a link below it refused
    pool_rel = f"{CHECKPOINT_DIR}/pool-{steps}.pt"
    try:
        _copy(model_path, dest / MODEL_FILE, dest)
        _copy(pool_path, dest / pool_rel, dest)
    except UnsafeFileError as e:
        raise InvalidConfigError(f"{e}: restore it before forking {source}") from e
    sizes = {name: cut_log_at(source / name, dest / name, steps, dest) for name in LOGS}
    record = {"source": str(source), "model": model, "timesteps": steps, "score": score}
    write_text(dest / "FORK.json", json.dumps(record, indent=1), dest)
    forked = {
        **settings_for_file(config),
        "out": str(dest),
        "num_timesteps": steps,
        "complete": False,
        "checkpoint": {"model": MODEL_FILE, "pool": pool_rel, "logs": sizes},
    }
    write_text(dest / "config.json", json.dumps(forked, indent=1), dest)  # the commit point
    return record
