"""A training run's folder: what :mod:`boardgames_rl.training.ppo` writes, and reading it back.

.. code-block:: text

    runs/ppo_white_castle_s0/
        config.json         every setting, the step count, whether the run is complete,
                            and the checkpoint (file names, log sizes): the commit point
        model.zip           the last checkpoint's policy and optimiser (play it: ppo:path=...)
        checkpoints/pool-<t>.pt   the self-play snapshots of that checkpoint
        progress.csv        a row per update (losses, episode returns, steps per second)
        eval.csv            a row per evaluation opponent (win rate, 95% interval)
        best/model.zip, best/best.json   the policy with the best mean evaluation win rate
        learning_curve.png

``model.zip`` has sb3-contrib's layout (``data`` JSON, ``policy.pth``, ``policy.optimizer.pth``),
so every reader of model files reads it, and runs written by earlier versions (the SB3
``MaskablePPO`` trainer) load into :class:`~boardgames_rl.training.network.ActorCritic` as they
are: :func:`settings_of_old_run` maps their settings to today's names, and refuses in one line
what this trainer does not do (a residual ``--prior``, reward shaping), naming the lab recipe.

Checkpoints are written by ``boardgames_rl.training.checkpoint.save_checkpoint`` (atomic
files inside the folder, links replaced, never followed; ``config.json`` is the commit point).
Everything read back is data: ``config.json`` is checked value by value, weights are read with
``weights_only`` through :func:`~boardgames_rl.agents.ppo.read_model_file` (nothing unpickled).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import torch as th

from boardgames_rl.agents.ppo import UntrustedModelError, read_model_file
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import (
    UnsafeFileError,
    loads_json,
    make_dir,
    read_json,
    read_text,
    remove_file,
    write_stream,
    write_text,
)
from boardgames_rl.training.checkpoint import (
    CHECKPOINT_DIR,
    MODEL_FILE,
    clear_logs,
    cut_logs,
    read_snapshots,
    save_checkpoint,
)

FORMAT = 2
"""``config.json``'s ``format``: 2 is this trainer's; runs without it are the SB3 trainer's."""
MAX_CONFIG_BYTES = 1 << 20
MAX_BEST_BYTES = 1 << 20
OLD_NAMES = {
    "n_steps": "num_steps",
    "n_epochs": "update_epochs",
    "lr": "learning_rate",
    "clip_range": "clip_coef",
    "n_envs": "num_envs",
    "vec_workers": "num_workers",
}
"""Settings of the SB3 trainer's runs under their new names (the others kept theirs)."""
POOL_FILE = re.compile(rf"{CHECKPOINT_DIR}/pool-[0-9]{{1,20}}\.pt")
"""The pool file a checkpoint names (inside ``checkpoints/``, nowhere else)."""
SB3_RECIPE = "python lab/recipes/train_sb3.py --resume --out {out}"
"""How to continue an SB3-trainer run this trainer cannot (the lab keeps that trainer)."""


@dataclass
class Run:
    """An opened run folder: fresh (``done_steps`` 0), or a checkpoint to continue."""

    out: Path
    settings: dict[str, Any]
    resumed: bool = False
    done_steps: int = 0
    wall_time: float = 0.0
    weights: dict[str, Any] | None = None  # "policy", "policy.optimizer": state dicts
    snapshots: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    old_format: bool = False


# ---------------------------------------------------------------------------- config.json
def read_config(out: Path) -> dict[str, Any]:
    """``out/config.json`` as a dict (a regular file of strict JSON holding an object)."""
    path = out / "config.json"
    fix = "restore the file, or start a new run with another --out"
    _refuse_link(path, "run settings", fix)
    try:
        config = loads_json(read_text(path, MAX_CONFIG_BYTES, "run settings"), str(path))
    except FileNotFoundError:
        raise InvalidConfigError(
            f"{out} holds no config.json: it is not a run folder; give the folder of a run"
        ) from None
    except UnsafeFileError as e:
        raise InvalidConfigError(f"{e}: {fix}") from e
    if not isinstance(config, dict):
        raise InvalidConfigError(f"{path} is not a JSON object: {fix}")
    for key in ("num_timesteps", "target_timesteps"):
        value = config.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidConfigError(f"{path}: {key} must be an integer >= 0: {fix}")
    wall = config.get("wall_time", 0.0)
    if not isinstance(wall, int | float) or isinstance(wall, bool) or not math.isfinite(wall):
        raise InvalidConfigError(f"{path}: wall_time must be a number: {fix}")
    if not isinstance(config.get("complete", False), bool):
        raise InvalidConfigError(f"{path}: complete must be true or false: {fix}")
    return config


