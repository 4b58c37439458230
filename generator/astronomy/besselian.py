"""Shadow-axis geometry of solar eclipses: Besselian elements from the ephemeris.

The fundamental plane passes through the Earth's centre perpendicular to the axis of
the Moon's shadow (the line through the centres of the Sun and the Moon).  Its axes
are x towards the east (in the true equator of date), y towards the north and z along
the axis towards the Sun; lengths are in units of the Earth's equatorial radius.
The Besselian elements are then

* ``x``, ``y``: the point where the shadow axis crosses the fundamental plane;
* ``d_deg``, ``mu_deg``: declination and Greenwich hour angle of the axis direction
  (``mu_deg`` is the true hour angle, computed with UT1; NASA's tables give the
  "ephemeris" hour angle, larger by 1.002738 × ΔT × 15″/s);
* ``l1``, ``l2``: radii of the penumbral and umbral cones in the fundamental plane
  (``l2`` negative where the umbra reaches past the plane, i.e. a total eclipse);
* ``tan_f1``, ``tan_f2``: tangents of the cones' half-angles.

Definitions follow the Explanatory Supplement to the Astronomical Almanac (1992),
ch. 8 "Eclipses of the Sun and Moon", and Meeus, *Elements of Solar Eclipses
1951–2200* (1989).  Positions are geocentric apparent (light time, aberration) of
date from JPL DE440 through skyfield; the Earth is the IERS ellipsoid with the
flattening 1/298.257.  The lunar radii are the two values of NASA's Five Millennium
Canon of Solar Eclipses (Espenak & Meeus 2006): k1 for the penumbra, k2 (the IAU
mean radius) for the umbra.

Every function takes and returns numpy arrays (one element per instant or eclipse).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from skyfield.framelib import true_equator_and_equinox_of_date

from generator.astronomy import ephemeris

EARTH_EQUATORIAL_RADIUS_KM = 6378.1366  # IERS 2003 / IAU 2009 (skyfield's ERAD)
EARTH_FLATTENING = 1 / 298.257  # IERS ellipsoid
EARTH_E2 = EARTH_FLATTENING * (2 - EARTH_FLATTENING)  # first eccentricity squared
SUN_RADIUS_KM = 696000.0  # Espenak & Meeus' solar radius (959.63″ at 1 au)
MOON_K_PENUMBRA = 0.272488  # lunar radius / Earth radius for penumbral contacts (5MCSE)
MOON_K_UMBRA = 0.272281  # lunar radius / Earth radius for umbral contacts (5MCSE, IAU 1982)
SIDEREAL_RATE = 1.00273790935  # UT1 seconds of sidereal rotation per second
EPHEMERIS_MU_DEG_PER_S = SIDEREAL_RATE * 15.0 / 3600.0  # μ(ephemeris) − μ(true) per second of ΔT


@dataclass(frozen=True)
class Elements:
    """Besselian elements at an array of instants (Earth equatorial radii, degrees)."""

    x: np.ndarray
    y: np.ndarray
    z: np.ndarray  # the Moon's distance from the fundamental plane
    d_deg: np.ndarray
    mu_deg: np.ndarray
    l1: np.ndarray
    l2: np.ndarray
    tan_f1: np.ndarray
    tan_f2: np.ndarray


def positions_km(tt_jd: np.ndarray, *, of_date: bool = True, geometric: bool = False):
    """Return (sun_km, moon_km, gast_hours) at TT Julian dates.

    ``sun_km`` and ``moon_km`` are (3, N) geocentric apparent positions (light time and
    aberration applied).  With ``of_date`` they are in the true equator and equinox of
    date and ``gast_hours`` is the Greenwich apparent sidereal time (UT1 from skyfield's
    built-in ΔT); without it they stay in the GCRS and ``gast_hours`` is None, which
    skips the costly precession-nutation for quantities that do not depend on the frame
    (distances and angles between the two bodies).  With ``geometric`` the positions are
    plain geometric vectors: the Sun then sits ~20″ off, which only a coarse scan can
    afford.
    """
    t = ephemeris.timescale().tt_jd(np.asarray(tt_jd, dtype=float))
    b = ephemeris.bodies()
    earth = b.earth.at(t)
    if geometric:
        sun, moon = b.sun.at(t).xyz.km - earth.xyz.km, b.moon.at(t).xyz.km - earth.xyz.km
    else:
        sun, moon = earth.observe(b.sun).apparent().xyz.km, earth.observe(b.moon).apparent().xyz.km
    if not of_date:
        return sun, moon, None
    rotation = true_equator_and_equinox_of_date.rotation_at(t)
    rotate = "ij...,j...->i..."
    return np.einsum(rotate, rotation, sun), np.einsum(rotate, rotation, moon), t.gast


def axis_offset(tt_jd: np.ndarray, *, geometric: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Return (x² + y², z) of the shadow axis at TT Julian dates, in equatorial radii.

    x² + y² is the squared distance of the axis from the Earth's centre and z the Moon's
    distance from the fundamental plane; neither depends on the orientation of the axes,
    so they are computed in the GCRS (see `positions_km`).
    """
    sun, moon, _ = positions_km(np.atleast_1d(np.asarray(tt_jd, dtype=float)), of_date=False, geometric=geometric)
    axis = sun - moon
    k = axis / np.linalg.norm(axis, axis=0)
    moon_er = moon / EARTH_EQUATORIAL_RADIUS_KM
    z = np.einsum("ij,ij->j", moon_er, k)
    return np.einsum("ij,ij->j", moon_er, moon_er) - z * z, z


def elements(tt_jd: np.ndarray) -> Elements:
    """Return the Besselian elements at TT Julian dates (any array shape flattened to 1-D).

    Definitions: Explanatory Supplement (1992) 8.3; the cone radii use
    sin f1 = (R_sun + k1·a)/|S − M| and sin f2 = (R_sun − k2·a)/|S − M|, with
    l1 = z·tan f1 + k1/cos f1 and l2 = z·tan f2 − k2/cos f2 (a the equatorial radius).
    """
    tt_jd = np.atleast_1d(np.asarray(tt_jd, dtype=float))
    sun, moon, gast_hours = positions_km(tt_jd)
    axis = sun - moon
    axis_km = np.linalg.norm(axis, axis=0)
    k = axis / axis_km
    d = np.arcsin(k[2])
    a = np.arctan2(k[1], k[0])
    zero = np.zeros_like(a)
    i_hat = np.stack([-np.sin(a), np.cos(a), zero])
    j_hat = np.stack([-np.sin(d) * np.cos(a), -np.sin(d) * np.sin(a), np.cos(d)])
    moon_er = moon / EARTH_EQUATORIAL_RADIUS_KM
    f1 = np.arcsin((SUN_RADIUS_KM + MOON_K_PENUMBRA * EARTH_EQUATORIAL_RADIUS_KM) / axis_km)
    f2 = np.arcsin((SUN_RADIUS_KM - MOON_K_UMBRA * EARTH_EQUATORIAL_RADIUS_KM) / axis_km)
    z = np.einsum("ij,ij->j", moon_er, k)
    return Elements(
        x=np.einsum("ij,ij->j", moon_er, i_hat),
        y=np.einsum("ij,ij->j", moon_er, j_hat),
        z=z,
        d_deg=np.degrees(d),
        mu_deg=(gast_hours * 15.0 - np.degrees(a)) % 360.0,
        l1=z * np.tan(f1) + MOON_K_PENUMBRA / np.cos(f1),
        l2=z * np.tan(f2) - MOON_K_UMBRA / np.cos(f2),
        tan_f1=np.tan(f1),
        tan_f2=np.tan(f2),
    )


def outline_minor_axis(d_deg: np.ndarray) -> np.ndarray:
    """Return ρ1, the north–south semi-axis of the Earth's outline on the fundamental plane.

    The ellipsoid seen along a direction of declination d projects to an ellipse of
    semi-axes 1 (east–west) and ρ1 = √(1 − e² cos² d) (Explanatory Supplement 8.3).
    """
    return np.sqrt(1.0 - EARTH_E2 * np.cos(np.radians(d_deg)) ** 2)


