"""The Aladhan-compatible door: ``/compat/aladhan/v1/<endpoint>[/<path parts>]?<Aladhan's query>``.

An app written for api.aladhan.com switches by changing its base URL (issue 35).  Every answer is
this service's own: the door reads Aladhan's parameters, turns them into a native query, checks and
renders it with the native endpoints (`BY_NAME[...].parse` then ``render``, in process, the same
calls as /v1) and rewrites the native JSON in Aladhan's shape (``{"code", "status", "data"}``).
It computes no time and no date of its own: an Aladhan ``HH:mm`` is the native ``local`` field,
an ISO 8601 time the native UTC instant written in the zone, a Hijri date the native /v1/hijri
map, a holiday the native /v1/events list.  docs/compat.md lists every difference that remains.

Shapes and parameters follow Aladhan's published OpenAPI description
(islamic-network/api.aladhan.com, api/Controllers/v1/Documentation/PrayerTimes.php and Hijri.php).
Aladhan's method numbers map to this service's presets (`METHOD_BY_NUMBER`); its Hijri
``calendarMethod`` names the service's Shia reckonings (moonsighting, iran, pakistan, india, lebanon, azerbaijan,
cssna-east, cssna-west), and
Aladhan's own (HJCoSA, UAQ, DIYANET, MATHEMATICAL) fall back to the default reckoning.
"""
from __future__ import annotations

import calendar as gregorian_calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable, Iterable
from zoneinfo import ZoneInfo

import orjson

from generator.api import BY_NAME
from generator.api import params as P
from generator.api.endpoint import dumps
from generator.api.location import place
from generator.calendars import hijri
from generator.errors import QueryError
from generator.places import cities, city_search
from generator.places import days as unix_days
from generator.prayer.methods import METHODS, HighLatitudeRule
from generator.query import Query
from generator.words import glossary, hijri_names

PREFIX = "/compat/aladhan/v1"

# Aladhan's method numbers (its documentation's list) -> this service's presets.  Aladhan's numbers
# with no preset here (8 Gulf, 12 France, 14 Russia, 17-23) are refused, naming method=99.
METHOD_BY_NUMBER = {0: "Jafari", 1: "Karachi", 2: "NorthAmerica", 3: "MuslimWorldLeague", 4: "UmmAlQura",
                    5: "Egyptian", 7: "Tehran", 9: "Kuwait", 10: "Qatar", 11: "Singapore", 13: "Turkey",
                    15: "MoonsightingCommittee", 16: "Dubai"}
NUMBER_BY_METHOD = {method_id: number for number, method_id in METHOD_BY_NUMBER.items()}
ALADHAN_KEY = {0: "JAFARI", 1: "KARACHI", 2: "ISNA", 3: "MWL", 4: "MAKKAH", 5: "EGYPT", 7: "TEHRAN", 9: "KUWAIT",
               10: "QATAR", 11: "SINGAPORE", 13: "TURKEY", 15: "MOONSIGHTING", 16: "DUBAI"}
CUSTOM_NUMBER = 99
# Aladhan's tune order (its documentation: "Imsak,Fajr,Sunrise,Dhuhr,Asr,Maghrib,Sunset,Isha,Midnight").
TUNE_ORDER = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "maghrib", "sunset", "isha", "midnight")
# Aladhan's timings keys, in its order, and the native names they read.
TIMINGS = (("Fajr", "fajr"), ("Sunrise", "sunrise"), ("Dhuhr", "dhuhr"), ("Asr", "asr"), ("Sunset", "sunset"),
           ("Maghrib", "maghrib"), ("Isha", "isha"), ("Imsak", "imsak"), ("Midnight", "midnight"),
           ("Firstthird", "firstThird"), ("Lastthird", "lastThird"))  # the thirds when the native answer has them
INVALID_TIME = "-----"  # Aladhan's string for a time that does not occur (native null)
MIDNIGHT_BY_MODE = {0: "sunsetToSunrise", 1: "sunsetToFajr"}  # Aladhan's default is 0 (STANDARD)
MIDNIGHT_MODE_NAME = {0: "STANDARD", 1: "JAFARI"}
RULE_BY_NUMBER = {0: "none", 1: "middleOfNight", 2: "seventhOfNight", 3: "twilightAngle"}
RULE_NAME = {"none": "NONE", "middleOfNight": "MIDDLE_OF_THE_NIGHT", "seventhOfNight": "ONE_SEVENTH",
             "twilightAngle": "ANGLE_BASED", "moonsightingSeasonal": "ANGLE_BASED"}
