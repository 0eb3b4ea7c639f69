"""Issue 40.15: ``replay --html`` draws each distinct picture once, in parallel worker processes.

A repeated board is recognised by its figure (every artist and property, pickled) and copied
instead of drawn; ``--jobs N`` draws runs of decisions in N processes and the page is the same
bytes whatever N; Ctrl-C stops the workers."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.arena.match import play_game
from boardgames_rl.core.rendering import drawing_once, figure_key, figure_to_rgb, new_figure
from boardgames_rl.registry import list_games, make_game

pytest.importorskip("matplotlib")

CLI = [sys.executable, "-m", "boardgames_rl.cli"]


def _figure(text: str = "a board", colour: str = "#223344", x: float = 0.1):
    fig = new_figure(2.0, 1.0, dpi=50)
    fig.text(x, 0.5, text, color=colour, size=9)
    return fig


def test_equal_figures_share_a_key_and_any_difference_changes_it():
    assert figure_key(_figure()) == figure_key(_figure())
    key = figure_key(_figure())
    assert figure_key(_figure(text="a boarc")) != key  # one letter
    assert figure_key(_figure(colour="#223345")) != key  # one step of one colour channel
    assert figure_key(_figure(x=0.1000001)) != key  # a position


@pytest.mark.parametrize("name", list_games())
def test_a_repeated_board_is_drawn_once_and_every_picture_is_the_one_drawn_alone(name):
    game = make_game(name)
    state = game.new_state(3)
    rng = np.random.default_rng(3)
    states = [state.clone()]
    for _ in range(3):
        state.apply(int(rng.choice(state.legal_actions())))
        states.append(state.clone())
    order = [0, 1, 0, 2, 2, 3, 1]  # repeats near and far
    alone = [states[i].render_rgb(0) for i in order]
    with drawing_once() as cache:
        once = [states[i].render_rgb(0) for i in order]
    for a, b in zip(alone, once, strict=True):
        assert np.array_equal(a, b)
    distinct_boards = len({a.tobytes() for a in alone})
    assert cache.reused >= len(order) - 4  # the three repeats of a state at least
    assert cache.drawn <= 4 and cache.drawn >= distinct_boards
    assert cache.drawn + cache.reused == len(order)


def test_a_figure_that_cannot_be_pickled_is_drawn_every_time():
    with drawing_once() as cache:
        for _ in range(2):
            fig = _figure()
            fig.texts[0].unpicklable = lambda: None  # type: ignore[attr-defined]
            figure_to_rgb(fig)
    assert (cache.drawn, cache.reused) == (2, 0)
    with drawing_once() as cache:  # outside the block nothing is remembered
        figure_to_rgb(_figure())
    figure_to_rgb(_figure())
    assert (cache.drawn, cache.reused) == (1, 0)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A seeded game of Castle Flutterstone long enough to be drawn by worker processes."""
    game = make_game("castle_flutterstone", max_turns=14)
    record = play_game(game, [make_agent("random", game), make_agent("random", game)], seed=4)
    assert len(record.actions) >= 24  # MIN_PARALLEL pictures: the workers draw them
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    path.write_text(record.to_json() + "\n", encoding="utf-8")
    return path


def _replay(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, "replay", *args], capture_output=True, text=True, timeout=timeout)


def test_pages_drawn_by_two_processes_and_by_one_are_the_same_bytes(record_file, tmp_path):
    pages = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.html"
        proc = _replay(
            str(record_file), "--html", str(out), "--quiet", "--no-progress", "--jobs", jobs
        )
        assert proc.returncode == 0, proc.stderr
        pages[jobs] = out.read_bytes()
    assert pages["1"] == pages["2"]
    assert pages["1"].count(b"<figure") >= 25


def test_jobs_without_html_is_refused_in_one_line(record_file):
    proc = _replay(str(record_file), "--jobs", "2")
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "--html" in proc.stderr
    proc = _replay(str(record_file), "--html", "x.html", "--jobs", "0")
    assert proc.returncode == 2 and "--jobs" in proc.stderr


def _children(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return {int(p) for p in out.stdout.split()}


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped by whoever adopted it, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _default_sigint() -> None:
    """A child of a pytest-xdist worker inherits SIGINT ignored (execnet ignores it), and Python
    then installs no KeyboardInterrupt handler: give the replay the terminal's default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_stops_the_drawing_workers(tmp_path):
    game = make_game("night_of_the_ninja", num_players=8)
    record = play_game(game, [make_agent("random", game) for _ in range(8)], seed=1)
    assert len(record.actions) >= 150  # a minute of drawing or more: Ctrl-C lands mid-way
    path = tmp_path / "long.jsonl"
    path.write_text(record.to_json() + "\n", encoding="utf-8")
    out = tmp_path / "page.html"
    proc = subprocess.Popen(
        [*CLI, "replay", str(path), "--html", str(out), "--quiet", "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
        workers |= _children(proc.pid)
        time.sleep(0.1)
    assert len(workers) >= 2, "the workers never started"
    time.sleep(0.5)
    assert proc.poll() is None, "the page was done before Ctrl-C"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not out.exists()
    time.sleep(0.5)
    alive = [p for p in workers if _running(p)]
    assert not alive, f"workers still running: {alive}"
