"""training/ppo.py end to end: real runs in subprocesses (same seed, same weights; the run folder;
SIGINT / SIGTERM and the rerun; --resume; --max-minutes) and the command line's one-line errors."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import torch as th

from boardgames_rl.agents import make_agent
from boardgames_rl.agents.ppo import read_model_file
from boardgames_rl.arena.play import play_game
from boardgames_rl.registry import make_game
from boardgames_rl.training import ppo, settings

GAME = "castle_flutterstone"
TINY = [
    "--game",
    GAME,
    "--num-steps",
    "32",
    "--num-envs",
    "2",
    "--batch-size",
    "64",
    "--update-epochs",
    "2",
    "--net",
    "16,16",
    "--eval-games",
    "2",
    "--eval-every",
    "128",
    "--snapshot-every",
    "64",
]
"""A run of a second or so: 64 steps per rollout, an evaluation every 128 steps."""
LONG = [
    "--game",
    GAME,
    "--timesteps",
    "6144",
    "--num-steps",
    "64",
    "--num-envs",
    "4",
    "--batch-size",
    "256",
    "--update-epochs",
    "1",
    "--net",
    "16,16",
    "--eval-games",
    "0",
    "--opponents",
    "random",
    "--opponent-weights",
    "1",
]
"""A run long enough to be stopped after its first update (256 steps per rollout), short
enough to be finished by its rerun in a few seconds."""
FAST = ["--opponents", "random,self", "--opponent-weights", "1,1", "--eval-opponents", "random"]
"""Opponents quicker than the heuristic (a game against it takes a good part of a second)."""
TIMEOUT = 180


def _default_sigint() -> None:
    signal.signal(
        signal.SIGINT, signal.SIG_DFL
    )  # a pytest-xdist worker's children inherit it ignored


def _cmd(*argv: str) -> list[str]:
    return [sys.executable, "-m", "boardgames_rl.training.ppo", *argv]


def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        _cmd(*argv),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=_default_sigint,
    )


def _ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-3000:])
    return proc


def _config(out: Path) -> dict[str, Any]:
    return json.loads((out / "config.json").read_text())


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _steps(out: Path) -> list[int]:
    return [int(r["time/total_timesteps"]) for r in _rows(out / "progress.csv")]


def _policy(out: Path) -> dict[str, th.Tensor]:
    return read_model_file(out / "model.zip")[1]["policy"]


def _same_weights(a: dict[str, th.Tensor], b: dict[str, th.Tensor]) -> bool:
    return list(a) == list(b) and all(th.equal(a[k], b[k]) for k in a)


def _one_line(text: str) -> str:
    assert "Traceback" not in text, text
    assert text.count("\n") <= 1 and text.strip(), repr(text)
    return text.strip()


# ---------------------------------------------------------------------------- runs
@pytest.fixture(scope="module")
def run0(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tiny run, seed 0, the games stepped in this process (256 steps)."""
    out = tmp_path_factory.mktemp("ppo") / "run0"
    proc = _ok(_run(*TINY, "--timesteps", "256", "--seed", "0", "--out", str(out)))
    (out / "stdout.txt").write_text(proc.stdout)
    return out


def test_same_seed_same_weights_with_any_number_of_workers(run0: Path, tmp_path: Path) -> None:
    workers = tmp_path / "workers2"
    _ok(
        _run(
            *TINY, "--timesteps", "256", "--seed", "0", "--num-workers", "2", "--out", str(workers)
        )
    )
    assert _same_weights(_policy(run0), _policy(workers))
    # the updates too, loss by loss (not only where they ended)
    timing = {"time/fps", "time/time_elapsed"}
    strip = [{k: v for k, v in r.items() if k not in timing} for r in _rows(run0 / "progress.csv")]
    again = [
        {k: v for k, v in r.items() if k not in timing} for r in _rows(workers / "progress.csv")
    ]
    assert strip == again and len(strip) == 4

    other = tmp_path / "seed1"  # in this process: no import time
    ppo.main([*TINY, "--timesteps", "256", "--seed", "1", "--out", str(other)])
    assert not _same_weights(_policy(run0), _policy(other))


