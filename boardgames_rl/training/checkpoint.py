"""Checkpoints of a training run that survive a kill: atomic files, one commit point, log cuts.

A checkpoint at step ``t`` is three files in the run folder, each stored once:

* ``model.zip`` -- the model with its optimiser state (sb3-contrib's layout, written by
  :func:`boardgames_rl.training.runs.model_zip`), the file users load too;
* ``checkpoints/pool-<t>.pt`` -- the self-play snapshots of the opponent pool (names and state
  dicts: tensors only, read back with ``torch.load(weights_only=True)``);
* ``config.json`` -- every setting, ``num_timesteps = t``, ``complete`` (false until the run
  reaches its target), and ``checkpoint``: the two file names above and the byte size of each
  CSV log (``progress.csv``, ``eval.csv``) at step ``t``.

Besides them the folder holds the logs, ``learning_curve.png`` and ``best/`` (the best policy
evaluated, :func:`boardgames_rl.training.runs.keep_best`); older checkpoints are
removed once a newer one is committed.

Every file is written through :mod:`boardgames_rl.core.files` inside the run folder: to a
temporary name, flushed to disk, then renamed over its target (``os.replace``, atomic on POSIX;
a symbolic link planted at a file's name is replaced, never followed; ``checkpoints/`` as a link
is refused in one line), and ``config.json`` is the commit point. Saving step ``t`` goes:

1. the model to ``checkpoints/model-<t>.zip`` and the pool to ``checkpoints/pool-<t>.pt``;
2. ``config.json`` naming them (commit: the checkpoint is ``t`` from here on);
3. ``model.zip`` replaced by a copy of ``checkpoints/model-<t>.zip``;
4. ``config.json`` naming ``model.zip`` instead (the same checkpoint);
5. ``checkpoints/model-<t>.zip`` and every other file of ``checkpoints/`` removed.

At every moment ``config.json`` names files that exist and hold its step: a kill at any moment
leaves either the previous checkpoint or the new one, never a mix, and afterwards one copy of
the model. On resume the CSV logs are cut back to their sizes at the checkpoint, so no step
appears twice.

Reading back, ``config.json`` is data (:func:`boardgames_rl.training.runs.read_config` checks every
value's type) and the pool file holds tensors only.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from boardgames_rl._util.moved import names_moved_to_lab
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import (
    UnsafeFileError,
    list_dir,
    make_dir,
    read_bytes,
    remove_file,
    truncate_file,
    write_file,
    write_stream,
    write_text,
)

LOGS = ("progress.csv", "eval.csv")
"""The CSV logs cut back to the checkpoint on resume."""
LEAGUE_LOGS = ("league.csv",)
"""A league run's own logs: recorded when present, and cut back on resume like :data:`LOGS`."""
RUN_LOGS = (*LOGS, "bc.csv")
"""The logs a fresh run starts anew (removed first: a file or a link left there goes)."""
CHECKPOINT_DIR = "checkpoints"
MODEL_FILE = "model.zip"
"""The run's model: the last checkpoint's, with its optimiser state (the file users load)."""
MAX_MODEL_BYTES = 2**30
"""Cap of a model or pool file read back by the training package (1 GiB)."""
MAX_LOG_BYTES = 2**30
"""Cap of a CSV log read back (``progress.csv``, ``eval.csv``; 1 GiB)."""


def save_model(model: Any, path: Path, root: Path) -> None:
    """``model.save`` into ``path`` inside the folder ``root`` (see
    :func:`~boardgames_rl.core.files.write_stream`: a fresh file renamed over the name)."""
    write_stream(path, model.save, root)


def log_sizes(out: Path) -> dict[str, int]:
    """Byte size of each CSV log now (0 when absent or not a regular file)."""
    sizes = {}
    for name in (*LOGS, *LEAGUE_LOGS):
        try:
            st = os.lstat(out / name)
        except FileNotFoundError:
            if name in LOGS:
                sizes[name] = 0
            continue
        sizes[name] = st.st_size if stat.S_ISREG(st.st_mode) else 0
    return sizes


def cut_logs(out: Path, sizes: Mapping[str, int]) -> None:
    """Truncate each CSV log to its size at the checkpoint (rows after it are dropped); a log
    that is a link is refused (:class:`~boardgames_rl.core.files.UnsafeFileError`)."""
    for name in (*LOGS, *LEAGUE_LOGS):
        truncate_file(out / name, int(sizes.get(name, 0)), root=out)


def clear_logs(out: Path) -> None:
    """A fresh run's logs start empty: remove :data:`RUN_LOGS` (a link there: the link itself,
    never its target)."""
    for name in RUN_LOGS:
        remove_file(out / name, root=out)


