"""GET /v1/day-status: the Hijri date, events and Shia-calendar flags of one civil day."""
from __future__ import annotations

from datetime import date

from generator.calendars import day_status, hijri
from generator.places import days
from generator.words import hijri_names
from generator.api import params as P
from generator.api import schemas
from generator.api.common import CALENDAR
from generator.api.endpoint import Canonical, Endpoint, Params, Window

PARAMETERS = (P.day("date", "A day (default today, UTC)."), CALENDAR)


def canonical(values, now_unix_s: float) -> Canonical:
    day = values["date"]
    today_dependent = day is None
    if day is None:  # SPEC 4.9: default today in UTC
        day = days.today(now_unix_s)
    return Canonical({"calendar": values["calendar"], "date": day.isoformat()}, today_dependent)


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


def hijri_days(params: Params) -> tuple[str, int, int]:
    """The day's Hijri date and tonight's (the next day's), under the request's reckoning."""
    day = days.unix_day(params["date"])
    return params.get("calendar", hijri.DEFAULT_CALENDAR), day, day + 1


def plan(window: Window):
    """Every day of the window under every reckoning."""
    return [{"calendar": calendar, "date": day} for calendar in hijri.CALENDARS for day in window.dates]


ENDPOINT = Endpoint("day-status", "Hijri date, events and Shia-calendar flags of a day", PARAMETERS, canonical,
                    build, schemas.json_response(schemas.ref("DayStatus")), plan=plan, hijri_days=hijri_days)