def test_the_run_folder(run0: Path) -> None:
    game = make_game(GAME)
    # model.zip plays as an agent
    for model in (run0 / "model.zip", run0 / "best" / "model.zip"):
        agent = make_agent(f"ppo:path={model}", game)
        record = play_game(game, [agent, make_agent("random", game)], seed=3)
        assert record.length > 0 and len(record.returns) == 2
    # config.json: format 2, every setting, the run finished at its target
    config = _config(run0)
    assert config["format"] == 2
    fields = {f.name for f in dataclasses.fields(ppo.Args)} - {"resume"}
    assert set(config["settings"]) == fields
    s = config["settings"]
    assert (s["game"], s["num_steps"], s["num_envs"], s["net"], s["eval_every"]) == (
        GAME,
        32,
        2,
        [16, 16],
        128,
    )
    assert s["config"] == {"num_players": 2}  # the game's own default
    assert config["complete"] is True
    assert config["num_timesteps"] == config["target_timesteps"] == 256
    assert (run0 / config["checkpoint"]["pool"]).is_file()
    # a progress row per update, an evaluation row per opponent every 128 steps and at the end
    assert _steps(run0) == [64, 128, 192, 256]
    rows = _rows(run0 / "eval.csv")
    assert [(int(r["timesteps"]), r["opponent"]) for r in rows] == [
        (128, "random"),
        (128, "heuristic"),
        (256, "random"),
        (256, "heuristic"),
    ]
    assert all(int(r["games"]) == 2 for r in rows)
    assert [r["opponent"] for r in config["final_eval"]] == ["random", "heuristic"]
    # best/: the first evaluation with the highest mean win rate
    means = {}
    for r in rows:
        means.setdefault(int(r["timesteps"]), []).append(float(r["rate"]))
    best_step = max(means, key=lambda t: (sum(means[t]), -t))
    best = json.loads((run0 / "best" / "best.json").read_text())
    assert best["timesteps"] == best_step
    assert (run0 / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = (run0 / "stdout.txt").read_text()
    assert "train: done, 256 steps" in out and f"ppo:path={run0 / 'model.zip'}" in out


def test_resume_a_finished_run_adds_timesteps(
    run0: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    shutil.copytree(run0, out)
    before = _policy(out)
    ppo.main(["--resume", "--out", str(out), "--timesteps", "128"])
    assert "resuming at step 256 to 384" in capsys.readouterr().out
    config = _config(out)
    assert config["complete"] is True and config["num_timesteps"] == 384
    assert config["settings"]["net"] == [16, 16]  # the saved settings, not the defaults
    assert _steps(out) == [64, 128, 192, 256, 320, 384]
    assert [int(r["timesteps"]) for r in _rows(out / "eval.csv")][-2:] == [384, 384]
    assert not _same_weights(before, _policy(out))


def test_a_finished_run_without_resume_is_refused(run0: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    shutil.copytree(run0, out)
    before = (out / "model.zip").read_bytes()
    with pytest.raises(SystemExit) as e:
        ppo.main([*TINY, "--timesteps", "64", "--out", str(out)])
    message = _one_line(str(e.value.code))
    assert "already holds a finished run" in message and "--resume" in message
    assert (out / "model.zip").read_bytes() == before


@pytest.mark.parametrize("state", ["empty folder", "missing folder", "config without model"])
def test_resume_without_a_checkpoint_is_refused(
    run0: Path, tmp_path: Path, state: str, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    if state == "empty folder":
        out.mkdir()
    elif state == "config without model":
        out.mkdir()
        shutil.copy(run0 / "config.json", out / "config.json")
    with pytest.raises(SystemExit) as e:
        ppo.main(["--resume", "--out", str(out), "--timesteps", "64"])
    if e.value.code == 2:  # refused while reading the flags
        message = _one_line(capsys.readouterr().err)
    else:
        message = _one_line(str(e.value.code))
    expected = "no model.zip" if state == "config without model" else "holds no config.json"
    assert expected in message and str(out) in message
    assert not (out / "model.zip").exists()


# ---------------------------------------------------------------------------- stopping
def _stop_after_first_update(
    out: Path, sig: signal.Signals, argv: list[str] = LONG, group: bool = False
) -> subprocess.CompletedProcess:
    """Start the run, send ``sig`` once its first update is logged (``group``: to its whole
    process group, workers included, as a Ctrl-C on a terminal does); wait for its end."""
    proc = subprocess.Popen(
        _cmd(*argv, "--out", str(out)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
        start_new_session=group,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while not (out / "progress.csv").exists() and proc.poll() is None:
            assert time.monotonic() < deadline, "no progress.csv"
            time.sleep(0.01)
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=TIMEOUT)
        if group:  # the workers (and multiprocessing's tracker) are gone with the run
            deadline = time.monotonic() + 10
            while _group_alive(proc.pid):
                assert time.monotonic() < deadline, "a worker outlived the stopped run"
                time.sleep(0.05)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize(
    "sig,workers",
    [(signal.SIGINT, 2), (signal.SIGTERM, 0)],
    ids=["SIGINT-to-the-group-with-workers", "SIGTERM"],
)
def test_a_signal_saves_a_checkpoint_and_the_rerun_finishes(
    tmp_path: Path, sig: signal.Signals, workers: int, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    argv = [*LONG, "--num-workers", str(workers)]
    stopped = _stop_after_first_update(out, sig, argv, group=workers > 0)
    assert stopped.returncode == 128 + sig, (stopped.returncode, stopped.stderr[-2000:])
    line = _one_line(stopped.stderr)  # no worker's traceback either
    assert sig.name in line and "checkpoint saved" in line and str(out) in line
    config = _config(out)
    done = config["num_timesteps"]
    assert config["complete"] is False and config["target_timesteps"] == 6144
    assert 0 < done < 6144 and done % 256 == 0
    assert f"stopped at step {done}" in line
    assert (out / config["checkpoint"]["pool"]).is_file() and (out / "model.zip").is_file()
    assert _steps(out)[-1] >= done
    stopped_weights = _policy(out)

    # SIGTERM: the same command again; SIGINT: --resume with the run folder, the games in this
    # process this time (both in this process: no import time)
    capsys.readouterr()
    if sig == signal.SIGTERM:
        ppo.main([*argv, "--out", str(out)])
    else:
        ppo.main(["--resume", "--out", str(out), "--num-workers", "0"])
    assert f"resuming at step {done:,} to 6,144" in capsys.readouterr().out
    config = _config(out)
    assert config["complete"] is True and config["num_timesteps"] == 6144
    assert config["settings"]["num_envs"] == 4 and config["settings"]["num_workers"] == 0
    assert _steps(out) == list(range(256, 6145, 256))  # no update twice, none missing
    assert not _same_weights(stopped_weights, _policy(out))


def test_a_signal_during_the_final_evaluation_saves_the_run_incomplete(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """One rollout, then an evaluation of many games: progress.csv appears as it starts."""
    out = tmp_path / "run"
    argv = [*TINY, *FAST, "--timesteps", "64", "--eval-every", "0", "--eval-games", "5000"]
    stopped = _stop_after_first_update(out, signal.SIGINT, argv)
    assert stopped.returncode == 130, (stopped.returncode, stopped.stderr[-2000:])
    assert "stopped at step 64" in _one_line(stopped.stderr)
    config = _config(out)
    assert config["num_timesteps"] == config["target_timesteps"] == 64
    assert config["complete"] is False  # its final evaluation is still to do
    assert not (out / "eval.csv").exists() or _rows(out / "eval.csv") == []
    ppo.main(["--resume", "--out", str(out), "--eval-games", "2"])
    config = _config(out)
    assert config["complete"] is True and config["num_timesteps"] == 64
    assert [(int(r["timesteps"]), int(r["games"])) for r in _rows(out / "eval.csv")] == [(64, 2)]
    assert _steps(out) == [64]


def test_self_play_alone_plays_from_the_first_game(tmp_path: Path) -> None:
    """Only self-play in the pool: a snapshot of the starting weights is there before the
    first games are drawn."""
    out = tmp_path / "run"
    argv = [*TINY, "--opponents", "self", "--opponent-weights", "1", "--eval-games", "0"]
    ppo.main([*argv, "--timesteps", "128", "--snapshot-every", "64", "--out", str(out)])
    config = _config(out)
    assert config["complete"] is True and config["num_timesteps"] == 128
    pool = th.load(out / config["checkpoint"]["pool"], weights_only=True)
    assert pool["names"] == ["self-0", "self-64"]


def test_max_minutes_stops_early_saved_and_resumable(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "run"
    argv = [*LONG, "--timesteps", "2048", "--max-minutes", "0.0005", "--out", str(out)]
    capsys.readouterr()
    ppo.main(argv)  # in this process: no import time
    assert "stopped at the time limit" in capsys.readouterr().out
    config = _config(out)
    done = config["num_timesteps"]
    assert config["complete"] is False and 0 < done < 2048 and done % 256 == 0
    assert config["target_timesteps"] == 2048 and config["settings"]["max_minutes"] == 0.0005
    assert _steps(out)[-1] == done
    # the time limit is a setting like any other: --resume without it finishes the run
    ppo.main(["--resume", "--out", str(out), "--max-minutes", "0"])
    config = _config(out)
    assert config["complete"] is True and config["num_timesteps"] == 2048
    assert config["settings"]["max_minutes"] == 0
    assert _steps(out) == list(range(256, 2049, 256))


# ---------------------------------------------------------------------------- flags
def _flag_error(argv: list[str], capsys: pytest.CaptureFixture) -> str:
    with pytest.raises(SystemExit) as e:
        ppo.parse_args(argv)
    assert e.value.code == 2
    return _one_line(capsys.readouterr().err)


@pytest.mark.parametrize(
    "old,new",
    [
        ("--n-steps", "--num-steps"),
        ("--lr", "--learning-rate"),
        ("--n-epochs", "--update-epochs"),
        ("--clip-range", "--clip-coef"),
        ("--n-envs", "--num-envs"),
        ("--vec-workers", "--num-workers"),
    ],
)
def test_renamed_flags_name_their_new_name(
    old: str, new: str, capsys: pytest.CaptureFixture
) -> None:
    assert f"{old} is now {new}" in _flag_error(["--game", GAME, old, "4"], capsys)


@pytest.mark.parametrize(
    "argv", [["--bc-games", "10"], ["--prior", "heuristic"], ["--shaping", "potential"]]
)
def test_lab_only_flags_name_the_lab_recipe(argv: list[str], capsys: pytest.CaptureFixture) -> None:
    message = _flag_error(["--game", GAME, *argv], capsys)
    assert argv[0] in message and "lab/recipes/train_sb3.py" in message


@pytest.mark.parametrize(
    "argv,named",
    [
        (["--net", "0"], "--net"),
        (["--net", "16,,16"], "--net"),
        (["--gamma", "2"], "--gamma"),
        (["--gae-lambda", "-0.1"], "--gae-lambda"),
        (["--num-envs", "0"], "--num-envs"),
        (["--learning-rate", "0"], "--learning-rate"),
        (["--seed", "-1"], "--seed"),
        (["--opponent-weights", "nan,1,1"], "--opponent-weights"),
        (["--opponent-weights", "-1,1,1"], "--opponent-weights"),
        (["--ent-coef", "nan"], "--ent-coef"),
        (["--max-minutes", "inf"], "--max-minutes"),
        (["--opponents", "random,heuristic", "--opponent-weights", "1"], "--opponent-weights"),
        (["--time", "100"], "--time"),  # no abbreviations: --time is not --timesteps
        (["--timesteps", "many"], "--timesteps"),
        ([], "--game"),
    ],
)
def test_bad_values_are_one_line_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture
) -> None:
    game = [] if not argv else ["--game", GAME]
    assert named in _flag_error([*game, *argv], capsys)


def test_per_game_defaults_and_config_merge() -> None:
    wc = ppo.parse_args(["--game", "white_castle"])
    assert wc.net == [256, 256] and wc.config == {"num_players": 2}
    assert wc.out == "runs/ppo_white_castle_s0"
    merged = ppo.parse_args(["--game", "white_castle", "-c", "well_one_pays_tiles=true"])
    assert merged.config == {"num_players": 2, "well_one_pays_tiles": True}
    over = ppo.parse_args(["--game", "white_castle", "-c", "num_players=3", "--net", "8"])
    assert over.config == {"num_players": 3} and over.net == [8]
    nightingale = ppo.parse_args(["--game", "castle_nightingale"])
    assert nightingale.opponents == ["random"] and nightingale.batch_size == 512
    flutter = ppo.parse_args(["--game", GAME, "--seed", "3"])
    assert flutter.net == ppo.Args().net and flutter.config == {"num_players": 2}
    assert flutter.out == f"runs/ppo_{GAME}_s3"


def test_an_option_the_game_does_not_have_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as e:
        ppo.main([*TINY, "-c", "bogus=1", "--timesteps", "64", "--out", str(out)])
    assert "bogus" in _one_line(str(e.value.code))
    assert not out.exists()


def test_every_field_has_a_flag_and_help() -> None:
    text = settings.build_parser().format_help()
    for f in dataclasses.fields(ppo.Args):
        flag = "--" + f.name.replace("_", "-")
        assert flag in text, flag
