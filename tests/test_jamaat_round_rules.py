"""Issue 36: each jamaat rule (the normal, the summer and the Ramadan rule of a prayer) carries its own rounding.

The mosque trial of 28 November 2026 (shared/reference/mosque_trial_2026-11-28/REPORT.md, Task 1, "Is the preview
right?"): the Leicester committee prays fajr 10 minutes after the adhan rounded up to 5, and in Ramadan 15 minutes
after, *not* rounded.  On Friday 20 February 2026 (2 Ramadan) the Sistani office's printed Leicester fajr is 05:56,
so the Ramadan jamaat is 06:11; the service gave 06:15, the normal rule's rounding applied to the Ramadan rule.
``jamaatRoundRamadan`` (and ``jamaatRoundDst``) give that rule its own rounding; without them every answer is the
one before (the trial's 06:15 stays the default).

Expected values are worked by hand in each test from the printed adhan (REPORT's table) or from the adhan of the
same answer, with the rounding written here (ceil to a multiple of the step on the local clock).
"""
from __future__ import annotations

import csv
import io
import json
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import icalendar
import pytest
from conftest import assert_bad_request, call

LONDON = ZoneInfo("Europe/London")
NOW = datetime(2026, 2, 1, 12, tzinfo=timezone.utc).timestamp()
LEICESTER = {"city": "leicester", "method": "ImamAliFoundation",
             "jamaat": "fajr:10,dhuhr:13:15,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:5",
             "jamaatRamadan": "fajr:15"}


