"""The two all-day feeds (SPEC 4.10): /v1/events.ics and /v1/fasting.ics.

Each reuses the computation behind a JSON endpoint, so the two can never disagree: events
are `generator.calendars.events.resolve` (as /v1/events?hy=), fasting days are the /v1/day-status
flags (`generator.calendars.day_status.fasting_days`).  How the feeds are written (UIDs, escaping,
folding) is `generator.output.feeds`; their words are `generator.words.feed_words`.  Windows, wording
and every other choice: docs/decisions.md.
"""
from __future__ import annotations

from datetime import date

import numpy as np

from generator.calendars import day_status, events, hijri, shamsi
from generator.output import feeds
from generator.places import days
from generator.words import hijri_names, page_words
from generator.words import feed_words as words
from generator.api import params as P
from generator.api import schemas
from generator.api.common import CALENDAR, COMMUNITY, LANG
from generator.api.endpoint import Canonical, Endpoint, Params, Window

MEDIA_TYPE = "text/calendar"
MONTHS_BEFORE, MONTHS_AFTER = 2, 11  # 14 whole months around the current one
FEED_LANG = LANG.but(description="Language of the feed's names and summaries (default en).")
IMPORTANCE = P.choice("importance", ("major",), "Only major events.")


def _current_month(now_unix_s: float) -> str:
    return days.today(now_unix_s).strftime("%Y-%m")


def _month_window(month: str) -> tuple[int, int]:
    """Return (first day, day after the last) of the feed window around ``month`` ("YYYY-MM")."""
    current = np.datetime64(month, "M")
    first = (current - MONTHS_BEFORE).astype("datetime64[D]").astype(np.int64)
    end = (current + MONTHS_AFTER + 1).astype("datetime64[D]").astype(np.int64)
    return int(first), int(end)


def _plan(window: Window):
    return [{"lang": lang, "calendar": calendar} for lang in words.LANGUAGES for calendar in hijri.CALENDARS]


# --- /v1/events.ics ----------------------------------------------------------------------------


def canonical_events(values, now_unix_s: float) -> Canonical:
    params = {name: values[name] for name in ("lang", "calendar", "importance", "community") if values[name] is not None}
    params["month"] = _current_month(now_unix_s)
    return Canonical(params, today_dependent=True)


def build_events(params: Params) -> bytes:
    """Return the events feed: every catalogue event (or the major ones) in the window, all day.

    A night is an all-day event on its eve (the civil day on whose evening it begins, as
    /v1/events' ``eveGregorian``), its summary and description saying it begins at sunset.
    The feed has no place, so no maghrib instant to start a timed event from.
    With ``community``: the events that community keeps (`events.for_community`: its own days, without the
    catalogue rows they replace there), a public holiday there saying so in its summary.
    """
    lang, calendar = params["lang"], params["calendar"]
    first, end = _month_window(params["month"])
    chosen = events.select(importance=params.get("importance"), community=params.get("community"))
    found = []  # (unix day it falls on, unix day it begins on, hijri year, event, source)
    for year in _hijri_years(first, end, calendar):
        event_days, sources = events.resolve(chosen, year, calendar)
        begins = events.begins_on(chosen, event_days)
        found += [(day, begin, year, e, s)
                  for e, day, begin, s in zip(chosen, event_days.tolist(), begins.tolist(), sources.tolist())
                  if day >= 0 and first <= begin < end]
    dates = hijri.to_hijri(np.array([f[0] for f in found], dtype=np.int64), calendar)
    identity = feeds.feed_identity("events", params, ("calendar", "importance", "lang", "community"))
    out = []
    current = int(np.datetime64(params["month"], "D").astype(np.int64))  # the feed month's first day
    for (found_day, begin, year, event, source), hm, hd, length in zip(found, dates.month.tolist(), dates.day.tolist(),
                                                                       dates.month_length.tolist()):
        summary, night_line = events.title(event, calendar)[lang], None
        if event.get("holiday"):
            summary = words.titled(summary, words.PUBLIC_HOLIDAY[lang], lang)
        if event["night"]:
            summary = words.titled(summary, words.NIGHT_BEGINS[lang], lang)
            eve = days.iso(begin)  # the Solar Hijri date first on a Persian feed (fa FA-05, gallery review R-08)
            night_line = words.NIGHT_BEGINS_ON[lang].format(
                date=shamsi.leading(date.fromisoformat(eve), page_words.date_text(eve, lang), lang))
        description = _hijri_description(year, hm, hd, source, lang, night_line, calendar=calendar,
                                         ahead=_month_starts_on_or_after(found_day, hd, current),
                                         # a community's feed dates a night as the night of its day (fa LANG4-07)
                                         night_of=bool(params.get("community")) and event["night"])
        # A community's feed (the one its city page links) says the day's practice, as the page's row does: Ashura's
        # abstaining until after asr, not a fast (gallery review ar AR3-05); without ``community`` the SPEC's text.
        if (params.get("community") and not event["night"]
                and day_status.abstain_until_after_asr(hm, hd, length, (found_day + 3) % 7)):
            description += "\n" + words.ASHURA_IMSAK[lang]
        vevent = feeds.all_day_event(
            event_uid=feeds.uid("event", f"{event['id']}-{year}", identity),  # the same for a night as before
            unix_day=begin,
            summary=summary,
            description=description,
            lang=lang,
        )
        out.append(((begin, event["hijriMonth"], event["hijriDay"], event["id"]), vevent))
    base = words.MAJOR_EVENTS_CALENDAR if params.get("importance") == "major" else words.EVENTS_CALENDAR
    cal = feeds.calendar(
        lang=lang,
        name=words.titled(base[lang], words.RECKONING_TITLE[calendar][lang], lang),
        description=_dates_follow(calendar, lang) + " " + words.SUNSET_NOTE[lang] + " " + words.NIGHTS_NOTE[lang],
    )
    return feeds.serialize(cal, out)


