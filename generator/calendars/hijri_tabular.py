"""The arithmetic (tabular) Islamic calendar, vectorised.

A 30-year cycle of 10,631 days with leap years 2, 5, 7, 10, 13, 16, 18, 21, 24, 26
and 29 (the most common scheme, used by Kuwaiti-algorithm converters and .NET's
``HijriCalendar``); odd months have 30 days, even months 29, and month 12 has 30 in
a leap year.  Epoch: 1 Muharram 1 AH = Friday 16 July 622 (Julian), JD 1948439.5.
It is an estimate: the service uses it only where no table or crescent
computation applies (SPEC 2.5 source ``tabular``).
"""
from __future__ import annotations

import numpy as np

EPOCH_UNIX_DAY = -492148  # JD 1948439.5 − 2440587.5
CYCLE_YEARS = 30
CYCLE_DAYS = 10631
LEAP_YEARS_IN_CYCLE = (2, 5, 7, 10, 13, 16, 18, 21, 24, 26, 29)
_YEAR_START = np.cumsum([0] + [354 + (y in LEAP_YEARS_IN_CYCLE) for y in range(1, CYCLE_YEARS + 1)])
_MONTH_START = np.array([int(np.ceil(29.5 * k)) for k in range(13)])  # 0, 30, 59, ..., 354


def to_hijri(unix_day: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (year, month, day) arrays for days counted since 1970-01-01."""
    elapsed = np.asarray(unix_day, dtype=np.int64) - EPOCH_UNIX_DAY
    cycle, in_cycle = np.divmod(elapsed, CYCLE_DAYS)
    year_in_cycle = np.searchsorted(_YEAR_START, in_cycle, side="right") - 1
    day_of_year = in_cycle - _YEAR_START[year_in_cycle]
    month = np.minimum(np.searchsorted(_MONTH_START, day_of_year, side="right"), 12)
    return cycle * CYCLE_YEARS + year_in_cycle + 1, month, day_of_year - _MONTH_START[month - 1] + 1


def month_start(year: np.ndarray, month: np.ndarray) -> np.ndarray:
    """Return the day number (since 1970-01-01) of day 1 of a Hijri month."""
    cycle, year_in_cycle = np.divmod(np.asarray(year, dtype=np.int64) - 1, CYCLE_YEARS)
    return EPOCH_UNIX_DAY + cycle * CYCLE_DAYS + _YEAR_START[year_in_cycle] + _MONTH_START[np.asarray(month) - 1]
