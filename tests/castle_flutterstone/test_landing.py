"""Tests of the Castle Flutterstone landing model (data sheet section 7).

Three independent implementations are cross-checked:

* ``landing_distribution``: deterministic numerical integration (no Monte Carlo);
* ``sample_flick`` / ``sample_flicks``: the noise draws and closed-form flight the engine uses;
* ``literal_flick`` below: a slow, literal transcription of sections 7.3-7.6 (bisection for
  t_L as in the sheet, explicit search for t_H on the descending branch).

Reference numbers are the data sheet's 200,000-shot Monte Carlo (section 7.8) and the
macro-action table (section 7.10). They belong to the model of sections 7.1-7.7, kept as landing
model ``"v1"`` (``GEOMETRY_V1``): every test here runs on it, so these tests are also the proof that
the option reproduces the old reference numbers. The revised default model of section 7.2b (v2)
is tested in ``test_landing_v2.py``.
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pytest
from scipy import stats

from boardgames_rl.games.castle_flutterstone import landing
from boardgames_rl.games.castle_flutterstone.landing import (
    AIM_RANGE_V1,
    FORCE_RANGE,
    GEOMETRY_V1,
    SKILL_PROFILES,
    ZONE_NAMES,
    Effects,
    LandingGeometry,
    SkillProfile,
    Zone,
    expected_progress,
    resolve_skill,
)

# every call below runs on landing model v1 (data sheet 7.1-7.7)
landing_distribution = partial(landing.landing_distribution, geometry=GEOMETRY_V1)
landing_table = partial(landing.landing_table, geometry=GEOMETRY_V1)
sample_flick = partial(landing.sample_flick, geometry=GEOMETRY_V1)
sample_flicks = partial(landing.sample_flicks, geometry=GEOMETRY_V1)
AIM_RANGE = AIM_RANGE_V1

NONE = Effects()
EYES = Effects(eyes_closed=True)
HANDS = Effects(change_hands=True)
BOTH = Effects(eyes_closed=True, change_hands=True)
DEFAULT_GEO = GEOMETRY_V1

# --------------------------------------------------------------------------- reference table

# Section 7.8 (label, skill, effects, aim, force, MISS, COURTYARD, MOAT, CASTLE, WINDOW, E)
REFERENCE_78 = [
    ("skilled", "skilled", NONE, 50, 0.50, (0.011, 0.312, 0.018, 0.298, 0.361), 2.01),
    ("average", "average", NONE, 50, 0.50, (0.029, 0.364, 0.059, 0.322, 0.226), 1.73),
    ("novice", "novice", NONE, 50, 0.50, (0.056, 0.382, 0.110, 0.304, 0.147), 1.52),
    ("eyes closed", "average", EYES, 50, 0.50, (0.059, 0.421, 0.178, 0.255, 0.087), 1.34),
    ("change hands", "average", HANDS, 50, 0.50, (0.051, 0.396, 0.139, 0.285, 0.129), 1.47),
    ("both", "average", BOTH, 50, 0.50, (0.145, 0.434, 0.178, 0.197, 0.046), 1.11),
    (
        "band 1",
        "average",
        Effects(blocked_band=1),
        50,
        0.50,
        (0.029, 0.392, 0.059, 0.351, 0.169),
        1.65,
    ),
    (
        "band 2",
        "average",
        Effects(blocked_band=2),
        50,
        0.50,
        (0.028, 0.415, 0.059, 0.372, 0.126),
        1.58,
    ),
    (
        "band 3",
        "average",
        Effects(blocked_band=3),
        50,
        0.50,
        (0.029, 0.399, 0.058, 0.356, 0.158),
        1.63,
    ),
]

# Section 7.10 macro-actions, average profile (label, aim, force, probabilities)
REFERENCE_710 = [
    ("aim_window_low", 50, 0.43, (0.003, 0.419, 0.163, 0.247, 0.169)),
    ("aim_window_mid", 50, 0.50, (0.029, 0.363, 0.058, 0.321, 0.229)),
    ("aim_window_high", 50, 0.58, (0.142, 0.290, 0.015, 0.338, 0.215)),
    ("aim_wall", 50, 0.52, (0.046, 0.347, 0.043, 0.331, 0.232)),
    ("aim_courtyard", 64, 0.20, (0.134, 0.774, 0.092, 0.000, 0.000)),
    ("aim_moat", 50, 0.28, (0.002, 0.438, 0.529, 0.023, 0.008)),
]

# Tolerance against the sheet: its rows are 200,000-shot Monte Carlo estimates quoted at
# +-0.003, printed to 3 decimals (+-0.0005); the quadrature's own error is < 2e-4 (checked
# against 8M-shot runs and finer grids). 0.003 + 0.0005 + 0.0002 < 0.004, so 0.005 is a strict
# but safe bound (the largest deviation observed is 0.0025). E is printed to 2 decimals.
PROB_TOL = 0.005
E_TOL = 0.012


@pytest.mark.parametrize(
    ("skill", "effects", "aim", "force", "probs", "e_ref"),
    [r[1:] for r in REFERENCE_78],
    ids=[r[0] for r in REFERENCE_78],
)
def test_reference_rows_78(skill, effects, aim, force, probs, e_ref):
    dist = landing_distribution(aim, force, skill, effects)
    np.testing.assert_allclose(dist, probs, atol=PROB_TOL, rtol=0)
    assert expected_progress(dist) == pytest.approx(e_ref, abs=E_TOL)


@pytest.mark.parametrize(
    ("aim", "force", "probs"), [r[1:] for r in REFERENCE_710], ids=[r[0] for r in REFERENCE_710]
)
def test_macro_action_rows_710(aim, force, probs):
    np.testing.assert_allclose(
        landing_distribution(aim, force, "average"), probs, atol=PROB_TOL, rtol=0
    )


def test_uniform_random_aim_row_78():
    """'average, uniform random theta and f': integrate the distribution over the action box.

    The distribution is a smooth function of (aim, force) (the noise smooths every edge), so a
    12 x 12 Gauss-Legendre rule is exact to about 1e-4 (same result as 24 x 24).
    """
    x, w = np.polynomial.legendre.leggauss(12)
    aims = 0.5 * (AIM_RANGE[0] + AIM_RANGE[1]) + 0.5 * (AIM_RANGE[1] - AIM_RANGE[0]) * x
    forces = 0.5 * (FORCE_RANGE[0] + FORCE_RANGE[1]) + 0.5 * (FORCE_RANGE[1] - FORCE_RANGE[0]) * x
    table = landing_table(aims, forces, "average")
    dist = np.einsum("i,j,ijk->k", w / 2, w / 2, table)
    np.testing.assert_allclose(dist, (0.315, 0.399, 0.160, 0.094, 0.032), atol=PROB_TOL, rtol=0)
    assert expected_progress(dist) == pytest.approx(0.81, abs=E_TOL)


# --------------------------------------------------------------------------- basic properties

SETTINGS = [
    ("average", NONE, 50.0, 0.5),
    ("skilled", Effects(blocked_band=3), 56.0, 0.6),
    ("novice", BOTH, 80.0, 1.0),
    ("novice", Effects(True, True, 2), 50.0, 0.0),
    ("average", EYES, 64.0, 0.2),
    ("skilled", HANDS, 72.0, 0.85),
]


@pytest.mark.parametrize(("skill", "effects", "aim", "force"), SETTINGS)
def test_distribution_is_a_distribution(skill, effects, aim, force):
    dist = landing_distribution(aim, force, skill, effects)
    assert dist.shape == (5,)
    assert dist.dtype == np.float64
    assert np.all(dist >= 0.0)
    assert dist.sum() == pytest.approx(1.0, abs=1e-12)


def test_distribution_is_deterministic_and_cached_copy():
    a = landing_distribution(53.0, 0.47, "novice", EYES)
    a[:] = 0.0  # the caller's copy; must not poison the cache
    b = landing_distribution(53.0, 0.47, "novice", EYES)
    landing._cached_distribution.cache_clear()
    c = landing_distribution(53.0, 0.47, "novice", EYES)
    assert b.sum() == pytest.approx(1.0)
    np.testing.assert_array_equal(b, c)


def test_landing_table_matches_distribution():
    aims, forces = [50.0, 61.0, 79.5], [0.1, 0.5]
    table = landing_table(aims, forces, "skilled", HANDS)
    assert table.shape == (3, 2, 5)
    for i, a in enumerate(aims):
        for j, f in enumerate(forces):
            np.testing.assert_array_equal(table[i, j], landing_distribution(a, f, "skilled", HANDS))


def test_zone_names_and_expected_progress():
    assert ZONE_NAMES == ("miss", "courtyard", "moat", "castle", "window")
    assert [int(z) for z in Zone] == [0, 1, 2, 3, 4]
    assert expected_progress(np.array([0.1, 0.2, 0.3, 0.2, 0.2])) == pytest.approx(
        0.2 + 0.8 * 0.3 + 2 * 0.2 + 3 * 0.2
    )
    assert expected_progress(np.eye(5)[2], card_value=1.5) == pytest.approx(1.5)


def test_skill_profiles_and_resolution():
    assert SKILL_PROFILES["skilled"] == SkillProfile("skilled", 3.5, 0.08, 4.0, 3.0)
    assert SKILL_PROFILES["average"] == SkillProfile("average", 5.0, 0.11, 6.0, 3.0)
    assert SKILL_PROFILES["novice"] == SkillProfile("novice", 7.0, 0.15, 8.0, 3.0)
    assert resolve_skill("Average") is SKILL_PROFILES["average"]
    custom = resolve_skill(
        {"sigma_theta": 5.0, "sigma_v": 0.11, "sigma_psi": 6.0, "sigma_flutter": 3.0}
    )
    np.testing.assert_array_equal(
        landing_distribution(50, 0.5, custom), landing_distribution(50, 0.5, "average")
    )
    with pytest.raises(ValueError, match="skilled.*average.*novice"):
        resolve_skill("expert")
    with pytest.raises(ValueError, match="missing"):
        resolve_skill({"sigma_theta": 1.0})
    with pytest.raises(ValueError):
        SkillProfile("bad", -1.0, 0.1, 1.0, 1.0)


def test_pesky_modifiers_stack():
    assert NONE.modifiers == (1.0, 1.0, 1.0, 0.0)
    assert EYES.modifiers == pytest.approx((1.8, 1.8, 1.8, -0.04))
    assert HANDS.modifiers == pytest.approx((1.4, 1.5, 1.4, -0.02))
    assert BOTH.modifiers == pytest.approx((2.52, 2.70, 2.52, -0.06))


@pytest.mark.parametrize(
    ("aim", "force", "match"),
    [
        (49.9, 0.5, "aim"),
        (80.1, 0.5, "aim"),
        (float("nan"), 0.5, "aim"),
        (50.0, -0.01, "force"),
        (50.0, 1.01, "force"),
        (50.0, float("nan"), "force"),
        (50.0, float("inf"), "force"),
        ("x", 0.5, "number"),
    ],
)
def test_input_validation(aim, force, match):
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=match):
        landing_distribution(aim, force)
    with pytest.raises(ValueError, match=match):
        sample_flick(aim, force, "average", NONE, rng)
    with pytest.raises(ValueError, match=match):
        sample_flicks(aim, force, "average", NONE, rng, 10)


def test_effects_and_geometry_validation():
    for bad in (4, -1, 1.5, True):
        with pytest.raises(ValueError, match="blocked_band"):
            Effects(blocked_band=bad)
    with pytest.raises(ValueError, match="eyes_closed"):
        Effects(eyes_closed=1)
    with pytest.raises(ValueError, match="LandingGeometry"):
        LandingGeometry(board_edge=30.0)
    with pytest.raises(ValueError, match="LandingGeometry"):
        LandingGeometry(p_stick=1.5)
    with pytest.raises(ValueError, match="effects"):
        landing_distribution(50, 0.5, "average", {"eyes_closed": True})
    with pytest.raises(ValueError, match="n must"):
        sample_flicks(50, 0.5, "average", NONE, np.random.default_rng(0), -1)


def test_geometry_defaults_match_data_sheet():
    """v1 is the data sheet's 7.1/7.2: "All openings are centred at y = 0 and are 4 cm wide",
    "Elevation theta in [50, 80]", "Lateral aim is always y = 0"; v2 keeps 7.1's physics."""
    for g in (GEOMETRY_V1, LandingGeometry()):
        assert (g.launch_height, g.board_edge, g.courtyard_end, g.moat_end) == (2, 8, 18, 25)
        assert (g.wall_x, g.wall_height, g.wall_half_width, g.battlement_depth) == (27, 22, 15, 4)
        assert g.floor_half_width == 20
        assert g.window_bands == ((5.5, 9.0), (11.5, 15.0), (17.0, 20.0))
        assert (g.p_stick, g.tau, g.g, g.speed_base, g.speed_gain) == (0.5, 0.25, 981, 100, 350)
    g = GEOMETRY_V1
    assert g.window_lateral == ((-2.0, 2.0),) * 3 and g.yaw_max == 0.0
    assert (g.aim_min, g.aim_max) == AIM_RANGE == (50.0, 80.0)
    assert landing.LANDING_MODELS["v1"] is GEOMETRY_V1
    assert landing.LANDING_MODELS["v2"] == LandingGeometry() == landing.DEFAULT_GEOMETRY


