"""`date=D` with a zone gives the times of local day D on that zone's clock, in every IANA zone (issue 35).

References, independent of the service's own zone code (`generator.places.timezones`):
- the local date of each instant is Python's ``zoneinfo`` (rules of the pinned ``tzdata`` package) applied
  instant by instant;
- each zone's representative point is a catalogue city in that zone (data/cities.csv), else the zone's
  principal location in tzdata's own ``zone1970.tab`` / ``zone.tab`` (shipped in the ``tzdata`` package,
  ISO 6709 coordinates; a link, from ``tzdata.zi``'s ``L`` lines, takes its target's), else (``Etc/GMT±N``,
  ``UTC``…) the equator at the longitude of the zone's offset × 15°;
- the dates: three fixed ones and every date of 2026 on which the zone's noon offset changes (found with
  ``zoneinfo`` day by day), so every summer-time change day of every zone is asked for.

The bug it guards: west of 180° on the far side of the date line (Samoa UTC+13, Tonga, Kiritimati UTC+14),
``date=2026-11-28`` gave the times of the 29th on the local clock (fajr 04:32 on the 29th in Apia).
"""
from __future__ import annotations

import csv
import importlib.resources
import re
import zoneinfo
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import orjson
import pytest

from generator.places import timezones
from conftest import call

NOW = datetime(2026, 11, 28, 12, tzinfo=timezone.utc).timestamp()
FIXED_DATES = (date(2026, 1, 15), date(2026, 6, 21), date(2026, 11, 28))
NAMES = ("fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha")
# Within this latitude every time from fajr to isha lies on the local date itself.  Beyond it a short
# summer night can put isha after local midnight (Reykjavik, whose clock runs 1 h 28 min ahead of the Sun:
# isha 00:44 on 22 June), or a polar day fajr before it (Vostok, 2 h behind): the same solar day, still.
ALL_ON_THE_DATE_WITHIN_LAT_DEG = 50.0
# The same solar day: within half a day of its transit, and 30 min more for a polar day's fajr, where the
# nearest-latitude rule bounds fajr by the night *after* the day (adhan-js's night): Troll, 72° S, fajr
# 12 h 4 min before dhuhr on 15 January.
SOLAR_DAY_HALF_S = 12 * 3600 + 30 * 60
CITIES = Path(__file__).resolve().parents[1] / "data" / "cities.csv"


def _iso6709(text: str) -> tuple[float, float]:
    """±DDMM[SS]±DDDMM[SS] (zone1970.tab's coordinates) → (lat, lng) degrees."""
    found = re.fullmatch(r"([+-])(\d\d)(\d\d)(\d\d)?([+-])(\d{3})(\d\d)(\d\d)?", text)
    assert found, text
    s1, d1, m1, x1, s2, d2, m2, x2 = found.groups()
    lat = (int(d1) + int(m1) / 60 + int(x1 or 0) / 3600) * (1 if s1 == "+" else -1)
    lng = (int(d2) + int(m2) / 60 + int(x2 or 0) / 3600) * (1 if s2 == "+" else -1)
    return lat, lng


def _points() -> dict[str, tuple[float, float]]:
    tzdata_files = importlib.resources.files("tzdata.zoneinfo")
    located: dict[str, tuple[float, float]] = {}
    with CITIES.open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            located.setdefault(row["tz"], (float(row["lat"]), float(row["lng"])))
    for table in ("zone1970.tab", "zone.tab"):
        for line in tzdata_files.joinpath(table).read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                fields = line.split("\t")
                located.setdefault(fields[2], _iso6709(fields[1]))
    links = dict(line.split()[:0:-1] for line in tzdata_files.joinpath("tzdata.zi").read_text(encoding="utf-8")
                 .splitlines() if line.startswith("L "))  # "L target link" → {link: target}
    return {name: located.get(name) or located.get(links.get(name)) for name in timezones.available()}


def _offset_h(zone: zoneinfo.ZoneInfo, day: date) -> float:
    return datetime(day.year, day.month, day.day, 12, tzinfo=zone).utcoffset().total_seconds() / 3600


def _dates(zone: zoneinfo.ZoneInfo) -> list[date]:
    """The fixed dates and every 2026 date whose noon offset differs from the day before's."""
    found = list(FIXED_DATES)
    day = date(2026, 1, 1)
    while day.year == 2026:
        if _offset_h(zone, day) != _offset_h(zone, day - timedelta(days=1)):
            found.append(day)
        day += timedelta(days=1)
    return found


def _day(name: str, point: tuple[float, float], day: date) -> dict:
    body = call("prayer-times", NOW, lat=round(point[0], 4), lng=round(point[1], 4), tz=name, date=day.isoformat())
    return orjson.loads(body)["days"][0]


