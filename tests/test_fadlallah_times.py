"""The office of Sayyid Muhammad Husayn Fadlallah's times (issue 37): the preset ``Fadlallah`` is the office's
stated rule, for Lebanon's cities and the months it publishes.

The rule, as the office states it in the notes of its calculator (Bayynat "Daily Prayer", bayynat.org.lb; cited in
data/methods.json and data/SOURCES-TIMETABLES.md): dawn when the Sun is 18° below the eastern horizon, isha 18°
below the western, sunset the disappearance of the disc (the printed maghrib), imsak ten minutes before dawn,
midnight the middle of sunset and dawn.  It states no asr: shadow factor 1.  No printed table's cells could be read
from this machine, so the reference is the stated rule computed here independently of the service:
astronomy-engine (PyPI ``astronomy-engine``) finds the Sun's rising and setting (upper limb, standard refraction),
its transit, the instants it passes 18° below the horizon, and the asr altitude (cot h = 1 + tan|φ − δ|, δ at
transit).  Tolerance: the printed minute ±1 (60 s), as for the printed tables of issue 19.
"""
from __future__ import annotations

import math
import re
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import astronomy
import pytest

STATED_DAWN_DEG = 18.0  # the office's dawn and isha (its calculator's notes)
STATED_IMSAK_MIN = 10  # "ten minutes before dawn"
TOLERANCE_S = 60
ZONE = ZoneInfo("Asia/Beirut")
# city: (lat, lng) as data/cities.csv places them; Beirut, the south (Tyre, Bint Jbeil), the Bekaa (Baalbek)
CITIES = {"beirut": (33.8938, 35.5018), "tyre": (33.2705, 35.2038), "bint-jbeil": (33.1194, 35.4339),
          "baalbek": (34.0063, 36.2042)}
# the 15th of each month of 2026: both sides of Lebanon's daylight saving (29 March, 25 October)
DAYS = [date(2026, month, 15) for month in range(1, 13)]


def _unix(t: astronomy.Time) -> float:
    return t.ut * 86400.0 + 946728000.0  # astronomy-engine counts UT days from J2000 (2000-01-01 12:00 UT)


def _time(unix_s: float) -> astronomy.Time:
    return astronomy.Time((unix_s - 946728000.0) / 86400.0)


def stated_rule(lat: float, lng: float, day: date) -> dict[str, float]:
    """The office's stated times of ``day`` (unix seconds), from astronomy-engine alone."""
    observer = astronomy.Observer(lat, lng, 0.0)
    start = _time(datetime(day.year, day.month, day.day, tzinfo=timezone.utc).timestamp() - lng / 15 * 3600)
    sun = astronomy.Body.Sun
    transit = astronomy.SearchHourAngle(sun, observer, 0.0, start, +1).time
    declination = astronomy.Equator(sun, transit, observer, True, True).dec
    asr_altitude = math.degrees(math.atan(1.0 / (1.0 + math.tan(math.radians(abs(lat - declination))))))
    fajr = astronomy.SearchAltitude(sun, observer, astronomy.Direction.Rise, start, 1.0, -STATED_DAWN_DEG)
    sunset = astronomy.SearchRiseSet(sun, observer, astronomy.Direction.Set, transit, 1.0)
    next_fajr = astronomy.SearchAltitude(sun, observer, astronomy.Direction.Rise, sunset, 1.0, -STATED_DAWN_DEG)
    return {
        "imsak": _unix(fajr) - STATED_IMSAK_MIN * 60,
        "fajr": _unix(fajr),
        "sunrise": _unix(astronomy.SearchRiseSet(sun, observer, astronomy.Direction.Rise, start, 1.0)),
        "dhuhr": _unix(transit),
        "asr": _unix(astronomy.SearchAltitude(sun, observer, astronomy.Direction.Set, transit, 1.0, asr_altitude)),
        "maghrib": _unix(sunset),
        "isha": _unix(astronomy.SearchAltitude(sun, observer, astronomy.Direction.Set, transit, 1.0,
                                               -STATED_DAWN_DEG)),
        "midnight": (_unix(sunset) + _unix(next_fajr)) / 2,
    }


@pytest.mark.parametrize("city", sorted(CITIES))
def test_every_time_is_the_offices_stated_rule(client, city):
    """Imsak, fajr, sunrise, dhuhr, asr, maghrib, isha and midnight of 12 days of 2026, each within 1 minute of the
    office's rule (8 × 12 = 96 times per city); the local clock follows Lebanon's daylight saving."""
    answer = client.get(f"/v1/prayer-times?city={city}&method=Fadlallah&year=2026")
    assert answer.status_code == 200, answer.text  # before this preset: 400, method
    by_date = {d["date"]: d for d in answer.json()["days"]}
    for day in DAYS:
        served = by_date[day.isoformat()]
        for prayer, expected in stated_rule(*CITIES[city], day).items():
            instant = datetime.fromisoformat(served[prayer].replace("Z", "+00:00"))
            assert abs(instant.timestamp() - expected) <= TOLERANCE_S, (city, day, prayer, served[prayer])
            assert served["local"][prayer] == instant.astimezone(ZONE).strftime("%H:%M")
        assert served["maghrib"] == served["sunset"]  # the office prints maghrib at sunset


