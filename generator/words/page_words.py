"""The words of the site's pages in en, ar, fa and ur, and the digits each language writes.

Every text is a term of the reviewed glossary (`generator.words.glossary`, data/glossary.csv),
written as a reader of each language expects it (docs/site.md):

* Digits follow docs/decisions.md ("Names and digits"): Arabic-Indic for ar, Extended
  Arabic-Indic for fa and ur, ASCII for en, for every number on a page (dates, times,
  years), as printed timetables in those languages do.
* Prayer names are the feeds' (`generator.words.feed_words`) plus imsak, sunrise, sunset and
  midnight; Persian uses the column names of Iran's official timetables.
* Gregorian month names: Arabic uses the Iraqi and Levantine names (كانون الثاني …), those
  of the largest Arabic-speaking Shia communities; Persian and Urdu use their usual
  transliterations.
"""
from __future__ import annotations

from generator.words import feed_words, glossary
from generator.words.locale import DECIMAL_SEPARATOR, DEFAULT_LANGUAGE, LANGUAGES, RTL, direction  # noqa: F401
from generator.words.locale import native as digits  # noqa: F401  (pages call it digits)

LRI, PDI = glossary.LRI, glossary.PDI
# Between items on a line.  Not "·" in Arabic script: Persian and Urdu write zero as a dot (۰).
SEPARATOR = {"en": " · ", "ar": " — ", "fa": " — ", "ur": " — "}
LANGUAGE_NAMES = {"en": "English", "ar": "العربية", "fa": "فارسی", "ur": "اردو"}


def number(value: float | int | str, lang: str, *, signed: bool = False) -> str:
    """Return a (possibly signed, decimal) number (or its text, "67.00") in the digits and decimal separator of ``lang``.

    ``signed`` writes "+" before positive numbers.  In right-to-left text a number with a
    sign is isolated left-to-right (LRI … PDI), so the sign stays before the digits.
    """
    text = f"{value:+}" if signed else str(value)
    text = digits(text.replace(".", DECIMAL_SEPARATOR[lang]), lang)
    return f"{LRI}{text}{PDI}" if lang in RTL and text[0] in "+-" else text


# Times in the timetable: the feeds' clock of each language (12-hour for ar and ur, as printed
# timetables in Iraq and Pakistan; 24-hour for fa and en), without the before/after-noon word:
# the column names the prayer, as on printed timetables.
DEFAULT_CLOCK = feed_words.DEFAULT_CLOCK


def clock(hhmm: str, lang: str) -> str:
    """Return a local "HH:mm" as a timetable cell of ``lang`` shows it (see `DEFAULT_CLOCK`)."""
    return feed_words.clock_text(hhmm, lang, DEFAULT_CLOCK[lang], marked=False)


def isolate(text: str, lang: str) -> str:
    """Return left-to-right ``text`` (an id such as "Asia/Tehran") isolated inside right-to-left text."""
    return f"{LRI}{text}{PDI}" if lang in RTL else text


COORDINATE_WORDS = glossary.group("coordinate")
GREETINGS = glossary.group("greeting")  # by event id: what is said to one another on that day ("Eid Mubarak")
LIST_COMMA = glossary.term("list.comma")  # between the items of a list
LIST_OR = glossary.term("list.or")  # before the last of a list of alternatives
LIST_OR_NEXT = glossary.term("list.or_next")  # between the earlier ones (Arabic repeats أو)


def degrees(value: float | str, lang: str) -> str:
    """Return an angle with its degree sign: "35.69°"; in right-to-left text isolated left to right (LRI … PDI),
    so the sign stands on the same side of every figure of a line (after a word the digits resolved otherwise
    and «°» left them: «۲۴٫۸۶°» beside «°۶۷٫۰۰», gallery review UR7-05)."""
    text = number(value, lang) + "°"
    return f"{LRI}{text}{PDI}" if lang in RTL else text


def coordinate(value_deg: float, axis: str, lang: str, decimals: int | None = None) -> str:
    """Return a latitude (``axis`` "lat") or longitude ("lng") with its hemisphere word: "35.69° N", "٣٥٫٦٩° شمالاً".
    ``decimals``: written with that many (a catalogue city's, known to two); else as given (a query's "33.5")."""
    hemisphere = {"lat": ("north", "south"), "lng": ("east", "west")}[axis][value_deg < 0]
    value = abs(value_deg) if decimals is None else f"{abs(value_deg):.{decimals}f}"
    return COORDINATE_WORDS[lang][hemisphere].format(deg=degrees(value, lang))


def coordinates(lat_deg: float, lng_deg: float, lang: str) -> str:
    """Return a place as its latitude and longitude with hemisphere words: "43.84° N, 79.46° W",
    "٤٣٫٨٤° شمالاً، ٧٩٫٤٦° غرباً" (no sign to misplace in right-to-left text)."""
    return coordinate(lat_deg, "lat", lang) + LIST_COMMA[lang] + coordinate(lng_deg, "lng", lang)


