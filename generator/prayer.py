"""Prayer times for one place over a run of days, for several methods at once.

Everything is numpy arrays of shape (methods, days); there is no per-day Python
loop.  Instants are real-valued UT1 day numbers (days since 1970-01-01 0h) until the
very end, where they become whole UTC minutes in Unix seconds.

Definitions (see docs/decisions.md for why):

* Sunrise and sunset: the Sun's centre at −0.8333° (USNO: 34′ refraction + 16′
  semi-diameter), geocentric, no elevation correction (as adhan-js and praytimes).
* Fajr, isha and angle-maghrib: the Sun's centre at the method's depression angle.
* Asr: shadow factor 1, the shadow equal to the object plus its noon shadow, with
  the noon shadow from the declination at 0h UT of the date (adhan-js' convention).
* High latitudes: the TwilightAngle rule is always applied as a bound, as adhan-js
  does: with night = next sunrise − sunset and portion = angle/60, fajr is no earlier
  than sunrise − portion·night and isha no later than sunset + portion·night.  The
  Moonsighting Committee's seasonal limits replace it for that method.
* Angle maghrib is used when it falls after sunset and before isha; where the angle is
  never reached (summer above ~62°) maghrib is sunset + portion·night, the same
  twilight bound (adhan-js would fall back to plain sunset; see decisions).
* Polar days and nights: where the Sun does not both rise and set on a day and the
  next, or stands too low at noon to cast an asr shadow, every time of that day is computed at the nearest latitude (towards the
  equator, in 0.5° steps) where it does (“nearest latitude”, adhan's AqrabBalad);
  the latitude used is reported per day.
* imsak = fajr − 10 min; midnight = midpoint of maghrib and the next day's fajr.
* Rounding: an instant is floored to the whole second, then rounded to the nearest
  minute with 30 s going up (adhan-js ``nearest``); methods with ``rounding="up"``
  always move to the next whole minute (adhan-js ``up``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from generator import sun_table
from generator.methods import ADJUSTABLE, Method

SUN_HORIZON_DEG = -50.0 / 60.0  # USNO: 34' refraction + 16' semi-diameter
ASR_SHADOW_FACTOR = 1.0  # Jafari, Shafi'i, Maliki, Hanbali
IMSAK_BEFORE_FAJR_S = 600
SECONDS_PER_DAY = 86400.0
POLAR_STEP_DEG = 0.5
OUTPUT_TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight")
_POLAR_PASSES = 12  # 6° beyond the analytic first guess; 3 passes suffice in practice
_TRANSIT_ITERATIONS = 2  # the equation of time barely moves: the second pass changes < 0.2 s, a third < 0.1 ms
_ITERATIONS = 3  # hour-angle fixed point: the third pass moves times by < 1 ms


@dataclass(frozen=True)
class PrayerTimes:
    """Rounded times of ``days`` for each method.

    ``times[name]`` is an int64 array (methods, days) of Unix seconds (whole minutes).
    ``latitude_used_deg`` is (days,): the latitude every time of that day was computed
    at, equal to the requested one except on polar days.  ``unrounded_s`` holds the
    same instants (with method adjustments) before rounding, as float Unix seconds.
    """

    days: np.ndarray
    times: dict[str, np.ndarray]
    latitude_used_deg: np.ndarray
    unrounded_s: dict[str, np.ndarray]


def _sun(days: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return sun_table.load().interpolate(days)


def transit(day: np.ndarray, lng_deg: float) -> np.ndarray:
    """Return the UT1 day number of the Sun's upper transit nearest local mean noon of ``day``."""
    x = day + 0.5 - lng_deg / 360.0
    for _ in range(_TRANSIT_ITERATIONS):
        _, eot = _sun(x)
        x = day + 0.5 - (lng_deg + eot) / 360.0
    return x


