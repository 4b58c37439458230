"""GET /v1/prayer-times: validation into canonical parameters, and the response body."""
from __future__ import annotations

import calendar
from datetime import date

import numpy as np

from generator import days, prayer, qibla, timezones, ummalqura
from generator.api import day_rows, schemas
from generator.api import params as P
from generator.api.common import MONTH, YEAR
from generator.api.dates import gregorian_range
from generator.api.endpoint import Canonical, Endpoint, Params, Window, dumps
from generator.api.location import LAT, LNG, CITY, TZ, coordinates, place
from generator.errors import QueryError
from generator.methods import METHODS, DEFAULT_METHOD, custom_method

MAX_DAY_METHODS = 496  # SPEC 8
CUSTOM = "custom"

METHOD = P.text("method", 400, f"A method id ({', '.join(METHODS)}), a comma list of them, all, or custom. "
                               f"Default {DEFAULT_METHOD}.", example="Jafari")
DATE = P.day("date", "A day (default today in the zone).", example="2026-03-20")
CUSTOM_PARAMETERS = (
    P.number("fajrAngle", 4, 24, "method=custom: fajr depression angle (required)."),
    P.number("ishaAngle", 4, 24, "method=custom: isha angle (or ishaInterval)."),
    P.number("ishaInterval", 0, 180, "method=custom: isha minutes after maghrib."),
    P.number("maghribAngle", 0.5, 12, "method=custom: maghrib depression angle (default sunset)."),
    P.number("maghribInterval", 0, 120, "method=custom: maghrib minutes after sunset."),
)
PARAMETERS = (LAT, LNG, CITY, METHOD, DATE,
              YEAR.but(description="A year (with month: that month; alone: the year, single method)."),
              MONTH, TZ, *CUSTOM_PARAMETERS)


def canonical(values, now_unix_s: float) -> Canonical:
    """Apply the rules across parameters of a /v1/prayer-times query."""
    params = place(values, with_tz=True)
    params["method"] = read_methods(values["method"])
    custom = {p.name: values[p.name] for p in CUSTOM_PARAMETERS if values[p.name] is not None}
    if params["method"] == CUSTOM:
        _check_custom(custom)
        params.update(custom)
    elif custom:
        raise QueryError(next(iter(custom)), "custom angles apply only with method=custom")

    span, today_dependent = gregorian_range(
        values["date"], values["year"], values["month"], lambda: days.today(now_unix_s, params.get("tz", "UTC")))
    params.update(span)

    n_methods = len(params["method"].split(","))
    first, n_days = day_range(params)
    if "month" not in params and "year" in params and n_methods > 1:
        raise QueryError("method", "a whole year (year without month) takes a single method")
    if n_days * n_methods > MAX_DAY_METHODS:
        raise QueryError("method", f"days × methods is {n_days * n_methods}; at most {MAX_DAY_METHODS}")
    return Canonical(params, today_dependent)


def read_methods(raw: str | None) -> str:
    """Return the canonical ``method``: sorted ids joined by commas, or ``custom``."""
    if raw is None:
        return DEFAULT_METHOD
    if raw == "all":
        return ",".join(sorted(METHODS))
    if raw == CUSTOM:
        return CUSTOM
    ids = [part.strip() for part in raw.split(",")]
    for method_id in ids:
        if method_id == CUSTOM:
            raise QueryError("method", "custom cannot be combined with other methods")
        if method_id not in METHODS:
            raise QueryError("method", f"unknown method {method_id[:40]!r}; one of {', '.join(METHODS)}, all, custom")
    return ",".join(sorted(set(ids)))


def _check_custom(custom: dict) -> None:
    if "fajrAngle" not in custom:
        raise QueryError("fajrAngle", "required with method=custom (degrees, 4 to 24)")
    if ("ishaAngle" in custom) == ("ishaInterval" in custom):
        raise QueryError("ishaAngle", "method=custom takes exactly one of ishaAngle (4 to 24) or ishaInterval (0 to 180)")
    if "maghribAngle" in custom and "maghribInterval" in custom:
        raise QueryError("maghribAngle", "give at most one of maghribAngle or maghribInterval")


def day_range(params: Params) -> tuple[int, int]:
    """Return (first day as a unix day, number of days) of canonical params."""
    if "date" in params:
        return days.unix_day(params["date"]), 1
    year = params["year"]
    if "month" in params:
        return days.unix_day(date(year, params["month"], 1)), calendar.monthrange(year, params["month"])[1]
    return days.unix_day(date(year, 1, 1)), 366 if calendar.isleap(year) else 365


def methods_of(params: Params):
    """Return the Method objects canonical params name (a custom one built from its angles)."""
    if params["method"] == CUSTOM:
        return [
            custom_method(
                fajr_angle_deg=params["fajrAngle"],
                isha_angle_deg=params.get("ishaAngle"),
                isha_interval_min=params.get("ishaInterval"),
                maghrib_angle_deg=params.get("maghribAngle"),
                maghrib_interval_min=params.get("maghribInterval"),
            )
        ]
    return [METHODS[m] for m in params["method"].split(",")]


def times_for(lat: float, lng: float, first: int, n_days: int, methods) -> prayer.PrayerTimes:
    """Return the times of ``n_days`` from ``first`` (a unix day), Ramadan known for UmmAlQura."""
    ramadan = ummalqura.is_ramadan(first + np.arange(n_days + 1))
    return prayer.compute(lat, lng, first, n_days, methods, ramadan)


def build(params: Params) -> bytes:
    """Return the /v1/prayer-times response body for canonical parameters."""
    methods = methods_of(params)
    first, n_days = day_range(params)
    lat, lng = coordinates(params)
    result = times_for(lat, lng, first, n_days, methods)

    meta = {"lat": lat, "lng": lng}
    if "city" in params:
        meta["city"] = params["city"]
    meta["tz"] = params.get("tz", "UTC")
    meta["qibla"] = round(float(qibla.bearing_deg(lat, lng)), 2)

    names = prayer.OUTPUT_TIMES
    instants = np.stack([result.times[name] for name in names], axis=-1).reshape(-1, len(names))  # (methods·days, 9)
    offsets = timezones.utc_offsets_s(params["tz"], instants) if "tz" in params else None
    dates = np.tile(first + np.arange(n_days), len(methods))
    rows = day_rows.rows_json(names, dates, instants, offsets)
    for i in np.flatnonzero(result.latitude_used_deg != lat):  # polar days: say which latitude was used
        note = dumps({"rule": "nearestLatitude", "latitude": float(result.latitude_used_deg[i])})
        for r in range(i, len(rows), n_days):
            rows[r] = rows[r][:-1] + b',"polar":' + note + b"}"
    blocks = [b"[" + b",".join(rows[k * n_days : (k + 1) * n_days]) + b"]" for k in range(len(methods))]
    head = b'{"meta":' + dumps(meta)
    if len(methods) == 1:
        return head + b',"days":' + blocks[0] + b"}"
    results = [b'{"method":' + dumps(m.id) + b',"days":' + block + b"}" for m, block in zip(methods, blocks)]
    return head + b',"results":[' + b",".join(results) + b"]}"


def plan(window: Window):
    """A year of the default method for every catalogue city."""
    return [{"city": city, "year": str(year)} for city in window.city_ids for year in window.years]


ENDPOINT = Endpoint(
    "prayer-times", "Prayer times for a place: one day, a month or a year; one or several methods, or custom angles",
    PARAMETERS, canonical, build, schemas.json_response(schemas.PRAYER_TIMES), plan=plan)
