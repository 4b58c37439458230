"""The midnight printed under an authority's name is that authority's (issue 33, language review ar E3 / W2,
fa FA-01).

The Institute of Geophysics (University of Tehran), whose method the Tehran, Qom and Mashhad pages name, prints
midnight half-way from sunset to the next fajr (its printed tables, data/SOURCES-TIMETABLES.md); the office of
Ayatollah Sistani, whose months the Karbala page follows, defines it the same way ("the middle between sunset and
dawn").  The pages printed the SPEC's maghrib-to-fajr midpoint instead, 8-10 minutes later.

Reference, computed here independently of the service: astronomy-engine (PyPI ``astronomy-engine``) finds the
Sun's setting (upper limb, standard refraction) and the next instant the Sun rises through 17.7° below the horizon
(the Institute's dawn); their midpoint, on the city's clock, must be the printed minute within 1 minute.
"""
from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import astronomy
import pytest
from conftest import call

from generator.site import imsakiya, timetable

NOW_S = 1795867200  # 2026-11-28 12:00 UTC: the pages show November and December 2026
INSTITUTE_FAJR_DEG = 17.7  # the Institute's dawn (data/methods.json cites its tables; here the published angle)
TOLERANCE_S = 60
# city: (lat, lng, zone), as the catalogue places them (data/cities.csv)
CITIES = {
    "tehran": (35.6892, 51.3890, "Asia/Tehran"),
    "qom": (34.6416, 50.8790, "Asia/Tehran"),
    "mashhad": (36.2880, 59.6157, "Asia/Tehran"),
    "karbala": (32.6165, 44.0324, "Asia/Baghdad"),
    "london": (51.5074, -0.1278, "Europe/London"),
}
_EASTERN = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")


def _unix(t: astronomy.Time) -> float:
    return t.ut * 86400.0 + 946728000.0  # astronomy-engine counts UT days from J2000 (2000-01-01 12:00 UT)


def _time(unix_s: float) -> astronomy.Time:
    return astronomy.Time((unix_s - 946728000.0) / 86400.0)


def sunset_to_fajr_midnight(city: str, day: date, fajr_deg: float = INSTITUTE_FAJR_DEG) -> datetime:
    """The midpoint of the day's sunset and the next dawn at ``fajr_deg``, on the city's clock (astronomy-engine)."""
    lat, lng, zone = CITIES[city]
    observer = astronomy.Observer(lat, lng, 0.0)
    noon = datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc).timestamp() - lng / 15 * 3600
    sunset = astronomy.SearchRiseSet(astronomy.Body.Sun, observer, astronomy.Direction.Set, _time(noon), 1.0)
    dawn = astronomy.SearchAltitude(astronomy.Body.Sun, observer, astronomy.Direction.Rise, sunset, 1.0,
                                    -fajr_deg)
    return datetime.fromtimestamp((_unix(sunset) + _unix(dawn)) / 2, ZoneInfo(zone))


def assert_printed(city: str, day: date, printed: str, fajr_deg: float = INSTITUTE_FAJR_DEG) -> None:
    """``printed`` (HH:MM on the 24-hour clock, any digits) is the authority's midnight of ``day`` within 1 minute."""
    hours, minutes = map(int, printed.translate(_EASTERN).split(":"))
    expected = sunset_to_fajr_midnight(city, day, fajr_deg)
    on = day + timedelta(days=1) if hours < 12 else day  # a midnight after 00:00 is the next date's
    shown = datetime(on.year, on.month, on.day, hours, minutes, tzinfo=ZoneInfo(CITIES[city][2]))
    assert abs((shown - expected).total_seconds()) <= TOLERANCE_S, (city, day, printed, expected)


def _rows(html: str) -> dict[str, str]:
    """Each row's date and its printed midnight."""
    rows = re.findall(r'<tr[^>]*data-date="(\d{4}-\d\d-\d\d)"[^>]*>(.*?)</tr>', html, re.S)
    return {iso: re.search(r'<td data-time="midnight">([^<]+)</td>', row)[1] for iso, row in rows}