# --------------------------------------------------------------------------- literal model


def literal_flick(aim, force, prof, effects, normals, u, geo=DEFAULT_GEO, yaw=0.0):
    """Sections 7.3-7.6 transcribed literally (bisection roots, explicit t_H search)."""
    kt, kv, kp, b = effects.modifiers
    th = math.radians(aim + kt * prof.sigma_theta * normals[0])
    fe = min(max(force + b, 0.0), 1.0)
    ve = max(1.0, (100 + 350 * fe) * (1 + kv * prof.sigma_v * normals[1]))
    psi = math.radians(yaw + kp * prof.sigma_psi * normals[2])
    ex, ez = prof.sigma_flutter * normals[3], prof.sigma_flutter * normals[4]
    tau, g, z0 = geo.tau, geo.g, geo.launch_height

    def x(t):
        return ve * math.cos(th) * tau * (1 - math.exp(-t / tau))

    def z(t):
        return z0 + (ve * math.sin(th) + g * tau) * tau * (1 - math.exp(-t / tau)) - g * tau * t

    def root(f, lo, hi):  # f(lo) > 0 > f(hi)
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
        return 0.5 * (lo + hi)

    t_l = root(z, 0.0, 5.0)
    x_max = ve * math.cos(th) * tau
    t_w = -tau * math.log(1 - geo.wall_x / x_max) if x_max > geo.wall_x else math.inf
    arg = (ve * math.sin(th) + g * tau) / (g * tau)
    t_pk = tau * math.log(arg) if arg > 0 else -math.inf
    if t_w >= t_l:  # A. floor case
        xx = x(t_l) + ex
        if abs(xx * math.tan(psi)) > geo.floor_half_width or xx < geo.board_edge:
            return Zone.MISS
        if xx < geo.courtyard_end:
            return Zone.COURTYARD
        return Zone.MOAT if xx < geo.moat_end else Zone.COURTYARD
    zz = z(t_w) + ez  # B. wall case
    if abs(geo.wall_x * math.tan(psi)) > geo.wall_half_width:
        return Zone.MISS
    if zz < 0:
        return Zone.COURTYARD
    if zz > geo.wall_height:
        t0 = max(t_w, t_pk)
        t_h = root(lambda t: z(t) + ez - geo.wall_height, t0, t0 + 10.0)
        return Zone.CASTLE if x(t_h) <= geo.wall_x + geo.battlement_depth else Zone.MISS
    y_wall = geo.wall_x * math.tan(psi)
    for k, ((ylo, yhi), (lo, hi)) in enumerate(
        zip(geo.window_lateral, geo.window_bands, strict=True), start=1
    ):
        if ylo < y_wall < yhi and lo <= zz <= hi and k != effects.blocked_band:
            return Zone.WINDOW
    return Zone.CASTLE if u < geo.p_stick else Zone.COURTYARD


