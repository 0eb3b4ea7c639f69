"""One self-contained HTML page of a replayed game: a picture per decision, the action log, a
slider and prev/next buttons.

Every picture is the game's ``rgb_array`` render (:meth:`~boardgames_rl.core.game.State.
render_rgb`) of the state *at* a decision, scaled down to fit :data:`MAX_SIDE` pixels. The page
holds exactly one ``<figure class="frame">`` per decision (the board the decider saw and the
action it chose) and one ``<figure class="final">`` (the board at the end); its style and script
are inline and its images are ``data:`` URIs, so it opens without a network.

Consecutive boards differ in a small area (a few per cent of the pixels), so the page does not
hold a picture per decision. It holds *layers*: a full picture (a key), then for each decision
whose board changed only the pixels that changed (and a margin around them, so that a browser
scaling the board blurs no layer's edge into the one below), cut to their bounding box, the rest
transparent. Each image is stored once, in an SVG ``<defs>``; a frame is an inline ``<svg>``
that paints, with ``<use>``, its key and the layers drawn since that still show. A board seen
before (the same picture again) reuses that frame's layers: the page holds no more images than
distinct pictures. Every image is a PNG of its own palette: exact when it shows at most 255
colours (nearly every layer: boards are flat drawings), else its median-cut 256 (a key picture
with much anti-aliasing), as the pages always were. A 68-decision game of The White Castle is
about 0.6 MB instead of 6.9 MB.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

MAX_SIDE = 1280
"""Largest width and height of a picture on the page, in pixels: a bigger render is scaled
down to fit (The White Castle's 1920 x 1036 board becomes 1280 x 691, its finest print still
legible at full size; a 1200-pixel-wide window shows the board about 830 pixels wide next to the
log)."""
BLOCK = 4
"""A layer covers the changed pixels in blocks of ``BLOCK`` x ``BLOCK`` (fewer stray specks)."""
MARGIN = 2
"""Blocks around the changed ones that a layer covers too (with the same pixels as below): a
browser scales each layer on its own, blurring its edges into what lies beneath, so an edge must
lie where the pictures agree (8 pixels: clean down to about a fifth of the size)."""
MAX_LAYERS = 64
"""Most images one frame paints; a frame that would need more is stored as a new key."""


@dataclass(frozen=True)
class Frame:
    """One decision: the picture of the board (PNG bytes, as :func:`png_bytes` makes them),
    who decided and what (a line of the log)."""

    png: bytes
    caption: str


def _fit(picture: Any) -> Any:
    """``picture`` (a PIL image) scaled down to fit ``MAX_SIDE`` x ``MAX_SIDE``, if bigger."""
    from PIL import Image

    scale = MAX_SIDE / max(picture.width, picture.height)
    if scale >= 1:
        return picture
    size = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
    return picture.resize(size, Image.Resampling.LANCZOS)


def png_bytes(image: np.ndarray) -> bytes:
    """A ``(H, W, 3)`` or ``(H, W, 4)`` uint8 image as lossless PNG bytes, scaled down to fit
    :data:`MAX_SIDE` (quickly: :func:`page` makes the page's layers once, from every picture).
    Pillow comes with matplotlib, which draws the pictures."""
    from PIL import Image

    rgb = np.ascontiguousarray(np.asarray(image)[..., :3]).astype(np.uint8)
    picture = _fit(Image.fromarray(rgb, "RGB"))
    buf = io.BytesIO()
    picture.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def _decode(png: bytes) -> Any:
    from PIL import Image

    return _fit(Image.open(io.BytesIO(png)).convert("RGB"))


@dataclass(frozen=True)
class Layer:
    """One image of the page: ``png`` drawn at ``(x, y)`` of the board; a key covers the whole
    board, any other layer the box of the pixels that changed (opaque on them and a margin of
    :data:`MARGIN` blocks around them, transparent elsewhere)."""

    x: int
    y: int
    width: int
    height: int
    png: bytes
    mask: np.ndarray | None = field(default=None, repr=False, compare=False)
    """Where the layer is opaque (``None``: everywhere)."""


@dataclass
class Pictures:
    """The page's images and, for each picture, the layers that draw it (bottom first)."""

    layers: list[Layer]
    frames: list[tuple[int, ...]]
    """Per picture: the indices in :attr:`layers` it paints, in order."""
    sizes: list[tuple[int, int]]
    """``(width, height)`` of each picture."""


def _encode(rgb: np.ndarray, mask: np.ndarray | None = None) -> bytes:
    """The pixels ``rgb`` (``(h, w, 3)`` uint8) as a palette PNG, transparent outside ``mask``
    (``None``: opaque): exact when they hold at most 255 colours, else median-cut to 256."""
    from PIL import Image

    h, w, _ = rgb.shape
    packed = (rgb[..., 0].astype(np.uint32) << 16) | (rgb[..., 1].astype(np.uint32) << 8)
    packed |= rgb[..., 2]
    shown = packed if mask is None else packed[mask]
    colours, inverse = np.unique(shown, return_inverse=True)
    options: dict[str, Any] = {}
    if len(colours) <= 255:
        palette = np.stack([colours >> 16, (colours >> 8) & 255, colours & 255], axis=1)
        if mask is None:
            indices = inverse.reshape(h, w).astype(np.uint8)
        else:
            indices = np.full((h, w), len(colours), dtype=np.uint8)
            indices[mask] = inverse.astype(np.uint8)
            palette = np.vstack([palette, np.zeros((1, 3), dtype=np.uint32)])
            options["transparency"] = len(colours)
        picture = Image.fromarray(indices, "P")
        picture.putpalette(palette.astype(np.uint8).ravel().tolist())
    else:  # many colours (anti-aliasing): the median cut, as every picture once was
        if mask is not None:  # the hidden pixels take a shown colour, then turn transparent
            rgb = np.where(mask[..., None], rgb, rgb[mask][0])
        picture = Image.fromarray(np.ascontiguousarray(rgb), "RGB").quantize(
            255 if mask is not None else 256, method=Image.Quantize.MEDIANCUT
        )
        if mask is not None:
            indices = np.asarray(picture).copy()
            indices[~mask] = 255
            flat = (picture.getpalette() or [])[: 3 * 255]
            picture = Image.fromarray(indices, "P")
            picture.putpalette(flat + [0] * (3 * 256 - len(flat)))
            options["transparency"] = 255
    buf = io.BytesIO()
    picture.save(buf, format="PNG", compress_level=9, **options)
    return buf.getvalue()


def _changed_blocks(rgb: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """Per ``BLOCK`` x ``BLOCK`` block of the picture: whether it or one of the ``MARGIN``
    blocks around it holds a changed pixel."""
    diff = rgb != previous
    changed = diff[..., 0] | diff[..., 1] | diff[..., 2]
    h, w = changed.shape
    padded = np.zeros((-(-h // BLOCK) * BLOCK, -(-w // BLOCK) * BLOCK), dtype=bool)
    padded[:h, :w] = changed
    rows = np.logical_or.reduce([padded[k::BLOCK] for k in range(BLOCK)])
    blocks = np.logical_or.reduce([rows[:, k::BLOCK] for k in range(BLOCK)])
    r, c = blocks.shape
    grown = np.zeros((r + 2 * MARGIN, c + 2 * MARGIN), dtype=bool)
    for dy in range(2 * MARGIN + 1):
        for dx in range(2 * MARGIN + 1):
            grown[dy : dy + r, dx : dx + c] |= blocks
    return grown[MARGIN : MARGIN + r, MARGIN : MARGIN + c]


class _Layering:
    """The layers made so far, and which layer shows at every pixel of the current picture."""

    def __init__(self) -> None:
        self.layers: list[Layer] = []
        self.owner = np.zeros((0, 0), dtype=np.int64)  # per pixel: the layer showing there
        self.counts = np.zeros(0, dtype=np.int64)  # per layer: the pixels where it shows

    def _recount(self) -> tuple[int, ...]:
        self.counts = np.bincount(self.owner.ravel(), minlength=len(self.layers))
        return tuple(int(i) for i in np.flatnonzero(self.counts))

    def key(self, rgb: np.ndarray) -> tuple[int, ...]:
        """A new key: the whole picture."""
        h, w = rgb.shape[:2]
        self.layers.append(Layer(0, 0, w, h, _encode(rgb)))
        self.owner = np.full((h, w), len(self.layers) - 1, dtype=np.int64)
        return self._recount()

    def restore(self, frame: tuple[int, ...], shape: tuple[int, int]) -> None:
        """Go back to an earlier picture drawn by the layers ``frame``."""
        self.owner = np.zeros(shape, dtype=np.int64)
        for i in frame:
            part = self.layers[i]
            box = self.owner[part.y : part.y + part.height, part.x : part.x + part.width]
            box[...] = i if part.mask is None else np.where(part.mask, i, box)
        self._recount()

    def patch(self, rgb: np.ndarray, blocks: np.ndarray) -> tuple[int, ...]:
        """The layers of the next picture: those before, plus what changed (``blocks``)."""
        h, w = rgb.shape[:2]
        ys, xs = np.nonzero(blocks)
        y0, y1 = int(ys.min()) * BLOCK, min(h, (int(ys.max()) + 1) * BLOCK)
        x0, x1 = int(xs.min()) * BLOCK, min(w, (int(xs.max()) + 1) * BLOCK)
        box_blocks = blocks[y0 // BLOCK : -(-y1 // BLOCK), x0 // BLOCK : -(-x1 // BLOCK)]
        mask = np.repeat(np.repeat(box_blocks, BLOCK, 0), BLOCK, 1)[: y1 - y0, : x1 - x0]
        box = self.owner[y0:y1, x0:x1]
        counts = self.counts - np.bincount(box[mask], minlength=len(self.counts))
        if np.count_nonzero(counts) + 1 > MAX_LAYERS or blocks.mean() > 0.5:
            return self.key(rgb)
        part = _encode(rgb[y0:y1, x0:x1], mask)
        self.layers.append(Layer(x0, y0, x1 - x0, y1 - y0, part, mask))
        box[mask] = len(self.layers) - 1
        self.counts = np.append(counts, int(mask.sum()))
        return tuple(int(i) for i in np.flatnonzero(self.counts))


def layer_pictures(pngs: Sequence[bytes]) -> Pictures:
    """The layers of a game's pictures (PNG bytes, in order; see the module doc).

    Each picture is a key (the first, one of another size, one that changed in more than half
    its pixels, or one that would paint more than :data:`MAX_LAYERS` images) or the layers
    of the picture before it plus one layer of what changed; layers wholly painted over are
    dropped from a frame. A picture equal to an earlier one reuses its layers."""
    layering = _Layering()
    frames: list[tuple[int, ...]] = []
    sizes: list[tuple[int, int]] = []
    seen: dict[bytes, tuple[int, ...]] = {}  # picture digest -> its layers
    previous: np.ndarray | None = None  # the RGB pixels of the picture before
    for png in pngs:
        picture = _decode(png)
        rgb = np.asarray(picture)
        sizes.append((picture.width, picture.height))
        digest = hashlib.sha256(repr(rgb.shape).encode() + rgb.tobytes()).digest()
        if digest in seen:  # the same board again: its layers
            frames.append(seen[digest])
            if previous is None or not np.array_equal(rgb, previous):
                layering.restore(seen[digest], rgb.shape[:2])
            previous = rgb
            continue
        if previous is None or previous.shape != rgb.shape:
            frame = layering.key(rgb)
        else:
            frame = layering.patch(rgb, _changed_blocks(rgb, previous))
        frames.append(frame)
        seen[digest] = frame
        previous = rgb
    return Pictures(layering.layers, frames, sizes)


_STYLE = """
body { font-family: sans-serif; margin: 1em; color: #222; background: #fafafa; }
h1 { font-size: 1.3em; margin: 0 0 .3em 0; }
.meta { color: #555; margin-bottom: .6em; }
.controls { position: sticky; top: 0; background: #fafafa; padding: .4em 0; z-index: 1; }
.controls input[type=range] { width: 60%; vertical-align: middle; }
.controls button { font-size: 1em; padding: .2em .8em; }
.layout { display: flex; gap: 1em; align-items: flex-start; }
.frames { flex: 1 1 auto; min-width: 0; }
figure { margin: 0 0 1em 0; }
svg.board { display: block; max-width: 100%; height: auto; border: 1px solid #ccc;
            background: #fff; }
svg.store { position: absolute; width: 0; height: 0; overflow: hidden; }
figcaption { font-family: monospace; margin-top: .3em; }
.log { flex: 0 0 28em; max-height: 85vh; overflow-y: auto; font-family: monospace;
       font-size: .85em; border: 1px solid #ccc; background: #fff; }
.log ol { margin: 0; padding-left: 3.5em; }
.log li { cursor: pointer; padding: 0 .3em; }
.log li.current { background: #ffe9a8; }
.js .frames figure { display: none; }
.js .frames figure.shown { display: block; }
"""

_SCRIPT = """
(function () {
  document.body.classList.add('js');
  var figs = Array.prototype.slice.call(document.querySelectorAll('.frames figure'));
  var items = Array.prototype.slice.call(document.querySelectorAll('.log li'));
  var slider = document.getElementById('slider');
  var label = document.getElementById('position');
  function show(k) {
    k = Math.max(0, Math.min(figs.length - 1, k));
    figs.forEach(function (f, i) { f.classList.toggle('shown', i === k); });
    items.forEach(function (li, i) { li.classList.toggle('current', i === k); });
    if (items[k]) { items[k].scrollIntoView({block: 'nearest'}); }
    slider.value = k;
    label.textContent = figs[k].getAttribute('data-label');
  }
  slider.addEventListener('input', function () { show(parseInt(slider.value, 10)); });
  document.getElementById('prev').addEventListener('click', function () {
    show(parseInt(slider.value, 10) - 1); });
  document.getElementById('next').addEventListener('click', function () {
    show(parseInt(slider.value, 10) + 1); });
  items.forEach(function (li, i) { li.addEventListener('click', function () { show(i); }); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(parseInt(slider.value, 10) - 1); }
    if (e.key === 'ArrowRight') { show(parseInt(slider.value, 10) + 1); }
  });
  show(0);
})();
"""


def _store(pictures: Pictures) -> str:
    """Every image once, in an SVG that takes no room; frames paint them with ``<use>``."""
    images = []
    for i, layer in enumerate(pictures.layers):
        data = base64.b64encode(layer.png).decode("ascii")
        images.append(
            f'<image id="L{i}" x="{layer.x}" y="{layer.y}" width="{layer.width}" '
            f'height="{layer.height}" href="data:image/png;base64,{data}"/>'
        )
    return '<svg class="store" aria-hidden="true"><defs>\n' + "\n".join(images) + "\n</defs></svg>"


def _board(pictures: Pictures, k: int, alt: str) -> str:
    """Picture ``k`` as an inline SVG painting its layers."""
    width, height = pictures.sizes[k]
    uses = "".join(f'<use href="#L{i}"/>' for i in pictures.frames[k])
    return (
        f'<svg class="board" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{html.escape(alt)}">{uses}</svg>'
    )


def page(title: str, meta: Sequence[str], frames: Sequence[Frame], final: Frame) -> str:
    """The HTML text: ``frames`` (one per decision, in order) then the ``final`` board; every
    text is escaped, the pictures are layered (see the module doc)."""
    n = len(frames)
    pictures = layer_pictures([f.png for f in frames] + [final.png])
    figures = []
    log = []
    for i, frame in enumerate(frames):
        label = f"decision {i + 1} of {n}"
        figures.append(
            f'<figure class="frame" id="d{i + 1}" data-label="{label}">'
            f"{_board(pictures, i, label)}"
            f"<figcaption>{label}: {html.escape(frame.caption)}</figcaption></figure>"
        )
        log.append(f"<li>{html.escape(frame.caption)}</li>")
    figures.append(
        f'<figure class="final" id="end" data-label="end of the game">'
        f"{_board(pictures, n, 'end of the game')}"
        f"<figcaption>end of the game: {html.escape(final.caption)}</figcaption></figure>"
    )
    log.append(f'<li class="end">end: {html.escape(final.caption)}</li>')
    meta_html = "<br>".join(html.escape(m) for m in meta)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"{_store(pictures)}\n"
        f"<h1>{html.escape(title)}</h1>\n"
        f'<div class="meta">{meta_html}</div>\n'
        '<div class="controls">'
        '<button type="button" id="prev">&larr; prev</button> '
        f'<input type="range" id="slider" min="0" max="{n}" value="0" step="1" '
        'aria-label="decision"> '
        '<button type="button" id="next">next &rarr;</button> '
        '<span id="position"></span></div>\n'
        '<div class="layout">\n'
        f'<div class="frames">\n{chr(10).join(figures)}\n</div>\n'
        f'<div class="log"><ol>\n{chr(10).join(log)}\n</ol></div>\n'
        "</div>\n"
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )
