"""A mosque profile in the SalahAPI 1.0 format (issue 27), for apps that read that format.

SalahAPI (public repository salahapi/salahapi-specification, versions/1.0.md and
1.0.schema.json; data/SOURCES.md) describes a mosque's prayer times as a JSON document (its
place, its calculation method and iqama rules) that points to a CSV of daily times with the
columns ``day, fajr_athan, fajr_iqama, sunrise, dhuhr_athan, dhuhr_iqama, asr_athan, asr_iqama,
maghrib_athan, maghrib_iqama, isha_athan, isha_iqama``.

`document` writes the JSON: ``location`` (coordinates and zone), ``calculationMethod`` (the
enum's name only when the profile's method is the preset with the enum's angles,
data/salahapi_methods.csv, else ``other``; the angles always; the iqama rules the format has
words for), and ``dailyPrayerTimes``: our own CSV of the same profile (`csv`), whose cells are
exactly /v1/prayer-times?mosque=<id>'s ``local`` and ``jamaatLocal`` times.  The CSV is the
whole truth; the rules are a summary.  What the format cannot say (docs/mosques.md
"SalahAPI"): combined prayers (asr:dhuhr), Ramadan rules, per-prayer change weekdays, Eid
slots, typed-in tables (their times are in the CSV), maghrib by angle or interval, imsak,
midnight, tune, the Hijri reckoning.
"""
from __future__ import annotations

import csv as csv_module
import functools
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import orjson

from generator.places import cities
from generator.prayer import mosques
from generator.api import mosque_list, prayer_times
from generator.prayer.methods import METHODS
from generator.errors import QueryError
from generator.query import Query

SPEC_VERSION = "1.0"
METHODS_PATH = Path(__file__).resolve().parent.parent.parent / "data" / "salahapi_methods.csv"
PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")
CSV_COLUMNS = ("day", "fajr_athan", "fajr_iqama", "sunrise", "dhuhr_athan", "dhuhr_iqama", "asr_athan", "asr_iqama",
               "maghrib_athan", "maghrib_iqama", "isha_athan", "isha_iqama")
MAX_CSV_DAYS = 366
WEEKDAYS = {"mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday", "fri": "friday",
            "sat": "saturday", "sun": "sunday"}