class ScriptedRng:
    """Stands in for a Generator: returns the given normals and uniform."""

    def __init__(self, normals, u):
        self.normals, self.u = np.asarray(normals, dtype=np.float64), u

    def standard_normal(self, n):
        assert n == 5
        return self.normals.copy()

    def random(self):
        return self.u


def test_sample_flick_matches_literal_transcription():
    """The closed forms of sample_flick (x-space wall height, apex/battlement test, Newton for
    t_L) give exactly the outcome of the literal section 7.4/7.5 procedure, shot by shot."""
    rng = np.random.default_rng(2024)
    effects_pool = [
        NONE,
        EYES,
        HANDS,
        BOTH,
        Effects(blocked_band=1),
        Effects(True, False, 2),
        Effects(False, True, 3),
    ]
    seen = set()
    for i in range(3000):
        prof = SKILL_PROFILES[("skilled", "average", "novice")[i % 3]]
        eff = effects_pool[i % len(effects_pool)]
        aim, force = rng.uniform(50, 80), rng.uniform(0, 1)
        normals = rng.standard_normal(5) * 1.5  # exercise the tails too
        u = rng.random()
        got = sample_flick(aim, force, prof, eff, ScriptedRng(normals, u))
        want = literal_flick(aim, force, prof, eff, normals, u)
        assert got == want, (aim, force, prof.name, eff, normals, u)
        seen.add(got)
    assert seen == set(Zone)


