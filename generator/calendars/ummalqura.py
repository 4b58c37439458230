"""Ramadan under the Umm al-Qura calendar, for the UmmAlQura method's isha interval.

The Umm al-Qura method lengthens isha to 120 minutes in Ramadan; Ramadan is taken
from Saudi Arabia's own Umm al-Qura calendar (``hijridate`` package, 1343..1500 AH,
1924..2077), and from the tabular calendar outside that range.
"""
from __future__ import annotations

import functools

import numpy as np
from hijridate import Hijri

from generator.calendars import hijri_tabular
from generator.places import days

RAMADAN = 9
_FIRST_YEAR, _LAST_YEAR = 1343, 1500


@functools.cache
def _ramadan_spans() -> tuple[np.ndarray, np.ndarray]:
    """Return (first day, day after the last) of every Ramadan, as sorted day numbers."""
    years = np.arange(1310, 1530)
    starts = hijri_tabular.month_start(years, np.full(years.shape, RAMADAN))
    ends = hijri_tabular.month_start(years, np.full(years.shape, RAMADAN + 1))
    for i, year in enumerate(years):
        if _FIRST_YEAR <= year <= _LAST_YEAR:
            starts[i] = days.unix_day(Hijri(int(year), RAMADAN, 1).to_gregorian())
            ends[i] = days.unix_day(Hijri(int(year), RAMADAN + 1, 1).to_gregorian())
    return starts, ends


def is_ramadan(unix_day: np.ndarray) -> np.ndarray:
    """Return a bool array: is each day (since 1970-01-01) in Ramadan (Umm al-Qura)?"""
    starts, ends = _ramadan_spans()
    unix_day = np.asarray(unix_day, dtype=np.int64)
    index = np.searchsorted(starts, unix_day, side="right") - 1
    return (index >= 0) & (unix_day < ends[np.clip(index, 0, None)])
