"""Per-day table of the apparent Sun, 1900..2100, built once from the ephemeris.

Each row is the geocentric apparent Sun at 0h UT1 of one day:

* ``declination_deg``: apparent declination (true equator and equinox of date);
* ``eot_deg``: the equation of time as an angle, GHA(Sun) − 180° at 0h UT1, so that
  at any UT1 day fraction f the Sun's Greenwich hour angle is ``180 + 360·f + eot``;
* ``distance_au``: geocentric distance (for completeness; rise/set use the fixed
  −0.8333° convention, so the solver does not need it).

The prayer solver interpolates these columns (quadratic, three rows) to any
instant; over one day the cubic term is below 1e-5° for the declination.
The table is written to ``data/tables/sun.parquet`` (generated, git-ignored) by
``make build``, or on first use, and is read into numpy arrays once per process.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from generator import tables
from generator.astronomy import ephemeris

TABLE_PATH = tables.TABLES_DIR / "sun.parquet"
TABLE_VERSION = "1"  # bump when the columns or their definition change

# Days are counted as whole days since 1970-01-01 (numpy datetime64[D] integers).
FIRST_DAY = int(np.datetime64("1899-11-01", "D").astype(np.int64))
LAST_DAY = int(np.datetime64("2101-03-01", "D").astype(np.int64))
UNIX_EPOCH_JD = 2440587.5


@dataclass(frozen=True)
class SunTable:
    """Columns of the table as float64 arrays indexed by ``day - first_day``."""

    first_day: int
    declination_deg: np.ndarray
    eot_deg: np.ndarray
    distance_au: np.ndarray

    def __post_init__(self) -> None:
        # Quadratic coefficients per row, y(p) = c0 + p·c1 + p²·c2 for p in [-0.5, 0.5] days
        # around the row (three-point Lagrange through rows i−1, i, i+1), for the columns
        # declination, equation of time, and sin/cos of the declination (smooth too, and
        # interpolating them spares the solver two trigonometric calls per pass).
        dec_rad = np.radians(self.declination_deg)
        columns = np.stack([self.declination_deg, self.eot_deg, np.sin(dec_rad), np.cos(dec_rad)], axis=-1)
        prev, mid, nxt = np.roll(columns, 1, axis=0), columns, np.roll(columns, -1, axis=0)
        coefficients = np.stack([mid, (nxt - prev) / 2, (nxt - 2 * mid + prev) / 2], axis=1)
        coefficients[[0, -1]] = np.nan  # the end rows have no neighbour on one side
        # Stored as (order, column, row): a gather along the last axis gives each order and column
        # as a contiguous array shaped like the instants, so Horner's rule runs on whole arrays
        # (on (row, order, column) slices it ran on strided triples, about five times slower).
        by_order = np.moveaxis(coefficients, 0, -1)  # (3 orders, 4 columns, rows)
        object.__setattr__(self, "_coefficients", np.ascontiguousarray(by_order[:, :2]))
        object.__setattr__(self, "_trig_coefficients", np.ascontiguousarray(by_order[:, 1:]))
        object.__setattr__(self, "_all_coefficients", np.ascontiguousarray(by_order))

    def _evaluate(self, days: np.ndarray, table: np.ndarray, with_rates: bool = False):
        """Return the quadratic of the nearest row at each day, shape (columns, *days.shape),
        and with ``with_rates`` also its derivative (per day), as a pair.

        NaN days give NaN; days outside the table raise ValueError.
        """
        nearest = np.rint(days)
        # NaN if any day is NaN (the ufunc's reduce: ndarray.min's wrapper costs several times more)
        first = np.minimum.reduce(nearest, axis=None) if nearest.size else self.first_day
        if np.isnan(first):  # NaN days read any row: their offset p below stays NaN
            nearest = np.rint(np.where(np.isnan(days), self.first_day + 1, days))
            first = np.minimum.reduce(nearest, axis=None)
        try:
            if first < self.first_day:  # take() would wrap a negative row
                raise IndexError
            c = table.take(nearest.astype(np.int64) - self.first_day, axis=-1)  # (3 orders, columns, *days.shape)
        except IndexError:
            raise ValueError(
                f"day outside the sun table ({self.first_day}..{self.first_day + len(self.declination_deg) - 1})"
            ) from None
        p = days - nearest  # offset from the row in days, in [-0.5, 0.5]; NaN days stay NaN
        inner = c[2] * p  # Horner: c0 + p·(c1 + p·c2); the derivative is c1 + 2p·c2 = (c1 + p·c2) + p·c2
        value = inner + c[1]
        rate = value + inner if with_rates else None
        value *= p
        value += c[0]
        return (value, rate) if with_rates else value

    def interpolate(self, days: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (declination_deg, eot_deg) at real-valued UT1 day numbers.

        Quadratic (three-point Lagrange) interpolation around the nearest row.
        NaN days give NaN; days outside the table raise ValueError.
        """
        declination, eot = self._evaluate(np.asarray(days, dtype=float), self._coefficients)
        return declination, eot

    def interpolate_all_with_rates(self, days: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (declination_deg, eot_deg, sin δ, cos δ) shaped (4, *days.shape), and the
        derivative of each per day: every column in one lookup."""
        return self._evaluate(np.asarray(days, dtype=float), self._all_coefficients, with_rates=True)

    def interpolate_trig(self, days: np.ndarray, with_rates: bool = False):
        """Return the equation of time (degrees), the sine and the cosine of the declination at
        real-valued UT1 day numbers, shaped (3, *days.shape); with ``with_rates``, (those, the
        derivative of each per day): the derivative of the same quadratic, for Newton's method."""
        return self._evaluate(np.asarray(days, dtype=float), self._trig_coefficients, with_rates)


def compute_columns(days: np.ndarray) -> dict[str, np.ndarray]:
    """Return the table columns for integer day numbers, computed with skyfield."""
    ts = ephemeris.timescale()
    b = ephemeris.bodies()
    t = ts.ut1_jd(days.astype(float) + UNIX_EPOCH_JD)
    ra, dec, distance = b.earth.at(t).observe(b.sun).apparent().radec(epoch="date")
    gha_deg = t.gast * 15.0 - ra.hours * 15.0
    eot_deg = (gha_deg - 180.0 + 180.0) % 360.0 - 180.0
    return {
        "day": days.astype(np.int32),
        "declination_deg": dec.degrees,
        "eot_deg": eot_deg,
        "distance_au": distance.au,
    }


STAMP = {"version": TABLE_VERSION, "ephemeris": ephemeris.EPHEMERIS_NAME, "time": "0h UT1"}


BUILD_CHUNK_DAYS = 16384  # days per skyfield call when building


def build(path: Path = TABLE_PATH) -> Path:
    """Compute the whole table and write it atomically to ``path``.

    In chunks of `BUILD_CHUNK_DAYS`: the IAU 2000A nutation of all 73,535 days at once makes
    temporaries of 1,365 terms × days (about 400 MB each), whose page faults cost as much
    as the arithmetic; in chunks the peak is a fifth of that and the build about 15 % faster.
    Every day is computed on its own, so the columns are the same bit for bit.
    """
    days = np.arange(FIRST_DAY, LAST_DAY + 1)
    chunks = [compute_columns(days[i : i + BUILD_CHUNK_DAYS]) for i in range(0, len(days), BUILD_CHUNK_DAYS)]
    return tables.write_parquet(path, {name: np.concatenate([c[name] for c in chunks]) for name in chunks[0]}, STAMP)


@functools.cache
def load(path: Path = TABLE_PATH) -> SunTable:
    """Return the table, building it first if it is missing or stale."""
    table = tables.read_parquet(path, STAMP, build)
    days = table.column("day").to_numpy()
    return SunTable(
        first_day=int(days[0]),
        declination_deg=table.column("declination_deg").to_numpy(),
        eot_deg=table.column("eot_deg").to_numpy(),
        distance_au=table.column("distance_au").to_numpy(),
    )