def axis_surface_point(x: np.ndarray, y: np.ndarray, d_deg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (ζ, point) where the shadow axis meets the ellipsoid (NaN where it misses).

    Units: equatorial radii.  ``point`` is (3, N) in the "axis frame": the true equator
    of date turned so that the axis has right ascension 0 (so a point's east longitude
    is its azimuthal angle in this frame minus μ).  The axis is P(ζ) = x î + y ĵ + ζ k̂;
    the sunward root ζ of Px² + Py² + Pz²/(1 − f)² = 1 is the height of the intersection
    above the fundamental plane.
    """
    i_hat, j_hat, k_hat = _axis_frame(d_deg)
    x, y = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    scale = np.array([1.0, 1.0, 1.0 / (1.0 - EARTH_FLATTENING)])[:, None]
    p0 = (x * i_hat + y * j_hat) * scale
    u = k_hat * scale
    qa = np.einsum("ij,ij->j", u, u)
    qb = 2 * np.einsum("ij,ij->j", u, p0)
    qc = np.einsum("ij,ij->j", p0, p0) - 1.0
    disc = qb * qb - 4 * qa * qc
    zeta = np.full_like(qa, np.nan)
    hit = disc >= 0
    zeta[hit] = (-qb[hit] + np.sqrt(disc[hit])) / (2 * qa[hit])
    return zeta, x * i_hat + y * j_hat + zeta * k_hat


def limb_closest_point(x: np.ndarray, y: np.ndarray, d_deg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (distance, point) for the point of the Earth's limb closest to the shadow axis.

    ``distance`` (equatorial radii) is measured in the fundamental plane from the axis
    (x, y) to the Earth's outline, the ellipse of semi-axes 1 and ρ1 (`outline_minor_axis`),
    positive outside it.  ``point`` is the (3, N) point of the ellipsoid, in the axis
    frame of `axis_surface_point`, that projects onto the closest outline point: the
    support point A n/√(nᵀA n) (A = diag(1, 1, (1 − f)²)) for the outline normal n, where
    the Sun is on the geodetic horizon.  The outline point (cos t, ρ1 sin t) closest to
    (x, y) solves g(t) = −x sin t + ρ1 y cos t + (1 − ρ1²) sin t cos t = 0 (Newton steps
    from the circular answer; the outline is within 0.34 % of a circle).
    """
    i_hat, j_hat, _ = _axis_frame(d_deg)
    x, y = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    rho1 = outline_minor_axis(d_deg) * np.ones_like(x)
    t = np.arctan2(y / rho1, x)
    for _ in range(5):
        g = -x * np.sin(t) + rho1 * y * np.cos(t) + (1 - rho1**2) * np.sin(t) * np.cos(t)
        dg = -x * np.cos(t) - rho1 * y * np.sin(t) + (1 - rho1**2) * np.cos(2 * t)
        t = t - g / dg
    px, py = np.cos(t), rho1 * np.sin(t)
    normal_x, normal_y = rho1 * np.cos(t), np.sin(t)  # outward normal of the outline at t
    distance = np.hypot(x - px, y - py) * np.sign((x - px) * normal_x + (y - py) * normal_y)
    n = normal_x * i_hat + normal_y * j_hat
    a_diag = np.array([1.0, 1.0, (1.0 - EARTH_FLATTENING) ** 2])[:, None]
    point = a_diag * n / np.sqrt(np.einsum("ij,ij->j", n, a_diag * n))
    return distance, point


def _axis_frame(d_deg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (î, ĵ, k̂), each (3, N), in the equatorial frame turned to the axis' right ascension."""
    d = np.atleast_1d(np.radians(np.asarray(d_deg, dtype=float)))
    zero, one = np.zeros_like(d), np.ones_like(d)
    return (
        np.stack([zero, one, zero]),
        np.stack([-np.sin(d), zero, np.cos(d)]),
        np.stack([np.cos(d), zero, np.sin(d)]),
    )


def geodetic(point: np.ndarray, mu_deg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (lat_deg, lon_deg) of a point on the ellipsoid given in the axis frame.

    Longitude is east-positive in [−180, 180): the point's angle from the axis meridian
    minus the axis' Greenwich hour angle μ.  Geodetic latitude of a surface point:
    tan φ = z/((1 − f)² √(x² + y²)).
    """
    lon_deg = np.degrees(np.arctan2(point[1], point[0])) - np.asarray(mu_deg)
    lat_rad = np.arctan2(point[2], (1.0 - EARTH_FLATTENING) ** 2 * np.hypot(point[0], point[1]))
    return np.degrees(lat_rad), (lon_deg + 180.0) % 360.0 - 180.0


def observer_xyz(lat_deg, lon_deg, d_deg, mu_deg) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (ξ, η, ζ) of a point on the ellipsoid surface, in equatorial radii.

    The point (geodetic latitude, east longitude, height 0) in the fundamental-plane
    axes at declination d and hour angle μ: with the local hour angle H = μ + λ and the
    reduced latitude u (tan u = (1 − f) tan φ), ρ cos φ′ = cos u, ρ sin φ′ = (1 − f) sin u,
    ξ = ρ cos φ′ sin H, η = ρ sin φ′ cos d − ρ cos φ′ cos H sin d,
    ζ = ρ sin φ′ sin d + ρ cos φ′ cos H cos d (Explanatory Supplement 8.35).
    """
    phi = np.radians(lat_deg)
    u = np.arctan((1.0 - EARTH_FLATTENING) * np.tan(phi))
    rho_sin = (1.0 - EARTH_FLATTENING) * np.sin(u)
    rho_cos = np.cos(u)
    h = np.radians(np.asarray(mu_deg) + np.asarray(lon_deg))
    d = np.radians(d_deg)
    xi = rho_cos * np.sin(h)
    eta = rho_sin * np.cos(d) - rho_cos * np.cos(h) * np.sin(d)
    zeta = rho_sin * np.sin(d) + rho_cos * np.cos(h) * np.cos(d)
    return xi, eta, zeta
