"""Jamaat times (issue 20) against an independent computation written from the rules, here.

Reference: `Reference` below implements each rule of issue 20 / docs/decisions.md "Jamaat" with
plain ``datetime`` and ``zoneinfo`` loops over days (it never imports generator/jamaat.py):

* minutes after the adhan, rounded *up* by walking the local clock minute by minute until it
  shows a multiple of the step (or midnight);
* a fixed local time is ``datetime(date, HH:MM, tzinfo=zone, fold=0)`` (RFC 5545 3.3.5: a
  skipped or repeated local time takes the offset before the change);
* the weekly hold: the week from the chosen weekday, every day at the latest local clock time
  the rule gives on any of its seven days, however the range was requested;
* never before the adhan (moved to it, listed), Eid slots never before sunrise;
* Jumu'ah on Fridays (dhuhr's jamaat = the first slot), Eid on 1 Shawwal and 10 Dhu al-Hijja
  as /v1/hijri converts them under each reckoning (and as Iran's official table,
  data/iran_hijri_month_starts.csv, dates them);
* "changed": the local clock time differs from the day before's.

The adhan instants the reference starts from are the same response's own times (what is under
test is the jamaat rules, not the astronomy, which other files check).  A whole year at London
(2026), Toronto (2025) and Tehran (2021, the last year Iran kept summer time), so every change
of offset and both reckonings' Eid days (which differ in 2021 and 2025) are crossed.
"""
from __future__ import annotations

import csv
import json
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import assert_bad_request, call

NOW = datetime(2026, 11, 21, 12, tzinfo=timezone.utc).timestamp()
PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
PLACES = [("london", "Europe/London", 2026), ("toronto", "America/Toronto", 2025), ("tehran", "Asia/Tehran", 2021)]
IRAN_TABLE = Path(__file__).resolve().parent.parent / "data" / "iran_hijri_month_starts.csv"

RULE_SETS = {
    # A Shia mosque's week: fajr 20 min after the adhan rounded to 15, dhuhr at 13:30 with asr, maghrib 5
    # after rounded to 5 with isha, held from Friday; two Jumu'ahs, two Eid prayers.
    "combined": {"jamaat": "fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:15,maghrib:5",
                 "jamaatWeekly": "fri", "jumuah": "13:15,14:00", "eid": "07:30,09:00"},
    # Fixed times that the adhan overtakes part of the year (moves), odd rounding, a Sunday week,
    # a Jumu'ah before dhuhr in summer time, an Eid slot before sunrise.
    "moves": {"jamaat": "fajr:05:00,dhuhr:10,asr:15,maghrib:0,isha:21:00", "jamaatRound": "dhuhr:10,asr:7",
              "jamaatWeekly": "sun", "jumuah": "12:50", "eid": "05:30"},
    # Every day its own: no weekly hold, a delayed combination (maghrib prayed at isha's jamaat).
    "daily": {"jamaat": "fajr:0,maghrib:isha,isha:10,dhuhr:13:00", "jamaatRound": "60"},
}


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _days(city: str, first: date, last: date, **query) -> list[dict]:
    """The JSON days of [first, last] month by month (any jamaat fields with them)."""
    out, month = [], date(first.year, first.month, 1)
    while month <= last:
        body = json.loads(call("prayer-times", NOW, city=city, year=month.year, month=month.month, **query))
        out += [d for d in body["days"] if first.isoformat() <= d["date"] <= last.isoformat()]
        month = (month + timedelta(days=32)).replace(day=1)
    return out


def _eid_days(year: int, calendar: str) -> set[date]:
    """1 Shawwal and 10 Dhu al-Hijja falling in ``year`` as /v1/hijri converts them under ``calendar``."""
    out = set()
    for hy in range(int((year - 622) * 1.0307) - 1, int((year - 622) * 1.0307) + 3):
        for hm, hd in ((10, 1), (12, 10)):
            found = date.fromisoformat(json.loads(call("hijri", NOW, hy=hy, hm=hm, hd=hd, calendar=calendar))["gregorian"])
            if found.year == year:
                out.add(found)
    return out


