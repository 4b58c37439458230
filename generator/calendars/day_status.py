"""What a civil day is in the Shia calendar: season, mourning, eid, fasting, nights of worship.

Every flag comes from the rules in data/day_rules.json (with their basis in Shia practice)
applied to the day's Hijri date under a reckoning; nothing here names a particular day.
The Hijri day begins at sunset, so the night of a Hijri date D is the evening of the
civil day before it: ``nightOfWorshipEve`` on a civil day means its evening begins a
night of worship (the next civil day's Hijri date is one), and ``tonight`` lists the
catalogue's night events (data/nights.csv) that begin at that evening's sunset.
"""
from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Mapping

import numpy as np

from generator.calendars import events, hijri
from generator.places import days

RULES_PATH = Path(__file__).resolve().parents[2] / "data" / "day_rules.json"
AYYAM_AL_BID_DAYS = (13, 14, 15)
RAMADAN = 9  # its days are obligatory fasts, so Ayyam al-Bid is not listed in it
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True)
class When:
    """A pattern of Hijri days (a rule's ``when`` in data/day_rules.json).

    One of: a span ``from``..``to`` of (month, day) pairs; a ``month`` (the whole month, or
    with ``day`` — a number or "last" — or ``days``, or a ``weekday`` and ``which`` of them:
    first, last, first-after-10); ``days`` of every month; or a ``weekday`` of every month.
    """

    span: tuple[tuple[int, int], tuple[int, int]] | None = None
    month: int | None = None
    day: int | str | None = None
    days: tuple[int, ...] | None = None
    weekday: int | None = None  # Monday = 0
    which: str | None = None

    @classmethod
    def of(cls, raw: Mapping) -> "When":
        unknown = set(raw) - {"from", "to", "month", "day", "days", "weekday", "which"}
        if unknown or ("from" in raw) != ("to" in raw) or ("weekday" in raw) != ("which" in raw):
            raise ValueError(f"{RULES_PATH.name}: a 'when' pattern it cannot read: {dict(raw)}")
        if "which" in raw and raw["which"] not in _WHICH:
            raise ValueError(f"{RULES_PATH.name}: 'which' must be one of {', '.join(_WHICH)}: {dict(raw)}")
        return cls(
            span=(tuple(raw["from"]), tuple(raw["to"])) if "from" in raw else None,
            month=raw.get("month"),
            day=raw.get("day"),
            days=tuple(raw["days"]) if "days" in raw else None,
            weekday=WEEKDAYS.index(raw["weekday"]) if "weekday" in raw else None,
            which=raw.get("which"),
        )

    def is_one_day(self) -> bool:
        """True for a Hijri month and a day number and nothing else (one day a year)."""
        return isinstance(self.month, int) and isinstance(self.day, int) and self == When(month=self.month, day=self.day)

    def matches(self, month: int, day: int, month_length: int, weekday: int) -> bool:
        """True when a Hijri day (its month, day, month length and Gregorian weekday, Monday = 0) fits."""
        if self.span is not None:
            return self.span[0] <= (month, day) <= self.span[1]
        if self.month is not None and self.month != month:
            return False
        if self.weekday is not None:
            return self.weekday == weekday and _WHICH[self.which](day, month_length)
        if self.days is not None:
            return day in self.days
        if self.day is not None:
            return day == (month_length if self.day == "last" else self.day)
        return self.month is not None  # the whole month


_WHICH = {"first": lambda day, length: day <= 7, "last": lambda day, length: day > length - 7,
          "first-after-10": lambda day, length: 11 <= day <= 17}


@dataclass(frozen=True)
class DayRule:
    """One rule of data/day_rules.json: when it applies and its basis in practice; a season has an
    ``id`` and a ``kind``, an emphasised fast names its catalogue ``event``."""

    when: When
    basis: str
    id: str | None = None
    kind: str | None = None
    event: str | None = None

    @classmethod
    def of(cls, raw: Mapping) -> "DayRule":
        unknown = set(raw) - {"when", "basis", "id", "kind", "event"}
        if unknown or "when" not in raw or not raw.get("basis"):
            raise ValueError(f"{RULES_PATH.name}: a rule needs 'when' and 'basis' and nothing unknown: {dict(raw)}")
        return cls(When.of(raw["when"]), raw["basis"], raw.get("id"), raw.get("kind"), raw.get("event"))


@dataclass(frozen=True)
class DayRules:
    """The whole rules file, each section a tuple of `DayRule`."""

    seasons: tuple[DayRule, ...]
    mourning_event_types: frozenset[str]
    eids: tuple[DayRule, ...]
    fasting_recommended: tuple[DayRule, ...]
    fasting_emphasised: tuple[DayRule, ...]
    fasting_not_recommended: tuple[DayRule, ...]
    fasting_forbidden: tuple[DayRule, ...]
    ashura_imsak: tuple[DayRule, ...]
    nights_of_worship: tuple[DayRule, ...]

    @classmethod
    def of(cls, raw: Mapping) -> "DayRules":
        sections = {f.name for f in dataclasses.fields(cls)} - {"mourning_event_types"}
        unknown = set(raw) - sections - {"mourning", "_comment"}
        if unknown:
            raise ValueError(f"{RULES_PATH.name}: unknown sections {sorted(unknown)}")
        rules = cls(mourning_event_types=frozenset(raw["mourning"]["event_types"]),
                    **{name: tuple(DayRule.of(rule) for rule in raw[name]) for name in sections})
        if not all(r.when.is_one_day() and r.event for r in rules.fasting_emphasised):
            raise ValueError(f"{RULES_PATH.name}: an emphasised fast must name a Hijri month and day only, and its event")
        return rules


