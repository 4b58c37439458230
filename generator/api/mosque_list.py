"""GET /v1/mosques: the mosque profiles served (data/mosques files, then the hosted profiles a maintainer
listed: `generator.prayer.mosques.listed`), and the check of a profile (every file at start-up, a hosted one before
it is saved).

`check` reads each profile through the endpoints that take ``mosque`` (their own parse, as a
request would), so a profile whose parameters would be refused stops the service at start-up
with the file and the field named, not at a member's first request.  It runs when this module is
imported (generator/api/__init__.py imports it after the endpoints it reads).

Each listed mosque carries its profile (names, place with coordinates and zone, address,
website, languages, reckoning, announcements, the ``times`` and ``jamaat`` parameters, sources),
``query``: the canonical /v1/prayer-times parameters ``mosque=<id>`` stands for (what a client
may give instead), and ``links`` to its answers, feeds, page and screen.
"""
from __future__ import annotations

import time
from datetime import date, datetime, timezone

from generator.places import cities, days
from generator.prayer import jamaat, mosques
from generator.api import city_feeds, jamaat_params as JP, prayer_times, schemas
from generator.api import mosques as MQ
from generator.api.endpoint import Canonical, Endpoint, Params, Window
from generator.errors import QueryError
from generator.query import Query

ENDPOINTS_READ = (prayer_times.ENDPOINT, city_feeds.PRAYER_TIMES, city_feeds.NIGHT)
# The years a profile is checked in: those its page, screen, widget and feeds are served for (the build's window,
# this UTC year ±1: generator/site/routes.py default_years).  Issue 34: the check read the year 2000, when
# Toronto's clock rules differed (daylight saving April-October before 2007), so a profile whose jamaat rule is
# never within its prayer's time in every year actually served was accepted (201) and its pages then failed.
CHECK_YEARS_AROUND = 1


def served_years(now_s: float) -> range:
    """The Gregorian years a profile is checked in at ``now_s`` (UTC): this year ± `CHECK_YEARS_AROUND`."""
    year = datetime.fromtimestamp(now_s, timezone.utc).year
    return range(year - CHECK_YEARS_AROUND, year + CHECK_YEARS_AROUND + 1)


def _parse(endpoint: Endpoint, mosque_id: str, now_s: float, year: int | None = None) -> dict:
    span = {"year": str(year)} if year is not None else {}
    return endpoint.parse(Query.of({MQ.MOSQUE.name: mosque_id, **span}), now_s).params


def check(now_s: float | None = None) -> None:
    """Raise `mosques.ProfileError` for the first served profile an endpoint would refuse (file and field named)."""
    for mosque in mosques.by_id().values():
        check_one(mosque, now_s)


def check_one(mosque: mosques.Mosque, now_s: float | None = None) -> None:
    """Raise `mosques.ProfileError` (its field named) if an endpoint that takes ``mosque`` would refuse the profile
    in any of the years it is served (`served_years` of ``now_s``, default now): /v1/prayer-times for each whole
    year, the feeds from ``now_s``.

    The profile need not be served yet: while it is read it is the answer of ``mosques.find`` for its id (a
    hosted profile is checked so before it is saved, never half-applied)."""
    now_s = time.time() if now_s is None else now_s
    reads = [(prayer_times.ENDPOINT, year) for year in served_years(now_s)]
    reads += [(endpoint, None) for endpoint in ENDPOINTS_READ if endpoint is not prayer_times.ENDPOINT]
    with mosques.checking(mosque):
        for endpoint, year in reads:
            try:
                _parse(endpoint, mosque.id, now_s, year)
            except QueryError as error:
                field = mosque.field_of.get(error.parameter, error.parameter)
                raise mosques.ProfileError(mosque.path, field, f"{error.message} (read by /v1/{endpoint.name})") \
                    from None


