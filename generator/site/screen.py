"""The mosque screen (`/screen/?…`) and the website widget (`/widget/?…`): pages whose scripts read the API.

Both take the query of /v1/prayer-times (place, method, options and, with issue 20, the jamaat
rules: one declaration, read here by the endpoint's own `Endpoint.parse`), plus their own:

* ``lang`` (en, ar, fa, ur), ``clock`` (12 or 24; default as on the city pages), ``calendar``
  (the reckoning of the Hijri date: ``moonsighting`` or ``iran``; default the city's, as on its
  timetable; with ``eid`` or ``jamaatRamadan`` (`jamaat_params.DATED`) it is also the reckoning of the Eid days
  and of Ramadan's rules, given to /v1/prayer-times),
  ``name`` (a mosque's name for the heading, at most 60 characters);
* the screen: ``note`` (announcement lines: repeated, or ``|``-separated; at most `MAX_NOTES`
  lines of `MAX_NOTE_CHARS` characters, shown as text, never as markup; without it, a mosque's own announcements
  of each day, issue 36: `shown_notes`, `announcement_days`); ``lineSeconds`` (seconds each line is shown);
  ``lang2`` (issue 36: a second language, the names beside the first's and the sentences by turns; default a
  mosque's other language, `default_second`);
* the widget: ``theme`` (``light``, ``dark``, or ``auto``: the reader's `prefers-color-scheme`).

``date``, ``year`` and ``month`` are refused: a screen follows the place's own today.  A bad
query is a `BadPageQuery` (the runtime answers 400 with the error page in the query's language).

The page itself computes nothing.  It carries the addresses of the answers its script reads
(`data_urls`): a year of /v1/prayer-times and each day's /v1/day-status, as static path URLs
(`generator.output.static_paths`: what build.py pre-renders for a catalogue city, and what a file host
serves) and, as the fallback, the same query as a query URL (the only form a query whose values
need a hash, such as ``jamaat=fajr:20``, has).  The page's own data is only what no endpoint
answers: the first days of the Solar Hijri months on Persian screens (`generator.calendars.shamsi`,
`SHAMSI_YEARS` years either side of the render: the script counts the days from a month's 1st) and the words of its language (data/glossary.csv).  docs/site.md, "The screen
and the widget", says how the scripts use them.
"""
from __future__ import annotations

import base64
import dataclasses
import functools
import hashlib
import io
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Iterable
from urllib.parse import quote, urlencode
from zoneinfo import ZoneInfo

import orjson
from markupsafe import Markup

from generator.prayer import announcements, mosques, place_defaults
from generator.words import feed_words, hijri_names
from generator.words import page_words as words
from generator.api import BY_NAME, jamaat_params as JP, params as P
from generator.api.city_feeds import CLOCK, read_name
from generator.api.common import CALENDAR, LANG
from generator.errors import QueryError
from generator.query import Query
from generator.calendars import shamsi
from generator.places import timezones
from generator.site import head, mosque_page, qr_code, responses, urls
from generator.site.page import BadPageQuery
from generator.site.templating import ASSETS, environment
from generator.output import static_paths

MAX_NOTES = 3  # announcement lines on a screen
MAX_NOTE_CHARS = 120  # each: two lines at the screen's smallest size on a 1920-px TV
SHAMSI_YEARS = 2  # a Persian screen carries the Solar Hijri months of this many years either side of its render
ZONE_YEARS = 1  # the page carries its zone's offsets for this many years either side of its render (a screen
# runs offline for a month; past the last change the last offset holds)
ZONE_PROBE = timedelta(days=7)  # zone changes are found between weekly probes (none comes closer in tzdata 2026)
# The screen's words (data/glossary.csv page.screen.*)
FADHILA = ("asr", "isha")  # the prayers whose computed time a mosque's screen labels as the recommended time
SCREEN_WORDS = ("until_adhan", "until_jamaat", "until_imsak", "until_iftar", "until_jumuah", "until_eid", "silence",
                "changes_tomorrow", "moved_end", "in_prayer", "jumuah", "eid", "tonight", "today_events", "stale",
                "waiting", "fadhila", "outside_kept", "outside_skipped", "moved_later", "ashura_imsak", "until_fadhila")
PRAYER_TIMES = BY_NAME["prayer-times"]
DAY_STATUS = BY_NAME["day-status"]
FOLLOWS_TODAY = ("date", "year", "month")  # the screen shows the place's today, always
YEAR_SLOT, DATE_SLOT = "YEAR", "DATE"  # placeholders the script replaces in `data_urls`
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

NOTE_NAME = "note"
MOSQUE_NAME = "mosque"  # /v1/prayer-times' mosque=<id> (generator/api/mosques.py)
THEME = P.choice("theme", ("auto", "light", "dark"), "The widget's colours (default auto: the reader's setting).",
                 default="auto")
# "Jamaat times change tomorrow" only for a change a congregation needs to know: the screen asks
# /v1/prayer-times for jamaatNotice=<notice> (issue 28) when its query has jamaat rules and the API takes it.
NOTICE_API = "jamaatNotice"
DEFAULT_NOTICE_MIN = 5
# The screen's options; a mosque profile may set them too (its ``screen`` group: generator/prayer/mosques.py, which
# declares their bounds), as the defaults of its screen.
NOTICE = P.integer("notice", *mosques.SCREEN_MINUTES["notice"], "Minutes a jamaat must move by for the screen's "
                   f"\"changes tomorrow\" line (default {DEFAULT_NOTICE_MIN}; 1: every change); given to "
                   f"/v1/prayer-times as {NOTICE_API}.")
