"""The four ICS feeds (SPEC 4.10): /v1/events.ics, /v1/prayer-times.ics, /v1/fasting.ics, /v1/night.ics.

Each feed reuses the computation behind a JSON endpoint, so the two can never disagree:
events are `generator.events.resolve` (as /v1/events?hy=), prayer instants are
`generator.prayer.compute` called exactly as /v1/prayer-times calls it, fasting days are
the /v1/day-status flags of `generator.day_status`.  How the feeds are written (UIDs,
escaping, folding) is `generator.feeds`; their words are `generator.feed_words`.
Windows, wording and every other choice: docs/decisions.md.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Mapping

import numpy as np

from generator import cities, day_status, events, feeds, hijri, hijri_names, prayer, timezones
from generator import feed_words as words
from generator.api.endpoint import Canonical, Endpoint, Params, register
from generator.api.location import coordinates, known_city
from generator.api.prayer_times import times_for
from generator.errors import QueryError
from generator.methods import DEFAULT_METHOD, METHODS, resolve as resolve_method
from generator.query import Query

MEDIA_TYPE = "text/calendar"
MIN_DAYS, MAX_DAYS, DEFAULT_DAYS = 7, 90, 60  # SPEC 8: feed window
MIN_OFFSET_MIN, MAX_OFFSET_MIN = -60, 180  # SPEC 8: jamaat offsets
MAX_NAME_CHARS = 60  # SPEC 8
MAX_OFFSETS_CHARS = 120  # five pairs with spaces fit easily
MONTHS_BEFORE, MONTHS_AFTER = 2, 11  # events and fasting: 14 whole months around the current one
PRAYER_EVENT_S = 15 * 60  # nominal length of a prayer event (the time to pray, not the prayer's end)
AYYAM_AL_BID_DAYS = (13, 14, 15)
RAMADAN = 9  # its days are obligatory fasts, so Ayyam al-Bid is not listed in it

_OFFSET_ITEM = re.compile(r"\s*([A-Za-z]+)\s*:\s*([+-]?\d{1,4})\s*", re.ASCII)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


# --- query reading shared by the feeds ---------------------------------------------------------


def _read_lang(query: Query) -> str:
    return query.choice("lang", words.LANGUAGES, default=words.DEFAULT_LANGUAGE)


def _read_calendar(query: Query) -> str:
    return query.choice("calendar", hijri.CALENDARS, default=hijri.DEFAULT_CALENDAR)


def _read_days(query: Query) -> int:
    return query.integer("days", MIN_DAYS, MAX_DAYS, default=DEFAULT_DAYS)


def _read_city(query: Query) -> str:
    city_id = query.string("city", max_chars=64)
    if city_id is None:
        raise QueryError("city", "required: a city id from /v1/cities (e.g. london, tehran, karbala)")
    return str(known_city(city_id)["id"])


def _read_method(query: Query) -> str:
    method_id = resolve_method(query.string("method", max_chars=64, default=DEFAULT_METHOD))
    if method_id is None:
        raise QueryError("method", f"must be one method id, one of {', '.join(METHODS)}")
    return method_id


def read_offsets(raw: str | None) -> str | None:
    """Return the canonical form of an ``offsets`` value, or None when there are none.

    Grammar: ``prayer:minutes`` pairs separated by commas; prayer is one of fajr, dhuhr,
    asr, maghrib, isha (any case); minutes a whole number from -60 to 180 with an optional
    sign; spaces around items are allowed (an unencoded ``+`` arrives as a space).  Each
    prayer at most once.  Canonical: lower case, prayer order, no ``+``, zeros kept (an
    explicit 0 still marks a jamaat time), e.g. ``fajr:15,maghrib:0,isha:-5``.
    """
    if raw is None or not raw.strip():
        return None
    found: dict[str, int] = {}
    for item in raw.split(","):
        match = _OFFSET_ITEM.fullmatch(item)
        if match is None:
            raise QueryError("offsets", "must be prayer:minutes pairs separated by commas, e.g. fajr:15,isha:-5")
        prayer_name, minutes = match.group(1).lower(), int(match.group(2))
        if prayer_name not in words.PRAYERS:
            raise QueryError("offsets", f"unknown prayer {prayer_name[:20]!r}; one of {', '.join(words.PRAYERS)}")
        if prayer_name in found:
            raise QueryError("offsets", f"{prayer_name} given more than once")
        if not MIN_OFFSET_MIN <= minutes <= MAX_OFFSET_MIN:
            raise QueryError(
                "offsets", f"minutes for {prayer_name} must be a whole number from {MIN_OFFSET_MIN} to {MAX_OFFSET_MIN}"
            )
        found[prayer_name] = minutes
    return ",".join(f"{name}:{found[name]}" for name in words.PRAYERS if name in found)


def offsets_min(canonical: str | None) -> dict[str, int]:
    """Return {prayer: minutes} of a canonical ``offsets`` value."""
    if not canonical:
        return {}
    return {name: int(minutes) for name, minutes in (item.split(":") for item in canonical.split(","))}


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


def _current_month(now_unix_s: float) -> str:
    return datetime.fromtimestamp(now_unix_s, timezone.utc).strftime("%Y-%m")


def _month_window(month: str) -> tuple[int, int]:
    """Return (first day, day after the last) of the feed window around ``month`` ("YYYY-MM")."""
    current = np.datetime64(month, "M")
    first = (current - MONTHS_BEFORE).astype("datetime64[D]").astype(np.int64)
    end = (current + MONTHS_AFTER + 1).astype("datetime64[D]").astype(np.int64)
    return int(first), int(end)


def _unix_day(iso: str) -> int:
    return int(np.datetime64(iso, "D").astype(np.int64))


# --- /v1/events.ics ----------------------------------------------------------------------------


def parse_events(query: Query, now_unix_s: float) -> Canonical:
    params: dict = {"lang": _read_lang(query), "calendar": _read_calendar(query)}
    importance = query.choice("importance", ("major",))
    query.finish()
    if importance is not None:
        params["importance"] = importance
    params["month"] = _current_month(now_unix_s)
    return Canonical(dict(sorted(params.items())), today_dependent=True)


def build_events(params: Params) -> bytes:
    """Return the events feed: every catalogue event (or the major ones) in the window, all day."""
    lang, calendar = params["lang"], params["calendar"]
    first, end = _month_window(params["month"])
    chosen = events.select(importance=params.get("importance"))
    found = []  # (unix day, hijri year, event, source)
    for year in _hijri_years(first, end, calendar):
        days, sources = events.resolve(chosen, year, calendar)
        found += [(day, year, e, s) for e, day, s in zip(chosen, days.tolist(), sources.tolist()) if first <= day < end]
    dates = hijri.to_hijri(np.array([f[0] for f in found], dtype=np.int64), calendar)
    identity = feeds.feed_identity("events", params, ("calendar", "importance", "lang"))
    out = []
    for (day, year, event, source), hm, hd in zip(found, dates.month.tolist(), dates.day.tolist()):
        vevent = feeds.all_day_event(
            event_uid=feeds.uid("event", f"{event['id']}-{year}", identity),
            unix_day=day,
            summary=event["title"][lang],
            description=_hijri_description(year, hm, hd, source, lang),
            lang=lang,
        )
        out.append(((day, event["hijriMonth"], event["hijriDay"], event["id"]), vevent))
    base = words.MAJOR_EVENTS_CALENDAR if params.get("importance") == "major" else words.EVENTS_CALENDAR
    cal = feeds.calendar(
        lang=lang,
        name=words.titled(base[lang], words.RECKONING_TITLE[calendar][lang]),
        description=_dates_follow(calendar, lang) + " " + words.SUNSET_NOTE[lang],
    )
    return feeds.serialize(cal, out)


def _hijri_years(first: int, end: int, calendar: str) -> range:
    years = hijri.to_hijri(np.array([first, end - 1]), calendar).year
    return range(int(years[0]), int(years[1]) + 1)


def _hijri_description(hy: int, hm: int, hd: int, source: str, lang: str) -> str:
    """Return the Hijri date written out, with a warning when the month start is only predicted."""
    text = hijri_names.formatted(hy, hm, hd)[lang]
    if source != "table":  # computed or tabular: no announcement or official table yet
        text += "\n" + words.PREDICTED_NOTE[lang]
    return text


def _dates_follow(calendar: str, lang: str) -> str:
    return words.DATES_FOLLOW[lang].format(basis=words.RECKONING_BASIS[calendar][lang])


# --- /v1/fasting.ics ---------------------------------------------------------------------------


def parse_fasting(query: Query, now_unix_s: float) -> Canonical:
    params = {"lang": _read_lang(query), "calendar": _read_calendar(query)}
    query.finish()
    params["month"] = _current_month(now_unix_s)
    return Canonical(dict(sorted(params.items())), today_dependent=True)


def emphasised_fasts() -> list[Mapping]:
    """Return the rules of the four emphasised fasts (data/day_rules.json ``fasting_emphasised``)."""
    rules = day_status.rules()["fasting_emphasised"]
    assert all(set(rule["when"]) == {"month", "day"} for rule in rules)
    return rules


def fasting_days(first: int, end: int, calendar: str) -> list[tuple[int, list[Mapping]]]:
    """Return (unix day, emphasised rules matched) of every fast listed in [first, end).

    Candidates are Ayyam al-Bid outside Ramadan and the emphasised days; each is kept
    only when /v1/day-status says fasting is recommended and not forbidden that day.
    """
    days = np.arange(first, end, dtype=np.int64)
    dates = hijri.to_hijri(days, calendar)
    ayyam_al_bid = np.isin(dates.day, AYYAM_AL_BID_DAYS) & (dates.month != RAMADAN)
    matched = [(dates.month == r["when"]["month"]) & (dates.day == r["when"]["day"]) for r in emphasised_fasts()]
    candidates = np.flatnonzero(ayyam_al_bid | np.logical_or.reduce(matched))
    out = []
    for i in candidates.tolist():
        flags = day_status.status(feeds.unix_day_to_date(days[i]), calendar)["flags"]
        if flags["fastingRecommended"] and not flags["fastingForbidden"]:
            out.append((int(days[i]), [r for r, m in zip(emphasised_fasts(), matched) if m[i]]))
    return out


def build_fasting(params: Params) -> bytes:
    """Return the fasting feed: all-day events on Ayyam al-Bid and the emphasised fasts."""
    lang, calendar = params["lang"], params["calendar"]
    first, end = _month_window(params["month"])
    titles = {e["id"]: e["title"] for e in events.catalogue()}
    identity = feeds.feed_identity("fasting", params, ("calendar", "lang"))
    listed = fasting_days(first, end, calendar)
    dates = hijri.to_hijri(np.array([day for day, _ in listed], dtype=np.int64), calendar)
    out = []
    for (day, rules), hy, hm, hd, source in zip(
        listed, dates.year.tolist(), dates.month.tolist(), dates.day.tolist(), dates.source.tolist()
    ):
        summaries = [words.EMPHASISED_FAST_SUMMARY[lang].format(occasion=titles[r["event"]][lang]) for r in rules]
        if hd in AYYAM_AL_BID_DAYS:
            summaries.insert(0, words.AYYAM_AL_BID_SUMMARY[lang])
        vevent = feeds.all_day_event(
            event_uid=feeds.uid("fast", f"{hy}-{hm:02d}-{hd:02d}", identity),
            unix_day=day,
            summary=words.SEPARATOR.join(summaries),
            description=_hijri_description(hy, hm, hd, source, lang),
            lang=lang,
        )
        out.append(((day,), vevent))
    emphasised = [words.hijri_day_month(r["when"]["month"], r["when"]["day"], lang) for r in emphasised_fasts()]
    description = words.FASTING_CALENDAR_DESCRIPTION[lang].format(days=words.join_list(emphasised, lang))
    cal = feeds.calendar(
        lang=lang,
        name=words.titled(words.FASTING_CALENDAR[lang], words.RECKONING_TITLE[calendar][lang]),
        description=description + " " + _dates_follow(calendar, lang),
    )
    return feeds.serialize(cal, out)


# --- /v1/prayer-times.ics and /v1/night.ics ----------------------------------------------------


def _parse_city_feed(query: Query, now_unix_s: float, *, jamaat: bool) -> Canonical:
    params: dict = {
        "city": _read_city(query),
        "method": _read_method(query),
        "lang": _read_lang(query),
        "days": _read_days(query),
    }
    if jamaat:
        offsets = read_offsets(query.string("offsets", max_chars=MAX_OFFSETS_CHARS))
        name = read_name(query.raw("name"))
        params.update({key: value for key, value in (("offsets", offsets), ("name", name)) if value is not None})
    query.finish()
    zone = str(cities.by_id()[params["city"]]["tz"])
    params["date"] = str(timezones.local_date_today(zone, now_unix_s))  # the window starts today, there
    return Canonical(dict(sorted(params.items())), today_dependent=True)


def parse_prayer_times(query: Query, now_unix_s: float) -> Canonical:
    return _parse_city_feed(query, now_unix_s, jamaat=True)


def parse_night(query: Query, now_unix_s: float) -> Canonical:
    return _parse_city_feed(query, now_unix_s, jamaat=False)


def _times(params: Params, n_days: int) -> prayer.PrayerTimes:
    """Return the prayer times of ``n_days`` from ``date`` exactly as /v1/prayer-times computes them."""
    lat, lng = coordinates(params)
    return times_for(lat, lng, _unix_day(params["date"]), n_days, [METHODS[params["method"]]])


def _place(params: Params) -> tuple[str, str, str]:
    """Return (city name in the feed's language, IANA zone, method label in that language)."""
    city = cities.by_id()[params["city"]]
    lang = params["lang"]
    return city["names"][lang], str(city["tz"]), METHODS[params["method"]].label[lang]


def _clock(zone: str, unix_s: np.ndarray, lang: str) -> list[str]:
    return [words.native(hhmm, lang) for hhmm in timezones.local_hhmm(zone, unix_s).tolist()]


def build_prayer_times(params: Params) -> bytes:
    """Return the prayer feed: fajr, dhuhr, asr, maghrib and isha of each day, plus any jamaat offset."""
    lang, n_days, name = params["lang"], params["days"], params.get("name")
    city_name, zone, method_label = _place(params)
    result = _times(params, n_days)
    offsets = offsets_min(params.get("offsets"))
    identity = feeds.feed_identity("prayer-times", params, ("city", "method", "lang", "offsets", "name"))
    first = _unix_day(params["date"])
    requested_lat, _ = coordinates(params)
    method_line = words.METHOD_LINE[lang].format(method=method_label)
    out = []
    for order, prayer_id in enumerate(words.PRAYERS):
        calculated = result.times[prayer_id][0]
        starts = calculated + offsets.get(prayer_id, 0) * 60
        start_clock, calculated_clock = _clock(zone, starts, lang), _clock(zone, calculated, lang)
        prayer_name = words.PRAYER_NAMES[lang][prayer_id]
        template = words.JAMAAT_SUMMARY if prayer_id in offsets else words.PRAYER_SUMMARY
        summary = template[lang].format(prayer=prayer_name)
        if name is not None:
            summary = words.titled(summary, name)
        for i in range(n_days):
            lines = [words.LOCAL_TIME[lang].format(time=start_clock[i], city=city_name)]
            if prayer_id in offsets:
                lines.append(words.JAMAAT_LINE[lang].format(prayer=prayer_name, time=calculated_clock[i]))
            lines.append(method_line)
            used_lat = float(result.latitude_used_deg[i])
            if used_lat != requested_lat:
                lines.append(words.POLAR_LINE[lang].format(lat=_decimal(used_lat, lang)))
            day_key = feeds.unix_day_to_date(first + i).strftime("%Y%m%d")
            vevent = feeds.timed_event(
                event_uid=feeds.uid("prayer", f"{params['city']}-{day_key}-{prayer_id}", identity),
                start_unix_s=int(starts[i]),
                end_unix_s=int(starts[i]) + PRAYER_EVENT_S,
                summary=summary,
                description="\n".join(lines),
                lang=lang,
                busy=True,
            )
            out.append(((int(starts[i]), first + i, order), vevent))
    title = (
        words.titled(name, words.PRAYER_CALENDAR[lang])
        if name is not None
        else words.titled(words.PRAYER_CALENDAR[lang], city_name)
    )
    description = words.PRAYER_CALENDAR_DESCRIPTION[lang].format(city=city_name) + "\n" + method_line
    cal = feeds.calendar(lang=lang, name=title, description=description, zone=zone)
    return feeds.serialize(cal, out)


def _decimal(value: float, lang: str) -> str:
    separator = {"ar": "\u066b", "fa": "\u066b"}.get(lang, ".")  # the Arabic decimal separator
    return words.native(f"{value:.1f}".replace(".", separator), lang)


def last_third_start_s(maghrib_s: np.ndarray, next_fajr_s: np.ndarray) -> np.ndarray:
    """Return when the last third of each night begins, Unix seconds rounded to the nearest minute.

    maghrib + ⅔ × (next fajr − maghrib), in integer seconds: both inputs are whole
    minutes, so the exact instant is a whole number of seconds; 30 s rounds up.
    """
    maghrib_s = np.asarray(maghrib_s, dtype=np.int64)
    night_s = np.asarray(next_fajr_s, dtype=np.int64) - maghrib_s
    assert (night_s > 0).all(), "a night must end after it begins"
    exact_s = maghrib_s + (2 * night_s) // 3
    return (exact_s + 30) // 60 * 60


def build_night(params: Params) -> bytes:
    """Return the night feed: from the start of the last third of each night to the next fajr."""
    lang, n_days = params["lang"], params["days"]
    city_name, zone, method_label = _place(params)
    result = _times(params, n_days + 1)  # + the next day, whose fajr ends the last night
    maghrib, next_fajr = result.times["maghrib"][0, :n_days], result.times["fajr"][0, 1:]
    starts = last_third_start_s(maghrib, next_fajr)
    start_clock, fajr_clock = _clock(zone, starts, lang), _clock(zone, next_fajr, lang)
    identity = feeds.feed_identity("night", params, ("city", "method", "lang"))
    first = _unix_day(params["date"])
    out = []
    for i in range(n_days):
        evening = feeds.unix_day_to_date(first + i).strftime("%Y%m%d")  # the civil date the night begins on
        vevent = feeds.timed_event(
            event_uid=feeds.uid("night", f"{params['city']}-{evening}", identity),
            start_unix_s=int(starts[i]),
            end_unix_s=int(next_fajr[i]),
            summary=words.NIGHT_SUMMARY[lang],
            description=words.NIGHT_DESCRIPTION[lang].format(start=start_clock[i], fajr=fajr_clock[i], city=city_name),
            lang=lang,
            busy=False,
        )
        out.append(((int(starts[i]),), vevent))
    method_line = words.METHOD_LINE[lang].format(method=method_label)
    cal = feeds.calendar(
        lang=lang,
        name=words.titled(words.NIGHT_CALENDAR[lang], city_name),
        description=words.NIGHT_CALENDAR_DESCRIPTION[lang].format(city=city_name) + "\n" + method_line,
        zone=zone,
    )
    return feeds.serialize(cal, out)


EVENTS = register(Endpoint("events.ics", parse_events, build_events, MEDIA_TYPE))
PRAYER_TIMES = register(Endpoint("prayer-times.ics", parse_prayer_times, build_prayer_times, MEDIA_TYPE))
FASTING = register(Endpoint("fasting.ics", parse_fasting, build_fasting, MEDIA_TYPE))
NIGHT = register(Endpoint("night.ics", parse_night, build_night, MEDIA_TYPE))
