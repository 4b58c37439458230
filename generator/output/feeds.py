"""How the four ICS feeds are written: the calendar skeleton, stable UIDs, escaping, checks.

The endpoints (`generator.api.calendar_feeds`, `generator.api.city_feeds`) decide *what* goes into a feed; this module decides
*how* it is written, so that every feed follows the same rules (docs/decisions.md):

* Deterministic bytes: UIDs come from content keys (`uid`), DTSTAMP is the data version
  `DATA_VERSION_UTC` (never the clock), events are sorted, and icalendar is never left to
  pick a default (it would use uuid4 and "now").
* RFC 5545: CRLF, lines folded at 75 octets by icalendar (which keeps UTF-8 sequences and
  ``\\``-escapes whole), UTC ``Z`` times (no VTIMEZONE needed), exclusive DTEND on all-day
  events.  RFC 7986: NAME and DESCRIPTION, with X-WR-CALNAME / X-WR-CALDESC for Google
  and Apple, and ``REFRESH-INTERVAL;VALUE=DURATION:P1D`` beside Microsoft's
  ``X-PUBLISHED-TTL:P1D``.
* Every TEXT value goes through `Text`, which escapes ``\\ ; ,`` and line breaks; the
  serialised feed is then checked line by line (`check_structure`), so a value that slipped
  through could never add a property or a component.
"""
from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta, timezone
from typing import Iterable, Mapping

from icalendar import Alarm, Calendar, Event, vDuration, vText

from generator.places import days

PRODID = "-//shia-times//ICS feeds v1//EN"
UID_DOMAIN = "shia-times"  # the right-hand side of every UID; see docs/decisions.md
# DTSTAMP of every event: when the data behind the feeds (events catalogue, day rules,
# month tables, methods) was last revised.  Bump it with any change to those files.
DATA_VERSION_UTC = datetime(2026, 11, 22, tzinfo=timezone.utc)
REFRESH_INTERVAL = timedelta(days=1)  # SPEC 4.10: refresh daily
MAX_LINE_OCTETS = 75  # RFC 5545 3.1, excluding the CRLF
IDENTITY_HEX_CHARS = 10  # 40 bits of the feed's identity in each UID: no collision in practice

_UNSAFE_LINE = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")  # controls other than HTAB inside a line


class Text(vText):
    """A TEXT value escaped exactly as RFC 5545 3.3.11 says: ``\\`` ``;`` ``,`` and newlines.

    icalendar's own escaping first turns a literal ``\\N`` into a line break, so a masjid
    called ``Al\\Noor`` would come back on two lines; this keeps the text as given.
    """

    def to_ical(self) -> bytes:
        escaped = (
            str(self)
            .replace("\\", "\\\\")
            .replace(";", "\\;")
            .replace(",", "\\,")
            .replace("\r\n", "\\n")
            .replace("\n", "\\n")
            .replace("\r", "\\n")
        )
        return escaped.encode("utf-8")


def text(value: str, lang: str) -> Text:
    """Return ``value`` as a TEXT property value in language ``lang`` (the LANGUAGE parameter)."""
    return Text(value, "utf-8", params={"LANGUAGE": lang})


def utc_instant(unix_s: int) -> datetime:
    return datetime.fromtimestamp(int(unix_s), timezone.utc)


def feed_identity(feed: str, params: Mapping[str, object], keys: Iterable[str]) -> str:
    """Return a short hash of the parameters that make a subscription what it is.

    It goes into every UID, so two subscriptions (two masjids in one city, two languages,
    both reckonings) never share a UID, while one subscription keeps its UIDs from day to
    day: the window (``date``, ``month``, ``days``) is never part of it.
    """
    canonical = feed + "?" + "&".join(f"{key}={params[key]}" for key in sorted(keys) if key in params)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:IDENTITY_HEX_CHARS]


def uid(kind: str, key: str, identity: str) -> str:
    """Return a stable UID, e.g. ``prayer-london-20261122-fajr-3f2a9c01de@shia-times``."""
    return f"{kind}-{key}-{identity}@{UID_DOMAIN}"


