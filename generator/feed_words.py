"""The words of the four ICS feeds in en, ar, fa and ur: calendar names, summaries, descriptions.

Every text is a term of the reviewed glossary (`generator.glossary`, data/glossary.csv): the
tables below only give the terms the names the feed builder uses.

Written by us, as a reader of each language expects them (docs/decisions.md):

* Prayer names follow each community's usage: Arabic "صلاة الفجر", Persian as on Iran's
  timetables ("نماز صبح", "اوقات شرعی"), Urdu with the izafat ("نمازِ فجر").  A jamaat time
  (a prayer with an offset) is the iqama in Arabic ("إقامة صلاة الفجر"), "نماز جماعت صبح" in
  Persian and "فجر کی جماعت" in Urdu.
* Numbers are written with the digits of the language, as `generator.hijri_names` does for
  Hijri dates (Arabic-Indic for ar, Extended Arabic-Indic for fa and ur).
* Nothing here is counted ("3 minutes"), so no number–noun agreement is needed in any
  language; an offset shows as the calculated time beside the jamaat time.

Every template is filled with `str.format`; the values put in are our own strings or
catalogue text, and the feed builder escapes the result (`generator.feeds.Text`).
"""
from __future__ import annotations

from generator import glossary, hijri, hijri_names, locale
from generator.locale import DECIMAL_SEPARATOR, DEFAULT_LANGUAGE, LANGUAGES, RTL, native  # noqa: F401  (re-exported)

FSI, PDI = glossary.FSI, glossary.PDI
# Between items on a line.  Not "·" in Arabic script: Persian and Urdu write zero as a dot (۰).
SEPARATOR = {"en": " · ", "ar": " — ", "fa": " — ", "ur": " — "}

# Times of day in descriptions: 12-hour in Arabic and Urdu, as printed timetables in Iraq and
# Pakistan write them; 24-hour in Persian (Iran's official timetables) and English.  The
# feeds' ``clock`` parameter overrides it; the API's JSON always keeps HH:mm.
CLOCKS = ("12", "24")
DEFAULT_CLOCK = {"en": "24", "ar": "12", "fa": "24", "ur": "12"}
CLOCK_WORDS = glossary.group("clock")
# The word after a 12-hour time, from the hour it starts at: before/after noon in en, ar and
# fa; in Urdu the part of the day, with the bounds of Unicode CLDR's Urdu day periods
# (صبح 04–12, دوپہر 12–16, سہ پہر 16–18, شام 18–20, رات 20–04; data/SOURCES-FEEDS.md), since
# Urdu has no AM/PM word of its own and "before noon" would be wrong for 01:44 at night.
DAY_PERIODS = {
    "en": ((0, "am"), (12, "pm")),
    "ar": ((0, "am"), (12, "pm")),
    "fa": ((0, "am"), (12, "pm")),
    "ur": ((0, "night"), (4, "morning"), (12, "noon"), (16, "afternoon"), (18, "evening"), (20, "night")),
}

PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")
PRAYER_NAMES = glossary.group("prayer")
PRAYER_SUMMARY = glossary.term("feed.prayer_summary")
JAMAAT_SUMMARY = glossary.term("feed.jamaat_summary")

LOCAL_TIME = glossary.term("feed.local_time")
METHOD_LINE = glossary.term("feed.method_line")
JAMAAT_LINE = glossary.term("feed.jamaat_line")
POLAR_LINE = glossary.term("feed.polar_line")
PRAYER_CALENDAR = glossary.term("feed.prayer_calendar")
PRAYER_CALENDAR_DESCRIPTION = glossary.term("feed.prayer_calendar_description")

NIGHT_CALENDAR = glossary.term("feed.night_calendar")
NIGHT_SUMMARY = NIGHT_CALENDAR
NIGHT_CALENDAR_DESCRIPTION = glossary.term("feed.night_calendar_description")
# the whole last third is sahar, preferred for Salat al-Layl (data/SOURCES-FEEDS.md)
NIGHT_DESCRIPTION = glossary.term("feed.night_description")

# Hijri reckonings: as a calendar title suffix, and as the phrase "dates follow …".
RECKONING_TITLE = {c: glossary.term(f"feed.reckoning_title.{c}") for c in hijri.CALENDARS}
RECKONING_BASIS = {c: glossary.term(f"reckoning.basis.{c}") for c in hijri.CALENDARS}
DATES_FOLLOW = glossary.term("feed.dates_follow")
SUNSET_NOTE = glossary.term("feed.sunset_note")
PREDICTED_NOTE = glossary.term("feed.predicted_note")

EVENTS_CALENDAR = glossary.term("feed.events_calendar")
MAJOR_EVENTS_CALENDAR = glossary.term("feed.major_events_calendar")

FASTING_CALENDAR = glossary.term("feed.fasting_calendar")
AYYAM_AL_BID_SUMMARY = glossary.term("feed.ayyam_al_bid_summary")
EMPHASISED_FAST_SUMMARY = glossary.term("feed.emphasised_fast_summary")
FASTING_CALENDAR_DESCRIPTION = glossary.term("feed.fasting_calendar_description")
_LIST_JOIN = {lang: (glossary.term("list.comma")[lang], glossary.term("list.and")[lang]) for lang in LANGUAGES}