SCHOOL_BY_NUMBER = {0: "standard", 1: "hanafi"}
SCHOOL_NAME = {0: "STANDARD", 1: "HANAFI"}
ALADHAN_CALENDARS = ("HJCoSA", "UAQ", "DIYANET", "MATHEMATICAL")  # -> the default Shia reckoning
# Aladhan's clock for a day's DateTime (its "timestamp"): 07:00 local for /timings, 09:01:01 for calendars.
TIMINGS_CLOCK, CALENDAR_CLOCK = (7, 0, 0), (9, 1, 1)
DAY_FORMAT = "DD-MM-YYYY"
HIJRI_DESIGNATION = {"abbreviated": "AH", "expanded": "Anno Hegirae"}  # Aladhan's fixed tokens
GREGORIAN_DESIGNATION = {"abbreviated": "AD", "expanded": "Anno Domini"}
_DMY = re.compile(r"(\d{1,2})-(\d{1,2})-(\d{4})", re.ASCII)
_TIMESTAMP = re.compile(r"\d{1,11}", re.ASCII)
_METHOD_SETTING = re.compile(r"\s*(null|[0-9]+(?:\.[0-9]+)?)\s*(min)?\s*", re.ASCII | re.IGNORECASE)
ALADHAN_NAME = {"lat": "latitude", "lng": "longitude", "tz": "timezonestring", "asr": "school",
                "midnight": "midnightMode", "highLatitudeRule": "latitudeAdjustmentMethod", "offset": "adjustment",
                "calendar": "calendarMethod", "fajrAngle": "methodSettings", "ishaAngle": "methodSettings",
                "ishaInterval": "methodSettings", "maghribAngle": "methodSettings",
                "maghribInterval": "methodSettings", "hy": "year", "hm": "month", "hd": "date"}
GREGORIAN_MONTHS_EN = glossary.sequence("gregorian_month")["en"]


class CompatError(Exception):
    """An answer in Aladhan's error shape: ``{"code": 400, "status": "BAD_REQUEST", "data": message}``."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code, self.message = code, message

    def body(self) -> bytes:
        return envelope_error(self.code, self.message)


STATUS_NAMES = {400: "BAD_REQUEST", 404: "NOT_FOUND", 503: "SERVICE_UNAVAILABLE"}


def envelope_error(code: int, message: str) -> bytes:
    """Aladhan's error shape: ``{"code": 400, "status": "BAD_REQUEST", "data": "<message>"}``."""
    return dumps({"code": code, "status": STATUS_NAMES[code], "data": message})


@dataclass(frozen=True)
class Call:
    """One checked request: its cache key, whether it follows today, the cost model's view, and its render."""

    name: str
    key: tuple
    today_dependent: bool
    cost_params: dict
    render: Callable[[], bytes]


def envelope(data: Any) -> bytes:
    return dumps({"code": 200, "status": "OK", "data": data})


# --- Aladhan's parameters, each declared once ----------------------------------------------------

def _read_method(query: Query, name: str) -> str | int | None:
    raw = query.raw(name)
    if raw is None:
        return None
    raw = raw.strip()
    if re.fullmatch(r"\d{1,3}", raw):
        number = int(raw)
        if number in METHOD_BY_NUMBER or number == CUSTOM_NUMBER:
            return number
        known = ", ".join(f"{n} ({m})" for n, m in METHOD_BY_NUMBER.items())
        raise QueryError(name, f"Aladhan method {number} has no preset here; use one of {known}, or 99 with "
                               "methodSettings")
    if raw in METHODS:  # this service's own presets by name (e.g. ImamAliFoundation): an extension
        return raw
    raise QueryError(name, f"must be an Aladhan method number ({', '.join(map(str, METHOD_BY_NUMBER))}, 99) "
                           f"or a preset id of /v1/methods")


def _read_flag(query: Query, name: str) -> bool | None:
    raw = query.raw(name)
    if raw is None:
        return None
    if raw.lower() in ("true", "1"):
        return True
    if raw.lower() in ("false", "0", ""):
        return False
    raise QueryError(name, "must be true or false")


def _read_calendar(query: Query, name: str) -> str | None:
    raw = query.raw(name)
    if raw is None:
        return None
    by_folded = {c.casefold(): c for c in hijri.CALENDARS}
    if raw.casefold() in by_folded:
        return by_folded[raw.casefold()]
    if raw.upper() in (c.upper() for c in ALADHAN_CALENDARS):
        return hijri.DEFAULT_CALENDAR
    raise QueryError(name, f"must be one of {', '.join(hijri.CALENDARS)} (Aladhan's "
                           f"{', '.join(ALADHAN_CALENDARS)} mean {hijri.DEFAULT_CALENDAR} here)")


