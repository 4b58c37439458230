"""Each place's own defaults: the method (or printed table) and the reckoning its Shia community keeps.

data/place_defaults.csv has one row per country (ISO 3166-1 code) and, where a city keeps
something else, per catalogue city id: ``method`` (a preset id of data/methods.json; a preset
bound to printed tables serves them where it has one), ``calendar`` (a reckoning id), and the
source of each choice (docs/decisions.md, "Each place's own defaults"; a community keeping two
calendars names both, ``moonsighting|lebanon``: the first is the default, the others are shown beside
it), and ``midnight``: the night the place's authority halves for its midnight, carried with the
method (empty: the named method's authority's, `Method.own_midnight`; ``midnight_source`` says which).
A place with no row keeps the SPEC's method and reckoning (`DEFAULT_METHOD`, `hijri.DEFAULT_CALENDAR`)
and the method's authority's midnight.

These are the defaults of the human-facing surfaces reached by a city (its pages, imsakiya,
screen, widget, the builder); the API's own defaults stay the SPEC's: a surface that names an authority asks
/v1/prayer-times for its midnight explicitly (`page_midnight`).  A reckoning the data names but
generator.calendars.hijri does not know yet (``pakistan``, ``india`` before their tables are merged) is
read as `hijri.DEFAULT_CALENDAR`, so the file can say what the community keeps ahead of the code.
"""
from __future__ import annotations

import csv
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from generator.calendars import events, hijri
from generator.places import cities
from generator.prayer import timetables
from generator.prayer.methods import DEFAULT_METHOD, DEFAULT_MIDNIGHT, METHODS, Midnight

PATH = Path(__file__).resolve().parents[2] / "data" / "place_defaults.csv"
COLUMNS = ("place", "method", "calendar", "method_source", "calendar_source", "midnight", "midnight_source")
_COUNTRY = re.compile(r"[A-Z]{2}", re.ASCII)
_CITY = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)
# One reckoning id, or several joined by "|" where a community keeps more than one calendar (Lebanon's Shia:
# the Higher Islamic Shia Council's and the Fadlallah office's): the first is the default, the others are offered.
# An id may have a hyphenated region (cssna-east, cssna-west: one body announcing by region, issue 37).
_ID = r"[a-z]+(?:-[a-z]+)*"
_RECKONING = re.compile(rf"{_ID}(?:\|{_ID})*", re.ASCII)


@dataclass(frozen=True)
class Defaults:
    method: str  # a preset id of data/methods.json
    calendar: str  # a reckoning generator.calendars.hijri serves
    listed: str | None  # the row's place (a city id or a country code), None: the SPEC's defaults
    listed_calendar: str  # the reckoning the row names (may be one generator.calendars.hijri does not serve yet)
    midnight: Midnight = METHODS[DEFAULT_METHOD].own_midnight  # the night the place's authority halves
    midnight_listed: bool = False  # the row names the midnight (else it is the method's authority's)
    offered: tuple[str, ...] = ()  # the other served reckonings the place's community keeps (shown beside)


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
            if row["midnight"] not in ("", *Midnight):
                raise ValueError(f"{path.name}: {place}: midnight {row['midnight']!r} is not a midnight= value")
            if not all(row[f"{choice}_source"].strip() for choice in ("method", "calendar", "midnight")):
                raise ValueError(f"{path.name}: {place}: every choice names its source")
            out[place] = row
    return out


