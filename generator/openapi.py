"""The OpenAPI 3.1 description of /v1, served at /v1/openapi.json and used to build the docs page.

Parameters carry the same ranges, enums and formats the endpoints validate (tests run
schemathesis against it and check every response against these schemas).
"""
from __future__ import annotations

from typing import Any

from generator import events, hijri
from generator.methods import METHODS

VERSION = "1.0.0"
LANGUAGES = ["en", "ar", "fa", "ur"]
CALENDARS = list(hijri.CALENDARS)


def _param(name: str, schema: dict, description: str, *, required: bool = False, example: Any = None) -> dict:
    out = {"name": name, "in": "query", "required": required, "description": description, "schema": schema}
    if example is not None:
        out["example"] = example
    return out


def _number(low: float, high: float) -> dict:
    return {"type": "number", "minimum": low, "maximum": high}


def _integer(low: int, high: int) -> dict:
    return {"type": "integer", "minimum": low, "maximum": high}


def _enum(*values: str) -> dict:
    return {"type": "string", "enum": list(values)}


DATE = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
INSTANT = {"type": "string", "format": "date-time", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"}
CLOCK = {"type": "string", "pattern": r"^\d{2}:\d{2}$"}
NAMES4 = {"type": "object", "required": LANGUAGES, "properties": {lang: {"type": "string"} for lang in LANGUAGES}}
NAMES3 = {"type": "object", "required": ["en", "ar", "fa"], "properties": {lang: {"type": "string"} for lang in LANGUAGES[:3]}}
NULLABLE_NUMBER = {"type": ["number", "null"]}
TIMES = ["imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight"]

LAT = _param("lat", _number(-90, 90), "Latitude, decimal degrees (rounded to 0.01°). With lng, instead of city.", example=35.69)
LNG = _param("lng", _number(-180, 180), "Longitude, decimal degrees east (rounded to 0.01°).", example=51.39)
CITY = _param("city", {"type": "string", "maxLength": 64}, "A city id of /v1/cities (sets lat, lng and tz).", example="karbala")
CALENDAR = _param("calendar", _enum(*CALENDARS), "Hijri reckoning: moonsighting (global sighting) or iran (official).")
HY = _param("hy", _integer(hijri.API_FIRST_YEAR, hijri.API_LAST_YEAR), "Hijri year.", example=1447)
HM = _param("hm", _integer(1, 12), "Hijri month, 1 = Muharram.", example=9)
LANG = _param("lang", _enum(*LANGUAGES), "Language of the feed's names and summaries (default en).")
METHOD = _param("method", {"type": "string", "maxLength": 400},
                f"A method id ({', '.join(METHODS)}), a comma list of them, all, or custom. Default Tehran.",
                example="Jafari")
FEED_METHOD = _param("method", _enum(*METHODS), "A method id (default Tehran).")
DAYS = _param("days", _integer(7, 90), "Rolling window in days from today (default 60).")

ERROR = {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}},
         "additionalProperties": False}


def _json(schema: dict, description: str = "OK") -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors() -> dict:
    return {
        "400": _json({"$ref": "#/components/schemas/Error"}, "Invalid parameters; `error` names the parameter"),
        "429": _json({"$ref": "#/components/schemas/Error"}, "More than the uncached requests allowed per minute"),
    }


def _operation(summary: str, parameters: list[dict], ok: dict) -> dict:
    return {"get": {"summary": summary, "parameters": parameters, "responses": {"200": ok, **_errors()}}}


def _calendar_feed(summary: str) -> dict:
    return {"description": summary, "content": {"text/calendar": {"schema": {"type": "string"}}}}


def _obj(required: list[str], properties: dict, **extra) -> dict:
    return {"type": "object", "required": required, "properties": properties, **extra}


DAY_ENTRY = _obj(
    ["date", *TIMES],
    {"date": DATE, **{name: INSTANT for name in TIMES},
     "local": _obj(TIMES, {name: CLOCK for name in TIMES}),
     "polar": _obj(["rule", "latitude"], {"rule": _enum("nearestLatitude"), "latitude": {"type": "number"}})},
)
PRAYER_META = _obj(["lat", "lng", "tz", "qibla"], {"lat": {"type": "number"}, "lng": {"type": "number"},
                                                   "city": {"type": "string"}, "tz": {"type": "string"},
                                                   "qibla": {"type": "number"}})