def test_over_the_wall_branches():
    """Step B3: a bat clearing the wall lands on the castle iff it comes down to H by x = 31."""
    prof = SkillProfile("exact", 0.0, 0.0, 0.0, 0.0)
    results = {}
    for force in np.linspace(0.5, 1.0, 101):
        for aim in (50.0, 60.0, 70.0, 80.0):
            zone = sample_flick(aim, force, prof, NONE, ScriptedRng(np.zeros(5), 0.9))
            assert zone == literal_flick(aim, force, prof, NONE, np.zeros(5), 0.9)
            results.setdefault(aim, []).append(zone)
    # at 50 deg, pushing the force sweeps window/wall -> castle over the top -> miss behind
    seq = results[50.0]
    assert Zone.CASTLE in seq and seq[-1] == Zone.MISS


# --------------------------------------------------------------------------- sampling


def test_sample_flick_rng_contract():
    """One shot consumes rng.standard_normal(5) then rng.random(); deterministic by seed."""
    r1, r2 = np.random.default_rng(11), np.random.default_rng(11)
    sample_flick(50, 0.5, "average", NONE, r1)
    r2.standard_normal(5)
    r2.random()
    assert r1.bit_generator.state == r2.bit_generator.state
    a = [sample_flick(55, 0.45, "novice", EYES, np.random.default_rng(5)) for _ in range(3)]
    assert len(set(a)) == 1
    seq1 = [sample_flick(55, 0.45, "novice", EYES, r1) for _ in range(50)]
    seq2 = [sample_flick(55, 0.45, "novice", EYES, r2) for _ in range(50)]
    assert seq1 == seq2
    assert all(isinstance(z, Zone) for z in seq1)


