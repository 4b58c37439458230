"""The Aladhan-compatible door (/compat/aladhan/v1/, generator/api/compat_aladhan.py, issue 35).

References:
* the shapes: Aladhan's published OpenAPI description (islamic-network/api.aladhan.com,
  api/Controllers/v1/Documentation/PrayerTimes.php: ``200TimesResponse``, the methods map, the 400
  responses), written out below as the keys and types each object must carry;
* the requests: tests/fixtures/aladhan_requests.json, URLs from that documentation and from a client
  library's tests (HETHAT/aladhan.py), each with its source;
* the values: the native endpoints over the same app (the door must be the same computation in
  another shape), and, where a value is a conversion, an independent one written here (zoneinfo for
  ISO 8601 offsets and zone abbreviations, Aladhan's documented method parameters).
"""
from __future__ import annotations

import json
import re
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

DOOR = "/compat/aladhan/v1/"
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "aladhan_requests.json").read_text(encoding="utf-8"))
HHMM = re.compile(r"\d{2}:\d{2}")
ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}")
DMY = re.compile(r"\d{2}-\d{2}-\d{4}")
TIMING_KEYS = ("Fajr", "Sunrise", "Dhuhr", "Asr", "Sunset", "Maghrib", "Isha", "Imsak", "Midnight")
# Aladhan's 200TimesResponse, key by key (type, or a nested shape).
HIJRI_SHAPE = {"date": str, "format": str, "day": str, "weekday": {"en": str, "ar": str},
               "month": {"number": int, "en": str, "ar": str, "days": int}, "year": str,
               "designation": {"abbreviated": str, "expanded": str}, "holidays": list, "adjustedHolidays": list,
               "method": str}
GREGORIAN_SHAPE = {"date": str, "format": str, "day": str, "weekday": {"en": str}, "month": {"number": int, "en": str},
                   "year": str, "designation": {"abbreviated": str, "expanded": str}, "lunarSighting": bool}
META_SHAPE = {"latitude": (int, float), "longitude": (int, float), "timezone": str,
              "method": {"id": int, "name": str, "params": dict}, "latitudeAdjustmentMethod": str,
              "midnightMode": str, "school": str, "offset": {k: int for k in TIMING_KEYS}}
DAY_SHAPE = {"timings": dict, "date": {"readable": str, "timestamp": str, "hijri": HIJRI_SHAPE,
                                        "gregorian": GREGORIAN_SHAPE}, "meta": META_SHAPE}


def conforms(value, shape, where="data") -> None:
    """Assert ``value`` has every key of ``shape`` with its type (extra keys allowed: extensions)."""
    if isinstance(shape, dict):
        assert isinstance(value, dict), f"{where}: not an object"
        for key, sub in shape.items():
            assert key in value, f"{where}.{key}: missing"
            conforms(value[key], sub, f"{where}.{key}")
    else:
        assert isinstance(value, shape) and not (shape is int and isinstance(value, bool)), \
            f"{where}: {value!r} is not {shape}"


def door(client, url: str):
    return client.get(DOOR + url)


def check_day(day: dict, iso8601: bool) -> None:
    conforms(day, DAY_SHAPE)
    for key in TIMING_KEYS:
        value = day["timings"][key]
        assert (ISO.fullmatch(value) if iso8601 else HHMM.match(value)), f"{key}: {value!r}"
    assert DMY.fullmatch(day["date"]["gregorian"]["date"]) and DMY.fullmatch(day["date"]["hijri"]["date"])
    assert day["date"]["gregorian"]["format"] == day["date"]["hijri"]["format"] == "DD-MM-YYYY"


@pytest.mark.parametrize("request_", FIXTURE["requests"], ids=[r["url"][:60] for r in FIXTURE["requests"]])
def test_recorded_aladhan_requests_answer_in_aladhan_shape(client, request_):
    """Every recorded Aladhan URL answers 200 in Aladhan's envelope, with the documented keys and types."""
    response = door(client, request_["url"])
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["code"] == 200 and body["status"] == "OK"
    data, iso8601 = body["data"], "iso8601=true" in request_["url"]
    if request_["kind"] == "timings":
        check_day(data, iso8601)
    elif request_["kind"] == "calendar":
        assert isinstance(data, list) and 28 <= len(data) <= 31
        for day in data:
            check_day(day, iso8601)
    elif request_["kind"] == "annual":
        assert sorted(data, key=int) == [str(m) for m in range(1, 13)]
        assert sum(len(days) for days in data.values()) == 365
        check_day(data["6"][14], iso8601)
    elif request_["kind"] == "convert":
        conforms(data, {"hijri": HIJRI_SHAPE, "gregorian": GREGORIAN_SHAPE})
    else:
        for entry in data.values():
            conforms(entry, {"id": int})


