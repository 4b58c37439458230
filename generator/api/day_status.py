"""GET /v1/day-status: the Hijri date, events and Shia-calendar flags of one civil day.

With no place, zone or offset the answer is the SPEC's (4.9, 2.9), byte for byte.  The options
(issue 35, "one call for a main screen"; docs/decisions.md, "day-status for a place") add what a
client needs to show the day as the place lives it, without a second computation of its own:

* ``tz`` (or a place, whose zone is the city's or the one at its coordinates): the default date is
  today in that zone, not UTC's (Apia at 08:00 on the 29th is not UTC's 28th);
* ``city`` or ``lat``/``lng`` (with ``method``): ``hijriChange``, the instant the Hijri date changes
  there (sunset: a Hijri day and its night begin at sunset, as every text of the service says; the maghrib
  prayer follows when the eastern redness has gone) with the date from then on (``hijri`` stays the date
  before it), and ``nights``: the nights of the catalogue that touch the day, the one that ended at
  its dawn and the one beginning at its evening, each with the instants between which a surface names it
  (`NAMED_FROM`: from the eve's dhuhr until the fajr that ends it, never on the day after);
  ``events`` then lists the day's own events only (a night is in ``nights``/``tonight``);
* ``offset`` (−2..2 days): a community that keeps the reckoning's dates a day apart (/v1/hijri's
  ``offset``): every Hijri fact of the answer follows the shifted date.
"""
from __future__ import annotations

from datetime import date

import numpy as np

from generator.calendars import day_status, events as catalogue_events, hijri
from generator.places import days, timezones
from generator.prayer.methods import DEFAULT_METHOD, METHODS
from generator.words import hijri_names
from generator.api import params as P
from generator.api import schemas
from generator.api.common import CALENDAR, COMMUNITY, OFFSET
from generator.api.endpoint import Canonical, Endpoint, Params, Window
from generator.api.prayer_times import times_for  # the same computation as /v1/prayer-times
from generator.api.location import AUTO_ZONE, CITY, LAT, LNG, TZ, coordinates, is_point, place
from generator.errors import QueryError

# A night is named ("tonight") from the dhuhr of its eve: after the midday prayer "tonight" can only
# mean the coming night, where at sahar or in the morning it reads as the night under way or just ended
# (language review of 2026-11-28, FA-17), and a screen names it to the congregation of dhuhr, the
# largest of the day where asr is prayed apart.  It stays named until the fajr that ends it.
NAMED_FROM = "dhuhr"

PARAMETERS = (
    P.day("date", "A day (default today, UTC; with tz or a place: today in that zone)."),
    CALENDAR,
    CITY.but(description="A city id of /v1/cities: the date is the city's, with the instant its Hijri date "
                         "changes (sunset) and its nights (sets lat, lng and tz)."),
    LAT.but(description="Latitude (with lng, instead of city): the Hijri date's change (sunset) and nights there."),
    LNG,
    TZ.but(description="IANA zone whose today is the default date (default: the city's, or the zone at lat/lng)."),
    P.choice("method", tuple(METHODS), "With a place: the method whose fajr ends a night (and whose dhuhr and "
             "sunset the answer gives).", default=DEFAULT_METHOD, keep_default=False),
    OFFSET,
    COMMUNITY,
)


def canonical(values, now_unix_s: float) -> Canonical:
    params: dict = {"calendar": values["calendar"], "offset": values["offset"]}
    if values["community"] is not None:
        params["community"] = values["community"]
    if any(values[name] is not None for name in ("city", "lat", "lng")):
        # a place: its zone is the one given, the city's, or the one at its coordinates
        params.update(place({**values, "tz": values["tz"] or AUTO_ZONE}, with_tz=True))
        params["method"] = values["method"]
    elif values["method"] != DEFAULT_METHOD:  # its default sent alone is harmless (a generated client sends it)
        raise QueryError("method", "applies only with a place (city, or lat and lng)")
    elif values["tz"] is not None:
        params["tz"] = timezones.canonical_zone(values["tz"])
        if params["tz"] is None:
            raise QueryError("tz", "must be an IANA time zone such as Europe/London or Asia/Tehran")
    day = values["date"]
    today_dependent = day is None
    if day is None:  # SPEC 4.9: default today in UTC; with a zone, today there
        day = days.today(now_unix_s, params.get("tz", "UTC"))
    params["date"] = day.isoformat()
    return Canonical(params, today_dependent)


def build(params: Params) -> dict:
    civil_day = date.fromisoformat(params["date"])
    calendar, offset = params["calendar"], params.get("offset", 0)
    community = params.get("community")
    facts = day_status.status(civil_day, calendar, offset, community)
    body = {
        "date": params["date"],
        "weekday": hijri_names.weekday_names(civil_day.weekday())["en"],
        "calendarUsed": calendar,
        "source": facts["source"],
        "hijri": _named(facts["hijri"]),
        "events": facts["events"],
        "tonight": facts["tonight"],
        "flags": facts["flags"],
    }
    if "offset" in params:
        body["offset"] = offset
    if "tz" in params:
        body["tz"] = params["tz"]
    if community is not None:
        body["community"] = community
    if is_point(params):
        body.update(_at_place(params, civil_day, facts))
    return body