def _unix_s(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def test_every_zone_gives_the_times_of_its_own_local_date():
    """For all ~600 zones of the pinned tzdata at 3 dates and each 2026 change day: dhuhr (the transit the
    day is built on) falls on local date D; every time from fajr to isha within 12½ h of it (the same solar
    day); and within 50° of the equator every one of them on local date D."""
    points = _points()
    wrong, checked, summer_changes = [], 0, 0
    for name in sorted(points):
        zone = zoneinfo.ZoneInfo(name)
        dates = _dates(zone)
        summer_changes += len(dates) - len(FIXED_DATES)
        for day in dates:
            point = points[name] or (0.0, (_offset_h(zone, day) * 15 + 180) % 360 - 180)
            times = _day(name, point, day)
            assert times["date"] == day.isoformat()
            dhuhr_s = _unix_s(times["dhuhr"])
            for time_name in NAMES:
                if times[time_name] is None:
                    continue
                instant_s = _unix_s(times[time_name])
                local = datetime.fromtimestamp(instant_s, zone).date()
                checked += 1
                if time_name == "dhuhr" or abs(point[0]) < ALL_ON_THE_DATE_WITHIN_LAT_DEG:
                    if local != day:
                        wrong.append((name, day.isoformat(), time_name, times[time_name], local.isoformat()))
                elif abs(instant_s - dhuhr_s) >= SOLAR_DAY_HALF_S:
                    wrong.append((name, day.isoformat(), time_name, times[time_name], "not within 12½ h of dhuhr"))
    assert len(points) > 590 and summer_changes > 150 and checked > 14000, (len(points), summer_changes, checked)
    assert not wrong, wrong[:20]


@pytest.mark.parametrize(("name", "lat", "lng"), [
    ("Pacific/Apia", -13.83, -171.76), ("Pacific/Tongatapu", -21.14, -175.2), ("Pacific/Kiritimati", 1.87, -157.4),
    ("Pacific/Chatham", -43.95, -176.55), ("Pacific/Fakaofo", -9.37, -171.23), ("Pacific/Kanton", -2.78, -171.72),
])
def test_beyond_the_date_line_the_issue_query_gives_the_local_date(name, lat, lng):
    """The issue's query and its neighbours: fajr is in the early morning of the asked date on the local clock
    (2026-11-28 in Apia: 04:32 on the 28th, not on the 29th), and the next date's fajr is one day later."""
    zone = zoneinfo.ZoneInfo(name)
    body = orjson.loads(call("prayer-times", NOW, lat=lat, lng=lng, tz=name, year=2026, month=11))
    by_date = {entry["date"]: entry for entry in body["days"]}
    fajr = datetime.fromtimestamp(_unix_s(by_date["2026-11-28"]["fajr"]), zone)
    assert fajr.date() == date(2026, 11, 28) and 3 <= fajr.hour < 6, fajr
    assert by_date["2026-11-28"]["local"]["fajr"] == fajr.strftime("%H:%M")
    gap_s = _unix_s(by_date["2026-11-29"]["fajr"]) - _unix_s(by_date["2026-11-28"]["fajr"])
    assert abs(gap_s - 86400) <= 120, gap_s


def test_without_a_zone_the_date_stays_the_local_mean_day():
    """SPEC: with no zone the date is the day at local mean time (UT 12h − lng/15): at lng −171.76 the transit of
    2026-11-28 is at 23:15 UT on the 28th (12:00 − (−171.76/15) h, less the equation of time, +12.4 min then)."""
    body = orjson.loads(call("prayer-times", NOW, lat=-13.83, lng=-171.76, date="2026-11-28"))
    assert body["meta"]["tz"] == "UTC"
    dhuhr_s = _unix_s(body["days"][0]["dhuhr"])
    mean_noon_s = datetime(2026, 11, 28, tzinfo=timezone.utc).timestamp() + 43200 + 171.76 / 15 * 3600
    assert abs(dhuhr_s - (mean_noon_s - 12.4 * 60)) <= 60


def test_samoa_skipping_a_date_keeps_one_solar_day_per_local_date():
    """Samoa moved from UTC−10 to UTC+14 (summer time) at the end of 2011-12-29, so 2011-12-30 never happened
    there (zoneinfo): the 29th and the 31st are each their own local day, and the night after the 29th ends
    at the fajr of the 31st (about one day later: no solar day lost or counted twice)."""
    zone = zoneinfo.ZoneInfo("Pacific/Apia")
    body = orjson.loads(call("prayer-times", NOW, lat=-13.83, lng=-171.76, tz="Pacific/Apia", year=2011, month=12))
    by_date = {entry["date"]: entry for entry in body["days"]}
    for day in ("2011-12-28", "2011-12-29", "2011-12-31"):
        for time_name in NAMES:
            assert datetime.fromtimestamp(_unix_s(by_date[day][time_name]), zone).date().isoformat() == day
    gap_s = _unix_s(by_date["2011-12-31"]["fajr"]) - _unix_s(by_date["2011-12-29"]["fajr"])
    assert abs(gap_s - 86400) <= 120, gap_s
    midnight_s, next_fajr_s = _unix_s(by_date["2011-12-29"]["midnight"]), _unix_s(by_date["2011-12-31"]["fajr"])
    maghrib_s = _unix_s(by_date["2011-12-29"]["maghrib"])
    assert abs(midnight_s - (maghrib_s + next_fajr_s) / 2) <= 60


def test_the_prayer_feed_beyond_the_date_line_dates_each_prayer_on_its_local_day():
    """The feed (/v1/prayer-times.ics) takes the same days: each prayer event's UID names the local date it
    belongs to (…-YYYYMMDD-<prayer>-…), and its DTSTART (UTC), read on Apia's clock by zoneinfo, falls on it."""
    zone = zoneinfo.ZoneInfo("Pacific/Apia")
    feed = call("prayer-times.ics", NOW, lat=-13.83, lng=-171.76, tz="Pacific/Apia", days=7).decode()
    found = [(re.search(r"\r\nDTSTART:(\d{8}T\d{6}Z)\r\n", event).group(1), uid.group(1))
             for event in feed.split("BEGIN:VEVENT")[1:]
             if (uid := re.search(r"\r\nUID:prayer-.*-(\d{8})-(?:fajr|dhuhr|asr|maghrib|isha)-", event))]
    assert len(found) == 7 * 5, len(found)
    for start, day in found:
        local = datetime.strptime(start, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc).astimezone(zone)
        assert local.strftime("%Y%m%d") == day, (start, day)