DEFAULT_LINE_S = 8
LINE_SECONDS = P.integer("lineSeconds", *mosques.SCREEN_SECONDS["lineSeconds"], "Seconds each announcement line is "
                         f"shown (a slide: twice as long; default {DEFAULT_LINE_S}).")
IN_PRAYER = P.integer("inPrayer", *mosques.SCREEN_MINUTES["inPrayer"], "Minutes of a calm full-screen \"prayer in "
                      "progress\" view after each jamaat (Jumu'ah and Eid included); absent: off.")
QR_TARGETS = mosques.QR_TARGETS
QR = P.choice("qr", QR_TARGETS, "A QR code in a corner: page (the mosque's page with mosque=, else the city's "
              "timetable page) or feed (the calendar feed of the same times and rules); absent: none.")
PAGE_CALENDAR = CALENDAR.but(default=None)  # absent: the city's own reckoning
NAME = P.custom("name", {"type": "string", "maxLength": 60}, lambda q, n: read_name(q.raw(n)),
                "A mosque's name for the heading.")
NO_SECOND = "none"
# The screen's second language (issue 36; docs/decisions.md, "Two languages on one screen"): the prayers' names and
# the headings in both, the sentences (dates, countdown, notices) and the announcements taking turns.
LANG2 = P.choice("lang2", (*words.LANGUAGES, NO_SECOND), "The screen's second language (the names in both, the "
                 "sentences and announcements taking turns; none: one language); absent: a mosque's other language "
                 "(the first of its profile's languages other than lang), else none.")
PAGE_PARAMETERS = (LANG, CLOCK, PAGE_CALENDAR, NAME)
SCREEN_PARAMETERS = (*PAGE_PARAMETERS, LANG2, NOTICE, IN_PRAYER, LINE_SECONDS, QR)
# The page carries which of its mosque's announcements apply on each of its place's days from yesterday (issue 36;
# `announcements.active`): a screen runs offline for a month, and past these days it shows none rather than one
# that may have ended.
ANNOUNCE_DAYS = 62
WIDGET_PARAMETERS = (*PAGE_PARAMETERS, THEME)
API_HAS_NOTICE = NOTICE_API in {p.name for p in PRAYER_TIMES.parameters}


@dataclass(frozen=True)
class PageQuery:
    """The canonical query of a screen or widget: the prayer-times parameters (without a span) and the page's own."""

    kind: str  # "screen" or "widget"
    prayer: tuple[tuple[str, object], ...]  # canonical /v1/prayer-times parameters, without year
    lang: str
    clock: str
    calendar: str
    name: str | None = None  # as the query gave it (a mosque's own name is `place_name`'s default)
    notes: tuple[str, ...] = ()  # as the query gave them (a mosque's announcement is `shown_notes`' default)
    theme: str = "auto"
    mosque: str | None = None  # mosque=<id>: its profile fills the prayer parameters and the reckoning
    notice: int = DEFAULT_NOTICE_MIN  # the screen's "changes tomorrow" threshold (minutes)
    in_prayer: int | None = None  # minutes of the "prayer in progress" view after each jamaat (None: off)
    qr: str | None = None  # a QR code in a corner: "page" or "feed" (None: none)
    lang2: str | None = None  # the screen's second language (None: one language)
    line_s: int = DEFAULT_LINE_S  # seconds each announcement line is shown


def parse(kind: str, items: Iterable[tuple[str, str]], now_s: float) -> PageQuery:
    """Check a screen's or widget's query (``kind``); `BadPageQuery` names what is wrong, in the query's language."""
    items = list(items)
    lang = next((value for name, value in items if name == "lang" and value in words.LANGUAGES),
                words.DEFAULT_LANGUAGE)
    try:
        return _parse(kind, items, now_s)
    except QueryError as error:
        raise BadPageQuery(lang, str(error), error) from None