PRAYER_TIMES = {
    "oneOf": [
        _obj(["meta", "days"], {"meta": PRAYER_META, "days": {"type": "array", "items": DAY_ENTRY}}),
        _obj(["meta", "results"], {"meta": PRAYER_META, "results": {"type": "array", "items": _obj(
            ["method", "days"], {"method": {"type": "string"}, "days": {"type": "array", "items": DAY_ENTRY}})}}),
    ]
}
METHOD_ITEM = _obj(["id", "label", "description", "source", "default"],
                   {"id": {"type": "string"}, "label": NAMES4, "description": {"type": "string"},
                    "source": {"type": "string"}, "default": {"type": "boolean"}})
CITY_ITEM = _obj(["id", "names", "country", "lat", "lng", "tz"],
                 {"id": {"type": "string"}, "names": NAMES4, "country": {"type": "string"},
                  "lat": {"type": "number"}, "lng": {"type": "number"}, "tz": {"type": "string"}})
HIJRI_DAY = _obj(
    ["gregorian", "weekday", "hijri", "monthName", "formatted", "monthLength", "calendarUsed", "source"],
    {"gregorian": DATE, "weekday": {"type": "string"},
     "hijri": _obj(["year", "month", "day"], {k: {"type": "integer"} for k in ("year", "month", "day")}),
     "monthName": NAMES4, "formatted": NAMES4, "monthLength": _integer(29, 30),
     "calendarUsed": _enum(*CALENDARS), "source": _enum("table", "computed", "tabular")},
)
HIJRI_RESULT = {"oneOf": [
    HIJRI_DAY,
    _obj(["calendarUsed", "from", "to", "days", "months"], {"calendarUsed": _enum(*CALENDARS), "days": {"type": "object"},
                                                            "months": {"type": "array"}, "from": DATE, "to": DATE}),
    _obj(["calendarUsed", "hijri", "monthName", "monthLength", "start", "end", "source", "days"],
         {"calendarUsed": _enum(*CALENDARS), "days": {"type": "object"}, "monthLength": _integer(29, 30)}),
]}
MOON_META = _obj(["conjunction", "monthBegins", "sightingEvening"],
                 {"conjunction": {"type": ["string", "null"]}, "sightingEvening": DATE,
                  "monthBegins": _obj(["date", "source"], {"date": DATE, "source": {"type": "string"}})})
MOON_VISIBILITY = {"oneOf": [
    _obj(["meta", "rows", "counts", "legend"], {"meta": MOON_META, "rows": {"type": "array", "items": {
        "type": "string", "pattern": "^[0-4]+$"}}, "counts": {"type": "object"}, "legend": {"type": "object"}}),
    _obj(["meta", "evenings", "firstVisible"], {"meta": MOON_META, "firstVisible": {"type": "object"},
                                                "evenings": {"type": "array", "minItems": 7, "maxItems": 7, "items": _obj(
                                                    ["date", "q", "zone"], {"date": DATE, "q": NULLABLE_NUMBER,
                                                                            "zone": {"type": ["string", "null"]}})}}),
]}
EVENT_ITEM = _obj(
    ["id", "hijriMonth", "hijriDay", "type", "importance", "title"],
    {"id": {"type": "string"}, "hijriMonth": _integer(1, 12), "hijriDay": _integer(1, 30),
     "type": _enum(*events.TYPES), "importance": _enum(*events.IMPORTANCE), "title": NAMES4, "details": NAMES3,
     "lastDayOfMonth": {"type": "boolean"}, "hijriYear": {"type": "integer"}, "gregorian": {"type": ["string", "null"]},
     "daysUntil": {"type": ["integer", "null"]}, "source": _enum("table", "computed", "tabular")},
)
ECLIPSE_ITEM = _obj(
    ["kind", "type", "utc", "gamma", "magnitude", "penumbralMag", "durationsMin", "greatest", "hijri"],
    {"kind": _enum("solar", "lunar"), "type": _enum("total", "annular", "hybrid", "partial", "penumbral"),
     "utc": INSTANT, "gamma": {"type": "number"}, "magnitude": NULLABLE_NUMBER, "penumbralMag": {"type": "number"},
     "durationsMin": _obj(["penumbral", "partial", "total"], {k: NULLABLE_NUMBER for k in ("penumbral", "partial", "total")}),
     "centralDurationMin": NULLABLE_NUMBER,
     "greatest": _obj(["lat", "lon", "central"], {"lat": {"type": "number"}, "lon": {"type": "number"},
                                                  "central": {"type": "boolean"}}),
     "hijri": _obj(["hy", "hm", "hd"], {k: {"type": "integer"} for k in ("hy", "hm", "hd")}),
     "daysUntil": {"type": "integer"}},
)
DAY_STATUS = _obj(
    ["date", "weekday", "calendarUsed", "source", "hijri", "events", "flags"],
    {"date": DATE, "weekday": {"type": "string"}, "calendarUsed": _enum(*CALENDARS),
     "source": _enum("table", "computed", "tabular"),
     "hijri": _obj(["hy", "hm", "hd", "monthName"], {"hy": {"type": "integer"}, "hm": _integer(1, 12),
                                                    "hd": _integer(1, 30), "monthName": NAMES4}),
     "events": {"type": "array", "items": _obj(["id", "type", "importance", "title"], {"title": NAMES4})},
     "flags": _obj(
         ["mourning", "season", "eid", "fastingRecommended", "fastingForbidden", "ashuraImsak", "nightOfWorshipEve"],
         {"mourning": {"type": "boolean"}, "eid": {"type": "boolean"}, "fastingRecommended": {"type": "boolean"},
          "fastingForbidden": {"type": "boolean"}, "ashuraImsak": {"type": "boolean"},
          "nightOfWorshipEve": {"type": "boolean"},
          "season": {"oneOf": [{"type": "null"}, _obj(["id", "kind"], {"id": {"type": "string"},
                                                                        "kind": _enum("mourning", "festive", "worship")})]}})},
)