def _hijri_years(first: int, end: int, calendar: str) -> range:
    years = hijri.to_hijri(np.array([first, end - 1]), calendar).year
    return range(int(years[0]), int(years[1]) + 1)


def _hijri_description(hy: int, hm: int, hd: int, source: str, lang: str, night_line: str | None = None, *,
                       calendar: str, ahead: bool, night_of: bool = False) -> str:
    """Return the Hijri date written out (then, for a night, when it begins), with a warning when the month
    start is only predicted: an estimate (computed or tabular, no announcement yet), or a month of a table printed
    ahead (Iran's official calendar, `page_words.TABLE_AHEAD`), not begun before the feed's month (``ahead``; issue
    33, review FA-29); an estimate of a month that began before it says it is computed, not expected (C9, UR-29).
    The feed's key has its month, not its day (a feed is rebuilt monthly): a month begun earlier in the feed's
    own month is still said as a forecast, the side of caution."""
    text = hijri_names.formatted(hy, hm, hd)[lang]
    if night_of:  # «شبِ ۱۰ محرم …», not the bare «۱۰ محرم» of the day of Ashura on the eve's all-day event
        text = words.NIGHT_OF_DATE[lang].format(date=text)
    if night_line is not None:
        text += "\n" + night_line
    if source != "table":  # computed or tabular: no announcement or official table yet
        text += "\n" + (words.PREDICTED_NOTE if ahead else words.COMPUTED_NOTE)[lang]
    elif ahead and calendar in page_words.TABLE_AHEAD:
        text += "\n" + words.PREDICTED_NOTE_IRAN[lang]
    return text


def _month_starts_on_or_after(day: int, hd: int, first: int) -> bool:
    """Whether the Hijri month of ``day`` (its day ``hd``) begins on or after the unix day ``first``."""
    return day - (hd - 1) >= first


def _dates_follow(calendar: str, lang: str) -> str:
    return words.DATES_FOLLOW[lang].format(basis=words.RECKONING_BASIS[calendar][lang])


# --- /v1/fasting.ics ---------------------------------------------------------------------------


# --- /v1/fasting.ics ---------------------------------------------------------------------------


def canonical_fasting(values, now_unix_s: float) -> Canonical:
    params = {"lang": values["lang"], "calendar": values["calendar"], "month": _current_month(now_unix_s)}
    return Canonical(params, today_dependent=True)


def build_fasting(params: Params) -> bytes:
    """Return the fasting feed: all-day events on Ayyam al-Bid and the emphasised fasts."""
    lang, calendar = params["lang"], params["calendar"]
    first, end = _month_window(params["month"])
    titles = {e["id"]: events.title(e, calendar) for e in events.catalogue()}
    identity = feeds.feed_identity("fasting", params, ("calendar", "lang"))
    listed = day_status.fasting_days(first, end, calendar)
    current = int(np.datetime64(params["month"], "D").astype(np.int64))  # the feed month's first day
    dates = hijri.to_hijri(np.array([day for day, _ in listed], dtype=np.int64), calendar)
    out = []
    for (day, rules), hy, hm, hd, source in zip(
        listed, dates.year.tolist(), dates.month.tolist(), dates.day.tolist(), dates.source.tolist()
    ):
        summaries = [words.EMPHASISED_FAST_SUMMARY[lang].format(occasion=titles[r.event][lang]) for r in rules]
        if hd in day_status.AYYAM_AL_BID_DAYS:
            summaries.insert(0, words.AYYAM_AL_BID_SUMMARY[lang])
        vevent = feeds.all_day_event(
            event_uid=feeds.uid("fast", f"{hy}-{hm:02d}-{hd:02d}", identity),
            unix_day=day,
            summary=words.SEPARATOR[lang].join(summaries),
            description=_hijri_description(hy, hm, hd, source, lang, calendar=calendar,
                                           ahead=_month_starts_on_or_after(day, hd, current)),
            lang=lang,
        )
        out.append(((day,), vevent))
    emphasised = [words.hijri_day_month(r.when.month, r.when.day, lang) for r in day_status.emphasised_fasts()]
    description = words.FASTING_CALENDAR_DESCRIPTION[lang].format(days=words.join_list(emphasised, lang))
    cal = feeds.calendar(
        lang=lang,
        name=words.titled(words.FASTING_CALENDAR[lang], words.RECKONING_TITLE[calendar][lang], lang),
        description=description + " " + _dates_follow(calendar, lang),
    )
    return feeds.serialize(cal, out)


EVENTS = Endpoint("events.ics", "Islamic events as all-day events, about 14 months around today",
                  (FEED_LANG, IMPORTANCE, CALENDAR, COMMUNITY), canonical_events, build_events, schemas.calendar_feed(),
                  MEDIA_TYPE, plan=_plan)
FASTING = Endpoint("fasting.ics", "Ayyam al-Bid and the emphasised recommended fasts", (FEED_LANG, CALENDAR),
                   canonical_fasting, build_fasting, schemas.calendar_feed(), MEDIA_TYPE, plan=_plan)