def _read_tune(query: Query, name: str) -> str | None:
    """Aladhan's positional tune (imsak,fajr,sunrise,dhuhr,asr,maghrib,sunset,isha,midnight) as the native
    ``name:minutes`` list; a missing or empty place is 0, as Aladhan's intval."""
    raw = query.string(name, max_chars=120)
    if raw is None or not raw.strip():
        return None
    parts = raw.split(",")
    if len(parts) > len(TUNE_ORDER):
        raise QueryError(name, f"at most {len(TUNE_ORDER)} comma-separated minutes: {','.join(TUNE_ORDER)}")
    pairs = []
    for time_name, part in zip(TUNE_ORDER, parts):
        part = part.strip() or "0"
        if not re.fullmatch(r"[+-]?\d{1,4}", part, re.ASCII):
            raise QueryError(name, f"{time_name}: must be whole minutes (order {','.join(TUNE_ORDER)})")
        pairs.append(f"{time_name}:{int(part)}")
    return ",".join(pairs)


LATITUDE = P.number("latitude", -90, 90, "Latitude, decimal degrees.")
LONGITUDE = P.number("longitude", -180, 180, "Longitude, decimal degrees east.")
METHOD = P.custom("method", {"type": ["integer", "string"]}, _read_method, "Aladhan's method number, or a preset id.")
METHOD_SETTINGS = P.text("methodSettings", 60, "method=99: fajr,maghrib,isha (angles, 'N min' or null).")
SCHOOL = P.integer_choice("school", (0, 1), "0 Shafi (standard), 1 Hanafi.", default=0)
MIDNIGHT_MODE = P.integer_choice("midnightMode", (0, 1), "0 sunset to sunrise, 1 sunset to fajr (Jafari).",
                                 default=0)
LATITUDE_ADJUSTMENT = P.integer_choice("latitudeAdjustmentMethod", (0, 1, 2, 3),
                                       "0 none, 1 middle of the night, 2 one seventh, 3 angle based.")
TUNE = P.custom("tune", {"type": "string"}, _read_tune, "Minutes for imsak,fajr,sunrise,dhuhr,asr,maghrib,sunset,isha,midnight.")
TIMEZONE = P.text("timezonestring", 64, "An IANA zone (default: the zone at the coordinates).")
ISO8601 = P.custom("iso8601", {"type": "boolean"}, _read_flag, "Times as ISO 8601 with the zone's offset.")
ADJUSTMENT = P.integer("adjustment", -2, 2, "Days added to the Hijri date.")
CALENDAR_METHOD = P.custom("calendarMethod", {"type": "string"}, _read_calendar, "The Hijri reckoning.")
SHAFAQ = P.choice("shafaq", ("general",), "Aladhan's shafaq for method 15: only general here.")
ANNUAL = P.custom("annual", {"type": "boolean"}, _read_flag, "The whole year.")
YEAR = P.integer("year", 1900, 2100, "Gregorian year.")
MONTH = P.integer("month", 1, 12, "Gregorian month.")
HIJRI_YEAR = P.integer("year", hijri.API_FIRST_YEAR, hijri.API_LAST_YEAR, "Hijri year.")
HIJRI_MONTH = P.integer("month", 1, 12, "Hijri month.")
CITY = P.text("city", 64, "A city of this service's catalogue, by name.", required=True)
COUNTRY = P.text("country", 64, "The city's country: an ISO 3166 alpha-2 code checks it; a name is ignored.")
STATE = P.text("state", 64, "Accepted and ignored (the catalogue has one city by a name in a country).")
GEOCODER_KEY = P.text("x7xapikey", 200, "Accepted and ignored (no geocoding here).")
DATE = P.text("date", 10, "A date DD-MM-YYYY.")

TIME_OPTIONS = (METHOD, METHOD_SETTINGS, SCHOOL, MIDNIGHT_MODE, LATITUDE_ADJUSTMENT, TUNE, TIMEZONE, ISO8601,
                ADJUSTMENT, CALENDAR_METHOD, SHAFAQ)
AT_COORDINATES = (LATITUDE, LONGITUDE)
AT_CITY = (CITY, COUNTRY, STATE, GEOCODER_KEY)


# --- reading a request ---------------------------------------------------------------------------

def parse(path: str, items: Iterable[tuple[str, str]], now_s: float) -> Call:
    """Check a request to the door (``path`` after PREFIX, e.g. ``timings/28-11-2026``); CompatError if bad."""
    items = list(items)
    parts = [part for part in path.strip("/").split("/")]
    name, arguments = parts[0], parts[1:]
    handler = HANDLERS.get(name)
    if handler is None:
        raise CompatError(404, f"no such endpoint here: {name[:40]}; this door answers {', '.join(HANDLERS)}")
    try:
        return handler(arguments, items, now_s)
    except QueryError as error:
        raise CompatError(400, str(error)) from None


