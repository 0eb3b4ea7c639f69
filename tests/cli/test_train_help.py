"""Issue 16.4: "`train --help` with a help text and the per-game default of every flag", read
from the real ``boardgames-rl train --help`` output (a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys

from boardgames_rl.training.args import default_text, flag_fields, flag_name
from boardgames_rl.training.defaults import PER_GAME


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
    flat = " ".join(proc.stdout.split())  # argparse wraps at the terminal width
    fields = flag_fields()
    assert len(fields) >= 30
    for f in fields:
        assert flag_name(f.name) in flat, f.name
        help_text = " ".join(f.metadata["help"].split())
        assert help_text in flat, f.name
        shown = f.metadata.get("shown_default")
        expected = f"(default: {shown})" if shown else f"({default_text(f.name)})"
        assert " ".join(expected.split()) in flat, (f.name, expected)
    # every per-game default that differs from the common one is named with its game
    for game, values in PER_GAME.items():
        for name in values:
            if f"{game}: " in default_text(name):
                assert f"{game}: " in flat
    assert "castle_nightingale: potential" in flat  # e.g. --shaping
