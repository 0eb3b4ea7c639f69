"""The SB3 recipe's run folder is data: its files never switch on code, outputs never follow a
link. (The library's trainer: ``tests/security/test_run_folder.py``.)

Each test drives ``python lab/recipes/train_sb3.py`` in a subprocess on a real run folder (a
tiny Castle Nightingale run) with a real planted file:

* an agent spec with ``trust=1`` written into ``config.json`` (opponents, evaluation opponents,
  teacher) next to a model file whose unpickling would create a marker: ``--resume`` and the
  plain rerun of an interrupted run refuse it in one line and the marker never appears; a spec
  the person gives again on the command line keeps the person's opt-in; a run stores its specs
  without ``trust``;
* wrong-typed values in ``config.json`` (and a FIFO or ``/dev/zero`` in its place): one line
  naming the field and the file, no traceback, no hang;
* ``checkpoints/`` or ``best/`` planted as a link to another folder: refused in one line, the
  other folder untouched; logs, the figure and ``config.json`` planted as links: replaced by the
  run's own files, the link targets untouched; a log link on resume: refused in one line;
* ``--bc-data`` with a FIFO as ``demos.json``, a fork from a run whose ``best/best.json`` is
  damaged, a FIFO as ``INIT_FROM.json``: one line, nothing written.

The payloads are built with the standard library only (zipfile, pickle, json, os.mkfifo).
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .helpers import TRAIN_SB3

GAME = "castle_nightingale"
TINY = [
    "--n-envs",
    "1",
    "--n-steps",
    "64",
    "--batch-size",
    "64",
    "--n-epochs",
    "1",
    "--net",
    "8",
    "--eval-games",
    "1",
    "--eval-every",
    "0",
    "--no-progress",
    "--bc-games",
    "0",
    "--opponents",
    "random",
    "--opponent-weights",
    "1",
    "--checkpoint-every",
    "0",
]
"""A run of a few seconds."""
ROOT = Path(__file__).resolve().parents[3]


def _train(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(TRAIN_SB3), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )


def _fresh(out: Path, *extra: str) -> subprocess.CompletedProcess:
    return _train("--game", GAME, "--timesteps", "64", "--out", str(out), *TINY, *extra)


def _one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.stderr.count("\n") == 1, proc.stderr
    return proc.stderr


class _Payload:
    """Unpickling this creates the marker file (what a malicious model file does)."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('pwned')",))


def _evil_zip(path: Path, marker: Path) -> Path:
    """A model file as SB3 stores one: its ``data`` entry's serialized objects are base64
    pickles; this one's pickle writes ``marker`` when SB3's loader unpickles it."""
    blob = base64.b64encode(pickle.dumps(_Payload(marker))).decode()
    data = {
        key: {":type:": "<class 'object'>", ":serialized:": blob}
        for key in ("policy_class", "observation_space", "action_space")
    }
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
    return path


def _config(run: Path) -> dict:
    return json.loads((run / "config.json").read_text())


