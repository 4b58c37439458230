"""The options members set on the place feeds (issue 20), and jamaat in the prayer feed.

Oracles, named in each test:
* the three parsers of tests/test_feeds.py: `icalendar` (PyPI), `ical` (PyPI, allenporter's
  stricter parser) and Mozilla's `ical.js` (npm, tests/peers/icaljs_parse.js, which also reports
  each event's VALARMs), plus our lint (tests/ics_lint.py);
* the JSON API of the same query (/v1/prayer-times: times and the `jamaat` fields) and its CSV:
  the three outputs must agree on every jamaat time;
* month starts from public tables, read here: Iran's official calendar
  (data/iran_hijri_month_starts.csv, Calendar Center) and the Sistani office's announcements
  (data/announced_month_starts.csv): Ramadan 1441 was 25 Apr – 23 May 2020 in Iran and
  25 Apr – 24 May 2020 by the office's sighting;
* RFC 5545 3.6.6 / 3.8.6.3 for VALARM (ACTION:DISPLAY needs a DESCRIPTION; TRIGGER relative
  to the start).
"""
from __future__ import annotations

import csv
import json
import re
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import icalendar
import pytest
from conftest import assert_bad_request, call, run_node_peer
from ical.calendar_stream import IcsCalendarStream
from ics_lint import lint

NOW = datetime(2026, 3, 12, 12, tzinfo=timezone.utc).timestamp()  # a window over Ramadan and Eid al-Fitr 1447
DATA = Path(__file__).resolve().parent.parent / "data"
LANGS = ("en", "ar", "fa", "ur")
FIVE = ("fajr", "dhuhr", "asr", "maghrib", "isha")
RULES = {"jamaat": "fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:15",
         "jamaatWeekly": "fri", "jumuah": "12:15,13:45", "eid": "06:00,07:30"}
ALL_TIMES = "imsak,fajr,sunrise,dhuhr,asr,maghrib,isha,midnight"
FEEDS = [
    ("prayer-times.ics", {"city": "london", "days": 21, **RULES, "ramadan": 1, "prayers": ALL_TIMES, "alarm": 10,
                          "duration": "fajr:20,maghrib:30,jumuah:45", "busy": 0}),
    ("prayer-times.ics", {"city": "tehran", "lang": "fa", "days": 14, "jamaat": "dhuhr:0,asr:dhuhr", "alarm": 0,
                          "ramadan": 1, "calendar": "iran", "name": "مسجد امام حسین (ع)"}),
    ("prayer-times.ics", {"city": "karbala", "lang": "ar", "days": 14, "eid": "06:30", "duration": 30,
                          "prayers": "fajr,maghrib"}),
    ("prayer-times.ics", {"lat": "43.65", "lng": "-79.38", "tz": "America/Toronto", "lang": "ur", "days": 14,
                          "jumuah": "13:30", "ramadan": 1, "prayers": "imsak,sunrise,midnight", "imsak": 15,
                          "midnight": "sunsetToFajr", "busy": 1, "alarm": 120}),
    ("night.ics", {"city": "london", "alarm": 30, "busy": 1}),
    # Issue 28's rules across the end of Ramadan 1447 and the UK's spring change: summer dhuhr and Jumu'ah, a
    # Ramadan isha of its own (folded into maghrib's event on other days), a typed-in day, a fajr held weekly
    # and moved back before sunrise, a second Jumu'ah after asr in winter (moved, with its line).
    ("prayer-times.ics", {"city": "birmingham", "method": "ImamAliFoundation", "lang": "ur", "days": 21,
                          "jamaat": "fajr:75,dhuhr:13:00,asr:dhuhr,maghrib:10,isha:maghrib", "jamaatDst": "dhuhr:13:30",
                          "jamaatRamadan": "isha:21:30", "jumuah": "12:30,15:30", "jumuahDst": "13:30,16:30",
                          "jamaatWeekly": "fajr:fri", "jamaatTable": "day,maghrib;2026-03-20,19:00", "alarm": 5}),
]


def _label(name, query):
    return name + "?" + "&".join(f"{k}={v}" for k, v in query.items())


@pytest.fixture(scope="module")
def rendered() -> dict[str, bytes]:
    return {_label(name, query): call(name, NOW, **query) for name, query in FEEDS}


def vevents(body: bytes) -> list[icalendar.Event]:
    return list(icalendar.Calendar.from_ical(body).walk("VEVENT"))


