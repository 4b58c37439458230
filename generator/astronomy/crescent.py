"""Crescent geometry on an evening, and the Yallop (1997) and Odeh (2006) criteria.

Everything is vectorised: places, evenings and conjunctions are broadcast arrays, so a
whole world grid (or every evening of two centuries over a grid of Iran) is one numpy
evaluation.  The ephemeris is touched once per call: the geocentric apparent Sun and
Moon (DE440, true equator and equinox of date) and the Greenwich apparent sidereal
time are sampled every 2 hours over a window around each distinct evening, and every
later step interpolates those samples (4-point Lagrange; error below 0.001″ for the
Moon at this step) and adds the observer's position analytically.

Definitions (Yallop, NAO Technical Note 69, 1997; Odeh, Experimental Astronomy 18, 2004/2006):

* Evening ``day`` at a place: the sunset that follows local mean noon of that civil
  date (noon ≈ ``day + 0.5 − lng/360`` UT).  Observer at sea level on the WGS84 ellipsoid.
* Sunset Ts and moonset Tm: the body's topocentric centre at −(34′ + semi-diameter),
  airless geometry with the standard 34′ horizon refraction (as USNO and astronomy-engine;
  the Moon's semi-diameter from its mean radius 1737.4 km and topocentric distance).
* Lag = Tm − Ts; best time Tb = Ts + 4/9·Lag (Yallop, from Bruin's curves).
* At Tb: ARCL (Sun–Moon elongation), ARCV (Moon altitude − Sun altitude) and DAZ
  (Sun azimuth − Moon azimuth), all airless, both *geocentric* (directions from the
  Earth's centre referred to the observer's horizon; Yallop) and *topocentric*
  (parallax applied; Odeh).
* Yallop's width W′ = SD′·(1 − cos ARCL_geo) arcmin, SD = 0.27245·π, SD′ = SD·(1 + sin h·sin π)
  with π the Moon's horizontal parallax and h its geocentric altitude.
* Odeh's width W = SD_topo·(1 − cos ARCL_topo) arcmin.
* q = (ARCV_geo − (11.8371 − 6.3226 W′ + 0.7319 W′² − 0.1018 W′³)) / 10, zones A–F at
  +0.216, −0.014, −0.160, −0.232, −0.293 (A: q > +0.216, …, F: q ≤ −0.293).
* V = ARCV_topo − (−0.1018 W³ + 0.7319 W² − 6.3226 W + 7.1651), zones A–D at 5.65, 2.00,
  −0.96 (A: V ≥ 5.65, …, D: V < −0.96); below Odeh's Danjon limit (ARCL_topo < 6.4°)
  the crescent is zone D whatever V says (ICOP / Accurate Times practice).
* Preconditions (both criteria, every map tool): the Sun sets, the conjunction is before
  sunset, the Moon sets after the Sun.  Where one fails the place has no q or V and a
  ``status`` code says why (`STATUS` names them); q, V and the angles are NaN there.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from skyfield.framelib import true_equator_and_equinox_of_date
from skyfield.nutationlib import iau2000b_radians

from generator.astronomy import ephemeris

UNIX_EPOCH_JD = 2440587.5
KM_PER_AU = 149_597_870.700  # IAU 2012 Resolution B2
EARTH_EQUATORIAL_RADIUS_KM = 6378.137  # WGS84
EARTH_FLATTENING = 1.0 / 298.257223563  # WGS84
SUN_RADIUS_KM = 695_700.0  # IAU 2015 Resolution B3 nominal solar radius
MOON_RADIUS_KM = 1737.4  # mean radius (IAU WG on cartographic coordinates)
HORIZON_REFRACTION_DEG = 34.0 / 60.0  # standard refraction at the horizon (USNO)
YALLOP_PARALLAX_RADIUS_KM = 6378.14  # Earth radius in Yallop's π = asin(R/Δ)
YALLOP_SD_PER_PARALLAX = 0.27245  # SD = 0.27245·π (Yallop NAOTN 69)
BEST_TIME_FRACTION = 4.0 / 9.0  # Tb = Ts + 4/9·Lag (Yallop NAOTN 69, after Bruin 1977)

# Yallop q zones (NAOTN 69): the crescent is in zone i when q > threshold[i] (first match), else F.
YALLOP_ZONES = ("A", "B", "C", "D", "E", "F")
YALLOP_Q_ABOVE = (0.216, -0.014, -0.160, -0.232, -0.293)
YALLOP_MEANING = (
    "easily visible to the naked eye",
    "visible under perfect conditions",
    "may need optical aid to find the crescent, then visible to the naked eye",
    "visible with optical aid only",
    "not visible with a telescope",
    "not visible; below the Danjon limit",
)
# Odeh V zones: zone i when V >= threshold[i] (first match), else D.
ODEH_ZONES = ("A", "B", "C", "D")
ODEH_V_AT_LEAST = (5.65, 2.00, -0.96)
ODEH_MEANING = (
    "visible by naked eye",
    "visible by optical aid, could be seen by naked eye",
    "visible by optical aid only",
    "not visible even with optical aid",
)
ODEH_DANJON_ARCL_DEG = 6.4  # Odeh 2006: no sighting below 6.4° topocentric ARCL

# Why a place has no q/V on an evening (0 = computed).
STATUS = ("ok", "noSunset", "conjunctionAfterSunset", "moonSetsFirst", "moonDoesNotSet", "notComputed")
OK, NO_SUNSET, CONJUNCTION_AFTER_SUNSET, MOON_SETS_FIRST, MOON_DOES_NOT_SET, NOT_COMPUTED = range(6)

SAMPLE_STEP_DAYS = 2.0 / 24.0
WINDOW_BEFORE_DAYS = 0.75  # samples cover [day − 0.75, day + 2.75]: every sunset and moonset
WINDOW_AFTER_DAYS = 2.75  # of local date ``day`` at any longitude, with room for the stencil
_SUN_RATE_DEG_PER_DAY = 360.0  # hour-angle rate of the Sun (sidereal rate − RA rate)
_MOON_RATE_DEG_PER_DAY = 347.8  # hour-angle rate of the Moon (mean)
_SUN_ITERATIONS = 4  # converged to < 1 ms everywhere on the grid (measured)
_MOON_ITERATIONS = 8  # < 0.1 s below 60° latitude; slower near the polar limits
_CONVERGED_DAYS = 2.0 / 86400.0
_DEG = np.pi / 180.0


# --- the criteria as pure formulas ----------------------------------------------------------


def yallop_q(arcv_geo_deg: np.ndarray, width_arcmin: np.ndarray) -> np.ndarray:
    """Return Yallop's q (dimensionless) from geocentric ARCV (deg) and topocentric W′ (arcmin)."""
    w = np.asarray(width_arcmin, dtype=float)
    return (np.asarray(arcv_geo_deg, dtype=float) - (11.8371 - 6.3226 * w + 0.7319 * w**2 - 0.1018 * w**3)) / 10.0