def test_timings_are_the_native_answer(client):
    """method=0 with midnightMode=1 is the native Jafari with midnight=sunsetToFajr, minute for minute; the
    Hijri date is the native /v1/hijri's, its holidays the native day-status's events (another endpoint)."""
    url = "timings/09-02-2027?latitude=32.0&longitude=44.33&method=0&midnightMode=1&timezonestring=Asia/Baghdad"
    data = door(client, url).json()["data"]
    native = client.get("/v1/prayer-times?lat=32.0&lng=44.33&tz=Asia/Baghdad&date=2027-02-09&method=Jafari"
                        "&midnight=sunsetToFajr").json()["days"][0]
    assert {key: data["timings"][key] for key in TIMING_KEYS} == {key: native["local"][key.lower()] for key in TIMING_KEYS}
    hijri = client.get("/v1/hijri?date=2027-02-09").json()
    assert data["date"]["hijri"]["date"] == f"{hijri['hijri']['day']:02d}-{hijri['hijri']['month']:02d}-{hijri['hijri']['year']}"
    assert data["date"]["hijri"]["month"]["days"] == hijri["monthLength"]
    status = client.get("/v1/day-status?date=2027-02-09").json()
    assert data["date"]["hijri"]["holidays"] == [event["title"]["en"] for event in status["events"]]
    assert data["date"]["hijri"]["holidays"], "1 Ramadan 1448 under moonsighting carries an event"
    assert data["meta"]["method"] == {"id": 0, "name": "Shia Ithna-Ashari, Leva Institute, Qum",
                                      "params": {"Fajr": 16, "Maghrib": 4, "Isha": 14}}
    assert (data["meta"]["midnightMode"], data["meta"]["school"], data["meta"]["timezone"]) == ("JAFARI", "STANDARD",
                                                                                                "Asia/Baghdad")
    # Aladhan's default midnightMode is 0: midnight halfway from sunset to sunrise, as the native option says.
    plain = door(client, url.replace("&midnightMode=1", "")).json()["data"]
    sunset_to_sunrise = client.get("/v1/prayer-times?lat=32.0&lng=44.33&tz=Asia/Baghdad&date=2027-02-09&method=Jafari"
                                   "&midnight=sunsetToSunrise").json()["days"][0]
    assert plain["timings"]["Midnight"] == sunset_to_sunrise["local"]["midnight"] != data["timings"]["Midnight"]


def test_options_map_to_the_native_ones(client):
    """Aladhan's positional tune, school=1, latitudeAdjustmentMethod=1 and adjustment=-1 are the native
    tune, asr=hanafi, highLatitudeRule=middleOfNight and offset=-1."""
    url = ("timings/21-06-2026?latitude=51.51&longitude=-0.13&method=7&school=1&latitudeAdjustmentMethod=1"
           "&tune=0,2,0,0,0,0,0,-1,0&adjustment=-1")
    data = door(client, url).json()["data"]
    native = client.get("/v1/prayer-times?lat=51.51&lng=-0.13&tz=Europe/London&date=2026-06-21&method=Tehran&asr=hanafi"
                        "&highLatitudeRule=middleOfNight&tune=fajr:2,isha:-1&midnight=sunsetToSunrise").json()["days"][0]
    assert {key: data["timings"][key] for key in TIMING_KEYS} == {key: native["local"][key.lower()] for key in TIMING_KEYS}
    assert data["meta"]["offset"]["Fajr"] == 2 and data["meta"]["offset"]["Isha"] == -1
    assert (data["meta"]["school"], data["meta"]["latitudeAdjustmentMethod"]) == ("HANAFI", "MIDDLE_OF_THE_NIGHT")
    shifted = client.get("/v1/hijri?date=2026-06-21&offset=-1").json()["hijri"]
    assert data["date"]["hijri"]["day"] == str(shifted["day"]) and data["date"]["hijri"]["month"]["number"] == shifted["month"]


