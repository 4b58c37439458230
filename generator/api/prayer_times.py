"""GET /v1/prayer-times: validation into canonical parameters, and the response body."""
from __future__ import annotations

import calendar
from datetime import date

import numpy as np

from generator import prayer, qibla, timezones, ummalqura
from generator.api import day_rows
from generator.api.dates import gregorian_range
from generator.api.endpoint import Canonical, Endpoint, Params, dumps, register
from generator.api.location import coordinates, read_place
from generator.errors import QueryError
from generator.methods import METHODS, DEFAULT_METHOD, custom_method, resolve as resolve_method
from generator.query import Query

MAX_DAY_METHODS = 496  # SPEC 8
CUSTOM = "custom"
CUSTOM_PARAMETERS = {  # query name -> (canonical key, low, high)
    "fajrAngle": ("fajrAngle", 4, 24),
    "ishaAngle": ("ishaAngle", 4, 24),
    "ishaInterval": ("ishaInterval", 0, 180),
    "maghribAngle": ("maghribAngle", 0.5, 12),
    "maghribInterval": ("maghribInterval", 0, 120),
}


def parse(query: Query, now_unix_s: float) -> Canonical:
    """Validate a /v1/prayer-times query into canonical parameters."""
    params = read_place(query, with_tz=True)
    params["method"] = _read_methods(query)
    custom = {key: query.number(name, low, high) for name, (key, low, high) in CUSTOM_PARAMETERS.items()}
    custom = {key: value for key, value in custom.items() if value is not None}
    if params["method"] == CUSTOM:
        _check_custom(custom)
        params.update(custom)
    elif custom:
        raise QueryError(next(iter(custom)), "custom angles apply only with method=custom")

    day = query.date("date")
    year = query.integer("year", 1900, 2100)
    month = query.integer("month", 1, 12)
    query.finish()
    span, today_dependent = gregorian_range(
        day, year, month, lambda: timezones.local_date_today(params.get("tz", "UTC"), now_unix_s).item())
    params.update(span)

    n_methods = len(params["method"].split(","))
    first, n_days = day_range(params)
    if "month" not in params and "year" in params and n_methods > 1:
        raise QueryError("method", "a whole year (year without month) takes a single method")
    if n_days * n_methods > MAX_DAY_METHODS:
        raise QueryError("method", f"days × methods is {n_days * n_methods}; at most {MAX_DAY_METHODS}")
    return Canonical(dict(sorted(params.items())), today_dependent)


def _read_methods(query: Query) -> str:
    raw = query.string("method", max_chars=400, default=DEFAULT_METHOD)
    if raw == "all":
        return ",".join(sorted(METHODS))
    if raw == CUSTOM:
        return CUSTOM
    ids = [resolve_method(part.strip()) or part.strip() for part in raw.split(",")]
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
    """Return (first day as days since 1970-01-01, number of days) of canonical params."""
    if "date" in params:
        return int(np.datetime64(params["date"], "D").astype(np.int64)), 1
    year = params["year"]
    if "month" in params:
        first = date(year, params["month"], 1)
        return _unix_day(first), calendar.monthrange(year, params["month"])[1]
    return _unix_day(date(year, 1, 1)), 366 if calendar.isleap(year) else 365


def _unix_day(d: date) -> int:
    return d.toordinal() - 719163


def _methods(params: Params):
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
    """Return the times of ``n_days`` from ``first`` (days since 1970-01-01), Ramadan known for UmmAlQura."""
    ramadan = ummalqura.is_ramadan(first + np.arange(n_days + 1))
    return prayer.compute(lat, lng, first, n_days, methods, ramadan)


def build(params: Params) -> bytes:
    """Return the /v1/prayer-times response body for canonical parameters."""
    methods = _methods(params)
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


ENDPOINT = register(Endpoint("prayer-times", parse, build))
