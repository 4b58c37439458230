"""The catalogue of 73 Shia events (data/events.csv) and their dates in a Hijri year.

An event is fixed to a Hijri month and day.  Two are fixed to the *last* day of their
month (``day_rule = last``: Imam al-Rida's martyrdom at the end of Safar and Imam
al-Jawad's at the end of Dhu al-Qa'da, as Iran's official calendar keeps them): they
fall on the 29th in a 29-day month.  Any other event on day 30 has no date in a
29-day month (SPEC 2.7).

Five events are *nights* (data/nights.csv: the Nights of Qadr, mid-Sha'ban, Laylat
al-Mabit): each is keyed to the Hijri date of the night itself, and since a Hijri day
begins at sunset, that night begins on the evening of the civil day before its date
(`begins_on`).  Every other event is a day.

Each community's own days (issue 33) are an overlay on the catalogue, never new catalogue rows (SPEC 2.7
fixes it at 73; docs/decisions.md, "Each community's events"): data/events_local.csv holds the days a
community keeps that the catalogue does not (Bibi Sakina on 13 Safar in Pakistan and India, 8 Muharram for
Hazrat Abbas, 13 Muharram in Iraq, Laylat al-Raghaib, the night of Ashura, ...), each with the places that keep
it (ISO 3166-1 country codes, or ``*``: every community) and, where the community keeps the day *instead of* a
catalogue row, the row it ``replaces`` there; data/event_holidays.csv names each country's public holidays among
them; data/events_kept_in.csv the catalogue days only some countries keep (Iran's commemorations of Shah Cheragh
and of Sayyid Abd al-Azim), which another community's pages and feeds leave out.  `for_community` applies the
three; with no community the catalogue is served as it is.  An overlay row may
be dated by a weekday rule (``on_weekday``: the first such weekday on or after its Hijri day): Laylat
al-Raghaib is the night of the first Friday of Rajab whose Thursday is in Rajab, the Friday on or after 2 Rajab.
"""
from __future__ import annotations

import csv
import functools
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import numpy as np

from generator.calendars import hijri

EVENTS_PATH = Path(__file__).resolve().parents[2] / "data" / "events.csv"
NIGHTS_PATH = EVENTS_PATH.with_name("nights.csv")  # ids of the night events, each with its basis
LOCAL_PATH = EVENTS_PATH.with_name("events_local.csv")  # each community's own days (the overlay)
HOLIDAYS_PATH = EVENTS_PATH.with_name("event_holidays.csv")  # each country's public holidays among the events
KEPT_IN_PATH = EVENTS_PATH.with_name("events_kept_in.csv")  # catalogue days kept in named countries only
LOCAL_COLUMNS = ("id", "hijri_month", "hijri_day", "on_weekday", "night", "type", "importance", "places", "replaces",
                 *(f"title_{lang}" for lang in ("en", "ar", "fa", "ur")),
                 *(f"details_{lang}" for lang in ("en", "ar", "fa", "ur")), "source")
EVERY_COMMUNITY = "*"
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_UNIX_DAY_0_WEEKDAY = 3  # 1970-01-01 was a Thursday (Monday = 0)
TYPES = ("occasion", "birth", "martyrdom", "death", "holy")
IMPORTANCE = ("major", "minor")
TITLE_LANGUAGES = ("en", "ar", "fa", "ur")
DETAIL_LANGUAGES = ("en", "ar", "fa", "ur")


@functools.cache
def catalogue() -> tuple[Mapping, ...]:
    """Return every event in (month, day, id) order, read-only."""
    with EVENTS_PATH.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with NIGHTS_PATH.open(encoding="utf-8", newline="") as handle:
        night_rows = list(csv.DictReader(handle))
    assert all(row["basis"].strip() for row in night_rows), "every night names its basis"
    nights = {row["id"] for row in night_rows}
    assert nights <= {row["id"] for row in rows}, nights - {row["id"] for row in rows}
    events = []
    for row in rows:
        assert row["type"] in TYPES and row["importance"] in IMPORTANCE and row["day_rule"] in ("", "last"), row["id"]
        events.append(
            MappingProxyType(
                {
                    "id": row["id"],
                    "hijriMonth": int(row["hijri_month"]),
                    "hijriDay": int(row["hijri_day"]),
                    "lastDayOfMonth": row["day_rule"] == "last",
                    "weekday": None,
                    "night": row["id"] in nights,
                    "type": row["type"],
                    "importance": row["importance"],
                    "title": MappingProxyType({lang: row[f"title_{lang}"] for lang in TITLE_LANGUAGES}),
                    # Persian as Iran's official calendar prints it (with Iran's civic days or
                    # holiday wording), used under the ``iran`` reckoning only (docs/site.md)
                    "titleIran": MappingProxyType({"fa": row["title_fa_iran"]} if row["title_fa_iran"] else {}),
                    "details": MappingProxyType({lang: row[f"details_{lang}"] for lang in DETAIL_LANGUAGES}),
                }
            )
        )
    events.sort(key=lambda e: (e["hijriMonth"], e["hijriDay"], e["id"]))
    return tuple(events)


