"""Issue 40 item 14: what ``boardgames-rl train`` says and what its run folder keeps.

A real tiny run through the CLI in a subprocess, its standard output a pipe (not a terminal, as
in a log file or a notebook): a line per evaluation (the step, the win rate against each
opponent with its interval, the time) that arrives while the run goes on, and a summary at the
end (where the model, the best model and the logs are, the final win rates). After several
checkpoints the folder holds only the files ``boardgames_rl.training.checkpoint`` promises: one
model, one pool of the last checkpoint, nothing stored twice; a resumed run still works.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
ENV = {**os.environ, "PYTHONWARNINGS": "ignore", "OMP_NUM_THREADS": "1"}
TINY = [
    "--game",
    "castle_flutterstone",
    "--num-envs",
    "2",
    "--num-steps",
    "64",
    "--batch-size",
    "64",
    "--update-epochs",
    "1",
    "--net",
    "16",
    "--eval-games",
    "2",
    "--eval-every",
    "128",
    "--checkpoint-every",
    "128",
    "--opponents",
    "random,self",
    "--opponent-weights",
    "1,1",
    "--snapshot-every",
    "128",
]
"""Two envs x 64 steps: an update, an evaluation and a checkpoint every 128 steps."""
RATE = r"vs (random|heuristic) (\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\]"
PROMISED = {
    "model.zip",
    "config.json",
    "progress.csv",
    "eval.csv",
    "learning_curve.png",
    "best/model.zip",
    "best/best.json",
}
"""The run's files besides the pool of its last checkpoint (``checkpoints/pool-<t>.pt``)."""


def _files(out: Path) -> set[str]:
    return {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() or p.is_symlink()}


def _eval_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("[eval]")]