def _named(h: dict) -> dict:
    return {**h, "monthName": hijri_names.month_names(h["hm"])}


def _at_place(params: Params, civil_day: date, facts: dict) -> dict:
    """The place's part of the answer: where it is, its sunset and the Hijri date after it, the day's nights."""
    calendar, offset = params["calendar"], params.get("offset", 0)
    lat, lng = coordinates(params)
    method = params.get("method", DEFAULT_METHOD)
    unix_day = days.unix_day(civil_day)
    at = _local_days(lat, lng, params["tz"], unix_day - 1, METHODS[method])  # the eve, the day, the next day
    after = hijri.to_hijri(unix_day + offset + 1, calendar)
    where = {"city": params["city"]} if "city" in params else {"lat": lat, "lng": lng}
    community = params.get("community")
    night_ids = {e["id"] for e in catalogue_events.for_community(community) if e["night"]}
    nights = []
    for k in (0, 1):  # the night that ended at this day's fajr (its eve: the day before), then tonight's
        dated = hijri.to_hijri(unix_day + offset + k, calendar)
        weekday = (civil_day.weekday() + k) % 7  # the civil day of the night's Hijri date (its eve's next)
        for event in day_status.nights_of(int(dated.month), int(dated.day), int(dated.month_length), weekday,
                                          community):
            nights.append({"id": event["id"], "title": dict(event["title"]),
                           "hijri": {"hy": int(dated.year), "hm": int(dated.month), "hd": int(dated.day)},
                           "eve": days.iso(unix_day + k - 1),
                           "namedFrom": _instant(at[NAMED_FROM][k]), "begins": _instant(at["sunset"][k]),
                           "ends": _instant(at["fajr"][k + 1])})
    return {
        # a night is not an event of the day after it: it is in `nights` (and `tonight` on its eve)
        "events": [e for e in facts["events"] if e["id"] not in night_ids],
        "place": where,
        "method": method,
        "hijriChange": {"at": _instant(at["sunset"][1]),
                        "hijri": _named({"hy": int(after.year), "hm": int(after.month), "hd": int(after.day)})},
        "nights": nights,
        # the zone's clock changed in the night before the day (only on such a day): what a screen says on it
        **_clock_change(params["tz"], unix_day),
    }


def _clock_change(tz: str, unix_day: int) -> dict:
    """``clockChange`` when the place's clock changed in the night before the day: its instant, the change in
    minutes (negative: back) and the old clock's reading at it (docs/decisions.md "The clock change named on its
    day"); nothing on any other day, so that every other day's answer is unchanged."""
    change = timezones.clock_change(tz, unix_day)
    if change is None:
        return {}
    change_s, _, minutes = change
    return {"clockChange": {"at": _instant(change_s), "minutes": minutes, "before": timezones.reading_before(change)}}


def _local_days(lat: float, lng: float, tz: str, first: int, method) -> dict[str, np.ndarray]:
    """Dhuhr, sunset and fajr of three local days from ``first`` (a unix day) in the zone ``tz``.

    A computed day is picked by the local date of its dhuhr, not by its number: across the date line
    (Apia, Tonga, Kiritimati: UTC+13/+14 west of 180°) day D's times can fall on local day D+1
    (issue 35), so five days are computed and the three whose dhuhr is on the wanted local dates kept.
    """
    span = times_for(lat, lng, first - 1, 5, [method]).times
    dhuhr = span["dhuhr"][0]
    local_day = (dhuhr + timezones.utc_offsets_s(tz, dhuhr)) // 86400
    pick = np.searchsorted(local_day, first + np.arange(3))
    return {name: span[name][0][pick] for name in (NAMED_FROM, "sunset", "fajr")}


def _instant(unix_s: np.int64) -> str:
    """``YYYY-MM-DDTHH:MM:00Z`` of a whole-minute instant, as /v1/prayer-times writes its times (S20)."""
    minutes = int(unix_s) // 60
    return f"{days.iso(minutes // 1440)}T{minutes % 1440 // 60:02d}:{minutes % 60:02d}:00Z"


def hijri_days(params: Params) -> tuple[str, int, int]:
    """The day's Hijri date and tonight's (the next day's), under the request's reckoning."""
    day = days.unix_day(params["date"])
    return params.get("calendar", hijri.DEFAULT_CALENDAR), day, day + 1


def plan(window: Window):
    """Every day of the window under every reckoning."""
    return [{"calendar": calendar, "date": day} for calendar in hijri.CALENDARS for day in window.dates]


ENDPOINT = Endpoint("day-status", "Hijri date, events and Shia-calendar flags of a day", PARAMETERS, canonical,
                    build, schemas.json_response(schemas.ref("DayStatus")), plan=plan, hijri_days=hijri_days)
