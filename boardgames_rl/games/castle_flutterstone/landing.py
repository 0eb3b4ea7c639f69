"""Stochastic landing model of Castle Flutterstone (data sheet section 7).

The physical bat flick is replaced by a model parameterised by the chosen lateral aim ``yaw``
(degrees), elevation angle ``aim`` (degrees) and ``force`` (0..1). Two geometries exist:

* :data:`GEOMETRY_V2` (the default, data sheet 7.2b): three windows at distinct places on the wall
  (wide low window left of centre, middle window at the centre, narrow high window right of
  centre), elevations 10..60 degrees, lateral aims up to 30 degrees;
* :data:`GEOMETRY_V1` (data sheet 7.1-7.7): one column of windows at ``y = 0``, 4 cm wide,
  elevations 50..80 degrees, lateral aim always 0 (reproduces the earlier results exactly).

The model:

* execution noise (section 7.3): elevation ``theta_e = aim + k_theta * sigma_theta * N``, launch
  speed ``v_e = max(1, (100 + 350 * clip(force + b, 0, 1)) * (1 + k_v * sigma_v * N))``, yaw
  ``psi = yaw + k_psi * sigma_psi * N`` and flutter ``eps_x, eps_z = sigma_fl * N`` (five
  independent standard normals per shot); the ``k`` factors and the force bias ``b`` come from
  pesky cards;
* flight with linear drag in closed form (section 7.4), ``tau = 0.25`` s, ``g = 981`` cm/s^2;
* outcome resolution in the order of section 7.5 (floor case, wall case with side miss,
  courtyard below the wall foot, over-the-wall castle/miss, window (the bat's ``y`` at the wall
  inside a window's opening and its ``z`` inside that window's band), stick-or-drop wall hit),
  with the pesky ghost blocking one window (section 7.6).

Two independent implementations of the same model live here:

* :func:`sample_flick` / :func:`sample_flicks` draw the noise and fly the bat (what the game
  engine calls once per shot);
* :func:`landing_distribution` computes the exact outcome probabilities by deterministic
  numerical integration (no Monte Carlo), so that the engine's sampled frequencies can be
  tested against it.

Quadrature method of :func:`landing_distribution`: elevation noise and speed noise are
integrated on a 128 x 256 tensor grid of equal-width cells in standard-normal units over
+-4.5 sigma (the two outermost cells of each axis extend to infinity, so the cell masses sum to
exactly 1). Each cell carries its exact normal mass and is evaluated at the conditional mean of
the normal inside the cell. The only discontinuity of the conditional outcome probabilities in
the (elevation, speed) plane is the switch between the floor case and the wall case (the
trajectory passing through the wall foot, ``z(x_W) = 0``); for every elevation row its speed is
solved in closed form and the speed cell containing it is split in two, so no cell straddles it.
Given the deterministic trajectory of a cell the remaining noise terms are handled in closed form:

* wall case: yaw gives the side-miss probability ``P(|x_W tan psi| > 15)`` and the (disjoint)
  probability of each window's lateral opening ``P(y_left < x_W tan psi < y_right)``; ``eps_z``
  gives exact normal-CDF probabilities of ``z < 0``, of each window band and of clearing the
  wall; a bat that clears the wall comes down on the battlements iff its perturbed height at
  ``x = 31`` is ``<= H`` on the descending branch (always if ``x_max <= 31``, never if the apex
  lies beyond ``x = 31``);
* floor case: ``eps_x`` is integrated exactly over sub-intervals of the landing line and the
  lateral floor miss ``P(|x tan psi| > 20)`` is evaluated at the conditional mean of ``x`` in
  each sub-interval (about 2.5 cm wide near the board).

Both per-cell terms depend on one variable only (the wall height ``z(t_W)``, resp. the landing
point ``x(t_L)``), so they are tabulated once per (flutter, yaw sigma, lateral aim) on a step of
``sigma_flutter / 150`` and linearly interpolated (error < 1e-6). Discretisation error of the
whole quadrature is below about 1.5e-4 per zone (checked against a 600 x 1000 grid); it agrees
with 1,000,000-shot runs of :func:`sample_flicks` within Monte Carlo error over 60 random
settings, and (model v1) with every row of the reference tables in sections 7.8 and 7.10 to within
0.0025.
A call takes a few milliseconds; results are cached.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import IntEnum
from functools import lru_cache
from typing import SupportsFloat

import numpy as np
from mypy_extensions import mypyc_attr

from boardgames_rl.games.castle_flutterstone.flight import Shooter as _Shooter
from boardgames_rl.games.castle_flutterstone.flight import draw

__all__ = [
    "AIM_RANGE",
    "AIM_RANGE_V1",
    "DEFAULT_GEOMETRY",
    "FORCE_RANGE",
    "GEOMETRY_V1",
    "GEOMETRY_V2",
    "LANDING_MODELS",
    "YAW_GRID_V2",
    "YAW_MAX",
    "PESKY_MODIFIERS",
    "SKILL_PROFILES",
    "ZONE_NAMES",
    "Effects",
    "LandingGeometry",
    "PeskyModifier",
    "SkillProfile",
    "Zone",
    "expected_progress",
    "landing_distribution",
    "landing_grid",
    "landing_table",
    "resolve_skill",
    "sample_flick",
    "sample_flicks",
    "shot_constants",
]


class Zone(IntEnum):
    """Landing outcome of one bat (section 4)."""

    MISS = 0
    COURTYARD = 1
    MOAT = 2
    CASTLE = 3
    WINDOW = 4


ZONE_NAMES: tuple[str, ...] = tuple(z.name.lower() for z in Zone)
"""``("miss", "courtyard", "moat", "castle", "window")``, indexed by :class:`Zone`."""

N_ZONES = len(Zone)

AIM_RANGE: tuple[float, float] = (10.0, 60.0)
"""Allowed elevation angles in degrees of the default model v2 (data sheet 7.2b)."""

AIM_RANGE_V1: tuple[float, float] = (50.0, 80.0)
"""Allowed elevation angles in degrees of model v1 (data sheet 7.2)."""

YAW_MAX: float = 30.0
"""Largest lateral aim ``|yaw|`` in degrees of model v2 (the wall's edge is at 29 degrees)."""

FORCE_RANGE: tuple[float, float] = (0.0, 1.0)
"""Allowed force command (section 7.2)."""

_MISS, _COURTYARD, _MOAT, _CASTLE, _WINDOW = (
    Zone.MISS,
    Zone.COURTYARD,
    Zone.MOAT,
    Zone.CASTLE,
    Zone.WINDOW,
)
_ZONES: tuple[Zone, ...] = tuple(Zone)
"""The zones by number (what :func:`.flight.fly` returns)."""


# --------------------------------------------------------------------------- skill and effects


@dataclass(frozen=True)
class SkillProfile:
    """Execution-noise profile of a shooter (section 7.7).

    Attributes:
        name: label of the profile.
        sigma_theta: elevation noise, degrees.
        sigma_v: relative launch-speed noise (multiplies the nominal speed).
        sigma_psi: yaw noise, degrees.
        sigma_flutter: flutter noise of the landing point, cm (``eps_x`` and ``eps_z``).
    """

    name: str
    sigma_theta: float
    sigma_v: float
    sigma_psi: float
    sigma_flutter: float

    def __post_init__(self) -> None:
        for attr in ("sigma_theta", "sigma_v", "sigma_psi", "sigma_flutter"):
            value = getattr(self, attr)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)):
                raise ValueError(f"SkillProfile.{attr} must be a number, got {value!r}")
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"SkillProfile.{attr} must be finite and >= 0, got {value!r}")