def _unix(value) -> int:
    return int(value.timestamp())


def _json_days(first: date, n_days: int, **query) -> dict[str, dict]:
    out, day = {}, first
    while day < first + timedelta(days=n_days):
        body = json.loads(call("prayer-times", NOW, year=day.year, month=day.month, **query))
        out.update({d["date"]: d for d in body["days"]})
        day = (day.replace(day=1) + timedelta(days=32)).replace(day=1)
    return out


def _key(event) -> tuple[str, str]:
    """(ISO date, event key) from a UID ``prayer-<place>-YYYYMMDD-<key>-<identity>@…``."""
    day, key = re.match(r"prayer-.+-(\d{8})-([a-z]+(?:-\d)?)-[0-9a-f]{10}@", str(event["UID"])).groups()
    return f"{day[:4]}-{day[4:6]}-{day[6:]}", key


# --- three parsers and the lint ------------------------------------------------------------------


def test_every_option_parses_in_three_parsers_and_passes_the_lint(rendered):
    """icalendar, ical and ical.js read every event, its length, TRANSP and VALARM alike; the lint is clean."""
    summaries = run_node_peer("icaljs_parse.js", "ical.js", [b.decode() for b in rendered.values()])
    for (label, body), js in zip(rendered.items(), summaries):
        assert lint(body) == [], label
        cal = icalendar.Calendar.from_ical(body)
        assert cal.errors == [] and cal.to_ical() == body, label
        events = list(cal.walk("VEVENT"))
        strict = IcsCalendarStream.calendar_from_ics(body.decode()).events
        assert js["errors"] == [] and len(events) == len(strict) == len(js["events"]) > 0, label
        alarm = re.search(r"alarm=(\d+)", label)
        for event, other, peer in zip(events, strict, js["events"]):
            start, end = _unix(event["DTSTART"].dt), _unix(event["DTEND"].dt)
            assert (str(event["UID"]), start, end) == (other.uid, _unix(other.dtstart), _unix(other.dtend))
            assert (str(event["UID"]), start, end, str(event["TRANSP"])) == (
                peer["uid"], peer["start"], peer["end"], peer["transp"])
            alarms = event.walk("VALARM")
            if alarm is None:
                assert alarms == [] and other.alarm == [] and peer["alarms"] == []
                continue
            minutes = int(alarm.group(1))
            (valarm,) = alarms
            assert str(valarm["ACTION"]) == "DISPLAY" and valarm["TRIGGER"].dt == timedelta(minutes=-minutes)
            assert str(valarm["DESCRIPTION"]) == str(event["SUMMARY"])  # RFC 5545: DISPLAY needs a DESCRIPTION
            (strict_alarm,) = other.alarm
            assert strict_alarm.trigger == timedelta(minutes=-minutes) and strict_alarm.description == other.summary
            assert peer["alarms"] == [{"action": "DISPLAY", "trigger": -60 * minutes, "description": peer["summary"]}]


# --- jamaat: the feed, the JSON and the CSV agree ----------------------------------------------


