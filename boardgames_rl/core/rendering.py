"""Small rendering helpers shared by every game (matplotlib, headless)."""

from __future__ import annotations

import numpy as np


def figure_to_rgb(fig) -> np.ndarray:
    """Draw a matplotlib figure and return its pixels as ``uint8 [H, W, 3]``; closes the figure."""
    import matplotlib.pyplot as plt

    fig.canvas.draw()
    rgba = np.asarray(fig.canvas.buffer_rgba())
    img = np.array(rgba[..., :3], dtype=np.uint8)
    plt.close(fig)
    return img


def text_to_rgb(text: str, font_size: int = 10) -> np.ndarray:
    """Render monospace text to an RGB image (the default ``render_rgb`` of every state)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines)
    fig = plt.figure(figsize=(max(2.0, 0.085 * font_size * width / 1.4), 0.18 * font_size * len(lines) / 1.2 + 0.3), dpi=100)
    fig.text(0.01, 0.99, text, family="monospace", fontsize=font_size, va="top", ha="left")
    return figure_to_rgb(fig)