def test_iso8601_and_calendar_times_carry_the_zone(client):
    """iso8601=true is the native UTC instant written with the zone's offset; a calendar's HH:mm carries the
    zone's abbreviation, both computed here with zoneinfo (Europe/London: GMT in January, BST in June)."""
    native = client.get("/v1/prayer-times?lat=51.51&lng=-0.13&tz=Europe/London&year=2026&month=6&method=Tehran"
                        "&midnight=sunsetToSunrise").json()["days"]
    iso = door(client, "calendar/2026/6?latitude=51.51&longitude=-0.13&method=7&iso8601=true").json()["data"]
    plain = door(client, "calendar/2026/6?latitude=51.51&longitude=-0.13&method=7").json()["data"]
    london = ZoneInfo("Europe/London")
    for ours, hhmm, theirs in zip(iso, plain, native):
        for key in TIMING_KEYS:
            instant = datetime.fromisoformat(theirs[key.lower()].replace("Z", "+00:00"))
            assert datetime.fromisoformat(ours["timings"][key]) == instant
            assert ours["timings"][key].endswith("+01:00")
            assert hhmm["timings"][key] == f"{theirs['local'][key.lower()]} ({instant.astimezone(london).tzname()})"
    assert plain[0]["timings"]["Fajr"].endswith("(BST)")


def test_a_unix_timestamp_in_the_path_is_that_day_in_the_zone(client):
    """Aladhan's /timings/{timestamp}: 1795838400 is 2026-11-28T00:00Z, already the 28th in Tehran (03:30)."""
    by_stamp = door(client, "timings/1795838400?latitude=35.69&longitude=51.39&method=7").json()["data"]
    by_date = door(client, "timings/28-11-2026?latitude=35.69&longitude=51.39&method=7").json()["data"]
    assert by_stamp["timings"] == by_date["timings"] and by_stamp["date"]["gregorian"]["date"] == "28-11-2026"


def test_methods_carry_aladhans_documented_parameters(client):
    """/methods: Aladhan's documented params (Documentation/PrayerTimes.php: JAFARI 16/14 with maghrib 4, TEHRAN
    17.7/14 with maghrib 4.5, MAKKAH 18.5 and '90 min', MWL 18/17, ISNA 15/15, QATAR 18 and '90 min')."""
    data = door(client, "methods").json()["data"]
    assert data["JAFARI"]["params"] == {"Fajr": 16, "Maghrib": 4, "Isha": 14} and data["JAFARI"]["id"] == 0
    assert data["TEHRAN"]["params"] == {"Fajr": 17.7, "Maghrib": 4.5, "Isha": 14} and data["TEHRAN"]["id"] == 7
    assert data["MAKKAH"]["params"] == {"Fajr": 18.5, "Isha": "90 min"}
    assert data["MWL"]["params"] == {"Fajr": 18, "Isha": 17} and data["ISNA"]["params"] == {"Fajr": 15, "Isha": 15}
    assert data["QATAR"]["params"] == {"Fajr": 18, "Isha": "90 min"} and data["CUSTOM"] == {"id": 99}


def test_custom_method_settings(client):
    """method=99&methodSettings=18.5,null,90 min is the native custom method (fajrAngle 18.5, ishaInterval 90)."""
    data = door(client, "timings/01-03-2026?latitude=21.42&longitude=39.83&method=99&methodSettings=18.5,null,90%20min"
                        "&timezonestring=Asia/Riyadh").json()["data"]
    native = client.get("/v1/prayer-times?lat=21.42&lng=39.83&tz=Asia/Riyadh&date=2026-03-01&method=custom&fajrAngle=18.5"
                        "&ishaInterval=90&midnight=sunsetToSunrise").json()["days"][0]
    assert data["timings"]["Fajr"] == native["local"]["fajr"] and data["timings"]["Isha"] == native["local"]["isha"]
    assert data["meta"]["method"] == {"id": 99, "name": "Custom", "params": {"Fajr": 18.5, "Isha": "90 min"}}


