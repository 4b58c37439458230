"""What a civil day is in the Shia calendar: season, mourning, eid, fasting, nights of worship.

Every flag comes from the rules in data/day_rules.json (with their basis in Shia practice)
applied to the day's Hijri date under a reckoning; nothing here names a particular day.
The Hijri day begins at sunset, so the night of a Hijri date D is the evening of the
civil day before it: ``nightOfWorshipEve`` on a civil day means its evening begins a
night of worship (the next civil day's Hijri date is one), and ``tonight`` lists the
catalogue's night events (data/nights.csv) that begin at that evening's sunset.
"""
from __future__ import annotations

import functools
import json
from datetime import date
from pathlib import Path
from typing import Mapping

import numpy as np

from generator import days, events, hijri

RULES_PATH = Path(__file__).resolve().parent.parent / "data" / "day_rules.json"
AYYAM_AL_BID_DAYS = (13, 14, 15)
RAMADAN = 9  # its days are obligatory fasts, so Ayyam al-Bid is not listed in it
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@functools.cache
def rules() -> Mapping:
    """Return the parsed rules file."""
    return json.loads(RULES_PATH.read_text(encoding="utf-8"))


def matches(when: Mapping, month: int, day: int, month_length: int, weekday: int) -> bool:
    """True when a Hijri day (its month, day, month length and Gregorian weekday, Monday = 0) fits a pattern."""
    if "from" in when:
        return tuple(when["from"]) <= (month, day) <= tuple(when["to"])
    if "month" in when and when["month"] != month:
        return False
    if "weekday" in when:
        if WEEKDAYS.index(when["weekday"]) != weekday:
            return False
        return {"first": day <= 7, "last": day > month_length - 7, "first-after-10": 11 <= day <= 17}[when["which"]]
    if "days" in when:
        return day in when["days"]
    if "day" in when:
        return day == (month_length if when["day"] == "last" else when["day"])
    return "month" in when  # the whole month


def _any(section: str, *hijri_day) -> bool:
    return any(matches(rule["when"], *hijri_day) for rule in rules()[section])


def events_on(month: int, day: int, month_length: int) -> list[Mapping]:
    """Return the catalogue events that fall on a Hijri day (last-day events on the 29th of a short month)."""
    return [
        e
        for e in events.catalogue()
        if e["hijriMonth"] == month and (e["hijriDay"] == day or (e["lastDayOfMonth"] and day == month_length))
    ]


def status(civil_day: date, calendar: str) -> dict:
    """Return the flags and Hijri facts of a civil day (SPEC 2.9) under ``calendar``."""
    unix_day = days.unix_day(civil_day)
    today = hijri.to_hijri(unix_day, calendar)
    tomorrow = hijri.to_hijri(unix_day + 1, calendar)
    weekday = civil_day.weekday()
    hd = (int(today.month), int(today.day), int(today.month_length), weekday)
    next_hd = (int(tomorrow.month), int(tomorrow.day), int(tomorrow.month_length), (weekday + 1) % 7)

    todays_events = events_on(*hd[:3])
    season = next((s for s in rules()["seasons"] if matches(s["when"], *hd)), None)
    mourning_types = set(rules()["mourning"]["event_types"])
    forbidden = _any("fasting_forbidden", *hd)
    return {
        "hijri": {"hy": int(today.year), "hm": hd[0], "hd": hd[1]},
        "source": str(today.source),
        "events": [
            {"id": e["id"], "type": e["type"], "importance": e["importance"], "title": dict(e["title"])}
            for e in todays_events
        ],
        "tonight": [{"id": e["id"], "title": dict(e["title"])} for e in events_on(*next_hd[:3]) if e["night"]],
        "flags": {
            "mourning": (season is not None and season["kind"] == "mourning")
            or any(e["type"] in mourning_types for e in todays_events),
            "season": None if season is None else {"id": season["id"], "kind": season["kind"]},
            "eid": _any("eids", *hd),
            "fastingRecommended": _any("fasting_recommended", *hd)
            and not forbidden
            and not _any("fasting_not_recommended", *hd),
            "fastingForbidden": forbidden,
            "ashuraImsak": _any("ashura_imsak", *hd),
            "nightOfWorshipEve": _any("nights_of_worship", *next_hd),
        },
    }


def emphasised_fasts() -> list[Mapping]:
    """Return the rules of the four emphasised fasts (data/day_rules.json ``fasting_emphasised``)."""
    rules_found = rules()["fasting_emphasised"]
    if not all(set(rule["when"]) == {"month", "day"} for rule in rules_found):
        raise ValueError("data/day_rules.json: an emphasised fast must name a Hijri month and day only")
    return rules_found


def fasting_days(first: int, end: int, calendar: str) -> list[tuple[int, list[Mapping]]]:
    """Return (unix day, emphasised rules matched) of every fast listed in [first, end).

    Candidates are Ayyam al-Bid outside Ramadan and the emphasised days; each is kept
    only when /v1/day-status says fasting is recommended and not forbidden that day.
    """
    day_numbers = np.arange(first, end, dtype=np.int64)
    dates = hijri.to_hijri(day_numbers, calendar)
    ayyam_al_bid = np.isin(dates.day, AYYAM_AL_BID_DAYS) & (dates.month != RAMADAN)
    matched = [(dates.month == r["when"]["month"]) & (dates.day == r["when"]["day"]) for r in emphasised_fasts()]
    candidates = np.flatnonzero(ayyam_al_bid | np.logical_or.reduce(matched))
    out = []
    for i in candidates.tolist():
        flags = status(days.to_date(day_numbers[i]), calendar)["flags"]
        if flags["fastingRecommended"] and not flags["fastingForbidden"]:
            out.append((int(day_numbers[i]), [r for r, m in zip(emphasised_fasts(), matched) if m[i]]))
    return out