@functools.cache
def rules() -> DayRules:
    """Return the rules file, read and checked once."""
    return DayRules.of(json.loads(RULES_PATH.read_text(encoding="utf-8")))


def _any(section: str, *hijri_day) -> bool:
    return any(rule.when.matches(*hijri_day) for rule in getattr(rules(), section))


def abstain_until_after_asr(month: int, day: int, month_length: int, weekday: int = -1) -> bool:
    """Return whether a Hijri day's practice is to abstain from food and drink until after asr, without a fast
    (data/day_rules.json ``ashura_imsak``; day-status ``flags.ashuraImsak``)."""
    return _any("ashura_imsak", month, day, month_length, weekday)


def events_on(month: int, day: int, month_length: int, weekday: int = -1, community: str | None = None) -> list[Mapping]:
    """Return the events (the catalogue's, or a community's: `events.for_community`) that fall on a Hijri day
    (last-day events on the 29th of a short month; a weekday rule's on the civil day's ``weekday``, Monday = 0)."""
    return events.on_day(events.for_community(community), month, day, month_length, weekday)


def nights_of(month: int, day: int, month_length: int, weekday: int = -1, community: str | None = None) -> list[Mapping]:
    """Return the night events (data/nights.csv, and a community's own nights) of a Hijri date: the night that
    begins at sunset on the civil day before it (``weekday``: the civil day of the date, not of its eve)."""
    return [e for e in events_on(month, day, month_length, weekday, community) if e["night"]]


def status(civil_day: date, calendar: str, offset_days: int = 0, community: str | None = None) -> dict:
    """Return the flags and Hijri facts of a civil day (SPEC 2.9) under ``calendar``.

    ``offset_days`` serves a community that keeps the reckoning's dates a day or two apart: the
    civil day gets the Hijri date the reckoning gives ``offset_days`` later (+1: its month began a
    day earlier), as /v1/hijri's ``offset`` reads it; every fact follows from that date.
    ``community`` (a country code): the events and nights are the ones it keeps (`events.for_community`),
    each day event marked ``local`` (its own day) and ``holiday`` (a public holiday there) when true.
    """
    unix_day = days.unix_day(civil_day) + offset_days
    today = hijri.to_hijri(unix_day, calendar)
    tomorrow = hijri.to_hijri(unix_day + 1, calendar)
    weekday = civil_day.weekday()
    hd = (int(today.month), int(today.day), int(today.month_length), weekday)
    next_hd = (int(tomorrow.month), int(tomorrow.day), int(tomorrow.month_length), (weekday + 1) % 7)

    todays_events = events_on(*hd, community=community)
    season = next((s for s in rules().seasons if s.when.matches(*hd)), None)
    mourning_types = rules().mourning_event_types
    forbidden = _any("fasting_forbidden", *hd)
    return {
        "hijri": {"hy": int(today.year), "hm": hd[0], "hd": hd[1]},
        "source": str(today.source),
        "events": [_day_event(e, calendar) for e in todays_events],
        "tonight": [{"id": e["id"], "title": dict(e["title"])} for e in nights_of(*next_hd, community=community)],
        "flags": {
            "mourning": (season is not None and season.kind == "mourning")
            or any(e["type"] in mourning_types for e in todays_events),
            "season": None if season is None else {"id": season.id, "kind": season.kind},
            "eid": _any("eids", *hd),
            "fastingRecommended": _any("fasting_recommended", *hd)
            and not forbidden
            and not _any("fasting_not_recommended", *hd),
            "fastingForbidden": forbidden,
            "ashuraImsak": _any("ashura_imsak", *hd),
            "nightOfWorshipEve": _any("nights_of_worship", *next_hd),
        },
    }


def _day_event(event: Mapping, calendar: str) -> dict:
    """An event as day-status lists it (SPEC 2.9), titled as /v1/events titles it under ``calendar`` (Iran's official
    calendar names its civic day in Persian: the screen's band said less than the city table, gallery fa LANG3-08),
    with ``local`` and ``holiday`` only when true (a community's)."""
    out = {"id": event["id"], "type": event["type"], "importance": event["importance"],
           "title": events.title(event, calendar)}
    out.update({flag: True for flag in ("local", "holiday") if event.get(flag)})
    return out


def emphasised_fasts() -> tuple[DayRule, ...]:
    """Return the rules of the four emphasised fasts (data/day_rules.json ``fasting_emphasised``)."""
    return rules().fasting_emphasised


def fasting_days(first: int, end: int, calendar: str) -> list[tuple[int, list[DayRule]]]:
    """Return (unix day, emphasised rules matched) of every fast listed in [first, end).

    Candidates are Ayyam al-Bid outside Ramadan and the emphasised days; each is kept
    only when /v1/day-status says fasting is recommended and not forbidden that day.
    """
    day_numbers = np.arange(first, end, dtype=np.int64)
    dates = hijri.to_hijri(day_numbers, calendar)
    ayyam_al_bid = np.isin(dates.day, AYYAM_AL_BID_DAYS) & (dates.month != RAMADAN)
    matched = [(dates.month == r.when.month) & (dates.day == r.when.day) for r in emphasised_fasts()]
    candidates = np.flatnonzero(ayyam_al_bid | np.logical_or.reduce(matched))
    out = []
    for i in candidates.tolist():
        flags = status(days.to_date(day_numbers[i]), calendar)["flags"]
        if flags["fastingRecommended"] and not flags["fastingForbidden"]:
            out.append((int(day_numbers[i]), [r for r, m in zip(emphasised_fasts(), matched) if m[i]]))
    return out
