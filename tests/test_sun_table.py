"""The per-day sun table against skyfield computed directly (JPL DE440), and against
astronomy-engine (an independent ephemeris, VSOP87-based) as a loose outside check."""
from __future__ import annotations

import numpy as np
import pytest

from generator.astronomy import ephemeris, sun_table

ARCSECOND_DEG = 1 / 3600


def _skyfield_sun(unix_days_ut1: np.ndarray):
    ts, b = ephemeris.timescale(), ephemeris.bodies()
    t = ts.ut1_jd(unix_days_ut1 + sun_table.UNIX_EPOCH_JD)
    ra, dec, _ = b.earth.at(t).observe(b.sun).apparent().radec(epoch="date")
    # GHA = 180° + 360°·(fraction of the UT1 day) + equation of time
    gha_deg = (t.gast - ra.hours) * 15.0 - 360.0 * (unix_days_ut1 % 1.0)
    return dec.degrees, (gha_deg - 180.0 + 180.0) % 360.0 - 180.0


def test_table_covers_1900_to_2100_with_margins():
    table = sun_table.load()
    first = np.datetime64("1899-12-01").astype(int)
    last = np.datetime64("2101-01-31").astype(int)
    assert table.first_day <= first and table.first_day + len(table.declination_deg) - 1 >= last
    assert np.isfinite(table.declination_deg).all() and np.isfinite(table.eot_deg).all()


def test_sampled_rows_equal_skyfield_computed_directly():
    table = sun_table.load()
    rng = np.random.default_rng(1)
    rows = rng.integers(0, len(table.declination_deg), 400)
    dec, eot = _skyfield_sun((table.first_day + rows).astype(float))
    np.testing.assert_allclose(table.declination_deg[rows], dec, atol=1e-9)
    np.testing.assert_allclose(table.eot_deg[rows], eot, atol=1e-9)


def test_interpolation_between_rows_matches_skyfield_within_a_twentieth_arcsecond():
    """The solver reads the table at arbitrary instants: quadratic interpolation must be exact enough."""
    rng = np.random.default_rng(2)
    start = np.datetime64("1900-01-02").astype(int)
    instants = start + rng.uniform(0, 73000, 2000)
    dec, eot = sun_table.load().interpolate(instants)
    ref_dec, ref_eot = _skyfield_sun(instants)
    # short-period nutation is not quadratic over a day: 0.05″ is ~3 ms of time
    assert np.max(np.abs(dec - ref_dec)) < 0.05 * ARCSECOND_DEG
    assert np.max(np.abs(eot - ref_eot)) < 0.05 * ARCSECOND_DEG


def test_declination_against_astronomy_engine():
    """Independent ephemeris: astronomy-engine (PyPI 2.1.19), apparent equator of date.

    Its Sun differs from DE440 by up to ~2.6″ (reference/ephemeris.md); 10″ is the bound.
    """
    astronomy = pytest.importorskip("astronomy")
    table = sun_table.load()
    for iso in ("1900-03-21", "1955-06-21", "2000-01-01", "2026-09-23", "2061-12-22", "2100-06-30"):
        day = int(np.datetime64(iso).astype(int))
        y, m, d = map(int, iso.split("-"))
        t = astronomy.Time.Make(y, m, d, 0, 0, 0)
        geocentric = astronomy.GeoVector(astronomy.Body.Sun, t, True)  # aberration corrected, J2000
        of_date = astronomy.RotateVector(astronomy.Rotation_EQJ_EQD(t), geocentric)
        dec_deg = astronomy.EquatorFromVector(of_date).dec
        assert abs(table.declination_deg[day - table.first_day] - dec_deg) < 10 * ARCSECOND_DEG, iso
