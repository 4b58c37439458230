"""New moons (geocentric conjunctions) 1898..2102, built once from the ephemeris.

A new moon is the instant when the geocentric apparent ecliptic longitudes (true
equinox of date) of the Moon and the Sun are equal: the definition the United States
Naval Observatory uses for its phase tables, and skyfield's ``almanac.moon_phases``.
They are found with ``skyfield.searchlib.find_discrete`` over the whole range at once
(a two-valued function of the elongation, sampled every 7 days and refined to 1 ms).

Each row of the table (``data/tables/new_moons.parquet``, generated, git-ignored) is one
new moon:

* ``lunation``: Meeus' lunation number k (0 = the new moon of 2000-01-06 18:14 UT);
* ``ut1_day``: the instant as a real UT1 day number (days since 1970-01-01 0h UT1).
  The service reports instants as UTC; UTC and UT1 differ by less than 0.9 s since
  1972 (and by at most a few seconds before), so this is the "conjunction in UTC,
  corrected for the Earth-rotation time difference" of SPEC 2.6;
* ``tt_jd``: the same instant as a Terrestrial Time Julian date (for ephemeris work).

The table is written atomically on first use (or by `build()`), read once per process.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from skyfield import searchlib
from skyfield.framelib import ecliptic_frame
from skyfield.nutationlib import iau2000b_radians

from generator import tables
from generator.astronomy import ephemeris

TABLE_PATH = tables.TABLES_DIR / "new_moons.parquet"
TABLE_VERSION = "1"  # bump when the columns or their definition change

FIRST_DATE = "1898-01-01"  # a year of margin around Hijri 1317..1523 (1899..2101)
LAST_DATE = "2102-12-31"
UNIX_EPOCH_JD = 2440587.5
SEARCH_STEP_DAYS = 7.0  # the elongation crosses 0° and 180° once each per ~29.5 days
SEARCH_EPSILON_DAYS = 0.001 / 86400.0  # 1 ms
MEEUS_LUNATION_ZERO_UT1_DAY = 10961.76  # 2000-01-06 18:14 UT (Meeus, Astronomical Algorithms ch. 49)
SYNODIC_MONTH_DAYS = 29.530588861  # mean synodic month, Meeus ch. 49


@dataclass(frozen=True)
class NewMoons:
    """The table as arrays (sorted by time)."""

    lunation: np.ndarray  # int64, Meeus k
    ut1_day: np.ndarray  # float64, days since 1970-01-01 0h UT1
    tt_jd: np.ndarray  # float64, Julian date TT

    def before(self, ut1_day: np.ndarray) -> np.ndarray:
        """Return the index of the last new moon at or before each UT1 day number."""
        return np.searchsorted(self.ut1_day, np.asarray(ut1_day, dtype=float), side="right") - 1

    def nearest(self, ut1_day: np.ndarray) -> np.ndarray:
        """Return the index of the new moon nearest to each UT1 day number."""
        day = np.asarray(ut1_day, dtype=float)
        after = np.clip(np.searchsorted(self.ut1_day, day), 1, len(self.ut1_day) - 1)
        earlier = (day - self.ut1_day[after - 1]) < (self.ut1_day[after] - day)
        return np.where(earlier, after - 1, after)


def _elongation_half(ephemeris_bodies):
    """Return f(t) = 0 while the Moon-Sun ecliptic elongation is in [0°, 180°), else 1.

    The change 1 → 0 is a new moon, 0 → 1 a full moon (as skyfield's ``moon_phases``,
    with two states instead of four).
    """
    earth, moon, sun = ephemeris_bodies.earth, ephemeris_bodies.moon, ephemeris_bodies.sun

    def half_at(t):
        t._nutation_angles_radians = iau2000b_radians(t)  # as skyfield's moon_phases (< 1 mas)
        e = earth.at(t)
        _, moon_lon, _ = e.observe(moon).apparent().frame_latlon(ecliptic_frame)
        _, sun_lon, _ = e.observe(sun).apparent().frame_latlon(ecliptic_frame)
        return ((moon_lon.radians - sun_lon.radians) % (2 * np.pi) >= np.pi).astype(int)

    half_at.step_days = SEARCH_STEP_DAYS
    return half_at


def compute(first_date: str = FIRST_DATE, last_date: str = LAST_DATE) -> dict[str, np.ndarray]:
    """Return the table columns for every new moon between two dates (YYYY-MM-DD, UT)."""
    ts = ephemeris.timescale()
    y0, m0, d0 = map(int, first_date.split("-"))
    y1, m1, d1 = map(int, last_date.split("-"))
    t, state = searchlib.find_discrete(
        ts.utc(y0, m0, d0), ts.utc(y1, m1, d1), _elongation_half(ephemeris.bodies()), epsilon=SEARCH_EPSILON_DAYS
    )
    new = state == 0
    ut1_day = t.ut1[new] - UNIX_EPOCH_JD
    lunation = np.rint((ut1_day - MEEUS_LUNATION_ZERO_UT1_DAY) / SYNODIC_MONTH_DAYS).astype(np.int64)
    return {"lunation": lunation, "ut1_day": ut1_day, "tt_jd": t.tt[new]}


STAMP = {"version": TABLE_VERSION, "ephemeris": ephemeris.EPHEMERIS_NAME, "definition": "apparent ecliptic longitude"}


def build(path: Path = TABLE_PATH) -> Path:
    """Compute the whole table and write it atomically to ``path``."""
    columns = compute()
    if np.any(np.diff(columns["lunation"]) != 1):
        raise RuntimeError("new-moon search missed or duplicated a lunation")
    return tables.write_parquet(path, columns, STAMP)


@functools.cache
def load(path: Path = TABLE_PATH) -> NewMoons:
    """Return the new-moon table, building it first if it is missing or stale."""
    table = tables.read_parquet(path, STAMP, build)
    return NewMoons(
        lunation=table.column("lunation").to_numpy(),
        ut1_day=table.column("ut1_day").to_numpy(),
        tt_jd=table.column("tt_jd").to_numpy(),
    )
