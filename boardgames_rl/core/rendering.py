"""Small rendering helpers shared by every game (matplotlib, headless, no pyplot state).

Figures are built with ``matplotlib.figure.Figure`` directly, so rendering never changes the
pyplot backend of a notebook or script that imports us.
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.extras import require


def new_figure(width: float, height: float, dpi: int = 100):
    """A pyplot-free matplotlib Figure with an Agg canvas attached (needs the ``[viz]`` extra)."""
    require("matplotlib", "rendering pictures (render_mode='rgb_array')")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


def figure_to_rgb(fig) -> np.ndarray:
    """Draw a matplotlib figure and return its pixels as ``uint8 [H, W, 3]``."""
    fig.canvas.draw()
    rgba = np.asarray(fig.canvas.buffer_rgba())
    return np.array(rgba[..., :3], dtype=np.uint8)


def text_to_rgb(text: str, font_size: int = 10) -> np.ndarray:
    """Render monospace text to an RGB image (the default ``render_rgb`` of every state)."""
    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines)
    fig = new_figure(
        max(2.0, 0.0087 * font_size * width + 0.3), 0.0175 * font_size * len(lines) + 0.3
    )
    fig.text(0.01, 0.99, text, family="monospace", fontsize=font_size, va="top", ha="left")
    return figure_to_rgb(fig)
