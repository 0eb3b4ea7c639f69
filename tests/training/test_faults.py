"""Training under faults, through the real ``boardgames-rl`` entry point (subprocesses, signals).

Issue 13: "``boardgames-rl train`` exits 0 on success"; "checkpoints ... saved atomically every N
steps and on SIGINT/SIGTERM; after SIGKILL, rerunning the same command (or ``--resume``)
continues from the last checkpoint, losing at most N steps, and the CSV logs are cut back to the
checkpoint so no step appears twice"; "loading a model never unpickles arbitrary objects by
default ... a test builds a zip whose pickle writes a marker file and checks, through every load
path, that the marker is never written"; "models trained on a plain SingleAgentEnv load in the
arena and play". The trainer is :mod:`boardgames_rl.training.ppo`; the SB3 recipe's own fault
tests are ``lab/tests/sb3/test_faults.py``.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import torch

from boardgames_rl.agents import make_agent
from boardgames_rl.agents.ppo import UntrustedModelError
from boardgames_rl.arena.match import play_game
from boardgames_rl.registry import make_game

from .helpers import TINY, wait_for_checkpoint

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
ENV = {**os.environ, "PYTHONWARNINGS": "ignore", "OMP_NUM_THREADS": "1"}


def _cli(args: list[str], timeout: float = 180, cwd: Path | None = None):
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, timeout=timeout, env=ENV, cwd=cwd
    )


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _train_args(out: Path, steps: int, *extra: str) -> list[str]:
    flags = [*TINY]
    i = flags.index("--eval-every")
    flags[i + 1] = "256"  # two updates per evaluation: rows beyond a checkpoint in both logs
    return [
        "train",
        "--game",
        "castle_flutterstone",
        "--timesteps",
        str(steps),
        "--out",
        str(out),
        *flags,
        "--opponents",
        "random,self",
        "--opponent-weights",
        "1,1",
        "--snapshot-every",
        "128",
        *extra,
    ]


def _config(out: Path) -> dict:
    try:
        return json.loads((out / "config.json").read_text())
    except (OSError, json.JSONDecodeError):
        return {}


def _check_logs(out: Path, target: int) -> None:
    """Every step logged once, in order, up to ``target``."""
    progress = [int(r["time/total_timesteps"]) for r in _rows(out / "progress.csv")]
    assert progress == sorted(set(progress)) and progress[-1] == target, progress
    evals = [(int(r["timesteps"]), r["opponent"]) for r in _rows(out / "eval.csv")]
    assert len(evals) == len(set(evals)), evals
    assert max(t for t, _ in evals) == target


def test_train_through_the_cli_exits_0_with_every_file(tmp_path: Path) -> None:
    """ "boardgames-rl train exits 0 on success" (it printed a traceback and exited 1)."""
    out = tmp_path / "run"
    proc = _cli(_train_args(out, 256, "--checkpoint-every", "128"))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    for f in ("model.zip", "config.json", "progress.csv", "eval.csv", "learning_curve.png"):
        assert (out / f).is_file() and (out / f).stat().st_size > 0, f
    config = _config(out)
    assert config["num_timesteps"] == 256 and config["complete"] is True
    assert (out / config["checkpoint"]["model"]).is_file()
    assert (out / config["checkpoint"]["pool"]).is_file()
    _check_logs(out, 256)
    # the finished run loads as an agent and plays
    game = make_game("castle_flutterstone", num_players=2)
    agent = make_agent(f"ppo:path={out}", game)
    assert play_game(game, [agent, make_agent("random", game)], seed=1).length > 0


def _start_and_wait(args: list[str], out: Path, at_least: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [*CLI, *args], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    wait_for_checkpoint(out, proc, at_least)
    return proc


def test_sigkill_then_the_same_command_continues_from_the_checkpoint(tmp_path: Path) -> None:
    """ "after SIGKILL, rerunning the same command continues from the last checkpoint, losing at
    most N steps, and the CSV logs are cut back to the checkpoint so no step appears twice"."""
    out = tmp_path / "run"
    args = _train_args(out, 1024, "--checkpoint-every", "128")
    proc = _start_and_wait(args, out, 384)
    time.sleep(0.3)  # past the checkpoint: the logs hold rows beyond it
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    killed = _config(out)
    assert killed["complete"] is False
    done = killed["num_timesteps"]
    assert 384 <= done < 1024 and done % 128 == 0
    again = _cli(args)
    assert again.returncode == 0, again.stderr
    config = _config(out)
    assert config["num_timesteps"] == 1024 and config["complete"] is True
    _check_logs(out, 1024)
    # a killed resume: --resume continues as well, and the logs still hold each step once
    out2 = tmp_path / "run2"
    args2 = _train_args(out2, 768, "--checkpoint-every", "128")
    proc = _start_and_wait(args2, out2, 256)
    proc.kill()
    proc.communicate(timeout=60)
    proc = _start_and_wait(
        ["train", "--resume", "--out", str(out2)],
        out2,
        _config(out2)["num_timesteps"] + 128,
    )
    proc.kill()
    proc.communicate(timeout=60)
    final = _cli(["train", "--resume", "--out", str(out2)])
    assert final.returncode == 0, final.stderr
    assert _config(out2)["num_timesteps"] == 768
    _check_logs(out2, 768)


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_sigint_save_a_checkpoint_and_exit(tmp_path: Path, sig, code) -> None:
    """ "saved ... on SIGINT/SIGTERM": the run stops at its last update, saves, says how to go
    on, and exits 128 + the signal number; rerunning finishes the run."""
    out = tmp_path / "run"
    args = _train_args(out, 1024, "--checkpoint-every", "0")
    proc = _start_and_wait(args, out, 0)
    while not (out / "progress.csv").is_file() or len(_rows(out / "progress.csv")) < 2:
        assert proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert "checkpoint saved" in err and "Traceback" not in err
    config = _config(out)
    assert config["complete"] is False and config["num_timesteps"] >= 128
    assert config["num_timesteps"] % 128 == 0  # the last update: no half-learned rollout
    again = _cli(args)
    assert again.returncode == 0, again.stderr
    _check_logs(out, 1024)