def document(feeds: bool = True) -> dict:
    """Return the OpenAPI 3.1 document of every /v1 endpoint."""
    paths = {
        "/prayer-times": _operation(
            "Prayer times for a place: one day, a month or a year; one or several methods, or custom angles",
            [LAT, LNG, CITY, METHOD,
             _param("date", DATE, "A day (default today in the zone).", example="2026-03-20"),
             _param("year", _integer(1900, 2100), "A year (with month: that month; alone: the year, single method)."),
             _param("month", _integer(1, 12), "A month of year."),
             _param("tz", {"type": "string", "maxLength": 64}, "IANA zone for `local` HH:mm (default the city's).",
                    example="Asia/Tehran"),
             _param("fajrAngle", _number(4, 24), "method=custom: fajr depression angle (required)."),
             _param("ishaAngle", _number(4, 24), "method=custom: isha angle (or ishaInterval)."),
             _param("ishaInterval", _number(0, 180), "method=custom: isha minutes after maghrib."),
             _param("maghribAngle", _number(0.5, 12), "method=custom: maghrib depression angle (default sunset)."),
             _param("maghribInterval", _number(0, 120), "method=custom: maghrib minutes after sunset.")],
            _json(PRAYER_TIMES)),
        "/methods": _operation("The sixteen calculation methods", [],
                               _json(_obj(["methods"], {"methods": {"type": "array", "items": METHOD_ITEM}}))),
        "/qibla": _operation("Qibla bearing, degrees clockwise from true north", [LAT, LNG, CITY],
                             _json(_obj(["qibla"], {"qibla": _number(0, 360), "lat": {"type": "number"},
                                                    "lng": {"type": "number"}}))),
        "/cities": _operation(
            "Search the 325 cities by name in English, Arabic, Farsi or Urdu (or all=1 for the whole catalogue)",
            [_param("q", {"type": "string", "minLength": 1, "maxLength": 100}, "Search text.", example="کربلا"),
             _param("all", _enum("1"), "The whole catalogue instead of a search.")],
            _json(_obj(["cities"], {"cities": {"type": "array", "items": CITY_ITEM}}))),
        "/hijri": _operation(
            "Gregorian ↔ Hijri under the moonsighting or iran reckoning",
            [CALENDAR, _param("date", DATE, "Gregorian day (default today, UTC)."),
             _param("year", _integer(1900, 2100), "Gregorian year (map of its days)."),
             _param("month", _integer(1, 12), "Gregorian month (with year: map of its days)."),
             HY, HM, _param("hd", _integer(1, 30), "Hijri day (checked against the month's real length)."),
             _param("offset", _integer(-2, 2), "Local-sighting day adjustment, forward conversion only.")],
            _json(HIJRI_RESULT)),
        "/moon-visibility": _operation(
            "Crescent visibility (Yallop, Odeh): a world grid, or seven evenings at a place",
            [CALENDAR, HY, HM, _param("evening", _integer(-2, 2), "Evening relative to the sighting evening (grid)."),
             _param("res", {"type": "integer", "enum": [5, 2]}, "Grid cell size in degrees (default 5)."),
             LAT, LNG, CITY],
            _json(MOON_VISIBILITY)),
        "/moon-visibility.svg": _operation(
            "The crescent-visibility world map of one evening as SVG (the grid of /moon-visibility)",
            [CALENDAR, HY, HM, _param("evening", _integer(-2, 2), "Evening relative to the sighting evening."),
             _param("res", {"type": "integer", "enum": [5, 2]}, "Grid cell size in degrees (default 5)."),
             LANG],
            {"description": "SVG map", "content": {"image/svg+xml": {"schema": {"type": "string"}}}}),
        "/events": _operation(
            "The 73 events of the Shia year: list, resolve to a Hijri year, or the next N",
            [CALENDAR, HM, HY, _param("upcoming", _integer(1, 73), "The next N events from today."),
             _param("importance", _enum("major", "minor"), "Only major (or only minor) events."),
             _param("type", _enum(*events.TYPES), "Only this type."),
             _param("details", _enum("0", "1"), "1: include detail paragraphs (en, ar, fa).")],
            _json(_obj(["events"], {"events": {"type": "array", "items": EVENT_ITEM}}))),
        "/eclipses": _operation(
            "Solar and lunar eclipses 2020–2040",
            [_param("kind", _enum("solar", "lunar"), "Only this kind."),
             _param("type", _enum("total", "annular", "hybrid", "partial", "penumbral"), "Only this type."),
             _param("from", {"type": "string", "pattern": r"^\d{4}(-\d{2}-\d{2})?$"}, "YYYY or YYYY-MM-DD."),
             _param("to", {"type": "string", "pattern": r"^\d{4}(-\d{2}-\d{2})?$"}, "YYYY (through its end) or YYYY-MM-DD."),
             _param("upcoming", _integer(1, 24), "The next N from today (not with from/to)."), CALENDAR],
            _json(_obj(["meta", "eclipses"], {"meta": {"type": "object"},
                                              "eclipses": {"type": "array", "items": ECLIPSE_ITEM}}))),
        "/day-status": _operation(
            "Hijri date, events and Shia-calendar flags of a day",
            [_param("date", DATE, "A day (default today, UTC)."), CALENDAR], _json(DAY_STATUS)),
        "/openapi.json": {"get": {"summary": "This document", "parameters": [],
                                  "responses": {"200": _json({"type": "object"})}}},
    }
    if feeds:
        paths |= {
            "/events.ics": _operation("Islamic events as all-day events, about 14 months around today",
                                      [LANG, _param("importance", _enum("major"), "Only major events."), CALENDAR],
                                      _calendar_feed("iCalendar feed")),
            "/prayer-times.ics": _operation(
                "The five daily prayers for a city as timed events (UTC)",
                [{**CITY, "required": True}, FEED_METHOD, LANG, DAYS,
                 _param("offsets", {"type": "string", "maxLength": 200},
                        "Jamaat offsets: prayer:minutes pairs, comma-separated, minutes -60..180.", example="fajr:15,maghrib:5"),
                 _param("name", {"type": "string", "maxLength": 60}, "Masjid name for the calendar title and summaries.")],
                _calendar_feed("iCalendar feed")),
            "/fasting.ics": _operation("Ayyam al-Bid and the emphasised recommended fasts", [LANG, CALENDAR],
                                       _calendar_feed("iCalendar feed")),
            "/night.ics": _operation("The start of the last third of each night for a city",
                                     [{**CITY, "required": True}, FEED_METHOD, LANG, DAYS],
                                     _calendar_feed("iCalendar feed")),
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Shia prayer times, Hijri calendar and astronomy",
            "version": VERSION,
            "description": "Free, read-only. Prayer times by the Jafari approach and 15 other methods, qibla, "
                           "cities, Hijri conversion (moonsighting, iran), crescent visibility, events, eclipses, "
                           "day status and calendar feeds. All operations are GET; errors are JSON {error}.",
        },
        "servers": [{"url": "/v1"}],
        "paths": paths,
        "components": {"schemas": {"Error": ERROR}},
    }