def _chisquare(counts: np.ndarray, probs: np.ndarray) -> float:
    """Goodness-of-fit p-value; zones with expected count < 5 are merged into one bin."""
    n = counts.sum()
    expected = probs * n
    small = expected < 5
    obs, exp = list(counts[~small]), list(expected[~small])
    if small.any():
        obs.append(counts[small].sum())
        exp.append(expected[small].sum())
    obs, exp = np.array(obs, dtype=float), np.array(exp)
    exp *= obs.sum() / exp.sum()  # guard against float round-off in the totals
    if obs.size < 2:
        return 1.0
    return float(stats.chisquare(obs, exp).pvalue)


# (skill, effects, aim, force, alternative (aim, force) that must be rejected)
CHI_SETTINGS = [
    ("average", NONE, 50.0, 0.50, (50.0, 0.55)),
    ("novice", EYES, 62.0, 0.34, (62.0, 0.39)),
    ("average", Effects(True, True, 2), 52.0, 0.55, (52.0, 0.60)),  # pesky + blocked band
    (SKILL_PROFILES["skilled"], Effects(blocked_band=3), 50.0, 0.52, (53.0, 0.52)),
    (
        {"sigma_theta": 9.0, "sigma_v": 0.2, "sigma_psi": 12.0, "sigma_flutter": 4.0},
        HANDS,
        74.0,
        0.9,
        (74.0, 0.8),
    ),
]
N_CHI = 20_000


