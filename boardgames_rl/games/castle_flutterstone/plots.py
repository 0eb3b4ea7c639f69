"""Heatmaps of the Castle Flutterstone landing model over aim x force.

The figures are built with :class:`matplotlib.figure.Figure` directly (no pyplot state, no
backend switch), so they are safe under Agg / headless runs and do not accumulate open pyplot
figures; in Jupyter a returned figure is displayed as usual. Nothing here calls ``plt.show()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from boardgames_rl.games.castle_flutterstone.landing import (
    DEFAULT_GEOMETRY,
    FORCE_RANGE,
    NO_EFFECTS,
    ZONE_NAMES,
    Effects,
    FloatGrid,
    LandingGeometry,
    SkillLike,
    Zone,
    expected_progress,
    landing_grid,
    landing_table,
    resolve_skill,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "METRICS",
    "plot_landing_heatmap",
    "plot_landing_panels",
    "plot_window_heatmaps",
    "window_yaw",
]

METRICS: tuple[str, ...] = ("expected", *ZONE_NAMES)
"""Accepted ``metric`` values: expected progress, or the probability of one zone."""

DEFAULT_FORCES = np.round(np.arange(FORCE_RANGE[0], FORCE_RANGE[1] + 1e-9, 0.05), 10)


def _edges(centers: np.ndarray) -> np.ndarray:
    """Cell edges around sorted cell centres (for ``pcolormesh``)."""
    if centers.size == 1:
        return np.array([centers[0] - 0.5, centers[0] + 0.5])
    mid = 0.5 * (centers[:-1] + centers[1:])
    return np.concatenate([[2 * centers[0] - mid[0]], mid, [2 * centers[-1] - mid[-1]]])


def _default_aims(geometry: LandingGeometry) -> np.ndarray:
    """Elevations every 2 degrees over the model's range."""
    return np.arange(geometry.aim_min, geometry.aim_max + 1e-9, 2.0)


def _grid(values: FloatGrid | None, default: np.ndarray, name: str) -> np.ndarray:
    arr = default if values is None else np.asarray(values, dtype=np.float64).reshape(-1)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    if np.any(np.diff(arr) <= 0):
        raise ValueError(f"{name} must be strictly increasing")
    return arr


def _metric_index(metric: str | Zone) -> int | None:
    """``None`` for expected progress, else the zone index."""
    if isinstance(metric, Zone):
        return int(metric)
    key = str(metric).strip().lower()
    if key not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; use one of {', '.join(METRICS)}")
    return None if key == "expected" else ZONE_NAMES.index(key)


def _effects_label(effects: Effects) -> str:
    parts = []
    if effects.eyes_closed:
        parts.append("eyes closed")
    if effects.change_hands:
        parts.append("change hands")
    if effects.blocked_band:
        parts.append(f"window {effects.blocked_band} blocked")
    return ", ".join(parts) if parts else "no pesky ghosts"


def _new_figure(figsize: tuple[float, float]) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=figsize, layout="constrained")


def _draw(
    ax: Axes,
    values: np.ndarray,
    aims: np.ndarray,
    forces: np.ndarray,
    label: str,
    title: str,
    vmin: float | None = None,
    vmax: float | None = None,
    cmap: str = "viridis",
    mark_best: bool = True,
    legend: bool = True,
) -> None:
    mesh = ax.pcolormesh(
        _edges(forces), _edges(aims), values, cmap=cmap, vmin=vmin, vmax=vmax, shading="flat"
    )
    cbar = ax.figure.colorbar(mesh, ax=ax)
    cbar.set_label(label)
    if mark_best and np.isfinite(values).any():
        i, j = np.unravel_index(int(np.nanargmax(values)), values.shape)
        ax.plot(
            forces[j],
            aims[i],
            marker="*",
            color="white",
            markeredgecolor="black",
            markersize=12,
            linestyle="none",
            label=f"best: {aims[i]:g} deg, f={forces[j]:g}",
        )
        if legend:
            ax.legend(loc="upper right", fontsize="small", framealpha=0.8)
    ax.set_xlabel("force f")
    ax.set_ylabel("aim (elevation) [deg]")
    ax.set_title(title)