def _native_parse(name: str, items: list, now_s: float):
    """The native endpoint's check of a query the door built; its error names Aladhan's parameter."""
    try:
        return BY_NAME[name].parse(Query(items), now_s)
    except QueryError as error:
        raise QueryError(ALADHAN_NAME.get(error.parameter, error.parameter), error.message) from None


def _values(items: list, parameters: tuple) -> P.Values:
    return P.read(Query(items), parameters)


def _day(text: str, name: str) -> date:
    match = _DMY.fullmatch(text)
    try:
        if match is None:
            raise ValueError
        day, month, year = (int(g) for g in match.groups())
        return date(year, month, day)
    except ValueError:
        raise QueryError(name, f"must be a date {DAY_FORMAT}") from None


def _arguments(arguments: list, most: int, form: str) -> None:
    if len(arguments) > most:
        raise CompatError(404, f"no such path; the form is {form}")


@dataclass(frozen=True)
class Times:
    """The native prayer-times query a door request becomes, and what the Aladhan answer echoes."""

    native: dict  # native query items (names and strings), without the span
    method_number: int | str
    school: int
    midnight_mode: int
    rule: str | None
    tune: dict
    iso8601: bool
    calendar: str
    offset: int


def _times(values: P.Values) -> Times:
    native: dict = {}
    method = values["method"]
    if method is None:
        method = NUMBER_BY_METHOD.get(_default_method(), _default_method())
    if method == CUSTOM_NUMBER:
        native["method"] = "custom"
        native.update(_method_settings(values["methodSettings"]))
    else:
        if values["methodSettings"] is not None:
            raise QueryError("methodSettings", "applies only with method=99")
        native["method"] = METHOD_BY_NUMBER.get(method, method)
    native["asr"] = SCHOOL_BY_NUMBER[values["school"]]
    native["midnight"] = MIDNIGHT_BY_MODE[values["midnightMode"]]
    rule = values["latitudeAdjustmentMethod"]
    if rule is not None:
        native["highLatitudeRule"] = RULE_BY_NUMBER[rule]
    if values["tune"]:
        native["tune"] = values["tune"]
    if values["timezonestring"] is not None:
        native["tz"] = values["timezonestring"]
    else:
        native["tz"] = "auto"  # Aladhan: the zone at the coordinates
    tune = {pair.split(":")[0]: int(pair.split(":")[1]) for pair in (values["tune"] or "").split(",") if pair}
    return Times(native, method, values["school"], values["midnightMode"],
                 None if rule is None else RULE_BY_NUMBER[rule], tune, bool(values["iso8601"]),
                 values["calendarMethod"] or hijri.DEFAULT_CALENDAR, values["adjustment"] or 0)


def _default_method() -> str:
    return next(m.id for m in METHODS.values() if m.default)


def _method_settings(raw: str | None) -> dict:
    """Aladhan's ``methodSettings=fajr,maghrib,isha`` (an angle, ``N min`` or null each) as native custom angles."""
    if raw is None:
        raise QueryError("methodSettings", "required with method=99: fajr,maghrib,isha, e.g. 18.5,null,90 min")
    parts = raw.split(",")
    if len(parts) != 3:
        raise QueryError("methodSettings", "must be three comma-separated values fajr,maghrib,isha, e.g. 18.5,null,90 min")
    read = []
    for part in parts:
        match = _METHOD_SETTING.fullmatch(part)
        if match is None:
            raise QueryError("methodSettings", "each value an angle, 'N min' or null, e.g. 18.5,null,90 min")
        read.append(None if match.group(1).lower() == "null" else (match.group(1), bool(match.group(2))))
    fajr, maghrib, isha = read
    if fajr is None or fajr[1]:
        raise QueryError("methodSettings", "the fajr value must be an angle in degrees")
    out = {"fajrAngle": fajr[0]}
    if maghrib is not None:
        out["maghribInterval" if maghrib[1] else "maghribAngle"] = maghrib[0]
    if isha is None:
        raise QueryError("methodSettings", "the isha value must be an angle or 'N min'")
    out["ishaInterval" if isha[1] else "ishaAngle"] = isha[0]
    return out


def _native_times(times: Times, place_items: dict, span: dict, now_s: float):
    """Check the native /v1/prayer-times query (a QueryError names a native parameter, mapped by `parse`)."""
    query = {**place_items, **times.native, **span}
    return _native_parse("prayer-times", [(k, str(v)) for k, v in query.items()], now_s)


def _place_of_coordinates(values: P.Values) -> dict:
    if values["latitude"] is None or values["longitude"] is None:
        missing = "latitude" if values["latitude"] is None else "longitude"
        raise QueryError(missing, "required: give latitude and longitude (decimal degrees)")
    return {"lat": values["latitude"], "lng": values["longitude"]}


