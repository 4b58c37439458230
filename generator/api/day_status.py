"""GET /v1/day-status: the Hijri date, events and Shia-calendar flags of one civil day."""
from __future__ import annotations

from datetime import date, datetime, timezone

from generator import day_status, hijri, hijri_names
from generator.api.endpoint import Canonical, Endpoint, Params, register
from generator.query import Query


def parse(query: Query, now_unix_s: float) -> Canonical:
    day = query.date("date")
    calendar = query.choice("calendar", hijri.CALENDARS, default=hijri.DEFAULT_CALENDAR)
    query.finish()
    today_dependent = day is None
    if day is None:  # SPEC 4.9: default today in UTC
        day = datetime.fromtimestamp(now_unix_s, timezone.utc).date()
    return Canonical({"calendar": calendar, "date": day.isoformat()}, today_dependent)


def build(params: Params) -> dict:
    civil_day = date.fromisoformat(params["date"])
    facts = day_status.status(civil_day, params["calendar"])
    hijri_date = {**facts["hijri"], "monthName": hijri_names.month_names(facts["hijri"]["hm"])}
    return {
        "date": params["date"],
        "weekday": hijri_names.weekday_names(civil_day.weekday())["en"],
        "calendarUsed": params["calendar"],
        "source": facts["source"],
        "hijri": hijri_date,
        "events": facts["events"],
        "tonight": facts["tonight"],
        "flags": facts["flags"],
    }


ENDPOINT = register(Endpoint("day-status", parse, build))
