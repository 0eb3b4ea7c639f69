"""A tournament folder from elsewhere (issue 39): resuming it, loading it or rating a ladder into it
writes nothing outside it, runs no code from it and refuses a bad file in one line.

Driven through the real entry points: ``boardgames-rl arena ... --out FOLDER`` in a subprocess
(the resume), ``tournament(..., out=folder)``, ``rate_against_ladder(..., out_dir=folder)`` and
``TournamentResult.load``. The payloads are built with the standard library only.
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import resource
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from boardgames_rl.agents.registry import register_agent, unregister_agent
from boardgames_rl.arena import TournamentResult, rate_against_ladder, tournament
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.core.errors import InvalidConfigError

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
GAME = "castle_flutterstone"
AGENTS = ["random", "heuristic"]
TIMEOUT = 60  # a FIFO read without O_NONBLOCK would block forever: the subprocess is cut


def _limits() -> None:  # a /dev/zero read must fail fast, not eat the machine's memory
    resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))


def arena(out: Path) -> subprocess.CompletedProcess:
    """``boardgames-rl arena GAME random heuristic --games 1 --out out`` (one game)."""
    argv = [*CLI, "arena", GAME, *AGENTS, "--games", "1", "--no-progress", "--out", str(out)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, preexec_fn=_limits)


def refused_in_one_line(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boardgames-rl: error: "), lines
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("played") / "t"
    tournament(GAME, AGENTS, 1, progress=False, out=out)
    return out


@pytest.fixture
def folder(played: Path, tmp_path: Path) -> Path:
    """A copy of a finished one-game tournament folder, next to an ``elsewhere`` folder."""
    (tmp_path / "elsewhere").mkdir()
    return Path(shutil.copytree(played, tmp_path / "t"))


def plant(folder: Path, name: str, tmp_path: Path) -> tuple[Path, bytes]:
    """A link ``folder/name`` to a file outside the folder; returns the target and its bytes."""
    target = tmp_path / "elsewhere" / f"{name}.precious"
    data = f"precious bytes of {name}\n".encode()
    target.write_bytes(data)
    link = folder / name
    if link.exists() or link.is_symlink():
        link.unlink()
    link.symlink_to(target)
    return target, data


# ------------------------------------------------------------------ 1. outputs follow no link
OUTPUTS = ["results.csv", "ratings.csv", "pairwise.csv", "results.json", "heatmap.png"]
OLD_TMP_NAMES = ["tournament.json.tmp", "games.jsonl.tmp", "results.json.tmp"]


def test_resume_replaces_planted_links_and_leaves_their_targets_alone(folder, tmp_path):
    planted = {name: plant(folder, name, tmp_path) for name in OUTPUTS + OLD_TMP_NAMES}
    proc = arena(folder)
    assert proc.returncode == 0, proc.stderr
    for name, (target, data) in planted.items():
        assert target.read_bytes() == data, f"{name}'s link was followed: {target} overwritten"
    for name in OUTPUTS:  # the outputs are files of the folder now, the links are gone
        assert (folder / name).is_file() and not (folder / name).is_symlink(), name
    assert (folder / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("fresh", [True, False], ids=["new-folder", "resume"])
def test_a_dangling_games_link_creates_nothing_outside(folder, tmp_path, fresh):
    if fresh:
        shutil.rmtree(folder)
        folder.mkdir()
    outside = tmp_path / "elsewhere" / "created.jsonl"
    (folder / "games.jsonl").unlink(missing_ok=True)
    (folder / "games.jsonl").symlink_to(outside)
    proc = arena(folder)
    assert not outside.exists(), "the append followed the planted link"
    refused_in_one_line(proc, "games.jsonl")


def test_ladder_outputs_replace_planted_links(tmp_path):
    out = tmp_path / "ladder"
    out.mkdir()
    (tmp_path / "elsewhere").mkdir()
    names = ["ladder.md", "ladder.txt", "ladder_heatmap.png", "heatmap.png", "results.csv"]
    planted = {name: plant(out, name, tmp_path) for name in names}
    ladder = {"random": "random", "heuristic": "heuristic"}
    rate_against_ladder(GAME, {}, games_per_pair=1, progress=False, out_dir=out, ladder=ladder)
    for name, (target, data) in planted.items():
        assert target.read_bytes() == data, f"{name}'s link was followed"
        assert (out / name).is_file() and not (out / name).is_symlink(), name


# ------------------------------------------------------------------ 2. no trust from a file
def evil_zip(path: Path, marker: Path) -> Path:
    """A model.zip whose ``data`` JSON holds a pickle that creates ``marker`` when SB3's loader
    unpickles it (SB3 keeps objects as ``{":serialized:": base64(cloudpickle bytes)}``)."""

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    blob = base64.b64encode(pickle.dumps(Payload())).decode()
    data = {"policy_kwargs": {":serialized:": blob}, "observation_space": {":serialized:": blob}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("_stable_baselines3_version", "2.0.0")
    return path


def plant_trust(folder: Path, tmp_path: Path) -> Path:
    """``tournament.json`` names ``ppo:path=EVIL.zip,trust=1``; returns the marker path."""
    marker = tmp_path / "MARKER"
    evil = evil_zip(tmp_path / "EVIL.zip", marker)
    params = json.loads((folder / "tournament.json").read_text())
    params["agents"][1] = f"ppo:path={evil},trust=1"
    (folder / "tournament.json").write_text(json.dumps(params))
    (folder / "games.jsonl").write_text("")
    return marker


def test_a_folder_cannot_switch_on_trust(folder, tmp_path):
    marker = plant_trust(folder, tmp_path)
    # loading the folder and carrying on with its own parameters
    with pytest.raises(InvalidConfigError, match=r"tournament\.json: agents: .*trust") as info:
        saved = TournamentResult.load(folder)
        tournament(saved.game, saved.agents, saved.games, seed=saved.seed, out=folder)
    assert not marker.exists(), "a spec read from tournament.json unpickled a model file"
    assert "\n" not in str(info.value)
    # resuming it from the command line
    line = refused_in_one_line(arena(folder), "tournament.json", "a file cannot give")
    assert "trust" in line and not marker.exists()


def test_trust_given_by_the_person_is_not_stored_and_the_same_call_resumes(tmp_path):
    register_agent("believer", lambda game, trust=False: RandomAgent())
    try:
        out = tmp_path / "t"
        given = ["believer:trust=true", "heuristic"]
        first = tournament(GAME, given, 1, progress=False, out=out)
        assert "trust=" not in (out / "tournament.json").read_text()
        assert "trust=" not in (out / "games.jsonl").read_text()
        again: list = []
        second = tournament(GAME, given, 1, progress=False, out=out, on_game=again.append)
        assert again == [] and second.records == first.records
    finally:
        unregister_agent("believer")


# ------------------------------------------------------------------ 3. bad contents, one line
def _huge_returns(folder: Path) -> None:
    record = json.loads((folder / "games.jsonl").read_text().splitlines()[0])
    record["returns"][0] = "HUGE"
    line = json.dumps(record).replace('"HUGE"', "1" + "0" * 400)  # 10**400: no float holds it
    (folder / "games.jsonl").write_text(line + "\n")


def _params(folder: Path, **fields) -> None:
    params = json.loads((folder / "tournament.json").read_text())
    (folder / "tournament.json").write_text(json.dumps({**params, **fields}))


BAD_FILES = {
    "params-a-list": (lambda f: (f / "tournament.json").write_text("[1]"), "tournament.json"),
    "params-agent-files-a-list": (lambda f: _params(f, agent_files=[1]), "agent_files"),
    "params-tables-text": (lambda f: _params(f, tables="xy"), "tables"),
    "params-agents-a-number": (lambda f: _params(f, agents=5), "agents"),
    "games-400-digit-return": (_huge_returns, "games.jsonl:1"),
    "games-not-utf8": (lambda f: (f / "games.jsonl").write_bytes(b"\xff\xfe{}\n"), "UTF-8"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_file_is_refused_in_one_line(folder, case):
    spoil, word = BAD_FILES[case]
    spoil(folder)
    with pytest.raises(InvalidConfigError, match=word.replace(".", r"\.")) as info:
        TournamentResult.load(folder)
    assert "\n" not in str(info.value)
    refused_in_one_line(arena(folder), word)


# ------------------------------------------------------------------ 4. FIFOs and devices
def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


@pytest.mark.parametrize("name", ["tournament.json", "games.jsonl"])
@pytest.mark.parametrize("make", [_fifo, _zero], ids=["fifo", "dev-zero"])
def test_fifos_and_devices_are_refused_without_blocking(folder, name, make):
    make(folder / name)
    kind = "a FIFO" if make is _fifo else "a character device"
    with pytest.raises(InvalidConfigError, match=f"{name}: the .* is {kind}"):
        TournamentResult.load(folder)
    refused_in_one_line(arena(folder), name, kind)  # the resume, cut at TIMEOUT if it blocks