def save_checkpoint(
    out: Path,
    model: Any,
    snapshots: list[tuple[str, dict[str, Any]]],
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Write the checkpoint of ``model`` at ``model.num_timesteps`` (the steps of the module
    docstring); returns the committed config.

    ``settings`` is everything else ``config.json`` holds (``complete`` included).
    """
    steps = int(model.num_timesteps)
    ckdir = make_dir(out / CHECKPOINT_DIR, root=out)
    model_rel = f"{CHECKPOINT_DIR}/model-{steps}.zip"
    pool_rel = f"{CHECKPOINT_DIR}/pool-{steps}.pt"
    save_model(model, out / model_rel, out)
    import torch as th  # here, not at the top: ``--help`` and flag errors need no torch

    payload = {"names": [n for n, _ in snapshots], "states": [s for _, s in snapshots]}
    write_stream(out / pool_rel, lambda f: th.save(payload, f), out)
    checkpoint = {"model": model_rel, "pool": pool_rel, "logs": log_sizes(out)}
    config = {**settings, "num_timesteps": steps, "checkpoint": checkpoint}
    write_text(out / "config.json", json.dumps(config, indent=1), out)  # the commit point

    def copy_model(tmp: str) -> None:
        shutil.copyfile(out / model_rel, tmp)

    write_file(out / MODEL_FILE, copy_model, out)
    config["checkpoint"] = {**checkpoint, "model": MODEL_FILE}
    write_text(out / "config.json", json.dumps(config, indent=1), out)  # the same checkpoint
    keep = {Path(pool_rel).name}
    for name in list_dir(ckdir, out):
        if name not in keep and not os.path.isdir(ckdir / name):
            remove_file(ckdir / name, out)
    return config


def checkpoint_model(out: Path, config: Mapping[str, Any]) -> tuple[Path, bytes]:
    """The path and bytes of the checkpoint's model file (``config``: the run's checked
    ``config.json``; ``model.zip`` when it names none): a regular file of at most
    :data:`MAX_MODEL_BYTES`.

    Raises:
        InvalidConfigError: the file is missing, not a regular file or too big (one line saying
            what to do).
    """
    checkpoint = config.get("checkpoint")
    rel = checkpoint.get("model") if isinstance(checkpoint, dict) else None
    path = out / rel if isinstance(rel, str) else out / MODEL_FILE
    try:
        blob = read_bytes(path, MAX_MODEL_BYTES, "model file")
    except FileNotFoundError:
        raise InvalidConfigError(
            f"--resume: no model file {path}; restore it or start a new run"
        ) from None
    except UnsafeFileError as e:
        raise InvalidConfigError(f"--resume: {e}") from e
    return path, blob


def read_snapshots(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The pool snapshots saved by :func:`save_checkpoint` (``weights_only``: nothing unpickled;
    a regular file of at most :data:`MAX_MODEL_BYTES`)."""
    from boardgames_rl.agents.torch_weights import check_plain_tensors, load_plain_weights

    fix = "restore the file or start a new run with another --out"
    try:
        blob = read_bytes(path, MAX_MODEL_BYTES, "pool snapshot file")
    except FileNotFoundError:
        raise InvalidConfigError(f"{path}: the checkpoint's pool file is missing: {fix}") from None
    except UnsafeFileError as e:
        raise InvalidConfigError(f"{e}: {fix}") from e
    try:
        payload = load_plain_weights(blob)  # the torch floor, weights_only
        names, states = payload["names"], payload["states"]
        if len(names) != len(states) or not all(isinstance(n, str) for n in names):
            raise ValueError("names and states do not match")
        if not all(isinstance(s, dict) for s in states):
            raise ValueError("a snapshot is not a state dict")
        for name, state in zip(names, states, strict=True):
            check_plain_tensors(state, f"snapshot {name!r}")  # plain, finite, no views
    except InvalidConfigError:
        raise
    except Exception as e:  # noqa: BLE001 - any damage: one line
        raise InvalidConfigError(
            f"{path}: the pool snapshots are damaged or hold Python objects "
            f"({str(e).splitlines()[0][:120] if str(e) else type(e).__name__}); {fix}"
        ) from e
    return list(zip(names, states, strict=True))


__getattr__ = names_moved_to_lab(
    __name__,
    {
        name: (
            "lab/recipes/sb3/args.py",
            f"the library's own: boardgames_rl.training.runs.{name}",
        )
        for name in ("read_config", "MAX_CONFIG_BYTES")
    },
)
