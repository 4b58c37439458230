"""Options a member sets on the place feeds (issue 20): alarms, event length, free/busy, which times, Ramadan.

Declared once here and read by /v1/prayer-times.ics (all of them) and /v1/night.ics (``alarm``
and ``busy``: its event spans the last third, so it has no length to choose, and it shows no
prayer).  Every default keeps today's feed byte for byte (each is out of the key at its default).

* ``alarm``: minutes 0..120 before each event: a VALARM ACTION:DISPLAY with the event's title.
  Absent: no alarm (clients let people set a default alert per calendar; docs/decisions.md).
* ``duration``: event length in minutes 1..120, one number for every event or ``name:minutes``
  pairs (names `DURATION_NAMES`); unnamed events keep the 15 minutes of the SPEC feed.
* ``busy``: 1 (OPAQUE, the prayer feed's default) or 0 (TRANSPARENT) for prayer, jamaat, Jumu'ah
  and Eid events; markers (imsak, sunrise, midnight, suhoor ends, iftar) are always TRANSPARENT.
  The night feed's default is 0, as before.
* ``prayers``: which times are events: a subset of imsak, fajr, sunrise, dhuhr, asr, maghrib,
  isha, midnight (default the five prayers), canonical in that order.
* ``ramadan=1``: on the days of Ramadan under ``calendar``, a "suhoor ends" event at imsak and an
  "iftar" event at maghrib (the computed times, not a jamaat).
"""
from __future__ import annotations

import re

from generator.api import params as P
from generator.errors import QueryError
from generator.prayer.prayer import OUTPUT_TIMES

EVENT_NAMES = tuple(n for n in OUTPUT_TIMES if n not in ("sunset",))  # imsak … midnight: what `prayers` may name
FIVE = ("fajr", "dhuhr", "asr", "maghrib", "isha")
MARKERS = ("imsak", "sunrise", "midnight")  # times shown as markers: never busy
DEFAULT_PRAYERS = ",".join(FIVE)
DURATION_NAMES = (*EVENT_NAMES, "jumuah", "eid", "suhoor", "iftar")
MIN_DURATION_MIN, MAX_DURATION_MIN, DEFAULT_DURATION_MIN = 1, 120, 15
MAX_ALARM_MIN = 120
MAX_CHARS = 200
_NAME = re.compile(r"\s*([A-Za-z]+)\s*", re.ASCII)
_WHOLE = re.compile(r"\s*\+?\d{1,4}\s*", re.ASCII)


def read_duration(raw: str | None) -> str | None:
    """Return the canonical ``duration``: one whole number (``20``), or ``name:minutes`` pairs in
    `DURATION_NAMES` order (``maghrib:30,Fajr:20`` → ``fajr:20,maghrib:30``); None when empty."""
    if raw is None or not raw.strip():
        return None
    if _WHOLE.fullmatch(raw):
        minutes = int(raw)
        if not MIN_DURATION_MIN <= minutes <= MAX_DURATION_MIN:
            raise QueryError("duration", f"must be whole minutes from {MIN_DURATION_MIN} to {MAX_DURATION_MIN}")
        return str(minutes)
    return P.read_minutes(raw, "duration", DURATION_NAMES, MIN_DURATION_MIN, MAX_DURATION_MIN, item="event",
                          example="fajr:20,maghrib:30", keep_zeros=True)


def durations_s(canonical: str | None) -> dict[str, int]:
    """Return {event name: length in seconds} for every name of `DURATION_NAMES`."""
    if canonical is not None and ":" not in canonical:
        return {name: int(canonical) * 60 for name in DURATION_NAMES}
    given = P.minutes_of(canonical)
    return {name: given.get(name, DEFAULT_DURATION_MIN) * 60 for name in DURATION_NAMES}


def read_prayers(raw: str | None) -> str | None:
    """Return the canonical ``prayers``: names of `EVENT_NAMES` (any case) in that order, or None when absent."""
    if raw is None:
        return None
    found = []
    for part in raw.split(","):
        match = _NAME.fullmatch(part)
        if match is None:
            raise QueryError("prayers", f"must be names separated by commas, from {', '.join(EVENT_NAMES)}")
        name = match.group(1).lower()
        if name not in EVENT_NAMES:
            raise QueryError("prayers", f"unknown time {name[:20]!r}; one of {', '.join(EVENT_NAMES)}")
        if name in found:
            raise QueryError("prayers", f"{name} given more than once")
        found.append(name)
    return ",".join(name for name in EVENT_NAMES if name in found)


ALARM = P.integer("alarm", 0, MAX_ALARM_MIN, "Minutes before each event for a calendar alert (VALARM DISPLAY with the "
                  "event's title). Absent: no alert.", keep_default=False, example=10)
DURATION = P.custom(
    "duration", {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: read_duration(q.string(n, max_chars=MAX_CHARS)),
    f"Event length in minutes {MIN_DURATION_MIN}..{MAX_DURATION_MIN}: one number, or name:minutes pairs "
    f"({', '.join(DURATION_NAMES)}); others keep {DEFAULT_DURATION_MIN}.", keep_default=False, example="fajr:20,maghrib:30")
BUSY = P.integer_choice("busy", (0, 1), "1: prayer, jamaat, Jumu'ah and Eid events show as busy (OPAQUE); 0: free "
                        "(TRANSPARENT). Imsak, sunrise, midnight, suhoor and iftar are always free.", default=1,
                        keep_default=False)
NIGHT_BUSY = BUSY.but(description="1: the night's event shows as busy (OPAQUE); 0: free (TRANSPARENT).", default=0)
PRAYERS = P.custom(
    "prayers", {"type": "string", "maxLength": MAX_CHARS}, lambda q, n: read_prayers(q.string(n, max_chars=MAX_CHARS)),
    f"Which times are events, comma-separated: any of {', '.join(EVENT_NAMES)}.", default=DEFAULT_PRAYERS,
    keep_default=False, example="fajr,sunrise,maghrib")
RAMADAN = P.integer_choice("ramadan", (0, 1), "1: in Ramadan (under `calendar`) a suhoor-ends event at imsak and an "
                           "iftar event at maghrib each day.", default=0, keep_default=False)
PRAYER_FEED_OPTIONS = (PRAYERS, DURATION, BUSY, ALARM, RAMADAN)
NIGHT_FEED_OPTIONS = (NIGHT_BUSY, ALARM)


def shown(params) -> tuple[str, ...]:
    """The times a prayer feed shows as events, in `EVENT_NAMES` order."""
    return tuple(params.get("prayers", DEFAULT_PRAYERS).split(","))


def shows_imsak(params) -> bool:
    """Whether the feed has an event at imsak (the imsak option then moves something)."""
    return "imsak" in shown(params) or params.get("ramadan", 0) == 1
