"""Every solar and lunar eclipse of 2020–2040, computed from the ephemeris (never typed in).

Solar eclipses come from the shadow-axis geometry of `generator.astronomy.besselian`: the axis
of the Moon's shadow is followed through every new moon of the period, the instant of
greatest eclipse is where it passes closest to the Earth's centre, and the type,
magnitude, ground point and central duration follow from the Besselian elements.
Lunar eclipses are found with skyfield's ``eclipselib.lunar_eclipses`` and then
measured here against the Earth's shadow with Danjon's enlargement.  Both follow the
definitions of NASA's Five Millennium Canons (Espenak & Meeus, NASA/TP-2006-214141 for
the Sun, NASA/TP-2009-214172 for the Moon); `docs/decisions.md` lists them.

Definitions of the stored fields (one record per eclipse, sorted by time):

* ``tt_jd``: the instant of greatest eclipse as a Terrestrial Time Julian date;
  ``utc``: the same instant in UTC, ISO 8601 to the second; ``unix_day``: its UTC date
  as days since 1970-01-01 (the date used for the Hijri conversion);
* ``gamma``: solar, the least distance of the shadow axis from the Earth's centre;
  lunar, the distance of the Moon's centre from the axis of the Earth's shadow; both in
  Earth equatorial radii at greatest eclipse, positive when the axis (solar) or the
  Moon (lunar) passes north of the centre;
* ``magnitude``: solar, NASA's eclipse magnitude at greatest eclipse (the ratio of the
  apparent diameters of Moon and Sun on the central line for central eclipses, the
  fraction of the Sun's diameter covered at the point of the limb nearest the axis
  otherwise); lunar, the umbral magnitude (negative when the Moon misses the umbra);
* ``penumbral_mag``: lunar, the penumbral magnitude; solar, the same number as
  ``magnitude`` (a solar eclipse has a single magnitude; SPEC 2.8 types the field as a
  number);
* ``durations_min``: lunar, the penumbral, partial and total phases (first to last
  contact with each shadow, minutes, null when the phase does not happen); solar, the
  ``partial`` entry is the global partial phase (the penumbra's first to last contact
  with the Earth) and the other two are null;
* ``central_duration_min``: solar only, the duration of totality or annularity on the
  central line at the point of greatest eclipse (null when not central);
* ``greatest``: solar, the point where the axis meets the Earth (``central`` true) or
  the point of the limb nearest the axis (``central`` false); lunar, the point with the
  Moon in the zenith at greatest eclipse, ``central`` true for NASA's central lunar
  eclipses (types T+ and T−: the Moon's disc covers the shadow axis at greatest eclipse).

The list is stored as ``data/tables/eclipses.json`` (generated, git-ignored), written
atomically on first use and read once per process.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np
from skyfield import eclipselib

from generator import tables
from generator.astronomy import besselian, ephemeris
from generator.places import days

TABLE_PATH = tables.TABLES_DIR / "eclipses.json"
TABLE_VERSION = "3"  # bump when a field or its definition changes

FIRST_DATE = date(2020, 1, 1)  # SPEC 8: eclipse coverage 2020 through 2040 (UTC dates)
LAST_DATE = date(2040, 12, 31)
SECONDS_PER_DAY = 86400.0

KINDS = ("solar", "lunar")
TYPES = ("total", "annular", "hybrid", "partial", "penumbral")
SOLAR_TYPES = ("total", "annular", "hybrid", "partial")
LUNAR_TYPES = ("total", "partial", "penumbral")

# Sampling.  The shadow axis crosses the fundamental plane at ~0.5 Earth radii per hour;
# a whole solar eclipse (first to last penumbral contact) lasts at most ~6.3 h and a
# lunar one at most ~6.3 h, so ±4 h around greatest eclipse holds every contact.
SCAN_STEP_DAYS = 0.25  # coarse scan for the axis' closest approach, one minimum per lunation
WINDOW_HOURS = 4.0
# contacts: linear interpolation between samples of smooth functions; at 60 s the error of
# a solar contact is ~0.1 s (curvature 0.3 radii/h² against a speed of 0.5 radii/h)
STEP_S = 60.0
LUNAR_STEP_S = 30.0  # the Moon crosses a shadow edge ~15 times slower than the solar axis moves
CENTRAL_STEP_S = 1.0  # the central duration (as short as a few seconds) at 1 s

# Lunar eclipses: the Earth's shadow with Danjon's enlargement as NASA's Five Millennium
# Canon of Lunar Eclipses uses it (Espenak & Meeus 2009, sec. 1.4): radii
# Rp = 1.01 π_M + s_S + π_S and Ru = 1.01 π_M − s_S + π_S, where 1.01 ≈ 1 + 1/85 − 1/594
# (Danjon's 1/85 atmosphere, less the Earth's mean oblateness).
DANJON_FACTOR = 1.01
MOON_K_LUNAR = 0.2725076  # lunar radius / Earth equatorial radius (IAU), 5MCLE


def _instants(tt_jd: np.ndarray) -> tuple[list[str], list[str], np.ndarray]:
    """Return (UTC ISO strings, TT ISO strings, UTC dates as Unix day numbers).

    Both strings are rounded to the second; the UTC one ends in ``Z``, the TT one has no
    zone designator (TT is a time scale, not a civil zone).  UTC follows skyfield's
    leap-second table (no leap second is known after 2016).
    """
    t = ephemeris.timescale().tt_jd(np.atleast_1d(np.asarray(tt_jd, dtype=float)))
    utc = list(t.utc_strftime("%Y-%m-%dT%H:%M:%SZ"))
    tt = list(t.tt_strftime("%Y-%m-%dT%H:%M:%S"))
    unix_days = np.array([days.unix_day(s[:10]) for s in utc], dtype=np.int64)
    return utc, tt, unix_days


# --------------------------------------------------------------------------- solar


def solar_greatest_instants(first_tt_jd: float, last_tt_jd: float) -> np.ndarray:
    """Return the TT Julian dates at which the shadow axis passes closest to the Earth's
    centre, one per new moon between the two dates (eclipse or not).

    Greatest eclipse is the minimum of w = x² + y² (NASA's definition).  A 6-hour scan
    (geometric positions) finds one minimum per lunation, only where z > 0 (the Moon
    between Sun and Earth); Newton steps t ← t − w′/w″ on apparent positions, with
    derivatives from samples 60 s apart, then converge to well under 0.1 s because the
    axis moves on a nearly straight line at nearly constant speed (w is nearly a parabola).
    """
    t = np.arange(first_tt_jd - 1.0, last_tt_jd + 1.0, SCAN_STEP_DAYS)
    w, z = besselian.axis_offset(t, geometric=True)
    w = np.where(z > 0, w, np.inf)
    # a local minimum of the samples within 4 radii: the axis moves ~3 radii between
    # samples, so an eclipse (|γ| < 1.6) always has a sample within ~2.3 radii, while
    # the spurious minima where z changes sign (quadrature) lie ~60 radii out
    i = np.flatnonzero((w[1:-1] < w[:-2]) & (w[1:-1] <= w[2:]) & (w[1:-1] < 16.0)) + 1
    tt = t[i]
    h = 60.0 / SECONDS_PER_DAY
    for _ in range(4):
        wm, w0, wp = besselian.axis_offset(np.concatenate([tt - h, tt, tt + h]))[0].reshape(3, -1)
        tt = tt - h * (wp - wm) / (2.0 * (wp - 2.0 * w0 + wm))
    tt = np.sort(tt)
    tt = tt[np.concatenate([[True], np.diff(tt) > 1.0])]  # two starts in one lunation: one instant
    return tt[(tt >= first_tt_jd) & (tt <= last_tt_jd)]


def _crossings(tau: np.ndarray, f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the first and last zero of f along the last axis (NaN when f never crosses).

    ``tau`` is the shared sample grid; between samples f is taken as linear.  Used for
    contacts: f < 0 during the phase, f > 0 outside, one phase per eclipse.
    """
    inside = f < 0
    first = np.full(f.shape[0], np.nan)
    last = np.full(f.shape[0], np.nan)
    rows = np.flatnonzero(inside.any(axis=1) & ~inside[:, 0] & ~inside[:, -1])
    if rows.size:
        i = inside[rows].argmax(axis=1)  # first sample inside
        j = f.shape[1] - 1 - inside[rows, ::-1].argmax(axis=1)  # last sample inside
        fr = f[rows]
        a0, a1 = fr[np.arange(rows.size), i - 1], fr[np.arange(rows.size), i]
        b0, b1 = fr[np.arange(rows.size), j], fr[np.arange(rows.size), j + 1]
        first[rows] = tau[i - 1] + (tau[i] - tau[i - 1]) * a0 / (a0 - a1)
        last[rows] = tau[j] + (tau[j + 1] - tau[j]) * b0 / (b0 - b1)
    return first, last


def solar_eclipses(first_tt_jd: float, last_tt_jd: float) -> list[dict[str, Any]]:
    """Return every solar eclipse whose greatest eclipse falls between two TT Julian dates.

    Each record has the fields described in the module docstring.  Classification
    (Explanatory Supplement 8.3; NASA 5MCSE): the eclipse exists when the penumbral cone
    reaches the Earth's outline (distance Δ from the axis to the outline < l1 at some
    instant); it is central when the axis itself meets the ellipsoid; a central eclipse
    is total, annular or hybrid by the sign of L2′ = l2 − ζ tan f2 along the central line
    (negative: total); a non-central one is total or annular when the umbral cone
    reaches the limb (Δ < |l2|), else partial.
    """
    t0 = solar_greatest_instants(first_tt_jd, last_tt_jd)
    # drop lunations whose axis stays far from the Earth (no eclipse is possible once the
    # axis is more than 1 + l1 ≈ 1.57 radii away); a margin keeps grazing cases
    t0 = t0[besselian.axis_offset(t0)[0] < 1.7**2]
    if t0.size == 0:
        return []
    n_eclipse = t0.size

    # elements on a shared grid of offsets around each greatest eclipse
    tau_s = np.arange(-WINDOW_HOURS * 3600, WINDOW_HOURS * 3600 + STEP_S, STEP_S)
    grid = t0[:, None] + tau_s[None, :] / SECONDS_PER_DAY
    el = besselian.elements(grid.ravel())
    shape = grid.shape
    x, y, d, l1, l2, tan_f2 = (np.reshape(v, shape) for v in (el.x, el.y, el.d_deg, el.l1, el.l2, el.tan_f2))
    mu = np.unwrap(np.radians(el.mu_deg.reshape(shape)), axis=1)  # radians, continuous
    tan_f1 = el.tan_f1.reshape(shape)
    mid = np.searchsorted(tau_s, 0.0)

    # penumbra and umbra against the Earth's outline
    limb_distance, _ = besselian.limb_closest_point(x.ravel(), y.ravel(), d.ravel())
    limb_distance = limb_distance.reshape(shape)
    exists = (limb_distance - l1 < 0).any(axis=1)
    p_first, p_last = _crossings(tau_s, limb_distance - l1)

    # the central line: where the axis meets the ellipsoid, and L2′ there
    zeta_axis = besselian.axis_surface_point(x.ravel(), y.ravel(), d.ravel())[0].reshape(shape)
    central_now = np.isfinite(zeta_axis)
    central = central_now.any(axis=1)
    big_l2 = np.where(central_now, l2 - np.nan_to_num(zeta_axis) * tan_f2, np.nan)
    umbral_noncentral = ~central & (limb_distance - np.abs(l2) < 0).any(axis=1)

    kinds = []
    for row in range(n_eclipse):
        if central[row]:
            # L2′ along the central line, plus l2 itself at its two ends (there ζ = 0), so
            # that an annular stretch shorter than one sample at sunrise or sunset still
            # makes the eclipse hybrid
            on_line = np.flatnonzero(central_now[row])
            values = np.concatenate([big_l2[row, on_line], l2[row, on_line[[0, -1]]]])
            kinds.append("total" if (values < 0).all() else "annular" if (values > 0).all() else "hybrid")
        elif umbral_noncentral[row]:
            kinds.append("total" if l2[row, mid] < 0 else "annular")
        else:
            kinds.append("partial")

    # greatest eclipse (the sample at offset 0 is t0 itself)
    xg, yg, dg, mug = x[:, mid], y[:, mid], d[:, mid], np.degrees(mu[:, mid])
    gamma = np.sign(yg) * np.hypot(xg, yg)
    zeta_g, ground = besselian.axis_surface_point(xg, yg, dg)
    on_axis = np.isfinite(zeta_g)
    big_l1 = l1[:, mid] - np.nan_to_num(zeta_g) * tan_f1[:, mid]
    big_l2g = l2[:, mid] - np.nan_to_num(zeta_g) * tan_f2[:, mid]
    limb_g, limb_point = besselian.limb_closest_point(xg, yg, dg)
    magnitude = np.where(
        on_axis,
        (big_l1 - big_l2g) / (big_l1 + big_l2g),  # ratio of apparent diameters on the axis
        (l1[:, mid] - limb_g) / (l1[:, mid] + l2[:, mid]),  # fraction of the diameter at the limb
    )
    where = np.where(on_axis[None, :], ground, limb_point)
    lat, lon = besselian.geodetic(where, mug)
    central_min = _central_duration_min(tau_s, x, y, d, mu, l2, tan_f2, lat, lon, on_axis)

    iso, tt_iso, days = _instants(t0)
    records = []
    for row in np.flatnonzero(exists):
        partial_min = (p_last[row] - p_first[row]) / 60.0
        records.append(
            {
                "kind": "solar",
                "type": kinds[row],
                "tt_jd": float(t0[row]),
                "utc": iso[row],
                "tt": tt_iso[row],
                "unix_day": int(days[row]),
                "gamma": float(gamma[row]),
                "magnitude": float(magnitude[row]),
                "penumbral_mag": float(magnitude[row]),
                "durations_min": {"penumbral": None, "partial": _or_none(partial_min), "total": None},
                "central_duration_min": _or_none(central_min[row]),
                "greatest": {"lat": float(lat[row]), "lon": float(lon[row]), "central": bool(on_axis[row])},
            }
        )
    return records


def _central_duration_min(tau_s, x, y, d, mu, l2, tan_f2, lat, lon, on_axis) -> np.ndarray:
    """Return the duration of totality or annularity at each eclipse's greatest point, minutes.

    The observer is fixed on the Earth at (lat, lon); the elements are interpolated to
    1 s steps (linear interpolation over 60 s is good to 1e-8 radii) and the contacts are where the
    observer's distance from the axis equals |L2′| = |l2 − ζ tan f2| (Explanatory
    Supplement 8.36).  NaN where the eclipse is not central.
    """
    fine = np.arange(-15 * 60.0, 15 * 60.0 + CENTRAL_STEP_S, CENTRAL_STEP_S)  # ±15 min
    out = np.full(x.shape[0], np.nan)
    rows = np.flatnonzero(on_axis)
    if rows.size == 0:
        return out

    def interp(v: np.ndarray) -> np.ndarray:
        return np.stack([np.interp(fine, tau_s, v[r]) for r in rows])

    xf, yf, df, muf, l2f, tf2 = (interp(v) for v in (x, y, d, mu, l2, tan_f2))
    xi, eta, zeta = besselian.observer_xyz(lat[rows, None], lon[rows, None], df, np.degrees(muf))
    big_l2 = l2f - zeta * tf2
    f = np.hypot(xf - xi, yf - eta) - np.abs(big_l2)
    first, last = _crossings(fine, f)
    out[rows] = (last - first) / 60.0
    return out


def _or_none(value: float) -> float | None:
    return None if value is None or not np.isfinite(value) else float(value)


# --------------------------------------------------------------------------- lunar


def _lunar_geometry(tt_jd: np.ndarray, *, of_date: bool = True) -> dict[str, np.ndarray]:
    """Return the Moon against the Earth's shadow at TT Julian dates (radians, radii).

    ``separation``: the angle at the Earth's centre between the Moon's centre and the
    shadow axis (the anti-Sun direction of the apparent Sun); ``umbra``, ``penumbra``: the
    shadow radii by Danjon's rule; ``moon_radius``: the Moon's geocentric semi-diameter.
    With ``of_date`` also ``distance_er``: the Moon's centre from the axis in Earth
    equatorial radii, positive north of it, and ``lat_deg``, ``lon_deg``: where the Moon
    is in the zenith (without it, the frame-free quantities only, in the GCRS).
    """
    sun, moon, gast_hours = besselian.positions_km(tt_jd, of_date=of_date)
    er = besselian.EARTH_EQUATORIAL_RADIUS_KM
    sun_km = np.linalg.norm(sun, axis=0)
    moon_km = np.linalg.norm(moon, axis=0)
    axis = -sun / sun_km
    separation = np.arccos(np.clip(np.einsum("ij,ij->j", axis, moon) / moon_km, -1.0, 1.0))
    pi_m = np.arcsin(er / moon_km)
    pi_s = np.arcsin(er / sun_km)
    s_s = np.arcsin(besselian.SUN_RADIUS_KM / sun_km)
    out = {
        "separation": separation,
        "penumbra": DANJON_FACTOR * pi_m + s_s + pi_s,
        "umbra": DANJON_FACTOR * pi_m - s_s + pi_s,
        "moon_radius": np.arcsin(MOON_K_LUNAR * er / moon_km),
    }
    if of_date:
        d = np.arcsin(axis[2])
        a = np.arctan2(axis[1], axis[0])
        north = np.stack([-np.sin(d) * np.cos(a), -np.sin(d) * np.sin(a), np.cos(d)])
        sign = np.where(np.einsum("ij,ij->j", north, moon) >= 0, 1.0, -1.0)
        moon_ra = np.arctan2(moon[1], moon[0])
        out["distance_er"] = sign * moon_km * np.sin(separation) / er
        out["lat_deg"] = np.degrees(np.arcsin(moon[2] / moon_km))
        out["lon_deg"] = (np.degrees(moon_ra) - gast_hours * 15.0 + 180.0) % 360.0 - 180.0
    return out


def lunar_eclipses(first_tt_jd: float, last_tt_jd: float) -> list[dict[str, Any]]:
    """Return every lunar eclipse whose greatest eclipse falls between two TT Julian dates.

    skyfield's ``eclipselib.lunar_eclipses`` (Explanatory Supplement 11.2.3) finds the
    full moons that meet the penumbra; greatest eclipse is then refined here to the
    minimum of the angular distance D between the Moon's centre and the shadow axis seen
    from the Earth's centre (this reproduces NASA's times to ~1 s; the minimum of the
    linear distance would differ by up to 10 s at large gamma), and the magnitudes,
    contacts and type follow from Danjon's shadow radii.  Magnitudes:
    umbral (Ru + s_M − D)/(2 s_M), penumbral (Rp + s_M − D)/(2 s_M), D the angular
    distance of the Moon's centre from the axis.  Contacts: D = Rp + s_M (penumbral),
    D = Ru + s_M (partial), D = Ru − s_M (total).
    """
    ts = ephemeris.timescale()
    times, _, _ = eclipselib.lunar_eclipses(ts.tt_jd(first_tt_jd - 1), ts.tt_jd(last_tt_jd + 1), ephemeris.bodies().kernel)
    t_found = np.atleast_1d(times.tt)
    if t_found.size == 0:
        return []
    tau_s = np.arange(-WINDOW_HOURS * 3600, WINDOW_HOURS * 3600 + LUNAR_STEP_S, LUNAR_STEP_S)
    grid = t_found[:, None] + tau_s[None, :] / SECONDS_PER_DAY
    g = {k: v.reshape(grid.shape) for k, v in _lunar_geometry(grid.ravel(), of_date=False).items()}

    # greatest eclipse: parabola through the three samples around the least separation,
    # fitted to D² (D itself has a V-shaped minimum when the Moon crosses the axis, while
    # D² = D0² + v²t² is a parabola for nearly uniform motion)
    dist = g["separation"] ** 2
    i = np.clip(dist.argmin(axis=1), 1, len(tau_s) - 2)
    rows = np.arange(grid.shape[0])
    y0, y1, y2 = dist[rows, i - 1], dist[rows, i], dist[rows, i + 1]
    shift = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2)
    t0 = t_found + (tau_s[i] + shift * LUNAR_STEP_S) / SECONDS_PER_DAY
    keep = (t0 >= first_tt_jd) & (t0 <= last_tt_jd)
    t0, g = t0[keep], {k: v[keep] for k, v in g.items()}
    if t0.size == 0:
        return []
    at = _lunar_geometry(t0)

    sep, sm = at["separation"], at["moon_radius"]
    umbral_mag = (at["umbra"] + sm - sep) / (2 * sm)
    penumbral_mag = (at["penumbra"] + sm - sep) / (2 * sm)
    contacts = {
        "penumbral": g["separation"] - (g["penumbra"] + g["moon_radius"]),
        "partial": g["separation"] - (g["umbra"] + g["moon_radius"]),
        "total": g["separation"] - (g["umbra"] - g["moon_radius"]),
    }
    durations = {}
    for phase, f in contacts.items():
        first, last = _crossings(tau_s, f)
        durations[phase] = (last - first) / 60.0

    iso, tt_iso, days = _instants(t0)
    records = []
    for row in range(t0.size):
        if penumbral_mag[row] <= 0:
            continue  # skyfield's search margin: the Moon only grazed past the penumbra
        kind = "total" if umbral_mag[row] >= 1 else "partial" if umbral_mag[row] > 0 else "penumbral"
        records.append(
            {
                "kind": "lunar",
                "type": kind,
                "tt_jd": float(t0[row]),
                "utc": iso[row],
                "tt": tt_iso[row],
                "unix_day": int(days[row]),
                "gamma": float(at["distance_er"][row]),
                "magnitude": float(umbral_mag[row]),
                "penumbral_mag": float(penumbral_mag[row]),
                "durations_min": {phase: _or_none(durations[phase][row]) for phase in ("penumbral", "partial", "total")},
                "central_duration_min": None,
                "greatest": {
                    "lat": float(at["lat_deg"][row]),
                    "lon": float(at["lon_deg"][row]),
                    "central": bool(sep[row] < sm[row]),  # the Moon's disc covers the shadow axis
                },
            }
        )
    return records


