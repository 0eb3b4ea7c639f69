"""train_ppo: smoke runs on every game, outputs, resume, reproducibility, bad flags."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.arena.match import play_game
from boardgames_rl.registry import make_game
from lab.recipes.sb3.train_ppo import main

from .helpers import TINY, TRAIN_STRONG, tiny_run

SMOKE = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_nightingale", {}),
    ("white_castle", {"num_players": 2}),
    ("night_of_the_ninja", {"num_players": 5}),
]


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("name,config", SMOKE, ids=[s[0] for s in SMOKE])
def test_smoke_training_then_play(tmp_path: Path, name: str, config: dict) -> None:
    out = tmp_path / "run"
    settings = tiny_run(
        out,
        name,
        128,
        "--opponents",
        "random,heuristic,self",
        "--opponent-weights",
        "1,1,1",
        "--snapshot-every",
        "64",
    )
    assert settings["config"] == config  # the per-game default configuration
    assert settings["num_timesteps"] == 128
    for f in ("model.zip", "config.json", "progress.csv", "eval.csv", "learning_curve.png"):
        assert (out / f).is_file() and (out / f).stat().st_size > 0, f
    evals = _rows(out / "eval.csv")
    assert {r["opponent"] for r in evals} == {"random", "heuristic"}
    assert all(0 <= float(r["low"]) <= float(r["rate"]) <= float(r["high"]) <= 1 for r in evals)
    # save -> load -> act, through the registry, in a real game
    game = make_game(name, **config)
    learner = make_agent(f"ppo:path={out / 'model.zip'}", game)
    lineup = [make_agent("random", game) for _ in range(game.num_players)]
    lineup[1] = learner
    record = play_game(game, lineup, seed=3)
    assert record.length > 0 and len(record.returns) == game.num_players


def test_resume_continues_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    tiny_run(out, "castle_flutterstone", 128, "--eval-every", "64")
    first_eval = len(_rows(out / "eval.csv"))
    first_progress = len(_rows(out / "progress.csv"))
    settings = main(["--resume", "--out", str(out), "--timesteps", "128", "--no-progress"])
    assert settings["num_timesteps"] == 256
    assert settings["n_steps"] == 64 and settings["net"] == [32, 32]  # saved settings kept
    assert json.loads((out / "config.json").read_text())["num_timesteps"] == 256
    assert len(_rows(out / "eval.csv")) > first_eval  # appended, not overwritten
    assert len(_rows(out / "progress.csv")) > first_progress
    assert max(int(r["timesteps"]) for r in _rows(out / "eval.csv")) == 256


def _params(out: Path) -> dict:
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(str(out / "model.zip"), device="cpu").policy.state_dict()


def test_same_seed_same_model_and_other_seed_differs(tmp_path: Path) -> None:
    extra = ("--n-envs", "1", "--snapshot-every", "64")
    tiny_run(tmp_path / "a", "castle_flutterstone", 192, *extra)
    tiny_run(tmp_path / "b", "castle_flutterstone", 192, *extra)
    tiny_run(tmp_path / "c", "castle_flutterstone", 192, *extra, "--seed", "1")
    a, b, c = (_params(tmp_path / x) for x in "abc")
    assert all((a[k] == b[k]).all() for k in a)
    assert any((a[k] != c[k]).any() for k in a)
    ea, eb = _rows(tmp_path / "a" / "eval.csv"), _rows(tmp_path / "b" / "eval.csv")
    assert [r["wins"] for r in ea] == [r["wins"] for r in eb]


def test_vec_workers_train_the_same_model_with_the_main_process_stepping_or_not(
    tmp_path: Path,
) -> None:
    """Issue 14.2 ("same results with any count"), through the trainer: in-process, two workers
    with this process as one of them (``--vec-main-steps``, the default) and two worker
    processes (``--no-vec-main-steps``) train the same weights; the run records the mode."""
    extra: tuple[str, ...] = ("--n-envs", "4", "--snapshot-every", "64")
    extra += ("--opponents", "random,heuristic,self", "--opponent-weights", "1,1,1")
    tiny_run(tmp_path / "in", "castle_flutterstone", 192, *extra)
    main_steps = tiny_run(tmp_path / "ms", "castle_flutterstone", 192, *extra, "--vec-workers", "2")
    processes = tiny_run(
        tmp_path / "pr",
        "castle_flutterstone",
        192,
        *extra,
        "--vec-workers",
        "2",
        "--no-vec-main-steps",
    )
    assert main_steps["vec_main_steps"] is True and processes["vec_main_steps"] is False
    base = _params(tmp_path / "in")
    for run in ("ms", "pr"):
        other = _params(tmp_path / run)
        assert all((base[k] == other[k]).all() for k in base), run


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--game", "chess"], "unknown game"),
        (["--game", "castle_flutterstone", "--seat", "2"], "seat must be"),
        (["--game", "castle_flutterstone", "--seat", "north"], "seat must be"),
        (
            ["--game", "castle_flutterstone", "--opponents", "bogus", "--opponent-weights", "1"],
            "unknown agent",
        ),
        (["--game", "castle_flutterstone", "--opponent-weights", "1,2"], "one weight per"),
        (["--game", "castle_flutterstone", "-c", "num_players=9"], "num_players"),
        (["--game", "castle_flutterstone", "-c", "nonsense"], "key=value"),
        (["--game", "castle_flutterstone", "--timesteps", "0"], "--timesteps"),
        (["--game", "castle_flutterstone", "--gamma", "1.5"], "--gamma"),
        (["--resume", "--out", "/nonexistent/run"], "--resume needs"),
        ([], "--game is required"),
    ],
)
def test_bad_flags_give_clear_errors(tmp_path, capsys, flags: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as info:
        main([*flags, "--out", str(tmp_path / "x"), *TINY] if "--out" not in flags else flags)
    text = str(info.value.code) + capsys.readouterr().err
    assert message in text
    assert not (tmp_path / "x" / "model.zip").exists()


def test_refuses_to_overwrite_a_run(flutter_run: Path) -> None:
    with pytest.raises(SystemExit, match="--resume"):
        main(["--game", "castle_flutterstone", "--out", str(flutter_run), *TINY])


@pytest.mark.parametrize("done_steps", [0, 1, 50_000, 542_353, 1_058_184, 10**9])
def test_resume_seed_is_a_valid_seed_for_every_env(done_steps: int) -> None:
    """A run resumed after any number of steps seeds numpy, SB3 and every env ``seed + i``.

    Regression: ``seed + 7919 * done_steps`` overflowed numpy's seed range once a run passed
    542,000 steps, and resuming it failed in ``set_random_seed``.
    """
    import numpy as np
    from stable_baselines3.common.utils import set_random_seed

    from lab.recipes.sb3.train_ppo import SEED_SPACE, resume_seed

    n_envs = 64
    seed = resume_seed(3, done_steps, n_envs)
    assert seed >= 0 and seed + n_envs - 1 < SEED_SPACE
    set_random_seed(seed)
    np.random.default_rng(seed + n_envs - 1)
    assert resume_seed(3, done_steps, n_envs) == seed  # the same resume gets the same games
    if (
        3 + 7_919 * done_steps < SEED_SPACE - n_envs
    ):  # runs resumed before the wrap keep their seeds
        assert seed == 3 + 7_919 * done_steps
    assert resume_seed(3, done_steps + 1, n_envs) != seed  # the next resume gets fresh games


def test_the_best_evaluated_policy_is_kept_and_exported(tmp_path: Path) -> None:
    """``best/`` holds the policy of the run's best evaluation; resuming never lowers it, and
    ``train_strong.py export --model best`` ships that policy (not the last one)."""
    import subprocess
    import sys

    import torch as th

    from boardgames_rl.agents.ppo import read_model_file
    from lab.recipes.sb3.callbacks import read_best

    out = tmp_path / "run"
    tiny_run(out, "castle_flutterstone", 256, "--eval-every", "64", "--eval-games", "4")
    rows = _rows(out / "eval.csv")
    best = read_best(out / "best")
    by_step: dict[int, list[float]] = {}
    for r in rows:
        by_step.setdefault(int(r["timesteps"]), []).append(float(r["rate"]))
    means = {step: sum(v) / len(v) for step, v in by_step.items()}
    first_best = min(step for step, m in means.items() if m == max(means.values()))
    assert best["score"] == pytest.approx(max(means.values()))
    assert best["timesteps"] == first_best  # a tie never replaces the kept policy
    _, weights = read_model_file(out / "best" / "model.zip")  # a plain, loadable model file
    if first_best == 256:  # the best is the last policy: same weights
        last = read_model_file(out / "model.zip")[1]["policy"]
        assert all(th.equal(last[k], weights["policy"][k]) for k in last)

    main(["--resume", "--out", str(out), "--timesteps", "128", "--no-progress"])
    assert read_best(out / "best")["score"] >= best["score"]

    script = TRAIN_STRONG
    done = subprocess.run(
        [sys.executable, str(script), "export", str(out), "--model", "best"]
        + ["--name", "flutter-best", "--out-dir", str(tmp_path / "pkg"), "--eval-games", "0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    meta = json.loads((tmp_path / "pkg" / "flutter-best.json").read_text())
    kept = read_best(out / "best")
    assert meta["training"]["exported_timesteps"] == kept["timesteps"]
    assert "best evaluation" in meta["training"]["exported"]

    bare = tmp_path / "bare"
    tiny_run(bare, "castle_flutterstone", 64)  # evaluated only at the end, 2 games
    (bare / "best" / "best.json").unlink()
    refused = subprocess.run(
        [sys.executable, str(script), "export", str(bare), "--model", "best", "--eval-games", "0"]
        + ["--out-dir", str(tmp_path / "pkg2")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert refused.returncode != 0
    assert "--model last" in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "pkg2").exists()  # nothing written


def test_train_strong_logs_its_commands_and_export_ships_them(tmp_path: Path) -> None:
    """Each ``train_strong.py train`` invocation is appended to the run's ``commands.txt``, and
    ``export`` (without ``--command``) copies exactly those lines into the entry's JSON."""
    import subprocess
    import sys

    script = TRAIN_STRONG
    out = tmp_path / "run"
    train = [sys.executable, str(script), "train", "--game", "castle_flutterstone"]
    train += ["--out", str(out), "--bc-games", "0", "--timesteps", "64", "--net", "32,32"]
    train += ["--eval-every", "0", "--eval-games", "2", "--"]
    train += ["--n-envs", "2", "--n-steps", "32", "--batch-size", "32", "--n-epochs", "1"]
    for _ in range(2):  # a run, then the same command continuing it
        done = subprocess.run(train, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    assert json.loads((out / "config.json").read_text())["lr"] == 1e-4  # the recipe's default
    # continuing with a lower learning rate: the run takes it (it used to be dropped silently)
    lower = [*train[: train.index("--")], "--lr", "5e-5", *train[train.index("--") :]]
    done = subprocess.run(lower, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "--resume --lr 5e-05" in done.stdout
    assert json.loads((out / "config.json").read_text())["lr"] == 5e-5
    # a flag that shaped the run at its start cannot change: one line, nothing run or logged
    before = (out / "config.json").read_text()
    other = [*train[: train.index("--")], "--prior-scale", "9"]
    refused = subprocess.run([*other, "--prior", "heuristic"], capture_output=True, text=True)
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1 and "cannot change a run that exists" in refused.stderr
    assert (out / "config.json").read_text() == before
    # a damaged config.json: one line saying what to do, nothing run, logged or changed
    (out / "config.json").write_text("{not json")
    refused = subprocess.run(train, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1 and "is not readable JSON" in refused.stderr
    assert (out / "config.json").read_text() == "{not json"
    (out / "config.json").write_text(before)
    lines = (out / "commands.txt").read_text().splitlines()
    assert len(lines) == 3
    assert all(line.startswith("python lab/recipes/train_strong.py train ") for line in lines)
    assert "--bc-games 0" in lines[0] and "-- --n-envs 2" in lines[0]
    export = [sys.executable, str(script), "export", str(out), "--name", "flutter"]
    export += ["--out-dir", str(tmp_path / "pkg"), "--eval-games", "0"]
    done = subprocess.run(export, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    meta = json.loads((tmp_path / "pkg" / "flutter.json").read_text())
    assert meta["training"]["commands"] == lines
    # the shipped entry measured again from the command line, in one process and in two workers:
    # the same seeded games, the same figures
    strengths = []
    for workers in ("1", "2"):
        evaluate = [sys.executable, str(script), "evaluate", "flutter", "--eval-games", "4"]
        evaluate += ["--out-dir", str(tmp_path / "pkg"), "--workers", workers]
        done = subprocess.run(evaluate, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        strengths.append(json.loads((tmp_path / "pkg" / "flutter.json").read_text())["strength"])
    one, two = strengths
    for opponent in ("vs heuristic", "vs random"):
        assert one[opponent]["all"] == two[opponent]["all"] and one[opponent]["all"]["games"] == 4
        assert "cpu_seconds" in one[opponent] and two[opponent]["workers"] == 2


def test_an_evaluation_opponent_with_commas_keeps_the_progress_log_readable(
    tmp_path: Path,
) -> None:
    """An opponent spec holds commas (``ismcts:iterations=2,rollout_depth=2``); SB3 writes the
    CSV log's header unquoted, so its column name must not: every row has the header's width."""
    out = tmp_path / "run"
    tiny_run(
        out,
        "castle_nightingale",
        384,
        "--eval-opponents",
        "ismcts:iterations=2,rollout_depth=2",
        "--eval-every",
        "64",
    )
    with open(out / "progress.csv", newline="") as f:
        header, *rows = list(csv.reader(f))
    assert rows and all(len(row) == len(header) for row in rows)
    assert "eval/win_rate_ismcts:iterations=2;rollout_depth=2" in header