def _place_of_city(values: P.Values) -> dict:
    """A catalogue city by name (any of its languages), its country checked when given as a 2-letter code."""
    text = city_search.fold(values["city"])
    found = city_search.search(text) if city_search.has_letters(text) else []
    country = (values["country"] or "").strip()
    if len(country) == 2:
        found = [c for c in found if c["country"].upper() == country.upper()]
    if not found:
        raise QueryError("city", f"not in this service's catalogue of {len(cities.load())} cities (search it with "
                                 "/v1/cities?q=); use timings or calendar with latitude and longitude")
    return {"city": found[0]["id"]}


def _zone(place_items: dict, times: Times) -> str:
    """The zone the native answer will use (for a Unix timestamp in the path)."""
    values = {"city": place_items.get("city"), "lat": place_items.get("lat"), "lng": place_items.get("lng"),
              "tz": times.native["tz"]}
    return place(values, with_tz=True)["tz"]


# --- the endpoints -------------------------------------------------------------------------------

def _timings(by_city: bool):
    def handler(arguments: list, items: list, now_s: float) -> Call:
        _arguments(arguments, 1, "timings/DD-MM-YYYY or a Unix timestamp")
        values = _values(items, (*(AT_CITY if by_city else AT_COORDINATES), *TIME_OPTIONS))
        place_items = _place_of_city(values) if by_city else _place_of_coordinates(values)
        times = _times(values)
        span: dict = {}
        if arguments and arguments[0]:
            if _TIMESTAMP.fullmatch(arguments[0]):
                zone = ZoneInfo(_zone(place_items, times))
                span["date"] = datetime.fromtimestamp(int(arguments[0]), zone).date().isoformat()
            else:
                span["date"] = _day(arguments[0], "date").isoformat()
        canonical = _native_times(times, place_items, span, now_s)
        day = date.fromisoformat(canonical.params["date"])
        hijri_days = _hijri_plan([day], times, now_s)
        render_times = _render_of("prayer-times", canonical.params)

        def render() -> bytes:
            native = orjson.loads(render_times())
            return envelope(_day_item(native["days"][0], native["meta"], times, hijri_days(), TIMINGS_CLOCK,
                                      calendar_style=False))

        return Call("compat-timings", ("timings", tuple(canonical.params.items()), times.calendar, times.offset,
                                       times.iso8601, _times_echo(times)),
                    canonical.today_dependent, dict(canonical.params), render)
    return handler


def _calendar(by_city: bool):
    def handler(arguments: list, items: list, now_s: float) -> Call:
        _arguments(arguments, 2, "calendar/YYYY/MM or calendar/YYYY")
        path_year = _path_int(arguments, 0, "year")
        path_month = _path_int(arguments, 1, "month")
        parameters = (*(AT_CITY if by_city else AT_COORDINATES), *TIME_OPTIONS, ANNUAL)
        if path_year is None:
            parameters += (YEAR, MONTH)
        values = _values(items, parameters)
        place_items = _place_of_city(values) if by_city else _place_of_coordinates(values)
        times = _times(values)
        year = path_year if path_year is not None else values.get("year")
        month = path_month if path_year is not None else values.get("month")
        annual = bool(values["annual"]) or (path_year is not None and path_month is None)
        if year is None:
            raise QueryError("year", "required: calendar/YYYY/MM, or year and month")
        if not 1900 <= year <= 2100:
            raise QueryError("year", "must be a whole number from 1900 to 2100")
        if annual:
            span = {"year": year}
        else:
            if month is None:
                raise QueryError("month", "required: a whole number from 1 to 12 (or annual=true)")
            span = {"year": year, "month": month}
        canonical = _native_times(times, place_items, span, now_s)
        first = date(year, 1 if annual else month, 1)  # annual: the whole year, whatever month the path names
        last = date(year, 12, 31) if annual else date(year, month, gregorian_calendar.monthrange(year, month)[1])
        hijri_days = _hijri_plan(_dates(first, last), times, now_s)
        render_times = _render_of("prayer-times", canonical.params)

        def render() -> bytes:
            native = orjson.loads(render_times())
            known = hijri_days()
            days = [_day_item(d, native["meta"], times, known, CALENDAR_CLOCK, calendar_style=True)
                    for d in native["days"]]
            if not annual:
                return envelope(days)
            by_month: dict[str, list] = {}
            for item, d in zip(days, native["days"]):
                by_month.setdefault(str(int(d["date"][5:7])), []).append(item)
            return envelope(by_month)

        return Call("compat-calendar", ("calendar", tuple(canonical.params.items()), times.calendar, times.offset,
                                        times.iso8601, _times_echo(times)),
                    False, dict(canonical.params), render)
    return handler


