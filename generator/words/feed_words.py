"""The words of the four ICS feeds in en, ar, fa and ur: calendar names, summaries, descriptions.

Every text is a term of the reviewed glossary (`generator.words.glossary`, data/glossary.csv): the
tables below only give the terms the names the feed builder uses.

Written by us, as a reader of each language expects them (docs/decisions.md):

* Prayer names follow each community's usage: Arabic "صلاة الفجر", Persian as on Iran's
  timetables ("نماز صبح", "اوقات شرعی"), Urdu with the izafat ("نمازِ فجر").  A jamaat time
  (a prayer with an offset) is the iqama in Arabic ("إقامة صلاة الفجر"), "نماز جماعت صبح" in
  Persian and "فجر کی جماعت" in Urdu.
* Numbers are written with the digits of the language, as `generator.words.hijri_names` does for
  Hijri dates (Arabic-Indic for ar, Extended Arabic-Indic for fa and ur).
* Nothing here is counted ("3 minutes"), so no number–noun agreement is needed in any
  language; an offset shows as the calculated time beside the jamaat time.

Every template is filled with `str.format`; the values put in are our own strings or
catalogue text, and the feed builder escapes the result (`generator.output.feeds.Text`).
"""
from __future__ import annotations

from generator.places import cities
from generator.words import glossary, hijri_names, locale
from generator.words.locale import DECIMAL_SEPARATOR, DEFAULT_LANGUAGE, LANGUAGES, RTL, native  # noqa: F401  (re-exported)

LRI, FSI, PDI = glossary.LRI, glossary.FSI, glossary.PDI
# Between items on a line.  Not "·" in Arabic script: Persian and Urdu write zero as a dot (۰).
SEPARATOR = {"en": " · ", "ar": " — ", "fa": " — ", "ur": " — "}

# Times of day in descriptions: 12-hour in Arabic and Urdu, as printed timetables in Iraq and
# Pakistan write them; 24-hour in Persian (Iran's official timetables) and English.  The
# feeds' ``clock`` parameter overrides it; the API's JSON always keeps HH:mm.
CLOCKS = ("12", "24")
DEFAULT_CLOCK = {"en": "24", "ar": "12", "fa": "24", "ur": "12"}
CLOCK_WORDS = glossary.group("clock")
# The word after a 12-hour time.  en, ar and fa: before/after noon, from the hour.  Urdu has no
# AM/PM word of its own and names the part of the day; a time that is a prayer's (or an event's
# beside one) takes the part of the day of that prayer, never the clock hour's: maghrib and isha at
# 16:30 in a London winter are «شام», not «سہ پہر» (afternoon), and dhuhr at 11:50 is «دوپہر», not
# «صبح» (language review of 26 November, issue 29).  The bounds of Unicode CLDR's Urdu day periods
# (صبح 04–12, دوپہر 12–16, سہ پہر 16–18, شام 18–20, رات 20–04; data/SOURCES-FEEDS.md) are left
# for a bare clock (the screen's wall clock), which names no prayer.
DAY_PERIODS = {
    "en": ((0, "am"), (12, "pm")),
    "ar": ((0, "am"), (12, "pm")),
    "fa": ((0, "am"), (12, "pm")),
    "ur": ((0, "night"), (4, "morning"), (12, "noon"), (16, "afternoon"), (18, "evening"), (20, "night")),
}
# Urdu: the part of the day of each prayer or event (imsak to the Eid prayer: صبح, the morning of
# fajr; dhuhr and Jumu'ah: دوپہر; asr: سہ پہر, the time of asr itself, but دوپہر before 15:00, as in a
# winter's 13:37; maghrib, iftar and isha: شام, or رات when they fall from 20:00 to noon, as in a
# northern summer; midnight and the night's last third: رات), as the Urdu reader of 26 November
# proposed.
UR_EVENT_PERIODS = {
    "imsak": "morning", "suhoor": "morning", "fajr": "morning", "sunrise": "morning", "eid": "morning",
    "dhuhr": "noon", "jumuah": "noon", "asr": "afternoon",
    "maghrib": "evening", "iftar": "evening", "isha": "evening",
    "midnight": "night", "night": "night",
}
UR_EVENING_UNTIL_HOUR = 20  # maghrib, iftar, isha from this hour (to noon) are رات
UR_LATE_AFTERNOON_FROM_HOUR = 15  # asr before this hour is دوپہر