def calendar(*, lang: str, name: str, description: str, zone: str | None = None) -> Calendar:
    """Return the VCALENDAR skeleton every feed shares (no events yet)."""
    cal = Calendar()
    cal.add("PRODID", PRODID)
    cal.add("VERSION", "2.0")
    cal.add("CALSCALE", "GREGORIAN")
    cal.add("METHOD", "PUBLISH")
    cal.add("NAME", text(name, lang))
    cal.add("X-WR-CALNAME", Text(name))
    cal.add("DESCRIPTION", text(description, lang))
    cal.add("X-WR-CALDESC", Text(description))
    if zone is not None:  # helps Google show UTC events in the place's zone
        cal.add("X-WR-TIMEZONE", Text(zone))
    cal.add("REFRESH-INTERVAL", REFRESH_INTERVAL, parameters={"VALUE": "DURATION"})
    cal.add("X-PUBLISHED-TTL", vDuration(REFRESH_INTERVAL))
    return cal


def all_day_event(*, event_uid: str, unix_day: int, summary: str, description: str, lang: str) -> Event:
    """Return a one-day, all-day VEVENT (DTEND is the next day: exclusive), transparent."""
    event = _event(event_uid, summary, description, lang)
    event.add("DTSTART", days.to_date(unix_day))
    event.add("DTEND", days.to_date(unix_day + 1))
    event.add("TRANSP", "TRANSPARENT")
    return event


def timed_event(
    *, event_uid: str, start_unix_s: int, end_unix_s: int, summary: str, description: str, lang: str, busy: bool,
    alarm_before_min: int | None = None,
) -> Event:
    """Return a VEVENT from ``start_unix_s`` to ``end_unix_s`` in UTC; ``busy`` sets TRANSP:OPAQUE.

    ``alarm_before_min`` adds a VALARM (RFC 5545 3.6.6): ACTION:DISPLAY that many minutes before
    the start (``TRIGGER:-PT10M``; 0 is ``TRIGGER:PT0S``), its DESCRIPTION the event's summary.
    """
    assert end_unix_s > start_unix_s, (event_uid, start_unix_s, end_unix_s)
    event = _event(event_uid, summary, description, lang)
    event.add("DTSTART", utc_instant(start_unix_s))
    event.add("DTEND", utc_instant(end_unix_s))
    event.add("TRANSP", "OPAQUE" if busy else "TRANSPARENT")
    if alarm_before_min is not None:
        alarm = Alarm()
        alarm.add("ACTION", "DISPLAY")
        alarm.add("TRIGGER", timedelta(minutes=-alarm_before_min))
        alarm.add("DESCRIPTION", text(summary, lang))
        event.add_component(alarm)
    return event


def _event(event_uid: str, summary: str, description: str, lang: str) -> Event:
    event = Event()
    event.add("UID", event_uid)
    event.add("DTSTAMP", DATA_VERSION_UTC)
    event.add("SUMMARY", text(summary, lang))
    event.add("DESCRIPTION", text(description, lang))
    return event


def serialize(cal: Calendar, events: list[tuple[tuple, Event]]) -> bytes:
    """Return the feed's bytes: ``events`` as (sort key, VEVENT) sorted by key, then checked.

    Sort keys must be unique (start, then a content key), so the order never depends on
    the order the events were made in.
    """
    keys = [key for key, _ in events]
    assert len(set(keys)) == len(keys), "duplicate event sort keys"
    for _, event in sorted(events, key=lambda pair: pair[0]):
        cal.add_component(event)
    body = cal.to_ical()
    check_structure(body, len(events))
    return body


def check_structure(body: bytes, n_events: int) -> None:
    """Refuse a feed whose lines are not what we wrote: an escaping failure must never ship.

    Checks CRLF line ends, folded lines of at most 75 octets, valid UTF-8, no control
    characters inside a line, and exactly one VCALENDAR holding ``n_events`` VEVENTs, each
    with at most one VALARM (the ``alarm`` option).
    """
    assert body.endswith(b"\r\n"), "feed must end with CRLF"
    lines = body[:-2].split(b"\r\n")
    body.decode("utf-8")  # raises on a split multi-byte sequence
    for line in lines:
        assert len(line) <= MAX_LINE_OCTETS, line[:80]
        assert not _UNSAFE_LINE.search(line), line[:80]
    starts = [line for line in lines if line.startswith(b"BEGIN:") and line != b"BEGIN:VALARM"]
    assert starts == [b"BEGIN:VCALENDAR"] + [b"BEGIN:VEVENT"] * n_events, "unexpected components"
    alarms = body.count(b"\r\nBEGIN:VALARM\r\n")
    assert alarms in (0, n_events) and alarms == body.count(b"\r\nEND:VALARM\r\nEND:VEVENT\r\n"), "VALARM"
    assert lines[0] == b"BEGIN:VCALENDAR" and lines[-1] == b"END:VCALENDAR"

