"""GET /v1/events: list the catalogue, resolve it to a Hijri year, or the next N from today."""
from __future__ import annotations

from datetime import date, datetime, timezone

import numpy as np

from generator import events, hijri
from generator.api.endpoint import Canonical, Endpoint, Params, register
from generator.errors import QueryError
from generator.query import Query

MAX_UPCOMING = 73


def parse(query: Query, now_unix_s: float) -> Canonical:
    params: dict = {}
    params["calendar"] = query.choice("calendar", hijri.CALENDARS, default=hijri.DEFAULT_CALENDAR)
    for name, value in (
        ("hm", query.integer("hm", 1, 12)),
        ("importance", query.choice("importance", events.IMPORTANCE)),
        ("type", query.choice("type", events.TYPES)),
        ("hy", query.integer("hy", hijri.API_FIRST_YEAR, hijri.API_LAST_YEAR)),
        ("upcoming", query.integer("upcoming", 1, MAX_UPCOMING)),
    ):
        if value is not None:
            params[name] = value
    details = query.choice("details", ("0", "1"), default="0")
    query.finish()
    params["details"] = int(details)
    if "hy" in params and "upcoming" in params:
        raise QueryError("upcoming", "give either hy (a Hijri year) or upcoming, not both")
    resolved = "hy" in params or "upcoming" in params
    if resolved:  # daysUntil counts from today (UTC)
        params["today"] = datetime.fromtimestamp(now_unix_s, timezone.utc).date().isoformat()
    return Canonical(dict(sorted(params.items())), today_dependent=resolved)


def build(params: Params) -> dict:
    chosen = events.select(month=params.get("hm"), importance=params.get("importance"), kind=params.get("type"))
    details = bool(params["details"])
    if "hy" not in params and "upcoming" not in params:
        return {"events": [events.item(e, details=details) for e in chosen]}
    today = _unix_day(params["today"])
    calendar = params["calendar"]
    if "hy" in params:
        return {"events": _resolved(chosen, params["hy"], calendar, today, details)}
    this_year = int(hijri.to_hijri(today, calendar).year)
    found: list[dict] = []
    for year in range(this_year, min(this_year + 3, hijri.API_LAST_YEAR + 1)):
        found += [e for e in _resolved(chosen, year, calendar, today, details) if e["daysUntil"] is not None
                  and e["daysUntil"] >= 0]
        if len(found) >= params["upcoming"]:
            break
    found.sort(key=lambda e: e["daysUntil"])  # stable: catalogue order within a day
    return {"events": found[: params["upcoming"]]}


def _resolved(chosen: list, year: int, calendar: str, today: int, details: bool) -> list[dict]:
    days, sources = events.resolve(chosen, year, calendar)
    out = []
    for event, day, source in zip(chosen, days.tolist(), sources.tolist()):
        item = events.item(event, details=details)
        exists = day >= 0
        item.update(
            hijriYear=year,
            gregorian=str(np.datetime64(day, "D")) if exists else None,
            daysUntil=day - today if exists else None,
            source=source,
        )
        out.append(item)
    return out


def _unix_day(iso: str) -> int:
    return date.fromisoformat(iso).toordinal() - 719163


ENDPOINT = register(Endpoint("events", parse, build))
