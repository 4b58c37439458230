"""The two place feeds (SPEC 4.10): /v1/prayer-times.ics and /v1/night.ics.

A feed is for a catalogue ``city`` (as the SPEC first defined it, keys and UIDs unchanged) or
for ``lat``+``lng`` with a zone (``tz``, or ``tz=auto``: the feed's days are that zone's days),
with a method, ``method=custom`` and its angles, and the options of /v1/prayer-times that move
one of the feed's times (issue 9).  Prayer instants are `generator.prayer.compute` called
exactly as /v1/prayer-times calls it (`generator.api.prayer_times.times_for`, same options),
so a feed and the JSON can never disagree; the night's last third is
`generator.prayer.last_third_start_s`.  How the feeds are written
(UIDs, escaping, folding) is `generator.feeds`; their words are `generator.feed_words`.
Windows, wording and every other choice: docs/decisions.md.
"""
from __future__ import annotations

import re

import numpy as np

from generator import cities, days, feeds, prayer, timezones
from generator import feed_words as words
from generator.api import params as P
from generator.api import schemas
from generator.api.calendar_feeds import FEED_LANG, MEDIA_TYPE
from generator.api.endpoint import Canonical, Endpoint, Params, Window
from generator.api import prayer_times as PT
from generator.api.location import CITY, LAT, LNG, TZ, coordinates, place
from generator.errors import QueryError
from generator.locale import decimal
from generator.methods import DEFAULT_METHOD, METHODS

MIN_DAYS, MAX_DAYS, DEFAULT_DAYS = 7, 90, 60  # SPEC 8: feed window
MIN_OFFSET_MIN, MAX_OFFSET_MIN = -60, 180  # SPEC 8: jamaat offsets
MAX_NAME_CHARS = 60  # SPEC 8
MAX_OFFSETS_CHARS = 120  # five pairs with spaces fit easily
PRAYER_EVENT_S = 15 * 60  # nominal length of a prayer event (the time to pray, not the prayer's end)

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def read_offsets(raw: str | None) -> str | None:
    """Return the canonical form of an ``offsets`` value, or None when there are none.

    ``prayer:minutes`` pairs: prayer one of fajr, dhuhr, asr, maghrib, isha (any case), minutes
    -60 to 180 (`params.read_minutes`).  Zeros are kept (an explicit 0 still marks a jamaat
    time), e.g. ``fajr:15,maghrib:0,isha:-5``.
    """
    return P.read_minutes(raw, "offsets", words.PRAYERS, MIN_OFFSET_MIN, MAX_OFFSET_MIN, item="prayer",
                          example="fajr:15,isha:-5", keep_zeros=True)


offsets_min = P.minutes_of  # {prayer: minutes} of a canonical ``offsets`` value


def read_name(raw: str | None) -> str | None:
    """Return the canonical masjid ``name``: whitespace runs (CR, LF, tabs…) as one space, trimmed.

    A calendar title is one line, so line breaks become spaces here; other control
    characters are refused.  An empty name is no name.  The 60-character limit applies
    to the value as given.
    """
    if raw is None:
        return None
    if len(raw) > MAX_NAME_CHARS:
        raise QueryError("name", f"at most {MAX_NAME_CHARS} characters")
    name = " ".join(raw.split())
    if _CONTROL.search(name):
        raise QueryError("name", "must not contain control characters")
    return name or None


FEED_CITY = CITY.but(description="A city id from /v1/cities (e.g. london, tehran, karbala), or lat+lng with tz.")
FEED_TZ = TZ.but(description="With lat+lng (required there): the IANA zone whose days the feed follows and whose "
                             "local times it writes, or auto (the zone at the coordinates). A city sets its own.")
FEED_METHOD = P.choice("method", (*METHODS, PT.CUSTOM), f"A method id, or custom with fajrAngle and ishaAngle or "
                       f"ishaInterval (default {DEFAULT_METHOD}).", default=DEFAULT_METHOD,
                       fold_case=True)
DAYS = P.integer("days", MIN_DAYS, MAX_DAYS, f"Rolling window in days from today (default {DEFAULT_DAYS}).",
                 default=DEFAULT_DAYS)