def plot_landing_heatmap(
    skill: SkillLike = "average",
    effects: Effects = NO_EFFECTS,
    aims: Sequence[float] | None = None,
    forces: Sequence[float] | None = None,
    ax: Axes | None = None,
    metric: str | Zone = "expected",
    card_value: float = 0.8,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
    yaw: float = 0.0,
) -> Figure:
    """Heatmap of the landing model over aim x force (at one lateral aim).

    Args:
        skill: profile name, :class:`SkillProfile` or mapping of sigmas.
        effects: pesky effects.
        aims: elevation grid in degrees (default every 2 degrees over the model's range).
        forces: force grid (default 0, 0.05, ..., 1).
        ax: axes to draw on; a new figure is made when ``None``.
        metric: ``"expected"`` (expected progress per shot, section 7.8) or a zone name
            (``"miss"``, ``"courtyard"``, ``"moat"``, ``"castle"``, ``"window"``) or a
            :class:`Zone` for that zone's probability.
        card_value: worth of a ghost card in fields for ``metric="expected"``.
        geometry: model constants.
        yaw: lateral aim in degrees.

    Returns:
        The matplotlib figure holding the heatmap (with colorbar; the best cell is starred).
    """
    idx = _metric_index(metric)
    a = _grid(aims, _default_aims(geometry), "aims")
    f = _grid(forces, DEFAULT_FORCES, "forces")
    table = landing_table(a, f, skill, effects, geometry, yaw)
    prof = resolve_skill(skill)
    if idx is None:
        values = np.asarray(expected_progress(table, card_value))
        label = f"expected progress per shot (card = {card_value:g})"
        vmin, vmax, cmap = 0.0, None, "viridis"
    else:
        values = table[..., idx]
        label = f"P({ZONE_NAMES[idx]})"
        vmin, vmax, cmap = 0.0, None, "magma"
    if ax is None:
        fig = _new_figure((6.4, 4.8))
        ax = fig.add_subplot()
    else:
        fig = cast("Figure", ax.figure)  # a SubFigure when ``ax`` lies in one: drawn the same
    title = f"{label.split(' (')[0]}: {prof.name}, {_effects_label(effects)}"
    if geometry.yaw_max > 0:
        title += f", yaw {yaw:+g}"
    _draw(ax, values, a, f, label, title, vmin=vmin, vmax=vmax, cmap=cmap)
    return fig


def plot_landing_panels(
    skill: SkillLike = "average",
    effects: Effects = NO_EFFECTS,
    aims: Sequence[float] | None = None,
    forces: Sequence[float] | None = None,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
    yaw: float = 0.0,
) -> Figure:
    """One small heatmap per landing zone (probability over aim x force, at lateral aim ``yaw``).

    Returns:
        A figure with five panels (miss, courtyard, moat, castle, window), each with its own
        colorbar and its most likely cell starred.
    """
    a = _grid(aims, _default_aims(geometry), "aims")
    f = _grid(forces, DEFAULT_FORCES, "forces")
    table = landing_table(a, f, skill, effects, geometry, yaw)
    prof = resolve_skill(skill)
    fig = _new_figure((4.0 * len(Zone), 3.6))
    axes = fig.subplots(1, len(Zone), sharex=True, sharey=True)
    for zone, ax in zip(Zone, axes, strict=True):
        name = ZONE_NAMES[zone]
        _draw(ax, table[..., zone], a, f, f"P({name})", name, vmin=0.0, cmap="magma", legend=False)
        if zone != Zone.MISS:
            ax.set_ylabel("")
    fig.suptitle(f"Landing zones: {prof.name}, {_effects_label(effects)}, yaw {yaw:+g}")
    return fig


def window_yaw(window: int, geometry: LandingGeometry = DEFAULT_GEOMETRY) -> float:
    """The lateral aim (degrees) at the centre of window 1, 2 or 3."""
    lo, hi = geometry.window_lateral[window - 1]
    return round(float(np.degrees(np.arctan(0.5 * (lo + hi) / geometry.wall_x))), 6)


def plot_window_heatmaps(
    skill: SkillLike = "average",
    effects: Effects = NO_EFFECTS,
    yaws: Sequence[float] | None = None,
    aims: Sequence[float] | None = None,
    forces: Sequence[float] | None = None,
    card_value: float = 0.8,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
) -> Figure:
    """One column per window: P(through a window) and the expected progress per shot over
    elevation x force, at the lateral aim of that window (default: the yaw at its centre).

    The colour scale is shared along each row, so the windows can be compared; each panel stars
    its best cell, and the title gives the best (elevation, force) and its value.
    """
    a = _grid(aims, _default_aims(geometry), "aims")
    f = _grid(forces, DEFAULT_FORCES, "forces")
    yaw_list = [window_yaw(k, geometry) for k in (1, 2, 3)] if yaws is None else list(yaws)
    if len(yaw_list) != 3:
        raise ValueError(f"yaws must give one lateral aim per window (3), got {yaw_list}")
    grid = landing_grid(yaw_list, a, f, skill, effects, geometry)
    prof = resolve_skill(skill)
    window_p = grid[..., Zone.WINDOW]
    expected = np.asarray(expected_progress(grid, card_value))
    fig = _new_figure((15.0, 8.4))
    axes = fig.subplots(2, 3, sharex=True, sharey=True)
    names = (
        "window 1 (low, wide, left)",
        "window 2 (middle, centre)",
        "window 3 (high, narrow, right)",
    )
    pmax, emax = float(window_p.max()), float(expected.max())
    for k in range(3):
        rows = (
            (window_p[k], "P(through a window)", pmax, "magma"),
            (expected[k], "expected progress per shot", emax, "viridis"),
        )
        for row, (values, label, vmax, cmap) in enumerate(rows):
            ax = axes[row, k]
            i, j = np.unravel_index(int(np.argmax(values)), values.shape)
            title = (
                f"{names[k]}, yaw {yaw_list[k]:+.0f}\n"
                f"best {a[i]:g} deg, f={f[j]:g}: {values[i, j]:.3f}"
            )
            _draw(ax, values, a, f, label, title, vmin=0.0, vmax=vmax, cmap=cmap, legend=False)
            if k:
                ax.set_ylabel("")
            if row == 0:
                ax.set_xlabel("")
    fig.suptitle(
        f"Aiming at each window: {prof.name}, {_effects_label(effects)} (card = {card_value:g})"
    )
    return fig