def _refuse_link(path: Path, what: str, fix: str) -> None:
    """A file of the run folder read back is the folder's own: a link there is refused, never
    followed."""
    if os.path.islink(path):
        raise InvalidConfigError(
            f"{path}: the {what} is a symbolic link, not the run's own file: {fix}"
        )


def run_settings(saved: Mapping[str, Any], out: Path) -> dict[str, Any]:
    """The settings of a read ``config.json`` under today's names (this trainer's ``settings``
    object, or an SB3-trainer run's through :func:`settings_of_old_run`), ``game`` a string and
    ``config`` an object when present.

    Raises:
        InvalidConfigError: another ``format``, or settings that are not what they should be.
    """
    path = out / "config.json"
    fix = "restore the file, or start a new run with another --out"
    if "format" not in saved:
        settings = settings_of_old_run(saved, out)
    elif saved.get("format") != FORMAT:
        raise InvalidConfigError(
            f"{path}: format {saved.get('format')!r:.20} is not one this version reads "
            f"({FORMAT}); use the boardgames-rl version that wrote it"
        )
    else:
        settings = saved.get("settings", {})
        if not isinstance(settings, dict):
            raise InvalidConfigError(f"{path}: settings must be a JSON object: {fix}")
        settings = dict(settings)
    for key, kind in (("game", str), ("config", dict)):
        if key in settings and not isinstance(settings[key], kind):
            raise InvalidConfigError(
                f"{path}: {key} must be {'a string' if kind is str else 'a JSON object'}, got "
                f"{settings[key]!r:.60}: {fix}"
            )
    return settings


def settings_of_old_run(config: Mapping[str, Any], out: Path) -> dict[str, Any]:
    """The settings of a run written by the SB3 trainer (no ``format``) under today's names.

    Raises:
        InvalidConfigError: the run used what this trainer does not do (one line naming the lab
            recipe that continues it).
    """
    refuse = {
        "prior": "a residual policy (--prior)",
        "shaping": "reward shaping (--shaping)",
    }
    for key, what in refuse.items():
        value = config.get(key)
        if value not in (None, "", "none"):
            raise InvalidConfigError(
                f"{out} is a run of the SB3 trainer with {what}, which boardgames-rl train does "
                f"not do; continue it with `{SB3_RECIPE.format(out=out)}`"
            )
    warmup = config.get("value_warmup", 0)
    if isinstance(warmup, int) and warmup > int(config.get("num_timesteps", 0)):
        raise InvalidConfigError(
            f"{out} is a run of the SB3 trainer still in its --value-warmup, which boardgames-rl "
            f"train does not do; continue it with `{SB3_RECIPE.format(out=out)}`"
        )
    return {OLD_NAMES.get(k, k): v for k, v in config.items()}


# ---------------------------------------------------------------------------- opening
TRAINERS = {"ppo": "boardgames-rl train", "league": "boardgames-rl league"}
"""``config.json``'s ``trainer`` (absent: ``ppo``) and the command that continues such a run."""


_LOCKS: dict[str, int] = {}
"""The run folders this process trains into: their locked descriptors, by resolved path."""