# --------------------------------------------------------------------------- table


def _coverage_tt_jd() -> tuple[float, float]:
    """Return the TT Julian dates of the first and last instants of the coverage (UTC dates)."""
    ts = ephemeris.timescale()
    first = ts.utc(FIRST_DATE.year, FIRST_DATE.month, FIRST_DATE.day)
    last = ts.utc(LAST_DATE.year, LAST_DATE.month, LAST_DATE.day, 23, 59, 59.999)
    return float(first.tt), float(last.tt)


def compute() -> list[dict[str, Any]]:
    """Return every eclipse of the coverage, solar and lunar, sorted by time."""
    first, last = _coverage_tt_jd()
    records = solar_eclipses(first, last) + lunar_eclipses(first, last)
    return sorted(records, key=lambda r: r["tt_jd"])


def build(path: Path = TABLE_PATH) -> Path:
    """Compute the eclipse list and write it atomically to ``path`` (JSON)."""
    body = {
        "version": TABLE_VERSION,
        "ephemeris": ephemeris.EPHEMERIS_NAME,
        "coverage": [FIRST_DATE.isoformat(), LAST_DATE.isoformat()],
        "eclipses": compute(),
    }
    text = json.dumps(body, indent=1)
    return tables.write_atomic(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def _is_current(path: Path) -> bool:
    try:
        head = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return head.get("version") == TABLE_VERSION and head.get("ephemeris") == ephemeris.EPHEMERIS_NAME


@dataclass(frozen=True)
class Greatest:
    """The point of greatest eclipse: degrees north and east; ``central`` when the shadow axis meets
    the Earth (solar) or the Moon's disc covers it (lunar, NASA's T+ / T−)."""

    lat: float
    lon: float
    central: bool


@dataclass(frozen=True)
class Eclipse:
    """One eclipse of the table (data/tables/eclipses.json), as `solar_eclipses` and `lunar_eclipses` compute it.

    Times: ``tt_jd`` (TT Julian date of greatest eclipse), ``utc`` and ``tt`` (ISO strings),
    ``unix_day`` (its UTC date).  ``durations_min``: penumbral, partial, total phase lengths in
    minutes (None where there is no such phase; solar records have none).
    """

    kind: str  # solar or lunar
    type: str
    tt_jd: float
    utc: str
    tt: str
    unix_day: int
    gamma: float
    magnitude: float
    penumbral_mag: float
    durations_min: Mapping[str, float | None]
    central_duration_min: float | None
    greatest: Greatest

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> "Eclipse":
        """The typed form of a stored record (a KeyError or TypeError names a malformed table)."""
        return cls(**{**record, "durations_min": MappingProxyType(dict(record["durations_min"])),
                      "greatest": Greatest(**record["greatest"])})


@functools.cache
def load(path: Path = TABLE_PATH) -> tuple[Eclipse, ...]:
    """Return the eclipses (sorted by time), building the table first if needed (or waiting for the
    process that builds it)."""
    if not _is_current(path):
        with tables.building(path):
            if not _is_current(path):
                build(path)
    return tuple(Eclipse.of(r) for r in json.loads(path.read_text(encoding="utf-8"))["eclipses"])
