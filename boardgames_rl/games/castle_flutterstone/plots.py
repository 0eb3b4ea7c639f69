"""Heatmaps of the Castle Flutterstone landing model over aim x force.

The figures are built with :class:`matplotlib.figure.Figure` directly (no pyplot state, no
backend switch), so they are safe under Agg / headless runs and do not accumulate open pyplot
figures; in Jupyter a returned figure is displayed as usual. Nothing here calls ``plt.show()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.castle_flutterstone.landing import (
    AIM_RANGE,
    DEFAULT_GEOMETRY,
    FORCE_RANGE,
    NO_EFFECTS,
    ZONE_NAMES,
    Effects,
    LandingGeometry,
    SkillLike,
    Zone,
    expected_progress,
    landing_table,
    resolve_skill,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["METRICS", "plot_landing_heatmap", "plot_landing_panels"]

METRICS: tuple[str, ...] = ("expected", *ZONE_NAMES)
"""Accepted ``metric`` values: expected progress, or the probability of one zone."""

DEFAULT_AIMS = np.arange(AIM_RANGE[0], AIM_RANGE[1] + 1e-9, 2.0)
DEFAULT_FORCES = np.round(np.arange(FORCE_RANGE[0], FORCE_RANGE[1] + 1e-9, 0.05), 10)


def _edges(centers: np.ndarray) -> np.ndarray:
    """Cell edges around sorted cell centres (for ``pcolormesh``)."""
    if centers.size == 1:
        return np.array([centers[0] - 0.5, centers[0] + 0.5])
    mid = 0.5 * (centers[:-1] + centers[1:])
    return np.concatenate([[2 * centers[0] - mid[0]], mid, [2 * centers[-1] - mid[-1]]])


def _grid(values: Sequence[float] | None, default: np.ndarray, name: str) -> np.ndarray:
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
        parts.append(f"band {effects.blocked_band} blocked")
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
        ax.plot(forces[j], aims[i], marker="*", color="white", markeredgecolor="black",
                markersize=12, linestyle="none", label=f"best: {aims[i]:g} deg, f={forces[j]:g}")
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
) -> Figure:
    """Heatmap of the landing model over aim x force.

    Args:
        skill: profile name, :class:`SkillProfile` or mapping of sigmas.
        effects: pesky effects.
        aims: elevation grid in degrees (default 50, 52, ..., 80).
        forces: force grid (default 0, 0.05, ..., 1).
        ax: axes to draw on; a new figure is made when ``None``.
        metric: ``"expected"`` (expected progress per shot, section 7.8) or a zone name
            (``"miss"``, ``"courtyard"``, ``"moat"``, ``"castle"``, ``"window"``) or a
            :class:`Zone` for that zone's probability.
        card_value: worth of a ghost card in fields for ``metric="expected"``.
        geometry: model constants.

    Returns:
        The matplotlib figure holding the heatmap (with colorbar; the best cell is starred).
    """
    idx = _metric_index(metric)
    a = _grid(aims, DEFAULT_AIMS, "aims")
    f = _grid(forces, DEFAULT_FORCES, "forces")
    table = landing_table(a, f, skill, effects, geometry)
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
        fig = ax.figure
    title = f"{label.split(' (')[0]}: {prof.name}, {_effects_label(effects)}"
    _draw(ax, values, a, f, label, title, vmin=vmin, vmax=vmax, cmap=cmap)
    return fig  # type: ignore[return-value]


def plot_landing_panels(
    skill: SkillLike = "average",
    effects: Effects = NO_EFFECTS,
    aims: Sequence[float] | None = None,
    forces: Sequence[float] | None = None,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
) -> Figure:
    """One small heatmap per landing zone (probability over aim x force).

    Returns:
        A figure with five panels (miss, courtyard, moat, castle, window), each with its own
        colorbar and its most likely cell starred.
    """
    a = _grid(aims, DEFAULT_AIMS, "aims")
    f = _grid(forces, DEFAULT_FORCES, "forces")
    table = landing_table(a, f, skill, effects, geometry)
    prof = resolve_skill(skill)
    fig = _new_figure((4.0 * len(Zone), 3.6))
    axes = fig.subplots(1, len(Zone), sharex=True, sharey=True)
    for zone, ax in zip(Zone, axes, strict=True):
        name = ZONE_NAMES[zone]
        _draw(ax, table[..., zone], a, f, f"P({name})", name, vmin=0.0, cmap="magma",
              legend=False)
        if zone != Zone.MISS:
            ax.set_ylabel("")
    fig.suptitle(f"Landing zones: {prof.name}, {_effects_label(effects)}")
    return fig