def test_json_csv_and_ics_agree_on_every_jamaat_time(rendered):
    """Each jamaat, Jumu'ah and Eid event starts at the JSON's instant for that day; the CSV says the same."""
    name, query = FEEDS[0]
    body = rendered[_label(name, query)]
    first = date(2026, 3, 12)
    json_query = {**RULES, "city": "london"}
    days = _json_days(first, 21, **json_query)
    rows = {}
    for month in (3, 4):
        text = call("prayer-times.csv", NOW, year=2026, month=month, **json_query).decode()
        rows.update({r["date"]: r for r in csv.DictReader(text.splitlines())})
    seen = {"jamaat": 0, "jumuah": 0, "eid": 0}
    for event in vevents(body):
        iso, key = _key(event)
        start = datetime.fromtimestamp(_unix(event["DTSTART"].dt), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        jamaat, row = days[iso]["jamaat"], rows[iso]
        if key in ("fajr", "dhuhr", "maghrib"):
            assert start == jamaat[key] == row[f"jamaat_{key}_utc"], (iso, key)
            seen["jamaat"] += 1
        elif key.startswith(("jumuah", "eid")):
            kind, slot = key.split("-")
            assert start == jamaat[kind][int(slot) - 1] == row[f"{kind}_utc"].split()[int(slot) - 1], (iso, key)
            seen[kind] += 1
        assert key not in ("asr", "isha")  # folded into dhuhr's and maghrib's events (one jamaat for both)
    assert seen == {"jamaat": 21 * 3 - 3 * 1, "jumuah": 3 * 2, "eid": 2}  # 3 Fridays in the window, 1 Eid day
    # Asr is the same instant as dhuhr (combined), and Fridays' dhuhr is the first Jumu'ah, in all three.
    for iso, day in days.items():
        if first.isoformat() <= iso < (first + timedelta(days=21)).isoformat():
            assert day["jamaat"]["asr"] == day["jamaat"]["dhuhr"] == rows[iso]["jamaat_asr_utc"]


def test_jamaat_minutes_after_the_adhan_is_the_spec_offsets_event():
    """`offsets` (SPEC 4.10) is the special case: jamaat=fajr:15,isha:0 gives the same events as
    offsets=fajr:15,isha:0 (title, start, length, description), under its own UIDs."""
    a = vevents(call("prayer-times.ics", NOW, city="london", days=10, offsets="fajr:15,isha:0"))
    b = vevents(call("prayer-times.ics", NOW, city="london", days=10, jamaat="fajr:15,isha:0"))
    strip = lambda e: e.to_ical().replace(str(e["UID"]).encode(), b"")  # noqa: E731
    assert [strip(e) for e in a] == [strip(e) for e in b] and len(a) == 50
    assert not {str(e["UID"]) for e in a} & {str(e["UID"]) for e in b}


# --- prayers, markers, duration, busy -----------------------------------------------------------


def test_prayers_markers_duration_and_busy(rendered):
    """Compare with /v1/prayer-times: imsak, sunrise and midnight events at the JSON's instants, free;
    event lengths from `duration` (others 15 min); busy=0 frees the prayers too."""
    name, query = FEEDS[0]
    days = _json_days(date(2026, 3, 12), 21, city="london")
    lengths = {"fajr": 20, "maghrib": 30, "jumuah": 45}
    keys = set()
    for event in vevents(rendered[_label(name, query)]):
        iso, key = _key(event)
        keys.add(key)
        start, end = _unix(event["DTSTART"].dt), _unix(event["DTEND"].dt)
        if key in ("imsak", "sunrise", "midnight"):
            assert start == _unix(datetime.fromisoformat(days[iso][key].replace("Z", "+00:00")))
        assert end - start == 60 * lengths.get(key.split("-")[0], 15), key
        assert str(event["TRANSP"]) == "TRANSPARENT"
    assert keys == {"imsak", "suhoor", "fajr", "sunrise", "dhuhr", "jumuah-1", "jumuah-2", "eid-1", "eid-2",
                    "maghrib", "iftar", "midnight"}
    karbala = vevents(rendered[_label(*FEEDS[2])])
    assert {_key(e)[1] for e in karbala} == {"fajr", "maghrib", "eid-1"}
    assert all(_unix(e["DTEND"].dt) - _unix(e["DTSTART"].dt) == 30 * 60 for e in karbala)
    assert {str(e["TRANSP"]) for e in karbala} == {"OPAQUE"}
    toronto = vevents(rendered[_label(*FEEDS[3])])  # busy=1: markers stay free, the Jumu'ah given is busy
    assert {_key(e)[1] for e in toronto} == {"imsak", "sunrise", "midnight", "suhoor", "iftar", "jumuah-1"}
    assert {_key(e)[1]: str(e["TRANSP"]) for e in toronto} == {
        **{k: "TRANSPARENT" for k in ("imsak", "sunrise", "midnight", "suhoor", "iftar")}, "jumuah-1": "OPAQUE"}
    night = vevents(rendered[_label(*FEEDS[4])])
    assert {str(e["TRANSP"]) for e in night} == {"OPAQUE"}


def test_imsak_and_midnight_options_move_their_events():
    """imsak=15 puts the imsak event 15 min before fajr; midnight=sunsetToFajr halves sunset → next fajr
    (the JSON of the same options says the same instants)."""
    query = {"lat": "43.65", "lng": "-79.38", "tz": "America/Toronto", "imsak": 15, "midnight": "sunsetToFajr"}
    body = call("prayer-times.ics", NOW, days=7, prayers="imsak,fajr,midnight", **query)
    days = _json_days(date(2026, 3, 12), 7, **query)
    for event in vevents(body):
        iso, key = _key(event)
        expected = datetime.fromisoformat(days[iso][key].replace("Z", "+00:00"))
        assert _unix(event["DTSTART"].dt) == _unix(expected)
        if key == "imsak":
            fajr = datetime.fromisoformat(days[iso]["fajr"].replace("Z", "+00:00"))
            assert fajr - expected == timedelta(minutes=15)


# --- Ramadan -------------------------------------------------------------------------------------


def _ramadan_days(calendar: str, hy: int) -> list[date]:
    if calendar == "iran":
        with (DATA / "iran_hijri_month_starts.csv").open() as f:
            starts = {(int(r["hy"]), int(r["hm"])): r["gregorian_start"] for r in csv.DictReader(f)}
    else:
        with (DATA / "announced_month_starts.csv").open() as f:
            starts = {(int(r["hy"]), int(r["hm"])): r["gregorian_start"] for r in csv.DictReader(f)
                      if r["authority_id"] == "sistani"}
    first, end = date.fromisoformat(starts[hy, 9]), date.fromisoformat(starts[hy, 10])
    return [first + timedelta(days=k) for k in range((end - first).days)]


@pytest.mark.parametrize("calendar", ("moonsighting", "iran"))
def test_ramadan_events_fall_on_the_reckonings_days_at_imsak_and_maghrib(calendar):
    """Ramadan 1441 (2020): a suhoor-ends event at imsak and an iftar at maghrib on each day the public table
    of the reckoning counts (29 days in Iran, 30 by the Sistani office), the JSON's instants."""
    now = datetime(2020, 4, 20, 12, tzinfo=timezone.utc).timestamp()
    body = call("prayer-times.ics", now, city="tehran", days=40, ramadan=1, calendar=calendar)
    expected_days = _ramadan_days(calendar, 1441)
    assert len(expected_days) == {"iran": 29, "moonsighting": 30}[calendar]
    days = {}
    for month in (4, 5):
        days.update({d["date"]: d for d in json.loads(call("prayer-times", now, city="tehran", year=2020,
                                                            month=month))["days"]})
    found = {"suhoor": [], "iftar": []}
    for event in vevents(body):
        iso, key = _key(event)
        if key in found:
            found[key].append(date.fromisoformat(iso))
            time_name = {"suhoor": "imsak", "iftar": "maghrib"}[key]
            assert _unix(event["DTSTART"].dt) == _unix(datetime.fromisoformat(days[iso][time_name].replace("Z", "+00:00")))
            assert str(event["TRANSP"]) == "TRANSPARENT"
    assert found == {"suhoor": expected_days, "iftar": expected_days}


RAMADAN_TITLES = {  # en, and ar, fa, ur as reviewed (the imsak title and the fa Jumu'ah one: review of 2026-11-26;
    # the fa and ur imsak titles and the ur Jumu'ah one: its second pass)
    "en": ("Imsak (a precaution before dawn)", "Iftar", "Jumu'ah", "Eid al-Fitr prayer", "Dhuhr and Asr jamaat",
           "Jumu'ah and Asr jamaat"),
    "ar": ("الإمساك (احتياطاً قبل الفجر)", "الإفطار", "صلاة الجمعة", "صلاة عيد الفطر", "إقامة صلاتي الظهر والعصر",
           "إقامة صلاتي الجمعة والعصر"),
    "fa": ("امساک (احتیاط پیش از اذان صبح)", "افطار", "نماز جمعه", "نماز عید فطر", "نماز جماعت ظهر و عصر",
           "نماز جمعه و عصر"),
    "ur": ("امساک (صبحِ صادق سے پہلے احتیاطی وقت)", "افطار", "نمازِ جمعہ", "نمازِ عید الفطر", "ظہر اور عصر کی جماعت",
           "نمازِ جمعہ و عصر"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_titles_are_in_the_feeds_language(lang):
    """Suhoor, iftar, Jumu'ah (the first with asr folded in), Eid and a combined jamaat, per language."""
    body = call("prayer-times.ics", NOW, city="london", days=14, lang=lang, ramadan=1, jumuah="13:00,13:30",
                eid="08:00", jamaat="dhuhr:13:30,asr:dhuhr")
    titles = {_key(e)[1]: str(e["SUMMARY"]) for e in vevents(body)}
    assert (titles["suhoor"], titles["iftar"], titles["jumuah-2"], titles["eid-1"], titles["dhuhr"],
            titles["jumuah-1"]) == RAMADAN_TITLES[lang]


# --- UIDs ----------------------------------------------------------------------------------------


def test_uids_stay_the_same_from_one_day_to_the_next_with_every_option():
    """Per place, day and event: tomorrow's feed repeats today's events (but the first day) byte for byte."""
    name, query = FEEDS[0]
    query = {**query, "jamaatWeekly": "fri"}
    today = call(name, NOW, **query)
    tomorrow = call(name, NOW + 86400, **query)
    blocks = lambda body: set(re.findall(rb"BEGIN:VEVENT\r\n.*?END:VEVENT\r\n", body, re.S))  # noqa: E731
    first_day = {b for b in blocks(today) if b"-20260312-" in b}
    last_day = {b for b in blocks(tomorrow) if b"-20260402-" in b}
    assert blocks(today) - first_day == blocks(tomorrow) - last_day
    assert len(first_day) > 5
    plain = call(name, NOW, city="london", days=21)
    uids = lambda body: set(re.findall(rb"UID:([^\r]+)", body))  # noqa: E731
    assert not uids(today) & uids(plain)  # another subscription of the same place: its own UIDs


# --- 400s ----------------------------------------------------------------------------------------

BAD = [
    ("prayer-times.ics", {"offsets": "fajr:10", "jamaat": "fajr:20"}, "jamaat"),
    ("prayer-times.ics", {"jamaat": "fajr:5:00:00"}, "jamaat"),
    ("prayer-times.ics", {"jumuah": "13:00,13:30,14:00,14:30"}, "jumuah"),
    ("prayer-times.ics", {"alarm": "121"}, "alarm"),
    ("prayer-times.ics", {"alarm": "-1"}, "alarm"),
    ("prayer-times.ics", {"alarm": "١٠"}, "alarm"),
    ("prayer-times.ics", {"duration": "0"}, "duration"),
    ("prayer-times.ics", {"duration": "121"}, "duration"),
    ("prayer-times.ics", {"duration": "fajr:20,20"}, "duration"),
    ("prayer-times.ics", {"duration": "tahajjud:20"}, "duration"),
    ("prayer-times.ics", {"duration": "fajr:20,,isha:10"}, "duration"),
    ("prayer-times.ics", {"duration": "99999999999"}, "duration"),
    ("prayer-times.ics", {"busy": "2"}, "busy"),
    ("prayer-times.ics", {"busy": "yes"}, "busy"),
    ("prayer-times.ics", {"prayers": "fajr,sunset"}, "prayers"),
    ("prayer-times.ics", {"prayers": "fajr,fajr"}, "prayers"),
    ("prayer-times.ics", {"prayers": ""}, "prayers"),
    ("prayer-times.ics", {"prayers": "fajr,,isha"}, "prayers"),
    ("prayer-times.ics", {"prayers": "فجر"}, "prayers"),
    ("prayer-times.ics", {"ramadan": "2"}, "ramadan"),
    ("prayer-times.ics", {"calendar": "iran"}, "calendar"),  # neither eid nor ramadan
    ("prayer-times.ics", {"midnight": "sunsetToFajr"}, "midnight"),  # no midnight event
    ("prayer-times.ics", {"imsak": "15"}, "imsak"),
    ("prayer-times.ics", {"tune": "sunrise:2"}, "tune"),  # sunrise not shown
    ("night.ics", {"duration": "20"}, "duration"),  # the night's event spans the last third
    ("night.ics", {"prayers": "fajr"}, "prayers"),
    ("night.ics", {"jamaat": "fajr:20"}, "jamaat"),
    ("night.ics", {"alarm": "200"}, "alarm"),
]


@pytest.mark.parametrize("name, query, parameter", BAD)
def test_bad_options_give_a_400_naming_the_parameter(client, name, query, parameter):
    assert_bad_request(client.get(f"/v1/{name}", params={"city": "london", **query}), parameter)


def test_options_at_their_defaults_keep_the_feed_and_its_key():
    """busy=1, prayers=the five, ramadan=0 and an empty jamaat are today's feed: same canonical key, same bytes."""
    from generator.api import BY_NAME
    from generator.query import Query

    parse = BY_NAME["prayer-times.ics"].parse
    plain = parse(Query.of({"city": "london"}), NOW)
    spelt = parse(Query.of({"city": "london", "busy": "1", "prayers": "isha,maghrib,asr,dhuhr,fajr", "ramadan": "0",
                            "jamaat": ""}), NOW)
    assert plain == spelt
    night = BY_NAME["night.ics"].parse
    assert night(Query.of({"city": "london", "busy": "0"}), NOW) == night(Query.of({"city": "london"}), NOW)
