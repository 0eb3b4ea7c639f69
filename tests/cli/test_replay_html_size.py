"""Issue 40.15: ``replay --html`` wrote a picture per decision (6.9 MB and 39 s for a 68-decision
game of The White Castle). The page now holds each image once and paints a frame from layers: a
key picture, then only what changed. These tests read the page as a browser would (the SVG
layers composed in order) and check that every frame shows its board, that the page holds no
more images than distinct pictures, that it stays small, and that its text stays escaped."""

from __future__ import annotations

import base64
import io
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.arena import replay
from boardgames_rl.arena.match import play_game
from boardgames_rl.cli.replay_html import Frame, page, png_bytes
from boardgames_rl.registry import make_game

pytest.importorskip("matplotlib")
from PIL import Image  # noqa: E402 - Pillow comes with matplotlib

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
SCRIPT_NAME = '<script>alert("owned")</script>'


class LayeredPage(HTMLParser):
    """The page's images and, per figure, the images it paints: ``<image>`` layers in an SVG
    store painted by ``<use>``, or (the old page) one ``<img>`` per figure."""

    def __init__(self) -> None:
        super().__init__()
        self.images: dict[str, tuple[int, int, bytes]] = {}
        self.boards: list[tuple[int, int, list[str]]] = []  # width, height, image ids in order
        self.scripts = 0
        self._in_board = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "image":
            href = a["href"] or ""
            assert href.startswith("data:image/png;base64,"), href[:40]
            raw = base64.b64decode(href.split(",", 1)[1], validate=True)
            self.images[a["id"] or ""] = (int(a["x"] or 0), int(a["y"] or 0), raw)
        if tag == "svg" and a.get("class") == "board":
            width, height = (int(v) for v in (a["viewbox"] or "").split()[2:])
            self.boards.append((width, height, []))
            self._in_board = True
        if tag == "use" and self._in_board:
            self.boards[-1][2].append((a["href"] or "").removeprefix("#"))
        if tag == "script":
            self.scripts += 1
        if tag == "img":  # a whole picture of its own
            src = a["src"] or ""
            assert src.startswith("data:image/png;base64,"), src[:40]
            raw = base64.b64decode(src.split(",", 1)[1], validate=True)
            key = f"img{len(self.images)}"
            self.images[key] = (0, 0, raw)
            self.boards.append((*Image.open(io.BytesIO(raw)).size, [key]))

    def handle_endtag(self, tag):
        if tag == "svg":
            self._in_board = False

    def compose(self) -> list[np.ndarray]:
        """Every board as a browser paints it: its images over each other, in order."""
        decoded = {
            k: (x, y, Image.open(io.BytesIO(raw)).convert("RGBA"))
            for k, (x, y, raw) in self.images.items()
        }
        out = []
        for width, height, uses in self.boards:
            canvas = Image.new("RGBA", (width, height))
            for k in uses:
                x, y, picture = decoded[k]
                canvas.alpha_composite(picture, (x, y))
            out.append(np.asarray(canvas.convert("RGB")))
        return out


def read_page(text: str) -> LayeredPage:
    parsed = LayeredPage()
    parsed.feed(text)
    parsed.close()
    return parsed


def same_partition(keys_a: list, keys_b: list) -> bool:
    """Whether two labellings group the same positions together."""
    n = len(keys_a)
    return all(
        (keys_a[i] == keys_a[j]) == (keys_b[i] == keys_b[j]) for i in range(n) for j in range(n)
    )