class Reference:
    """The rules, day by day, with datetime and zoneinfo (the module docstring says how)."""

    def __init__(self, zone: str, rules: dict, adhan: dict[date, dict[str, datetime]], eid_days: set[date]):
        self.zone, self.adhan, self.eid_days = ZoneInfo(zone), adhan, eid_days
        self.rules = dict(item.split(":", 1) for item in rules.get("jamaat", "").split(",") if item)
        rounding = rules.get("jamaatRound", "")
        if rounding.isdigit():
            self.round = {p: int(rounding) for p, r in self.rules.items() if r.isdigit()}
        else:
            self.round = {p: int(m) for p, m in (item.split(":") for item in rounding.split(",") if item)}
        weekly = rules.get("jamaatWeekly")
        self.weekly = WEEKDAYS.index(weekly) if weekly else None
        self.jumuah = [time.fromisoformat(t) for t in rules.get("jumuah", "").split(",") if t]
        self.eid = [time.fromisoformat(t) for t in rules.get("eid", "").split(",") if t]

    def local_at(self, day: date, clock: time | timedelta) -> datetime:
        """The UTC instant of a local clock reading on ``day`` (fold=0: RFC 5545 3.3.5)."""
        if isinstance(clock, timedelta):
            naive = datetime.combine(day, time()) + clock
        else:
            naive = datetime.combine(day, clock)
        return naive.replace(tzinfo=self.zone, fold=0).astimezone(timezone.utc)

    def clock_after_midnight(self, day: date, instant: datetime) -> timedelta:
        return instant.astimezone(self.zone).replace(tzinfo=None) - datetime.combine(day, time())

    def rounded(self, instant: datetime, step: int) -> datetime:
        while True:  # walk the local clock minute by minute
            local = instant.astimezone(self.zone)
            if (local.hour * 60 + local.minute) % step == 0:
                return instant
            instant += timedelta(minutes=1)

    def rule_value(self, name: str, day: date) -> datetime:
        rule = self.rules[name]
        at = self.adhan[day][name]
        if rule.isdigit():
            value = self.rounded(at + timedelta(minutes=int(rule)), self.round.get(name, 1))
            return value
        return self.local_at(day, time.fromisoformat(rule))

    def own(self, name: str, day: date) -> tuple[datetime, bool]:
        rule = self.rules[name]
        if rule.isdigit() and self.weekly is not None:
            start = day - timedelta(days=(day.weekday() - self.weekly) % 7)
            week = [start + timedelta(days=k) for k in range(7)]
            latest = max(self.clock_after_midnight(d, self.rule_value(name, d)) for d in week)
            value = self.local_at(day, latest)
        else:
            value = self.rule_value(name, day)
        at = self.adhan[day][name]
        return max(value, at), value < at

    def day(self, day: date) -> dict:
        """{'jamaat': {name: instant}, 'jumuah': [...], 'eid': [...], 'moved': [...]} of one day."""
        jamaat, moved = {}, []
        for name in PRAYERS:
            if name in self.rules and not self.rules[name].isalpha():
                jamaat[name], was_moved = self.own(name, day)
                if was_moved:
                    moved.append(name)
        out = {}
        if self.jumuah and day.weekday() == 4:
            slots = [self.local_at(day, t) for t in self.jumuah]
            dhuhr = self.adhan[day]["dhuhr"]
            out["jumuah"] = [max(s, dhuhr) for s in slots]
            jamaat["dhuhr"] = out["jumuah"][0]
            moved = [m for m in moved if m != "dhuhr"] + (["jumuah"] if min(slots) < dhuhr else [])
        for name in PRAYERS:
            if name in self.rules and self.rules[name].isalpha():
                if self.rules[name] in jamaat:
                    jamaat[name] = jamaat[self.rules[name]]
        if self.eid and day in self.eid_days:
            slots = [self.local_at(day, t) for t in self.eid]
            sunrise = self.adhan[day]["sunrise"]
            out["eid"] = [max(s, sunrise) for s in slots]
            moved += ["eid"] if min(slots) < sunrise else []
        order = [*PRAYERS, "jumuah", "eid"]
        return {"jamaat": jamaat, **out, "moved": sorted(moved, key=order.index)}


