"""One flick of Castle Flutterstone's landing model, flown from its noise draws.

:func:`fly` is the engine's per-shot work (data sheet sections 7.4-7.6): the flight with linear
drag in closed form and the outcome in the order of section 7.5, for the five standard normals and
the uniform that :func:`~boardgames_rl.games.castle_flutterstone.landing.sample_flick` drew.
It reads a :class:`Shooter` (everything of one skill profile, pesky effects and geometry a shot
needs, precomputed by ``landing``) and returns the zone's number (``landing.Zone``'s values).
Kept apart from ``landing`` (the model's public API, its exact integration and its tables) so
that it compiles with the engines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np

from boardgames_rl.core.draws import draws_for

MISS: Final = 0
COURTYARD: Final = 1
MOAT: Final = 2
CASTLE: Final = 3
WINDOW: Final = 4
"""The zones' numbers (``landing.Zone``)."""

_RADIANS_PER_DEGREE: Final = math.pi / 180.0
"""``math.radians(x)`` is ``x * (pi / 180)`` in CPython, the same float; a product is a native
operation in the compiled build, where ``math.radians`` is a lookup and a call."""


@dataclass(frozen=True)
class Shooter:
    """Everything of one (profile, effects, geometry) that a shot needs, precomputed."""

    s_theta: float
    s_v: float
    s_psi: float
    s_fl: float
    bias: float
    blocked: int
    z0: float
    x_board: float
    x_court: float
    x_moat: float
    x_wall: float
    x_batt: float
    height: float
    half_wall: float
    half_floor: float
    windows: tuple[tuple[float, float, float, float], ...]
    p_stick: float
    tau: float
    g_tau: float
    g_tau2: float
    v_base: float
    v_gain: float


def landing_time(a_coef: float, z0: float, tau: float, g_tau: float) -> float:
    """Positive root of ``z(t) = z0 + A tau (1 - e^(-t/tau)) - g tau t`` (Newton, monotone).

    For ``A > 0`` z is concave and Newton started right of the root decreases monotonically to
    it; for ``A <= 0`` z is convex and decreasing and Newton from ``t = 0`` increases to it.
    """
    t = (z0 + a_coef * tau) / g_tau if a_coef > 0.0 else 0.0
    a_tau = a_coef * tau
    for _ in range(100):
        e = math.exp(-t / tau)
        zt = z0 + a_tau * (1.0 - e) - g_tau * t
        dz = a_coef * e - g_tau
        step = zt / dz
        t -= step
        if abs(step) < 1e-12 * (1.0 + t):
            break
    return t


def draw(sh: Shooter, a: float, f: float, y: float, rng: np.random.Generator) -> int:
    """The zone of one shot aimed at ``a``, ``f``, ``y`` (checked by the caller) with its noise
    drawn from ``rng``: ``rng.standard_normal(5)`` (elevation, speed, yaw, flutter x and z), then
    ``rng.random()`` (stick or drop; always drawn, so every shot takes the same share of the
    stream)."""
    draws = draws_for(rng)  # the same draws, without numpy's per-call costs
    n_th, n_v, n_psi, n_x, n_z = draws.normals(5)
    u = draws.uniform()
    return fly(sh, a, f, y, n_th, n_v, n_psi, n_x, n_z, u)


def fly(
    sh: Shooter,
    a: float,
    f: float,
    y: float,
    n_th: float,
    n_v: float,
    n_psi: float,
    n_x: float,
    n_z: float,
    u: float,
) -> int:
    """The zone of one shot aimed at elevation ``a``, force ``f`` and yaw ``y`` (checked by the
    caller) with the noise ``n_th, n_v, n_psi, n_x, n_z`` (standard normals: elevation, speed,
    yaw, flutter x and z) and ``u`` (uniform: stick or drop)."""
    theta = (a + sh.s_theta * n_th) * _RADIANS_PER_DEGREE
    fe = f + sh.bias
    fe = 0.0 if fe < 0.0 else (1.0 if fe > 1.0 else fe)
    ve = (sh.v_base + sh.v_gain * fe) * (1.0 + sh.s_v * n_v)
    if ve < 1.0:
        ve = 1.0
    tan_psi = math.tan((y + sh.s_psi * n_psi) * _RADIANS_PER_DEGREE)
    c = math.cos(theta)
    s = math.sin(theta)
    x_max = ve * c * sh.tau
    x_wall = sh.x_wall

    if x_max > x_wall:
        w = x_wall / x_max
        z_wall = sh.z0 + x_wall * s / c + sh.g_tau2 * (w + math.log1p(-w))
        if z_wall > 0.0:  # wall case: t_W < t_L
            y_wall = x_wall * tan_psi
            if abs(y_wall) > sh.half_wall:
                return MISS
            z = z_wall + sh.s_fl * n_z
            if z < 0.0:
                return COURTYARD
            if z > sh.height:
                x_batt = sh.x_batt
                if x_max <= x_batt:
                    return CASTLE
                vz = ve * s
                x_apex = x_max * vz / (vz + sh.g_tau) if vz > 0.0 else 0.0
                if x_apex >= x_batt:
                    return MISS
                w31 = x_batt / x_max
                z31 = sh.z0 + x_batt * s / c + sh.g_tau2 * (w31 + math.log1p(-w31))
                return CASTLE if z31 + sh.s_fl * n_z <= sh.height else MISS
            for k, (ylo, yhi, lo, hi) in enumerate(sh.windows):
                if ylo < y_wall < yhi and lo <= z <= hi:
                    if k + 1 != sh.blocked:  # windows are numbered from 1
                        return WINDOW
                    break  # the ghost figure in this window: stick or drop like a wall hit
            return CASTLE if u < sh.p_stick else COURTYARD

    # floor case: the bat comes down before the wall plane
    t_land = landing_time(ve * s + sh.g_tau, sh.z0, sh.tau, sh.g_tau)
    x = x_max * (1.0 - math.exp(-t_land / sh.tau)) + sh.s_fl * n_x
    if x < sh.x_board or abs(x * tan_psi) > sh.half_floor:
        return MISS
    if x < sh.x_court:
        return COURTYARD
    if x < sh.x_moat:
        return MOAT
    return COURTYARD
