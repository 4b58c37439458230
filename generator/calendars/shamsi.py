"""Solar Hijri (Shamsi) dates, Iran's civil calendar, shown beside the Gregorian and Hijri dates on Persian pages.

The year starts on Nowruz, the day whose noon at the 52.5° E meridian (Iran Standard Time)
follows the March equinox, so its leap years follow the equinox, not a fixed cycle (a
33-year cycle matches it from 1178 to 1501 AP only, then drifts).  The conversion is PyPI ``persiantools``
6.2.0 (pinned), whose leap years reproduce the Calendar Center's table (Institute of
Geophysics, University of Tehran, KabiseShamsi1206-1498); tests/test_shamsi.py checks
every Nowruz 1990–2040 against that table (data/SOURCES.md).
"""
from __future__ import annotations

from datetime import date

from persiantools.jdatetime import JalaliDate

from generator.words import glossary
from generator.words.locale import native

# Month names as Iran's official calendar prints them.
MONTHS_FA = glossary.sequence("shamsi_month")["fa"]  # data/glossary.csv


def from_gregorian(day: date) -> tuple[int, int, int]:
    """Return the Solar Hijri (year, month 1..12, day 1..31) of a Gregorian date."""
    shamsi = JalaliDate.to_jalali(day)
    return shamsi.year, shamsi.month, shamsi.day


def to_gregorian(year: int, month: int, day: int) -> date:
    """Return the Gregorian date of a Solar Hijri date."""
    return JalaliDate(year, month, day).to_gregorian()


def date_text(day: date, lang: str) -> str:
    """Return the Solar Hijri date of ``day`` written out («۳ بهمن ۱۴۰۵», in ``lang``'s digits)."""
    year, month, day_of_month = from_gregorian(day)
    return f"{native(str(day_of_month), lang)} {MONTHS_FA[month - 1]} {native(str(year), lang)}"


def leading(day: date, gregorian: str, lang: str) -> str:
    """Return a date as a sentence gives it: the Gregorian text as written, or on a Persian page the Solar Hijri date
    first with the Gregorian in brackets, «۳ بهمن ۱۴۰۵ (۲۳ ژانویه ۲۰۲۷)» (language review 2026-11-28 fa FA-05)."""
    return f"{date_text(day, lang)} ({gregorian})" if lang == "fa" else gregorian
