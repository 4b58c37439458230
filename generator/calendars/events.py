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


def select(*, month: int | None = None, importance: str | None = None, kind: str | None = None) -> list[Mapping]:
    """Return the catalogue events matching every given filter."""
    return [
        e
        for e in catalogue()
        if (month is None or e["hijriMonth"] == month)
        and (importance is None or e["importance"] == importance)
        and (kind is None or e["type"] == kind)
    ]


def resolve(events: list[Mapping], hijri_year: int, calendar: str) -> tuple[np.ndarray, np.ndarray]:
    """Return (day numbers since 1970-01-01, or -1 where the day does not exist; sources) in ``hijri_year``."""
    if not events:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=object)
    months = np.array([e["hijriMonth"] for e in events])
    days = np.array([e["hijriDay"] for e in events])
    last = np.array([e["lastDayOfMonth"] for e in events])
    years = np.full(months.shape, hijri_year)
    start = hijri.month_start(years, months, calendar)
    length = hijri.month_length(years, months, calendar)
    day = np.where(last, length, days)
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
    if details:
        out["details"] = dict(event["details"])
    return out
