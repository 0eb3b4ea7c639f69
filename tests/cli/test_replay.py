"""Issue 16.3 and 16.6: ``boardgames-rl replay RECORD --step`` walks through a game board by board
and ``replay RECORD --html FILE`` writes one self-contained page (a picture per decision, the
action log, a slider), from a tournament record and from a ``play`` record; driven as
subprocesses with their real input and output."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.arena import GameRecord, load_records
from boardgames_rl.registry import make_game

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}
NINJA = ["night_of_the_ninja", "-c", "num_players=4", "-c", "mode=round"]  # one round: short


def cli(*argv: str, stdin: str = "", check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [*CLI, *argv], input=stdin, capture_output=True, text=True, timeout=600, env=ENV
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A tournament folder (arena --out) and a ``play --record`` file, both Night of the Ninja
    with 4 players, one round (short games with cheap pictures)."""
    d = tmp_path_factory.mktemp("records")
    cli("arena", *NINJA, "heuristic", "random", "--games", "1", "--out", str(d / "t"))
    cli("play", *NINJA, "--vs", "random", "--seed", "4", "--record", str(d / "played.jsonl"),
        stdin="1\n" * 400)  # fmt: skip
    return {"tournament": d / "t", "play": d / "played.jsonl"}


def boards(record: GameRecord, seat: int | None) -> list[str]:
    """The board at every decision of ``record`` from ``seat``, then the final board."""
    game = make_game(record.game, **record.config)
    state = game.new_state(record.state_seed)
    out = []
    for a in record.actions:
        out.append(state.render(seat))
        state.apply(a)
    return [*out, state.render(seat)]


@pytest.mark.parametrize("kind", ["tournament", "play"])
def test_step_walks_board_by_board_and_q_stops(records, kind):
    """Issue 16.3: "`replay RECORD --step` walks through a game board by board" (Enter for the
    next, q to quit; stdin may be a pipe: one line per step)."""
    path = records[kind]
    rec = load_records(path)[0]
    n = len(rec.actions)
    shown = boards(rec, None)
    proc = cli("replay", str(path), "--game-index", "0", "--step", stdin="\n\nq\n")
    out = proc.stdout
    assert [int(k) for k in re.findall(r"^decision (\d+) of \d+:$", out, re.M)] == [1, 2, 3]
    assert f"decision 1 of {n}:\n{shown[0]}\n-> " in out
    assert f"decision 3 of {n}:\n{shown[2]}\n-> " in out
    assert out.rstrip().endswith(f"stopped at decision 3 of {n}")
    assert "outcome matches" not in out
    # Enter all the way: every board, the final one, the outcome check
    proc = cli("replay", str(path), "--game-index", "0", "--step", stdin="\n" * (n + 5))
    assert len(re.findall(r"^decision \d+ of \d+:$", proc.stdout, re.M)) == n
    assert f"end of the game:\n{shown[-1]}\nreturns:" in proc.stdout
    assert "outcome matches the record" in proc.stdout
    # end of input stops like q
    proc = cli("replay", str(path), "--game-index", "0", "--step", stdin="\n")
    assert proc.stdout.rstrip().endswith(f"stopped at decision 2 of {n}")


def test_step_from_a_seat_shows_that_seats_view(records):
    """``--seat S``: the boards are S's view (no hidden fact of the others)."""
    rec = load_records(records["play"])[0]
    proc = cli("replay", str(records["play"]), "--step", "--seat", "2", stdin="\n" * 3 + "q\n")
    own, omni = boards(rec, 2), boards(rec, None)
    for k in range(4):
        assert f"decision {k + 1} of {len(rec.actions)}:\n{own[k]}\n-> " in proc.stdout
    assert omni[0] != own[0] and omni[0] not in proc.stdout