def time_of_altitude(
    day: np.ndarray, noon: np.ndarray, lat_deg: np.ndarray, lng_deg: float, altitude_deg: np.ndarray, side: int
) -> np.ndarray:
    """Return when the Sun's centre is at ``altitude_deg`` before (side −1) or after (+1) ``noon``.

    UT1 day numbers; NaN where the Sun never reaches that altitude.  All arguments
    broadcast against each other.
    """
    sin_alt = np.sin(np.radians(altitude_deg))
    sin_lat, cos_lat = np.sin(np.radians(lat_deg)), np.cos(np.radians(lat_deg))
    # x = day + ½ + (side·H − lng − eot)/360°, with H = arccos(cos_h) in radians folded in
    base = day + 0.5 - lng_deg / 360.0
    turns_per_radian = np.asarray(side, dtype=float) / (2.0 * np.pi)
    table = sun_table.load()
    x = noon
    with np.errstate(invalid="ignore", divide="ignore"):
        for _ in range(_ITERATIONS):
            eot, sin_dec, cos_dec = table.interpolate_trig(x)
            cos_h = (sin_alt - sin_lat * sin_dec) / (cos_lat * cos_dec)
            x = base + turns_per_radian * np.arccos(cos_h) - eot / 360.0  # NaN when |cos_h| > 1
    return x


def _rise_set(day, noon, lat_deg, lng_deg):
    rise = time_of_altitude(day, noon, lat_deg, lng_deg, SUN_HORIZON_DEG, -1)
    set_ = time_of_altitude(day, noon, lat_deg, lng_deg, SUN_HORIZON_DEG, +1)
    return rise, set_


def _has_day_and_night(day, lat_deg, lng_deg):
    """True where the Sun rises and sets on ``day`` and rises on ``day + 1``."""
    rise, set_ = _rise_set(day, transit(day, lng_deg), lat_deg, lng_deg)
    next_rise = time_of_altitude(day + 1, transit(day + 1, lng_deg), lat_deg, lng_deg, SUN_HORIZON_DEG, -1)
    return np.isfinite(rise) & np.isfinite(set_) & np.isfinite(next_rise)


def latitudes_with_sunrise(day: np.ndarray, lat_deg: float, lng_deg: float) -> np.ndarray:
    """Return, per day, ``lat_deg`` or the nearest latitude (0.5° steps) with a sunrise and sunset.

    A bounded number of vectorised passes: an analytic first guess from the
    declination, then 0.5° steps towards the equator until every day is solvable.
    """
    lat = np.full(day.shape, float(lat_deg))
    bad = ~_has_day_and_night(day, lat, lng_deg)
    if not bad.any():
        return lat
    sign = 1.0 if lat_deg >= 0 else -1.0
    dec_max = np.maximum.reduce([np.abs(_sun(day[bad] + k)[0]) for k in (0.0, 1.0, 2.0)])
    guess = 90.0 - dec_max + SUN_HORIZON_DEG  # the stricter (midnight sun) limit
    guess = np.floor(np.minimum(guess, abs(lat_deg)) / POLAR_STEP_DEG) * POLAR_STEP_DEG
    lat[bad] = sign * guess
    for _ in range(8):
        still = bad.copy()
        still[bad] = ~_has_day_and_night(day[bad], lat[bad], lng_deg)
        if not still.any():
            break
        lat[still] -= sign * POLAR_STEP_DEG
    return lat


def _days_since_solstice(day: np.ndarray, lat_deg: float) -> np.ndarray:
    """adhan-js ``daysSinceSolstice``: day of year shifted to the (approximate) winter solstice."""
    dates = day.astype("datetime64[D]")
    year_start = dates.astype("datetime64[Y]").astype("datetime64[D]")
    next_year = (dates.astype("datetime64[Y]") + 1).astype("datetime64[D]")
    day_of_year = (dates - year_start).astype(np.int64) + 1
    year_length = (next_year - year_start).astype(np.int64)
    if lat_deg >= 0:
        dyy = day_of_year + 10
        return np.where(dyy >= year_length, dyy - year_length, dyy)
    dyy = day_of_year - np.where(year_length == 366, 173, 172)
    return np.where(dyy < 0, dyy + year_length, dyy)