def test_a_signal_during_a_long_evaluation_stops_the_run_within_seconds(tmp_path: Path) -> None:
    """A signal was only seen between steps, so one that came during an evaluation (hundreds of
    games in a long run) waited for all of them: now the evaluation is abandoned (no row) and
    the run stops at its last update as usual."""
    out = tmp_path / "run"
    flags = [*TINY]
    flags[flags.index("--eval-games") + 1] = "100000"  # hours of games: never finished here
    flags[flags.index("--eval-every") + 1] = "128"  # after the first update
    args = [
        "train",
        "--game",
        "castle_flutterstone",
        "--timesteps",
        "4096",
        "--out",
        str(out),
        *flags,
        "--eval-opponents",
        "heuristic",
        "--checkpoint-every",
        "0",
    ]
    proc = _start_and_wait(args, out, 0)
    try:
        while not (out / "progress.csv").is_file() or len(_rows(out / "progress.csv")) < 1:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        time.sleep(1.0)  # the evaluation after the first update is under way
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        _, err = proc.communicate(timeout=60)
    finally:  # the run would play its evaluation for hours
        proc.kill()
    assert time.monotonic() - start < 20, "the evaluation was played to its end"
    assert proc.returncode == 130, err
    assert "checkpoint saved" in err and "Traceback" not in err
    assert _config(out)["num_timesteps"] == 128
    assert not (out / "eval.csv").is_file() or _rows(out / "eval.csv") == []
    # the resumed run (shorter evaluations) goes on from the checkpoint: every evaluation after
    # it once, the last at the end
    args[args.index("--eval-games") + 1] = "2"
    again = _cli(args)
    assert again.returncode == 0, again.stderr
    steps = [int(r["timesteps"]) for r in _rows(out / "eval.csv")]
    assert steps == list(range(256, 4096 + 1, 128)), steps


# ----------------------------------------------------------------------------- untrusted files
class _Marker:
    """Unpickling this writes the marker file (what a malicious model would do)."""

    def __init__(self, path: Path):
        self.path = str(path)

    def __reduce__(self):
        return (exec, (f"open({self.path!r}, 'w').write('pwned')",))