OFFSETS = P.custom("offsets", {"type": "string", "maxLength": MAX_OFFSETS_CHARS},
                   lambda q, n: read_offsets(q.string(n, max_chars=MAX_OFFSETS_CHARS)),
                   f"Jamaat offsets: prayer:minutes pairs, comma-separated, minutes {MIN_OFFSET_MIN}..{MAX_OFFSET_MIN}.",
                   example="fajr:15,maghrib:5")
NAME = P.custom("name", {"type": "string", "maxLength": MAX_NAME_CHARS}, lambda q, n: read_name(q.raw(n)),
                "Masjid name for the calendar title and summaries.")
# The options of /v1/prayer-times each feed takes: those that move a time it shows.  The others
# are refused with the reason, as a misspelt parameter is, rather than silently doing nothing.
CLOCK = P.choice("clock", words.CLOCKS, "Times in descriptions on a 12- or 24-hour clock (default: 12 for ar and ur, "
                                        "24 for en and fa).", keep_default=False)
PRAYER_OPTIONS = (PT.ASR, PT.HIGH_LATITUDE_RULE, PT.TUNE, PT.ELEVATION)
NIGHT_OPTIONS = (PT.HIGH_LATITUDE_RULE, PT.TUNE, PT.ELEVATION)
PRAYER_TUNABLE = words.PRAYERS
NIGHT_TUNABLE = ("fajr", "maghrib")  # the last third runs from maghrib + ⅔ of the night to the next fajr
_NO_EVENT = "this feed has no {} event; the option applies to /v1/prayer-times"
PRAYER_REFUSED = {"midnight": _NO_EVENT.format("midnight"), "imsak": _NO_EVENT.format("imsak")}
NIGHT_REFUSED = {**PRAYER_REFUSED, "asr": "the night feed has no asr; the option applies to /v1/prayer-times"}
PLACE_PARAMETERS = (FEED_CITY, LAT, LNG, FEED_TZ)
NIGHT_PARAMETERS = (*PLACE_PARAMETERS, FEED_METHOD, FEED_LANG, DAYS, CLOCK, *PT.CUSTOM_PARAMETERS, *NIGHT_OPTIONS)
PRAYER_PARAMETERS = (*PLACE_PARAMETERS, FEED_METHOD, FEED_LANG, DAYS, CLOCK, OFFSETS, NAME, *PT.CUSTOM_PARAMETERS,
                     *PRAYER_OPTIONS)
# What makes a subscription what it is (its UIDs' identity hash); absent keys are skipped, so a
# city feed without options keeps the identity, and the UIDs, it always had.
_OPTION_KEYS = ("tz", *(p.name for p in PT.CUSTOM_PARAMETERS), *(p.name for p in PT.OPTION_PARAMETERS))
PRAYER_IDENTITY = ("city", "lat", "lng", "method", "lang", "offsets", "name", *_OPTION_KEYS)
NIGHT_IDENTITY = ("city", "lat", "lng", "method", "lang", *_OPTION_KEYS)


def _canonical(values, now_unix_s: float, options: tuple[P.Param, ...], tunable: tuple[str, ...]) -> Canonical:
    """A feed's window starts today in its zone: the city's, or ``tz`` with lat+lng."""
    if values["city"] is None and values["lat"] is None and values["lng"] is None:
        raise QueryError("city", "required: a city id of /v1/cities, or lat+lng with tz")
    params = place(values, with_tz=True)
    if "city" in params:
        if values["tz"] is not None:
            raise QueryError("tz", "a city's feed follows the city's zone; tz goes with lat+lng")
        zone = params.pop("tz")  # implied by the city: kept out of the key, as before
    elif "tz" not in params:
        raise QueryError("tz", "required with lat+lng: an IANA zone such as Europe/London, or auto; "
                               "a feed's days are the days of its zone")
    else:
        zone = params["tz"]
    params.update({name: values[name] for name in ("method", "lang", "days", "clock", "offsets", "name")
                   if values.get(name) is not None})
    params.update(PT.custom_angles(values, params["method"]))
    params.update(PT.read_options(values, options))
    for name in PT.tune_min(params.get("tune")):
        if name not in tunable:
            raise QueryError("tune", f"this feed shows no {name}; tune one of {', '.join(tunable)}")
    params["date"] = days.today(now_unix_s, zone).isoformat()
    return Canonical(params, today_dependent=True)


