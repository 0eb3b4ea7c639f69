"""Game records from elsewhere (issue 39): ``boardgames-rl replay`` reads only regular files with a
size cap and strict JSON, refuses a bad record in one line naming its line, prints no terminal
escape sequence that came from a file, and writes ``--html`` without following a planted link;
``play --record`` appends through no link either.

Every test drives ``python -m boardgames_rl.cli replay ...`` (or ``play``) in a subprocess, with
a timeout (a FIFO must not hang the suite); the crafted files are built with the standard library.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.arena import play_game
from boardgames_rl.registry import make_game

CLI = [sys.executable, "-m", "boardgames_rl.cli", "replay"]
TIMEOUT = 60
ESCAPES = ["\x1b]0;pwned\x07", "\x1b[2J"]  # a window title and a clear screen


def _limits() -> None:  # a /dev/zero read must fail fast, not eat the machine's memory
    resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))


def replay(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *argv, "--no-progress"],
        capture_output=True,
        timeout=TIMEOUT,
        preexec_fn=_limits,
        stdin=subprocess.DEVNULL,
    )


def refused_in_one_line(proc: subprocess.CompletedProcess, *words: str) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err[-2000:]
    assert proc.returncode == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boardgames-rl: error: "), lines
    for word in words:
        assert word in lines[0], lines[0]
    assert b"\x1b" not in proc.stderr
    return lines[0]


@pytest.fixture(scope="module")
def record() -> dict:
    """A real Castle Flutterstone record, cut by the turn limit after 4 decisions (few pictures
    for ``--html``)."""
    game = make_game("castle_flutterstone", num_players=2, max_turns=2)
    agents = [make_agent("heuristic", game) for _ in range(2)]
    return play_game(game, agents, 3).to_dict()


def write(path: Path, *records: dict, raw: str | None = None) -> Path:
    lines = [json.dumps(r) for r in records] + ([raw] if raw is not None else [])
    path.write_text("".join(line + "\n" for line in lines))
    return path


# ------------------------------------------------------------------ escapes from a file
def test_escape_sequences_in_a_record_are_never_printed(record, tmp_path):
    path = write(tmp_path / "r.jsonl", {**record, "agents": ESCAPES})
    for mode in ([], ["--step"]):  # the returns table; the decision lines (stdin ends at once)
        proc = replay(str(path), *mode)
        assert proc.returncode == 0, proc.stderr
        assert (b"outcome matches" if not mode else b"end of input") in proc.stdout
        assert b"\x1b" not in proc.stdout and b"\x07" not in proc.stdout, mode
    # an option name that is an escape sequence: refused, and the refusal is clean too
    bad = write(tmp_path / "bad.jsonl", {**record, "config": {"\x1b[2J": 1}})
    refused_in_one_line(replay(str(bad)), "record 0 of")


def test_html_page_escapes_the_names_and_replaces_a_planted_link(record, tmp_path):
    agents = ["<script>alert(1)</script>", ESCAPES[1]]
    path = write(tmp_path / "r.jsonl", {**record, "agents": agents})
    target = tmp_path / "precious.txt"
    target.write_bytes(b"precious")
    page = tmp_path / "page.html"
    page.symlink_to(target)
    proc = replay(str(path), "--html", str(page))
    assert proc.returncode == 0, proc.stderr
    assert target.read_bytes() == b"precious", "the page was written through the planted link"
    assert page.is_file() and not page.is_symlink()
    text = page.read_bytes()
    assert b"<script>alert(1)" not in text and b"&lt;script&gt;alert(1)" in text
    assert b"\x1b" not in text and b"\x1b" not in proc.stdout


def test_play_record_does_not_append_through_a_planted_link(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_bytes(b"precious")
    link = tmp_path / "games.jsonl"
    link.symlink_to(target)
    argv = ["play", "castle_flutterstone", "-c", "max_turns=2", "--vs", "heuristic"]
    proc = subprocess.run(
        [*CLI[:-1], *argv, "--record", str(link)],
        input=b"1\n" * 60,
        capture_output=True,
        timeout=TIMEOUT,
    )
    assert target.read_bytes() == b"precious", "the record was appended through the link"
    refused_in_one_line(proc, "not recorded", "symbolic link")


# ------------------------------------------------------------------ bad contents, one line
BAD_LINES = {
    "400-digit-return": ('"returns": [1' + "0" * 400 + ", -1.0]", "r.jsonl:2"),
    "huge-finite-return": ('"returns": [1e300, -1e300]', "r.jsonl:2"),
    "nan-return": ('"returns": [NaN, -1.0]', "r.jsonl:2"),
    "400-digit-seed": ('"seed": 1' + "0" * 400, "r.jsonl:2"),
}


@pytest.mark.parametrize("case", list(BAD_LINES))
def test_a_bad_record_is_refused_with_its_line(record, tmp_path, case):
    field, where = BAD_LINES[case]
    key = field.split(":")[0].strip('"')
    line = json.dumps({**record, key: "X"}).replace(f'"{key}": "X"', field)
    path = write(tmp_path / "r.jsonl", record, raw=line)
    refused_in_one_line(replay(str(path)), where)


# ------------------------------------------------------------------ FIFOs and devices
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize("where", ["file", "folder"])
def test_fifos_and_devices_are_refused_without_blocking(tmp_path, kind, where):
    folder = tmp_path / "t"
    folder.mkdir()
    path = folder / "games.jsonl" if where == "folder" else tmp_path / "r.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    words = ["a FIFO"] if kind == "fifo" else ["a character device"]
    refused_in_one_line(replay(str(folder if where == "folder" else path)), *words)