# Khalid Shaukat's seasonal twilight limits, minutes: a, b, c, d = base + k·|lat|/55.
_SEASONAL_MIN = {
    "morning": (75, (28.65, 19.44, 32.74, 48.1)),
    "general": (75, (25.6, 2.05, -9.21, 6.14)),
    "ahmer": (62, (17.4, -7.16, 5.12, 19.44)),
    "abyad": (75, (25.6, 7.16, 36.84, 81.84)),
}


def seasonal_limit_min(table: str, day: np.ndarray, lat_deg: float) -> np.ndarray:
    """Return the Moonsighting Committee seasonal twilight length in minutes, per day.

    Piecewise linear through a, b, c, d, c, b, a at 0, 91, 137, 183, 229, 275, 365
    days after the winter solstice (Khalid Shaukat; adhan-js ``seasonAdjusted*``).
    """
    base, k = _SEASONAL_MIN[table]
    a, b, c, d = (base + ki / 55.0 * abs(lat_deg) for ki in k)
    dyy = _days_since_solstice(day, lat_deg).astype(float)
    knots = [0, 91, 137, 183, 229, 275]
    values = [(a, b), (b, c), (c, d), (d, c), (c, b), (b, a)]
    widths = [91, 46, 46, 46, 46, 91]
    pieces = [lo + (hi - lo) / w * (dyy - k0) for (lo, hi), w, k0 in zip(values, widths, knots)]
    conditions = [dyy < 91, dyy < 137, dyy < 183, dyy < 229, dyy < 275]
    return np.select(conditions, pieces[:5], default=pieces[5])


def _column(methods: Sequence[Method], attribute: str) -> np.ndarray:
    values = [getattr(m, attribute) for m in methods]
    return np.array([np.nan if v is None else float(v) for v in values])[:, None]


def _round_to_minute(x_days: np.ndarray, up: np.ndarray) -> np.ndarray:
    seconds = np.floor(x_days * SECONDS_PER_DAY)
    minutes = np.where(up, np.floor(seconds / 60.0) + 1.0, np.floor((seconds + 30.0) / 60.0))
    return (minutes * 60.0).astype(np.int64)