@pytest.mark.parametrize(("skill", "effects", "aim", "force", "alt"), CHI_SETTINGS)
def test_sample_flick_chisquare_against_quadrature(skill, effects, aim, force, alt):
    """20,000 engine shots (the scalar sample_flick) fit the quadrature distribution
    (p > 0.001), and the same counts reject a visibly different setting (p < 1e-6)."""
    rng = np.random.default_rng(12345)
    counts = np.zeros(5, dtype=np.int64)
    for _ in range(N_CHI):
        counts[sample_flick(aim, force, skill, effects, rng)] += 1
    probs = landing_distribution(aim, force, skill, effects)
    assert _chisquare(counts, probs) > 1e-3
    wrong = landing_distribution(alt[0], alt[1], skill, effects)
    assert _chisquare(counts, wrong) < 1e-6


@pytest.mark.parametrize(("skill", "effects", "aim", "force", "alt"), CHI_SETTINGS)
def test_sample_flicks_chisquare_against_quadrature(skill, effects, aim, force, alt):
    """The vectorised sampler at 400,000 shots (standard error ~8e-4) fits the quadrature."""
    zones = sample_flicks(aim, force, skill, effects, np.random.default_rng(99), 400_000)
    assert zones.shape == (400_000,) and zones.dtype == np.int64
    counts = np.bincount(zones, minlength=5)
    assert _chisquare(counts, landing_distribution(aim, force, skill, effects)) > 1e-3


def test_scalar_and_vectorised_samplers_agree():
    """Two-sample test: sample_flick and sample_flicks draw from the same distribution."""
    skill, effects, aim, force = "average", Effects(True, False, 1), 54.0, 0.52
    rng = np.random.default_rng(7)
    scalar = np.zeros(5, dtype=np.int64)
    for _ in range(N_CHI):
        scalar[sample_flick(aim, force, skill, effects, rng)] += 1
    vector = np.bincount(sample_flicks(aim, force, skill, effects, rng, N_CHI), minlength=5)
    keep = (scalar + vector) > 0
    table = np.stack([scalar[keep], vector[keep]])
    assert stats.chi2_contingency(table).pvalue > 1e-3


def test_zero_noise_is_a_point_mass():
    """With every sigma 0 the quadrature collapses onto the deterministic shot's zone."""
    prof = {"sigma_theta": 0.0, "sigma_v": 0.0, "sigma_psi": 0.0, "sigma_flutter": 0.0}
    for aim, force in [(64.0, 0.2), (50.0, 0.28), (60.0, 0.0), (55.0, 0.9)]:
        zone = sample_flick(aim, force, prof, NONE, np.random.default_rng(0))
        dist = landing_distribution(aim, force, prof)
        assert dist[zone] > 0.999, (aim, force, zone, dist)


# --------------------------------------------------------------------------- physical sanity


def test_too_much_force_sails_over():
    miss = [landing_distribution(50, f, "average")[Zone.MISS] for f in (0.5, 0.7, 0.85, 1.0)]
    assert all(a < b for a, b in zip(miss, miss[1:], strict=False))
    assert miss[-1] > 0.5


def test_eyes_closed_falls_short_into_the_moat():
    base = landing_distribution(50, 0.5, "average")
    blind = landing_distribution(50, 0.5, "average", EYES)
    assert blind[Zone.MOAT] > base[Zone.MOAT] + 0.05
    assert blind[Zone.WINDOW] > 0.02  # a blind shot still sometimes goes through a window
    assert expected_progress(blind) < expected_progress(
        landing_distribution(50, 0.5, "average", HANDS)
    )