def clock_text(hhmm: str, lang: str, clock: str, *, marked: bool = True) -> str:
    """Return a local "HH:mm" as ``lang`` writes it on a ``clock`` of "12" or "24" hours.

    24-hour: "04:35" in the language's digits.  12-hour: "4:35" (12 for the hours 0 and 12),
    followed by the language's word for the part of the day when ``marked`` ("٤:٣٥ ص",
    "۴:۳۵ صبح", `DAY_PERIODS`); a timetable column leaves the word out, as printed timetables do.
    Anything that is not HH:mm (an absent time) is only written in the language's digits.
    """
    if clock == "24" or len(hhmm) != 5 or hhmm[2] != ":":
        return native(hhmm, lang)
    hours = int(hhmm[:2])
    text = native(f"{(hours + 11) % 12 + 1}:{hhmm[3:]}", lang)
    if not marked:
        return text
    period = [key for start_hour, key in DAY_PERIODS[lang] if hours >= start_hour][-1]
    return f"{text} {CLOCK_WORDS[lang][period]}"


def decimal(value: float, lang: str, places: int = 1) -> str:
    """Return ``value`` with ``places`` decimals in the digits and decimal separator of ``lang``."""
    return locale.decimal(value, places, lang)


def join_list(items: list[str], lang: str) -> str:
    """Return "a, b and c" in ``lang``."""
    comma, last = _LIST_JOIN[lang]
    if len(items) < 2:
        return "".join(items)
    return comma.join(items[:-1]) + last + items[-1]


def hijri_day_month(month: int, day: int, lang: str) -> str:
    """Return a Hijri day and month without the year, e.g. "17 Rabi' al-Awwal", "١٧ ربيع الأول"."""
    return f"{hijri_names.native_digits(day, lang)} {hijri_names.month_in_date(month, lang)}"


def titled(base: str, qualifier: str, lang: str) -> str:
    """Return a calendar title with a qualifier: "Prayer times · London", "أوقات الصلاة — لندن"."""
    return base + SEPARATOR[lang] + qualifier


# --- Nights (issue 10) ------------------------------------------------------------------------
# A night event (data/nights.csv) is listed on the civil day on whose evening it begins.
NIGHT_BEGINS = glossary.term("feed.night_begins")  # appended to a night's title (feed SUMMARY, timetable row)
NIGHT_BEGINS_ON = glossary.term("feed.night_begins_on")  # a night's DESCRIPTION line; {date}: its eve
NIGHTS_NOTE = glossary.term("feed.nights_note")  # the events calendar's DESCRIPTION, after SUNSET_NOTE


# --- Feeds for any place (issue 9) ---------------------------------------------------------------
# A feed for lat+lng names its place by the coordinates (signed decimal degrees, the language's
# digits) and its local times by the IANA zone id, which has no translation.  A custom method is
# described by its own numbers: angles in degrees, intervals with the minute sign ′, so nothing is
# counted in words.
def coordinates(lat_deg: float, lng_deg: float, lang: str) -> str:
    """Return "35.69°, 51.39°" in the digits and list comma of ``lang``."""
    comma, _ = _LIST_JOIN[lang]
    return f"{locale.decimal(lat_deg, 2, lang)}°{comma}{locale.decimal(lng_deg, 2, lang)}°"


SUNSET = glossary.term("feed.sunset")
CUSTOM_METHOD = glossary.term("feed.custom_method")
OPTIONS_LINE = glossary.term("feed.options_line")  # the query's options, as written in the URL (their names are the API's own)


def custom_rules(params: dict, lang: str) -> str:
    """Return a custom method's rules, e.g. "Fajr 16°, Isha 14°, Maghrib 4°" or "Isha = Maghrib + 90′"."""
    names = PRAYER_NAMES[lang]

    def number(value: float) -> str:  # as given (the query's own precision), e.g. 17.7 -> "۱۷٫۷"
        return native(f"{value:g}".replace(".", DECIMAL_SEPARATOR[lang]), lang)

    rules = [f"{names['fajr']} {number(params['fajrAngle'])}°"]
    if "maghribAngle" in params:
        rules.append(f"{names['maghrib']} {number(params['maghribAngle'])}°")
    if "maghribInterval" in params:
        rules.append(f"{names['maghrib']} = {SUNSET[lang]} + {number(params['maghribInterval'])}′")
    if "ishaAngle" in params:
        rules.append(f"{names['isha']} {number(params['ishaAngle'])}°")
    if "ishaInterval" in params:
        rules.append(f"{names['isha']} = {names['maghrib']} + {number(params['ishaInterval'])}′")
    return _LIST_JOIN[lang][0].join(rules)


# --- Jamaat and the options members set (issue 20) -----------------------------------------------
TIME_NAMES = glossary.group("column")  # imsak, sunrise, midnight events: the timetable's column names
JUMUAH_NAME = glossary.term("feed.jumuah_name")
COMBINED_JAMAAT_SUMMARY = glossary.term("feed.combined_jamaat_summary")  # one jamaat for two prayers
EID_PRAYER = {10: glossary.term("feed.eid_fitr_prayer"), 12: glossary.term("feed.eid_adha_prayer")}  # by Hijri month
SUHOOR_ENDS = glossary.term("feed.suhoor_ends")
IFTAR = glossary.term("feed.iftar")
JAMAAT_MOVED_LINE = glossary.term("feed.jamaat_moved_line")
EID_MOVED_LINE = glossary.term("feed.eid_moved_line")