_CLOCK = re.compile(r"[0-9]{1,2}:[0-9]{2}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)
_HIGH_LATITUDE = {"twilightAngle": "twilightAngle", "middleOfNight": "middleOfTheNight",
                  "seventhOfNight": "oneSeventh"}


class BadRange(ValueError):
    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


@functools.cache
def _enum() -> dict[str, dict]:
    """Our preset id → its SalahAPI enum entry (only presets with the enum's own angles)."""
    with open(METHODS_PATH, encoding="utf-8", newline="") as file:
        return {row["our_method"]: row for row in csv_module.DictReader(file) if row["our_method"]}


def _number(text: str) -> float | int:
    value = float(text)
    return int(value) if value.is_integer() else value


def _method(query: dict) -> dict:
    method_id = query["method"]
    preset = METHODS.get(method_id)
    fajr = query.get("fajrAngle", preset.fajr_angle_deg if preset else None)
    isha = query.get("ishaAngle", preset.isha_angle_deg if preset else None)
    entry = _enum().get(method_id)
    own_angles = "fajrAngle" not in query and "ishaAngle" not in query and "ishaInterval" not in query
    name = entry["salahapi"] if entry is not None and own_angles else "other"
    out: dict = {"name": name}
    if fajr is not None:
        out["fajrAngle"] = _number(str(fajr))
    if isha is not None:
        out["ishaAngle"] = _number(str(isha))
    out["asrCalculationMethod"] = query.get("asr", "standard")
    rule = query.get("highLatitudeRule")
    if rule in _HIGH_LATITUDE:
        out["highLatitudeAdjustment"] = _HIGH_LATITUDE[rule]
    return out


def _pairs(text: str | None) -> dict[str, str]:
    """``prayer:value,…`` → {prayer: value} (a value may hold a colon: 13:30)."""
    if not text:
        return {}
    out = {}
    for part in str(text).split(","):
        name, _, value = part.partition(":")
        out[name.strip()] = value.strip()
    return out


def _rule(value: str) -> dict | None:
    """One jamaat rule in SalahAPI's words, or None when it has none (a combined prayer)."""
    if _CLOCK.fullmatch(value):
        return {"static": value.zfill(5)}
    if value.isdigit():
        return {"afterAthanMinutes": int(value)}
    if value.startswith("sunrise-") and value[8:].isdigit():
        return {"beforeEndMinutes": int(value[8:])}  # fajr's time ends at sunrise
    return None


def _iqama_rules(query: dict) -> tuple[dict, list]:
    rules = _pairs(query.get("jamaat"))
    summer = _pairs(query.get("jamaatDst"))
    rounding = query.get("jamaatRound")
    round_by = _pairs(rounding) if rounding and ":" in str(rounding) else {p: str(rounding) for p in PRAYERS} \
        if rounding else {}
    summer_round_by = _pairs(query.get("jamaatRoundDst"))  # the summer rule's own rounding (issue 36), canonical pairs
    weekly = query.get("jamaatWeekly")
    weekly_by = _pairs(weekly) if weekly and ":" in str(weekly) else {p: str(weekly) for p in PRAYERS} if weekly else {}
    earliest, latest = _pairs(query.get("jamaatEarliest")), _pairs(query.get("jamaatLatest"))
    out: dict = {}
    days = set(weekly_by.values())
    if len(days) == 1:  # SalahAPI has one change weekday for all prayers
        out["changeOn"] = WEEKDAYS[days.pop()]
    for prayer in PRAYERS:
        for key, source in ((prayer, rules), (prayer + "DST", summer)):
            rule = _rule(source[prayer]) if prayer in source else None
            if rule is None:
                continue
            if "static" not in rule:
                step = summer_round_by.get(prayer) if key.endswith("DST") else None
                step = step if step is not None else round_by.get(prayer)
                if step is not None and int(step) > 1:
                    rule["roundMinutes"] = int(step)
                if prayer in earliest:
                    rule["earliest"] = earliest[prayer].zfill(5)
                if prayer in latest:
                    rule["latest"] = latest[prayer].zfill(5)
                rule["change"] = "weekly" if prayer in weekly_by and "changeOn" in out else "daily"
            out[key] = rule
    jumuah = [t.strip() for t in str(query.get("jumuah", "")).split(",") if t.strip()]
    jumuah_summer = [t.strip() for t in str(query.get("jumuahDst", "")).split(",") if t.strip()]
    slots = []
    for k in range(max(len(jumuah), len(jumuah_summer))):
        slot: dict = {"name": f"Jumuah {k + 1}",
                      "time": {"static": jumuah[k].zfill(5) if k < len(jumuah) else "none"}}
        if jumuah_summer:
            slot["timeDST"] = {"static": jumuah_summer[k].zfill(5) if k < len(jumuah_summer) else "none"}
        slots.append(slot)
    return ({} if set(out) <= {"changeOn"} else out), slots


def document(mosque: mosques.Mosque, origin: str, version_label: str) -> bytes:
    """The SalahAPI 1.0 JSON of ``mosque``; ``origin``: the site's https origin (the CSV's address is absolute)."""
    query = mosque_list.query_of(mosque.id)
    listing = mosque_list.listing(mosque)
    place = listing["place"]
    location = {"latitude": place["lat"], "longitude": place["lng"], "timezone": place["tz"]}
    if "city" in place:
        city = cities.by_id()[place["city"]]
        location["city"] = city["names"]["en"]
    location.update({"dateFormat": "YYYY-MM-DD", "timeFormat": "HH:mm"})
    method = _method(query)
    iqama, jumuah = _iqama_rules(query)
    if iqama:
        method["iqamaCalculationRules"] = iqama
    if jumuah:
        method["jumuahRules"] = jumuah
    name = mosque.name("en")
    info: dict = {"title": name,
                  "description": f"Adhan and jamaat times of {name}, as /v1/prayer-times?mosque={mosque.id} gives them; "
                                 f"the daily CSV is exact, the rules a summary",
                  "version": version_label}
    if mosque.website:
        info["contact"] = {"name": name, "url": mosque.website}
    return orjson.dumps({
        "salahapi": SPEC_VERSION,
        "info": info,
        "location": location,
        "calculationMethod": method,
        "dailyPrayerTimes": {
            "csvUrl": f"{origin}/v1/mosques/{mosque.id}/salahapi.csv",
            "dateFormat": "YYYY-MM-DD", "timeFormat": "HH:mm",
            "csvUrlParameters": {"fromDate": {"in": "query", "type": "fromDate", "format": "YYYY-MM-DD"},
                                 "toDate": {"in": "query", "type": "toDate", "format": "YYYY-MM-DD"}}},
    }, option=orjson.OPT_INDENT_2)


def _date(text: str | None, field: str, default: date) -> date:
    if text is None:
        return default
    try:
        if not _DATE.fullmatch(text):
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise BadRange(field, "a date, YYYY-MM-DD") from None


@dataclass(frozen=True)
class CsvPlan:
    """A checked CSV request: its first and last day, and the canonical /v1/prayer-times query of each year."""

    first: date
    last: date
    years: tuple[tuple[tuple[str, object], ...], ...]


def plan_csv(mosque: mosques.Mosque, from_text: str | None, to_text: str | None, now_s: float) -> CsvPlan:
    """Check ``fromDate``/``toDate`` (default: this UTC year; at most `MAX_CSV_DAYS`); `BadRange` names the field."""
    today = datetime.fromtimestamp(now_s, timezone.utc).date()
    first = _date(from_text, "fromDate", date(today.year, 1, 1))
    # min(): the end of fromDate's year comes before fromDate + MAX_CSV_DAYS near date.max (9999-12-31), where
    # the sum would overflow (issue 34: a 500); a year out of the API's range is then its 400 below.
    last = _date(to_text, "toDate", max(first, date(today.year, 12, 31)) if from_text is None
                 else min(date(first.year, 12, 31), first + timedelta(days=min(MAX_CSV_DAYS - 1,
                                                                               (date.max - first).days))))
    if last < first:
        raise BadRange("toDate", "on or after fromDate")
    if (last - first).days >= MAX_CSV_DAYS:
        raise BadRange("toDate", f"at most {MAX_CSV_DAYS} days after fromDate")
    years = []
    for year in range(first.year, last.year + 1):
        try:
            canonical = prayer_times.ENDPOINT.parse(Query.of({"mosque": mosque.id, "year": str(year)}), now_s)
        except QueryError as error:  # a year out of the API's range
            raise BadRange("fromDate" if year == first.year else "toDate", str(error)) from None
        years.append(tuple(canonical.params.items()))
    return CsvPlan(first, last, tuple(years))


def csv(plan: CsvPlan) -> bytes:
    """SalahAPI's CSV of a checked request: one row per day, local HH:mm, empty where there is no jamaat."""
    rows = [",".join(CSV_COLUMNS)]
    first, last = plan.first.isoformat(), plan.last.isoformat()
    for params in plan.years:
        for day in orjson.loads(prayer_times.ENDPOINT.render(dict(params)))["days"]:
            if not first <= day["date"] <= last:
                continue
            local, jamaat = day.get("local", {}), day.get("jamaatLocal", {})
            cells = [day["date"]]
            for column in CSV_COLUMNS[1:]:
                prayer, _, kind = column.partition("_")
                value = local.get(prayer) if kind in ("athan", "") else jamaat.get(prayer)
                cells.append(value or "")
            rows.append(",".join(cells))
    return ("\r\n".join(rows) + "\r\n").encode("ascii")