def test_layers_draw_every_picture_exactly_and_reuse_repeated_ones():
    """Flat pictures (fewer colours than the palette: composed exactly): repeated boards (A A B
    A), a board of another size, a small change, a large change."""
    rng = np.random.default_rng(7)
    colours = rng.integers(0, 256, size=(6, 3), dtype=np.uint8)

    def board(h: int, w: int, marks: list[tuple[int, int, int, int, int]]) -> np.ndarray:
        img = np.empty((h, w, 3), dtype=np.uint8)
        img[...] = colours[0]
        for y, x, dy, dx, c in marks:
            img[y : y + dy, x : x + dx] = colours[c]
        return img

    a = board(60, 90, [(5, 5, 10, 10, 1)])
    b = board(60, 90, [(5, 5, 10, 10, 1), (40, 70, 3, 5, 2)])
    c = board(60, 90, [(5, 5, 10, 10, 3), (40, 70, 3, 5, 2)])  # A's mark changes colour
    d = board(30, 50, [(1, 1, 4, 4, 4)])  # another size
    e = board(60, 90, [(0, 0, 50, 80, 5)])  # most of the board changes
    pictures = [a, a, b, a, c, d, e, b, e]
    text = page(
        SCRIPT_NAME,
        [SCRIPT_NAME],
        [Frame(png_bytes(p), f"move {i}") for i, p in enumerate(pictures[:-1])],
        Frame(png_bytes(pictures[-1]), "end"),
    )
    parsed = read_page(text)
    shown = parsed.compose()
    assert len(shown) == len(pictures)
    for i, (seen, wanted) in enumerate(zip(shown, pictures, strict=True)):
        assert np.array_equal(seen, wanted), i
    distinct = {p.tobytes() + repr(p.shape).encode() for p in pictures}
    assert len(parsed.images) <= len(distinct), (len(parsed.images), len(distinct))
    keys = [p.tobytes() + repr(p.shape).encode() for p in pictures]
    assert same_partition([tuple(u) for _, _, u in parsed.boards], keys)
    assert parsed.scripts == 1 and text.count("<script") == 1  # the title is text
    assert "&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;" in text


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A seeded 6-decision game of Castle Flutterstone whose agents are named like markup."""
    game = make_game("castle_flutterstone", max_turns=3)
    record = play_game(game, [make_agent("random", game), make_agent("random", game)], seed=0)
    record.agents = [SCRIPT_NAME, "a & b"]
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    path.write_text(record.to_json() + "\n", encoding="utf-8")
    return path


def test_replay_html_page_is_small_and_every_frame_shows_its_board(record_file, tmp_path):
    out = tmp_path / "game.html"
    proc = subprocess.run(
        [*CLI, "replay", str(record_file), "--html", str(out), "--no-progress", "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    parsed = read_page(text)

    # the boards the page must show: each decision's, then the final one (as png_bytes sizes them)
    from boardgames_rl.arena import load_records

    record = load_records(record_file)[0]
    game = make_game(record.game, **record.config)
    state = game.new_state(record.state_seed)
    renders = []

    def on_step(after, player, action):
        nonlocal state
        renders.append(state.render_rgb(None))
        state = after.clone()

    final = replay(record, on_step=on_step)
    renders.append(final.render_rgb(None))
    wanted = [np.asarray(Image.open(io.BytesIO(png_bytes(r))).convert("RGB")) for r in renders]
    assert len(wanted) == len(record.actions) + 1 == 7

    # one board per decision and the end; no more images than distinct pictures
    assert len(parsed.boards) == len(wanted)
    keys = [w.tobytes() for w in wanted]
    assert len(parsed.images) <= len(set(keys)), (len(parsed.images), len(set(keys)))
    assert same_partition([tuple(u) for _, _, u in parsed.boards], keys)
    # every frame shows its own board: up to the shared palette's rounding, and nearer to its
    # board than to the one before wherever the two differ
    shown = parsed.compose()
    for i, (seen, board) in enumerate(zip(shown, wanted, strict=True)):
        assert seen.shape == board.shape
        error = np.abs(seen.astype(int) - board)
        assert error.mean() < 4.0, (i, error.mean())
        if i and not np.array_equal(board, wanted[i - 1]):
            where = np.any(board != wanted[i - 1], axis=2)
            near = error[where].mean()
            assert near < np.abs(seen.astype(int) - wanted[i - 1])[where].mean(), i

    # the size: the old page held every board as a 256-colour PNG; consecutive boards share
    # most pixels (0.3-1.8% of them change per decision in the four games), so the page may
    # cost one such picture, then at most half of one per further board, plus 12 kB of text
    one = io.BytesIO()
    Image.fromarray(wanted[0]).quantize(256, method=Image.Quantize.MEDIANCUT).save(
        one, format="PNG", optimize=True
    )
    picture = len(one.getvalue()) * 4 / 3  # base64
    bound = 12_000 + picture * (1 + (len(wanted) - 1) / 2)
    size = len(text.encode())
    assert size < bound, f"the page is {size} bytes, more than {bound:.0f}"

    # the record's agent names are text, not markup
    assert parsed.scripts == 1 and text.count("<script") == 1
    assert "&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;" in text
    assert "a &amp; b" in text
    assert re.search(r"<title>[^<]*&lt;script&gt;", text)