def _reference_year(city: str, zone: str, year: int, rules: dict, calendar: str):
    first, last = date(year, 1, 1), date(year, 12, 31)
    margin = timedelta(days=8)  # the day before, and whole weeks around the year
    around = _days(city, first - margin, last + margin)
    adhan = {date.fromisoformat(d["date"]): {n: _utc(d[n]) for n in (*PRAYERS, "sunrise")} for d in around}
    return Reference(zone, rules, adhan, _eid_days(year, calendar) if "eid" in rules else set())


@pytest.mark.parametrize("city, zone, year", PLACES)
@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_a_year_of_jamaat_equals_the_rules_computed_independently(city, zone, year, rule_set):
    """Every day of a year: jamaat, jamaatLocal, jumuah, eid, jamaatMoved, jamaatChanged."""
    rules = RULE_SETS[rule_set]
    calendars = ("moonsighting", "iran") if "eid" in rules else ("moonsighting",)
    for calendar in calendars:
        query = {**rules, **({"calendar": calendar} if "eid" in rules else {})}
        days = json.loads(call("prayer-times", NOW, city=city, year=year, **query))["days"]
        reference = _reference_year(city, zone, year, rules, calendar)
        tz = ZoneInfo(zone)
        previous = None
        counts = {"moved": 0, "jumuah": 0, "eid": 0, "changed": 0}
        for entry in days:
            day = date.fromisoformat(entry["date"])
            expected = reference.day(day)
            got = {k: v for k, v in entry["jamaat"].items() if k not in ("jumuah", "eid")}
            assert got == {k: v.strftime("%Y-%m-%dT%H:%M:%SZ") for k, v in expected["jamaat"].items()}, day
            local = {k: v for k, v in entry["jamaatLocal"].items() if k not in ("jumuah", "eid")}
            assert local == {k: v.astimezone(tz).strftime("%H:%M") for k, v in expected["jamaat"].items()}, day
            for extra in ("jumuah", "eid"):
                listed = [v.strftime("%Y-%m-%dT%H:%M:%SZ") for v in expected.get(extra, [])]
                assert entry["jamaat"].get(extra) == (listed or None), (day, extra)
                counts[extra] += extra in entry["jamaat"]
            assert entry.get("jamaatMoved", []) == expected["moved"], day
            counts["moved"] += bool(expected["moved"])
            if previous is None:  # the day before the year, from its own computation
                previous = reference.day(day - timedelta(days=1))
            changed = [n for n in PRAYERS if n in expected["jamaat"] or n in previous["jamaat"]
                       if (n in expected["jamaat"]) != (n in previous["jamaat"]) or
                       reference.clock_after_midnight(day, expected["jamaat"][n]) !=
                       reference.clock_after_midnight(day - timedelta(days=1), previous["jamaat"][n])]
            assert entry.get("jamaatChanged", []) == changed, day
            counts["changed"] += bool(changed)
            previous = expected
        assert counts["jumuah"] == (52 + (date(year, 1, 1).weekday() == 4 or date(year, 12, 31).weekday() == 4)
                                    if "jumuah" in rules else 0)
        assert counts["eid"] == (len(reference.eid_days) if "eid" in rules else 0)
        if rule_set == "moves":
            assert counts["moved"] > 30, counts  # fixed fajr in winter, isha in summer, Jumu'ah, Eid
        if rules.get("jamaatWeekly"):  # offset rules change on the weekday (and DST or a fixed rule's move)
            assert counts["changed"] > 40


