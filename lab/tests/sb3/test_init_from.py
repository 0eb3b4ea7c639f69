"""``--init-from ENTRY``: a run that starts from a shipped pretrained entry's actor.

The copied actor must be the entry's exactly (same weights, same prior scale), the critic new;
with ``--value-warmup`` longer than the run the actor leaves the run unchanged. The run folder
records the entry (``INIT_FROM.json``) and ``export`` carries it into the new entry's JSON. An
entry that does not fit the run is refused in one line naming the flag, with nothing left behind.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from boardgames_rl.agents.ppo import read_model_file  # noqa: E402
from boardgames_rl.agents.pretrained import PACKAGE_DIR, load_weights, read_entry  # noqa: E402
from lab.recipes.sb3.init_from import INIT_FILE  # noqa: E402

from .helpers import TRAIN_STRONG, tiny_run  # noqa: E402

ENTRY = "white_castle-2p"
SCRIPT = TRAIN_STRONG


def _entry_flags(name: str) -> list[str]:
    """The flags that make a run's network and game the entry's."""
    entry = read_entry(PACKAGE_DIR / f"{name}.json")
    flags = ["--net", ",".join(str(h) for h in entry.meta["architecture"]["hidden"])]
    for key, value in entry.config.items():
        flags += ["-c", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    if entry.prior is not None:
        flags += ["--prior", entry.prior[0]]
    return flags


def test_a_run_starts_from_the_entry_and_keeps_its_actor_through_the_warmup(tmp_path):
    """Trained for 128 steps with the actor held (``--value-warmup`` past the end), the run's
    saved actor is the entry's, value for value; the entry is evaluated at step 0."""
    out = tmp_path / "run"
    flags = [*_entry_flags(ENTRY), "--init-from", ENTRY, "--value-warmup", "1000000"]
    settings = tiny_run(out, "white_castle", 128, *flags)
    assert settings["init_from"] == ENTRY
    entry = read_entry(PACKAGE_DIR / f"{ENTRY}.json")
    _, weights = read_model_file(out / "model.zip")
    policy = {k: v.float().numpy() for k, v in weights["policy"].items()}
    linear = sorted(
        {int(k.split(".")[2]) for k in policy if k.startswith("mlp_extractor.policy_net.")}
    )
    saved = [
        (
            policy[f"mlp_extractor.policy_net.{i}.weight"],
            policy[f"mlp_extractor.policy_net.{i}.bias"],
        )
        for i in linear
    ] + [(policy["action_net.weight"], policy["action_net.bias"])]
    for (w, b), (ew, eb) in zip(saved, load_weights(entry), strict=True):
        np.testing.assert_array_equal(w, ew)
        np.testing.assert_array_equal(b, eb)
    assert entry.prior is not None
    assert policy["prior_scale"] == np.float32(entry.prior[1])  # the JSON keeps a float32
    record = json.loads((out / INIT_FILE).read_text())
    assert record["entry"] == ENTRY and record["weights_sha256"] == entry.meta["sha256"]
    assert record["commands"] == entry.meta["training"]["commands"]
    # the entry itself is evaluated at step 0: the score a later best/ policy has to beat
    rows = (out / "eval.csv").read_text().splitlines()
    assert rows[1].startswith("0,") and len(rows) == 1 + 2 * 2  # step 0 and the end, 2 opponents


def test_export_carries_the_lineage_and_a_resume_cannot_change_it(tmp_path):
    """``train_strong.py train --init-from`` (no cloning by default), then ``export``: the new
    entry's JSON names the entry it started from. Resuming with another ``--init-from`` is
    refused in one line and changes nothing."""
    out = tmp_path / "run"
    train = [sys.executable, str(SCRIPT), "train", "--game", "white_castle", "--out", str(out)]
    train += [*_entry_flags(ENTRY), "--init-from", ENTRY, "--timesteps", "64"]
    train += ["--eval-every", "0", "--eval-games", "2", "--"]
    train += ["--n-envs", "2", "--n-steps", "32", "--batch-size", "32", "--n-epochs", "1"]
    done = subprocess.run(train, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "--init-from white_castle-2p" in done.stdout and "--bc-games 0" in done.stdout
    before = (out / "config.json").read_text()
    other = [*train[: train.index("--init-from")], "--init-from", "castle_flutterstone-2p"]
    refused = subprocess.run(other, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "cannot change a run that exists" in refused.stderr
    assert (out / "config.json").read_text() == before
    export = [sys.executable, str(SCRIPT), "export", str(out), "--name", "again"]
    export += ["--out-dir", str(tmp_path / "pkg"), "--eval-games", "0"]
    done = subprocess.run(export, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    meta = json.loads((tmp_path / "pkg" / "again.json").read_text())
    lineage = meta["training"]["initialised_from"]
    assert lineage["entry"] == ENTRY
    assert lineage["weights_sha256"] == read_entry(PACKAGE_DIR / f"{ENTRY}.json").meta["sha256"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--net", "64,64"], "pass --net"),
        (["--prior", ""], "pass --prior heuristic"),
        (["--init-from", "no_such_entry"], "no shipped entry of that name"),
        (["--init-from", "castle_flutterstone-2p"], "give the entry's game and -c options"),
        (["--bc-games", "3"], "choose one"),
    ],
)
def test_an_entry_that_does_not_fit_is_refused_and_leaves_nothing(
    tmp_path, capsys, change, message
):
    """A wrong network, prior, name or game, or cloning on top: exit with one line naming what to
    change; the run folder is not left behind."""
    out = tmp_path / "run"
    flags = [*_entry_flags(ENTRY), "--init-from", ENTRY, *change]
    with pytest.raises(SystemExit) as e:
        tiny_run(out, "white_castle", 64, *flags)
    text = str(e.value.code) if not isinstance(e.value.code, int) else capsys.readouterr().err
    assert message in text and text.strip().count("\n") == 0, text
    assert not out.exists()