def _clock(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def _text(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _ceil(minutes: int, step: int) -> int:
    return -(-minutes // step) * step


def _ramadan_1447() -> set[str]:
    """The days of Ramadan 1447 under the default reckoning, as /v1/hijri converts them (the dating is not what
    these tests are about; the rule in force on each day is)."""
    out = set()
    day = date(2026, 2, 10)
    while day <= date(2026, 3, 25):
        h = json.loads(call("hijri", NOW, date=day.isoformat()))
        if h["hijri"]["month"] == 9:
            out.add(day.isoformat())
        day += timedelta(days=1)
    return out


def test_the_ramadan_rule_is_rounded_by_its_own_rounding_in_json_csv_and_ics():
    """REPORT's case: 20 Feb 2026, printed fajr 05:56 + 15 = 06:11 with jamaatRoundRamadan=fajr:1, and 06:15 without
    (the default kept).  Over February and March every Ramadan day is the adhan + 15 unrounded, every other day the
    adhan + 10 rounded up to 5 on the local clock, exactly as before; the CSV and the calendar feed say the same."""
    own = {**LEICESTER, "jamaatRoundRamadan": "fajr:1"}
    feb20_old = json.loads(call("prayer-times", NOW, **LEICESTER, date="2026-02-20"))["days"][0]
    feb20 = json.loads(call("prayer-times", NOW, **own, date="2026-02-20"))["days"][0]
    assert feb20["local"]["fajr"] == "05:56"  # the printed table (REPORT, Task 1)
    assert feb20_old["jamaatLocal"]["fajr"] == "06:15" and feb20["jamaatLocal"]["fajr"] == "06:11"
    ramadan = _ramadan_1447()
    assert "2026-02-20" in ramadan and len(ramadan) in (29, 30)
    checked = 0
    for month in (2, 3):
        days = json.loads(call("prayer-times", NOW, **own, year=2026, month=month))["days"]
        old = {d["date"]: d for d in json.loads(call("prayer-times", NOW, **LEICESTER, year=2026, month=month))["days"]}
        for d in days:
            adhan = _clock(d["local"]["fajr"])
            want = adhan + 15 if d["date"] in ramadan else _ceil(adhan + 10, 5)
            assert d["jamaatLocal"]["fajr"] == _text(want), d["date"]
            if d["date"] not in ramadan:
                assert old[d["date"]]["jamaatLocal"] == d["jamaatLocal"], d["date"]
            checked += 1
    assert checked == 59
    rows = list(csv.DictReader(io.StringIO(call("prayer-times.csv", NOW, **own, date="2026-02-20").decode())))
    assert rows[0]["jamaat_fajr"] == "06:11" and rows[0]["jamaat_fajr_utc"] == "2026-02-20T06:11:00Z"
    now = datetime(2026, 2, 20, 0, 30, tzinfo=timezone.utc).timestamp()
    feed = icalendar.Calendar.from_ical(call("prayer-times.ics", now, **own, days=7))
    starts = {event["DTSTART"].dt.astimezone(LONDON).strftime("%H:%M") for event in feed.walk("VEVENT")
              if str(event["UID"]).startswith("prayer-leicester-20260220-fajr-")}
    assert starts == {"06:11"}


def test_the_summer_rule_is_rounded_by_its_own_rounding_and_the_winter_rule_keeps_jamaats():
    """jamaatRound=fajr:15 with a summer rule fajr:25 and jamaatRoundDst=fajr:1: on 19 June 2026 (printed fajr 02:25,
    REPORT) the jamaat is 02:50 unrounded; on 27 November (printed 06:23) 06:23 + 10 = 06:33, rounded up to 06:45.
    Without jamaatRoundDst the summer rule is rounded as before: 02:50 is already a multiple of 5, so the check
    uses a step of 15, giving 03:00."""
    rules = {**LEICESTER, "jamaatRound": "fajr:15", "jamaatDst": "fajr:25"}
    del rules["jamaatRamadan"]
    summer = json.loads(call("prayer-times", NOW, **rules, jamaatRoundDst="fajr:1", date="2026-06-19"))["days"][0]
    assert summer["local"]["fajr"] == "02:25" and summer["jamaatLocal"]["fajr"] == "02:50"
    inherited = json.loads(call("prayer-times", NOW, **rules, date="2026-06-19"))["days"][0]
    assert inherited["jamaatLocal"]["fajr"] == "03:00"
    winter = json.loads(call("prayer-times", NOW, **rules, jamaatRoundDst="fajr:1", date="2026-11-27"))["days"][0]
    assert winter["local"]["fajr"] == "06:23" and winter["jamaatLocal"]["fajr"] == "06:45"
    # a rule's own step other than 1: 02:25 + 25 = 02:50, up to a multiple of 20 = 03:00; of 30 = 03:00; of 7 = 02:55
    seven = json.loads(call("prayer-times", NOW, **rules, jamaatRoundDst="fajr:7", date="2026-06-19"))["days"][0]
    assert seven["jamaatLocal"]["fajr"] == _text(_ceil(_clock("02:50"), 7)) == "02:55"


def test_a_profile_carries_the_rules_own_rounding_as_its_query(tmp_path, monkeypatch):
    """A mosque profile may hold jamaatRoundRamadan: mosque=<id> answers the bytes of the explicit query."""
    from generator.prayer import mosques
    from generator.site import responses
    from test_mosques import _fixture_data, _write

    data = _fixture_data()
    data["place"] = {"city": "leicester"}
    data["times"] = {"method": "ImamAliFoundation"}
    data["jamaat"] = {k: LEICESTER[k] for k in ("jamaat", "jamaatRound", "jamaatRamadan")}
    data["jamaat"]["jamaatRoundRamadan"] = "fajr:1"
    profile = mosques.read(_write(tmp_path, "round-mosque", data))
    monkeypatch.setattr(mosques, "by_id", lambda: {**mosques.load(), profile.id: profile})
    responses._body.cache_clear()
    try:
        mine = call("prayer-times", NOW, mosque=profile.id, date="2026-02-20")
        query = {**LEICESTER, "jamaatRoundRamadan": "fajr:1", "calendar": data["reckoning"]}
        assert mine == call("prayer-times", NOW, **query, date="2026-02-20")
        assert json.loads(mine)["days"][0]["jamaatLocal"]["fajr"] == "06:11"
    finally:
        responses._body.cache_clear()


@pytest.mark.parametrize("extra, parameter", [
    ({"jamaatRoundRamadan": "dhuhr:5"}, "jamaatRoundRamadan"),  # dhuhr has no Ramadan rule
    ({"jamaatRoundRamadan": "fajr:61"}, "jamaatRoundRamadan"),
    ({"jamaatRoundRamadan": "fajr:x"}, "jamaatRoundRamadan"),
    ({"jamaatRoundDst": "5"}, "jamaatRoundDst"),  # no summer rule to round
])
def test_bad_rule_roundings_give_a_400_naming_the_parameter(client, extra, parameter):
    assert_bad_request(client.get("/v1/prayer-times", params={**LEICESTER, "date": "2026-02-20", **extra}), parameter)


def test_the_screen_asks_the_api_with_the_rules_own_rounding(client):
    """The wall screen takes the parameter as the API does and reads the API's answer with it: its year of times (the
    address its page config names) gives 20 Feb 2026's fajr jamaat at 06:11."""
    import re

    html = client.get("/screen/", params={**LEICESTER, "jamaatRoundRamadan": "fajr:1", "lang": "en"})
    assert html.status_code == 200
    config = json.loads(re.search(r'<script type="application/json" id="page-config">(.*?)</script>', html.text,
                                  re.S)[1])
    answer = client.get(config["prayerTimes"][-1].replace("YEAR", "2026")).json()
    day = next(d for d in answer["days"] if d["date"] == "2026-02-20")
    assert day["jamaatLocal"]["fajr"] == "06:11"