def _hijri_calendar(arguments: list, items: list, now_s: float) -> Call:
    """Prayer times of a Hijri month (its Gregorian days from the native reverse month map)."""
    _arguments(arguments, 2, "hijriCalendar/YYYY/MM (a Hijri year and month)")
    path_year = _path_int(arguments, 0, "year")
    path_month = _path_int(arguments, 1, "month")
    parameters = (*AT_COORDINATES, *TIME_OPTIONS)
    if path_year is None:
        parameters += (HIJRI_YEAR, HIJRI_MONTH)
    values = _values(items, parameters)
    place_items = _place_of_coordinates(values)
    times = _times(values)
    if times.offset:
        raise QueryError("adjustment", "applies to Gregorian calendars and gToH only")
    hy = path_year if path_year is not None else values.get("year")
    hm = path_month if path_year is not None else values.get("month")
    if hy is None or hm is None:
        raise QueryError("year" if hy is None else "month", "required: hijriCalendar/YYYY/MM (Hijri year and month)")
    reverse = _native_parse("hijri", [("hy", str(hy)), ("hm", str(hm)), ("calendar", times.calendar)], now_s)
    month_map = orjson.loads(BY_NAME["hijri"].render(reverse.params))
    first, last = date.fromisoformat(month_map["start"]), date.fromisoformat(month_map["end"])
    spans = sorted({(d.year, d.month) for d in (first, last)})
    canonicals = [_native_times(times, place_items, {"year": y, "month": m}, now_s) for y, m in spans]
    hijri_days = _hijri_plan(_dates(first, last), times, now_s)
    renders = [_render_of("prayer-times", c.params) for c in canonicals]

    def render() -> bytes:
        known = hijri_days()
        out = []
        for render_times in renders:
            native = orjson.loads(render_times())
            out += [_day_item(d, native["meta"], times, known, CALENDAR_CLOCK, calendar_style=True)
                    for d in native["days"] if first.isoformat() <= d["date"] <= last.isoformat()]
        return envelope(out)

    return Call("compat-hijriCalendar", ("hijriCalendar", tuple(canonicals[0].params.items()), hy, hm, times.calendar,
                                         times.iso8601, _times_echo(times)),
                False, {**canonicals[0].params}, render)


def _g_to_h(arguments: list, items: list, now_s: float) -> Call:
    _arguments(arguments, 1, "gToH/DD-MM-YYYY")
    parameters = (ADJUSTMENT, CALENDAR_METHOD) + (() if arguments else (DATE,))
    values = _values(items, parameters)
    text = arguments[0] if arguments else values.get("date")
    day = _day(text, "date") if text else datetime.fromtimestamp(now_s, timezone.utc).date()
    times = Times({}, 0, 0, 0, None, {}, False, values["calendarMethod"] or hijri.DEFAULT_CALENDAR,
                  values["adjustment"] or 0)
    hijri_days = _hijri_plan([day], times, now_s)

    def render() -> bytes:
        h = hijri_days()[day.isoformat()]
        return envelope({"hijri": _hijri_block(h, times, day), "gregorian": _gregorian_block(day)})

    return Call("compat-gToH", ("gToH", day.isoformat(), times.calendar, times.offset), not text,
                {"date": day.isoformat()}, render)


def _h_to_g(arguments: list, items: list, now_s: float) -> Call:
    _arguments(arguments, 1, "hToG/DD-MM-YYYY (a Hijri date)")
    values = _values(items, (CALENDAR_METHOD,) + (() if arguments else (DATE,)))
    text = arguments[0] if arguments else values.get("date")
    if not text:
        raise QueryError("date", f"required: a Hijri date {DAY_FORMAT}")
    match = _DMY.fullmatch(text)
    if match is None:
        raise QueryError("date", f"must be a Hijri date {DAY_FORMAT}")
    hd, hm, hy = (int(g) for g in match.groups())
    calendar = values["calendarMethod"] or hijri.DEFAULT_CALENDAR
    if not hijri.API_FIRST_YEAR <= hy <= hijri.API_LAST_YEAR:
        raise QueryError("date", f"the Hijri year must be from {hijri.API_FIRST_YEAR} to {hijri.API_LAST_YEAR}")
    if not 1 <= hm <= 12:
        raise QueryError("date", "the Hijri month must be from 1 to 12")
    native = _native_parse("hijri", [("hy", str(hy)), ("hm", str(hm)), ("hd", str(hd)), ("calendar", calendar)],
                           now_s)
    times = Times({}, 0, 0, 0, None, {}, False, calendar, 0)
    # The Gregorian day is needed to check the rest (a Hijri date of 1317 can fall in 1899): one quick render.
    day = date.fromisoformat(orjson.loads(BY_NAME["hijri"].render(native.params))["gregorian"])
    if not 1900 <= day.year <= 2100:
        raise QueryError("date", "falls outside the Gregorian years 1900 to 2100")
    hijri_days = _hijri_plan([day], times, now_s)

    def render() -> bytes:
        h = hijri_days()[day.isoformat()]
        return envelope({"hijri": _hijri_block(h, times, day), "gregorian": _gregorian_block(day)})

    return Call("compat-hToG", ("hToG", hy, hm, hd, calendar), False, {"date": f"{hy}-{hm}-{hd}"}, render)