def canonical_prayer_times(values, now_unix_s: float) -> Canonical:
    return _canonical(values, now_unix_s, PRAYER_OPTIONS, PRAYER_TUNABLE)


def canonical_night(values, now_unix_s: float) -> Canonical:
    return _canonical(values, now_unix_s, NIGHT_OPTIONS, NIGHT_TUNABLE)


def _plan(window: Window):
    return [{"city": city} for city in window.city_ids]


def _times(params: Params, n_days: int) -> prayer.PrayerTimes:
    """Return the prayer times of ``n_days`` from ``date`` exactly as /v1/prayer-times computes them."""
    lat, lng = coordinates(params)
    return PT.times_for(lat, lng, days.unix_day(params["date"]), n_days, PT.methods_of(params), PT.options_of(params))


def _place(params: Params) -> tuple[str, str, str, str]:
    """Return (place name, name of its local time, IANA zone, method label), in the feed's language.

    A city: its name twice and its zone.  Coordinates: "35.69°, 51.39°", and the zone id for
    "… time" (a zone id has no translation, but it says exactly which clock is meant).
    """
    lang = params["lang"]
    if params["method"] == PT.CUSTOM:
        method_label = words.CUSTOM_METHOD[lang].format(rules=words.custom_rules(params, lang))
    else:
        method_label = METHODS[params["method"]].label[lang]
    if "city" in params:
        city = cities.by_id()[params["city"]]
        return city["names"][lang], city["names"][lang], str(city["tz"]), method_label
    return words.coordinates(params["lat"], params["lng"], lang), params["tz"], params["tz"], method_label


def _place_key(params: Params) -> str:
    """The place part of a UID: the city id, or the rounded coordinates in ISO 6709 form ("+35.69+051.39")."""
    return params["city"] if "city" in params else f"{params['lat']:+06.2f}{params['lng']:+07.2f}"


def _method_lines(params: Params, method_label: str) -> str:
    """The calendar description's method line, plus the options line when the query has options."""
    lang = params["lang"]
    line = words.METHOD_LINE[lang].format(method=method_label)
    given = [f"{p.name}={params[p.name]}" for p in PT.OPTION_PARAMETERS if p.name in params]
    return line + ("\n" + words.OPTIONS_LINE[lang].format(options=", ".join(given)) if given else "")


def _clock(zone: str, unix_s: np.ndarray, params: Params) -> list[str]:
    """Return local times of ``unix_s`` as the feed's language writes them (`feed_words.clock_text`)."""
    lang = params["lang"]
    clock = params.get("clock", words.DEFAULT_CLOCK[lang])
    return [words.clock_text(hhmm, lang, clock) for hhmm in timezones.local_hhmm(zone, unix_s).tolist()]


def build_prayer_times(params: Params) -> bytes:
    """Return the prayer feed: fajr, dhuhr, asr, maghrib and isha of each day, plus any jamaat offset.

    A time never reached that day (``highLatitudeRule=none``) has no event: there is no time to show.
    """
    lang, n_days, name = params["lang"], params["days"], params.get("name")
    if name is not None and lang in words.RTL:  # a masjid name in either direction keeps its own inside RTL text
        name = words.FSI + name + words.PDI
    place_name, clock_name, zone, method_label = _place(params)
    result = _times(params, n_days)
    offsets = offsets_min(params.get("offsets"))
    identity = feeds.feed_identity("prayer-times", params, PRAYER_IDENTITY)
    first = days.unix_day(params["date"])
    requested_lat, _ = coordinates(params)
    method_line = words.METHOD_LINE[lang].format(method=method_label)
    place_key = _place_key(params)
    out = []
    for order, prayer_id in enumerate(words.PRAYERS):
        calculated = result.times[prayer_id][0]
        reached = ~result.unreached[prayer_id][0] if prayer_id in result.unreached else np.ones(n_days, dtype=bool)
        starts = calculated + offsets.get(prayer_id, 0) * 60
        start_clock, calculated_clock = _clock(zone, starts, params), _clock(zone, calculated, params)
        prayer_name = words.PRAYER_NAMES[lang][prayer_id]
        template = words.JAMAAT_SUMMARY if prayer_id in offsets else words.PRAYER_SUMMARY
        summary = template[lang].format(prayer=prayer_name)
        if name is not None:
            summary = words.titled(summary, name, lang)
        for i in np.flatnonzero(reached).tolist():
            lines = [words.LOCAL_TIME[lang].format(time=start_clock[i], city=clock_name)]
            if prayer_id in offsets:
                lines.append(words.JAMAAT_LINE[lang].format(prayer=prayer_name, time=calculated_clock[i]))
            lines.append(method_line)
            used_lat = float(result.latitude_used_deg[i])
            if used_lat != requested_lat:
                lines.append(words.POLAR_LINE[lang].format(lat=decimal(used_lat, 1, lang)))
            day_key = days.to_date(first + i).strftime("%Y%m%d")
            vevent = feeds.timed_event(
                event_uid=feeds.uid("prayer", f"{place_key}-{day_key}-{prayer_id}", identity),
                start_unix_s=int(starts[i]),
                end_unix_s=int(starts[i]) + PRAYER_EVENT_S,
                summary=summary,
                description="\n".join(lines),
                lang=lang,
                busy=True,
            )
            out.append(((int(starts[i]), first + i, order), vevent))
    title = (
        words.titled(name, words.PRAYER_CALENDAR[lang], lang)
        if name is not None
        else words.titled(words.PRAYER_CALENDAR[lang], place_name, lang)
    )
    description = words.PRAYER_CALENDAR_DESCRIPTION[lang].format(city=place_name) + "\n" + _method_lines(
        params, method_label)
    cal = feeds.calendar(lang=lang, name=title, description=description, zone=zone)
    return feeds.serialize(cal, out)