def test_reckonings_give_their_own_eid_days_and_match_irans_official_table():
    """Eid al-Fitr 1442 fell on 13 May 2021 in Iran's official calendar (data/iran_hijri_month_starts.csv: 1442/10
    starts 2021-05-13) and on 14 May under moon sighting (/v1/hijri): the Eid slots follow `calendar`."""
    with IRAN_TABLE.open() as f:
        starts = {(int(r["hy"]), int(r["hm"])): r["gregorian_start"] for r in csv.DictReader(f)}
    assert starts[1442, 10] == "2021-05-13"
    query = {"city": "tehran", "year": 2021, "month": 5, "jamaat": "fajr:10", "eid": "06:30"}
    for calendar, eid_day in (("iran", "2021-05-13"), ("moonsighting", "2021-05-14")):
        days = json.loads(call("prayer-times", NOW, calendar=calendar, **query))["days"]
        assert [d["date"] for d in days if "eid" in d["jamaat"]] == [eid_day]
        (day,) = [d for d in days if d["date"] == eid_day]
        assert day["jamaatLocal"]["eid"] == ["06:30"]


def test_the_weekly_hold_does_not_depend_on_the_requested_range():
    """A week that straddles a month (and London's spring change): the days of the year request,
    the month request and each single-day request are byte-identical jamaat fields."""
    rules = {"jamaat": "fajr:20,maghrib:5,isha:10", "jamaatRound": "5", "jamaatWeekly": "wed"}
    year = json.loads(call("prayer-times", NOW, city="london", year=2026, **rules))["days"]
    by_date = {d["date"]: d for d in year}
    for month in (3, 4):
        for d in json.loads(call("prayer-times", NOW, city="london", year=2026, month=month, **rules))["days"]:
            assert d == by_date[d["date"]]
    for iso in ("2026-03-25", "2026-03-29", "2026-03-31", "2026-04-01", "2026-01-01", "2026-12-31"):
        (d,) = json.loads(call("prayer-times", NOW, city="london", date=iso, **rules))["days"]
        assert d == by_date[iso], iso


def test_a_fixed_time_keeps_its_local_clock_across_changes_of_offset():
    """dhuhr:13:30 is 13:30 on the clock on both sides of London's spring and autumn changes."""
    days = json.loads(call("prayer-times", NOW, city="london", year=2026, jamaat="dhuhr:13:30"))["days"]
    by_date = {d["date"]: d for d in days}
    assert by_date["2026-03-28"]["jamaat"]["dhuhr"] == "2026-03-28T13:30:00Z"
    assert by_date["2026-03-29"]["jamaat"]["dhuhr"] == "2026-03-29T12:30:00Z"
    assert by_date["2026-10-25"]["jamaat"]["dhuhr"] == "2026-10-25T13:30:00Z"
    assert {d["jamaatLocal"]["dhuhr"] for d in days} == {"13:30"}
    assert not any("jamaatChanged" in d for d in days)


def test_without_a_zone_minutes_after_rules_use_utc_and_local_fields_are_absent():
    (day,) = json.loads(call("prayer-times", NOW, lat=35.69, lng=51.39, date="2026-03-20", jamaat="fajr:20",
                             jamaatRound="fajr:15"))["days"]
    fajr = _utc(day["fajr"])
    expected = fajr + timedelta(minutes=20)
    expected += timedelta(minutes=-(expected.minute % 15) % 15)
    assert day["jamaat"] == {"fajr": expected.strftime("%Y-%m-%dT%H:%M:%SZ")}
    assert "jamaatLocal" not in day