@functools.cache
def overlay() -> tuple[Mapping, ...]:
    """Return the communities' own days (data/events_local.csv), checked, in the catalogue's shape plus
    ``places`` (country codes, or ``*``), ``replaces`` (a catalogue id or None) and ``weekday`` (Monday = 0 or None)."""
    with LOCAL_PATH.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != LOCAL_COLUMNS:
            raise ValueError(f"{LOCAL_PATH.name}: header must be {','.join(LOCAL_COLUMNS)}")
        rows = list(reader)
    ids = {e["id"] for e in catalogue()}
    out = []
    for row in rows:
        where = f"{LOCAL_PATH.name}: {row['id']}"
        places = tuple(row["places"].split("|"))
        if row["id"] in ids or not row["id"]:
            raise ValueError(f"{where}: an id of its own, not a catalogue id")
        if row["type"] not in TYPES or row["importance"] not in IMPORTANCE or row["night"] not in ("0", "1"):
            raise ValueError(f"{where}: type, importance or night")
        if row["on_weekday"] not in ("", *WEEKDAYS) or (row["replaces"] and row["replaces"] not in ids):
            raise ValueError(f"{where}: on_weekday or replaces")
        if not all(p == EVERY_COMMUNITY or (len(p) == 2 and p.isascii() and p.isupper()) for p in places):
            raise ValueError(f"{where}: places are country codes joined by | (or *)")
        if not row["source"].strip() or not all(row[f"title_{lang}"] and row[f"details_{lang}"] for lang in TITLE_LANGUAGES):
            raise ValueError(f"{where}: every row names its source and has a title and details in every language")
        ids.add(row["id"])
        out.append(MappingProxyType({
            "id": row["id"],
            "hijriMonth": int(row["hijri_month"]),
            "hijriDay": int(row["hijri_day"]),
            "lastDayOfMonth": False,
            "weekday": WEEKDAYS.index(row["on_weekday"]) if row["on_weekday"] else None,
            "night": row["night"] == "1",
            "type": row["type"],
            "importance": row["importance"],
            "title": MappingProxyType({lang: row[f"title_{lang}"] for lang in TITLE_LANGUAGES}),
            "titleIran": MappingProxyType({}),
            "details": MappingProxyType({lang: row[f"details_{lang}"] for lang in DETAIL_LANGUAGES}),
            "places": places,
            "replaces": row["replaces"] or None,
        }))
    return tuple(out)


@functools.cache
def holidays() -> Mapping[str, frozenset[str]]:
    """Return, by event id, the countries where it is a public holiday (data/event_holidays.csv)."""
    known = {e["id"] for e in (*catalogue(), *overlay())}
    by_event: dict[str, set[str]] = {}
    with HOLIDAYS_PATH.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["event"] not in known or len(row["place"]) != 2 or not row["source"].strip():
                raise ValueError(f"{HOLIDAYS_PATH.name}: {row}: an event id, a country code and a source")
            by_event.setdefault(row["event"], set()).add(row["place"])
    return MappingProxyType({event: frozenset(places) for event, places in by_event.items()})


@functools.cache
def kept_in() -> Mapping[str, frozenset[str]]:
    """Return, by catalogue id, the only countries that keep the day (data/events_kept_in.csv)."""
    known = {e["id"] for e in catalogue()}
    out: dict[str, frozenset[str]] = {}
    with KEPT_IN_PATH.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            places = frozenset(row["places"].split("|"))
            if row["event"] not in known or row["event"] in out or not row["source"].strip() \
                    or not all(len(p) == 2 and p.isascii() and p.isupper() for p in places):
                raise ValueError(f"{KEPT_IN_PATH.name}: {row}: a catalogue id once, country codes joined by |, a source")
            out[row["event"]] = places
    return MappingProxyType(out)


def communities() -> tuple[str, ...]:
    """Return the country codes the overlay and the holidays name (each has a day or a holiday of its own)."""
    named = {p for e in overlay() for p in e["places"]} | {p for ps in holidays().values() for p in ps}
    return tuple(sorted(named - {EVERY_COMMUNITY}))