def _parse(kind: str, items: list[tuple[str, str]], now_s: float) -> PageQuery:
    own = WIDGET_PARAMETERS if kind == "widget" else SCREEN_PARAMETERS
    own_names = {p.name for p in own}
    notes: list[str] = []
    page_items, prayer_items = [], []
    for name, value in items:
        if name in FOLLOWS_TODAY:
            raise QueryError(name, f"the {kind} always shows the place's today; leave {name} out", f"{kind}_follows_today",
                             {"name": name})
        if name == NOTICE_API and kind == "screen":
            raise QueryError(name, "the screen's option for it is notice (minutes; default 5)")
        if name == NOTE_NAME and kind == "screen":
            notes += read_notes(value)
        elif name in own_names:
            page_items.append((name, value))
        else:
            prayer_items.append((name, value))
    if len(notes) > MAX_NOTES:
        raise QueryError(NOTE_NAME, f"at most {MAX_NOTES} announcement lines", "notes_count", {"most": MAX_NOTES})
    page = P.read(Query(page_items), own)
    prayer = _prayer_params(prayer_items, now_s)
    if "city" in prayer and not any(name in ("method", MOSQUE_NAME) for name, _ in prayer_items):
        own_method = place_defaults.for_city(prayer["city"]).method  # the city's own, as on its page
        if own_method != prayer["method"]:
            prayer_items = [*prayer_items, ("method", own_method)]
            prayer = _prayer_params(prayer_items, now_s)
    if not any(name in ("midnight", MOSQUE_NAME) for name, _ in prayer_items):
        # the midnight of the authority the screen names (the place's own with its method; issue 33)
        midnight = place_defaults.page_midnight(str(prayer["method"]), prayer.get("city"))
        if midnight is not None:
            prayer_items = [*prayer_items, ("midnight", midnight)]
            prayer = _prayer_params(prayer_items, now_s)
    if "city" not in prayer and "tz" not in prayer:
        raise QueryError("tz", f"the {kind} shows local times: give tz (an IANA zone, or auto) with lat and lng",
                         f"{kind}_local_times")
    mosque_id = next((value for name, value in prayer_items if name == MOSQUE_NAME), None)
    if mosque_id is not None:  # the mosque's reckoning dates its Eid days and the screen's Hijri date alike
        calendar = mosques.find(mosque_id).reckoning
        # the profile's screen options are the defaults of its screen (the address may still choose)
        page = {**page, **{name: value for name, value in mosques.find(mosque_id).screen.items()
                           if page.get(name) is None}}
        if page["calendar"] not in (None, calendar):
            raise QueryError("calendar", f"set by the profile of mosque={mosque_id} ({calendar}); leave calendar out")
    else:
        calendar = page["calendar"] or _city_calendar(prayer.get("city"))
        if any(name in prayer for name in JP.DATED):  # the Eid days and Ramadan's rules follow the screen's reckoning
            prayer_items = [*prayer_items, ("calendar", calendar)]  # (prayer-times reads calendar with either)
            prayer = _prayer_params(prayer_items, now_s)
    notice = page.get("notice") or DEFAULT_NOTICE_MIN
    if kind == "screen" and API_HAS_NOTICE and "jamaat" in prayer and NOTICE_API not in prayer:
        prayer = _prayer_params([*prayer_items, (NOTICE_API, str(notice))], now_s)
    if page.get("qr") == "page" and mosque_id is None and "city" not in prayer:
        raise QueryError("qr", "page needs a city or a mosque (coordinates have no page); use qr=feed")
    lang = page["lang"]
    lang2 = page.get("lang2") or default_second(mosque_id, lang)
    if lang2 == lang:
        raise QueryError("lang2", f"must differ from lang ({lang}); none for one language", "lang2_same",
                         {"lang": lang})
    return PageQuery(kind=kind, prayer=tuple(prayer.items()), lang=lang,
                     clock=page["clock"] or words.DEFAULT_CLOCK[lang], calendar=calendar, name=page["name"],
                     notes=tuple(notes), theme=page.get("theme") or "auto", mosque=mosque_id, notice=notice,
                     in_prayer=page.get("inPrayer"), qr=page.get("qr"),
                     line_s=page.get("lineSeconds") or DEFAULT_LINE_S,
                     lang2=None if kind != "screen" or lang2 in (None, NO_SECOND) else lang2)


def default_second(mosque_id: str | None, lang: str) -> str | None:
    """A mosque's screen shows its other language too: the first of its profile's languages other than ``lang``,
    when the profile names two or more (a query's screen has none)."""
    if mosque_id is None:
        return None
    languages = mosques.find(mosque_id).languages
    return next((other for other in languages if other != lang), None) if len(languages) > 1 else None


def _prayer_params(items: list[tuple[str, str]], now_s: float) -> dict:
    """Return the canonical /v1/prayer-times parameters of a year at the place, without the year."""
    canonical = PRAYER_TIMES.parse(Query([*items, ("year", "2000")]), now_s).params
    return {key: value for key, value in canonical.items() if key != "year"}


def read_notes(raw: str) -> list[str]:
    """Return the announcement lines of one ``note`` value (``|`` separates lines; blank ones dropped)."""
    lines = [" ".join(line.split()) for line in raw.split("|")]
    for line in lines:
        if len(line) > MAX_NOTE_CHARS:
            raise QueryError(NOTE_NAME, f"each announcement line at most {MAX_NOTE_CHARS} characters", "note_chars",
                             {"most": MAX_NOTE_CHARS})
        if _CONTROL.search(line):
            raise QueryError(NOTE_NAME, "control characters are not allowed", "control_characters")
    return [line for line in lines if line]


def _city_calendar(city_id: str | None) -> str:
    """The reckoning of a city's timetable (its place's: Iran's official calendar in Iran), else sighting."""
    return place_defaults.for_city(city_id).calendar


def place_community(query: PageQuery) -> str | None:
    """The community whose events the screen shows: its city's (a mosque's: its profile's city, else its zone's
    country's, as its page: `place_defaults.place_community`), else None."""
    if query.mosque is not None:
        return place_defaults.place_community(mosques.find(query.mosque).place)
    return place_defaults.city_community(dict(query.prayer).get("city"))


def data_urls(name: str, params: dict, slot_key: str, slot: str) -> list[str]:
    """Return the addresses of an answer whose ``slot_key`` the script fills (``slot`` marks it): the static
    path URL first when the parameters have one, then the query URL."""
    filled = {**params, slot_key: slot}
    out = []
    path = static_paths.relative_path(name, filled)
    if f"/{static_paths.HASHED_DIR}/" not in path:
        out.append("/" + path)
    out.append(responses.api_url(name, filled))
    return out


def place_name(query: PageQuery, today: date) -> str:
    """Return the heading: the mosque's name (the query's, else its profile's in the page's language), else the
    city's name in the page's language, else the coordinates."""
    if query.name:
        return query.name
    if query.mosque is not None:
        return mosques.find(query.mosque).name(query.lang)
    prayer = dict(query.prayer)
    if "city" in prayer:
        return responses.catalogue_city(prayer["city"], today)["names"][query.lang]
    return words.coordinates(prayer["lat"], prayer["lng"], query.lang)


def mosque_announcements(query: PageQuery) -> tuple[announcements.Announcement, ...]:
    """The mosque's announcements the page shows: none when the query gives its own ``note`` lines (or no mosque)."""
    if query.notes or query.mosque is None:
        return ()
    return mosques.find(query.mosque).announcements