def odeh_v(arcv_topo_deg: np.ndarray, width_arcmin: np.ndarray) -> np.ndarray:
    """Return Odeh's V (deg) from topocentric ARCV (deg) and topocentric W (arcmin)."""
    w = np.asarray(width_arcmin, dtype=float)
    return np.asarray(arcv_topo_deg, dtype=float) - (-0.1018 * w**3 + 0.7319 * w**2 - 6.3226 * w + 7.1651)


def yallop_zone(q: np.ndarray) -> np.ndarray:
    """Return Yallop zone codes 0..5 (A..F; index into `YALLOP_ZONES`), −1 where q is NaN."""
    q = np.asarray(q, dtype=float)
    # Number of thresholds q does not exceed = zone index (A when q > 0.216, F when q <= -0.293).
    code = np.sum(q[..., None] <= np.asarray(YALLOP_Q_ABOVE), axis=-1)
    return np.where(np.isnan(q), -1, code)


def odeh_zone(v: np.ndarray, arcl_topo_deg: np.ndarray | None = None) -> np.ndarray:
    """Return Odeh zone codes 0..3 (A..D; index into `ODEH_ZONES`), −1 where V is NaN.

    With ``arcl_topo_deg``, elongations below the Danjon limit (6.4°) are zone D.
    """
    v = np.asarray(v, dtype=float)
    code = np.sum(v[..., None] < np.asarray(ODEH_V_AT_LEAST), axis=-1)
    if arcl_topo_deg is not None:
        code = np.where(np.asarray(arcl_topo_deg) < ODEH_DANJON_ARCL_DEG, len(ODEH_ZONES) - 1, code)
    return np.where(np.isnan(v), -1, code)


