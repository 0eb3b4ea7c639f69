"""One self-contained HTML page of a replayed game: a picture per decision, the action log, a
slider and prev/next buttons.

Every picture is the game's ``rgb_array`` render (:meth:`~boardgames_rl.core.game.State.
render_rgb`) of the state *at* a decision, PNG-encoded and embedded as a ``data:`` URI; the
page's style and script are inline, so it opens without a network. The page holds exactly one
``<figure class="frame">`` per decision (the board the decider saw and the action it chose) and
one ``<figure class="final">`` (the board at the end).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Frame:
    """One decision: the picture of the board, who decided and what (a line of the log)."""

    png: bytes
    caption: str


def png_bytes(image: np.ndarray) -> bytes:
    """A ``(H, W, 3)`` or ``(H, W, 4)`` uint8 image as PNG bytes, reduced to 256 colours (the
    boards are flat drawings: the page is about 3 times smaller and looks the same). Pillow
    comes with matplotlib, which draws the pictures."""
    from PIL import Image

    picture = Image.fromarray(np.ascontiguousarray(image[..., :3]).astype(np.uint8), "RGB")
    buf = io.BytesIO()
    picture.quantize(256, method=Image.Quantize.MEDIANCUT).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


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
figure img { max-width: 100%; height: auto; border: 1px solid #ccc; background: #fff; }
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


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'


def page(title: str, meta: Sequence[str], frames: Sequence[Frame], final: Frame) -> str:
    """The HTML text: ``frames`` (one per decision, in order) then the ``final`` board."""
    n = len(frames)
    figures = []
    log = []
    for i, frame in enumerate(frames):
        label = f"decision {i + 1} of {n}"
        figures.append(
            f'<figure class="frame" id="d{i + 1}" data-label="{label}">'
            f"{_img(frame.png, label)}"
            f"<figcaption>{label}: {html.escape(frame.caption)}</figcaption></figure>"
        )
        log.append(f"<li>{html.escape(frame.caption)}</li>")
    figures.append(
        f'<figure class="final" id="end" data-label="end of the game">'
        f"{_img(final.png, 'end of the game')}"
        f"<figcaption>end of the game: {html.escape(final.caption)}</figcaption></figure>"
    )
    log.append(f'<li class="end">end: {html.escape(final.caption)}</li>')
    meta_html = "<br>".join(html.escape(m) for m in meta)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
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
