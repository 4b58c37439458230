"""Solar Hijri (Shamsi) dates against Iran's official calendar.

Reference: the leap-year table of Iran's calendar authority (the Calendar Center, Institute of
Geophysics, University of Tehran), https://calendar.ut.ac.ir/Fa/News/Data/Doc/KabiseShamsi1206-1498-new.pdf,
as transcribed (CC0) in https://github.com/roozbehp/persiancalendar/blob/main/kabise.txt
(read 2026-11-22): the Gregorian date of 1 Farvardin (Nowruz) of every year, a star on leap years.
Rows 1369..1419 AP (1990..2040) are copied below; exact to the day (no tolerance).
"""
from __future__ import annotations

from datetime import date, timedelta

import pytest

from generator.calendars import shamsi

# Solar Hijri year: (Gregorian date of 1 Farvardin, the year is leap) per the Calendar Center's table.
NOWRUZ = {
    1369: ("1990-03-21", False), 1370: ("1991-03-21", True), 1371: ("1992-03-21", False),
    1372: ("1993-03-21", False), 1373: ("1994-03-21", False), 1374: ("1995-03-21", False),
    1375: ("1996-03-20", True), 1376: ("1997-03-21", False), 1377: ("1998-03-21", False),
    1378: ("1999-03-21", False), 1379: ("2000-03-20", True), 1380: ("2001-03-21", False),
    1381: ("2002-03-21", False), 1382: ("2003-03-21", False), 1383: ("2004-03-20", True),
    1384: ("2005-03-21", False), 1385: ("2006-03-21", False), 1386: ("2007-03-21", False),
    1387: ("2008-03-20", True), 1388: ("2009-03-21", False), 1389: ("2010-03-21", False),
    1390: ("2011-03-21", False), 1391: ("2012-03-20", True), 1392: ("2013-03-21", False),
    1393: ("2014-03-21", False), 1394: ("2015-03-21", False), 1395: ("2016-03-20", True),
    1396: ("2017-03-21", False), 1397: ("2018-03-21", False), 1398: ("2019-03-21", False),
    1399: ("2020-03-20", True), 1400: ("2021-03-21", False), 1401: ("2022-03-21", False),
    1402: ("2023-03-21", False), 1403: ("2024-03-20", True), 1404: ("2025-03-21", False),
    1405: ("2026-03-21", False), 1406: ("2027-03-21", False), 1407: ("2028-03-20", False),
    1408: ("2029-03-20", True), 1409: ("2030-03-21", False), 1410: ("2031-03-21", False),
    1411: ("2032-03-20", False), 1412: ("2033-03-20", True), 1413: ("2034-03-21", False),
    1414: ("2035-03-21", False), 1415: ("2036-03-20", False), 1416: ("2037-03-20", True),
    1417: ("2038-03-21", False), 1418: ("2039-03-21", False), 1419: ("2040-03-20", False),
}


@pytest.mark.parametrize("year", sorted(NOWRUZ))
def test_nowruz_is_the_official_date(year):
    nowruz = date.fromisoformat(NOWRUZ[year][0])
    assert shamsi.from_gregorian(nowruz) == (year, 1, 1)
    assert shamsi.to_gregorian(year, 1, 1) == nowruz
    last_esfand = 30 if NOWRUZ.get(year - 1, (None, False))[1] else 29
    if year - 1 in NOWRUZ:
        assert shamsi.from_gregorian(nowruz - timedelta(days=1)) == (year - 1, 12, last_esfand)


def test_year_lengths_follow_the_official_leap_years():
    for year in sorted(NOWRUZ)[:-1]:
        length = (date.fromisoformat(NOWRUZ[year + 1][0]) - date.fromisoformat(NOWRUZ[year][0])).days
        assert length == (366 if NOWRUZ[year][1] else 365), year
        assert (shamsi.to_gregorian(year + 1, 1, 1) - shamsi.to_gregorian(year, 1, 1)).days == length


def test_month_lengths_within_a_year():
    """Six months of 31 days, five of 30, Esfand 29 or 30 (the calendar's law of 1925)."""
    start = shamsi.to_gregorian(1405, 1, 1)
    firsts = [shamsi.to_gregorian(1405, m, 1) for m in range(1, 13)] + [shamsi.to_gregorian(1406, 1, 1)]
    assert [(b - a).days for a, b in zip(firsts, firsts[1:])] == [31] * 6 + [30] * 5 + [29]
    assert start == date(2026, 3, 21)