# --- ephemeris samples ------------------------------------------------------------------


@dataclass(frozen=True)
class Samples:
    """Geocentric apparent Sun and Moon and GAST, sampled on windows of equal length.

    ``sun``/``moon``: (windows, n, 4) arrays of x, y, z (km, true equator and equinox of
    date) and GAST (degrees, unwrapped along each window); sample j of window w is at UT1
    day ``start_day[w] + j·step_days``.
    """

    start_day: np.ndarray
    step_days: float
    sun: np.ndarray
    moon: np.ndarray

    def at(self, window: np.ndarray, ut1_day: np.ndarray, body: str) -> tuple[np.ndarray, np.ndarray]:
        """Return (position_km (…,3), gast_deg) of ``body`` ("sun"/"moon"), NaN outside the window."""
        columns = self.sun if body == "sun" else self.moon
        n = columns.shape[1]
        u = (ut1_day - self.start_day[window]) / self.step_days
        finite = np.isfinite(u)
        i = np.floor(np.where(finite, u, 1.0)).astype(np.int64)
        outside = ~finite | (i < 1) | (i > n - 3)
        i = np.clip(i, 1, n - 3)
        p = np.where(outside, np.nan, u - i)[..., None]
        # 4-point Lagrange through samples i−1, i, i+1, i+2 (p in [0, 1) from sample i).
        value = (
            columns[window, i - 1] * (-p * (p - 1) * (p - 2) / 6.0)
            + columns[window, i] * ((p + 1) * (p - 1) * (p - 2) / 2.0)
            + columns[window, i + 1] * (-(p + 1) * p * (p - 2) / 2.0)
            + columns[window, i + 2] * ((p + 1) * p * (p - 1) / 6.0)
        )
        return value[..., :3], value[..., 3]


def sample(start_day: np.ndarray, days: float, step_days: float = SAMPLE_STEP_DAYS) -> Samples:
    """Return `Samples` of windows starting at UT1 day numbers ``start_day``, each ``days`` long.

    One skyfield call for all windows (time arrays only; scalar calls are ~200× slower).
    Nutation is IAU 2000B (within 1 mas of IAU 2000A), for the frame and for GAST.
    """
    start_day = np.atleast_1d(np.asarray(start_day, dtype=float))
    n = int(np.ceil(days / step_days)) + 1
    offsets = np.arange(n) * step_days
    ts = ephemeris.timescale()
    b = ephemeris.bodies()
    t = ts.ut1_jd((start_day[:, None] + offsets[None, :]).ravel() + UNIX_EPOCH_JD)
    # IAU 2000B nutation (within 1 mas of 2000A, as skyfield's almanac uses) at 1/20 of the cost.
    t._nutation_angles_radians = iau2000b_radians(t)
    earth = b.earth.at(t)
    frame = true_equator_and_equinox_of_date
    gast = np.unwrap(t.gast.reshape(len(start_day), n) * 15.0, period=360.0, axis=1)[..., None]
    sun = earth.observe(b.sun).apparent().frame_xyz(frame).km.T.reshape(len(start_day), n, 3)
    moon = earth.observe(b.moon).apparent().frame_xyz(frame).km.T.reshape(len(start_day), n, 3)
    return Samples(
        start_day=start_day,
        step_days=step_days,
        sun=np.concatenate([sun, gast], axis=-1),
        moon=np.concatenate([moon, gast], axis=-1),
    )


def samples_for_evenings(evening_day: np.ndarray) -> tuple[Samples, np.ndarray]:
    """Return samples with one window per distinct evening, and each evening's window index."""
    unique, window = np.unique(np.asarray(evening_day, dtype=np.int64), return_inverse=True)
    samples = sample(unique - WINDOW_BEFORE_DAYS, WINDOW_BEFORE_DAYS + WINDOW_AFTER_DAYS)
    return samples, window.reshape(np.shape(evening_day))


# --- geometry helpers (arrays; angles in degrees, distances in km) ----------------------


@dataclass(frozen=True)
class _Place:
    sin_lat: np.ndarray
    cos_lat: np.ndarray
    lng_deg: np.ndarray
    rho_cos_km: np.ndarray  # observer's distance from the axis
    rho_sin_km: np.ndarray  # observer's height above the equatorial plane