def test_hijri_conversions_follow_the_chosen_reckoning(client):
    """gToH and hToG under calendarMethod=iran are the native /v1/hijri answers; Aladhan's own calendar names
    (HJCoSA) fall back to the default reckoning."""
    forward = door(client, "gToH/25-06-2026?calendarMethod=iran").json()["data"]
    native = client.get("/v1/hijri?date=2026-06-25&calendar=iran").json()
    assert forward["hijri"]["date"] == f"{native['hijri']['day']:02d}-{native['hijri']['month']:02d}-{native['hijri']['year']}"
    assert forward["hijri"]["method"] == "iran"
    back = door(client, f"hToG/{forward['hijri']['date']}?calendarMethod=iran").json()["data"]
    assert back["gregorian"]["date"] == "25-06-2026"
    assert "Ashura: Martyrdom of Imam Husayn (a)" in door(client, "hToG/10-01-1448").json()["data"]["hijri"]["holidays"]
    assert door(client, "gToH/25-06-2026?calendarMethod=HJCoSA").json()["data"]["hijri"]["method"] == "moonsighting"


def test_hijri_calendar_is_the_native_month(client):
    """hijriCalendar/1448/9: one day per day of the native reverse month map, in order, each with its times."""
    month = client.get("/v1/hijri?hy=1448&hm=9").json()
    data = door(client, "hijriCalendar/1448/9?latitude=32.0&longitude=44.33&method=0").json()["data"]
    assert len(data) == month["monthLength"]
    assert [d["date"]["gregorian"]["date"] for d in data] == [
        date.fromisoformat(month["days"][str(k)]).strftime("%d-%m-%Y") for k in range(1, month["monthLength"] + 1)]
    assert [d["date"]["hijri"]["day"] for d in data] == [str(k) for k in range(1, month["monthLength"] + 1)]


def test_annual_with_a_month_in_the_path_is_the_whole_year(client):
    """calendar/2026/11?annual=true: Aladhan's annual ignores the month, so the answer is all of 2026 (365 days in
    12 months), each day's Hijri date the native /v1/hijri's.  Was a 500 (KeyError '2026-01-01': the Hijri plan
    began at the path's month while the times covered the year), found by bench/sweep_new_surfaces.py."""
    response = door(client, "calendar/2026/11?latitude=43.6532&longitude=-79.3832&method=2&calendarMethod=cssna-east"
                            "&annual=true")
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert sorted(data, key=int) == [str(m) for m in range(1, 13)]
    assert sum(len(days) for days in data.values()) == 365
    hijri = client.get("/v1/hijri?date=2026-01-01&calendar=cssna-east").json()["hijri"]
    assert data["1"][0]["date"]["gregorian"]["date"] == "01-01-2026"
    assert data["1"][0]["date"]["hijri"]["date"] == f"{hijri['day']:02d}-{hijri['month']:02d}-{hijri['year']}"


@pytest.mark.parametrize("url, status, parameter", [
    ("timings/01-01-2025?latitude=51.5&longitude=-0.13&method=8", 400, "method"),  # Gulf: no preset here
    ("timings/01-01-2025?longitude=-0.13", 400, "latitude"),
    ("timings/01-01-2025?latitude=91&longitude=0", 400, "latitude"),
    ("timings/31-02-2025?latitude=51.5&longitude=0", 400, "date"),
    ("timings/01-01-2025?latitude=51.5&longitude=0&tune=1,x", 400, "tune"),
    ("timings/01-01-2025?latitude=51.5&longitude=0&timezonestring=Mars/Base", 400, "timezonestring"),
    ("timings/01-01-2025?latitude=51.5&longitude=0&shafaq=ahmer", 400, "shafaq"),
    ("timings/01-01-2025?latitude=51.5&longitude=0&lat=1", 400, "lat"),  # not Aladhan's, not ours: refused
    ("timingsByCity/01-01-2025?city=Atlantis&country=GB", 400, "city"),
    ("calendar/2025/13?latitude=51.5&longitude=0", 400, "month"),
    ("hToG/30-09-1448", 400, "date"),
    ("hToG/01-01-1317", 400, "date"),  # 1 Muharram 1317 is in 1899: was a 500  # Ramadan 1448 has 29 days under moonsighting
    ("timingsByAddress/01-01-2025?address=London", 404, None),
    ("", 404, None),
])
def test_errors_in_aladhans_shape(client, url, status, parameter):
    """Bad input: Aladhan's error shape, the parameter named first in the message, never a 500."""
    response = door(client, url)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == status and body["status"] == {400: "BAD_REQUEST", 404: "NOT_FOUND"}[status]
    assert isinstance(body["data"], str)
    if parameter:
        assert body["data"].startswith(parameter + ":"), body["data"]