def shown_notes(query: PageQuery, lang: str, day: date, kind: str = announcements.LINE,
                exact: bool = False) -> list[dict]:
    """The band's lines (``kind`` line) or the slides (``kind`` slide) in ``lang``: the query's ``note`` lines (every
    day), else the mosque's announcements of that kind, each ``item`` its index (the script shows it on the days
    ``config.announcements`` lists for it), ``off`` when it does not apply on the place's date ``day``, its text in
    ``lang`` (else, unless ``exact``, in the mosque's first language that has one: its ``lang``) as ``lines``."""
    if query.notes:
        return [{"item": None, "lang": None, "lines": [note], "off": False}
                for note in query.notes] if kind == announcements.LINE and lang == query.lang else []
    items = mosque_announcements(query)
    if not items:
        return []
    on = set(announcements.active_on(items, day))
    languages = () if exact else mosques.find(query.mosque).languages
    out = []
    for k, item in enumerate(items):
        found = item.in_language(lang, languages)
        if item.kind != kind or found is None or (exact and found[0] != lang):
            continue
        out.append({"item": k, "lang": found[0], "lines": found[1].split("\n"), "off": k not in on})
    return out


def announcement_days(query: PageQuery, first: date) -> dict[str, list[int]] | None:
    """Which of the mosque's announcements apply on each of `ANNOUNCE_DAYS` place's dates from ``first`` (ISO date:
    indices), as the script reads them (`announcements.active`, the one rule); None: the page has none."""
    items = mosque_announcements(query)
    if not items:
        return None
    grid = announcements.active(items, first, ANNOUNCE_DAYS)
    return {(first + timedelta(days=n)).isoformat(): [int(k) for k in grid[:, n].nonzero()[0]]
            for n in range(ANNOUNCE_DAYS)}


def second_language(query: PageQuery, today: date) -> dict | None:
    """What a bilingual screen writes in its second language (None: one language): the prayers' names and headings
    beside the first language's, the heading's name when it differs, and the words the template shows (its
    announcements: `shown_notes` with ``exact``; the query's own lines are in the first language)."""
    lang2 = query.lang2
    if lang2 is None:
        return None
    names = {**feed_words.PRAYER_NAMES[lang2], **{t: words.TIME_NAMES[lang2][t] for t in MINOR}}
    place = place_name(dataclasses.replace(query, lang=lang2), today)
    return {"lang": lang2, "dir": words.direction(lang2), "w": words.WORDS[lang2], "names": names,
            "place": None if place == place_name(query, today) else place}


def config(query: PageQuery, today: date) -> dict:
    """Return what the page's script reads: addresses, the zone, the words of the language."""
    lang = query.lang
    prayer = dict(query.prayer)
    tz = prayer.get("tz") or responses.catalogue_city(prayer["city"], today)["tz"]
    community = place_community(query)  # the place's own events and nights (issue 33), as its pages show them
    own = {"community": community} if community else {}
    out = {
        "kind": query.kind,
        "lang": lang,
        "tz": tz,
        "clock": query.clock,
        "calendar": query.calendar,
        "prayerTimes": data_urls("prayer-times", prayer, "year", YEAR_SLOT),
        "dayStatus": data_urls("day-status", {"calendar": query.calendar} | own, "date", DATE_SLOT),
        # the catalogue's nights (/v1/events' `night`): a day-status lists its Hijri date's night among the day's
        # events, which the screen names only until that day's fajr (docs/decisions.md, "Naming a night")
        "nights": [e["id"] for e in responses.api_json("events", own, today)["events"] if e.get("night")],
        "words": script_words(lang, query.calendar),
    }
    if query.lang2 is not None:  # the other turn of a bilingual screen's sentences (screen.js speak)
        out["second"] = {"lang": query.lang2, "dir": words.direction(query.lang2),
                         "words": script_words(query.lang2, query.calendar)}
    if "fa" in (lang, query.lang2):
        out["shamsiMonths"] = shamsi_months(today.year - SHAMSI_YEARS, today.year + SHAMSI_YEARS)
    out["zone"] = zone_offsets(tz, today.year - ZONE_YEARS, today.year + ZONE_YEARS)
    out["clockChanges"] = clock_changes(tz, out["zone"])  # said on the band and the widget (gallery review 4)
    if query.in_prayer:
        out["inPrayer"] = query.in_prayer
    out["lineMs"] = query.line_s * 1000
    return out