def zone(tz: str, city_name: str, lang: str) -> str:
    """Return a time zone as a reader names it: "Baghdad time (Asia/Baghdad)", "توقيت بغداد (Asia/Baghdad)".

    ``city_name`` is the name, in ``lang``, of the city the zone is named after when it is in
    the catalogue, else of the page's own city: both keep the zone's clock.  A country whose one
    zone its readers name after the country ("India time", «پاکستانی معیاری وقت») has its own row
    (`page.zone_country.<zone>`).
    """
    if tz in ZONE_COUNTRY[lang]:
        return ZONE_COUNTRY[lang][tz].format(tz=isolate(tz, lang))
    return WORDS[lang]["zone"].format(city=city_name, tz=isolate(tz, lang))


TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight")
TIME_NAMES = glossary.group("column")
GREGORIAN_MONTHS = glossary.sequence("gregorian_month")
# Short labels of the reckonings (columns of the timetable) and what they are (its notes).
CALENDAR_LABELS = glossary.group("reckoning.label")
# The screen's Hijri line after the date, each language's own form («هـ (حسب …)», «(طبق …)», «ھ (…)»; issue 33).
SCREEN_RECKONINGS = glossary.group("reckoning.screen")
# The reckonings as a noun phrase inside a sentence ("Ramadan dates by: moon sighting").
CALENDAR_BASES = glossary.group("reckoning.basis")
WORDS = glossary.group("page")


def iftar_name(lang: str) -> str:
    """Maghrib named as the fast's end in Ramadan (page.iftar_maghrib: «الإفطار (المغرب)»), on the city card's
    count-down and the widget's "Next:" alike (gallery review 4, ar AR4-01, fa LANG4-04)."""
    return WORDS[lang]["iftar_maghrib"].format(maghrib=TIME_NAMES[lang]["maghrib"])
BUILDER_WORDS = glossary.group("builder")  # the mosque builder's (generator/site/builder.py)
ZONE_COUNTRY = glossary.group("page.zone_country")  # {lang: {IANA zone: "India time ({tz})"}}
# The line under a table of times whose zone is a country's official clock: «اوقات به وقت رسمی ایران» (issue 33).
OFFICIAL_TIME = glossary.group("page.official_time")  # {lang: {IANA zone: line}}
# The grid digits of /v1/moon-visibility (docs/decisions.md), as the map legend says them.
VISIBILITY = {lang: {int(digit): text for digit, text in texts.items()} for lang, texts in glossary.group("visibility").items()}
# How a month start was obtained (/v1/hijri `source`).
SOURCES = glossary.group("source")


# The reckonings whose table is printed ahead of the months it gives (Iran's official calendar: its months are settled
# by the announcement of the crescent's sighting), so that a month of it not begun yet is a forecast (issue 33, FA-29).
TABLE_AHEAD = ("iran",)


def unannounced_forecast(source: str, ahead: bool) -> bool:
    """Whether a month start is an estimate of a month not begun yet (no announcement, no table): a forecast."""
    return ahead and source != "table"


def source_text(source: str, calendar: str, lang: str, ahead: bool = False) -> str:
    """Return how a month start was obtained, in ``lang``: a table's start says which table it is (the
    Sistani office's announcement, or Iran's official calendar), the others what estimate they are.  ``ahead``:
    the month has not begun on the page's date, so an estimate, or a table printed ahead, is a forecast."""
    if ahead and source == "table" and calendar in TABLE_AHEAD:
        return SOURCES[lang][f"forecast_{calendar}"]
    if unannounced_forecast(source, ahead):
        return SOURCES[lang]["forecast"]
    if source == "table" and f"table_{calendar}" in SOURCES[lang]:
        return SOURCES[lang][f"table_{calendar}"]
    return SOURCES[lang].get(source, source)


def date_text(iso: str, lang: str) -> str:
    """Return a Gregorian date written out in ``lang`` ("19 March 2026")."""
    from datetime import date

    day = date.fromisoformat(iso)
    return f"{digits(day.day, lang)} {GREGORIAN_MONTHS[lang][day.month - 1]} {digits(day.year, lang)}"


# --- Words of the issue-13 pages (today's card, imsakiya, qibla, feeds, home pages in four languages).
# Kept apart so they can move into the glossary (issue 14) as they are.

PAGE_WORDS = {  # the page.* terms, plus the feed-link labels by feed name
    lang: {**WORDS[lang], "feed_names": {"prayer-times.ics": WORDS[lang]["feed_name.prayer_times"],
                                         "night.ics": WORDS[lang]["feed_name.night"]}}
    for lang in LANGUAGES
}

# The reference cities marked on the crescent maps (catalogue ids), west to east.
MAP_CITIES = ("new-york", "london", "mecca", "najaf", "tehran", "karachi", "jakarta")