def _place(lat_deg: np.ndarray, lng_deg: np.ndarray) -> _Place:
    """Return the observer's geodetic terms at sea level on the WGS84 ellipsoid."""
    phi = np.asarray(lat_deg, dtype=float) * _DEG
    sin_lat, cos_lat = np.sin(phi), np.cos(phi)
    c = 1.0 / np.sqrt(cos_lat**2 + (1.0 - EARTH_FLATTENING) ** 2 * sin_lat**2)
    s = (1.0 - EARTH_FLATTENING) ** 2 * c
    return _Place(
        sin_lat,
        cos_lat,
        np.asarray(lng_deg, dtype=float),
        EARTH_EQUATORIAL_RADIUS_KM * c * cos_lat,
        EARTH_EQUATORIAL_RADIUS_KM * s * sin_lat,
    )


def _observer_km(place: _Place, lst_deg: np.ndarray) -> np.ndarray:
    """Return the observer's geocentric position (…,3) in the equator-of-date frame."""
    theta = lst_deg * _DEG
    return np.stack([place.rho_cos_km * np.cos(theta), place.rho_cos_km * np.sin(theta), place.rho_sin_km], axis=-1)


def _norm(v: np.ndarray) -> np.ndarray:
    return np.sqrt(np.sum(v * v, axis=-1))


