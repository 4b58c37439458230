"""The Sun's altitude at our computed instants, checked with skyfield directly (JPL DE440).

At an unrounded fajr, isha or angle-maghrib instant the Sun's centre must stand at
the method's depression angle; at sunrise and sunset at −0.8333°; at asr at the
shadow-factor-1 altitude.  Geocentric apparent altitude, no refraction: the
convention the angles are defined in.  Tolerance 0.01° (about 2.4 s of time).
"""
from __future__ import annotations

import numpy as np
import pytest

from generator.astronomy import ephemeris, sun_table
from generator.prayer import prayer
from generator.prayer.methods import METHODS

TOLERANCE_DEG = 0.01


def _geocentric_altitude_deg(unix_s: np.ndarray, lat_deg: float, lng_deg: float) -> np.ndarray:
    ts, b = ephemeris.timescale(), ephemeris.bodies()
    t = ts.ut1_jd(unix_s / 86400.0 + sun_table.UNIX_EPOCH_JD)  # instants are UT1-based
    ra, dec, _ = b.earth.at(t).observe(b.sun).apparent().radec(epoch="date")
    hour_angle = np.radians((t.gast - ra.hours) * 15.0 + lng_deg)
    phi, delta = np.radians(lat_deg), dec.radians
    return np.degrees(np.arcsin(np.sin(phi) * np.sin(delta) + np.cos(phi) * np.cos(delta) * np.cos(hour_angle)))


PLACES = [(35.69, 51.39), (32.0, 44.33), (21.42, 39.83), (-33.87, 151.21), (40.71, -74.01), (3.14, 101.69), (-1.29, 36.82)]


@pytest.mark.parametrize("lat, lng", PLACES)
@pytest.mark.parametrize("method_id", ["Tehran", "Jafari", "MuslimWorldLeague", "Egyptian", "NorthAmerica"])
def test_angles_at_computed_instants(lat, lng, method_id):
    method = METHODS[method_id]
    first = int(np.datetime64("1900-01-01").astype(int))
    rng = np.random.default_rng(abs(hash((lat, lng, method_id))) % 2**32)
    for start in rng.integers(first, first + 73000, 3):
        result = prayer.compute(lat, lng, int(start), 30, [method])
        raw = {k: v[0] for k, v in result.unrounded_s.items()}
        checks = [("fajr", -method.fajr_angle_deg), ("isha", -method.isha_angle_deg),
                  ("sunrise", prayer.SUN_HORIZON_DEG),
                  ("sunset", prayer.SUN_HORIZON_DEG)]
        if method.maghrib_angle_deg is not None:
            checks.append(("maghrib", -method.maghrib_angle_deg))
        for name, expected in checks:
            altitude = _geocentric_altitude_deg(raw[name], lat, lng)
            assert np.max(np.abs(altitude - expected)) < TOLERANCE_DEG, (name, start)


@pytest.mark.parametrize("lat, lng", PLACES)
@pytest.mark.parametrize("factor", [1, 2])
def test_asr_shadow_altitude(lat, lng, factor):
    """Shadow = factor × object + noon shadow, the noon shadow from skyfield's Sun at that day's transit."""
    first = int(np.datetime64("2026-01-01").astype(int))
    options = prayer.Options(asr_shadow_factor=factor)
    result = prayer.compute(lat, lng, first, 365, [METHODS["Jafari"]], options=options)
    ts, b = ephemeris.timescale(), ephemeris.bodies()
    t_noon = ts.ut1_jd(result.unrounded_s["dhuhr"][0] / 86400.0 + sun_table.UNIX_EPOCH_JD)  # Jafari: no dhuhr offset
    _, dec_noon, _ = b.earth.at(t_noon).observe(b.sun).apparent().radec(epoch="date")
    expected = np.degrees(np.arctan(1 / (factor + np.tan(np.radians(np.abs(lat - dec_noon.degrees))))))
    altitude = _geocentric_altitude_deg(result.unrounded_s["asr"][0], lat, lng)
    assert np.max(np.abs(altitude - expected)) < TOLERANCE_DEG


def test_dhuhr_is_the_transit():
    """At dhuhr (before the method's minute offset) the Sun's hour angle is zero."""
    first = int(np.datetime64("2031-05-01").astype(int))
    for lat, lng in PLACES:
        result = prayer.compute(lat, lng, first, 31, [METHODS["Tehran"]])
        ts, b = ephemeris.timescale(), ephemeris.bodies()
        t = ts.ut1_jd(result.unrounded_s["dhuhr"][0] / 86400 + sun_table.UNIX_EPOCH_JD)
        ra, _, _ = b.earth.at(t).observe(b.sun).apparent().radec(epoch="date")
        hour_angle_deg = ((t.gast - ra.hours) * 15.0 + lng + 180) % 360 - 180
        assert np.max(np.abs(hour_angle_deg)) < 0.01 / 4  # 0.01 min of time


