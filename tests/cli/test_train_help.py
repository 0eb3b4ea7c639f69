"""Issue 16.4: "`train --help` with a help text and the per-game default of every flag", read
from the real ``boardgames-rl train --help`` output (a subprocess). The flags are the fields of
:class:`boardgames_rl.training.settings.Args`, each documented by the string under it."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import os
import subprocess
import sys

from boardgames_rl.training import settings


def _field_docs() -> dict[str, str]:
    """Each field of ``Args`` and the string under it, read from the source."""
    body = ast.parse(inspect.getsource(settings.Args)).body[0].body  # type: ignore[attr-defined]
    return {
        a.target.id: b.value.value
        for a, b in zip(body, body[1:], strict=False)
        if isinstance(a, ast.AnnAssign) and isinstance(b, ast.Expr)
    }


def _shown(value: object) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def test_train_help_lists_every_flag_with_its_help_and_per_game_defaults():
    proc = subprocess.run(
        [sys.executable, "-m", "boardgames_rl.cli", "train", "--help"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout.startswith("usage: boardgames-rl train"), proc.stdout[:200]
    flat = " ".join(proc.stdout.split())  # argparse wraps at the terminal width
    fields = dataclasses.fields(settings.Args)
    docs = _field_docs()
    assert len(fields) >= 30
    assert {f.name for f in fields} == set(docs), "a field without its help text"
    defaults = settings.Args()
    for f in fields:
        flag = "--" + f.name.replace("_", "-")
        assert f"{flag} " in flat, flag
        assert " ".join(docs[f.name].split()) in flat, flag
        if f.name not in ("game", "out", "resume", "config"):
            shown = (
                f"{' '.join(docs[f.name].split())} (default: {_shown(getattr(defaults, f.name))})"
            )
            assert shown in flat, (flag, shown)
    # every game's own defaults are named with the game
    per_game = flat[flat.index("Per-game defaults:") :]
    for game, values in settings.PER_GAME.items():
        assert f"{game}: " in per_game, game
        for name in values:
            assert f"{name}=" in per_game[per_game.index(f"{game}: ") :], (game, name)
    assert "castle_nightingale: net=[256, 256], batch_size=512" in flat


def test_an_sb3_trainer_flag_names_its_new_name_or_the_lab_recipe(capsys) -> None:
    """The SB3 trainer's flags, given to ``boardgames-rl train``: a renamed one names its new
    name, one the lab recipe keeps names ``lab/recipes/train_sb3.py`` (one line, exit 2)."""
    from boardgames_rl.cli import main

    for flags, says in (
        (["--n-steps", "64"], "--n-steps is now --num-steps"),
        (["--lr", "1e-3"], "--lr is now --learning-rate"),
        (["--bc-games", "10"], "--bc-games is a flag of the SB3 trainer"),
        (["--shaping", "potential"], "python lab/recipes/train_sb3.py --help"),
    ):
        assert main(["train", "--game", "white_castle", *flags]) == 2
        err = capsys.readouterr().err
        assert says in err and len(err.strip().splitlines()) == 1, err