def _horizontal(v: np.ndarray, place: _Place, lst_deg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (altitude, azimuth from north through east) in degrees of direction ``v``."""
    theta = lst_deg * _DEG
    cos_t, sin_t = np.cos(theta), np.sin(theta)
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    along_meridian = x * cos_t + y * sin_t
    up = place.cos_lat * along_meridian + place.sin_lat * z
    north = -place.sin_lat * along_meridian + place.cos_lat * z
    east = -x * sin_t + y * cos_t
    altitude = np.arcsin(np.clip(up / _norm(v), -1.0, 1.0)) / _DEG
    azimuth = np.arctan2(east, north) / _DEG % 360.0
    return altitude, azimuth


def _angle_between_deg(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    cross = np.cross(a, b)
    return np.arctan2(_norm(cross), np.sum(a * b, axis=-1)) / _DEG


def _wrap180(angle_deg: np.ndarray) -> np.ndarray:
    return (angle_deg + 180.0) % 360.0 - 180.0


def _setting(
    samples: Samples,
    window: np.ndarray,
    place: _Place,
    body: str,
    guess_day: np.ndarray,
    rate_deg_per_day: float,
    radius_km: float,
    iterations: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Return (UT1 day of the setting nearest the guess, cos of its hour angle at that time).

    Setting = the topocentric centre at −(34′ + semi-diameter).  Fixed-point iteration on
    the hour angle (Newton with the mean hour-angle rate); NaN where it did not converge.
    A |cos H₀| > 1 at the result means the body does not reach that altitude that day.
    """
    t = np.array(guess_day, dtype=float)
    step = np.full(t.shape, np.inf)
    cos_h0 = np.full(t.shape, np.nan)
    for _ in range(iterations):
        geocentric, gast = samples.at(window, t, body)
        lst = gast + place.lng_deg
        v = geocentric - _observer_km(place, lst)
        distance = _norm(v)
        ra = np.arctan2(v[..., 1], v[..., 0]) / _DEG
        sin_dec = v[..., 2] / distance
        cos_dec = np.sqrt(np.clip(1.0 - sin_dec**2, 0.0, None))
        h0 = -(HORIZON_REFRACTION_DEG + np.arcsin(radius_km / distance) / _DEG)
        cos_h0 = (np.sin(h0 * _DEG) - place.sin_lat * sin_dec) / (place.cos_lat * cos_dec)
        target = np.arccos(np.clip(cos_h0, -1.0, 1.0)) / _DEG
        step = _wrap180(target - (lst - ra)) / rate_deg_per_day
        t = t + step
    t = np.where(np.abs(step) < _CONVERGED_DAYS, t, np.nan)
    return t, cos_h0


# --- the evening --------------------------------------------------------------------------


@dataclass(frozen=True)
class Evening:
    """Crescent quantities for each (place, evening), as parallel arrays.

    Times are real UT1 day numbers (days since 1970-01-01 0h UT1); angles in degrees;
    widths in arcminutes; ``lag_min`` in minutes; ``age_hours`` is Tb − conjunction.
    ``status`` is an int code into `STATUS`; where it is not OK, every quantity from
    Tb on is NaN (``sunset_day`` and ``moonset_day`` stay when they exist).
    """

    status: np.ndarray
    sunset_day: np.ndarray
    moonset_day: np.ndarray
    best_day: np.ndarray
    lag_min: np.ndarray
    age_hours: np.ndarray
    arcl_geo_deg: np.ndarray
    arcv_geo_deg: np.ndarray
    daz_geo_deg: np.ndarray
    arcl_topo_deg: np.ndarray
    arcv_topo_deg: np.ndarray
    daz_topo_deg: np.ndarray
    moon_altitude_geo_deg: np.ndarray
    width_yallop_arcmin: np.ndarray
    width_odeh_arcmin: np.ndarray
    q: np.ndarray
    v: np.ndarray
    yallop: np.ndarray  # zone codes, −1 where not computed
    odeh: np.ndarray  # zone codes (Danjon limit applied), −1 where not computed


def evening(
    lat_deg: np.ndarray,
    lng_deg: np.ndarray,
    evening_day: np.ndarray,
    conjunction_day: np.ndarray,
    samples: tuple[Samples, np.ndarray] | None = None,
) -> Evening:
    """Return the `Evening` at places on local civil dates, for a given conjunction.

    All inputs broadcast together: ``lat_deg``/``lng_deg`` (degrees, east positive),
    ``evening_day`` (int, days since 1970-01-01, the local date of the sunset) and
    ``conjunction_day`` (UT1 day number of the geocentric new moon the crescent follows,
    from `generator.astronomy.lunar`).  ``samples`` (from `samples_for_evenings` over the
    broadcast evenings) may be passed to reuse one ephemeris evaluation.
    """
    lat, lng, day, conjunction = np.broadcast_arrays(
        np.asarray(lat_deg, dtype=float),
        np.asarray(lng_deg, dtype=float),
        np.asarray(evening_day, dtype=np.int64),
        np.asarray(conjunction_day, dtype=float),
    )
    if samples is None:
        samples = samples_for_evenings(day)
    table, window = samples
    window = np.broadcast_to(window, day.shape)
    with np.errstate(divide="ignore", invalid="ignore"):  # NaN marks what does not exist; status says why
        return _evening(table, window, _place(lat, lng), day, lng, conjunction)


def _evening(table: Samples, window, place: _Place, day, lng, conjunction) -> Evening:
    """Return the `Evening`: sunset, moonset, preconditions, then the quantities at Tb."""
    local_noon = day + 0.5 - lng / 360.0
    sunset, sun_cos_h0 = _setting(
        table, window, place, "sun", local_noon, _SUN_RATE_DEG_PER_DAY, SUN_RADIUS_KM, _SUN_ITERATIONS
    )
    sun_sets = np.abs(sun_cos_h0) <= 1.0
    sunset = np.where(sun_sets, sunset, np.nan)
    moon_guess = np.where(np.isnan(sunset), local_noon + 0.25, sunset)
    moonset, moon_cos_h0 = _setting(
        table, window, place, "moon", moon_guess, _MOON_RATE_DEG_PER_DAY, MOON_RADIUS_KM, _MOON_ITERATIONS
    )
    moon_sets = np.abs(moon_cos_h0) <= 1.0
    moonset = np.where(moon_sets, moonset, np.nan)
    lag_days = moonset - sunset

    status = np.full(day.shape, OK, dtype=np.int8)
    status[np.isnan(lag_days)] = NOT_COMPUTED
    status[~moon_sets & (moon_cos_h0 < -1.0)] = MOON_DOES_NOT_SET  # always above its setting altitude
    status[~moon_sets & (moon_cos_h0 > 1.0)] = MOON_SETS_FIRST  # never up that evening
    status[lag_days <= 0] = MOON_SETS_FIRST
    status[sunset <= conjunction] = CONJUNCTION_AFTER_SUNSET
    status[~sun_sets] = NO_SUNSET
    ok = status == OK

    best = np.where(ok, sunset + BEST_TIME_FRACTION * lag_days, np.nan)
    return _at_best_time(table, window, place, status, sunset, moonset, best, conjunction)


def _at_best_time(table: Samples, window, place: _Place, status, sunset, moonset, best, conjunction) -> Evening:
    """Return the `Evening` with the angles, widths, q and V evaluated at ``best``."""
    sun, gast = table.at(window, best, "sun")
    moon, _ = table.at(window, best, "moon")
    lst = gast + place.lng_deg
    observer = _observer_km(place, lst)
    moon_topo = moon - observer
    sun_topo = sun - observer

    sun_alt_geo, sun_az_geo = _horizontal(sun, place, lst)
    moon_alt_geo, moon_az_geo = _horizontal(moon, place, lst)
    sun_alt_topo, sun_az_topo = _horizontal(sun_topo, place, lst)
    moon_alt_topo, moon_az_topo = _horizontal(moon_topo, place, lst)

    arcl_geo = _angle_between_deg(sun, moon)
    arcl_topo = _angle_between_deg(sun_topo, moon_topo)
    arcv_geo = moon_alt_geo - sun_alt_geo
    arcv_topo = moon_alt_topo - sun_alt_topo

    moon_distance = _norm(moon)
    parallax = np.arcsin(YALLOP_PARALLAX_RADIUS_KM / moon_distance)  # radians
    sd_arcmin = YALLOP_SD_PER_PARALLAX * parallax / _DEG * 60.0
    sd_yallop = sd_arcmin * (1.0 + np.sin(moon_alt_geo * _DEG) * np.sin(parallax))
    sd_topo = sd_arcmin * moon_distance / _norm(moon_topo)
    width_yallop = sd_yallop * (1.0 - np.cos(arcl_geo * _DEG))
    width_odeh = sd_topo * (1.0 - np.cos(arcl_topo * _DEG))

    q = yallop_q(arcv_geo, width_yallop)
    v = odeh_v(arcv_topo, width_odeh)
    return Evening(
        status=status,
        sunset_day=sunset,
        moonset_day=moonset,
        best_day=best,
        lag_min=np.where(np.isnan(best), np.nan, (moonset - sunset) * 1440.0),
        age_hours=(best - conjunction) * 24.0,
        arcl_geo_deg=arcl_geo,
        arcv_geo_deg=arcv_geo,
        daz_geo_deg=_wrap180(sun_az_geo - moon_az_geo),
        arcl_topo_deg=arcl_topo,
        arcv_topo_deg=arcv_topo,
        daz_topo_deg=_wrap180(sun_az_topo - moon_az_topo),
        moon_altitude_geo_deg=moon_alt_geo,
        width_yallop_arcmin=width_yallop,
        width_odeh_arcmin=width_odeh,
        q=q,
        v=v,
        yallop=yallop_zone(q),
        odeh=odeh_zone(v, arcl_topo),
    )


# --- one digit per place, from both criteria ------------------------------------------

# Grid digit (SPEC 2.6: 0 = not visible ... 4 = telescope only).  Each criterion is put on
# a common scale and the digit is the more favourable of the two (0 = neither sees it):
#   1 naked eye, easily            Yallop A
#   2 naked eye                    Yallop B, or Odeh A
#   3 naked eye, may need optical  Yallop C, or Odeh B
#     aid to find it first
#   4 optical aid (telescope) only Yallop D, or Odeh C
#   0 not visible                  Yallop E/F and Odeh D, or no crescent possible
DIGITS = (0, 1, 2, 3, 4)
_DIGIT_OF_YALLOP = np.array([1, 2, 3, 4, 0, 0, 0])  # A..F, then −1 (not computed) → 0
_DIGIT_OF_ODEH = np.array([2, 3, 4, 0, 0])  # A..D, then −1 → 0
_RANK = np.array([9, 0, 1, 2, 3])  # lower rank = more visible; 0 (not visible) ranks last


def digit(yallop: np.ndarray, odeh: np.ndarray) -> np.ndarray:
    """Return the grid digit 0..4 from Yallop and Odeh zone codes (see `DIGITS` comment)."""
    dy = _DIGIT_OF_YALLOP[np.asarray(yallop)]
    do = _DIGIT_OF_ODEH[np.asarray(odeh)]
    return np.where(_RANK[dy] <= _RANK[do], dy, do)
