"""The SB3 recipe's arguments: one typed dataclass (``TrainArgs``), its fields the only source
of the ``train_ppo`` flags, per-game defaults on top, explicit flags over both (issue 12
point 7)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from lab.recipes.sb3.args import (
    TrainArgs,
    build_parser,
    common_defaults,
    defaults_for,
    flag_fields,
    flag_name,
    parse_args,
)
from lab.recipes.sb3.defaults import PER_GAME

from .helpers import TRAIN_SB3


def test_every_field_has_a_flag_a_type_and_a_help_text() -> None:
    """ "one field per knob, a type, a default, and a help text per field"; a flag cannot exist
    without a field."""
    parser = build_parser()
    flags = {a.dest: a for a in parser._actions if a.dest != "help"}  # argparse's own -h aside
    names = [f.name for f in flag_fields()]
    assert sorted(flags) == sorted(names)
    for f in dataclasses.fields(TrainArgs):
        assert f.type, f.name
        assert f.metadata.get("help", "").strip(), f"{f.name} has no help text"
    for name in names:
        assert flag_name(name) in flags[name].option_strings
    assert [f.name for f in dataclasses.fields(TrainArgs) if f not in flag_fields()] == [
        "interrupted"
    ]


def test_help_lists_every_flag_with_its_help_and_default() -> None:
    """ "--help shows each flag's help text and its default, naming per-game defaults" (through
    the recipe's command line, ``lab/recipes/train_sb3.py``, in a subprocess)."""
    proc = subprocess.run(
        [sys.executable, str(TRAIN_SB3), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())  # argparse wraps lines
    for f in flag_fields():
        flag = flag_name(f.name)
        assert f"{flag} " in text or f"{flag}," in text, flag
        first_words = " ".join(f.metadata["help"].split()[:3])
        assert first_words in text, (flag, first_words)
    assert text.count("(default: ") >= len(flag_fields())
    assert "--progress, --no-progress" in text
    assert "(default: 0.0003; castle_nightingale: 5e-05)" in text
    assert "(default: 128,128; castle_nightingale: 256,256; night_of_the_ninja: 256,256" in text
    assert "(default: 300000)" in text


def test_per_game_defaults_apply_and_explicit_flags_win(tmp_path) -> None:
    """Per-game defaults from defaults.py over the field defaults; explicit flags win."""
    out = str(tmp_path / "run")
    night = parse_args(["--game", "castle_nightingale", "--out", out])
    assert isinstance(night, TrainArgs)
    assert night.lr == PER_GAME["castle_nightingale"]["lr"] != common_defaults()["lr"]
    assert night.net == [256, 256] and night.opponents == ["random"]
    assert night.opponent_weights == [1.0] and night.shaping == "potential"
    flutter = parse_args(["--game", "castle_flutterstone", "--out", out])
    assert flutter.lr == common_defaults()["lr"] and flutter.net == [128, 128]
    assert flutter.config == {"num_players": 2}
    assert flutter.opponents == ["random", "heuristic", "self"]
    explicit = parse_args(
        [
            "--game",
            "castle_nightingale",
            "--lr",
            "1e-3",
            "--net",
            "32,16",
            "--opponents",
            "random,ismcts:iterations=5,rollout=random",
            "--no-progress",
            "--out",
            out,
        ]
    )
    assert explicit.lr == 1e-3 and explicit.net == [32, 16] and explicit.progress is False
    assert explicit.opponents == ["random", "ismcts:iterations=5,rollout=random"]
    assert explicit.bc_games == defaults_for("castle_nightingale")["bc_games"]


def test_game_options_go_through_core_options(tmp_path) -> None:
    """ "-c through core.options in every command": false is the bool, 3 the int; a -c option
    overrides only its key of the game's default config."""
    args = parse_args(
        ["--game", "white_castle", "-c", "num_players=3", "--out", str(tmp_path / "r")]
    )
    assert args.config == {"num_players": 3}
    args = parse_args(
        ["--game", "castle_flutterstone", "-c", "pesky_ghosts=false", "--out", str(tmp_path)]
    )
    assert args.config == {"num_players": 2, "pesky_ghosts": False}
    assert args.out == str(tmp_path) and args.seed == 0 and args.resume is False


@pytest.mark.parametrize(
    "argv",
    [
        ["--lr", "abc"],
        ["--lr", "0"],
        ["--ent-coef", "nan"],
        ["--net", "a,b"],
        [],
        ["--vec", "threads"],
    ],
)
def test_bad_flags_are_one_line_usage_errors(argv, capsys) -> None:
    """ "one-line usage errors exit 2"."""
    if argv:
        argv = ["--game", "white_castle", *argv]
    with pytest.raises(SystemExit) as e:
        parse_args(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("train_ppo: error: ") and err.count("\n") == 1, err


def test_no_progress_bar_when_stderr_is_not_a_terminal(monkeypatch, tmp_path) -> None:
    """Issue 16 point 4: "--no-progress (and no bar when output is not a terminal)"; --progress
    still forces the bar."""
    out = ["--out", str(tmp_path)]
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert parse_args(["--game", "white_castle", *out]).progress is False
    assert parse_args(["--game", "white_castle", "--progress", *out]).progress is True
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert parse_args(["--game", "white_castle", *out]).progress is True
    assert parse_args(["--game", "white_castle", "--no-progress", *out]).progress is False