def compute(
    lat_deg: float,
    lng_deg: float,
    first_day: int,
    n_days: int,
    methods: Sequence[Method],
    ramadan: np.ndarray | None = None,
) -> PrayerTimes:
    """Return the prayer times of ``n_days`` consecutive days for every method.

    ``first_day`` counts days since 1970-01-01 (the local calendar date); ``ramadan``
    is a bool array of ``n_days + 1`` days (the extra one is the next day, whose fajr
    ends the last night) marking Ramadan for methods with a Ramadan isha interval.
    """
    # Days solved: the n requested, the next one (its fajr ends the last night, for midnight)
    # and one more (its sunrise ends the next day's night).
    day_ext = first_day + np.arange(n_days + 2, dtype=float)
    noon_ext = transit(day_ext, lng_deg)
    # Asr's noon shadow uses the declination at 0h UT of the date, as adhan-js does;
    # the declination at transit would move asr by up to 2 min at |lat| > 50° (decisions).
    dec_asr, _ = _sun(day_ext)
    m = len(methods)
    fajr_angle = _column(methods, "fajr_angle_deg")
    isha_angle = _column(methods, "isha_angle_deg")
    maghrib_angle = _column(methods, "maghrib_angle_deg")
    # Every altitude event in one stacked solve. Rows: sunrise, sunset, fajr (m), isha (m),
    # angle maghrib (m), asr; all start from the same transit, so the first pass is shared.
    side = np.array([-1, 1] + [-1] * m + [1] * (2 * m) + [1], dtype=float)[:, None]
    fixed_altitudes = np.concatenate([np.full((2, 1), SUN_HORIZON_DEG), -fajr_angle, -isha_angle, -maghrib_angle])

    def solve_all(lat):
        # Asr: the altitude where a shadow equals the object plus its noon shadow.
        zenith_at_noon = np.abs(lat - dec_asr)
        with np.errstate(invalid="ignore"):
            asr_alt = np.degrees(np.arctan(1.0 / (ASR_SHADOW_FACTOR + np.tan(np.radians(zenith_at_noon)))))
        asr_alt = np.where(zenith_at_noon < 90.0, asr_alt, np.nan)  # no noon shadow, no asr
        altitude = np.concatenate([np.broadcast_to(fixed_altitudes, (2 + 3 * m, day_ext.size)), asr_alt[None, :]])
        x = time_of_altitude(day_ext[None, :], noon_ext[None, :], lat, lng_deg, altitude, side)
        return x[0], x[1], x[2 : 2 + m], x[2 + m : 2 + 2 * m], x[2 + 2 * m : 2 + 3 * m], x[-1]

    def unsolvable(sunrise, sunset, next_sunrise, asr):
        # A day needs a sunrise, a sunset, the next sunrise and an asr (a noon shadow).
        with np.errstate(invalid="ignore"):
            asr_ok = np.isfinite(asr) & (asr < sunset)
        return ~(np.isfinite(sunrise) & np.isfinite(sunset) & np.isfinite(next_sunrise) & asr_ok)

    keep = slice(0, n_days + 1)
    lat = np.full(day_ext.shape, float(lat_deg))
    sunrise_ext, sunset, fajr, isha, by_angle, asr = solve_all(lat)
    sunrise, next_sunrise = sunrise_ext[keep], sunrise_ext[1:]
    bad = unsolvable(sunrise, sunset[keep], next_sunrise, asr[keep])
    if bad.any():  # polar days and nights: nearest latitude, bounded passes of 0.5°
        day = day_ext[keep]
        lat = np.append(latitudes_with_sunrise(day, lat_deg, lng_deg), 0.0)
        for _ in range(_POLAR_PASSES):
            lat[-1] = lat[-2]  # the extra day only serves the next-sunrise shift, unused here
            sunrise_ext, sunset, fajr, isha, by_angle, asr = solve_all(lat)
            sunrise = sunrise_ext[keep]
            # the night after a day is measured at that day's own latitude
            next_sunrise = time_of_altitude(day + 1, noon_ext[1:], lat[keep], lng_deg, SUN_HORIZON_DEG, -1)
            bad = unsolvable(sunrise, sunset[keep], next_sunrise, asr[keep])
            if not bad.any():
                break
            lat[keep][bad] -= np.sign(lat_deg) * POLAR_STEP_DEG
        assert not bad.any(), "nearest-latitude rule did not converge"
    day, noon, lat = day_ext[keep], noon_ext[keep], lat[keep]
    sunset, fajr, isha, by_angle, asr = sunset[keep], fajr[:, keep], isha[:, keep], by_angle[:, keep], asr[keep]
    night = next_sunrise - sunset

    seasonal = np.array([m.high_latitude_rule == "moonsightingSeasonal" for m in methods])[:, None]
    if seasonal.any():
        # Moonsighting Committee: 1/7 of the night at lat >= 55 (signed, as adhan-js), then seasonal limits.
        if lat_deg >= 55:
            fajr = np.where(seasonal, sunrise - night / 7.0, fajr)
            isha = np.where(seasonal, sunset + night / 7.0, isha)
        morning = np.round(seasonal_limit_min("morning", day, lat_deg) * 60.0) / SECONDS_PER_DAY
        tables = {m.shafaq: None for m, s in zip(methods, seasonal[:, 0]) if s}
        tables = {name: seasonal_limit_min(name, day, lat_deg) for name in tables}
        shafaq_rows = [tables.get(m.shafaq, np.zeros(day.shape)) for m in methods]
        evening = np.round(np.array(shafaq_rows) * 60.0) / SECONDS_PER_DAY
        seasonal_fajr, seasonal_isha = sunrise - morning, sunset + evening
    else:
        seasonal_fajr = seasonal_isha = np.full(day.shape, np.nan)

    twilight_fajr = sunrise - fajr_angle / 60.0 * night
    twilight_isha = sunset + isha_angle / 60.0 * night
    safe_fajr = np.where(seasonal, seasonal_fajr, twilight_fajr)
    safe_isha = np.where(seasonal, seasonal_isha, twilight_isha)
    fajr = np.where(np.isnan(fajr) | (safe_fajr > fajr), safe_fajr, fajr)
    isha = np.where(np.isnan(isha) | (safe_isha < isha), safe_isha, isha)

    # Maghrib: sunset, sunset + interval, or the angle time bounded like isha.
    maghrib_interval = np.nan_to_num(_column(methods, "maghrib_interval_min"))
    maghrib = np.broadcast_to(sunset + maghrib_interval / 1440.0, fajr.shape)
    has_angle = ~np.isnan(maghrib_angle)
    if has_angle.any():
        fallback = sunset + maghrib_angle / 60.0 * night
        interval_isha = ~np.isnan(_column(methods, "isha_interval_min"))
        usable = np.isfinite(by_angle) & (by_angle > sunset) & (interval_isha | (by_angle < isha))
        maghrib = np.where(has_angle, np.where(usable, by_angle, np.minimum(fallback, isha)), maghrib)

    isha_interval = _column(methods, "isha_interval_min")
    ramadan_interval = _column(methods, "isha_interval_ramadan_min")
    if ramadan is not None:
        in_ramadan = np.asarray(ramadan, dtype=bool)[None, :] & ~np.isnan(ramadan_interval)
        isha_interval = np.where(in_ramadan, ramadan_interval, isha_interval)
    isha = np.where(np.isnan(isha_interval), isha, maghrib + np.nan_to_num(isha_interval) / 1440.0)

    # All instants in one array (names, methods, days): adjustments and rounding in single passes.
    shape = fajr.shape
    raw = {"fajr": fajr, "sunrise": sunrise, "dhuhr": noon, "asr": asr, "maghrib": maghrib, "isha": isha}
    names = ADJUSTABLE + ("sunset",)
    stacked = np.empty((len(names),) + shape)
    for k, name in enumerate(names):
        stacked[k] = raw.get(name, sunset)  # broadcasts (days,) rows over the methods
    adjust_min = np.array([[m.adjustments_min.get(name, 0.0) for m in methods] for name in ADJUSTABLE] + [[0.0] * len(methods)])
    stacked += adjust_min[:, :, None] / 1440.0
    adjusted = dict(zip(names, stacked))
    adjusted["midnight"] = (adjusted["maghrib"][:, :-1] + adjusted["fajr"][:, 1:]) / 2.0

    up = np.array([m.rounding == "up" for m in methods])[None, :, None]
    rounded = _round_to_minute(stacked[:, :, :n_days], up)
    times = dict(zip(names, rounded))
    times["midnight"] = _round_to_minute(adjusted["midnight"][:, :n_days], up[0])
    times["imsak"] = times["fajr"] - IMSAK_BEFORE_FAJR_S
    return PrayerTimes(
        days=(first_day + np.arange(n_days)).astype("datetime64[D]"),
        times={name: times[name] for name in OUTPUT_TIMES},
        latitude_used_deg=lat[:n_days],
        unrounded_s={name: value[:, :n_days] * SECONDS_PER_DAY for name, value in adjusted.items()},
    )


def last_third_start_s(maghrib_s: np.ndarray, next_fajr_s: np.ndarray) -> np.ndarray:
    """Return when the last third of each night begins, Unix seconds rounded to the nearest minute.

    maghrib + ⅔ × (next fajr − maghrib), in integer seconds: both inputs are whole
    minutes, so the exact instant is a whole number of seconds; 30 s rounds up.
    """
    maghrib_s = np.asarray(maghrib_s, dtype=np.int64)
    night_s = np.asarray(next_fajr_s, dtype=np.int64) - maghrib_s
    if not (night_s > 0).all():
        raise ValueError("a night must end after it begins")
    exact_s = maghrib_s + (2 * night_s) // 3
    return (exact_s + 30) // 60 * 60