def check_outside_choice(mosque: mosques.Mosque, year: int) -> None:
    """Raise `mosques.ProfileError` naming ``jamaat.jamaatOutside`` when a time the profile declares (a fixed rule, a
    table's cell, a Jumu'ah or Eid slot) falls outside its prayer's time on a bound no ruling disputes on some day of ``year`` or the next,
    and the profile does not say what happens on those days (issue 33: move, skip or keep, the committee's choice).

    Only a new publish or edit asks it (runtime/hosted.py): a profile stored before the choice existed keeps loading
    with the documented default, ``move``, marked on every surface (docs/decisions.md "Jamaat")."""
    if mosque.jamaat.get(jamaat.OUTSIDE):
        return
    with mosques.checking(mosque):
        params = _parse(prayer_times.ENDPOINT, mosque.id, datetime(year, 1, 1, tzinfo=timezone.utc).timestamp(),
                        year=year)
    rules = JP.rules_of(params)
    if rules is None or not rules.declares:
        return
    kept = {**params, jamaat.OUTSIDE: jamaat.KEEP}  # every outside day listed, none moved
    first = days.unix_day(date(year, 1, 1))
    n_days = days.unix_day(date(year + 2, 1, 1)) - first
    methods, options = prayer_times.methods_of(params), prayer_times.options_of(params)
    lat, lng = prayer_times.coordinates(params)
    for found in JP.compute(kept, first, n_days, lambda f, n: prayer_times.times_for(lat, lng, f, n, methods, options),
                            params.get("tz")) or ():
        hits = found.kept.any(axis=0)
        if hits.any():
            names = [n for n, row in zip(found.moved_names, found.kept) if row.any()]
            dates = [days.to_date(first + int(k)).isoformat() for k in hits.nonzero()[0]]
            raise mosques.ProfileError(
                mosque.path, f"jamaat.{jamaat.OUTSIDE}",
                f"the time set for {', '.join(names)} is outside its prayer's time on {len(dates)} days of {year}–"
                f"{year + 1} (from {dates[0]}: before its adhan, at or after its end, or isha before maghrib's "
                f"jamaat); choose what happens on those days: {', '.join(jamaat.OUTSIDE_CHOICES)}")


def query_of(mosque_id: str) -> dict:
    """The canonical /v1/prayer-times parameters ``mosque=<id>`` stands for (without a day or span)."""
    now_s = time.time()  # a year the profile was checked in (`check_one`): its rules read there
    year = datetime.fromtimestamp(now_s, timezone.utc).year
    return {key: value for key, value in _parse(prayer_times.ENDPOINT, mosque_id, now_s, year).items()
            if key != "year"}


def _place(mosque: mosques.Mosque, query: dict) -> dict:
    if "city" in query:
        city = cities.by_id()[query["city"]]
        return {"city": city["id"], "lat": city["lat"], "lng": city["lng"], "tz": city["tz"]}
    return {"lat": query["lat"], "lng": query["lng"], "tz": query["tz"]}


def listing(mosque: mosques.Mosque) -> dict:
    """One mosque as /v1/mosques lists it."""
    query = query_of(mosque.id)
    own = {"mosque": mosque.id}
    out = {
        "id": mosque.id,
        "names": dict(mosque.names),
        "place": _place(mosque, query),
        **({"address": mosque.address} if mosque.address else {}),
        **({"website": mosque.website} if mosque.website else {}),
        "languages": list(mosque.languages),
        "reckoning": mosque.reckoning,
        "announcements": [item.as_json() for item in mosque.announcements],
        "times": dict(mosque.times),
        "jamaat": dict(mosque.jamaat),
        "query": query,
        "links": {
            "prayerTimes": "/v1/prayer-times?" + _query_text(own),
            "csv": "/v1/prayer-times.csv?" + _query_text(own),
            "ics": "/v1/prayer-times.ics?" + _query_text(own),
            "night": "/v1/night.ics?" + _query_text(own),
            "page": mosques.PAGE_PATH.format(id=mosque.id),
            "screen": mosques.SCREEN_PATH.format(id=mosque.id),
        },
        "sources": [dict(source) for source in mosque.sources],
    }
    return out


def _query_text(items: dict) -> str:
    return "&".join(f"{key}={value}" for key, value in items.items())  # ids: [a-z0-9-] only


def canonical(values, now_unix_s: float) -> Canonical:
    return Canonical({})


def build(params: Params) -> dict:
    return {"mosques": [listing(mosque) for mosque in mosques.listed()]}


def plan(window: Window):
    return [{}]


ENDPOINT = Endpoint("mosques", "The mosque profiles served (files and listed hosted profiles): their place, method, "
                    "jamaat rules, reckoning and sources",
                    (), canonical, build, schemas.json_response(schemas.MOSQUES), plan=plan)

check()