def lock_run(out: Path) -> None:
    """Lock the run folder ``out`` (an existing folder, not a link) for this process's training
    (an exclusive ``flock`` on the folder itself: no file is written, and the lock goes with the
    process, however it ends); :func:`unlock_run` releases it.

    Raises:
        InvalidConfigError: another training (in this process or another) holds it: two
            trainings in one folder would interleave their checkpoints and logs.
    """
    try:
        import fcntl
    except ImportError:  # no flock on this platform: nothing to lock with
        return
    key = str(out.resolve())
    busy = (
        f"{out} is in use: another training is running in it; wait for it to end (or stop it), "
        "or give another --out"
    )
    if key in _LOCKS:
        raise InvalidConfigError(busy)
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(out, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise InvalidConfigError(busy) from None
    _LOCKS[key] = fd


def unlock_run(out: Path) -> None:
    """Release this process's lock of the run folder ``out`` (none held: nothing to do)."""
    fd = _LOCKS.pop(str(out.resolve()), None)
    if fd is not None:
        os.close(fd)


def open_run(out: Path, resume: bool, trainer: str = "ppo") -> tuple[Run, bool]:
    """The run folder ``out`` (created when missing; nothing below it is written through a
    link), locked for this process (:func:`lock_run`: the trainer releases it with
    :func:`unlock_run` when it ends), and whether this invocation created it. ``resume``:
    continue its checkpoint; a folder holding an interrupted run (``complete`` false) is
    continued without it. A run of another ``trainer`` (:data:`TRAINERS`) is refused, naming the
    command that continues it.

    Raises:
        InvalidConfigError: a folder another training is running in, a folder that holds a
            finished run without ``resume``, a ``resume`` without a checkpoint, or a
            checkpoint that is not what it should be.
    """
    created = not out.exists()
    try:
        make_dir(out, root=out)
    except OSError as e:
        raise InvalidConfigError(f"--out {out}: cannot create the run folder ({e})") from e
    lock_run(out)
    try:
        return _open_locked_run(out, resume, trainer, created)
    except BaseException:
        unlock_run(out)
        raise


def _open_locked_run(out: Path, resume: bool, trainer: str, created: bool) -> tuple[Run, bool]:
    try:
        make_dir(out / CHECKPOINT_DIR, root=out)
    except OSError as e:
        raise InvalidConfigError(f"--out {out}: cannot create the run folder ({e})") from e
    has_model = os.path.lexists(out / MODEL_FILE)
    saved = read_config(out) if (resume or has_model) else {}
    theirs = saved.get("trainer", "ppo") if saved else trainer
    if theirs != trainer:
        command = TRAINERS.get(theirs) if isinstance(theirs, str) else None
        how = f"continue it with `{command} --resume --out {out}`" if command else "restore it"
        raise InvalidConfigError(
            f"{out} holds a run of another trainer ({theirs!r:.30}): {how}, or give another --out"
        )
    if has_model and not resume and saved.get("complete", True):
        raise InvalidConfigError(
            f"{out} already holds a finished run: add --resume (and --timesteps N for N more "
            "steps), or give another --out"
        )
    if not resume and not has_model:
        clear_logs(out)
        return Run(out, {}), created
    if not has_model:
        raise InvalidConfigError(f"--resume: no model.zip in {out}; start a new run instead")
    old = "format" not in saved
    settings = run_settings(saved, out)
    fix = "restore the file or start a new run with another --out"
    checkpoint = saved.get("checkpoint")
    if not isinstance(checkpoint, dict):
        checkpoint = {}
    _refuse_link(out / MODEL_FILE, "model file", fix)
    try:
        _, weights = read_model_file(out / MODEL_FILE)
    except UntrustedModelError as e:
        raise InvalidConfigError(f"--resume: {e}") from e
    snapshots: list[tuple[str, dict[str, Any]]] = []
    pool = checkpoint.get("pool")
    if isinstance(pool, str):
        if not POOL_FILE.fullmatch(pool):
            raise InvalidConfigError(
                f"{out / 'config.json'}: checkpoint.pool must name checkpoints/pool-<steps>.pt, "
                f"got {pool!r:.60}; {fix}"
            )
        _refuse_link(out / pool, "pool snapshot file", fix)
        snapshots = read_snapshots(out / pool)
    logs = checkpoint.get("logs", {})
    if isinstance(logs, dict):
        sizes = {k: v for k, v in logs.items() if isinstance(v, int) and not isinstance(v, bool)}
        if any(v < 0 for v in sizes.values()):
            raise InvalidConfigError(
                f"{out / 'config.json'}: checkpoint.logs must map each log to its size (an "
                f"integer >= 0), got {logs!r:.60}; {fix}"
            )
        cut_logs(out, sizes)
    if old:  # the SB3 trainer's progress.csv has other columns: kept aside, not appended to
        _set_aside(out, "progress.csv", "progress_sb3.csv")
    run = Run(
        out,
        settings,
        resumed=True,
        done_steps=int(saved.get("num_timesteps", 0)),
        wall_time=float(saved.get("wall_time", 0.0)),
        weights=weights,
        snapshots=snapshots,
        old_format=old,
    )
    run.settings["target_timesteps"] = int(saved.get("target_timesteps", run.done_steps))
    run.settings["complete"] = bool(saved.get("complete", True))
    return run, created


def _set_aside(out: Path, name: str, new: str) -> None:
    """Rename ``out/name`` to ``out/new`` inside the folder (nothing read; a link at either name
    is the link itself, never its target)."""
    source = out / name
    if os.path.isfile(source) and not os.path.islink(source):
        os.replace(source, out / new)


def undo_fresh_start(out: Path, created: bool) -> None:
    """A fresh run that failed before its first checkpoint leaves nothing behind."""
    with contextlib.suppress(OSError, InvalidConfigError):
        remove_file(out / "config.json", out)
    for sub in (CHECKPOINT_DIR, "best"):
        with contextlib.suppress(OSError):
            (out / sub).rmdir()
    if created:
        with contextlib.suppress(OSError):
            out.rmdir()


# ---------------------------------------------------------------------------- writing
def model_zip(net: th.nn.Module, optimizer: th.optim.Optimizer | None) -> Callable[[IO], None]:
    """A writer of ``model.zip`` in sb3-contrib's layout: ``data`` (JSON: the network's hidden
    sizes), ``policy.pth`` and ``policy.optimizer.pth`` (state dicts: tensors and numbers)."""
    hidden = list(getattr(net, "hidden", []))
    kwargs: dict[str, Any] = {"net_arch": {"pi": hidden, "vf": hidden}}
    if getattr(net, "prior", None) is not None:  # a residual network: its prior agent's spec
        kwargs.update(prior=net.prior, prior_scale=float(net.prior_scale.detach()))
    data = {"policy_kwargs": kwargs, "trainer": "ppo"}

    def write(f: IO) -> None:
        with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("data", json.dumps(data))
            for name, state in (("policy.pth", net.state_dict()),) + (
                (("policy.optimizer.pth", optimizer.state_dict()),) if optimizer else ()
            ):
                buf = io.BytesIO()
                th.save(state, buf)
                z.writestr(name, buf.getvalue())

    return write


@dataclass
class _Saved:
    """What :func:`~boardgames_rl.training.checkpoint.save_checkpoint` asks of a model."""

    num_timesteps: int
    save: Callable[[IO], None]


def save(
    out: Path,
    steps: int,
    net: th.nn.Module,
    optimizer: th.optim.Optimizer,
    snapshots: list[tuple[str, dict[str, Any]]],
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Commit the checkpoint of step ``steps`` (``settings``: the rest of ``config.json``)."""
    config = {"format": FORMAT, **settings}
    return save_checkpoint(out, _Saved(steps, model_zip(net, optimizer)), snapshots, config)


def write_config(out: Path, config: dict[str, Any]) -> None:
    write_text(out / "config.json", json.dumps(config, indent=1), out)


# ---------------------------------------------------------------------------- best/
def read_best(best_dir: Path | None) -> dict[str, Any]:
    """``best.json`` of a ``best/`` folder (``score`` -1 when there is no kept policy).

    Raises:
        InvalidConfigError: ``best.json`` is there but not a regular file of strict JSON holding
            ``timesteps`` (an integer >= 0), ``score`` (a win rate in [0, 1]) and ``rows`` (a
            list): one line saying to restore it or remove ``best/``.
    """
    empty: dict[str, Any] = {"timesteps": 0, "score": -1.0, "rows": []}
    if best_dir is None or not (best_dir / "model.zip").is_file():
        return empty
    path = best_dir / "best.json"
    fix = f"restore it, or remove {best_dir} (the run then keeps its next best policy there)"
    try:
        record = read_json(path, MAX_BEST_BYTES, "best-policy record")
    except FileNotFoundError:
        return empty
    except UnsafeFileError as e:
        raise InvalidConfigError(f"{e}: {fix}") from e
    if not isinstance(record, dict):
        raise InvalidConfigError(f"{path} is not a JSON object: {fix}")
    steps, score = record.get("timesteps"), record.get("score")
    if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
        raise InvalidConfigError(
            f"{path}: timesteps must be an integer >= 0, got {steps!r:.40}: {fix}"
        )
    if (
        not isinstance(score, int | float)
        or isinstance(score, bool)
        or not (math.isfinite(score) and 0 <= score <= 1)
    ):
        raise InvalidConfigError(
            f"{path}: score must be a win rate in [0, 1], got {score!r:.40}: {fix}"
        )
    if not isinstance(record.get("rows", []), list):
        raise InvalidConfigError(f"{path}: rows must be a list: {fix}")
    return {**record, "score": float(score)}


def keep_best(out: Path, net: th.nn.Module, steps: int, rows: list[dict[str, Any]]) -> bool:
    """Keep ``net`` in ``best/`` when its mean win rate over ``rows`` beats the kept one's."""
    if not rows:
        return False
    score = sum(float(r["rate"]) for r in rows) / len(rows)
    if score <= read_best(out / "best")["score"]:
        return False
    best = make_dir(out / "best", out)
    write_stream(best / "model.zip", model_zip(net, None), out)
    record = {"timesteps": steps, "score": score, "rows": rows}
    write_text(best / "best.json", json.dumps(record, indent=1), out)
    return True