SKILL_PROFILES: dict[str, SkillProfile] = {
    "skilled": SkillProfile("skilled", 3.5, 0.08, 4.0, 3.0),
    "average": SkillProfile("average", 5.0, 0.11, 6.0, 3.0),
    "novice": SkillProfile("novice", 7.0, 0.15, 8.0, 3.0),
}
"""The three profiles of section 7.7 (skilled adult, average, novice child)."""

_PROFILE_KEYS = ("sigma_theta", "sigma_v", "sigma_psi", "sigma_flutter")

SkillLike = str | SkillProfile | Mapping[str, float]

FloatGrid = Sequence[float] | np.ndarray
"""A grid of yaws, elevations or forces: a list of numbers or a 1-d array."""


def resolve_skill(skill: SkillLike) -> SkillProfile:
    """Turn a profile name, a :class:`SkillProfile` or a mapping of sigmas into a profile.

    Args:
        skill: ``"skilled"``, ``"average"`` or ``"novice"`` (case-insensitive), a
            :class:`SkillProfile`, or a mapping with the keys ``sigma_theta``, ``sigma_v``,
            ``sigma_psi``, ``sigma_flutter`` (and optionally ``name``).

    Raises:
        ValueError: unknown profile name or malformed mapping.
    """
    if isinstance(skill, SkillProfile):
        return skill
    if isinstance(skill, str):
        prof = SKILL_PROFILES.get(skill) or SKILL_PROFILES.get(skill.strip().lower())
        if prof is None:
            raise ValueError(
                f"unknown skill profile {skill!r}; valid profiles are "
                f"{', '.join(repr(k) for k in SKILL_PROFILES)}, a SkillProfile, or a mapping "
                f"with keys {', '.join(_PROFILE_KEYS)}"
            )
        return prof
    if isinstance(skill, Mapping):
        keys = set(skill)
        missing = [k for k in _PROFILE_KEYS if k not in keys]
        extra = sorted(str(k) for k in keys - set(_PROFILE_KEYS) - {"name"})
        if missing or extra:
            raise ValueError(
                f"a skill mapping needs exactly the keys {', '.join(_PROFILE_KEYS)} "
                f"(optionally 'name'); missing {missing}, unexpected {extra}"
            )
        return SkillProfile(
            name=str(skill.get("name", "custom")),
            **{k: float(skill[k]) for k in _PROFILE_KEYS},
        )
    raise ValueError(
        f"skill must be one of {', '.join(repr(k) for k in SKILL_PROFILES)}, a SkillProfile or a "
        f"mapping of sigmas, got {type(skill).__name__}"
    )


@dataclass(frozen=True)
class PeskyModifier:
    """Noise multipliers and force bias of one pesky card (section 7.7)."""

    k_theta: float
    k_v: float
    k_psi: float
    force_bias: float


PESKY_MODIFIERS: dict[str, PeskyModifier] = {
    "eyes_closed": PeskyModifier(1.8, 1.8, 1.8, -0.04),
    "change_hands": PeskyModifier(1.4, 1.5, 1.4, -0.02),
}
"""Section 7.7 modifiers; several cards stack by multiplying the k and adding the bias."""


@mypyc_attr(native_class=False)  # validates what a caller passes (np.int64, 1.5) itself
@dataclass(frozen=True)
class Effects:
    """Pesky-ghost effects active for a shot.

    Attributes:
        eyes_closed: the "Eyes closed" card (section 7.7).
        change_hands: the "Change hands" card (section 7.7).
        blocked_band: 0 when the ghost figure is not in a window, else the window band
            ``1`` (low), ``2`` (mid) or ``3`` (high) it blocks (section 7.6).
    """

    eyes_closed: bool = False
    change_hands: bool = False
    blocked_band: int = 0

    def __post_init__(self) -> None:
        for attr in ("eyes_closed", "change_hands"):
            value = getattr(self, attr)
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"Effects.{attr} must be a bool, got {value!r}")
            object.__setattr__(self, attr, bool(value))
        band = getattr(self, "blocked_band")  # noqa: B009  (as given: not read as an int yet)
        if isinstance(band, (bool, np.bool_)) or not isinstance(band, (int, np.integer)):
            raise ValueError(f"Effects.blocked_band must be an int in 0..3, got {band!r}")
        if not 0 <= int(band) <= 3:
            raise ValueError(
                f"Effects.blocked_band must be 0 (no ghost) or a window band 1..3, got {band!r}"
            )
        object.__setattr__(self, "blocked_band", int(band))

    @property
    def modifiers(self) -> tuple[float, float, float, float]:
        """Stacked ``(k_theta, k_v, k_psi, force_bias)``; ``(1, 1, 1, 0)`` without cards."""
        kt, kv, kp, b = 1.0, 1.0, 1.0, 0.0
        for name, on in (("eyes_closed", self.eyes_closed), ("change_hands", self.change_hands)):
            if on:
                m = PESKY_MODIFIERS[name]
                kt *= m.k_theta
                kv *= m.k_v
                kp *= m.k_psi
                b += m.force_bias
        return kt, kv, kp, b


