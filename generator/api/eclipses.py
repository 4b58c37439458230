"""GET /v1/eclipses: the solar and lunar eclipses of 2020–2040 (SPEC 2.8, 4.8).

Filters: ``kind``, ``type``, ``from``/``to`` (YYYY or YYYY-MM-DD; a bare year as ``to``
means through 31 December), ``upcoming`` (the next N eclipses from today, with
``daysUntil``; not with from/to) and ``calendar`` for the Hijri date.  The eclipses
themselves come from `generator.astronomy.eclipses` (computed from DE440); `meta` and the field
definitions are documented in docs/decisions.md.
"""
from __future__ import annotations

import re
from datetime import date

import numpy as np

from generator.astronomy import eclipses
from generator.calendars import hijri
from generator.places import days
from generator.api import params as P
from generator.api import schemas
from generator.api.common import CALENDAR
from generator.api.endpoint import Canonical, Endpoint, Params
from generator.errors import QueryError
from generator.query import Query
MAX_UPCOMING = 24  # SPEC 8
TYPES_BY_KIND = {"solar": eclipses.SOLAR_TYPES, "lunar": eclipses.LUNAR_TYPES}
_BOUND = re.compile(r"(\d{4})(-\d{2}-\d{2})?", re.ASCII)
COVERAGE = f"{eclipses.FIRST_DATE.isoformat()} to {eclipses.LAST_DATE.isoformat()}"
TIME_SCALE_NOTE = (
    "utc is the instant of greatest eclipse in UTC, rounded to the second; tt is the same instant in "
    "Terrestrial Time (NASA's canons list TD = TT). Delta T = TT - UT1 comes from skyfield's built-in "
    "table, extrapolated after its last observed value."
)
COMPUTATION_NOTE = (
    "Computed from JPL DE440 (skyfield, apparent geocentric positions). Solar: Besselian elements of the "
    "Moon's shadow on the IERS ellipsoid (flattening 1/298.257). Lunar: Earth's shadow enlarged by "
    "Danjon's rule. Definitions follow NASA's Five Millennium Canons (Espenak & Meeus)."
)




def _bound_reader(*, end_of_year: bool):
    """Return a reader of a date given as YYYY or YYYY-MM-DD (a year is its first or last day)."""
    def reader(query: Query, name: str) -> date | None:
        value = query.raw(name)
        if value is None:
            return None
        match = _BOUND.fullmatch(value)
        message = f"must be a year YYYY or a date YYYY-MM-DD within the coverage {COVERAGE}"
        if match is None:
            raise QueryError(name, message)
        try:
            if match.group(2) is None:
                day = date(int(match.group(1)), 12, 31) if end_of_year else date(int(match.group(1)), 1, 1)
            else:
                day = date.fromisoformat(value)
        except ValueError:
            raise QueryError(name, message) from None
        if not eclipses.FIRST_DATE <= day <= eclipses.LAST_DATE:
            raise QueryError(name, message)
        return day

    return reader


_BOUND_SCHEMA = {"type": "string", "pattern": r"^\d{4}(-\d{2}-\d{2})?$"}
PARAMETERS = (
    P.choice("kind", eclipses.KINDS, "Only this kind."),
    P.choice("type", eclipses.TYPES, "Only this type."),
    P.custom("from", _BOUND_SCHEMA, _bound_reader(end_of_year=False), "YYYY or YYYY-MM-DD."),
    P.custom("to", _BOUND_SCHEMA, _bound_reader(end_of_year=True), "YYYY (through its end) or YYYY-MM-DD."),
    P.integer("upcoming", 1, MAX_UPCOMING, "The next N from today (not with from/to)."),
    CALENDAR,
)