def script_words(lang: str, calendar: str) -> dict:
    """The words of ``lang`` the page's script writes with (data/glossary.csv)."""
    w = words.WORDS[lang]
    out = {
        "prayers": {p: feed_words.PRAYER_NAMES[lang][p] for p in feed_words.PRAYERS},
        "times": {t: words.TIME_NAMES[lang][t] for t in ("imsak", "sunrise", "sunset", "midnight")},
        # the widget's "Next:" names an adhan as the city page's card does («اذان ظهر», not «ظهر»: gallery fa LANG3-10)
        "adhanNames": {p: words.TIME_NAMES[lang][p] for p in feed_words.PRAYERS},
        # in Ramadan its "Next:" names maghrib as iftar, as the city card does («افطار (اذان مغرب)»: gallery
        # review 4, fa LANG4-04; page.iftar_maghrib)
        "iftar": words.iftar_name(lang),
        "months": words.GREGORIAN_MONTHS[lang],
        # the Hijri date writes its month after the day number: Arabic «٢٥ ذي القعدة», as the pages do
        "hijriMonths": [hijri_names.month_in_date(month, lang) for month in range(1, 13)],
        "weekdays": hijri_names.WEEKDAYS[lang],  # Monday first, as Python's weekday()
        "periods": [[hour, feed_words.CLOCK_WORDS[lang][key]] for hour, key in feed_words.DAY_PERIODS[lang]],
        **list_words(lang),
        **{key: w[f"screen.{key}"] for key in SCREEN_WORDS},
        # the time left, by how long it is (time_left.js: Urdu in words, gallery review UR2-1)
        "greetings": words.GREETINGS[lang],  # by event id: the band's line on an Eid (screen.js greetingText)
        "hijriDate": hijri_names.term_form(lang),  # the widget's Hijri date, with its era mark (hijriText)
        "nextIn": {"hours": w["next_in"], "oneHour": w["next_in_one_hour"], "minutes": w["next_in_minutes"]},
        # the clock change, on its day and from 12 hours before it (clockText fills {time}; gallery review 4)
        **{key: w[key] for key in ("clock_back", "clock_forward", "clock_back_tonight", "clock_forward_tonight",
                                   "clock_hour", "clock_minutes")},
        "calendar": words.SCREEN_RECKONINGS[lang][calendar],  # after the Hijri date and a space
        "sep": words.SEPARATOR[lang],
    }
    if lang == "ur":  # Urdu names the part of the day of the prayer, not of the clock hour (feed_words.period_of)
        out["eventPeriods"] = {
            "events": dict(feed_words.UR_EVENT_PERIODS), "words": dict(feed_words.CLOCK_WORDS[lang]),
            "eveningUntil": feed_words.UR_EVENING_UNTIL_HOUR, "lateAfternoonFrom": feed_words.UR_LATE_AFTERNOON_FROM_HOUR,
        }
    if lang == "fa":
        out["shamsiMonths"] = list(shamsi.MONTHS_FA)
    return out


def clock_changes(tz: str, zone: list[list[int]]) -> list[dict]:
    """Return each change of the zone's clock in ``zone`` (`zone_offsets`) as the pages and /v1/day-status say it
    (`timezones.clock_change`): the local date whose night held it, its instant (Unix ms), the change in minutes
    and the old clock's HH:MM, so that the script only compares instants and dates (gallery review 4: ar AR4-03,
    fa LANG4-01, ur UR4-05; docs/decisions.md "The clock change named on its day")."""
    out = []
    for at_ms, after_min in zone[1:]:
        at_s = at_ms // 1000
        local_day = (at_s + after_min * 60) // 86400
        for unix_day in (local_day, local_day + 1):  # a change after local noon belongs to the next day
            change = timezones.clock_change(tz, unix_day)
            if change is not None and change[0] == at_s:
                out.append({"date": (date(1970, 1, 1) + timedelta(days=unix_day)).isoformat(), "at": at_ms,
                            "minutes": change[2], "before": timezones.reading_before(change)})
                break
    return out