NO_EFFECTS = Effects()


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class LandingGeometry:
    """Constants of sections 7.1, 7.2 and 7.4 (cm, s, degrees).

    Attributes:
        launch_height: z0 of the launch point (x = y = 0).
        board_edge: floor landings at ``x < board_edge`` are a MISS.
        courtyard_end: near courtyard is ``[board_edge, courtyard_end)``.
        moat_end: moat is ``[courtyard_end, moat_end)``; the floor beyond is courtyard.
        wall_x: the wall plane ``x = x_W``.
        wall_height: wall height H.
        wall_half_width: ``|y| > wall_half_width`` at the wall is a MISS beside the castle.
        battlement_depth: a bat over the wall coming down to ``z = H`` at
            ``x <= wall_x + battlement_depth`` lands on the castle.
        floor_half_width: ``|y| > floor_half_width`` on the floor is a MISS.
        window_bands: ``(z_low, z_high)`` of windows 1 (low), 2 (mid), 3 (high).
        window_lateral: ``(y_left, y_right)`` of windows 1, 2, 3: window k is the opening
            ``y_left < y < y_right`` (at the wall plane) and ``z_low <= z <= z_high``.
        p_stick: probability that a wall/step or ghost hit sticks (CASTLE) instead of dropping.
        tau: drag time constant of the linear-drag flight.
        g: gravity.
        speed_base, speed_gain: nominal launch speed ``speed_base + speed_gain * force``.
        aim_min, aim_max: allowed elevation angles.
        yaw_max: allowed lateral aims are ``|yaw| <= yaw_max`` degrees (0: always at y = 0).
    """

    launch_height: float = 2.0
    board_edge: float = 8.0
    courtyard_end: float = 18.0
    moat_end: float = 25.0
    wall_x: float = 27.0
    wall_height: float = 22.0
    wall_half_width: float = 15.0
    battlement_depth: float = 4.0
    floor_half_width: float = 20.0
    window_bands: tuple[tuple[float, float], ...] = field(
        default=((5.5, 9.0), (11.5, 15.0), (17.0, 20.0))
    )
    window_lateral: tuple[tuple[float, float], ...] = field(
        default=((-11.25, -3.25), (-1.5, 1.5), (6.0, 8.5))
    )
    p_stick: float = 0.5
    tau: float = 0.25
    g: float = 981.0
    speed_base: float = 100.0
    speed_gain: float = 350.0
    aim_min: float = AIM_RANGE[0]
    aim_max: float = AIM_RANGE[1]
    yaw_max: float = YAW_MAX

    def __post_init__(self) -> None:
        bands = tuple((float(lo), float(hi)) for lo, hi in self.window_bands)
        object.__setattr__(self, "window_bands", bands)
        lateral = tuple((float(lo), float(hi)) for lo, hi in self.window_lateral)
        object.__setattr__(self, "window_lateral", lateral)
        for f in fields(self):
            name, value = f.name, getattr(self, f.name)
            if name not in ("window_bands", "window_lateral") and not math.isfinite(value):
                raise ValueError(f"LandingGeometry.{name} must be finite, got {value!r}")
        checks = [
            (self.launch_height >= 0, "launch_height >= 0"),
            (
                0 <= self.board_edge < self.courtyard_end < self.moat_end <= self.wall_x,
                "0 <= board_edge < courtyard_end < moat_end <= wall_x",
            ),
            (self.wall_height > 0, "wall_height > 0"),
            (self.wall_half_width > 0 and self.floor_half_width > 0, "positive half widths"),
            (self.battlement_depth >= 0, "battlement_depth >= 0"),
            (len(bands) == 3, "exactly three window bands"),
            (
                all(0 <= lo < hi <= self.wall_height for lo, hi in bands),
                "0 <= band low < band high <= wall_height",
            ),
            (
                all(bands[i][1] <= bands[i + 1][0] for i in range(len(bands) - 1)),
                "non-overlapping bands, low to high",
            ),
            (len(lateral) == 3, "exactly three window openings"),
            (
                all(-self.wall_half_width <= lo < hi <= self.wall_half_width for lo, hi in lateral),
                "-wall_half_width <= window left < window right <= wall_half_width",
            ),
            (0 <= self.yaw_max < 90, "0 <= yaw_max < 90"),
            (0 <= self.p_stick <= 1, "0 <= p_stick <= 1"),
            (self.tau > 0 and self.g > 0, "tau > 0 and g > 0"),
            (self.speed_base > 0 and self.speed_gain >= 0, "speed_base > 0, speed_gain >= 0"),
            (-90 < self.aim_min <= self.aim_max < 90, "-90 < aim_min <= aim_max < 90"),
        ]
        for ok, text in checks:
            if not ok:
                raise ValueError(f"invalid LandingGeometry: need {text}")


GEOMETRY_V2 = LandingGeometry()
"""The revised model of data sheet 7.2b (the default): three windows at distinct places."""

GEOMETRY_V1 = LandingGeometry(
    window_lateral=((-2.0, 2.0),) * 3,
    aim_min=AIM_RANGE_V1[0],
    aim_max=AIM_RANGE_V1[1],
    yaw_max=0.0,
)
"""The model of data sheet 7.1-7.7: one column of windows at y = 0, 4 cm wide, no yaw."""

DEFAULT_GEOMETRY = GEOMETRY_V2

LANDING_MODELS: dict[str, LandingGeometry] = {"v1": GEOMETRY_V1, "v2": GEOMETRY_V2}
"""Landing models by name (the game's ``landing_model`` config)."""

YAW_GRID_V2: tuple[float, ...] = (-25.0, -15.0, 0.0, 15.0, 25.0)
"""Default lateral aims (degrees) of the v2 action grid: the three windows and the wall's edges."""