@functools.cache
def for_community(community: str | None) -> tuple[Mapping, ...]:
    """Return the events a community keeps, in (month, day, id) order: the catalogue without the rows its own
    days replace and those kept only elsewhere (`kept_in`), with its own days (data/events_local.csv), each marked ``local``, and ``holiday`` where the
    day is a public holiday in its country.  None: the catalogue as it is (SPEC 2.7)."""
    if community is None:
        return catalogue()
    own = [e for e in overlay() if community in e["places"] or EVERY_COMMUNITY in e["places"]]
    replaced = {e["replaces"] for e in own}
    only = kept_in()
    kept = [e for e in catalogue() if e["id"] not in replaced and community in only.get(e["id"], (community,))]
    holiday = holidays()
    out = [MappingProxyType({**e, "local": local, "holiday": community in holiday.get(e["id"], ())})
           for local, group in ((False, kept), (True, own)) for e in group]
    out.sort(key=lambda e: (e["hijriMonth"], e["hijriDay"], e["id"]))
    return tuple(out)


def select(*, month: int | None = None, importance: str | None = None, kind: str | None = None,
           community: str | None = None) -> list[Mapping]:
    """Return the events (the catalogue, or a community's: `for_community`) matching every given filter."""
    return [
        e
        for e in for_community(community)
        if (month is None or e["hijriMonth"] == month)
        and (importance is None or e["importance"] == importance)
        and (kind is None or e["type"] == kind)
    ]


def resolve(events: list[Mapping], hijri_year: int, calendar: str, offset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Return (day numbers since 1970-01-01, or -1 where the day does not exist; sources) in ``hijri_year``.

    ``offset`` days: a community whose months begin that many days before the reckoning's (/v1/hijri's
    ``offset``) keeps each event that many civil days earlier, and a weekday rule falls on its weekday there."""
    if not events:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=object)
    months = np.array([e["hijriMonth"] for e in events])
    days = np.array([e["hijriDay"] for e in events])
    last = np.array([e["lastDayOfMonth"] for e in events])
    weekday = np.array([-1 if e["weekday"] is None else e["weekday"] for e in events])
    years = np.full(months.shape, hijri_year)
    start = hijri.month_start(years, months, calendar) - offset
    length = hijri.month_length(years, months, calendar)
    # a weekday rule: the first such weekday on or after the row's day (the civil day's weekday)
    ahead = np.where(weekday >= 0, (weekday - (start + days - 1 + _UNIX_DAY_0_WEEKDAY)) % 7, 0)
    day = np.where(last, length, days + ahead)
    exists = day <= length
    return np.where(exists, start + day - 1, -1), hijri.month_source(years, months, calendar)


def begins_on(events: list[Mapping], days: np.ndarray) -> np.ndarray:
    """Return the civil day each event begins on, from its `resolve` days (-1 stays -1).

    A day event begins on its own day; a night begins at sunset on the civil day before
    its Hijri date, so it is placed on that eve.
    """
    night = np.array([e["night"] for e in events], dtype=bool)
    days = np.asarray(days, dtype=np.int64)
    return np.where(night & (days >= 0), days - 1, days)


def on_day(chosen: tuple[Mapping, ...] | list[Mapping], month: int, day: int, month_length: int,
           weekday: int) -> list[Mapping]:
    """Return the events of ``chosen`` that fall on a Hijri day (its month, day and length, and the civil day's
    weekday, Monday = 0): last-day events on the 29th of a short month, a weekday rule's on its weekday in the
    seven days from its Hijri day."""
    return [
        e
        for e in chosen
        if e["hijriMonth"] == month
        and (e["hijriDay"] <= day < e["hijriDay"] + 7 and weekday == e["weekday"] if e["weekday"] is not None
             else e["hijriDay"] == day or (e["lastDayOfMonth"] and day == month_length))
    ]


def title(event: Mapping, calendar: str) -> dict[str, str]:
    """Return an event's titles under ``calendar``.

    Under ``iran`` the Persian title is the one of Iran's official calendar, which names the
    Iranian civic day of the date ("… و روز پدر") and its public holidays; under any other
    reckoning a reader outside Iran gets the religious occasion alone.
    """
    if calendar == "iran":
        return {**event["title"], **event["titleIran"]}
    return dict(event["title"])


def item(event: Mapping, *, details: bool, calendar: str = hijri.DEFAULT_CALENDAR) -> dict:
    """Return the public JSON shape of an event (SPEC 2.7), titled as under ``calendar``."""
    out = {
        "id": event["id"],
        "hijriMonth": event["hijriMonth"],
        "hijriDay": event["hijriDay"],
        "type": event["type"],
        "importance": event["importance"],
        "title": title(event, calendar),
    }
    if event["lastDayOfMonth"]:
        out["lastDayOfMonth"] = True
    if event["night"]:  # like lastDayOfMonth, only when true: a day event's answer is unchanged
        out["night"] = True
    if event["weekday"] is not None:  # the first such weekday on or after hijriDay (overlay rows only)
        out["onWeekday"] = WEEKDAYS[event["weekday"]]
    if event.get("local"):  # a community's own day (only with a community)
        out["local"] = True
    if event.get("holiday"):  # a public holiday in the community's country (only with a community)
        out["holiday"] = True
    if details:
        out["details"] = dict(event["details"])
    return out