def test_an_unreached_adhan_has_a_null_jamaat_and_its_partner_still_prays():
    """highLatitudeRule=none at 61° N in June: isha is never reached, so isha:10 has no time (null), while
    maghrib:isha... is refused (its partner must have its own rule) and isha:maghrib takes maghrib's jamaat."""
    base = {"lat": 61, "lng": 18, "tz": "Europe/Stockholm", "date": "2026-06-21", "highLatitudeRule": "none"}
    (day,) = json.loads(call("prayer-times", NOW, jamaat="maghrib:5,isha:10", **base))["days"]
    assert "isha" in day["unreached"] and day["jamaat"]["isha"] is None and day["jamaatLocal"]["isha"] is None
    assert day["jamaat"]["maghrib"] == (_utc(day["maghrib"]) + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    (day,) = json.loads(call("prayer-times", NOW, jamaat="maghrib:5,isha:maghrib", **base))["days"]
    assert day["jamaat"]["isha"] == day["jamaat"]["maghrib"]


def test_several_methods_each_have_their_own_jamaat():
    body = json.loads(call("prayer-times", NOW, city="karbala", date="2026-03-20", method="Jafari,Tehran",
                           jamaat="fajr:15,maghrib:0"))
    for result in body["results"]:
        (day,) = result["days"]
        assert day["jamaat"] == {"fajr": (_utc(day["fajr"]) + timedelta(minutes=15)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                                 "maghrib": day["maghrib"]}


def test_csv_and_json_agree_on_every_jamaat_time():
    """The CSV of the same query: jamaat_<prayer> (local) and _utc, jumuah, eid, moved and changed cells."""
    query = {"city": "toronto", "year": 2025, **RULE_SETS["combined"], "calendar": "iran"}
    days = json.loads(call("prayer-times", NOW, **query))["days"]
    rows = list(csv.DictReader(call("prayer-times.csv", NOW, **query).decode().splitlines()))
    assert len(rows) == len(days) == 365
    for day, row in zip(days, rows):
        assert row["date"] == day["date"]
        for name in PRAYERS:
            assert row[f"jamaat_{name}_utc"] == day["jamaat"][name]
            assert row[f"jamaat_{name}"] == day["jamaatLocal"][name]
        assert row["jumuah_utc"].split() == day["jamaat"].get("jumuah", [])
        assert row["jumuah"].split() == day["jamaatLocal"].get("jumuah", [])
        assert row["eid_utc"].split() == day["jamaat"].get("eid", [])
        assert row["eid"].split() == day["jamaatLocal"].get("eid", [])
        assert row["jamaat_moved"].split() == day.get("jamaatMoved", [])
        assert row["jamaat_changed"].split() == day.get("jamaatChanged", [])


def test_without_jamaat_parameters_answers_are_unchanged():
    """Defaults keep the bytes: an empty jamaat is no jamaat, and calendar at its default is no key."""
    plain = call("prayer-times", NOW, city="london", year=2026, month=3)
    assert call("prayer-times", NOW, city="london", year=2026, month=3, jamaat="") == plain
    assert b"jamaat" not in plain


def test_canonical_forms_share_one_key():
    from generator.api import BY_NAME
    from generator.query import Query

    parse = BY_NAME["prayer-times"].parse
    a = parse(Query.of({"city": "london", "date": "2026-03-20", "jamaat": " Isha:maghrib, MAGHRIB:5 ,fajr:20,dhuhr:1:30",
                        "jamaatRound": "5", "jamaatWeekly": "FRI", "jumuah": "14:00, 13:15", "eid": "7:30",
                        "calendar": "moonsighting"}), NOW)
    assert {k: v for k, v in a.params.items() if k.startswith(("jamaat", "jumuah", "eid", "calendar"))} == {
        "jamaat": "fajr:20,dhuhr:01:30,maghrib:5,isha:maghrib", "jamaatRound": "fajr:5,maghrib:5",
        "jamaatWeekly": "fri", "jumuah": "13:15,14:00", "eid": "07:30"}


BAD = [
    ({"jamaat": "sunrise:10"}, "jamaat"),  # not a prayer
    ({"jamaat": "fajr:25:00"}, "jamaat"),
    ({"jamaat": "dhuhr:13:60"}, "jamaat"),
    ({"jamaat": "dhuhr:24:00"}, "jamaat"),
    ({"jamaat": "fajr:181"}, "jamaat"),
    ({"jamaat": "fajr:-5"}, "jamaat"),
    ({"jamaat": "fajr:99999999999999999999"}, "jamaat"),
    ({"jamaat": "fajr:٢٠"}, "jamaat"),  # non-ASCII digits
    ({"jamaat": "ｆajr:20"}, "jamaat"),  # a fullwidth letter
    ({"jamaat": "fajr:20,,isha:5"}, "jamaat"),  # an empty item
    ({"jamaat": "fajr:20,"}, "jamaat"),
    ({"jamaat": "fajr"}, "jamaat"),
    ({"jamaat": "fajr:20,FAJR:25"}, "jamaat"),
    ({"jamaat": "asr:asr"}, "jamaat"),  # combined with itself
    ({"jamaat": "asr:maghrib,maghrib:5"}, "jamaat"),  # not a pair
    ({"jamaat": "fajr:dhuhr,dhuhr:5"}, "jamaat"),
    ({"jamaat": "asr:dhuhr"}, "jamaat"),  # the partner has no rule
    ({"jamaat": "asr:dhuhr,dhuhr:asr"}, "jamaat"),  # a circle
    ({"jamaat": "fajr:20\r\nX"}, "jamaat"),
    ({"jamaat": "fajr:20", "jamaatRound": "0"}, "jamaatRound"),
    ({"jamaat": "fajr:20", "jamaatRound": "61"}, "jamaatRound"),
    ({"jamaat": "fajr:20", "jamaatRound": "isha:5"}, "jamaatRound"),  # isha has no rule
    ({"jamaat": "dhuhr:13:30", "jamaatRound": "dhuhr:5"}, "jamaatRound"),  # a fixed time is not rounded
    ({"jamaat": "dhuhr:13:30", "jamaatRound": "5"}, "jamaatRound"),
    ({"jamaat": "fajr:20", "jamaatRound": "fajr:5,fajr:10"}, "jamaatRound"),
    ({"jamaatRound": "5"}, "jamaatRound"),
    ({"jamaat": "fajr:20", "jamaatWeekly": "friday"}, "jamaatWeekly"),
    ({"jamaatWeekly": "fri"}, "jamaatWeekly"),  # nothing to hold
    ({"jamaat": "dhuhr:13:30", "jamaatWeekly": "fri"}, "jamaatWeekly"),
    ({"jumuah": "13:00,13:30,14:00,14:30"}, "jumuah"),  # a fourth Jumu'ah
    ({"jumuah": "13:00,13:00"}, "jumuah"),
    ({"jumuah": "1300"}, "jumuah"),
    ({"jumuah": "13:00,"}, "jumuah"),
    ({"eid": "07:00,08:00,09:00"}, "eid"),  # a third Eid prayer
    ({"eid": "7"}, "eid"),
    ({"calendar": "iran"}, "calendar"),  # nothing to reckon
    ({"eid": "07:00", "calendar": "tabular"}, "calendar"),
    ({"jamaat": "x" * 201}, "jamaat"),
]


@pytest.mark.parametrize("query, parameter", BAD)
def test_bad_jamaat_parameters_give_a_400_naming_the_parameter(client, query, parameter):
    for endpoint in ("prayer-times", "prayer-times.csv"):
        assert_bad_request(client.get(f"/v1/{endpoint}", params={"city": "london", "date": "2026-03-20", **query}),
                           parameter)


@pytest.mark.parametrize("query, parameter", [
    ({"jamaat": "dhuhr:13:30"}, "jamaat"), ({"jumuah": "13:15"}, "jumuah"), ({"eid": "07:30"}, "eid")])
def test_local_times_need_a_zone(client, query, parameter):
    response = client.get("/v1/prayer-times", params={"lat": "51.5", "lng": "0", "date": "2026-03-20", **query})
    assert_bad_request(response, parameter)
    assert "zone" in response.json()["error"]
    ok = client.get("/v1/prayer-times", params={"lat": "51.5", "lng": "0", "tz": "Europe/London",
                                                "date": "2026-03-20", **query})
    assert ok.status_code == 200