def test_blocked_band_lowers_window():
    base = landing_distribution(50, 0.5, "average")
    losses = {}
    for band in (1, 2, 3):
        blocked = landing_distribution(50, 0.5, "average", Effects(blocked_band=band))
        assert blocked[Zone.WINDOW] < base[Zone.WINDOW] - 0.03
        # the lost window mass is split by p_stick between castle and courtyard
        lost = base[Zone.WINDOW] - blocked[Zone.WINDOW]
        assert blocked[Zone.CASTLE] - base[Zone.CASTLE] == pytest.approx(lost / 2, abs=1e-9)
        np.testing.assert_allclose(blocked[[0, 2]], base[[0, 2]], atol=1e-12)
        losses[band] = expected_progress(base) - expected_progress(blocked)
    assert max(losses, key=losses.get) == 2  # the middle band costs most (section 7.8)


def test_skill_ordering_and_best_aim():
    e = {s: expected_progress(landing_distribution(50, 0.5, s)) for s in SKILL_PROFILES}
    assert e["skilled"] > e["average"] > e["novice"]
    # best fixed aim: the lowest elevation with a force close to 0.5 for all three profiles
    aims, forces = [50.0, 52.0, 56.0, 64.0], np.round(np.arange(0.40, 0.62, 0.04), 2)
    for s in SKILL_PROFILES:
        values = expected_progress(landing_table(aims, forces, s))
        i, j = np.unravel_index(np.argmax(values), values.shape)
        assert aims[i] == 50.0 and 0.48 <= forces[j] <= 0.52


# --------------------------------------------------------------------------- plots


def test_plots_smoke():
    from matplotlib.figure import Figure

    from boardgames_rl.games.castle_flutterstone.plots import (
        plot_landing_heatmap,
        plot_landing_panels,
    )

    aims, forces = [50.0, 60.0, 70.0], [0.2, 0.5, 0.8]
    fig = plot_landing_heatmap("novice", EYES, aims=aims, forces=forces, geometry=GEOMETRY_V1)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert "aim" in ax.get_ylabel() and "force" in ax.get_xlabel()
    assert len(fig.axes) == 2  # heatmap + colorbar
    host = Figure()
    target = host.add_subplot()
    v1 = {"aims": aims, "forces": forces, "geometry": GEOMETRY_V1}
    assert plot_landing_heatmap(ax=target, metric="window", **v1) is host
    assert plot_landing_heatmap(metric=Zone.MOAT, **v1) is not None
    with pytest.raises(ValueError, match="metric"):
        plot_landing_heatmap(metric="bogus", **v1)
    panels = plot_landing_panels("skilled", Effects(blocked_band=2), **v1)
    assert len(panels.axes) == 10  # five heatmaps, five colorbars
    panels.canvas.draw()  # renders headless (Agg)


def test_the_compiled_flights_zone_numbers_are_the_zones():
    """``flight.fly`` returns numbers, ``sample_flick`` reads them back as :class:`Zone` by
    position: the two must name the same zones in the same order."""
    from boardgames_rl.games.castle_flutterstone import flight
    from boardgames_rl.games.castle_flutterstone.landing import _ZONES, Zone

    codes = (flight.MISS, flight.COURTYARD, flight.MOAT, flight.CASTLE, flight.WINDOW)
    assert codes == tuple(int(z) for z in Zone) == tuple(range(len(Zone)))
    assert [_ZONES[c] for c in codes] == list(Zone)


def test_the_compiled_flights_degrees_to_radians_is_math_radians():
    """``flight`` turns degrees into radians by a product with a constant (a native operation
    in the compiled build); it must be ``math.radians`` to the last bit, or flights would land
    elsewhere than the model says."""
    from boardgames_rl.games.castle_flutterstone import flight

    rng = np.random.default_rng(3)
    degrees = [*rng.uniform(-720.0, 720.0, 20_000).tolist(), 0.0, -0.0, 50.0, 80.0, 1e-300]
    assert all(x * flight._RADIANS_PER_DEGREE == math.radians(x) for x in degrees)
