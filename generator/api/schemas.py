"""The hand-written response schemas of the OpenAPI document (parameters come from the declarations).

Every response is checked against these schemas by the tests (tests/test_schemathesis.py).
"""
from __future__ import annotations

from generator.calendars import events, hijri
from generator.prayer import announcements, jamaat
from generator.api.params import DATE_SCHEMA
from generator.words.locale import LANGUAGES


def _integer(low: int, high: int) -> dict:
    return {"type": "integer", "minimum": low, "maximum": high}


def _number(low: float, high: float) -> dict:
    return {"type": "number", "minimum": low, "maximum": high}


def _enum(*values: str) -> dict:
    return {"type": "string", "enum": list(values)}


CALENDARS = list(hijri.CALENDARS)

DATE = DATE_SCHEMA
INSTANT = {"type": "string", "format": "date-time", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"}
CLOCK = {"type": "string", "pattern": r"^\d{2}:\d{2}$"}
NAMES4 = {"type": "object", "required": list(LANGUAGES), "properties": {lang: {"type": "string"} for lang in LANGUAGES}}
NULLABLE_NUMBER = {"type": ["number", "null"]}
TIMES = ["imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight"]

# Every error has the SPEC's `error`; a 400 of a parameter also its machine-readable form (issue 33): a stable
# `code` (glossary error.<code> says it in en, ar, fa, ur), the `parameter` it names and the `args` its sentence names.
ERROR = {"type": "object", "required": ["error"], "properties": {
    "error": {"type": "string"},
    "code": {"type": "string", "description": "Stable id of the error (number_range, unknown_city_close, …; "
                                              "invalid when it has no words of its own)"},
    "parameter": {"type": "string", "description": "The query parameter `error` names"},
    "args": {"type": "object", "additionalProperties": True,
             "description": "The values the sentence names (bounds, choices, the value given)"}},
    "additionalProperties": False}


def json_response(schema: dict, description: str = "OK") -> dict:
    """The OpenAPI 200 response object of a JSON answer."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def obj(required: list[str], properties: dict, **extra) -> dict:
    return {"type": "object", "required": required, "properties": properties, **extra}


def ref(name: str) -> dict:
    """A reference to the named component schema (`COMPONENTS`): generators make one type of it."""
    return {"$ref": f"#/components/schemas/{name}"}


# A time is null only under highLatitudeRule=none, where its angle is never reached that day;
# the day then lists it in "unreached".  With any other rule every time is an instant.
UNREACHED_NOTE = "null only with highLatitudeRule=none, when the Sun never reaches this time's angle (see `unreached`)"
MAYBE_INSTANT = {**INSTANT, "type": ["string", "null"], "description": "UTC instant; " + UNREACHED_NOTE}
MAYBE_CLOCK = {**CLOCK, "type": ["string", "null"], "description": "Local HH:mm; " + UNREACHED_NOTE}
# Jamaat (issue 20): only with jamaat parameters; a prayer's key is present on the days its rule applies.
JAMAAT_PRAYERS = ["fajr", "dhuhr", "asr", "maghrib", "isha"]
JAMAAT_NOTE = "null when the adhan it follows is never reached (highLatitudeRule=none)"


def _jamaat(value: dict, what: str) -> dict:
    slots = {"type": "array", "minItems": 1, "maxItems": 3, "items": value}
    return obj([], {**{name: {**value, "type": ["string", "null"], "description": f"{what}; {JAMAAT_NOTE}"}
                       for name in JAMAAT_PRAYERS},
                    "jumuah": {**slots, "description": "Fridays: the Jumu'ah slots (dhuhr's jamaat is the first)"},
                    "eid": {**slots, "maxItems": 2, "description": "Eid al-Fitr and Eid al-Adha under `calendar`"}},
               additionalProperties=False, description=what)


JAMAAT_NAMES = {"type": "array", "minItems": 1, "items": _enum(*JAMAAT_PRAYERS, "jumuah", "eid")}
# Only with nightThirds=1 (issue 35): the ⅓ and ⅔ points of the night midnight halves.
THIRDS = {"firstThird": "when the night's first third ends", "lastThird": "when the night's last third begins"}
DAY_ENTRY = obj(
    ["date", *TIMES],
    {"date": DATE, **{name: MAYBE_INSTANT for name in TIMES},
     **{name: {**MAYBE_INSTANT, "description": f"nightThirds=1 only: {what}, UTC; null when the night's start or end "
                                              "is never reached"} for name, what in THIRDS.items()},
     "local": obj(TIMES, {**{name: MAYBE_CLOCK for name in TIMES}, **{name: MAYBE_CLOCK for name in THIRDS}}),
     "unreached": {"type": "array", "minItems": 1, "items": _enum(*TIMES, *THIRDS),
                   "description": "Times that are null this day (highLatitudeRule=none only), in output order."},
     "polar": obj(["rule", "latitude"], {"rule": _enum("nearestLatitude"), "latitude": {"type": "number"}}),
     "jamaat": _jamaat(INSTANT, "Jamaat times (UTC instants) of the jamaat parameters"),
     "jamaatLocal": _jamaat(CLOCK, "The same as local HH:mm (with a zone)"),
     "jamaatMoved": {**JAMAAT_NAMES, "description": "Jamaat times moved to stay within their prayer's time: one "
                                                    "before the time opens (its adhan; asr: 8 min after dhuhr's, isha: 6 after maghrib's; "
                                                    "eid: sunrise) moved to it, and those of jamaatMovedEnd"},
     "jamaatMovedEnd": {**JAMAAT_NAMES, "description": "Jamaat times the rule put too late to be prayed before the "
                        "end of their prayer's time (fajr: sunrise; dhuhr: asr's reserved time before sunset; asr: "
                        "sunset; maghrib: isha's reserved time before midnight; isha: midnight; jumuah: sunset; eid: "
                        "dhuhr), moved to the last start that leaves time to pray"},
     "jamaatChanged": {**JAMAAT_NAMES, "items": _enum(*JAMAAT_PRAYERS),
                       "description": "Prayers whose jamaat (local clock) differs from the day before (by at least "
                                      "jamaatNotice minutes, or at all where either day's time is a set one)"},
     # Issue 33 (docs/decisions.md "Jamaat": combined prayers, declared times)
     "jamaatCombined": {**JAMAAT_NAMES, "items": _enum("asr", "isha"),
                        "description": "asr, isha: prayed in one jamaat with dhuhr, maghrib this day (either way round): "
                                       "no adhan of their own; their computed time is the start of their recommended "
                                       "(fadhila) time"},
     "jamaatContested": {**JAMAAT_NAMES, "description": "Times the mosque declared (fixed, typed in, Jumu'ah and Eid "
                         "slots) kept as declared past a bound on which the rulings differ (Jumu'ah after the computed "
                         "asr; within the minutes reserved for the prayer's rak'as)"},
     "jamaatKept": {**JAMAAT_NAMES, "description": "Declared times outside their "
                    "prayer's time (before its adhan, at or after its end, isha before maghrib's jamaat) kept as "
                    "declared (jamaatOutside=keep)"},
     "jamaatSkipped": {**JAMAAT_NAMES, "description": "No jamaat this day (a Jumu'ah or Eid slot: that slot left out "
                       "of the day's list): its declared time is outside the prayer's time (jamaatOutside=skip)"},
     # Only on the days of a preset bound to printed tables (IslamicCentreOfEngland, ImamAliFoundation).
     "source": {**_enum("printed", "computed"), "description": "Only for a preset bound to printed tables "
                "(IslamicCentreOfEngland, ImamAliFoundation), on every day: printed (the times of an authority's "
                "printed table for this place, within 10 km of it) or computed (the preset's fitted rule)."},
     "authority": {"type": "string", "description": "Printed days: who prints the table."},
     "table": {"type": "string", "description": "Printed days: the table's id, <authority>/<place> (/v1/methods "
               "lists each preset's tables)."},
     "computed": {"type": "array", "items": _enum(*TIMES), "description": "Printed days: the times the table "
                  "does not print (asr and isha), computed by the preset's rule with the request's options."},
     "ignored": {"type": "array", "items": _enum("midnight", "imsak", "highLatitudeRule", "elevation"),
                 "description": "Printed days: the request's options that the printed times do not follow (the "
                 "table decided them; they apply to the computed times). tune moves printed times too."}},
)
PRAYER_META = obj(["lat", "lng", "tz", "qibla"], {"lat": {"type": "number"}, "lng": {"type": "number"},
                                                   "city": {"type": "string"}, "tz": {"type": "string"},
                                                   "qibla": {"type": "number"}})
DAYS = {"type": "array", "items": ref("Day")}
PRAYER_TIMES_ONE = obj(["meta", "days"], {"meta": ref("PrayerTimesMeta"), "days": DAYS},
                       description="One method: its days")
METHOD_DAYS = obj(["method", "days"], {"method": {"type": "string"}, "days": DAYS})
PRAYER_TIMES_MANY = obj(["meta", "results"], {"meta": ref("PrayerTimesMeta"),
                                              "results": {"type": "array", "items": ref("MethodDays")}},
                        description="Several methods: each method's days, in the canonical order of their ids")
PRAYER_TIMES = {"oneOf": [ref("PrayerTimes"), ref("PrayerTimesByMethod")]}
METHOD_ITEM = obj(["id", "label", "description", "source", "default"],
                   {"id": {"type": "string"}, "label": NAMES4, "description": {"type": "string"},
                    "source": {"type": "string"}, "default": {"type": "boolean"},
                    "extension": {"type": "boolean", "const": True, "description": "Present (true) on a preset "
                                  "beyond the SPEC's sixteen: asked for by name, not part of method=all."},
                    "tables": {"type": "array", "items": {"type": "string"}, "description": "A preset bound to "
                               "printed tables: their ids, <authority>/<place>; its answers within 10 km of a "
                               "table's place are the printed times."}})
CITY_ITEM = obj(["id", "names", "country", "lat", "lng", "tz"],
                 {"id": {"type": "string"}, "names": NAMES4, "country": {"type": "string"},
                  "lat": {"type": "number"}, "lng": {"type": "number"}, "tz": {"type": "string"},
                  "distanceKm": {"type": "number", "minimum": 0,
                                 "description": "Only with lat and lng: great-circle distance from that point, 0.1 km"}})
HIJRI_DAY = obj(
    ["gregorian", "weekday", "hijri", "monthName", "formatted", "monthLength", "calendarUsed", "source"],
    {"gregorian": DATE, "weekday": {"type": "string"},
     "hijri": obj(["year", "month", "day"], {k: {"type": "integer"} for k in ("year", "month", "day")}),
     "monthName": NAMES4, "formatted": NAMES4, "monthLength": _integer(29, 30),
     "calendarUsed": _enum(*CALENDARS), "source": _enum("table", "computed", "tabular"),
     # only on `table` answers: sistani, iran-calendar-center, or a South Asian row's decided_by
     "authority": {"type": "string", "pattern": r"^[a-z][a-z0-9-]{1,40}$",
                   "description": "Who announced or published the month: sistani (moonsighting), iran-calendar-center "
                                  "(iran), ruet-e-hilal or shia-ulema (pakistan), lucknow-shia (india), "
                                  "fadlallah-office (lebanon), qmi (azerbaijan), cssna (cssna-east, cssna-west)"}},
)
HIJRI_YMD = obj(["year", "month", "day"], {"year": {"type": "integer"}, "month": _integer(1, 12),
                                            "day": _integer(1, 30)}, additionalProperties=False)
_SOURCE = _enum("table", "computed", "tabular")
_AUTHORITY = HIJRI_DAY["properties"]["authority"]
HIJRI_MONTH = obj(["year", "month", "monthName", "monthLength", "start", "end", "source"],
                  {"year": {"type": "integer"}, "month": _integer(1, 12), "monthName": NAMES4,
                   "monthLength": _integer(29, 30), "start": DATE, "end": DATE, "source": _SOURCE,
                   "authority": _AUTHORITY},
                  description="A Hijri month a Gregorian range touches: its first and last day (offset applied)")
HIJRI_DAYS_MAP = obj(
    ["calendarUsed", "offset", "from", "to", "days", "months"],
    {"calendarUsed": _enum(*CALENDARS), "offset": _integer(-2, 2), "from": DATE, "to": DATE,
     "days": {"type": "object", "propertyNames": DATE, "additionalProperties": ref("HijriYearMonthDay"),
              "description": "Each Gregorian date YYYY-MM-DD of the range: its Hijri date"},
     "months": {"type": "array", "items": ref("HijriMonth")}},
    description="year (and month): the Hijri date of every day of a Gregorian year or month")
HIJRI_MONTH_MAP = obj(
    ["calendarUsed", "hijri", "monthName", "monthLength", "start", "end", "source", "days"],
    {"calendarUsed": _enum(*CALENDARS), "hijri": obj(["year", "month"], {"year": {"type": "integer"},
                                                                         "month": _integer(1, 12)}),
     "monthName": NAMES4, "monthLength": _integer(29, 30), "start": DATE, "end": DATE, "source": _SOURCE,
     "authority": _AUTHORITY,
     "days": {"type": "object", "propertyNames": {"type": "string", "pattern": "^[1-9][0-9]?$"},
              "additionalProperties": DATE, "description": "Each day 1..29 or 30 of the month: its Gregorian date"}},
    description="hy and hm: the Gregorian date of every day of a Hijri month")
HIJRI_RESULT = {"oneOf": [ref("HijriDate"), ref("HijriDaysMap"), ref("HijriMonthMap")]}
MOON_META = obj(["conjunction", "monthBegins", "sightingEvening"],
                 {"conjunction": {"type": ["string", "null"]}, "sightingEvening": DATE,
                  "monthBegins": obj(["date", "source"], {"date": DATE, "source": {"type": "string"}})})
MOON_VISIBILITY = {"oneOf": [
    obj(["meta", "rows", "counts", "legend"], {"meta": MOON_META, "rows": {"type": "array", "items": {
        "type": "string", "pattern": "^[0-4]+$"}}, "counts": {"type": "object"}, "legend": {"type": "object"}}),
    obj(["meta", "evenings", "firstVisible"], {"meta": MOON_META, "firstVisible": {"type": "object"},
                                                "evenings": {"type": "array", "minItems": 7, "maxItems": 7, "items": obj(
                                                    ["date", "q", "zone"], {"date": DATE, "q": NULLABLE_NUMBER,
                                                                            "zone": {"type": ["string", "null"]}})}}),
]}
EVENT_ITEM = obj(
    ["id", "hijriMonth", "hijriDay", "type", "importance", "title"],
    {"id": {"type": "string"}, "hijriMonth": _integer(1, 12), "hijriDay": _integer(1, 30),
     "type": _enum(*events.TYPES), "importance": _enum(*events.IMPORTANCE), "title": NAMES4, "details": NAMES4,
     "lastDayOfMonth": {"type": "boolean"}, "hijriYear": {"type": "integer"}, "gregorian": {"type": ["string", "null"]},
     "daysUntil": {"type": ["integer", "null"]}, "source": _enum("table", "computed", "tabular"),
     # nights only (docs/decisions.md, "Nights"): daysUntil then counts to the eve
     "night": {"type": "boolean", "const": True, "description": "Present (true) on a night: it begins at the "
               "maghrib of eveGregorian"}, "eveGregorian": {"type": ["string", "null"], "format": "date"},
     # only with community= (docs/decisions.md, "Each community's events")
     "onWeekday": {**_enum("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
                   "description": "The event falls on the first such weekday on or after hijriDay"},
     "local": {"type": "boolean", "const": True, "description": "Present (true) on a community's own day"},
     "holiday": {"type": "boolean", "const": True,
                 "description": "Present (true) when the day is a public holiday in the community's country"}},
)
ECLIPSE_ITEM = obj(
    ["kind", "type", "utc", "gamma", "magnitude", "penumbralMag", "durationsMin", "greatest", "hijri"],
    {"kind": _enum("solar", "lunar"), "type": _enum("total", "annular", "hybrid", "partial", "penumbral"),
     "utc": INSTANT, "gamma": {"type": "number"}, "magnitude": NULLABLE_NUMBER, "penumbralMag": {"type": "number"},
     "durationsMin": obj(["penumbral", "partial", "total"], {k: NULLABLE_NUMBER for k in ("penumbral", "partial", "total")}),
     "centralDurationMin": NULLABLE_NUMBER,
     "greatest": obj(["lat", "lon", "central"], {"lat": {"type": "number"}, "lon": {"type": "number"},
                                                  "central": {"type": "boolean"}}),
     "hijri": obj(["hy", "hm", "hd"], {k: {"type": "integer"} for k in ("hy", "hm", "hd")}),
     "daysUntil": {"type": "integer"}},
)
DAY_STATUS = obj(
    ["date", "weekday", "calendarUsed", "source", "hijri", "events", "tonight", "flags"],
    {"date": DATE, "weekday": {"type": "string"}, "calendarUsed": _enum(*CALENDARS),
     "source": _enum("table", "computed", "tabular"),
     "hijri": obj(["hy", "hm", "hd", "monthName"], {"hy": {"type": "integer"}, "hm": _integer(1, 12),
                                                    "hd": _integer(1, 30), "monthName": NAMES4}),
     "events": {"type": "array", "items": obj(["id", "type", "importance", "title"], {
         "title": NAMES4, "local": {"type": "boolean", "const": True}, "holiday": {"type": "boolean", "const": True}})},
     "tonight": {"type": "array", "items": obj(["id", "title"], {"id": {"type": "string"}, "title": NAMES4},
                                                additionalProperties=False)},
     "flags": obj(
         ["mourning", "season", "eid", "fastingRecommended", "fastingForbidden", "ashuraImsak", "nightOfWorshipEve"],
         {"mourning": {"type": "boolean"}, "eid": {"type": "boolean"}, "fastingRecommended": {"type": "boolean"},
          "fastingForbidden": {"type": "boolean"}, "ashuraImsak": {"type": "boolean"},
          "nightOfWorshipEve": {"type": "boolean"},
          "season": {"oneOf": [{"type": "null"}, obj(["id", "kind"], {"id": {"type": "string"},
                                                                        "kind": _enum("mourning", "festive", "worship")})]}}),
     # only with offset, tz or a place (generator/api/day_status.py; docs/decisions.md, "day-status for a place")
     "offset": _integer(-2, 2), "tz": {"type": "string"}, "community": {"type": "string"},
     "place": obj([], {"city": {"type": "string"}, "lat": {"type": "number"}, "lng": {"type": "number"}}),
     "method": {"type": "string"},
     "hijriChange": obj(["at", "hijri"], {"at": INSTANT, "hijri": obj(
         ["hy", "hm", "hd", "monthName"], {"hy": {"type": "integer"}, "hm": _integer(1, 12), "hd": _integer(1, 30),
                                           "monthName": NAMES4})}),
     "clockChange": obj(["at", "minutes", "before"], {"at": INSTANT, "minutes": {"type": "integer"},
                                                      "before": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}),
     "nights": {"type": "array", "items": obj(
         ["id", "title", "hijri", "eve", "namedFrom", "begins", "ends"],
         {"id": {"type": "string"}, "title": NAMES4,
          "hijri": obj(["hy", "hm", "hd"], {"hy": {"type": "integer"}, "hm": _integer(1, 12), "hd": _integer(1, 30)}),
          "eve": DATE, "namedFrom": INSTANT,
          "begins": INSTANT, "ends": INSTANT})}},
)


def calendar_feed(description: str = "iCalendar feed") -> dict:
    """The OpenAPI 200 response object of an ICS feed."""
    return {"description": description, "content": {"text/calendar": {"schema": {"type": "string"}}}}


SVG = {"description": "SVG map", "content": {"image/svg+xml": {"schema": {"type": "string"}}}}
METHODS = json_response(obj(["methods"], {"methods": {"type": "array", "items": ref("Method")}}))
QIBLA = json_response(obj(["qibla"], {"qibla": _number(0, 360), "lat": {"type": "number"}, "lng": {"type": "number"}}))
CITIES = json_response(obj(["cities"], {"cities": {"type": "array", "items": ref("City")}}))
EVENTS = json_response(obj(["events"], {"events": {"type": "array", "items": ref("Event")}}))
ECLIPSES = json_response(obj(["meta", "eclipses"], {"meta": {"type": "object"},
                                                     "eclipses": {"type": "array", "items": ref("Eclipse")}}))
_TEXT_BY_LANG = {"type": "object", "properties": {lang: {"type": "string"} for lang in LANGUAGES},
                 "additionalProperties": False}
_QUERY_TEXT = {"type": "object", "additionalProperties": {"type": "string"}}
WEEKDAY = _enum(*jamaat.WEEKDAYS)
# A mosque's announcement (issue 36; generator/prayer/announcements.py): what a profile writes, only what is set.
ANNOUNCEMENT = obj(["text"], {"text": _TEXT_BY_LANG, "kind": _enum(*announcements.KINDS), "from": DATE, "until": DATE,
                              "weekdays": {"type": "array", "minItems": 1, "uniqueItems": True, "items": WEEKDAY}},
                   additionalProperties=False)
MOSQUE_ITEM = obj(
    ["id", "names", "place", "languages", "reckoning", "announcements", "times", "jamaat", "query", "links", "sources"],
    {"id": {"type": "string", "pattern": r"^[a-z0-9-]{1,48}$"},
     "names": {**_TEXT_BY_LANG, "required": ["en"]},
     "place": obj(["lat", "lng", "tz"], {"city": {"type": "string"}, "lat": _number(-90, 90),
                                         "lng": _number(-180, 180), "tz": {"type": "string"}}),
     "address": {"type": "string"}, "website": {"type": "string", "format": "uri"},
     "languages": {"type": "array", "minItems": 1, "items": _enum(*LANGUAGES)},
     "reckoning": _enum(*CALENDARS),
     "announcements": {"type": "array", "maxItems": announcements.MAX_ITEMS, "items": ANNOUNCEMENT,
                       "description": "Its announcements (a line or a slide, each with its dates and weekdays)"},
     "times": {**_QUERY_TEXT, "description": "The /v1/prayer-times parameters of its adhan, as query text"},
     "jamaat": {**_QUERY_TEXT, "description": "Its jamaat parameters, as query text (empty: it publishes none)"},
     "query": {"type": "object", "description": "The canonical /v1/prayer-times parameters mosque=<id> stands for"},
     "links": obj(["prayerTimes", "csv", "ics", "night", "page", "screen"],
                  {k: {"type": "string"} for k in ("prayerTimes", "csv", "ics", "night", "page", "screen")}),
     "sources": {"type": "array", "minItems": 1,
                 "items": obj(["about", "read"], {"about": {"type": "string"}, "url": {"type": "string"},
                                                  "read": DATE})}},
    additionalProperties=False)
MOSQUES = obj(["mosques"], {"mosques": {"type": "array", "items": ref("Mosque")}})

# The named schemas of the document's components (`ref`): one type each in a generated client.
COMPONENTS = {
    "Error": ERROR, "Day": DAY_ENTRY, "PrayerTimesMeta": PRAYER_META, "MethodDays": METHOD_DAYS,
    "PrayerTimes": PRAYER_TIMES_ONE, "PrayerTimesByMethod": PRAYER_TIMES_MANY,
    "HijriDate": HIJRI_DAY, "HijriYearMonthDay": HIJRI_YMD, "HijriMonth": HIJRI_MONTH,
    "HijriDaysMap": HIJRI_DAYS_MAP, "HijriMonthMap": HIJRI_MONTH_MAP,
    "Event": EVENT_ITEM, "DayStatus": DAY_STATUS, "Method": METHOD_ITEM, "City": CITY_ITEM, "Eclipse": ECLIPSE_ITEM,
    "Mosque": MOSQUE_ITEM,
}