def _methods(arguments: list, items: list, now_s: float) -> Call:
    _arguments(arguments, 0, "methods")
    _values(items, ())

    def render() -> bytes:
        data = {ALADHAN_KEY[number]: _method_meta(number, None) for number in METHOD_BY_NUMBER}
        data["CUSTOM"] = {"id": CUSTOM_NUMBER}
        return envelope(data)

    return Call("compat-methods", ("methods",), False, {}, render)


def _path_int(arguments: list, index: int, name: str) -> int | None:
    if len(arguments) <= index or arguments[index] == "":
        return None
    if not re.fullmatch(r"\d{1,4}", arguments[index], re.ASCII):
        raise QueryError(name, "must be a whole number in the path")
    return int(arguments[index])


HANDLERS = {
    "timings": _timings(by_city=False),
    "timingsByCity": _timings(by_city=True),
    "calendar": _calendar(by_city=False),
    "calendarByCity": _calendar(by_city=True),
    "hijriCalendar": _hijri_calendar,
    "gToH": _g_to_h,
    "hToG": _h_to_g,
    "methods": _methods,
}


# --- native answers read back ---------------------------------------------------------------------

def _render_of(name: str, params: dict) -> Callable[[], bytes]:
    endpoint = BY_NAME[name]
    return lambda: endpoint.render(params)


def _dates(first: date, last: date) -> list[date]:
    return [first + timedelta(days=k) for k in range((last - first).days + 1)]


def _hijri_plan(days: list[date], times: Times, now_s: float) -> Callable[[], dict]:
    """Check now, render later: the native Hijri month maps of ``days`` (with Aladhan's ``adjustment`` as the
    native ``offset``) and the native events of their Hijri years, as {iso day: Hijri facts}."""
    months = sorted({(d.year, d.month) for d in days})
    maps = [_native_parse("hijri", [("year", str(y)), ("month", str(m)), ("calendar", times.calendar),
                                    ("offset", str(times.offset))], now_s) for y, m in months]
    # A day's holidays are the events on the Gregorian day whose unshifted Hijri date it shows.
    shifted = [d + timedelta(days=times.offset) for d in (days[0], days[-1])]
    hijri_years = range(_hijri_year(shifted[0], times.calendar), _hijri_year(shifted[1], times.calendar) + 1)
    event_queries = [_native_parse("events", [("hy", str(hy)), ("calendar", times.calendar)], now_s)
                     for hy in hijri_years if hijri.API_FIRST_YEAR <= hy <= hijri.API_LAST_YEAR]
    wanted = {d.isoformat() for d in days}

    def facts() -> dict:
        holidays: dict[str, list[str]] = {}
        for query in event_queries:
            for event in orjson.loads(BY_NAME["events"].render(query.params))["events"]:
                if event["gregorian"] is not None:
                    holidays.setdefault(event["gregorian"], []).append(event["title"]["en"])
        out = {}
        for query in maps:
            month_map = orjson.loads(BY_NAME["hijri"].render(query.params))
            info = {(m["year"], m["month"]): m for m in month_map["months"]}
            for iso, h in month_map["days"].items():
                if iso in wanted:
                    shown = (date.fromisoformat(iso) + timedelta(days=times.offset)).isoformat()
                    month = info[(h["year"], h["month"])]
                    out[iso] = {**h, "monthLength": month["monthLength"], "source": month["source"],
                                "holidays": holidays.get(shown, [])}
        return out

    return facts


def _hijri_year(day: date, calendar: str) -> int:
    return int(hijri.to_hijri(unix_days.unix_day(day), calendar).year)


def _hijri_block(h: dict, times: Times, day: date) -> dict:
    weekday = hijri_names.weekday_names(day.weekday())
    return {
        "date": f"{h['day']:02d}-{h['month']:02d}-{h['year']}",
        "format": DAY_FORMAT,
        "day": str(h["day"]),
        "weekday": {"en": weekday["en"], "ar": weekday["ar"]},
        "month": {"number": h["month"], "en": hijri_names.month_names(h["month"])["en"],
                  "ar": hijri_names.month_names(h["month"])["ar"], "days": h["monthLength"]},
        "year": str(h["year"]),
        "designation": dict(HIJRI_DESIGNATION),
        "holidays": list(h["holidays"]),
        "adjustedHolidays": [],
        "method": times.calendar,
        "source": h["source"],  # an extension: announced (table) or computed
    }