def _edit(run: Path, **values) -> None:
    (run / "config.json").write_text(json.dumps({**_config(run), **values}, indent=1))


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tiny run (model, checkpoint, logs, best/)."""
    out = tmp_path_factory.mktemp("finished") / "run"
    proc = _fresh(out, "--eval-opponents", "random")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return out


def _copy(run: Path, dest: Path) -> Path:
    shutil.copytree(run, dest, symlinks=True)
    return dest


# ------------------------------------------------------------------ 1. specs from config.json
@pytest.mark.parametrize(
    ("field", "interrupted"),
    [("opponents", False), ("eval_opponents", True), ("bc_teacher", False), ("split", True)],
)
def test_a_trust_option_in_config_json_never_unpickles(
    finished: Path, tmp_path: Path, field: str, interrupted: bool
) -> None:
    """``ppo:path=EVIL.zip,trust=1`` written into the run's config.json: ``--resume`` (or the
    plain rerun of an interrupted run) refuses it in one line naming the file and the field; the
    payload never runs. ``split``: a list whose pieces join into a trusting spec."""
    run = _copy(finished, tmp_path / "run")
    marker = tmp_path / "MARKER"
    spec = f"ppo:path={_evil_zip(tmp_path / 'EVIL.zip', marker)},trust=1"
    values: list[str] | str  # bc_teacher takes one spec, the others a list
    if field == "split":
        field, values = "opponents", ["random", spec.removesuffix(",trust=1"), "trust=1"]
    else:
        values = ["random", spec] if field != "bc_teacher" else spec
    weights = {"opponent_weights": [1.0] * len(values)} if field == "opponents" else {}
    _edit(run, **{field: values}, **weights, complete=not interrupted)
    if interrupted:  # the same command again continues an interrupted run
        proc = _train("--game", GAME, "--timesteps", "64", "--out", str(run), "--no-progress")
    else:
        proc = _train("--resume", "--out", str(run), "--timesteps", "64", "--no-progress")
    err = _one_line_error(proc)
    assert "trust" in err and "config.json" in err and field in err
    assert not marker.exists(), "the model file's pickle ran"


def test_a_spec_given_on_the_command_line_keeps_the_persons_trust(
    finished: Path, tmp_path: Path
) -> None:
    """The opt-in is the person's: the same spec given again with ``--opponents`` at resume is
    loaded by SB3's unpickling loader (the marker shows it ran, then the crafted file fails to
    load: one line)."""
    run = _copy(finished, tmp_path / "run")
    marker = tmp_path / "MARKER"
    spec = f"ppo:path={_evil_zip(tmp_path / 'EVIL.zip', marker)}"
    _edit(run, opponents=["random", spec], opponent_weights=[1.0, 1.0])
    opponents = f"random,{spec},trust=1"
    proc = _train(
        "--resume", "--out", str(run), "--timesteps", "64", "--no-progress",
        "--opponents", opponents, "--opponent-weights", "1,1",
    )  # fmt: skip
    _one_line_error(proc)
    assert marker.exists(), "the person's own trust=1 was dropped"


# ------------------------------------------------------------------ 2. wrong-typed config.json
OUTSIDE = '{"model": "../../elsewhere.zip", "pool": "checkpoints/pool-64.pt"}'
BAD_VALUES = [
    ("num_timesteps", '"abc"', "num_timesteps"),
    ("n_steps", '"abc"', "n_steps"),
    ("n_envs", "[2]", "n_envs"),
    ("lr", "1e400", "float range"),
    ("opponents", "5", "opponents"),
    ("checkpoint", OUTSIDE, "checkpoint.model"),
    ("net", "[[8]]", "net"),
    ("complete", '"no"', "complete"),
]


@pytest.mark.parametrize(("field", "raw", "named"), BAD_VALUES, ids=[b[0] for b in BAD_VALUES])
def test_a_wrong_typed_config_value_is_one_line(
    finished: Path, tmp_path: Path, field: str, raw: str, named: str
) -> None:
    run = _copy(finished, tmp_path / "run")
    text = json.dumps({**_config(run), field: "@@"}, indent=1).replace('"@@"', raw)
    (run / "config.json").write_text(text)
    err = _one_line_error(_train("--resume", "--out", str(run), "--no-progress"))
    assert named in err and str(run / "config.json") in err
    assert "another --out" in err
    if field == "complete":  # the plain rerun of the command says the same
        err = _one_line_error(_train("--game", GAME, "--out", str(run), "--no-progress"))
        assert named in err


@pytest.mark.parametrize("kind", ["not an object", "fifo", "dev zero"])
def test_config_json_that_is_no_settings_file_is_one_line_without_a_hang(
    finished: Path, tmp_path: Path, kind: str
) -> None:
    run = _copy(finished, tmp_path / "run")
    path = run / "config.json"
    path.unlink()
    if kind == "not an object":
        path.write_text("[1, 2]")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    err = _one_line_error(_train("--resume", "--out", str(run), "--no-progress", timeout=60))
    assert str(path) in err
    assert {"not an object": "not a JSON object", "fifo": "FIFO", "dev zero": "device"}[kind] in err


# ------------------------------------------------------------------ 3. planted links
def _digests(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("name", ["checkpoints", "best"])
def test_a_run_subfolder_planted_as_a_link_is_refused(tmp_path: Path, name: str) -> None:
    """``checkpoints -> OTHER/`` once cost every file of OTHER (the checkpoint cleanup), ``best
    -> OTHER/`` got the model written there: now one line, OTHER as it was."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "precious.txt").write_text("keep me")
    (other / "model.zip").write_bytes(b"not yours")
    before = _digests(other)
    run = tmp_path / "run"
    run.mkdir()
    (run / name).symlink_to(other, target_is_directory=True)
    err = _one_line_error(_fresh(run))
    assert "symbolic link" in err and str(run / name) in err
    assert _digests(other) == before
    assert (run / name).is_symlink()