def _check_action(
    aim: SupportsFloat, force: SupportsFloat, geometry: LandingGeometry, yaw: SupportsFloat = 0.0
) -> tuple[float, float, float]:
    try:
        a = float(aim)
        f = float(force)
        y = float(yaw)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"aim, force and yaw must be numbers, got {aim!r}, {force!r}, {yaw!r}"
        ) from exc
    if not geometry.aim_min <= a <= geometry.aim_max:  # also rejects NaN
        raise ValueError(
            f"aim must be an elevation in [{geometry.aim_min}, {geometry.aim_max}] degrees, "
            f"got {aim!r}"
        )
    if not FORCE_RANGE[0] <= f <= FORCE_RANGE[1]:
        raise ValueError(f"force must be in [{FORCE_RANGE[0]}, {FORCE_RANGE[1]}], got {force!r}")
    if not abs(y) <= geometry.yaw_max:  # also rejects NaN
        raise ValueError(
            f"yaw must be a lateral aim in [-{geometry.yaw_max}, {geometry.yaw_max}] degrees "
            f"for this landing model, got {yaw!r}"
        )
    return a, f, y


# --------------------------------------------------------------------------- the shooter


@lru_cache(maxsize=256)
def _shooter(prof: SkillProfile, effects: Effects, geo: LandingGeometry) -> _Shooter:
    """The shot's constants (every number a ``float``: the compiled :class:`.flight.Shooter`
    holds C doubles)."""
    kt, kv, kp, b = effects.modifiers
    return _Shooter(
        s_theta=float(kt * prof.sigma_theta),
        s_v=float(kv * prof.sigma_v),
        s_psi=float(kp * prof.sigma_psi),
        s_fl=float(prof.sigma_flutter),
        bias=float(b),
        blocked=int(effects.blocked_band),
        z0=float(geo.launch_height),
        x_board=float(geo.board_edge),
        x_court=float(geo.courtyard_end),
        x_moat=float(geo.moat_end),
        x_wall=float(geo.wall_x),
        x_batt=float(geo.wall_x + geo.battlement_depth),
        height=float(geo.wall_height),
        half_wall=float(geo.wall_half_width),
        half_floor=float(geo.floor_half_width),
        windows=tuple(
            (float(ylo), float(yhi), float(zlo), float(zhi))
            for (ylo, yhi), (zlo, zhi) in zip(geo.window_lateral, geo.window_bands, strict=True)
        ),
        p_stick=float(geo.p_stick),
        tau=float(geo.tau),
        g_tau=float(geo.g * geo.tau),
        g_tau2=float(geo.g * geo.tau * geo.tau),
        v_base=float(geo.speed_base),
        v_gain=float(geo.speed_gain),
    )


_memo: tuple[object, object, object, _Shooter] | None = None
"""Last (skill, effects, geometry, shooter); one tuple so that it is replaced atomically."""


def shot_constants(skill: SkillLike, effects: Effects, geometry: LandingGeometry) -> _Shooter:
    """The constants one shot of ``skill`` under ``effects`` needs (``flight.Shooter``), checked
    and precomputed (memoised :func:`_shooter`): what :func:`sample_flick` flies with, and what
    the engine keeps per seat and effects to draw its flicks with ``flight.draw``."""
    global _memo
    memo = _memo
    if (
        memo is not None
        and memo[0] is skill
        and memo[2] is geometry
        and (memo[1] is effects or memo[1] == effects)
    ):
        return memo[3]
    if not isinstance(effects, Effects):
        raise ValueError(f"effects must be an Effects instance, got {type(effects).__name__}")
    if not isinstance(geometry, LandingGeometry):
        raise ValueError(f"geometry must be a LandingGeometry, got {type(geometry).__name__}")
    sh = _shooter(resolve_skill(skill), effects, geometry)
    if not isinstance(skill, Mapping):  # mappings are mutable: never memoise by identity
        _memo = (skill, effects, geometry, sh)
    return sh


# --------------------------------------------------------------------------- sampling


def sample_flick(
    aim: SupportsFloat,
    force: SupportsFloat,
    skill: SkillLike,
    effects: Effects,
    rng: np.random.Generator,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
    yaw: SupportsFloat = 0.0,
) -> Zone:
    """Simulate ONE physical shot and return its landing zone.

    Draws ``rng.standard_normal(5)`` (elevation, speed, yaw, flutter x, flutter z) and then
    ``rng.random()`` (the stick-or-drop decision; always drawn, so every shot consumes the same
    amount of the stream), flies the bat (section 7.4) and resolves the outcome (7.5, 7.6).
    Deterministic given the state of ``rng``.

    Args:
        aim: elevation in degrees, within ``[50, 80]``.
        force: force command in ``[0, 1]``.
        skill: profile name, :class:`SkillProfile` or mapping of sigmas.
        effects: active pesky effects.
        rng: numpy random generator.
        geometry: model constants.
        yaw: lateral aim in degrees (``|yaw| <= geometry.yaw_max``); the yaw of the shot is
            ``yaw + k_psi * sigma_psi * N``.

    Raises:
        ValueError: aim/force/yaw out of range or NaN, unknown skill.
    """
    a, f, y = _check_action(aim, force, geometry, yaw)
    return _ZONES[draw(shot_constants(skill, effects, geometry), a, f, y, rng)]


