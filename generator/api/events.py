"""GET /v1/events: list the catalogue, resolve it to a Hijri year, or the next N from today."""
from __future__ import annotations

from generator.calendars import events, hijri
from generator.places import days
from generator.api import params as P
from generator.api import schemas
from generator.api.common import CALENDAR, COMMUNITY, HM, HY, OFFSET
from generator.api.endpoint import Canonical, Endpoint, Params, Window
from generator.errors import QueryError

MAX_UPCOMING = 73  # SPEC 2.7: the catalogue; a community's list may be a few longer
IMPORTANCE = P.choice("importance", events.IMPORTANCE, "Only major (or only minor) events.")
PARAMETERS = (
    CALENDAR, HM, HY,
    P.integer("upcoming", 1, MAX_UPCOMING, "The next N events from today."),
    IMPORTANCE,
    P.choice("type", events.TYPES, "Only this type."),
    P.choice("details", ("0", "1"), "1: include detail paragraphs (en, ar, fa, ur).", default="0"),
    OFFSET.but(description="With hy or upcoming: " + OFFSET.description[0].lower() + OFFSET.description[1:]),
    COMMUNITY,
)


def canonical(values, now_unix_s: float) -> Canonical:
    params = {name: values[name] for name in ("calendar", "hm", "importance", "type", "hy", "upcoming", "community")
              if values[name] is not None}
    params["details"] = int(values["details"])
    if "hy" in params and "upcoming" in params:
        raise QueryError("upcoming", "give either hy (a Hijri year) or upcoming, not both")
    resolved = "hy" in params or "upcoming" in params
    if values["offset"]:
        if not resolved:
            raise QueryError("offset", "applies with hy or upcoming (dated events) only")
        params["offset"] = values["offset"]
    if resolved:  # daysUntil counts from today (UTC)
        params["today"] = days.today(now_unix_s).isoformat()
    return Canonical(params, today_dependent=resolved)


def build(params: Params) -> dict:
    chosen = events.select(month=params.get("hm"), importance=params.get("importance"), kind=params.get("type"),
                           community=params.get("community"))
    details = bool(params["details"])
    if "hy" not in params and "upcoming" not in params:
        return {"events": [events.item(e, details=details, calendar=params["calendar"]) for e in chosen]}
    today = days.unix_day(params["today"])
    calendar, offset = params["calendar"], params.get("offset", 0)
    if "hy" in params:
        return {"events": _resolved(chosen, params["hy"], calendar, today, details, offset)}
    this_year = int(hijri.to_hijri(today + offset, calendar).year)
    found: list[dict] = []
    for year in range(this_year, min(this_year + 3, hijri.API_LAST_YEAR + 1)):
        found += [e for e in _resolved(chosen, year, calendar, today, details, offset) if e["daysUntil"] is not None
                  and e["daysUntil"] >= 0]
        if len(found) >= params["upcoming"]:
            break
    found.sort(key=lambda e: e["daysUntil"])  # stable: catalogue order within a day
    return {"events": found[: params["upcoming"]]}


def _resolved(chosen: list, year: int, calendar: str, today: int, details: bool, offset: int = 0) -> list[dict]:
    """Return the events of ``year``; a night also gets `eveGregorian`, and its daysUntil counts to that eve.

    ``offset`` days: a community whose Hijri date of a civil day is the reckoning's ``offset`` days later keeps
    each event ``offset`` civil days earlier (/v1/hijri's month ``start`` minus the offset)."""
    event_days, sources = events.resolve(chosen, year, calendar, offset)
    begins = events.begins_on(chosen, event_days)
    out = []
    for event, day, begin, source in zip(chosen, event_days.tolist(), begins.tolist(), sources.tolist()):
        item = events.item(event, details=details, calendar=calendar)
        exists = day >= 0
        item.update(hijriYear=year, gregorian=days.iso(day) if exists else None)
        if event["night"]:
            item.update(eveGregorian=days.iso(begin) if exists else None)
        item.update(daysUntil=begin - today if exists else None, source=source)
        out.append(item)
    return out


def plan(window: Window):
    """The catalogue, and each Hijri year of the window resolved, under every reckoning."""
    for calendar in hijri.CALENDARS:
        yield {"calendar": calendar}
        yield from ({"calendar": calendar, "hy": str(hy)} for hy in window.hijri_years)


ENDPOINT = Endpoint("events", "The 73 events of the Shia year (or a community's): list, resolve to a Hijri year, "
                    "or the next N",
                    PARAMETERS, canonical, build, schemas.EVENTS, plan=plan)
