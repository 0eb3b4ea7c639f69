"""Progress bars for long work (tournaments, series, training, benchmarks), one policy for all.

A bar is drawn with tqdm (the ``[train]`` extra) on standard error only when it is a terminal:
redirected to a file or a pipe (a log, CI), nothing is drawn, so logs hold no ``\\r`` lines.
``enabled=False`` (the CLI's ``--no-progress``) turns it off everywhere; so does the environment
variable ``BOARDGAMES_RL_NO_PROGRESS=1``. Without tqdm installed the work runs without a bar.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from boardgames_rl._util.extras import has_module


def bars_enabled(enabled: bool = True) -> bool:
    """Whether a bar is drawn: asked for, not switched off by the environment, a terminal."""
    if not enabled or os.environ.get("BOARDGAMES_RL_NO_PROGRESS", "") not in ("", "0"):
        return False
    return bool(getattr(sys.stderr, "isatty", lambda: False)()) and has_module("tqdm")


class _NoBar:
    """Stands in for a tqdm bar when none is drawn (same methods, no output)."""

    def __init__(self, total: int | None = None, initial: int = 0):
        self.total = total
        self.n = initial

    def update(self, k: int = 1) -> None:
        self.n += k

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        pass

    def set_description(self, desc: str = "", refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def progress_bar(
    total: int | None = None, desc: str = "", unit: str = "it", initial: int = 0,
    enabled: bool = True,
) -> Any:  # fmt: skip
    """A tqdm bar (or a silent stand-in) with ``update``, ``n``, ``close``."""
    if not bars_enabled(enabled):
        return _NoBar(total, initial)
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=unit, initial=initial, file=sys.stderr)


def progress_iter(
    iterable: Iterable[Any], total: int | None = None, desc: str = "", unit: str = "it",
    enabled: bool = True,
) -> Iterator[Any]:  # fmt: skip
    """``iterable`` wrapped in a bar when bars are enabled (see :func:`bars_enabled`)."""
    if not bars_enabled(enabled):
        yield from iterable
        return
    from tqdm.auto import tqdm

    yield from tqdm(iterable, total=total, desc=desc, unit=unit, file=sys.stderr)