def period_of(hours: int, lang: str, event: str | None = None) -> str:
    """Return the key of the word after a 12-hour time (`CLOCK_WORDS`): by ``event`` in Urdu, else by the hour."""
    if lang == "ur" and event is not None:
        period = UR_EVENT_PERIODS[event]
        if period == "evening" and not 12 <= hours < UR_EVENING_UNTIL_HOUR:
            return "night"
        if period == "afternoon" and hours < UR_LATE_AFTERNOON_FROM_HOUR:
            return "noon"
        return period
    return [key for start_hour, key in DAY_PERIODS[lang] if hours >= start_hour][-1]


PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")
PRAYER_NAMES = glossary.group("prayer")
PRAYER_SUMMARY = glossary.term("feed.prayer_summary")
JAMAAT_SUMMARY = glossary.term("feed.jamaat_summary")

LOCAL_TIME = glossary.term("feed.local_time")
LOCAL_TIME_ZONE = glossary.term("feed.local_time_zone")  # a zone no catalogue city names: "local time (its id)"
METHOD_LINE = glossary.term("feed.method_line")
JAMAAT_LINE = glossary.term("feed.jamaat_line")
# Asr and isha: in Shia fiqh their time begins right after dhuhr's and maghrib's (which is why they
# may be prayed together), so the time a method computes for them is the start of their recommended
# (fadhila) time, never "their legal time" (issue 29; fa «وقت شرعی» was wrong).
JAMAAT_FADHILA_LINE = glossary.term("feed.jamaat_fadhila_line")
FADHILA_LINE = glossary.term("feed.fadhila_line")  # a combined jamaat's partner, after JAMAAT_LINE
FADHILA_PRAYERS = ("asr", "isha")


def jamaat_line(prayer_id: str, lang: str) -> str:
    """Return the template of the line under a jamaat of ``prayer_id`` ("{prayer}", "{time}")."""
    return (JAMAAT_FADHILA_LINE if prayer_id in FADHILA_PRAYERS else JAMAAT_LINE)[lang]
POLAR_LINE = glossary.term("feed.polar_line")
PRAYER_CALENDAR = glossary.term("feed.prayer_calendar")
PRAYER_CALENDAR_DESCRIPTION = glossary.term("feed.prayer_calendar_description")

NIGHT_CALENDAR = glossary.term("feed.night_calendar")
NIGHT_SUMMARY = NIGHT_CALENDAR
NIGHT_CALENDAR_DESCRIPTION = glossary.term("feed.night_calendar_description")
# the whole last third is sahar, preferred for Salat al-Layl (data/SOURCES-FEEDS.md)
NIGHT_DESCRIPTION = glossary.term("feed.night_description")
NIGHT_DESCRIPTION_ZONE = glossary.term("feed.night_description_zone")  # a zone no catalogue city names

# Hijri reckonings: as a calendar title suffix, and as the phrase "dates follow …".
def _by_key(prefix: str) -> dict[str, dict[str, str]]:
    """{key: {language: text}} of the glossary's ``<prefix>.<key>`` rows: one per reckoning (the words know
    the reckonings by their rows, not from generator.calendars, which stands above them)."""
    grouped = glossary.group(prefix)
    return {key: {lang: texts[key] for lang, texts in grouped.items()} for key in next(iter(grouped.values()))}