def test_planted_file_links_are_replaced_and_their_targets_untouched(
    finished: Path, tmp_path: Path
) -> None:
    """A fresh run over ``progress.csv``, ``eval.csv``, ``bc.csv``, ``learning_curve.png`` and
    ``config.json`` planted as links: the run writes its own files in their place, the targets
    keep their bytes; the run's files hold no ``trust`` (an evaluation opponent given with it
    here); then a log planted as a link before ``--resume`` is refused in one line."""
    other = tmp_path / "other"
    other.mkdir()
    names = ["progress.csv", "eval.csv", "bc.csv", "learning_curve.png", "config.json"]
    for n in names:
        (other / n).write_bytes(b"victim " + n.encode() + b"\n" * 5000)
    before = _digests(other)
    run = tmp_path / "run"
    run.mkdir()
    for n in names:
        (run / n).symlink_to(other / n)
    trusted = f"ppo:path={finished / 'model.zip'},trust=1"
    proc = _fresh(run, "--eval-opponents", f"random,{trusted}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _digests(other) == before
    for n in ["progress.csv", "eval.csv", "learning_curve.png", "config.json"]:
        assert not (run / n).is_symlink() and (run / n).is_file(), n
    assert not os.path.lexists(run / "bc.csv")  # no cloning: the planted log went
    assert (run / "progress.csv").read_text().startswith("time/")
    assert (run / "eval.csv").read_text().startswith("timesteps,opponent")
    assert (run / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    config = _config(run)
    assert config["complete"] is True and config["num_timesteps"] == 64
    for f in ("config.json", "eval.csv", "progress.csv", "best/best.json"):
        assert "trust" not in (run / f).read_text(), f
    assert config["eval_opponents"] == ["random", f"ppo:path={finished / 'model.zip'}"]

    (run / "progress.csv").unlink()
    (run / "progress.csv").symlink_to(other / "progress.csv")
    err = _one_line_error(_train("--resume", "--out", str(run), "--timesteps", "64"))
    assert "symbolic link" in err and "progress.csv" in err
    assert _digests(other) == before


# ------------------------------------------------------------------ 4. demos, fork, start record
def test_bc_data_with_a_fifo_description_is_one_line(tmp_path: Path) -> None:
    demos = tmp_path / "demos"
    demos.mkdir()
    os.mkfifo(demos / "demos.json")
    run = tmp_path / "run"
    err = _one_line_error(
        _train(
            "--game", GAME, "--timesteps", "64", "--out", str(run), *TINY,
            "--bc-data", str(demos), timeout=60,
        )
    )  # fmt: skip
    assert "FIFO" in err and "demos.json" in err


def test_a_fork_and_a_start_record_read_their_files_as_data(finished: Path, tmp_path: Path) -> None:
    """A damaged ``best/best.json`` stops a fork in one line (not a traceback, not a fork at
    step "abc"); a FIFO as ``INIT_FROM.json`` is refused without blocking."""
    from boardgames_rl.core.errors import InvalidConfigError
    from lab.recipes.sb3.fork import fork_run
    from lab.recipes.sb3.init_from import read_record

    source = _copy(finished, tmp_path / "source")
    (source / "best" / "best.json").write_text('{"timesteps": "abc", "score": 0.5, "rows": []}')
    with pytest.raises(InvalidConfigError, match="timesteps must be an integer") as info:
        fork_run(source, tmp_path / "dest", "best")
    assert "\n" not in str(info.value) and not (tmp_path / "dest").exists()
    os.mkfifo(source / "INIT_FROM.json")
    with pytest.raises(InvalidConfigError, match="FIFO"):
        read_record(source)