@pytest.mark.parametrize("city, lang", [("tehran", "fa"), ("qom", "fa"), ("mashhad", "en"), ("karbala", "en")])
def test_a_city_page_prints_its_authoritys_midnight(city, lang):
    """Every row of the two months a city page shows (61 days), under the Institute's name (fa FA-01, ar E3)."""
    html = timetable.render(date(2026, 11, 28), city, lang, now_s=NOW_S).decode()
    rows = _rows(html)
    assert len(rows) == 61
    for iso, printed in rows.items():
        assert_printed(city, date.fromisoformat(iso), printed)


def test_a_month_page_and_the_imsakiya_print_it_in_summer_too():
    """Tehran's June 2027 page, and its Ramadan 1448 imsakiya (February-March 2027)."""
    june = _rows(timetable.render_month(date(2026, 11, 28), "tehran", "en", "Tehran", "2027-06", now_s=NOW_S).decode())
    assert len(june) == 30
    ramadan = _rows(imsakiya.render(date(2026, 11, 28), "karbala", "en", now_s=NOW_S).decode())
    assert len(ramadan) >= 29
    for city, rows in (("tehran", june), ("karbala", ramadan)):
        for iso, printed in rows.items():
            assert_printed(city, date.fromisoformat(iso), printed)


def _config(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="page-config">(.*?)</script>', html, re.S)[1])


@pytest.mark.parametrize("kind", ["screen", "widget"])
def test_the_screen_and_widget_read_the_authoritys_midnight(client, kind):
    """The day the page is rendered with and the year its script reads (Tehran and Karbala)."""
    for city in ("tehran", "karbala"):
        config = _config(client.get(f"/{kind}/?city={city}").text)
        seed = config["today"]
        assert_printed(city, date.fromisoformat(seed["date"]), seed["day"]["local"]["midnight"])
        year = client.get(config["prayerTimes"][-1].replace("YEAR", "2027")).json()
        for entry in year["days"][::30]:
            assert_printed(city, date.fromisoformat(entry["date"]), entry["local"]["midnight"])


def test_a_method_named_by_the_reader_keeps_its_own_midnight():
    """A London page of the Institute's method prints the Institute's midnight, and says whose it is; a Tehran page
    of the Jafari method prints praytimes.org's Jafari midnight (sunset to its 16° dawn: the source its parameters
    come from); the Al-Khoei preset, whose authority's midnight no source gives, keeps the API's and says so."""
    london_html = timetable.render(date(2026, 11, 28), "london", "en", "Tehran", now_s=NOW_S).decode()
    london = _rows(london_html)
    assert len(london) == 61
    for iso, printed in london.items():
        assert_printed("london", date.fromisoformat(iso), printed)
    assert "Midnight: half-way from sunset to the next fajr, as this method&#39;s authority defines it." in london_html
    jafari = _rows(timetable.render(date(2026, 11, 28), "tehran", "en", "Jafari", now_s=NOW_S).decode())
    for iso, printed in jafari.items():
        assert_printed("tehran", date.fromisoformat(iso), printed, fajr_deg=16)
    khoei_html = timetable.render(date(2026, 11, 28), "karbala", "ar", "AlKhoeiFoundation", now_s=NOW_S).decode()
    khoei = _rows(khoei_html)
    api = json.loads(call("prayer-times", NOW_S, city="karbala", date="2026-11-28", method="AlKhoeiFoundation"))
    assert khoei["2026-11-28"].translate(_EASTERN).lstrip("0") == _twelve(api["days"][0]["local"]["midnight"])
    assert "(الحساب الافتراضي في هذه الخدمة)، إذ لم نجد تحديداً له" in khoei_html  # wording: gallery review ar AR2-06


def _twelve(hhmm: str) -> str:
    hours, minutes = hhmm.split(":")
    return f"{(int(hours) + 11) % 12 + 1}:{minutes}"


def test_the_apis_default_stays_the_specs():
    """/v1/prayer-times' default midnight is still the SPEC's, maghrib to fajr: 5 minutes or more later than the
    Institute's in Tehran (the pages ask for the Institute's with midnight=sunsetToFajr)."""
    api = json.loads(call("prayer-times", NOW_S, city="tehran", date="2026-11-28"))["days"][0]
    expected = sunset_to_fajr_midnight("tehran", date(2026, 11, 28))
    assert datetime.fromisoformat(api["midnight"]).timestamp() - expected.timestamp() > 5 * 60
    assert api == json.loads(call("prayer-times", NOW_S, city="tehran", date="2026-11-28",
                                  midnight="maghribToFajr"))["days"][0]