def canonical(values, now_unix_s: float) -> Canonical:
    """Apply the rules across parameters of a /v1/eclipses query."""
    kind, kind_type, first, last, upcoming = (values[n] for n in ("kind", "type", "from", "to", "upcoming"))
    if kind is not None and kind_type is not None and kind_type not in TYPES_BY_KIND[kind]:
        raise QueryError("type", f"a {kind} eclipse is one of {', '.join(TYPES_BY_KIND[kind])}")
    if upcoming is not None and (first is not None or last is not None):
        raise QueryError("upcoming", "cannot be combined with from/to")
    if first is not None and last is not None and first > last:
        raise QueryError("from", f"must not be after to ({first.isoformat()} > {last.isoformat()})")

    params: dict = {"calendar": values["calendar"]}
    if kind is not None:
        params["kind"] = kind
    if kind_type is not None:
        params["type"] = kind_type
    if first is not None:
        params["from"] = first.isoformat()
    if last is not None:
        params["to"] = last.isoformat()
    if upcoming is not None:
        params["upcoming"] = upcoming
        params["today"] = days.today(now_unix_s).isoformat()
    return Canonical(params, upcoming is not None)


def select(params: Params) -> list[eclipses.Eclipse]:
    """Return the stored eclipse records that match canonical parameters, in time order."""
    records = [
        r
        for r in eclipses.load()
        if params.get("kind", r.kind) == r.kind and params.get("type", r.type) == r.type
    ]
    if "upcoming" in params:
        today = days.unix_day(params["today"])
        return [r for r in records if r.unix_day >= today][: params["upcoming"]]
    first = days.unix_day(params["from"]) if "from" in params else None
    last = days.unix_day(params["to"]) if "to" in params else None
    return [r for r in records if (first is None or r.unix_day >= first) and (last is None or r.unix_day <= last)]


def build(params: Params) -> dict:
    """Return the /v1/eclipses response for canonical parameters."""
    records = select(params)
    record_days = np.array([r.unix_day for r in records], dtype=np.int64)
    dates = hijri.to_hijri(record_days, params["calendar"]) if len(records) else None
    today = days.unix_day(params["today"]) if "upcoming" in params else None
    items = []
    for i, r in enumerate(records):
        item = _item(r)
        item["hijri"] = {"hy": int(dates.year[i]), "hm": int(dates.month[i]), "hd": int(dates.day[i])}
        if today is not None:
            item["daysUntil"] = int(r.unix_day - today)
        items.append(item)
    return {"meta": _meta(params, records, dates), "eclipses": items}


def _item(r: eclipses.Eclipse) -> dict:
    """Return the SPEC 2.8 fields of one stored record (rounded to the canon's precision)."""
    durations = r.durations_min
    return {
        "kind": r.kind,
        "type": r.type,
        "utc": r.utc,
        "tt": r.tt,
        "gamma": round(r.gamma, 4),
        "magnitude": round(r.magnitude, 4),
        "penumbralMag": round(r.penumbral_mag, 4),
        "durationsMin": {phase: _round(durations[phase], 1) for phase in ("penumbral", "partial", "total")},
        "centralDurationMin": _round(r.central_duration_min, 2),
        "greatest": {
            "lat": round(r.greatest.lat, 2),
            "lon": round(r.greatest.lon, 2),
            "central": r.greatest.central,
        },
    }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _meta(params: Params, records: list[eclipses.Eclipse], dates) -> dict:
    filters = {key: params[key] for key in ("kind", "type", "from", "to", "upcoming") if key in params}
    meta = {
        "coverage": {"from": eclipses.FIRST_DATE.isoformat(), "to": eclipses.LAST_DATE.isoformat()},
        "filters": filters,
        "count": len(records),
        "counts": {kind: sum(r.kind == kind for r in records) for kind in eclipses.KINDS},
        "calendar": params["calendar"],
        "hijriDate": "the UTC date of greatest eclipse",
        "hijriSources": sorted(set(dates.source.tolist())) if dates is not None else [],
        "timeScale": TIME_SCALE_NOTE,
        "computation": COMPUTATION_NOTE,
    }
    if "upcoming" in params:
        meta["today"] = params["today"]
    return meta


ENDPOINT = Endpoint("eclipses", "Solar and lunar eclipses 2020–2040", PARAMETERS, canonical, build,
                    schemas.ECLIPSES, plan=lambda window: [{"calendar": c} for c in hijri.CALENDARS])