RECKONING_TITLE = _by_key("feed.reckoning_title")
RECKONING_BASIS = _by_key("reckoning.basis")
DATES_FOLLOW = glossary.term("feed.dates_follow")
SUNSET_NOTE = glossary.term("feed.sunset_note")
PREDICTED_NOTE = glossary.term("feed.predicted_note")
PREDICTED_NOTE_IRAN = glossary.term("feed.predicted_note_iran")  # Iran's official calendar's forecast (issue 33)
COMPUTED_NOTE = glossary.term("feed.computed_note")  # an estimate of a month begun before the feed's (issue 33)

EVENTS_CALENDAR = glossary.term("feed.events_calendar")
MAJOR_EVENTS_CALENDAR = glossary.term("feed.major_events_calendar")

FASTING_CALENDAR = glossary.term("feed.fasting_calendar")
AYYAM_AL_BID_SUMMARY = glossary.term("feed.ayyam_al_bid_summary")
EMPHASISED_FAST_SUMMARY = glossary.term("feed.emphasised_fast_summary")
FASTING_CALENDAR_DESCRIPTION = glossary.term("feed.fasting_calendar_description")
_LIST_JOIN = {lang: (glossary.term("list.comma")[lang], glossary.term("list.and")[lang]) for lang in LANGUAGES}
# A list of three or more: Arabic writes و before every item after the first («الفجر، والظهر، والعصر»).
_LONG_LIST_JOIN = {lang: (glossary.term("list.next")[lang], glossary.term("list.last")[lang]) for lang in LANGUAGES}

def clock_text(hhmm: str, lang: str, clock: str, *, marked: bool = True, event: str | None = None) -> str:
    """Return a local "HH:mm" as ``lang`` writes it on a ``clock`` of "12" or "24" hours.

    24-hour: "04:35" in the language's digits.  12-hour: "4:35" (12 for the hours 0 and 12),
    followed by the language's word for the part of the day when ``marked`` ("٤:٣٥ ص",
    "۴:۳۵ صبح", `period_of`: in Urdu that of ``event``, the prayer or event the time is of);
    a timetable column leaves the word out, as printed timetables do.
    Anything that is not HH:mm (an absent time) is only written in the language's digits.
    """
    if clock == "24" or len(hhmm) != 5 or hhmm[2] != ":":
        return native(hhmm, lang)
    hours = int(hhmm[:2])
    text = native(f"{(hours + 11) % 12 + 1}:{hhmm[3:]}", lang)
    if not marked:
        return text
    return f"{text} {CLOCK_WORDS[lang][period_of(hours, lang, event)]}"


def decimal(value: float, lang: str, places: int = 1) -> str:
    """Return ``value`` with ``places`` decimals in the digits and decimal separator of ``lang``."""
    return locale.decimal(value, places, lang)


def join_list(items: list[str], lang: str) -> str:
    """Return "a and b", "a, b and c" in ``lang`` (Arabic: «أ وب», «أ، وب، وج»)."""
    if len(items) < 2:
        return "".join(items)
    comma, last = _LIST_JOIN[lang] if len(items) == 2 else _LONG_LIST_JOIN[lang]
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
PUBLIC_HOLIDAY = glossary.term("feed.public_holiday")  # after an event's title where it is one (issue 33)
ASHURA_IMSAK = glossary.term("feed.ashura_imsak")  # a community feed's Ashura: the day's practice, no time (no place)
NIGHT_BEGINS_ON = glossary.term("feed.night_begins_on")  # a night's DESCRIPTION line; {date}: its eve
NIGHT_OF_DATE = glossary.term("feed.night_of_date")  # a community feed's night: «شبِ ۱۰ محرم …» (LANG4-07)
NIGHTS_NOTE = glossary.term("feed.nights_note")  # the events calendar's DESCRIPTION, after SUNSET_NOTE


# --- Feeds for any place (issue 9) ---------------------------------------------------------------
# A feed for lat+lng names its place by the coordinates with hemisphere words, as the pages do
# (`coordinate.*`: "43.84° N, 79.46° W"; a minus before Arabic-script digits is drawn on their
# right in right-to-left text, so a western longitude reads as an eastern one: issue 29), and its
# local times by the catalogue city its zone is named after, else the IANA zone id (isolated in
# right-to-left text).  A custom method is described by its own numbers: angles in degrees,
# intervals with the minute sign ′, so nothing is counted in words.
COORDINATE_WORDS = glossary.group("coordinate")


