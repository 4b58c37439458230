"""Each place's own defaults: the method (or printed table) and the reckoning its Shia community keeps.

data/place_defaults.csv has one row per country (ISO 3166-1 code) and, where a city keeps
something else, per catalogue city id: ``method`` (a preset id of data/methods.json; a preset
bound to printed tables serves them where it has one), ``calendar`` (a reckoning id), and the
source of each choice (docs/decisions.md, "Each place's own defaults").  A place with no row
keeps the SPEC's defaults (`DEFAULT_METHOD`, `hijri.DEFAULT_CALENDAR`).

These are the defaults of the human-facing surfaces reached by a city (its pages, imsakiya,
screen, widget); the API's own defaults stay the SPEC's.  A reckoning the data names but
generator.calendars.hijri does not know yet (``pakistan``, ``india`` before their tables are merged) is
read as `hijri.DEFAULT_CALENDAR`, so the file can say what the community keeps ahead of the code.
"""
from __future__ import annotations

import csv
import functools
import re
from dataclasses import dataclass
from pathlib import Path

from generator.calendars import hijri
from generator.places import cities
from generator.prayer import timetables
from generator.prayer.methods import DEFAULT_METHOD, METHODS

PATH = Path(__file__).resolve().parents[2] / "data" / "place_defaults.csv"
COLUMNS = ("place", "method", "calendar", "method_source", "calendar_source")
_COUNTRY = re.compile(r"[A-Z]{2}", re.ASCII)
_CITY = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)
_RECKONING = re.compile(r"[a-z]+", re.ASCII)


@dataclass(frozen=True)
class Defaults:
    method: str  # a preset id of data/methods.json
    calendar: str  # a reckoning generator.calendars.hijri serves
    listed: str | None  # the row's place (a city id or a country code), None: the SPEC's defaults
    listed_calendar: str  # the reckoning the row names (may be one generator.calendars.hijri does not serve yet)


SPEC_DEFAULTS = Defaults(DEFAULT_METHOD, hijri.DEFAULT_CALENDAR, None, hijri.DEFAULT_CALENDAR)


@functools.cache
def rows(path: Path = PATH) -> dict[str, dict[str, str]]:
    """Return the rows by place, checked (`ValueError` names the row: the file is ours)."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise ValueError(f"{path.name}: header must be {','.join(COLUMNS)}")
        out: dict[str, dict[str, str]] = {}
        for row in reader:
            place = row["place"]
            if not (_COUNTRY.fullmatch(place) or _CITY.fullmatch(place)) or place in out:
                raise ValueError(f"{path.name}: place {place!r}: a country code or a city id, once")
            if row["method"] not in METHODS:
                raise ValueError(f"{path.name}: {place}: method {row['method']!r} is not a preset of data/methods.json")
            if not _RECKONING.fullmatch(row["calendar"]):
                raise ValueError(f"{path.name}: {place}: calendar {row['calendar']!r}")
            if not row["method_source"].strip() or not row["calendar_source"].strip():
                raise ValueError(f"{path.name}: {place}: every choice names its source")
            out[place] = row
    return out


def for_place(city_id: str | None, country: str | None, path: Path = PATH) -> Defaults:
    """Return the defaults of a place: its city's row, else (for the method) the authority of a printed
    table serving the city, else its country's row, else the SPEC's defaults."""
    table = rows(path)
    own = table.get(city_id or "")
    row = own or table.get(country or "")
    if row is None:
        defaults = SPEC_DEFAULTS
    else:
        calendar = row["calendar"] if row["calendar"] in hijri.CALENDARS else hijri.DEFAULT_CALENDAR
        defaults = Defaults(row["method"], calendar, row["place"], row["calendar"])
    printed = [t.authority for t in timetables.TABLES if city_id is not None and t.city == city_id]
    if own is None and printed:  # a city with its own printed table shows it (issue 19)
        method = min(printed, key=list(METHODS).index)
        return Defaults(method, defaults.calendar, defaults.listed, defaults.listed_calendar)
    return defaults


def for_city(city_id: str | None) -> Defaults:
    """Return the defaults of a catalogue city id (the SPEC's for None or an id not in the catalogue)."""
    city = cities.by_id().get(city_id or "")
    return for_place(city_id, city["country"]) if city is not None else SPEC_DEFAULTS