def zone_offsets(tz: str, first_year: int, last_year: int) -> list[list[int]]:
    """Return the zone's UTC offsets over the Gregorian years (inclusive): [[Unix ms from which it holds, minutes
    east of UTC], ...] in order, the first from 1 January of ``first_year``.

    The page's wall clock is the instant plus this offset (tzdata, the server's zoneinfo), so the screen needs
    no Intl time-zone support (absent or without zone data on older TV engines; docs/site.md, "Old TVs").
    A change is found by probing every `ZONE_PROBE` and bisecting to the second between probes that differ.
    """
    zone = ZoneInfo(tz)

    def minutes(ts: int) -> int:
        return int(datetime.fromtimestamp(ts, zone).utcoffset().total_seconds() // 60)

    start = int(datetime(first_year, 1, 1, tzinfo=timezone.utc).timestamp())
    end = int(datetime(last_year + 1, 1, 1, tzinfo=timezone.utc).timestamp())
    out = [[start * 1000, minutes(start)]]
    step = int(ZONE_PROBE.total_seconds())
    for probe in range(start + step, end + step, step):
        probe = min(probe, end)
        if minutes(probe) == out[-1][1]:
            continue
        low, high = probe - step, probe  # minutes(low) is the last offset, minutes(high) the new one
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if minutes(middle) == out[-1][1] else (low, middle)
        out.append([high * 1000, minutes(high)])
    return out


def list_words(lang: str) -> dict[str, str]:
    """Return the words joining a list in ``lang`` as the feeds join it: two items ("a and b": ``pair``), and
    three or more ("a, b and c": ``comma``, ``and``; glossary list.next, list.last), so Arabic writes «أ وب» and
    «أ، وب، وج» as the pages do (not «أ، ب وج», read as one jamaat of the last two: ar S-2 of the second
    language review of 2026-11-26)."""
    two = feed_words.join_list(["\x01", "\x02"], lang)
    three = feed_words.join_list(["\x01", "\x02", "\x03"], lang)
    return {"pair": two[1:two.index("\x02")], "comma": three[1:three.index("\x02")],
            "and": three[three.index("\x02") + 1:three.index("\x03")]}


def shamsi_months(first_year: int, last_year: int) -> list[list]:
    """Return the Solar Hijri months starting in the Gregorian years (inclusive), and the one running on
    their first day: [ISO date of its 1st, year, month] in order (the script counts the days from the 1st)."""
    out = []
    first = date(first_year, 1, 1)
    year, month, _ = shamsi.from_gregorian(first)
    while True:
        start = shamsi.to_gregorian(year, month, 1)
        if start.year > last_year:
            return out
        out.append([start.isoformat(), year, month])
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


# --- the pages ------------------------------------------------------------------------------------

ROWS = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha", "midnight")  # the screen's rows, in order
WIDGET_ROWS = ROWS[:-1]
MINOR = frozenset({"imsak", "sunrise", "midnight"})  # times without a jamaat, in smaller type
RAMADAN_ONLY = frozenset({"imsak"})  # rows shown in Ramadan only (under the page's reckoning)
RAMADAN_MONTH = 9
SCOPE = "/screen/"  # the service worker's scope: the screen's pages
SERVICE_WORKER = "/screen/sw.js"
# The worker's headers: it is also registered for a mosque's short address, /mosque/<id>/screen/ (screen_sw.js),
# outside the folder of its script.  The header names one path, the widest scope allowed: "/mosque/" alone would
# forbid /screen/ itself, so "/" (the worker touches nothing in a scope other than those two).  deploy/nginx.conf
# sends the same header with the file.
SERVICE_WORKER_HEADERS = (("Service-Worker-Allowed", "/"),)
WIDGET_SCRIPT = "/widget.js"


@functools.cache
def asset(name: str) -> str:
    """Return an asset's text (generator/site/assets/)."""
    return (ASSETS / name).read_text(encoding="utf-8")


@functools.cache
def script(kind: str) -> str:
    """Return the page's one script: the shared part and the screen's or the widget's, in one function scope."""
    own = ["screen.js"] if kind == "screen" else ["time_left.js", "widget_page.js"]
    return '(function () {\n"use strict";\n' + "\n".join(asset(name) for name in ["screen_core.js", *own]) + "})();\n"


def stylesheet(kind: str) -> str:
    return asset("screen.css" if kind == "screen" else "widget.css")


def source_hash(text: str) -> str:
    """Return a CSP source expression allowing exactly this inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@functools.cache
def content_security_policy(kind: str) -> str:
    """Return the page's Content-Security-Policy: its own inline script and style (by hash), this origin's
    answers, nothing else; the screen may be framed only by this origin, the widget by any page."""
    directives = ["default-src 'none'", f"script-src {source_hash(script(kind))}",
                  f"style-src {source_hash(stylesheet(kind))}", "connect-src 'self'", "img-src data:",
                  "base-uri 'none'", "form-action 'none'"]
    if kind == "screen":
        directives += ["worker-src 'self'", "frame-ancestors 'self'"]
    else:
        directives += ["frame-ancestors *"]
    return "; ".join(directives)


def _json(value: object) -> Markup:
    return Markup(orjson.dumps(value).decode().replace("<", "\\u003c"))


def page_path(query: PageQuery, lang: str) -> str:
    """Return the canonical site path of this screen or widget in ``lang``: the canonical prayer-times
    parameters, then the page's own ones that differ from their defaults, every value percent-encoded."""
    if query.mosque is not None:  # the profile stands for its parameters and its reckoning
        items = [(MOSQUE_NAME, query.mosque), ("lang", lang)]
    else:
        items = [*query.prayer, ("lang", lang)]
    if query.clock != words.DEFAULT_CLOCK[query.lang]:
        items.append(("clock", query.clock))
    if query.mosque is None and query.calendar != _city_calendar(dict(query.prayer).get("city")):
        items.append(("calendar", query.calendar))
    if query.name:
        items.append(("name", query.name))
    items += [(NOTE_NAME, note) for note in query.notes]
    if query.kind == "widget" and query.theme != "auto":
        items.append(("theme", query.theme))
    if query.kind == "screen":
        items = [item for item in items if item[0] != NOTICE_API]  # the screen's notice stands for it
        second = query.lang if query.lang2 == lang else query.lang2  # in the other language, the same pair
        if (second or NO_SECOND) != (default_second(query.mosque, lang) or NO_SECOND):
            items.append(("lang2", second or NO_SECOND))
        profile = mosques.find(query.mosque).screen if query.mosque is not None else {}  # implied by mosque=
        for name, value, default in (("notice", query.notice, profile.get("notice", DEFAULT_NOTICE_MIN)),
                                     ("inPrayer", query.in_prayer, profile.get("inPrayer")),
                                     ("lineSeconds", query.line_s, profile.get("lineSeconds", DEFAULT_LINE_S)),
                                     ("qr", query.qr, profile.get("qr"))):
            if value != default:
                items.append((name, value))
    return f"/{query.kind}/?" + urlencode([(k, str(v)) for k, v in items], quote_via=quote, safe="")


def page_head(query: PageQuery, title: str, place: str) -> dict:
    """The head of a screen or widget (generator/site/head.py): its description, its canonical address and
    the same query in the four languages.  Neither is in the sitemap (a query of its place and rules)."""
    description = words.WORDS[query.lang][f"description.{query.kind}"].format(place=place)
    return head.page_head(query.lang, title, description, lambda other: page_path(query, other))["head"]


def place_today(query: PageQuery, tz: str, today: date) -> date:
    """The place's date the page is rendered for: the place's date at noon UTC of ``today`` (the page is cached per
    UTC day; its script shows the place's own today from the clock)."""
    return datetime.fromtimestamp(responses.now_s(today), ZoneInfo(tz)).date()


def rendered_day(query: PageQuery, day_iso: str, today: date) -> dict:
    """The day the page carries rendered: /v1/prayer-times' day and /v1/day-status' answer for the place's date
    (the script starts from them, and a browser without scripts reads them)."""
    prayer = dict(query.prayer)
    day = responses.api_json("prayer-times", {**prayer, "date": day_iso}, today)["days"][0]
    community = place_community(query)
    status = responses.api_json("day-status", {"calendar": query.calendar, "date": day_iso}
                                | ({"community": community} if community else {}), today)
    return {"date": day_iso, "day": day, "status": status}


def _native(text: object, lang: str) -> str:
    return feed_words.native(str(text), lang)


def table_text(query: PageQuery, seed: dict) -> dict:
    """The texts of the page's rendered day, as its script writes them (screen_core.js: clockText, gregorianText,
    hijriText, shamsiText, joinList)."""
    lang, clock = query.lang, query.clock
    day, status = seed["day"], seed["status"]
    on_clock = functools.partial(feed_words.clock_text, lang=lang, clock=clock, marked=False)
    iso = date.fromisoformat(seed["date"])
    weekday = hijri_names.WEEKDAYS[lang][iso.weekday()]
    gregorian = f"{_native(iso.day, lang)} {words.GREGORIAN_MONTHS[lang][iso.month - 1]} {_native(iso.year, lang)}"
    h = status["hijri"]
    if query.kind == "widget":  # with the era mark (glossary hijri_date; gallery review UR2-4); the screen writes
        # its reckoning's words after the date instead («ھ (رویت: پاکستان)»: reckoning.screen)
        hijri_text = hijri_names.formatted(h["hy"], h["hm"], h["hd"])[lang]
    else:
        hijri_text = f"{_native(h['hd'], lang)} {hijri_names.month_in_date(h['hm'], lang)} {_native(h['hy'], lang)}"
    shamsi_text = None
    if lang == "fa":
        sy, sm, sd = shamsi.from_gregorian(iso)
        # the weekday goes with the Solar Hijri date, which leads (fa FA-18)
        shamsi_text = f"{weekday} {_native(sd, lang)} {shamsi.MONTHS_FA[sm - 1]} {_native(sy, lang)}"
    else:
        gregorian = f"{weekday} {gregorian}"
    local = day.get("jamaatLocal") or {}
    cells = {name: {"adhan": on_clock(day["local"].get(name, "")),
                    "jamaat": on_clock(local[name]) if isinstance(local.get(name), str) else "", "fadhila": False}
             for name in ROWS}
    slots = {name: feed_words.join_list([on_clock(t) for t in local.get(name) or []], lang) for name in ("jumuah", "eid")}

    def listed(field: str, with_time: bool = True) -> str:
        names = day.get(field) or []
        if field == "jamaatMoved":  # moved to the opening of the time: not those moved back from its end
            names = [n for n in names if n not in (day.get("jamaatMovedEnd") or [])]
        return feed_words.join_list([
            f"{feed_words.PRAYER_NAMES[lang].get(name) or words.WORDS[lang]['screen.' + name]}"
            + ((" " + (feed_words.join_list([on_clock(t) for t in local[name]], lang)
                       if isinstance(local.get(name), list) else on_clock(local.get(name, "")))) if with_time else "")
            for name in names], lang)

    # The day's notes, as screen.js writes them (renderChanges): moved back inside the time, then a declared time
    # outside it kept or skipped (issue 33, jamaatOutside).
    notes = [words.WORDS[lang][key].format(prayers=listed(field, with_time)) for field, key, with_time in (
        ("jamaatMovedEnd", "screen.moved_end", True), ("jamaatMoved", "screen.moved_later", True),
        ("jamaatKept", "screen.outside_kept", True), ("jamaatSkipped", "screen.outside_skipped", False))
        if listed(field, with_time)]
    if day.get("jamaat"):  # at a mosque asr's and isha's computed times open their recommended times (screen_core.js
        for name in FADHILA:  # fadhilaOn): combined, they have no adhan; apart, the mosque's adhan goes with its jamaat
            cells[name]["fadhila"] = True
    return {"gregorian": gregorian, "hijri": hijri_text, "shamsi": shamsi_text, "cells": cells, "slots": slots,
            "ramadan": h["hm"] == RAMADAN_MONTH, "jamaat": bool(day.get("jamaat")), "moved": " ".join(notes)}


QR_BORDER_MODULES = qr_code.QR_BORDER_MODULES  # the quiet zone ISO/IEC 18004 asks for


def qr_target(query: PageQuery, today: date) -> str:
    """The absolute address the screen's QR code carries (``qr=page`` or ``qr=feed``)."""
    prayer = dict(query.prayer)
    if query.qr == "feed":
        if query.mosque is not None:
            return urls.absolute(responses.api_url("prayer-times.ics", {MOSQUE_NAME: query.mosque}))
        # the same place and rules; a city's feed takes the city's own zone (it refuses tz with city)
        # (and no midnight: the feed shows no midnight event, and refuses the option)
        feed = {k: v for k, v in prayer.items()
                if k not in (NOTICE_API, "midnight") and not (k == "tz" and "city" in prayer)}
        return urls.absolute(responses.api_url("prayer-times.ics", feed))
    if query.mosque is not None:
        return urls.absolute(urls.mosque_url(query.mosque, query.lang))
    own_method = place_defaults.for_city(prayer["city"]).method  # the city page's own method (issue 26)
    return urls.absolute(urls.city_url(prayer["city"], query.lang, prayer.get("method", own_method), own_method))


def qr_svg(text: str) -> Markup:
    """An inline SVG of a QR code of ``text`` (`generator.site.qr_code`: shared with the printed month)."""
    return qr_code.svg(text)


def reckoning_parts(label: str) -> tuple[str, str]:
    """Return the screen's reckoning label as (what precedes its bracket, the bracket): the bracket names the
    authority and is kept whole on a line (screen.css ``.authority``; screen.js splits it the same way)."""
    head, bracket, rest = label.partition("(")
    return head, bracket + rest


def render(query: PageQuery, today: date) -> bytes:
    """Return the HTML of a screen or widget (``today``: the UTC date of the request)."""
    lang = query.lang
    w = words.WORDS[lang]
    # Read first, so that what the page shows is of this version or a later one: a later one only makes the page
    # reload once more (screen_core.js followProfile), never keep an edit it does not show.
    follow = profile_to_follow(query)
    place = place_name(query, today)
    page_config = config(query, today)
    if follow is not None:
        page_config["profile"] = follow
    local = place_today(query, page_config["tz"], today)
    seed = rendered_day(query, local.isoformat(), today)
    page_config["today"] = seed
    days = announcement_days(query, local - timedelta(days=1))
    if days is not None:
        page_config["announcements"] = days
    names = {**feed_words.PRAYER_NAMES[lang], **{t: words.TIME_NAMES[lang][t] for t in MINOR}}
    text = table_text(query, seed)
    rows = [{"id": t, "name": names[t], "minor": t in MINOR, "hidden": t in RAMADAN_ONLY and not text["ramadan"],
             **text["cells"][t]} for t in (ROWS if query.kind == "screen" else WIDGET_ROWS)]
    second = second_language(query, today)
    notes = {"first": shown_notes(query, lang, local), "second": shown_notes(query, query.lang2, local, exact=True)
             if second else []}
    slides = {"first": shown_notes(query, lang, local, announcements.SLIDE),
              "second": shown_notes(query, query.lang2, local, announcements.SLIDE, exact=True) if second else []}
    context = dict(lang=lang, dir=words.direction(lang), sep=words.SEPARATOR[lang], w=w, place=place, rows=rows,
                   today=text, css=Markup(stylesheet(query.kind)), script=Markup(script(query.kind)),
                   second=second, notes=notes,
                   official_time=words.OFFICIAL_TIME[lang].get(page_config["tz"]))
    if query.kind == "screen":
        page_config.update(serviceWorker=SERVICE_WORKER, scope=SCOPE)
        if query.mosque is not None:
            page_config["home"] = home_worker(query.mosque)
        title = w["screen.title"].format(place=place)
        qr = qr_svg(qr_target(query, today)) if query.qr else None
        return environment().get_template("screen.html.j2").render(
            **context, title=title, head=page_head(query, title, place), slides=slides, qr=qr,
            reckoning_parts=reckoning_parts(words.SCREEN_RECKONINGS[lang][query.calendar]),
            method=method_label(query, today),
            config=_json(page_config)).encode("utf-8")
    month_href, page_config["monthLink"] = month_links(query, today)
    title = w["widget.title"].format(place=place)
    return environment().get_template("widget.html.j2").render(
        **context, title=title, head=page_head(query, title, place), theme=query.theme,
        color_scheme={"auto": "light dark", "light": "light", "dark": "dark"}[query.theme],
        month_href=month_href, config=_json(page_config)).encode("utf-8")


def profile_to_follow(query: PageQuery) -> dict | None:
    """What a page of a hosted profile asks to follow its edits (screen_core.js followProfile): the profile's address
    and the version the page is rendered with (its ETag there is ``"<version>"``); None for a file profile (it
    changes only with a deployment) or a page without ``mosque=``."""
    mosque = mosques.find(query.mosque) if query.mosque is not None else None
    if mosque is None or not mosque.hosted:
        return None
    return {"url": mosques.PROFILE_PATH.format(id=mosque.id), "version": mosque.version}


def method_label(query: PageQuery, today: date) -> str:
    """Return the label of the screen's method in its language (a printed table's authority names it)."""
    labels = {m["id"]: m["label"][query.lang] for m in responses.api_json("methods", {}, today)["methods"]}
    method = str(dict(query.prayer).get("method", ""))
    return labels.get(method, method)


def month_links(query: PageQuery, today: date) -> tuple[str, str | None]:
    """Return the widget's link to the month: the city's timetable page when the query is one a page shows
    (a catalogue city in its own zone, any method, no option), else the month's /v1/prayer-times.csv;
    and the script's template for it (None: the link does not change with the month).  A mosque's widget links
    its page (which shows its month)."""
    if query.mosque is not None:
        return urls.mosque_url(query.mosque, query.lang), None
    prayer = dict(query.prayer)
    if ("city" in prayer and set(prayer) <= {"city", "tz", "method", "midnight"} and "," not in prayer.get("method", "")
            and prayer.get("midnight") == place_defaults.page_midnight(prayer.get("method"), prayer["city"])):
        city = responses.catalogue_city(prayer["city"], today)
        if prayer.get("tz", city["tz"]) == city["tz"]:
            own_method = place_defaults.for_city(city["id"]).method
            return urls.city_url(city["id"], query.lang, prayer.get("method", own_method), own_method), None
    template = responses.api_url("prayer-times.csv", {**prayer, "year": YEAR_SLOT, "month": "MONTH"})
    return template.replace("year=YEAR", f"year={today.year}").replace("month=MONTH", f"month={today.month}"), template


def widget_script(today: date) -> bytes:
    """Return /widget.js: the one-line embed (it inserts the widget's iframe; docs/site.md)."""
    titles = {lang: words.WORDS[lang]["site"] for lang in words.LANGUAGES}
    return asset("widget.js").replace("TITLES", orjson.dumps(titles).decode()).encode("utf-8")


def home_worker(mosque: str) -> dict | None:
    """The registration that makes a mosque's short address start its screen without network (screen_sw.js):
    its scope, the short address, and the worker's address carrying where that address leads now (the app's own
    redirect target, `mosque_page.screen_location`).  The page registers it when it is that target itself, i.e. the
    screen the short address opens, which is the copy the /screen/ registration keeps."""
    target = mosque_page.screen_location(mosque)
    if target is None:
        return None
    return {"scope": mosques.SCREEN_PATH.format(id=mosque), "screen": target,
            "serviceWorker": f"{SERVICE_WORKER}?screen={quote(target, safe='')}"}


def service_worker(today: date) -> bytes:
    """Return /screen/sw.js, the screen's service worker."""
    return asset("screen_sw.js").encode("utf-8")