def _gregorian_block(day: date) -> dict:
    return {
        "date": day.strftime("%d-%m-%Y"),
        "format": DAY_FORMAT,
        "day": f"{day.day:02d}",
        "weekday": {"en": hijri_names.weekday_names(day.weekday())["en"]},
        "month": {"number": day.month, "en": GREGORIAN_MONTHS_EN[day.month - 1]},
        "year": str(day.year),
        "designation": dict(GREGORIAN_DESIGNATION),
        "lunarSighting": False,
    }


def _date_block(day: date, zone: ZoneInfo, clock: tuple[int, int, int], h: dict, times: Times) -> dict:
    moment = datetime(day.year, day.month, day.day, *clock, tzinfo=zone)
    hijri_block = _hijri_block(h, times, day)
    return {"readable": f"{day.day:02d} {GREGORIAN_MONTHS_EN[day.month - 1][:3]} {day.year}",
            "timestamp": str(int(moment.timestamp())),
            "hijri": hijri_block, "gregorian": _gregorian_block(day)}


def _day_item(native_day: dict, native_meta: dict, times: Times, known: dict, clock, *, calendar_style: bool) -> dict:
    """One native day as Aladhan's {timings, date, meta}."""
    zone = ZoneInfo(native_meta["tz"])
    day = date.fromisoformat(native_day["date"])
    timings = {}
    for key, name in TIMINGS:
        if name not in native_day:
            continue
        instant = native_day[name]
        if instant is None:
            timings[key] = INVALID_TIME
            continue
        moment = datetime.fromisoformat(instant.replace("Z", "+00:00")).astimezone(zone)
        if times.iso8601:
            timings[key] = moment.isoformat()
        elif calendar_style:  # Aladhan's calendars: "05:34 (+0330)", the zone's abbreviation on that day
            timings[key] = f"{native_day['local'][name]} ({moment.tzname()})"
        else:
            timings[key] = native_day["local"][name]
    return {"timings": timings, "date": _date_block(day, zone, clock, known[day.isoformat()], times),
            "meta": _meta(native_meta, times)}


def _meta(native_meta: dict, times: Times) -> dict:
    method = METHODS.get(times.method_number if isinstance(times.method_number, str)
                         else METHOD_BY_NUMBER.get(times.method_number, ""))
    rule = times.rule or (method.high_latitude_rule.value if method is not None else HighLatitudeRule.TWILIGHT_ANGLE.value)
    return {
        "latitude": native_meta["lat"],
        "longitude": native_meta["lng"],
        "timezone": native_meta["tz"],
        "method": _method_meta(times.method_number, times),
        "latitudeAdjustmentMethod": RULE_NAME[rule],
        "midnightMode": MIDNIGHT_MODE_NAME[times.midnight_mode],
        "school": SCHOOL_NAME[times.school],
        "offset": {name.capitalize(): times.tune.get(name, 0) for name in TUNE_ORDER},
    }


def _method_meta(number: int | str, times: Times | None) -> dict:
    """``meta.method``: Aladhan's id, the preset's English name and its parameters (angles; "N min" intervals)."""
    if number == CUSTOM_NUMBER:
        native = times.native if times is not None else {}
        params = {"Fajr": float(native["fajrAngle"])}
        if "maghribAngle" in native:
            params["Maghrib"] = float(native["maghribAngle"])
        elif "maghribInterval" in native:
            params["Maghrib"] = f"{_number(float(native['maghribInterval']))} min"
        params["Isha"] = (float(native["ishaAngle"]) if "ishaAngle" in native
                          else f"{_number(float(native['ishaInterval']))} min")
        return {"id": CUSTOM_NUMBER, "name": "Custom", "params": params}
    method = METHODS[number if isinstance(number, str) else METHOD_BY_NUMBER[number]]
    params: dict = {"Fajr": _number(method.fajr_angle_deg)}
    if method.maghrib_angle_deg is not None:
        params["Maghrib"] = _number(method.maghrib_angle_deg)
    elif method.maghrib_interval_min is not None:
        params["Maghrib"] = f"{_number(method.maghrib_interval_min)} min"
    params["Isha"] = (_number(method.isha_angle_deg) if method.isha_angle_deg is not None
                      else f"{_number(method.isha_interval_min)} min")
    return {"id": number, "name": method.label["en"], "params": params}


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


def _times_echo(times: Times) -> tuple:
    return (times.method_number, times.school, times.midnight_mode, times.rule, tuple(sorted(times.tune.items())))
