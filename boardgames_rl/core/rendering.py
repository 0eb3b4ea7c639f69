"""Small rendering helpers shared by every game (matplotlib, headless, no pyplot state).

Figures are built with ``matplotlib.figure.Figure`` directly, so rendering never changes the
pyplot backend of a notebook or script that imports us.

Drawing a figure (laying out and rasterising its text) is most of a picture's cost. Inside
``with drawing_once():`` a figure whose content equals one drawn before is not drawn again: its
pixels are taken from the earlier drawing. Two figures are the same when their whole artist
tree pickles to the same bytes (:func:`figure_key`), so a repeat is recognised exactly, for every
game, without the game saying which of its parts the picture shows.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import io
import pickle
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from boardgames_rl._util.extras import require


def new_figure(width: float, height: float, dpi: int = 100):
    """A pyplot-free matplotlib Figure with an Agg canvas attached (needs the ``[viz]`` extra)."""
    require("matplotlib", "rendering pictures (render_mode='rgb_array')")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


class PictureCache:
    """Pixels of the figures drawn so far, by :func:`figure_key` (kept zlib-compressed: a board
    of 1920 x 1036 pixels takes about 100 kB instead of 6 MB)."""

    def __init__(self) -> None:
        self._pixels: dict[bytes, tuple[tuple[int, ...], bytes]] = {}
        self.drawn = 0
        """Figures drawn."""
        self.reused = 0
        """Figures not drawn because an equal one was."""

    def get(self, key: bytes) -> np.ndarray | None:
        found = self._pixels.get(key)
        if found is None:
            return None
        shape, packed = found
        return np.frombuffer(zlib.decompress(packed), dtype=np.uint8).reshape(shape).copy()

    def put(self, key: bytes, rgb: np.ndarray) -> None:
        self._pixels[key] = (rgb.shape, zlib.compress(rgb.tobytes(), 1))


_ACTIVE: contextvars.ContextVar[PictureCache | None] = contextvars.ContextVar(
    "boardgames_rl_picture_cache", default=None
)


@contextlib.contextmanager
def drawing_once(cache: PictureCache | None = None) -> Iterator[PictureCache]:
    """Within the block, :func:`figure_to_rgb` draws each distinct figure once (into ``cache``, a
    new one by default, which the block yields) and returns a copy of its pixels for a repeat."""
    cache = PictureCache() if cache is None else cache
    token = _ACTIVE.set(cache)
    try:
        yield cache
    finally:
        _ACTIVE.reset(token)


class _KeyPickler(pickle.Pickler):
    """Pickles a figure for its key: a transform's ``_parents`` (weak links back to the
    transforms that depend on it, keyed by ``id``: bookkeeping for invalidation that does not
    change what is drawn) is left out, so equal figures give equal bytes."""

    def reducer_override(self, obj: Any) -> Any:
        from matplotlib.transforms import TransformNode

        if isinstance(obj, TransformNode):
            state = dict(vars(obj))
            state.pop("_parents", None)
            return (type(obj), (), state)
        return NotImplemented


def figure_key(fig: Any) -> bytes | None:
    """A digest of everything ``fig`` will draw (its size, resolution and every artist with its
    properties), or ``None`` if the figure cannot be pickled (then it is always drawn)."""
    buf = io.BytesIO()
    try:
        _KeyPickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(fig)
    except Exception:  # an artist holding something unpicklable: no key, draw it
        return None
    return hashlib.sha256(buf.getvalue()).digest()


def _draw(fig: Any) -> np.ndarray:
    fig.canvas.draw()
    rgba = np.asarray(fig.canvas.buffer_rgba())
    return np.array(rgba[..., :3], dtype=np.uint8)


def figure_to_rgb(fig: Any) -> np.ndarray:
    """Draw a matplotlib figure and return its pixels as ``uint8 [H, W, 3]`` (inside
    :func:`drawing_once`, a figure equal to one drawn before is not drawn again)."""
    cache = _ACTIVE.get()
    if cache is None:
        return _draw(fig)
    key = figure_key(fig)
    if key is not None:
        found = cache.get(key)
        if found is not None:
            cache.reused += 1
            return found
    rgb = _draw(fig)
    cache.drawn += 1
    if key is not None:
        cache.put(key, rgb)
    return rgb


def text_to_rgb(text: str, font_size: int = 10) -> np.ndarray:
    """Render monospace text to an RGB image (the default ``render_rgb`` of every state)."""
    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines)
    fig = new_figure(
        max(2.0, 0.0087 * font_size * width + 0.3), 0.0175 * font_size * len(lines) + 0.3
    )
    fig.text(0.01, 0.99, text, family="monospace", fontsize=font_size, va="top", ha="left")
    return figure_to_rgb(fig)