def _malicious_zip(real: Path, dest: Path, marker: Path) -> Path:
    """``real`` with its data entry's pickled observation space replaced by a payload."""
    payload = base64.b64encode(pickle.dumps(_Marker(marker))).decode()
    with zipfile.ZipFile(real) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    data = json.loads(entries["data"])
    for key in ("observation_space", "policy_class", "lr_schedule"):
        data[key] = {":type:": "<class 'x'>", ":serialized:": payload}
    entries["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(dest, "w") as z:
        for n, blob in entries.items():
            z.writestr(n, blob)
    return dest


def _malicious_pth(real: Path, dest: Path, marker: Path) -> Path:
    with zipfile.ZipFile(real) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    buf = io.BytesIO()
    torch.save({"weights": _Marker(marker)}, buf)
    entries["policy.pth"] = buf.getvalue()
    with zipfile.ZipFile(dest, "w") as z:
        for n, blob in entries.items():
            z.writestr(n, blob)
    return dest


def test_a_model_file_never_runs_code_on_any_load_path(tmp_path: Path, flutter_run: Path) -> None:
    """ "a test builds a zip whose pickle writes a marker file and checks, through every load path
    (arena ppo:path=, watch, train --resume, train --opponents ppo:...), that the marker is never
    written"; the safe loader still plays the model (its weights are intact)."""
    marker = tmp_path / "marker"
    evil = _malicious_zip(flutter_run / "model.zip", tmp_path / "evil.zip", marker)
    game = make_game("castle_flutterstone", num_players=2)
    agent = make_agent(f"ppo:path={evil}", game)  # weights only: loads and plays
    assert play_game(game, [agent, make_agent("random", game)], seed=0).length > 0
    assert not marker.exists()
    g = ["castle_flutterstone", "-c", "num_players=2"]
    proc = _cli(["arena", *g, f"ppo:path={evil}", "random", "--games", "2"])
    assert proc.returncode == 0, proc.stderr
    proc = _cli(["watch", *g, "--agents", f"ppo:path={evil}", "random", "-q"])
    assert proc.returncode == 0, proc.stderr
    proc = _cli([*_train_args(tmp_path / "opp", 128), "--opponents", f"random,ppo:path={evil}"])
    assert proc.returncode == 0, proc.stderr
    # train --resume on a run whose model.zip (and checkpoint) is the crafted file
    run = tmp_path / "resume"
    shutil.copytree(flutter_run, run)  # a finished run of 128 steps with its checkpoint
    ck = run / _config(run)["checkpoint"]["model"]
    _malicious_zip(run / "model.zip", ck, marker)
    _malicious_zip(run / "model.zip", run / "model.zip", marker)
    proc = _cli(["train", "--resume", "--out", str(run), "--timesteps", "256"])
    assert proc.returncode == 0, proc.stderr
    assert _config(run)["num_timesteps"] > 128, "the resume loaded the files and trained on"
    assert not marker.exists()


def test_a_pickle_inside_policy_pth_is_refused_in_one_line(tmp_path: Path, flutter_run) -> None:
    """ "Malicious policy.pth -> one-line error, not a 40-line traceback", naming the opt-in."""
    marker = tmp_path / "marker"
    evil = _malicious_pth(flutter_run / "model.zip", tmp_path / "evil.zip", marker)
    game = make_game("castle_flutterstone", num_players=2)
    with pytest.raises(UntrustedModelError, match="trust=1"):
        make_agent(f"ppo:path={evil}", game)
    proc = _cli(
        [
            "watch",
            "castle_flutterstone",
            "-c",
            "num_players=2",
            "--agents",
            f"ppo:path={evil}",
            "random",
            "-q",
        ]
    )
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    assert "trust=1" in proc.stderr and "Traceback" not in proc.stderr
    assert not marker.exists()


@pytest.fixture(scope="module")
def sb3_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model a user trained with sb3-contrib's ``MaskablePPO`` on a plain ``SingleAgentEnv``
    (the docstring example) and saved with ``model.save``."""
    from sb3_contrib import MaskablePPO

    from boardgames_rl.envs.single_agent import SingleAgentEnv

    game = make_game("castle_flutterstone", num_players=2)
    env = SingleAgentEnv(game, seat="random")
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        policy_kwargs=dict(net_arch=[16]),
        seed=0,
    )
    model.learn(64)
    path = tmp_path_factory.mktemp("sb3_model") / "plain.zip"
    model.save(path)
    return path


def test_trust_option_uses_the_unpickling_loader_on_request(sb3_model: Path) -> None:
    """The opt-in named by the refusal works for a file the user trusts."""
    game = make_game("castle_flutterstone", num_players=2)
    trusted = make_agent(f"ppo:path={sb3_model},trust=1", game)
    safe = make_agent(f"ppo:path={sb3_model}", game)
    state = game.new_state(3)
    info = state.info_set(state.current_player)
    assert (trusted.action_probabilities(info) - safe.action_probabilities(info)).max() < 1e-6


# ----------------------------------------------------------------------------- plain env models
def test_a_model_trained_on_a_plain_single_agent_env_plays_in_the_arena(sb3_model: Path) -> None:
    """ "Models trained on a plain SingleAgentEnv load in the arena and play (the agent knows
    whether the model expects the seat feature ...)": the docstring example, then the arena."""
    game = make_game("castle_flutterstone", num_players=2)
    agent = make_agent(f"ppo:path={sb3_model}", game)
    assert agent._seat_feature[game] is False
    assert play_game(game, [make_agent("random", game), agent], seed=2).length > 0
    proc = _cli(
        [
            "arena",
            "castle_flutterstone",
            "-c",
            "num_players=2",
            f"ppo:path={sb3_model}",
            "random",
            "--games",
            "2",
        ]
    )
    assert proc.returncode == 0, proc.stderr


def test_train_config_options_are_parsed_like_every_command(tmp_path: Path) -> None:
    """ "-c in train must go through core.options" (``pesky_ghosts=False`` was the string
    'False', which is truthy, so the run trained WITH pesky ghosts)."""
    from boardgames_rl.training.ppo import parse_args

    args = parse_args(
        [
            "--game",
            "castle_flutterstone",
            "-c",
            "pesky_ghosts=False",
            "-c",
            "num_players=3",
            "--out",
            str(tmp_path / "x"),
        ]
    )
    assert args.config["pesky_ghosts"] is False and args.config["num_players"] == 3