def test_a_piped_run_prints_each_evaluation_as_it_comes_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [*CLI, "train", *TINY, "--timesteps", "768", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    running_at_first_eval = None
    deadline = time.monotonic() + 240
    for line in proc.stdout:  # read as the run writes: a line must not wait for the end
        lines.append(line.rstrip("\n"))
        if line.startswith("[eval]") and running_at_first_eval is None:
            running_at_first_eval = proc.poll() is None
        assert time.monotonic() < deadline
    _, err = proc.communicate(timeout=120)
    text = "\n".join(lines)
    assert proc.returncode == 0, err[-2000:]
    assert running_at_first_eval, f"the first evaluation line came only at the end:\n{text}"

    evals = _eval_lines(text)
    rows = _csv_rows(out / "eval.csv")
    steps = sorted({int(r["timesteps"]) for r in rows})
    assert steps == list(range(128, 768 + 1, 128))
    assert len(evals) == len(steps), text  # one line per evaluation
    for line, step in zip(evals, steps, strict=True):
        assert line.startswith(f"[eval] step {step:,}, "), line
        assert re.search(r", \d+ (s|min \d\d s):", line), line  # the time
        found = re.findall(RATE, line)
        assert [o for o, *_ in found] == ["random", "heuristic"], line
        for opponent, rate, low, high in found:  # the rates of eval.csv, with their intervals
            row = next(r for r in rows if int(r["timesteps"]) == step and r["opponent"] == opponent)
            assert float(rate) == round(float(row["rate"]), 3)
            assert float(low) <= float(rate) <= float(high)
    # the summary: where things are and the final win rates
    summary = text[text.index("train: done") :]
    assert "768 steps" in summary.splitlines()[0]
    assert f"model:       {out / 'model.zip'}" in summary
    assert f"best model:  {out / 'best' / 'model.zip'} (step " in summary
    for log in ("eval.csv", "progress.csv", "learning_curve.png", "config.json"):
        assert str(out / log) in summary, log
    final = next(x for x in summary.splitlines() if "final win rates:" in x)
    assert [o for o, *_ in re.findall(RATE, final)] == ["random", "heuristic"], final
    assert "--resume --out" in summary


def _csv_rows(path: Path) -> list[dict[str, str]]:
    import csv

    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_the_run_folder_keeps_one_model_and_the_last_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = subprocess.run(
        [*CLI, "train", *TINY, "--timesteps", "512", "--out", str(out), "--eval-every", "256"],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    config = json.loads((out / "config.json").read_text())
    assert config["num_timesteps"] == 512  # after 4 checkpoints
    assert config["checkpoint"]["model"] == "model.zip"
    assert config["checkpoint"]["pool"] == "checkpoints/pool-512.pt"
    assert _files(out) == PROMISED | {"checkpoints/pool-512.pt"}
    blobs = [(out / f).read_bytes() for f in sorted(_files(out) - {"best/model.zip"})]
    assert len(set(blobs)) == len(blobs), "a file stored twice"

    # a resumed run continues from it and keeps the same shape
    again = subprocess.run(
        [*CLI, "train", "--resume", "--out", str(out), "--timesteps", "128"],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert "resuming at step 512" in again.stdout
    config = json.loads((out / "config.json").read_text())
    assert config["num_timesteps"] == 640 and config["complete"] is True
    assert _files(out) == PROMISED | {"checkpoints/pool-640.pt"}
    assert sorted({int(r["timesteps"]) for r in _csv_rows(out / "eval.csv")}) == [256, 512, 640]


def test_a_reader_that_goes_away_does_not_stop_the_run(tmp_path: Path) -> None:
    """``train ... | head -1``: the report's reader exits after the first line; the run goes on
    to its end (printing must never cost a run its checkpoint)."""
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [*CLI, "train", *TINY, "--timesteps", "384", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith(b"train: ")
    proc.stdout.close()  # the reader is gone: the next line meets a broken pipe
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert b"Traceback" not in err and b"BrokenPipe" not in err
    config = json.loads((out / "config.json").read_text())
    assert config["num_timesteps"] == 384 and config["complete"] is True


class _Killed(BaseException):
    """A kill between two file operations of a checkpoint."""


class _FakeModel:
    """What ``save_checkpoint`` needs of a model: its step count and ``save``."""

    def __init__(self, steps: int):
        self.num_timesteps = steps

    def save(self, f) -> None:
        f.write(f"model at {self.num_timesteps}".encode())


def test_a_kill_between_any_two_writes_of_a_checkpoint_leaves_one_whole_checkpoint(
    tmp_path: Path, monkeypatch
) -> None:
    """The checkpoint docstring's promise with one stored model: killed before any of its file
    operations, saving step 256 over step 128 leaves ``config.json`` naming a model file that
    exists and holds its step (the old one or the new one, never a mix) and the pool of that
    step; finished, the folder holds one model and one pool."""
    from boardgames_rl.training import checkpoint as ck
    from boardgames_rl.training.runs import read_config

    operations = ("write_text", "write_file", "write_stream", "remove_file")
    originals = {name: getattr(ck, name) for name in operations}
    kill_at = [-1]
    done = [0]

    def wrap(name):
        def run(*args, **kwargs):
            if done[0] == kill_at[0]:
                raise _Killed
            done[0] += 1
            return originals[name](*args, **kwargs)

        return run

    for name in operations:
        monkeypatch.setattr(ck, name, wrap(name))
    k = 0
    while True:
        out = tmp_path / f"run{k}"
        kill_at[0], done[0] = -1, 0
        ck.save_checkpoint(out, _FakeModel(128), [], {"complete": False})
        kill_at[0], done[0] = k, 0
        try:
            ck.save_checkpoint(out, _FakeModel(256), [], {"complete": False})
            finished = True
        except _Killed:
            finished = False
        config = read_config(out)
        steps = config["num_timesteps"]
        assert steps in (128, 256)
        _, blob = ck.checkpoint_model(out, config)
        assert blob == f"model at {steps}".encode(), (k, config["checkpoint"])
        assert (out / config["checkpoint"]["pool"]).is_file()
        assert config["checkpoint"]["pool"] == f"checkpoints/pool-{steps}.pt"
        if finished:
            assert config["checkpoint"]["model"] == "model.zip"
            assert _files(out) == {"model.zip", "config.json", "checkpoints/pool-256.pt"}
            break
        k += 1
    assert k >= 5  # every step of the save was cut once
