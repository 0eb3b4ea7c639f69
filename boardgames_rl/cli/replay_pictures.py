"""The pictures of a replayed game, for ``replay --html``: one per decision and one of the end.

A picture is the game's ``rgb_array`` render of the state *at* a decision (before its action),
from the chosen seat's view (or omniscient), as PNG bytes sized for the page
(:func:`~boardgames_rl.cli.replay_html.png_bytes`). Drawing is nearly all of the time of a page,
so it is shared:

- **Each distinct picture is drawn once** (:func:`~boardgames_rl.core.rendering.drawing_once`):
  a board that looks as it did before (in Night of the Ninja, a seat's view often does not change
  while others act) is copied, not drawn again.
- **Worker processes draw in parallel** (``jobs``): each replays the record from its seed and
  draws a run of consecutive decisions; a worker draws a picture it has drawn before only once,
  however many of its runs show it. The pictures are the same bytes whatever the number of jobs.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from boardgames_rl.core.rendering import PictureCache, drawing_once

MAX_JOBS = 4
"""Most worker processes ``replay --html`` starts by default."""
MIN_PARALLEL = 24
"""Fewer pictures than this are drawn in this process: starting a worker (importing matplotlib
and the games) costs about as much as drawing a few pictures."""

RUN = 8
"""Most consecutive pictures one worker task draws (Ctrl-C waits for the runs under way)."""

_WORKER_CACHE: PictureCache | None = None
"""The pictures a worker process has drawn, over all of its runs."""


def default_jobs() -> int:
    """The cores this process may run on, at most :data:`MAX_JOBS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_JOBS, cores))


def draw_run(
    record_json: str, seat: int | None, start: int, stop: int, cache: PictureCache | None = None
) -> list[bytes]:
    """PNG bytes of pictures ``start..stop-1`` of a record (picture ``i < n``: the board at
    decision ``i``; picture ``n``: the end), a picture in ``cache`` (default: the worker
    process's) not drawn again."""
    from boardgames_rl.arena import replay
    from boardgames_rl.arena.records import GameRecord
    from boardgames_rl.cli.replay_html import png_bytes
    from boardgames_rl.registry import make_game

    global _WORKER_CACHE
    if cache is None:
        if _WORKER_CACHE is None:
            _WORKER_CACHE = PictureCache()
        cache = _WORKER_CACHE
    record = GameRecord.from_json(record_json)
    game = make_game(record.game, **record.config)
    before = game.new_state(record.state_seed)
    pictures: list[bytes] = []
    index = 0

    with drawing_once(cache):

        def on_step(state: Any, player: int, action: int) -> None:
            nonlocal before, index
            if start <= index < stop:
                pictures.append(png_bytes(before.render_rgb(seat)))
            index += 1
            if index < stop:
                before = state.clone()

        final = replay(record, on_step=on_step)
        if start <= index < stop:  # index is now n: the end
            pictures.append(png_bytes(final.render_rgb(seat)))
    return pictures


def _draw_task(run: tuple[str, int | None, int, int]) -> tuple[int, list[bytes]]:
    return run[2], draw_run(*run)


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle: it cancels the runs not yet started."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def draw_pictures(
    record: Any,
    seat: int | None,
    jobs: int,
    done: Callable[[int], None] = lambda k: None,
) -> list[bytes]:
    """The ``n + 1`` pictures of ``record`` (its ``n`` decisions, then the end), drawn by
    ``jobs`` processes (1: in this one); ``done(k)`` is called as ``k`` more are ready."""
    count = len(record.actions) + 1
    text = record.to_json()
    if jobs <= 1 or count < MIN_PARALLEL:
        pictures: list[bytes] = []
        cache = PictureCache()
        for start in range(0, count, RUN):  # in runs, so that the progress moves
            pictures += draw_run(text, seat, start, min(count, start + RUN), cache)
            done(len(pictures) - start)
        return pictures

    from multiprocessing import get_context

    from boardgames_rl.envs.workers import without_main_script

    size = min(RUN, max(1, -(-count // (jobs * 4))))  # at least four runs per worker
    runs = [(text, seat, start, min(count, start + size)) for start in range(0, count, size)]
    results: dict[int, list[bytes]] = {}
    pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"), initializer=_quiet_worker)
    try:
        with without_main_script():  # the workers start at the first submissions
            futures = [pool.submit(_draw_task, run) for run in runs]
        for future in as_completed(futures):
            start, drawn = future.result()
            results[start] = drawn
            done(len(drawn))
    finally:  # on an error or Ctrl-C the runs not started are dropped; none is longer than RUN
        pool.shutdown(wait=True, cancel_futures=True)
    return [picture for _, _, start, _ in runs for picture in results[start]]
