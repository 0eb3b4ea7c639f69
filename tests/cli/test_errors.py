"""Issue 13, "one-line errors everywhere": every bad input listed in the issue, and bad options of
each command, driven through the real ``boardgames-rl`` entry point as a subprocess. Each exits 1
(a runtime error) or 2 (a usage error) with exactly one line on stderr saying what to do, and no
traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
TINY = [
    "--timesteps",
    "64",
    "--num-envs",
    "1",
    "--num-steps",
    "64",
    "--batch-size",
    "64",
    "--update-epochs",
    "1",
    "--net",
    "8",
    "--eval-games",
    "0",
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Damaged inputs: a truncated model.zip, a run with a truncated config.json or model, a plain
    file, replay records whose game is null / a list, deeply nested JSON."""
    d = tmp_path_factory.mktemp("bad")
    run = d / "run"
    subprocess.run(
        [*CLI, "train", "--game", "castle_flutterstone", "--out", str(run), *TINY],
        check=True,
        capture_output=True,
        timeout=300,
    )
    blob = (run / "model.zip").read_bytes()
    (d / "truncated.zip").write_bytes(blob[: len(blob) // 2])
    bad_model = d / "bad_model"
    bad_model.mkdir()
    for f in run.iterdir():
        if f.is_file():
            (bad_model / f.name).write_bytes(f.read_bytes())
    config = json.loads((run / "config.json").read_text())
    config.pop("checkpoint")
    (bad_model / "config.json").write_text(json.dumps(config))
    (bad_model / "model.zip").write_bytes(blob[: len(blob) // 2])
    bad_config = d / "bad_config"
    bad_config.mkdir()
    (bad_config / "model.zip").write_bytes(blob)
    text = (run / "config.json").read_text()
    (bad_config / "config.json").write_text(text[: len(text) // 2])
    (d / "a_file").write_text("x")
    (d / "null_game.jsonl").write_text(
        '{"seed":0,"seats":[0,1],"returns":[1,-1],"length":0,"truncated":false,"game":null}\n'
    )
    (d / "list_game.jsonl").write_text(
        '{"seed":0,"seats":[0,1],"returns":[1,-1],"length":0,"truncated":false,"game":["x"]}\n'
    )
    (d / "nested.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n")
    (d / "binary.jsonl").write_bytes(b"\xff\xfe\x00" * 50)
    return {
        "run": run,
        "bad_model": bad_model,
        "bad_config": bad_config,
        "dir": d,
        "truncated_zip": d / "truncated.zip",
        "a_file": d / "a_file",
    }


G = ["castle_flutterstone", "-c", "num_players=2"]
CASES = [
    # (argv with {placeholders}, exit code, a phrase of the message)
    (
        ["train", "--game", "castle_flutterstone", "-c", "bogus=1", "--out", "{dir}/t1", *TINY],
        1,
        "bogus",
    ),
    (
        ["train", "--game", "castle_flutterstone", "--learning-rate", "-1", "--out", "{dir}/t2"],
        2,
        "--learning-rate must be > 0",
    ),
    (["train", "--game", "castle_flutterstone", "--out", "{a_file}"], 1, "cannot create the run"),
    (["train", "--resume", "--out", "{bad_model}"], 1, "not a readable"),
    (["train", "--resume", "--out", "{bad_config}"], 2, "not valid JSON"),
    (["train", "--resume", "--out", "{dir}/nothing_here"], 2, "not a run folder"),
    (["train", "--resume"], 2, "--resume needs --out"),
    (["train", "--game", "castle_flutterstone", "--timesteps", "abc"], 2, "invalid int"),
    (["train", "--game", "castle_flutterstone", "--bogus-flag"], 2, "unrecognized"),
    (
        [
            "train",
            "--game",
            "castle_flutterstone",
            "--eval-opponents",
            "nobody",
            "--out",
            "{dir}/t3",
        ],
        1,
        "unknown agent",
    ),
    (["train", "--game", "castle_flutterstone", "--net", "a,b"], 2, "--net"),
    (["arena", *G, "ppo:path={truncated_zip}", "random", "--games", "2"], 1, "not a readable"),
    (
        ["arena", *G, "heuristic:card_value=abc", "random", "--games", "2"],
        1,
        "card_value must be a finite number",
    ),
    (["arena", *G, "random", "heuristic", "--games", "abc"], 2, "invalid int"),
    (["arena", *G, "random", "heuristic", "--workers", "x"], 2, "invalid int"),
    (["arena", *G, "random:bogus=1", "heuristic", "--games", "2"], 1, "bogus"),
    (["arena", *G, "ismcts:iterations=abc", "heuristic", "--games", "2"], 1, "iterations"),
    (["watch", *G, "--agents", "heuristic:depth=abc", "random"], 1, "depth"),
    (["watch", *G, "--agents", "ppo:path={truncated_zip}", "random"], 1, "not a readable"),
    (["watch", *G, "--agents", "ppo:path={dir}/missing.zip", "random"], 1, "no PPO model"),
    (["watch", *G, "--agents", "ppo:path={run},trust=maybe", "random"], 1, "trust"),
    (["watch", *G, "--seed", "x"], 2, "invalid int"),
    (["play", *G, "--seat", "x"], 2, "invalid int"),
    (["replay", "{dir}/null_game.jsonl"], 1, "'game' must be"),
    (["replay", "{dir}/list_game.jsonl"], 1, "'game' must be"),
    (["replay", "{dir}/nested.jsonl"], 1, "nested too deeply"),
    (["replay", "{dir}/binary.jsonl"], 1, "not UTF-8"),
    (["replay", "{run}", "--index", "x"], 2, "invalid int"),
    (["bench", "--rounds", "x"], 2, "lab/benchmarks/throughput.py"),
    (["list", "--bogus"], 2, "unrecognized"),
]


@pytest.mark.parametrize("argv,code,phrase", CASES, ids=[" ".join(c[0][:4]) for c in CASES])
def test_bad_input_exits_with_one_line(files, argv, code, phrase) -> None:
    args = [a.format(**files) if "{" in a else a for a in argv]
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, env=env)
    err = proc.stderr
    assert proc.returncode == code, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert phrase in err, err
