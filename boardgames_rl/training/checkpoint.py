"""Checkpoints of a training run that survive a kill: atomic files, one commit point, log cuts.

A checkpoint at step ``t`` is three files in the run folder:

* ``checkpoints/model-<t>.zip`` -- the model with its optimiser state (SB3's ``model.save``);
* ``checkpoints/pool-<t>.pt`` -- the self-play snapshots of the opponent pool (names and state
  dicts: tensors only, read back with ``torch.load(weights_only=True)``);
* ``config.json`` -- every setting, ``num_timesteps = t``, ``complete`` (false until the run
  reaches its target), and ``checkpoint``: the two file names above and the byte size of each CSV
  log (``progress.csv``, ``eval.csv``) at step ``t``.

Every file is written to a temporary name, flushed to disk, then renamed over its target
(``os.replace``, atomic on POSIX), and ``config.json`` is written last: it is the commit point, so a
kill at any moment leaves either the previous checkpoint or the new one, never a mix. ``model.zip``
(the file users load) is refreshed after each commit. On resume the CSV logs are cut back to their
sizes at the checkpoint, so no step appears twice.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from boardgames_rl.core.errors import InvalidConfigError

LOGS = ("progress.csv", "eval.csv")
"""The CSV logs cut back to the checkpoint on resume."""
CHECKPOINT_DIR = "checkpoints"


def atomic_write(path: Path, write: Callable[[str], None]) -> None:
    """``write(tmp_name)`` then rename over ``path`` (same folder, fsynced)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    def write(tmp: str) -> None:
        Path(tmp).write_text(text)

    atomic_write(path, write)


def save_model_atomic(model: Any, path: Path) -> None:
    """``model.save`` to a temporary ``.zip``, then rename (SB3 appends ``.zip`` if missing)."""

    def write(tmp: str) -> None:
        model.save(tmp)
        if not tmp.endswith(".zip") and os.path.exists(tmp + ".zip"):
            os.replace(tmp + ".zip", tmp)

    atomic_write(path, write)


def log_sizes(out: Path) -> dict[str, int]:
    """Byte size of each CSV log now (0 when absent)."""
    return {name: (out / name).stat().st_size if (out / name).is_file() else 0 for name in LOGS}


def cut_logs(out: Path, sizes: Mapping[str, int]) -> None:
    """Truncate each CSV log to its size at the checkpoint (rows after it are dropped)."""
    for name in LOGS:
        path = out / name
        size = int(sizes.get(name, 0))
        if path.is_file() and path.stat().st_size > size:
            with open(path, "rb+") as f:
                f.truncate(size)


def save_checkpoint(
    out: Path,
    model: Any,
    snapshots: list[tuple[str, dict[str, Any]]],
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Write the checkpoint of ``model`` at ``model.num_timesteps``; returns the committed config.

    ``settings`` is everything else ``config.json`` holds (``complete`` included).
    """
    steps = int(model.num_timesteps)
    ckdir = out / CHECKPOINT_DIR
    model_rel = f"{CHECKPOINT_DIR}/model-{steps}.zip"
    pool_rel = f"{CHECKPOINT_DIR}/pool-{steps}.pt"
    save_model_atomic(model, out / model_rel)
    import torch as th  # here, not at the top: ``--help`` and flag errors need no torch

    payload = {"names": [n for n, _ in snapshots], "states": [s for _, s in snapshots]}
    atomic_write(out / pool_rel, lambda tmp: th.save(payload, tmp))
    config = {
        **settings,
        "num_timesteps": steps,
        "checkpoint": {"model": model_rel, "pool": pool_rel, "logs": log_sizes(out)},
    }
    atomic_write_text(out / "config.json", json.dumps(config, indent=1))  # the commit point

    def copy_model(tmp: str) -> None:
        shutil.copyfile(out / model_rel, tmp)

    atomic_write(out / "model.zip", copy_model)
    keep = {Path(model_rel).name, Path(pool_rel).name}
    for old in ckdir.iterdir():
        if old.name not in keep:
            old.unlink(missing_ok=True)
    return config


def read_config(out: Path) -> dict[str, Any]:
    """``out/config.json`` as a dict; a damaged file: a one-line :class:`InvalidConfigError`."""
    path = out / "config.json"
    try:
        config = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise InvalidConfigError(
            f"{path} is not readable JSON ({str(e).splitlines()[0][:120]}): the run cannot be "
            "resumed; restore the file or start a new run with another --out"
        ) from e
    if not isinstance(config, dict):
        raise InvalidConfigError(f"{path} is not a JSON object: start a new run with another --out")
    return config


def read_snapshots(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The pool snapshots saved by :func:`save_checkpoint` (``weights_only``: nothing unpickled)."""
    import torch as th

    try:
        payload = th.load(path, map_location="cpu", weights_only=True)
        names, states = payload["names"], payload["states"]
        if len(names) != len(states) or not all(isinstance(n, str) for n in names):
            raise ValueError("names and states do not match")
    except Exception as e:  # noqa: BLE001 - any damage: one line
        raise InvalidConfigError(
            f"{path}: the pool snapshots are damaged or hold Python objects "
            f"({str(e).splitlines()[0][:120] if str(e) else type(e).__name__}); restore the file "
            "or start a new run with another --out"
        ) from e
    return list(zip(names, states, strict=True))