class PageCheck(HTMLParser):
    """Parses the page: tags must nest and close; collects frames, images, links and scripts."""

    VOID = {"meta", "img", "input", "br", "link", "hr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.frames: list[str] = []
        self.final = 0
        self.images: list[str] = []  # every image of the page (each held once)
        self.boards: list[str] = []  # per figure: the viewBox of its board
        self.urls: list[str] = []
        self.scripts_with_src = 0
        self.log_items = 0
        self.slider: dict[str, str | None] = {}
        self.buttons: list[str | None] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in self.VOID:
            self.stack.append(tag)
        if tag == "figure" and a.get("class") == "frame":
            self.frames.append(a.get("id") or "")
        if tag == "figure" and a.get("class") == "final":
            self.final += 1
        if tag == "image":
            self.images.append(a.get("href") or "")
        if tag == "svg" and a.get("class") == "board":
            self.boards.append(a.get("viewbox") or "")
        for key in ("href", "src"):  # data, or a reference inside the page
            if a.get(key) and not str(a[key]).startswith(("data:", "#")):
                self.urls.append(str(a[key]))
        if tag == "script" and "src" in a:
            self.scripts_with_src += 1
        if tag == "li":
            self.log_items += 1
        if tag == "input" and a.get("type") == "range":
            self.slider = a
        if tag == "button":
            self.buttons.append(a.get("id"))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


_DOM = """
function El(i) { this.i = i; this.cls = new Set(); this.h = {}; var s = this;
  this.classList = {toggle: function (c, on) { if (on) s.cls.add(c); else s.cls.delete(c); },
                    add: function (c) { s.cls.add(c); }}; }
El.prototype.getAttribute = function () { return 'label' + this.i; };
El.prototype.scrollIntoView = function () {};
El.prototype.addEventListener = function (e, f) { this.h[e] = f; };
var figs = [], items = [];
for (var i = 0; i < @N@; i++) { figs.push(new El(i)); items.push(new El(i)); }
var ids = {slider: new El(-1), prev: new El(-2), next: new El(-3), position: new El(-4)};
ids.slider.value = '0';
var document = {body: new El(-5),
  querySelectorAll: function (q) { return q.indexOf('figure') >= 0 ? figs : items; },
  getElementById: function (k) { return ids[k]; },
  addEventListener: function (e, f) { document.kd = f; }};
"""

_DRIVE = """
var out = [];
function shown() { return figs.filter(function (f) { return f.cls.has('shown'); })
  .map(function (f) { return f.i; }); }
out.push(shown());
ids.next.h.click(); ids.next.h.click(); out.push(shown());
ids.prev.h.click(); out.push(shown());
ids.slider.value = String(@N@ - 1); ids.slider.h.input(); out.push(shown());
ids.next.h.click(); out.push(shown());
items[1].h.click(); out.push(shown());
document.kd({key: 'ArrowRight'}); out.push(shown());
console.log(JSON.stringify(out));
"""


def drive_page_script(text: str) -> list[list[int]] | None:
    """Run the page's script with node on a minimal stand-in DOM (a figure per frame, the
    controls) and press next, prev, the slider, a log line, an arrow key; ``None`` without
    node."""
    node = shutil.which("node")
    if node is None:
        return None
    script = re.search(r"<script>(.*)</script>", text, re.S)
    assert script is not None
    n = len(re.findall(r'<figure class="(?:frame|final)"', text))
    source = _DOM.replace("@N@", str(n)) + script.group(1) + _DRIVE.replace("@N@", str(n))
    proc = subprocess.run([node, "-e", source], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def decode_png(src: str) -> np.ndarray:
    from PIL import Image

    assert src.startswith("data:image/png;base64,")
    raw = base64.b64decode(src.split(",", 1)[1], validate=True)
    assert raw.startswith(b"\x89PNG\r\n\x1a\n")
    return np.asarray(Image.open(io.BytesIO(raw)).convert("RGB"))


@pytest.mark.parametrize("kind", ["tournament", "play"])
def test_html_page_is_valid_self_contained_with_one_frame_per_decision(records, kind, tmp_path):
    """Issue 16.3: "`replay RECORD --html game.html` writes one self-contained HTML page
    (pictures of every decision, the action log, a slider; no network needed to view it) from a
    tournament or `play` record"; 16.6: "the HTML page is valid and contains one frame per
    decision"."""
    path = records[kind]
    index = len(load_records(path)) - 1
    rec = load_records(path)[index]
    page = tmp_path / "game.html"
    proc = cli(
        "replay", str(path), "--game-index", str(index), "--html", str(page), "--no-progress"
    )
    assert f"wrote {page}: {len(rec.actions)} decisions" in proc.stdout
    assert proc.stderr == ""  # no progress bar, no warnings
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    check = PageCheck()
    check.feed(text)
    check.close()
    assert check.problems == [] and check.stack == []
    assert check.frames == [f"d{i + 1}" for i in range(len(rec.actions))]
    assert check.final == 1
    assert len(check.boards) == len(rec.actions) + 1  # a board per decision, then the end
    assert 1 <= len(check.images) <= len(rec.actions) + 1  # each image once (issue 40.15)
    assert check.log_items == len(rec.actions) + 1  # one log line per decision, then the end
    assert check.urls == [] and check.scripts_with_src == 0  # nothing fetched from anywhere
    assert "<link" not in text and "@import" not in text and "http" not in text
    assert check.slider.get("min") == "0" and check.slider.get("max") == str(len(rec.actions))
    assert {"prev", "next"} <= set(check.buttons)
    # the first frame is the opening board's picture, the last image the final board's
    game = make_game(rec.game, **rec.config)
    state = game.new_state(rec.state_seed)
    first = decode_png(check.images[0])  # the first image is the whole opening board
    assert first.shape == state.render_rgb(None).shape
    assert check.boards[0] == f"0 0 {first.shape[1]} {first.shape[0]}"
    names = []
    for a in rec.actions:
        names.append(f"{game.player_names[state.current_player]}: {state.action_name(a)}")
        state.apply(a)
    height, width = state.render_rgb(None).shape[:2]
    assert check.boards[-1] == f"0 0 {width} {height}"
    # the log names every decision, in order
    logged = re.findall(r"<li>(.*?)</li>", text)
    import html as html_lib

    assert [html_lib.unescape(x) for x in logged] == names
    # the slider and the buttons show one picture at a time (checked where node is installed)
    last = len(rec.actions)  # the final board's figure
    steps = drive_page_script(text)
    if steps is not None:
        assert steps == [[0], [2], [1], [last], [last], [1], [2]]


def test_html_needs_one_record_of_a_tournament(records, tmp_path):
    """A tournament folder holds several games: --html asks which (one line, exit 1)."""
    path = records["tournament"]
    n = len(load_records(path))
    assert n > 1
    proc = cli("replay", str(path), "--html", str(tmp_path / "x.html"), check=False)
    assert proc.returncode == 1
    assert proc.stderr == (
        f"boardgames-rl: error: {path} holds {n} records: pick one for --html with "
        f"--game-index 0..{n - 1}\n"
    )
    assert json.loads((path / "games.jsonl").read_text().splitlines()[0])["game"] == NINJA[0]


def test_html_to_a_path_that_cannot_be_written_fails_at_once(records, tmp_path):
    """Bad input gets a one-line error, before any picture is drawn."""
    for target in (tmp_path, tmp_path / "file.txt" / "game.html"):
        if target != tmp_path:
            (tmp_path / "file.txt").write_text("a file, not a folder")
        proc = cli("replay", str(records["play"]), "--html", str(target), check=False)
        assert proc.returncode == 1 and proc.stderr.count("\n") == 1
        assert proc.stderr.startswith(f"boardgames-rl: error: cannot write {target}")
        assert "decision" not in proc.stdout  # stopped before replaying