def for_place(city_id: str | None, country: str | None, path: Path = PATH) -> Defaults:
    """Return the defaults of a place: its city's row, else (for the method) the authority of a printed
    table serving the city, else its country's row, else the SPEC's defaults.  The midnight goes with the
    method: the row's for the row's method, else the method's authority's."""
    table = rows(path)
    own = table.get(city_id or "")
    row = own or table.get(country or "")
    if row is None:
        defaults = SPEC_DEFAULTS
    else:
        listed, *others = row["calendar"].split("|")
        calendar = listed if listed in hijri.CALENDARS else hijri.DEFAULT_CALENDAR
        offered = tuple(c for c in others if c in hijri.CALENDARS and c != calendar)
        midnight = Midnight(row["midnight"]) if row["midnight"] else METHODS[row["method"]].own_midnight
        defaults = Defaults(row["method"], calendar, row["place"], listed, midnight, bool(row["midnight"]), offered)
    printed = [t.authority for t in timetables.TABLES if city_id is not None and t.city == city_id]
    if own is None and printed:  # a city with its own printed table shows it (issue 19)
        method = min(printed, key=list(METHODS).index)
        if method == defaults.method:
            return Defaults(method, defaults.calendar, defaults.listed, defaults.listed_calendar, defaults.midnight,
                            defaults.midnight_listed, defaults.offered)
        return Defaults(method, defaults.calendar, defaults.listed, defaults.listed_calendar,
                        METHODS[method].own_midnight, offered=defaults.offered)
    return defaults


@functools.cache
def communities() -> tuple[str, ...]:
    """Return the communities whose events the service can give (/v1/events ``community``): the countries with a
    row here, and those the events' overlay or holidays name (data/events_local.csv, data/event_holidays.csv)."""
    return tuple(sorted({place for place in rows() if _COUNTRY.fullmatch(place)} | set(events.communities())))


def community(country: str | None) -> str | None:
    """Return the community whose events a place's pages, feeds and screens show (issue 33: the place's own wins):
    its country when the service knows its community, else None (the catalogue as it is)."""
    return country if country in communities() else None


def city_community(city_id: str | None) -> str | None:
    """Return the community of a catalogue city (`community` of its country), None for no city or an unknown id."""
    city = cities.by_id().get(city_id or "")
    return community(city["country"]) if city is not None else None


@functools.cache
def _zone_countries() -> dict[str, str]:
    """Return each zone's country, from the tz database's zone.tab (the pinned tzdata package zoneinfo reads)."""
    text = resources.files("tzdata").joinpath("zoneinfo", "zone.tab").read_text(encoding="utf-8")
    rows = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {row[2]: row[0] for row in rows}


def place_community(place: Mapping[str, object]) -> str | None:
    """Return the community of a mosque's place: its catalogue city's, else its zone's country's (a mosque placed
    by coordinates is in the country whose zone it keeps: the Jaffari centre's America/Toronto is CA).  Gallery
    review 4, ar AR4-05: a centre placed by coordinates had no community, so its card lacked the nights every
    community keeps (the night of Ashura), which its city's page has."""
    city = place.get("city")
    if city:
        return city_community(str(city))
    return community(_zone_countries().get(str(place.get("tz", ""))))


def for_city(city_id: str | None) -> Defaults:
    """Return the defaults of a catalogue city id (the SPEC's for None or an id not in the catalogue)."""
    city = cities.by_id().get(city_id or "")
    return for_place(city_id, city["country"]) if city is not None else SPEC_DEFAULTS


def page_midnight(method: str | None, city_id: str | None) -> str | None:
    """Return the ``midnight=`` a human surface adds to its /v1/prayer-times query when it names ``method`` at a
    catalogue city (None: no city): the place's own night when the method is the place's, else the method's
    authority's (`Method.own_midnight`).  None when that is the method's API default (no parameter: the query,
    its key and its static file stay the API's own), or for a method id that is not one preset (custom, a list).
    Issue 33: a page naming the Institute printed the SPEC's maghrib-to-fajr midnight, not the Institute's."""
    night = page_night(method, city_id)
    return None if night is None or night[0] == METHODS[str(method)].midnight else night[0].value


def page_night(method: str | None, city_id: str | None) -> tuple[Midnight, bool] | None:
    """Return the midnight a human surface prints for ``method`` at a catalogue city (None: no city), and whether
    a source defines it (the place's row, or the preset's authority: `Method.authority_midnight`, or a night of its
    own); False: the API's default, which the page says no source was found for.  None for a method id that is not
    one preset."""
    preset = METHODS.get(method or "")
    if preset is None:
        return None
    own = for_city(city_id)
    if method == own.method and own.midnight_listed:
        return own.midnight, True
    return preset.own_midnight, preset.authority_midnight is not None or preset.midnight != DEFAULT_MIDNIGHT