def _zones_from_noise(
    aim: float, force: float, sh: _Shooter, normals: np.ndarray, u: np.ndarray, yaw: float = 0.0
) -> np.ndarray:
    """Vectorised flight and resolution for noise draws ``normals`` (n, 5) and uniforms ``u``."""
    n = normals.shape[0]
    theta = np.radians(aim + sh.s_theta * normals[:, 0])
    fe = min(max(force + sh.bias, 0.0), 1.0)
    ve = np.maximum(1.0, (sh.v_base + sh.v_gain * fe) * (1.0 + sh.s_v * normals[:, 1]))
    tan_psi = np.tan(np.radians(yaw + sh.s_psi * normals[:, 2]))
    ex = sh.s_fl * normals[:, 3]
    ez = sh.s_fl * normals[:, 4]
    c = np.cos(theta)
    s = np.sin(theta)
    tan_th = s / c
    x_max = ve * c * sh.tau
    out = np.empty(n, dtype=np.int64)

    reach = x_max > sh.x_wall
    w = np.where(reach, sh.x_wall / np.where(reach, x_max, 1.0), 0.5)
    z_wall = sh.z0 + sh.x_wall * tan_th + sh.g_tau2 * (w + np.log1p(-w))
    wall = reach & (z_wall > 0.0)

    # wall case
    iw = np.flatnonzero(wall)
    if iw.size:
        tp = tan_psi[iw]
        z = z_wall[iw] + ez[iw]
        xm = x_max[iw]
        vz = ve[iw] * s[iw]
        x_apex = np.where(vz > 0.0, xm * vz / (vz + sh.g_tau), 0.0)
        beyond = xm > sh.x_batt
        w31 = np.where(beyond, sh.x_batt / np.where(beyond, xm, 1.0), 0.5)
        z31 = sh.z0 + sh.x_batt * tan_th[iw] + sh.g_tau2 * (w31 + np.log1p(-w31))
        over_castle = ~beyond | ((x_apex < sh.x_batt) & (z31 + ez[iw] <= sh.height))
        res = np.where(u[iw] < sh.p_stick, int(_CASTLE), int(_COURTYARD))
        yw = sh.x_wall * tp
        for k, (ylo, yhi, lo, hi) in enumerate(sh.windows, start=1):
            if k != sh.blocked:
                res = np.where((yw > ylo) & (yw < yhi) & (z >= lo) & (z <= hi), int(_WINDOW), res)
        res = np.where(z > sh.height, np.where(over_castle, int(_CASTLE), int(_MISS)), res)
        res = np.where(z < 0.0, int(_COURTYARD), res)
        res = np.where(np.abs(sh.x_wall * tp) > sh.half_wall, int(_MISS), res)
        out[iw] = res

    # floor case
    fl = np.flatnonzero(~wall)
    if fl.size:
        a_coef = ve[fl] * s[fl] + sh.g_tau
        t_land = _landing_times(a_coef, sh.z0, sh.tau, sh.g_tau)
        x = x_max[fl] * (1.0 - np.exp(-t_land / sh.tau)) + ex[fl]
        res = np.where(
            x < sh.x_court, int(_COURTYARD), np.where(x < sh.x_moat, int(_MOAT), int(_COURTYARD))
        )
        res = np.where(
            (x < sh.x_board) | (np.abs(x * tan_psi[fl]) > sh.half_floor), int(_MISS), res
        )
        out[fl] = res
    return out


def _landing_times(a_coef: np.ndarray, z0: float, tau: float, g_tau: float) -> np.ndarray:
    """Vectorised :func:`_landing_time`."""
    t = np.where(a_coef > 0.0, (z0 + np.maximum(a_coef, 0.0) * tau) / g_tau, 0.0)
    a_tau = a_coef * tau
    for _ in range(100):
        e = np.exp(-t / tau)
        step = (z0 + a_tau * (1.0 - e) - g_tau * t) / (a_coef * e - g_tau)
        t = t - step
        if np.all(np.abs(step) < 1e-12 * (1.0 + t)):
            break
    return t


def sample_flicks(
    aim: SupportsFloat,
    force: SupportsFloat,
    skill: SkillLike,
    effects: Effects,
    rng: np.random.Generator,
    n: int,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
    yaw: SupportsFloat = 0.0,
) -> np.ndarray:
    """Simulate ``n`` independent shots at once (same model as :func:`sample_flick`).

    Draws ``rng.standard_normal((n, 5))`` and then ``rng.random(n)``; the random stream is
    therefore not the one of ``n`` calls of :func:`sample_flick`, but the distribution is.

    Returns:
        ``int64`` array of :class:`Zone` values, shape ``(n,)``.
    """
    a, f, y = _check_action(aim, force, geometry, yaw)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    if not isinstance(effects, Effects):
        raise ValueError(f"effects must be an Effects instance, got {type(effects).__name__}")
    sh = _shooter(resolve_skill(skill), effects, geometry)
    normals = rng.standard_normal((int(n), 5))
    u = rng.random(int(n))
    return _zones_from_noise(a, f, sh, normals, u, y)


# --------------------------------------------------------------------------- quadrature

_GRID_HALF_WIDTH = 4.5
"""Grid half width in standard deviations (the outermost cells extend to infinity)."""
_N_THETA = 128
_N_V = 256
_SQRT2 = math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _erfc(x: np.ndarray) -> np.ndarray:
    """Complementary error function, fractional error < 1.2e-7 everywhere.

    Chebyshev fit of Numerical Recipes (``erfcc``); numpy has no erf and scipy is not a
    runtime dependency.
    """
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -1.26551223 + t * (
        1.00002368
        + t
        * (
            0.37409196
            + t
            * (
                0.09678418
                + t
                * (
                    -0.18628806
                    + t
                    * (
                        0.27886807
                        + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))
                    )
                )
            )
        )
    )
    r = t * np.exp(-z * z + poly)
    return np.where(x >= 0.0, r, 2.0 - r)


def _phi_cdf(x: np.ndarray) -> np.ndarray:
    """Standard normal CDF (vectorised)."""
    return 0.5 * _erfc(-np.asarray(x, dtype=np.float64) / _SQRT2)