def coordinates(lat_deg: float, lng_deg: float, lang: str) -> str:
    """Return "35.69° N, 51.39° E", "٣٥٫٦٩° شمالاً، ٥١٫٣٩° شرقاً": two decimals, hemisphere words, no sign."""
    def one(value_deg: float, hemispheres: tuple[str, str]) -> str:
        word = COORDINATE_WORDS[lang][hemispheres[value_deg < 0]]
        return word.format(deg=locale.decimal(abs(value_deg), 2, lang))

    return one(lat_deg, ("north", "south")) + _LIST_JOIN[lang][0] + one(lng_deg, ("east", "west"))


def zone_city_name(tz: str, lang: str) -> str | None:
    """Return the name in ``lang`` of the catalogue city a zone is named after ("Toronto"), or None."""
    city = cities.by_id().get(tz.rsplit("/", 1)[-1].lower().replace("_", "-"))
    return None if city is None else city["names"][lang]


# A country's one zone as "… time" names it (feed.zone_country.<zone>): «به وقت رسمی ایران», not «به وقت قم» on a
# Qom feed, whose times are the country's clock, not Qom's (issue 33; language review 2026-11-28 fa FA-06).
ZONE_COUNTRY_NAMES = glossary.group("feed.zone_country")


def zone_name(tz: str, lang: str) -> str:
    """Return how "… time" names a zone in ``lang``: the country whose one zone it is when the glossary names it
    ("Iran"), else the catalogue city it is named after ("Toronto"), else the IANA id, isolated (LRI … PDI) in
    right-to-left text."""
    if tz in ZONE_COUNTRY_NAMES[lang]:
        return ZONE_COUNTRY_NAMES[lang][tz]
    name = zone_city_name(tz, lang)
    if name is not None:
        return name
    return f"{glossary.LRI}{tz}{glossary.PDI}" if lang in RTL else tz


SUNSET = glossary.term("feed.sunset")
CUSTOM_METHOD = glossary.term("feed.custom_method")
RULES_WORDS = glossary.group("feed.rules")  # issue 36: the feed's rules said in words (city_feeds._rules_lines)
CHOICE_WORDS = glossary.group("builder.choice")  # the builder's words of a choice ("asr.hanafi"), reused in the feed
OPTION_LABELS = {name: glossary.term(f"builder.{name}") for name in ("asr", "highLatitudeRule", "midnight", "elevation",
                                                                    "jamaatOutside")}


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
JUMUAH_COMBINED_SUMMARY = glossary.term("feed.jumuah_combined_summary")  # Jumu'ah with asr folded in
EID_PRAYER = {10: glossary.term("feed.eid_fitr_prayer"), 12: glossary.term("feed.eid_adha_prayer")}  # by Hijri month
SUHOOR_ENDS = glossary.term("feed.suhoor_ends")  # the Ramadan imsak event (the day's only event at imsak)
IMSAK_NOTE = glossary.term("feed.imsak_note")
IFTAR = glossary.term("feed.iftar")
JAMAAT_MOVED_LINE = glossary.term("feed.jamaat_moved_line")
EID_MOVED_LINE = glossary.term("feed.eid_moved_line")
JAMAAT_MOVED_SHARED_LINE = glossary.term("feed.jamaat_moved_shared_line")  # asr, isha: {prayer} dhuhr, maghrib
JAMAAT_MOVED_END_LINE = glossary.term("feed.jamaat_moved_end_line")  # {end}: a TIME_NAMES column name
JAMAAT_KEPT_LINE = glossary.term("feed.jamaat_kept_line")  # issue 33: a declared time kept outside
JAMAAT_SKIPPED_LINE = glossary.term("feed.jamaat_skipped_line")  # issue 33: no jamaat that day