def _skyfield_time_of_altitude_s(noon_days: np.ndarray, lat_deg: float, lng_deg: float, altitude_deg: float,
                                 side: int) -> np.ndarray:
    """When skyfield's Sun crosses ``altitude_deg`` between transit and transit + side·½ day: bisection
    on its geocentric altitude to 2^-32 of that span, 10 µs of half a day, five orders below the tests' 1 s
    (Unix seconds; NaN where there is no crossing)."""
    a, b = noon_days * 86400.0, (noon_days + side * 0.5) * 86400.0
    crossing = (_geocentric_altitude_deg(a, lat_deg, lng_deg) > altitude_deg) & (
        _geocentric_altitude_deg(b, lat_deg, lng_deg) < altitude_deg)
    for _ in range(32):
        middle = (a + b) / 2
        above = _geocentric_altitude_deg(middle, lat_deg, lng_deg) > altitude_deg
        a, b = np.where(above, middle, a), np.where(above, b, middle)
    return np.where(crossing, (a + b) / 2, np.nan)


@pytest.mark.parametrize("lat, altitude, side", [(-66.0, -18.2, -1), (66.0, -14.0, 1), (-60.0, -17.0, 1),
                                                  (63.0, -17.7, 1)])
def test_times_where_the_sun_barely_reaches_the_angle(lat, altitude, side):
    """Every day of 2026 at latitudes where, for weeks, the Sun only just reaches a method's angle
    (dawn or dusk near solar midnight, where the time moves most with any error): our time is
    skyfield's crossing of that altitude within 1 s.  Three plain fixed-point passes, the solver
    before the Newton steps, missed by 63, 27, 9 and 3 s here."""
    lng = 51.39
    day = int(np.datetime64("2026-01-01").astype(int)) + np.arange(365.0)
    noon = prayer.transit(day, lng)
    ours = prayer.time_of_altitude(day, noon, lat, lng, altitude, side) * 86400.0
    reference = _skyfield_time_of_altitude_s(noon, lat, lng, altitude, side)
    both = np.isfinite(ours) & np.isfinite(reference)
    assert both.sum() > 200
    assert np.max(np.abs(ours[both] - reference[both])) < 1.0
    assert np.count_nonzero(np.isfinite(ours) != np.isfinite(reference)) <= 1  # a knife-edge day at most


def _margins_deg(day: np.ndarray, lat_deg: np.ndarray, lng_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """Per day, skyfield's margins (degrees) for every time of the day to exist at ``lat_deg``:
    (the Sun rises and sets: above the horizon at transit, below it half a day either side, and
    rises the next day; the Sun's altitude at transit, which must be above 0° to cast the noon
    shadow asr needs).  Negative: some time does not exist."""
    horizon = prayer.SUN_HORIZON_DEG
    noon, next_noon = prayer.transit(day, lng_deg), prayer.transit(day + 1, lng_deg)
    top = _geocentric_altitude_deg(noon * 86400.0, lat_deg, lng_deg)
    sun = np.minimum.reduce([
        top - horizon,
        horizon - _geocentric_altitude_deg((noon - 0.5) * 86400.0, lat_deg, lng_deg),
        horizon - _geocentric_altitude_deg((noon + 0.5) * 86400.0, lat_deg, lng_deg),
        _geocentric_altitude_deg(next_noon * 86400.0, lat_deg, lng_deg) - horizon,
    ])
    return sun, top


@pytest.mark.parametrize("lat, lng", [(69.65, 18.96), (68.97, 33.08), (-66.6, -73.9), (78.22, 15.65), (72.0, 103.8),
                                      (-75.0, 0.0)])
def test_polar_rule_takes_the_nearest_latitude_with_every_time(lat, lng):
    """Polar days of 2026 (Tromsø, Murmansk, the Antarctic circle, Longyearbyen, Siberia, Antarctica),
    checked with skyfield: a day keeps its own latitude whenever every time exists there, a moved
    day's latitude has every time, and the grid latitude 0.5° nearer the pole does not.

    Left out as undecided: days within 0.005° of a limit (the interpolated ephemeris decides them)
    and, for asr, a noon altitude below 0.1°, where asr falls seconds after noon and its existence
    turns on the Sun's drift in declination within those seconds.  Before issue 12's fixes the rule
    moved −66.6° on 2026-06-17 (noon altitude +0.008°) and, in polar nights, went up to 1° too far
    (Tromsø on 2026-12-21: 65.5° where 66.5° has every time, the Sun 0.06° up at noon)."""
    first = int(np.datetime64("2026-01-01").astype(int))
    day = first + np.arange(365.0)
    used = prayer.compute(lat, lng, first, 365, [METHODS["Jafari"]]).latitude_used_deg
    moved = used != lat
    sun, top = _margins_deg(day, np.full(day.shape, lat), lng)
    has_every_time = (sun > 0.005) & (top > 0.1)
    lacks_a_time = (sun < -0.005) | (top < -0.005)
    assert not np.any(moved & has_every_time), day[moved & has_every_time]
    assert not np.any(~moved & lacks_a_time), day[~moved & lacks_a_time]
    sun, top = _margins_deg(day[moved], used[moved], lng)
    assert np.all((sun > -0.005) & (top > -0.005))
    nearer = used[moved] + np.sign(lat) * prayer.POLAR_STEP_DEG
    sun, top = _margins_deg(day[moved], nearer, lng)
    nearer_works = (np.abs(nearer) <= abs(lat)) & (sun > 0.005) & (top > 0.1)
    assert not np.any(nearer_works), day[moved][nearer_works]
    assert moved.sum() > 30