def _phi_pdf(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return _INV_SQRT_2PI * np.exp(-0.5 * np.square(x))


def _cells(edges: np.ndarray, fallback: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Masses and conditional means of a standard normal in the cells between ``edges``.

    ``edges`` has the cells along its last axis (may contain +-inf); ``fallback`` is used as the
    representative point of cells with (numerically) zero mass.
    """
    cdf = _phi_cdf(edges)
    pdf = _phi_pdf(edges)
    mass = np.diff(cdf, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        cmean = (pdf[..., :-1] - pdf[..., 1:]) / mass
    ok = (mass > 1e-300) & np.isfinite(cmean)
    return np.maximum(mass, 0.0), np.where(ok, cmean, fallback)


def _wsum(weight: np.ndarray, values: np.ndarray | float) -> float:
    """``sum(weight * values)`` without BLAS (np.dot threads badly on a busy machine)."""
    return float(np.sum(weight * values))


def _phi_scalar(x: float) -> float:
    return 0.5 * math.erfc(-x / _SQRT2)


def _solve_wall_foot(theta: np.ndarray, g: LandingGeometry) -> np.ndarray:
    """Launch speed at which the trajectory passes exactly through the wall foot ``(x_W, 0)``.

    At a fixed elevation the height at ``x_W`` is ``z0 + x_W tan(theta) + g tau^2 (w + ln(1-w))``
    with ``w = x_W / x_max``; it grows with the speed, so the floor case holds below this speed
    and the wall case above it. Returns ``inf`` when the bat can never reach the wall above the
    floor. With ``u = -ln(1 - w) = t_W / tau`` the condition is ``u - 1 + e^(-u) = c`` with
    ``c = (z0 + x_W tan theta) / (g tau^2)``, solved by Newton from the right (convex, monotone).
    """
    c_th = np.cos(theta)
    ok = c_th > 1e-12
    tan_th = np.where(ok, np.tan(theta), 0.0)
    c = (g.launch_height + g.wall_x * tan_th) / (g.g * g.tau * g.tau)
    ok &= c > 0.0
    c = np.where(ok, c, 1.0)
    u = c + 1.0
    for _ in range(200):
        e = np.exp(-u)
        step = (u - 1.0 + e - c) / (1.0 - e)
        u = u - step
        if np.all(np.abs(step) < 1e-13 * (1.0 + u)):
            break
    w = -np.expm1(-u)
    with np.errstate(divide="ignore", invalid="ignore"):
        v_star = g.wall_x / (w * np.where(ok, c_th, 1.0) * g.tau)
    return np.where(ok, v_star, np.inf)


def _floor_edges(g: LandingGeometry) -> tuple[np.ndarray, np.ndarray]:
    """Sub-interval edges of the landing line for ``x >= board_edge`` and their zones."""
    near = np.linspace(g.board_edge, g.courtyard_end, 5)
    moat = np.linspace(g.courtyard_end, g.moat_end, 5)[1:]
    far = g.moat_end + np.array([2.5, 5.0, 7.5, 10.0, 13.0, 17.0, 22.0, 30.0])
    edges = np.concatenate([near, moat, far, [np.inf]])
    mids = 0.5 * (edges[:-1] + np.minimum(edges[1:], edges[:-1] + 10.0))
    zones = np.where((mids >= g.courtyard_end) & (mids < g.moat_end), int(_MOAT), int(_COURTYARD))
    return edges, zones


def _wall_yaw(
    yaw: float, s_psi: float, g: LandingGeometry
) -> tuple[float, tuple[float, float, float]]:
    """For a yaw ``psi ~ N(yaw, s_psi)``: ``P(|x_W tan psi| > half wall)`` (beside the castle) and,
    per window, ``P(y_left < x_W tan psi < y_right)`` (in its lateral opening)."""
    psi_side = math.degrees(math.atan(g.wall_half_width / g.wall_x))
    q_side = _phi_scalar((-psi_side - yaw) / s_psi) + _phi_scalar((yaw - psi_side) / s_psi)
    q_win = tuple(
        _phi_scalar((math.degrees(math.atan(hi / g.wall_x)) - yaw) / s_psi)
        - _phi_scalar((math.degrees(math.atan(lo / g.wall_x)) - yaw) / s_psi)
        for lo, hi in g.window_lateral
    )
    return q_side, q_win  # type: ignore[return-value]


def _wall_terms_exact(
    zw: np.ndarray, s_fl: float, blocked: int, g: LandingGeometry
) -> tuple[np.ndarray, ...]:
    """For a deterministic wall height ``zw``: ``P(z < 0)``, ``P(z > H)`` and, per window k, the
    probability that ``z = zw + eps_z`` is in its height band (0 for the window the ghost blocks).
    """
    p_below = _phi_cdf(-zw / s_fl)
    p_above = _phi_cdf((zw - g.wall_height) / s_fl)
    bands = []
    for k, (lo, hi) in enumerate(g.window_bands, start=1):
        if k == blocked:
            bands.append(np.zeros_like(zw))
        else:
            bands.append(_phi_cdf((hi - zw) / s_fl) - _phi_cdf((lo - zw) / s_fl))
    return (p_below, p_above, *bands)


def _floor_terms_exact(
    x_land: np.ndarray, s_fl: float, s_psi: float, yaw: float, g: LandingGeometry
) -> tuple[np.ndarray, np.ndarray]:
    """For a deterministic floor landing ``x_land``: P(courtyard), P(moat) after flutter
    ``eps_x`` (exact normal masses of sub-intervals) and the lateral floor miss (evaluated at
    the conditional mean of x in each sub-interval) for a yaw ``psi ~ N(yaw, s_psi)``."""
    x_edges, x_zones = _floor_edges(g)
    std = (x_edges[None, :] - x_land[:, None]) / s_fl
    fb = (np.minimum(x_edges[:-1], 1e6) - x_land[:, None]) / s_fl
    mass, cm = _cells(std, np.broadcast_to(fb, (x_land.size, x_edges.size - 1)))
    x_bar = np.maximum(x_land[:, None] + s_fl * cm, x_edges[None, :-1])
    psi_lim = np.degrees(np.arctan(g.floor_half_width / x_bar))
    inside = _phi_cdf((psi_lim - yaw) / s_psi) - _phi_cdf((-psi_lim - yaw) / s_psi)
    kept = mass * inside
    court = kept[:, x_zones == int(_COURTYARD)].sum(axis=1)
    moat = kept[:, x_zones == int(_MOAT)].sum(axis=1)
    return court, moat


_TABLE_STEPS_PER_SIGMA = 150
"""Resolution of the 1-D interpolation tables (step = sigma_flutter / 150)."""
_TABLE_MIN_SIGMA = 0.5
"""Below this flutter (cm) the tables would be too fine; the exact terms are used instead."""


@lru_cache(maxsize=64)
def _wall_table(
    s_fl: float, blocked: int, g: LandingGeometry
) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    step = s_fl / _TABLE_STEPS_PER_SIGMA
    grid = np.arange(0.0, g.wall_height + 10.0 * s_fl + step, step)
    return grid, _wall_terms_exact(grid, s_fl, blocked, g)


@lru_cache(maxsize=256)
def _floor_table(
    s_fl: float, s_psi: float, yaw: float, g: LandingGeometry
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    step = s_fl / _TABLE_STEPS_PER_SIGMA
    grid = np.arange(g.board_edge - 10.0 * s_fl, g.wall_x + 2.0 * s_fl + step, step)
    return grid, _floor_terms_exact(grid, s_fl, s_psi, yaw, g)


def _wall_terms(
    zw: np.ndarray, s_fl: float, blocked: int, g: LandingGeometry
) -> tuple[np.ndarray, ...]:
    """:func:`_wall_terms_exact`, linearly interpolated in a cached table of the wall height.

    The terms are smooth functions of ``zw`` on the scale ``s_fl``; with a step of
    ``s_fl / 150`` the interpolation error is below 2e-6. Outside the table the end values are
    exact to 1e-20 (``zw >= 0`` in the wall case; ``zw > H + 10 s_fl`` always clears the wall).
    """
    if s_fl < _TABLE_MIN_SIGMA:
        return _wall_terms_exact(zw, s_fl, blocked, g)
    grid, cols = _wall_table(s_fl, blocked, g)
    return tuple(np.interp(zw, grid, col) for col in cols)


def _floor_terms(
    x_land: np.ndarray, s_fl: float, s_psi: float, yaw: float, g: LandingGeometry
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_floor_terms_exact`, linearly interpolated in a cached table of ``x_land``.

    Floor landings have ``x_land <= x_W``; below ``board_edge - 10 s_fl`` everything misses.
    """
    if s_fl < _TABLE_MIN_SIGMA:
        return _floor_terms_exact(x_land, s_fl, s_psi, yaw, g)
    grid, cols = _floor_table(s_fl, s_psi, yaw, g)
    return tuple(np.interp(x_land, grid, col) for col in cols)


def _quadrature(
    aim: float,
    force: float,
    yaws: tuple[float, ...],
    prof: SkillProfile,
    effects: Effects,
    g: LandingGeometry,
    n_theta: int = _N_THETA,
    n_v: int = _N_V,
) -> np.ndarray:
    """Outcome probabilities by deterministic numerical integration (see the module docstring),
    for one elevation and force and every lateral aim in ``yaws``: shape ``(len(yaws), 5)``.

    The (elevation, speed) integration does not depend on the lateral aim, so it is done once;
    the yaw enters only through closed-form probabilities per cell.
    """
    kt, kv, kp, b = effects.modifiers
    tiny = 1e-9
    s_th = max(kt * prof.sigma_theta, tiny)
    s_v = max(kv * prof.sigma_v, tiny)
    s_psi = max(kp * prof.sigma_psi, tiny)
    s_fl = max(prof.sigma_flutter, tiny)
    fe = min(max(force + b, 0.0), 1.0)
    v_nom = g.speed_base + g.speed_gain * fe
    half = _GRID_HALF_WIDTH

    # elevation rows
    e_th = np.linspace(-half, half, n_theta + 1)
    fb_th = 0.5 * (e_th[:-1] + e_th[1:])
    e_th[0], e_th[-1] = -np.inf, np.inf
    m_th, n_th = _cells(e_th, fb_th)
    theta = np.radians(aim + s_th * n_th)  # (R,)

    # speed cells per row, split at the floor/wall switch
    e_v = np.linspace(-half, half, n_v + 1)
    e_v[0], e_v[-1] = -np.inf, np.inf
    v_star = _solve_wall_foot(theta, g)
    with np.errstate(invalid="ignore", over="ignore"):
        n_star = (v_star / v_nom - 1.0) / s_v
    n_star = np.where(np.isnan(n_star), np.inf, n_star)
    edges = np.sort(
        np.concatenate([np.broadcast_to(e_v, (n_theta, n_v + 1)), n_star[:, None]], axis=1),
        axis=1,
    )
    fin = np.clip(edges, -half - 1.0, half + 1.0)
    m_v, n_v_mean = _cells(edges, 0.5 * (fin[:, :-1] + fin[:, 1:]))
    weight = m_th[:, None] * m_v  # (R, C)
    ve = np.maximum(1.0, v_nom * (1.0 + s_v * n_v_mean))

    shape = ve.shape
    c_row = np.cos(theta)
    s = np.broadcast_to(np.sin(theta)[:, None], shape)
    tan_th = np.broadcast_to((np.sin(theta) / c_row)[:, None], shape)
    x_max = ve * (c_row * g.tau)[:, None]
    g_tau = g.g * g.tau
    g_tau2 = g_tau * g.tau
    reach = x_max > g.wall_x
    w = np.where(reach, g.wall_x / np.where(reach, x_max, 1.0), 0.5)
    z_wall = g.launch_height + g.wall_x * tan_th + g_tau2 * (w + np.log1p(-w))
    wall = reach & (z_wall > 0.0)

    probs = np.zeros((len(yaws), N_ZONES))

    # ---- wall case: closed form in psi and eps_z
    iw = wall & (weight > 0.0)
    if np.any(iw):
        wt = weight[iw]
        zw = z_wall[iw]
        xm = x_max[iw]
        vz = ve[iw] * s[iw]
        x_batt = g.wall_x + g.battlement_depth
        x_apex = np.where(vz > 0.0, xm * vz / (vz + g_tau), 0.0)
        beyond = xm > x_batt
        p_below, p_above, *bands = _wall_terms(zw, s_fl, effects.blocked_band, g)
        # clears the wall: castle iff x_max <= 31, or the apex is before x = 31 and the
        # perturbed height at x = 31 is <= H (descending branch); else over the castle
        castle_over = np.where(beyond, 0.0, p_above)
        need = beyond & (x_apex < x_batt)
        if np.any(need):
            w31 = x_batt / xm[need]
            z31 = g.launch_height + x_batt * tan_th[iw][need] + g_tau2 * (w31 + np.log1p(-w31))
            castle_over[need] = np.maximum(
                _phi_cdf((g.wall_height - z31) / s_fl) - (1.0 - p_above[need]), 0.0
            )
        # yaw-free cell sums; |y| > 15 (side miss) and each window's opening are disjoint
        # events of psi, independent of eps_z
        s_w = _wsum(wt, 1.0)
        s_over = _wsum(wt, p_above - castle_over)
        s_below = _wsum(wt, p_below)
        s_face = _wsum(wt, 1.0 - p_above - p_below)
        s_castle_over = _wsum(wt, castle_over)
        s_bands = [_wsum(wt, band) for band in bands]
        for i, yaw in enumerate(yaws):
            q_side, q_win = _wall_yaw(yaw, s_psi, g)
            q_in = 1.0 - q_side
            window = sum(q * sb for q, sb in zip(q_win, s_bands, strict=True))
            wall_hit = max(q_in * s_face - window, 0.0)
            probs[i, _MISS] += q_side * s_w + q_in * s_over
            probs[i, _COURTYARD] += q_in * s_below + (1.0 - g.p_stick) * wall_hit
            probs[i, _CASTLE] += q_in * s_castle_over + g.p_stick * wall_hit
            probs[i, _WINDOW] += window

    # ---- floor case: exact eps_x intervals, lateral miss at conditional means
    ifl = ~wall & (weight > 0.0)
    if np.any(ifl):
        wt = weight[ifl]
        a_coef = ve[ifl] * s[ifl] + g_tau
        t_land = _landing_times(a_coef, g.launch_height, g.tau, g_tau)
        x_land = x_max[ifl] * (1.0 - np.exp(-t_land / g.tau))
        s_fw = _wsum(wt, 1.0)
        for i, yaw in enumerate(yaws):
            court, moat = _floor_terms(x_land, s_fl, s_psi, yaw, g)
            p_court, p_moat = _wsum(wt, court), _wsum(wt, moat)
            probs[i, _COURTYARD] += p_court
            probs[i, _MOAT] += p_moat
            probs[i, _MISS] += s_fw - p_court - p_moat

    probs = np.clip(probs, 0.0, None)
    return probs / probs.sum(axis=1, keepdims=True)


@lru_cache(maxsize=65536)
def _cached_distribution(
    aim: float,
    force: float,
    yaw: float,
    prof: SkillProfile,
    effects: Effects,
    geometry: LandingGeometry,
) -> np.ndarray:
    out = _quadrature(aim, force, (yaw,), prof, effects, geometry)[0]
    out.setflags(write=False)
    return out


def _check_model(effects: Effects, geometry: LandingGeometry) -> None:
    if not isinstance(effects, Effects):
        raise ValueError(f"effects must be an Effects instance, got {type(effects).__name__}")
    if not isinstance(geometry, LandingGeometry):
        raise ValueError(f"geometry must be a LandingGeometry, got {type(geometry).__name__}")


def landing_distribution(
    aim: SupportsFloat,
    force: SupportsFloat,
    skill: SkillLike = "average",
    effects: Effects = NO_EFFECTS,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
    yaw: SupportsFloat = 0.0,
) -> np.ndarray:
    """Exact outcome probabilities of one shot, by deterministic numerical integration.

    Args:
        aim: elevation in degrees, within ``[geometry.aim_min, geometry.aim_max]``.
        force: force command in ``[0, 1]``.
        skill: profile name, :class:`SkillProfile` or mapping of sigmas.
        effects: active pesky effects.
        geometry: model constants
            (:data:`~boardgames_rl.games.castle_flutterstone.landing.GEOMETRY_V2`, the default, or
            :data:`~boardgames_rl.games.castle_flutterstone.landing.GEOMETRY_V1`).
        yaw: lateral aim in degrees, ``|yaw| <= geometry.yaw_max``.

    Returns:
        ``float64`` array of shape ``(5,)`` indexed by :class:`Zone`, summing to 1. Results are
        cached (aim, force and yaw rounded to 1e-9); the returned array is a fresh copy.

    Raises:
        ValueError: aim/force/yaw out of range or NaN, unknown skill, bad effects.
    """
    a, f, y = _check_action(aim, force, geometry, yaw)
    _check_model(effects, geometry)
    prof = resolve_skill(skill)
    return _cached_distribution(
        round(a, 9), round(f, 9), round(y, 9) + 0.0, prof, effects, geometry
    ).copy()


@lru_cache(maxsize=16384)
def _cached_yaw_stack(
    aim: float,
    force: float,
    yaws: tuple[float, ...],
    prof: SkillProfile,
    effects: Effects,
    geometry: LandingGeometry,
) -> np.ndarray:
    out = _quadrature(aim, force, yaws, prof, effects, geometry)
    out.setflags(write=False)
    return out


def landing_grid(
    yaws: FloatGrid,
    aims: FloatGrid,
    forces: FloatGrid,
    skill: SkillLike = "average",
    effects: Effects = NO_EFFECTS,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
) -> np.ndarray:
    """:func:`landing_distribution` on a yaw x elevation x force grid.

    Returns:
        shape ``(len(yaws), len(aims), len(forces), 5)``; entry ``[y, a, f]`` equals
        ``landing_distribution(aims[a], forces[f], skill, effects, geometry, yaw=yaws[y])`` (the
        elevation-speed integration is shared by all yaws, so a grid costs little more than
        one lateral aim).
    """
    yaws_t = tuple(round(float(y), 9) + 0.0 for y in np.asarray(yaws, dtype=np.float64).ravel())
    aims_arr = np.asarray(aims, dtype=np.float64).reshape(-1)
    forces_arr = np.asarray(forces, dtype=np.float64).reshape(-1)
    _check_model(effects, geometry)
    prof = resolve_skill(skill)
    out = np.empty((len(yaws_t), aims_arr.size, forces_arr.size, N_ZONES))
    for y in yaws_t:
        _check_action(aims_arr[0] if aims_arr.size else geometry.aim_min, 0.0, geometry, y)
    for i, a in enumerate(aims_arr):
        for j, f in enumerate(forces_arr):
            a_c, f_c, _ = _check_action(a, f, geometry)
            out[:, i, j] = _cached_yaw_stack(
                round(a_c, 9), round(f_c, 9), yaws_t, prof, effects, geometry
            )
    return out


def landing_table(
    aims: FloatGrid,
    forces: FloatGrid,
    skill: SkillLike = "average",
    effects: Effects = NO_EFFECTS,
    geometry: LandingGeometry = DEFAULT_GEOMETRY,
    yaw: float = 0.0,
) -> np.ndarray:
    """:func:`landing_distribution` on an elevation x force grid at one lateral aim: shape
    ``(len(aims), len(forces), 5)``."""
    return landing_grid((yaw,), aims, forces, skill, effects, geometry)[0]


def expected_progress(dist: np.ndarray, card_value: float = 0.8) -> float | np.ndarray:
    """Expected movement per shot ``E`` of section 7.8.

    ``E = P(courtyard) + card_value * P(moat) + 2 P(castle) + 3 P(window)``.

    Args:
        dist: outcome probabilities indexed by :class:`Zone` (last axis of length 5).
        card_value: worth of a ghost card in fields (0.8 in the data sheet).

    Returns:
        a float for a single distribution; an array for a stack (e.g. a :func:`landing_table`).
    """
    p = np.asarray(dist, dtype=np.float64)
    if p.shape[-1:] != (N_ZONES,):
        raise ValueError(f"dist must have a last axis of length {N_ZONES}, got shape {p.shape}")
    values = np.array([0.0, 1.0, float(card_value), 2.0, 3.0])
    result = p @ values
    return float(result) if np.ndim(result) == 0 else result
