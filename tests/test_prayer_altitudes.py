"""The Sun's altitude at our computed instants, checked with skyfield directly (JPL DE440).

At an unrounded fajr, isha or angle-maghrib instant the Sun's centre must stand at
the method's depression angle; at sunrise and sunset at −0.8333°; at asr at the
shadow-factor-1 altitude.  Geocentric apparent altitude, no refraction: the
convention the angles are defined in.  Tolerance 0.01° (about 2.4 s of time).
"""
from __future__ import annotations

import numpy as np
import pytest

from generator import ephemeris, prayer, sun_table
from generator.methods import METHODS

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