def build_night(params: Params) -> bytes:
    """Return the night feed: from the start of the last third of each night to the next fajr.

    A night whose maghrib or next fajr is never reached (``highLatitudeRule=none``) has no event.
    """
    lang, n_days = params["lang"], params["days"]
    place_name, clock_name, zone, method_label = _place(params)
    result = _times(params, n_days + 1)  # + the next day, whose fajr ends the last night
    maghrib, next_fajr = result.times["maghrib"][0, :n_days], result.times["fajr"][0, 1:]
    reached = np.ones(n_days, dtype=bool)
    if "maghrib" in result.unreached:
        reached &= ~result.unreached["maghrib"][0, :n_days]
    if "fajr" in result.unreached:
        reached &= ~result.unreached["fajr"][0, 1:]
    nights = np.flatnonzero(reached)
    starts = np.zeros(n_days, dtype=np.int64)
    starts[nights] = prayer.last_third_start_s(maghrib[nights], next_fajr[nights])
    start_clock, fajr_clock = _clock(zone, starts, params), _clock(zone, next_fajr, params)
    identity = feeds.feed_identity("night", params, NIGHT_IDENTITY)
    first = days.unix_day(params["date"])
    place_key = _place_key(params)
    out = []
    for i in nights.tolist():
        evening = days.to_date(first + i).strftime("%Y%m%d")  # the civil date the night begins on
        vevent = feeds.timed_event(
            event_uid=feeds.uid("night", f"{place_key}-{evening}", identity),
            start_unix_s=int(starts[i]),
            end_unix_s=int(next_fajr[i]),
            summary=words.NIGHT_SUMMARY[lang],
            description=words.NIGHT_DESCRIPTION[lang].format(start=start_clock[i], fajr=fajr_clock[i], city=clock_name),
            lang=lang,
            busy=False,
        )
        out.append(((int(starts[i]),), vevent))
    cal = feeds.calendar(
        lang=lang,
        name=words.titled(words.NIGHT_CALENDAR[lang], place_name, lang),
        description=words.NIGHT_CALENDAR_DESCRIPTION[lang].format(city=place_name) + "\n" + _method_lines(
            params, method_label),
        zone=zone,
    )
    return feeds.serialize(cal, out)


PRAYER_TIMES = Endpoint("prayer-times.ics", "The five daily prayers for a city or any place as timed events (UTC)",
                        PRAYER_PARAMETERS, canonical_prayer_times, build_prayer_times, schemas.calendar_feed(),
                        MEDIA_TYPE, plan=_plan, refused=PRAYER_REFUSED)
NIGHT = Endpoint("night.ics", "The start of the last third of each night for a city or any place", NIGHT_PARAMETERS,
                 canonical_night, build_night, schemas.calendar_feed(), MEDIA_TYPE, plan=_plan, refused=NIGHT_REFUSED)
