"""A mosque's announcements (issue 36): which of them apply on a day, in the mosque's own local date.

A profile keeps a list of announcements (`generator.prayer.mosques` reads and checks it): each a text per
language, a ``line`` (one line of the screen's band) or a ``slide`` (a longer programme, several lines, in the
screen's slide area), with optional ``from`` and ``until`` dates (inclusive, the mosque's local date) and
optional ``weekdays`` (`jamaat.WEEKDAYS`, the project's one spelling).  This module answers one question:
which of them apply on a date, or on each day of a span (`active`, vectorised with numpy).  The screen, the
widget and the mosque's page all ask it, so a screen's script rotates what it is given and holds no date rule.

The date is always the mosque's local date: `generator.places.days.today` turns an instant into it (a mosque at
Apia or Kiritimati starts its day up to 14 hours before UTC does, and one at Honolulu up to 10 hours after).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Mapping, Sequence

import numpy as np

from generator.places import days
from generator.prayer.jamaat import WEEKDAYS

KINDS = ("line", "slide")  # a line of the screen's band; a slide: a longer programme in the slide area
LINE, SLIDE = KINDS
MAX_ITEMS = 12  # announcements a profile keeps: a screen shows each in turn, 8 s a line
MAX_LINE_CHARS = 120  # one line of the wall screen (generator/site/screen.py MAX_NOTE_CHARS)
MAX_SLIDE_CHARS = 600  # a programme: about ten lines of the slide area
MAX_SLIDE_LINES = 10


@dataclass(frozen=True)
class Announcement:
    """One announcement: its text by language, its kind, and when it applies (None: no bound; () every day)."""

    text: Mapping[str, str]
    kind: str = LINE
    start: date | None = None  # ``from``: the first local date it applies on (inclusive)
    end: date | None = None  # ``until``: the last local date it applies on (inclusive)
    weekdays: tuple[int, ...] = ()  # Monday 0 … Sunday 6 (`WEEKDAYS`); empty: every day

    def as_json(self) -> dict:
        """The profile's own spelling (docs/mosques.md): only what is set."""
        out: dict = {"text": dict(self.text)}
        if self.kind != LINE:
            out["kind"] = self.kind
        if self.start is not None:
            out["from"] = self.start.isoformat()
        if self.end is not None:
            out["until"] = self.end.isoformat()
        if self.weekdays:
            out["weekdays"] = [WEEKDAYS[d] for d in self.weekdays]
        return out

    def in_language(self, lang: str, languages: Sequence[str] = ()) -> tuple[str, str] | None:
        """(language, text): ``lang``'s text, else the first of ``languages`` that has one, else any; None: none."""
        for candidate in (lang, *languages, *self.text):
            if candidate in self.text:
                return candidate, self.text[candidate]
        return None


def active(items: Sequence[Announcement], first: date, n_days: int) -> np.ndarray:
    """Which ``items`` apply on each of the ``n_days`` local dates from ``first``: a bool array (items, days).

    An item applies on a date within its ``from``..``until`` (both inclusive; an absent bound is open) whose
    weekday is one of its ``weekdays`` (none given: every weekday)."""
    day0 = days.unix_day(first)
    span = day0 + np.arange(n_days)  # unix days: 1 January 1970 was a Thursday (Monday-first weekday 3)
    weekday = (span + 3) % 7
    out = np.ones((len(items), n_days), dtype=bool)
    for k, item in enumerate(items):  # per item (at most MAX_ITEMS), every day at once
        if item.start is not None:
            out[k] &= span >= days.unix_day(item.start)
        if item.end is not None:
            out[k] &= span <= days.unix_day(item.end)
        if item.weekdays:
            out[k] &= np.isin(weekday, item.weekdays)
    return out


def active_on(items: Sequence[Announcement], day: date) -> tuple[int, ...]:
    """The indices of the ``items`` that apply on the local date ``day``, in the profile's order."""
    return tuple(int(k) for k in np.flatnonzero(active(items, day, 1)[:, 0]))


def upcoming(items: Sequence[Announcement], day: date) -> tuple[int, ...]:
    """The indices of the ``items`` not yet begun on ``day`` (their ``from`` after it), in the order they begin."""
    later = [k for k, item in enumerate(items) if item.start is not None and item.start > day]
    return tuple(sorted(later, key=lambda k: (items[k].start, k)))