def test_the_preset_names_its_rules_and_source(client):
    """/v1/methods lists it as an extension (not part of method=all), with each stated rule and its source."""
    methods = {m["id"]: m for m in client.get("/v1/methods").json()["methods"]}
    preset = methods["Fadlallah"]
    assert preset["extension"] is True and preset["default"] is False
    for said in ("18°", "sunset", "imsak 10 minutes before fajr", "half-way from sunset to fajr", "shadow factor 1"):
        assert said in preset["description"], said
    assert "bayynat.org.lb" in preset["source"]
    every = client.get("/v1/prayer-times?city=beirut&date=2026-03-20&method=all").json()["results"]
    assert len(every) == 16 and "Fadlallah" not in [r["method"] for r in every]  # the SPEC's sixteen only


def test_lebanons_api_default_is_unchanged(client):
    """A Beirut request naming no method keeps the SPEC's default (Tehran): 17.7° dawn, not the office's 18°."""
    default = client.get("/v1/prayer-times?city=beirut&date=2026-03-20").json()["days"][0]
    tehran = client.get("/v1/prayer-times?city=beirut&date=2026-03-20&method=Tehran").json()["days"][0]
    fadlallah = client.get("/v1/prayer-times?city=beirut&date=2026-03-20&method=Fadlallah").json()["days"][0]
    assert default == tehran
    assert fadlallah["fajr"] < tehran["fajr"]  # 18° comes before 17.7°
    assert datetime.fromisoformat(tehran["maghrib"][:-1]) - datetime.fromisoformat(fadlallah["maghrib"][:-1]) \
        > timedelta(minutes=10)  # Tehran's 4.5° maghrib against the office's sunset


def test_beiruts_page_offers_the_offices_days_with_its_times(client):
    """Beirut's page keeps the Higher Islamic Shia Council's day (moonsighting) and Tehran's times by default, and
    offers the Fadlallah office's reckoning with the office's own times: its imsakiya and wall screen carry
    method=Fadlallah, and every imsak, fajr, sunrise, dhuhr, maghrib and midnight the imsakiya prints (Ramadan 1448,
    29 or 30 rows) is the office's rule within 1 minute."""
    page = client.get("/city/beirut/en/").text
    block = re.search(r'<ul class="reckoning-choice">(.*?)</ul>', page, re.S).group(1)
    council, office = re.findall(r"<li>(.*?)</li>", block, re.S)
    assert "Fadlallah" not in council and "prayer times" not in council
    assert "(<bdi>with its own prayer times</bdi>)" in office  # the glossary's page.reckoning_choice_times
    links = [href.replace("&amp;", "&") for href in re.findall(r'href="([^"]+)"', office)]
    assert "/city/beirut/en/imsakiya/lebanon/Fadlallah/" in links
    assert "/screen/?city=beirut&calendar=lebanon&lang=en&method=Fadlallah" in links
    html = client.get("/city/beirut/en/imsakiya/lebanon/Fadlallah/").text
    rows = re.findall(r'<tr[^>]*data-date="(\d{4}-\d\d-\d\d)"[^>]*>(.*?)</tr>', html, re.S)
    assert len(rows) in (29, 30)
    for iso, row in rows:
        day = date.fromisoformat(iso)
        expected = stated_rule(*CITIES["beirut"], day)
        cells = re.findall(r'<td data-time="(\w+)">(\d\d:\d\d)</td>', row)
        assert [prayer for prayer, _ in cells] == ["imsak", "fajr", "sunrise", "dhuhr", "maghrib", "midnight"]
        for prayer, printed in cells:
            hours, minutes = map(int, printed.split(":"))
            on = day + timedelta(days=1) if prayer == "midnight" and hours < 12 else day
            shown = datetime(on.year, on.month, on.day, hours, minutes, tzinfo=ZONE).timestamp()
            assert abs(shown - expected[prayer]) <= TOLERANCE_S, (iso, prayer, printed)


def test_a_presets_reckoning_is_a_served_one():
    """`Method.reckoning` names a reckoning generator.calendars.hijri serves (the link a page builds must answer)."""
    from generator.calendars import hijri
    from generator.prayer.methods import METHODS

    named = {m.id: m.reckoning for m in METHODS.values() if m.reckoning}
    assert named == {"Fadlallah": "lebanon"} and set(named.values()) <= set(hijri.CALENDARS)
