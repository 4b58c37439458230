"""Civil days: the one spelling of "days since 1970-01-01", ISO dates and "today".

Every day number in the service is a *unix day*: whole days since 1970-01-01 (the
proleptic Gregorian calendar, as `datetime.date`).  Instants are never stored here;
"today" is the civil date at a given Unix time in UTC or in an IANA zone.
"""
from __future__ import annotations

from datetime import date, datetime, timezone

import numpy as np

UNIX_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()  # 719163


def unix_day(day: date | str) -> int:
    """Return the unix day of a date (or an ISO ``YYYY-MM-DD`` string)."""
    if isinstance(day, str):
        day = date.fromisoformat(day)
    return day.toordinal() - UNIX_EPOCH_ORDINAL


def to_date(unix_day_number: int) -> date:
    """Return the civil date of a unix day."""
    return date.fromordinal(int(unix_day_number) + UNIX_EPOCH_ORDINAL)


def iso(unix_day_number: int) -> str:
    """Return the ISO date ``YYYY-MM-DD`` of a unix day."""
    return to_date(unix_day_number).isoformat()


def iso_array(unix_days: np.ndarray) -> list[str]:
    """Return ISO dates of many unix days at once (numpy's datetime64 does the calendar)."""
    return np.asarray(unix_days, dtype=np.int64).astype("datetime64[D]").astype(str).tolist()


def today(now_unix_s: float, zone: str = "UTC") -> date:
    """Return the civil date at Unix time ``now_unix_s`` in UTC or in the IANA ``zone``."""
    now = datetime.fromtimestamp(now_unix_s, timezone.utc)
    if zone != "UTC":
        from generator.places import timezones  # only zones of the pinned tzdata (timezones.is_valid)

        now = now.astimezone(timezones.zone(zone))
    return now.date()
