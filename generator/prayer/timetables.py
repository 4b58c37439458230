"""Printed timetables: the times an authority prints, served before the computation (table, then computed).

The prayer-time analogue of the Hijri chain.  A preset bound to printed tables (a method whose
id is in a table's ``presets``: IslamicCentreOfEngland, ImamAliFoundation) answers a place
within `SERVE_RADIUS_KM` of a table's place with the printed cells, and every other place and
day with its own rule (generator.prayer.prayer); each day of such a preset says which
(`Provenance`).  Methods bound to no table are untouched: their answers stay byte for byte.

Data (data/timetables/, docs/decisions.md "Printed timetables"): ``index.csv`` lists each
table (id ``<authority>/<place>``, the presets it serves, the place, its coordinates and where
they come from, the zone the table is printed in, the clock year, the Sun's year, the years
served, the source and the reading date); ``<authority>/<place>.csv`` holds the cells as printed:
``day`` (``MM-DD``, the 366 days of a leap year), then local ``HH:MM`` per printed column
(`TIMES` order; a ``midnight`` before noon is the next morning's).

Perpetual tables (the Foundation's: the same cells every year).  Stored once, as printed, on
the clock of ``clock_year`` (2024: its BST from 31 March to 27 October).  Each cell is turned
into UTC with the zone rules of that year (`Table.utc_s`: seconds from 00:00 UTC of its date),
and for any year served that offset is added to the same month-day, so the year's own
daylight saving is re-applied where the answer is shown in local time.  29 February is
printed (equal to 1 March); a year without it skips the row.

Checked once, at import (`load`): complete days, each time in order within its day, the
clock of the zone (a cell an hour off the Sun says "daylight saving"), and each cell within a
plausible distance of the preset's computed time (`SUN_BOUND_MIN`, `CONVENTION_BOUND_MIN`).
A table failing any check is refused with a `TableError` naming the table, the day and the
column; nothing is served from it (the service does not start).
"""
from __future__ import annotations

import csv
import datetime as dt
import functools
import re
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Mapping, Sequence
from zoneinfo import ZoneInfo

import numpy as np

from generator.places import cities
from generator.prayer import prayer
from generator.prayer.methods import METHODS, Method

TABLES_DIR = Path(__file__).resolve().parents[2] / "data" / "timetables"
INDEX_PATH = TABLES_DIR / "index.csv"
INDEX_COLUMNS = ("table", "authority", "presets", "place", "city", "lat", "lng", "coordinates", "tz", "clock_year",
                 "sun_year", "first_year", "last_year", "source_url", "copied_from", "read_on")
TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "sunset", "maghrib", "midnight")  # printable, in a day's order
SUN_TIMES = ("sunrise", "dhuhr", "sunset")
SERVE_RADIUS_KM = 10.0  # a table serves coordinates within this great-circle distance of its place
EARTH_RADIUS_KM = 6371.0
# Plausibility, printed cell against the preset's own computed time.  The Sun's rising, transit and
# setting are facts: the fixture tables (rounded or truncated to the minute) are within 2 min of
# the engine, so 3 min catches a typo'd minute digit, a swapped row or a shifted day.  Twilight
# times and midnight are conventions: authorities differ from any fitted rule by up to 21 min
# (the London dawn against the 12° rule), so 30 min accepts any authority's choice and still
# refuses a wrong hour, a swapped column or a misread hour digit.
SUN_BOUND_MIN = 3.0
CONVENTION_BOUND_MIN = 30.0
DST_HOUR_S = 3600.0
LEAP_YEAR = 2024  # month-days of a table are those of a leap year
SECONDS_PER_DAY = 86400
_DAY = re.compile(r"(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])", re.ASCII)
_CLOCK = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])", re.ASCII)
_CLOCKS = re.compile(r"(?:(?:[01][0-9]|2[0-3]):[0-5][0-9],)*(?:[01][0-9]|2[0-3]):[0-5][0-9]", re.ASCII)


class TableError(ValueError):
    """A table fails a check; the message names the table, and the day and column where it fails."""


@dataclass(frozen=True)
class Table:
    """One printed table: where and whose it is, and its cells as UTC offsets from their date.

    ``utc_s[name]`` is (366,) int64: for the leap-year day k (0 = 1 January, 59 = 29 February),
    the printed instant minus 00:00 UTC of its date, in seconds (a midnight after 24:00 UTC of
    its date is above 86,400).
    """

    id: str
    authority: str  # the authority's preset id
    presets: tuple[str, ...]  # the presets it serves
    place: str
    city: str | None  # the catalogue id, when the place is in data/cities.csv
    lat: float
    lng: float
    coordinates: str  # where the coordinates come from
    tz: str
    clock_year: int
    sun_year: int
    first_year: int
    last_year: int
    source_url: str
    copied_from: str
    read_on: str
    printed: Mapping[str, tuple[str, ...]]  # name -> (366,) the cells as printed, HH:MM
    utc_s: Mapping[str, np.ndarray]

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self.printed)

    @property
    def authority_name(self) -> str:
        return METHODS[self.authority].label["en"]


@dataclass(frozen=True)
class Provenance:
    """Where each day of a result comes from, for the methods bound to printed tables.

    ``bound[k]``: method k is bound to tables (its days carry a source).  ``table[k]``: the table
    serving it here, or None.  ``printed``: (methods, days) True where the day is the table's.
    ``ignored``: the request's options that the printed cells do not follow (they still apply
    to the computed times of those days and to computed days).
    """

    bound: tuple[bool, ...]
    table: tuple[Table | None, ...]
    printed: np.ndarray
    ignored: tuple[str, ...]

    def computed_times(self, k: int) -> tuple[str, ...]:
        """The output times of method k that its table does not print (computed on its printed days)."""
        table = self.table[k]
        return tuple(name for name in prayer.OUTPUT_TIMES if table is None or name not in table.printed)


# --- reading and checking ------------------------------------------------------------------------


def _leap_days() -> list[str]:
    first = dt.date(LEAP_YEAR, 1, 1)
    return [(first + dt.timedelta(days=k)).strftime("%m-%d") for k in range(366)]


LEAP_DAYS = tuple(_leap_days())


def read_index(path: Path = INDEX_PATH) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != INDEX_COLUMNS:
            raise TableError(f"{path.name}: columns must be {','.join(INDEX_COLUMNS)}")
        return list(reader)


def parse_cells(table_id: str, rows: Sequence[Mapping[str, str]], header: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Return {column: 366 printed cells} of a table file's rows, or raise `TableError` (format and days)."""
    header = tuple(header)
    columns = header[1:]
    if not header or header[0] != "day" or not columns or not set(columns) <= set(TIMES) \
            or list(columns) != [t for t in TIMES if t in columns]:
        raise TableError(f"{table_id}: the header must be day, then some of {', '.join(TIMES)} in that order")
    by_day: dict[str, Mapping[str, str]] = {}
    for line, row in enumerate(rows, start=2):
        day = (row.get("day") or "").strip()
        if not _DAY.fullmatch(day) or day not in LEAP_DAYS:
            raise TableError(f"{table_id}: line {line}: day {day!r} is not a month-day MM-DD")
        if day in by_day:
            raise TableError(f"{table_id}: {day} is printed twice")
        by_day[day] = row
    missing = [day for day in LEAP_DAYS if day not in by_day]
    if missing:
        raise TableError(f"{table_id}: missing day{'s' if len(missing) > 1 else ''} {', '.join(missing[:10])}"
                         f"{' …' if len(missing) > 10 else ''} (a table prints all 366 days of a leap year)")
    printed = {name: tuple((by_day[day].get(name) or "").strip() for day in LEAP_DAYS) for name in columns}
    for name, cells in printed.items():
        if not _CLOCKS.fullmatch(",".join(cells)):  # one match per column; the slow search only on failure
            k = next(k for k, cell in enumerate(cells) if not _CLOCK.fullmatch(cell))
            raise TableError(f"{table_id}: {LEAP_DAYS[k]} {name}: {cells[k]!r} is not a time HH:MM")
    return printed


def _minutes(cells: Sequence[str]) -> np.ndarray:
    """Minutes after 00:00 of checked ``HH:MM`` cells."""
    digits = np.frombuffer("".join(cells).encode("ascii"), dtype=np.uint8).reshape(-1, 5).astype(np.int64) - 48
    return (digits[:, 0] * 10 + digits[:, 1]) * 60 + digits[:, 3] * 10 + digits[:, 4]


def local_minutes(printed: Mapping[str, Sequence[str]]) -> dict[str, np.ndarray]:
    """Return each printed cell as minutes after 00:00 of its row's date (a midnight before noon + 1440)."""
    out = {name: _minutes(cells) for name, cells in printed.items()}
    if "midnight" in out:
        out["midnight"] = np.where(out["midnight"] < 720, out["midnight"] + 1440, out["midnight"])
    return out


def check_order(table_id: str, minutes: Mapping[str, np.ndarray]) -> None:
    """Refuse a day whose times are out of order (imsak < fajr < sunrise < dhuhr < sunset ≤ maghrib < midnight)."""
    names = list(minutes)
    for a, b in zip(names, names[1:]):
        wrong = minutes[b] < minutes[a] if (a, b) == ("sunset", "maghrib") else minutes[b] <= minutes[a]
        if wrong.any():
            k = int(np.flatnonzero(wrong)[0])
            raise TableError(f"{table_id}: {LEAP_DAYS[k]}: {b} is not after {a} "
                             f"({_clock(minutes[b][k])} vs {_clock(minutes[a][k])}): times out of order")


def _clock(minutes: int) -> str:
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"


def utc_offsets_s(minutes: Mapping[str, np.ndarray], tz: str, clock_year: int) -> dict[str, np.ndarray]:
    """Return each cell as seconds from 00:00 UTC of its date, read on the clock of ``tz`` in ``clock_year``."""
    zone = ZoneInfo(tz)
    offsets = np.empty(366)
    for k, day in enumerate(LEAP_DAYS):  # the zone's offset at local noon of each date (one clock a day)
        month, day_of_month = int(day[:2]), int(day[3:])
        offsets[k] = dt.datetime(clock_year, month, day_of_month, 12, tzinfo=zone).utcoffset().total_seconds()
    # A printed time after the clock changed that night (a midnight past 01:00 on the night of the change)
    # follows the next date's clock; times of the day itself follow the day's.
    next_offsets = np.roll(offsets, -1)
    out = {}
    for name, value in minutes.items():
        offset = np.where(value >= 1440 + 60, next_offsets, offsets) if name == "midnight" else offsets
        out[name] = (value * 60 - offset).astype(np.int64)
    return out


def instants_s(table: Table, unix_days: np.ndarray, name: str) -> np.ndarray:
    """Return the printed ``name`` of each day (days since 1970-01-01) as Unix seconds (the year's own month-day)."""
    return np.asarray(unix_days, dtype=np.int64) * SECONDS_PER_DAY + table.utc_s[name][leap_day_index(unix_days)]


def leap_day_index(unix_days: np.ndarray) -> np.ndarray:
    """Return each day's row in a table of the 366 days of a leap year (1 March is row 60 in every year)."""
    dates = np.asarray(unix_days, dtype=np.int64).astype("datetime64[D]")
    years = dates.astype("datetime64[Y]")
    day_of_year = (dates - years.astype("datetime64[D]")).astype(np.int64)
    year = years.astype(np.int64) + 1970
    leap = (year % 4 == 0) & ((year % 100 != 0) | (year % 400 == 0))
    return day_of_year + ((day_of_year >= 59) & ~leap)


def check_against_computed(table: Table, method: Method | None = None) -> None:
    """Refuse a table whose clock is an hour off the zone's (daylight saving) or whose cells are far from
    the preset's computed times (`SUN_BOUND_MIN`, `CONVENTION_BOUND_MIN`), on the days of ``sun_year``."""
    method = method or METHODS[table.authority]
    first = (dt.date(table.sun_year, 1, 1) - dt.date(1970, 1, 1)).days
    n_days = 366 if _is_leap(table.sun_year) else 365
    days = first + np.arange(n_days)
    computed = prayer.compute(table.lat, table.lng, first, n_days, [method])
    rows = leap_day_index(days)
    # The Sun's times first: an hour off there is a clock (daylight-saving) error, reported as such.
    for name in sorted(table.columns, key=lambda name: name not in SUN_TIMES):
        printed = instants_s(table, days, name)
        diff_min = (printed - computed.times[name][0]) / 60.0
        bound = SUN_BOUND_MIN if name in SUN_TIMES else CONVENTION_BOUND_MIN
        bad = ~(np.abs(diff_min) <= bound)  # NaN (a time the rule never reaches) is no reference: skipped below
        bad &= np.isfinite(diff_min)
        if not bad.any():
            continue
        k = int(np.flatnonzero(bad)[0])
        day = LEAP_DAYS[rows[k]]
        if name in SUN_TIMES and abs(abs(diff_min[k]) - DST_HOUR_S / 60.0) <= bound:
            wrong = [LEAP_DAYS[r] for r in rows[np.flatnonzero(bad)]]
            raise TableError(f"{table.id}: {day}: {name} {table.printed[name][rows[k]]} is an hour "
                             f"{'after' if diff_min[k] > 0 else 'before'} the Sun on the {table.tz} clock of "
                             f"{table.clock_year} (wrong daylight saving on {len(wrong)} days, {wrong[0]}–{wrong[-1]})")
        raise TableError(f"{table.id}: {day}: {name} {table.printed[name][rows[k]]} is {diff_min[k]:+.0f} min from "
                         f"the computed {method.id} time (at most ±{bound:g} min for {name})")


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def build_table(entry: Mapping[str, str], rows: Sequence[Mapping[str, str]], header: Sequence[str]) -> Table:
    """Return a checked `Table` from its index entry and its file's rows (or raise `TableError`)."""
    table_id = entry["table"]
    for name in INDEX_COLUMNS:
        if name not in ("city", "copied_from") and not (entry.get(name) or "").strip():
            raise TableError(f"{table_id or 'index.csv'}: {name} is empty")
    authority, presets = entry["authority"], tuple(entry["presets"].split())
    unknown = [p for p in (authority, *presets) if p not in METHODS]
    if unknown:
        raise TableError(f"{table_id}: unknown preset {unknown[0]!r}")
    foreign = [p for p in presets if p != authority and authority not in METHODS[p].prints_tables_of]
    if foreign:  # issue 29: --presets Tehran rebound Leeds' table to the API's default method
        raise TableError(f"{table_id}: presets: {foreign[0]} is not {authority} and does not print its tables "
                         f"(a table binds its authority's preset and those whose prints_tables_of names it, "
                         f"data/methods.json)")
    if table_id != f"{authority}/{entry['place']}":
        raise TableError(f"{table_id}: a table id is <authority>/<place>")
    try:
        ZoneInfo(entry["tz"])
        years = [int(entry[name]) for name in ("clock_year", "sun_year", "first_year", "last_year")]
        lat, lng = float(entry["lat"]), float(entry["lng"])
    except (ValueError, KeyError) as error:
        raise TableError(f"{table_id}: bad index entry ({error})") from None
    if not (-90 <= lat <= 90 and -180 <= lng <= 180) or not 1900 <= years[2] <= years[3] <= 2100:
        raise TableError(f"{table_id}: coordinates or years out of range")
    if entry["city"] and entry["city"] != entry["place"]:
        raise TableError(f"{table_id}: the place of a catalogue city is its id ({entry['city']})")
    if entry["city"] and entry["city"] not in cities.by_id():
        raise TableError(f"{table_id}: city {entry['city']!r} is not in data/cities.csv")
    printed = parse_cells(table_id, rows, header)
    minutes = local_minutes(printed)
    check_order(table_id, minutes)
    table = Table(
        id=table_id, authority=authority, presets=presets, place=entry["place"], city=entry["city"] or None,
        lat=lat, lng=lng, coordinates=entry["coordinates"], tz=entry["tz"], clock_year=years[0], sun_year=years[1],
        first_year=years[2], last_year=years[3], source_url=entry["source_url"], copied_from=entry["copied_from"],
        read_on=entry["read_on"], printed=MappingProxyType(printed),
        utc_s=MappingProxyType(utc_offsets_s(minutes, entry["tz"], years[0])))
    check_against_computed(table)
    return table


def read_table(entry: Mapping[str, str], directory: Path = TABLES_DIR) -> Table:
    """Read and check the table file of an index entry."""
    path = directory / f"{entry['table']}.csv"
    if not path.is_file():
        raise TableError(f"{entry['table']}: no file {path.relative_to(directory.parent)}")
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
        return build_table(entry, rows, reader.fieldnames or ())


def check_places(tables: Sequence[Table]) -> None:
    """Refuse two tables of one preset within reach of each other, or a table within reach of another
    catalogue city than its own (so that ``city=<id>`` and coordinates are served alike)."""
    catalogue = list(cities.by_id().values())
    lats, lngs = np.array([c["lat"] for c in catalogue]), np.array([c["lng"] for c in catalogue])
    for table in tables:
        for k in np.flatnonzero(distance_km(table.lat, table.lng, lats, lngs) <= SERVE_RADIUS_KM):
            if catalogue[k]["id"] != table.city:
                raise TableError(f"{table.id}: catalogue city {catalogue[k]['id']} is within {SERVE_RADIUS_KM:g} km "
                                 f"of its place")
        for other in tables:
            if other is not table and set(other.presets) & set(table.presets) and \
                    distance_km(table.lat, table.lng, other.lat, other.lng) <= 2 * SERVE_RADIUS_KM:
                raise TableError(f"{table.id}: {other.id} of the same preset is within {2 * SERVE_RADIUS_KM:g} km")


def load(directory: Path = TABLES_DIR) -> tuple[Table, ...]:
    """Read and check every table of ``directory``/index.csv (`TableError` on the first failure)."""
    entries = read_index(directory / "index.csv")
    ids = [entry["table"] for entry in entries]
    if len(set(ids)) != len(ids):
        raise TableError("index.csv: a table is listed twice")
    tables = tuple(read_table(entry, directory) for entry in entries)
    check_places(tables)
    return tables


def distance_km(lat1, lng1, lat2, lng2):
    """Great-circle distance (haversine, mean Earth radius)."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    a = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(np.radians(lng2 - lng1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.minimum(a, 1.0)))


TABLES: tuple[Table, ...] = load()
BOUND_PRESETS = frozenset(p for table in TABLES for p in table.presets)


def reload() -> None:
    """Read and check the tables of `TABLES_DIR` again (after timetable.py wrote one; a running app
    calls this when `files` changed).  On a `TableError` the tables in use stay."""
    global TABLES, BOUND_PRESETS
    tables = load(TABLES_DIR)
    TABLES, BOUND_PRESETS = tables, frozenset(p for table in tables for p in table.presets)
    _places.cache_clear()


def files() -> tuple[Path, ...]:
    """The files the tables in use were read from: the index and each table's file (what a running
    process watches to follow timetable.py)."""
    return (TABLES_DIR / "index.csv", *(TABLES_DIR / f"{table.id}.csv" for table in TABLES))


@functools.cache
def _places(preset: str) -> tuple[tuple[Table, ...], np.ndarray, np.ndarray]:
    served = tuple(t for t in TABLES if preset in t.presets)
    return served, np.array([t.lat for t in served]), np.array([t.lng for t in served])


def table_for(preset: str, lat: float, lng: float) -> Table | None:
    """Return the table of ``preset`` whose place is within `SERVE_RADIUS_KM` of (lat, lng), or None."""
    served, lats, lngs = _places(preset)
    if not served:
        return None
    distance = distance_km(lat, lng, lats, lngs)
    k = int(np.argmin(distance))
    return served[k] if distance[k] <= SERVE_RADIUS_KM else None


def tables_of(preset: str) -> tuple[Table, ...]:
    return _places(preset)[0]


# --- serving ---------------------------------------------------------------------------------------

# Options whose effect a printed cell does not follow (the table decided them); `tune` moves printed
# cells too, and `asr` moves asr, which no table prints.
IGNORED_ON_PRINTED = {"midnight": "midnight", "imsak": "imsak_before_fajr_min",
                      "highLatitudeRule": "high_latitude_rule", "elevation": "elevation_m"}


def ignored_options(options: prayer.Options) -> tuple[str, ...]:
    """Return the request options a printed day does not follow (those given, in `IGNORED_ON_PRINTED` order)."""
    defaults = prayer.DEFAULT_OPTIONS
    return tuple(name for name, field in IGNORED_ON_PRINTED.items()
                 if getattr(options, field) != getattr(defaults, field))


def serve(result: prayer.PrayerTimes, methods: Sequence[Method], lat: float, lng: float, first_day: int,
          options: prayer.Options = prayer.DEFAULT_OPTIONS) -> prayer.PrayerTimes:
    """Return ``result`` with the printed cells of the tables that serve its bound methods here.

    A result with no bound method is returned as it is (its answers stay byte for byte).  On a
    printed day each printed time is the table's (plus the request's ``tune``), and is never
    unreached; the times the table does not print stay computed.
    """
    bound = tuple(m.id in BOUND_PRESETS for m in methods)
    if not any(bound):
        return result
    n_days = result.days.size
    days = first_day + np.arange(n_days)
    years = days.astype("datetime64[D]").astype("datetime64[Y]").astype(np.int64) + 1970
    tables = tuple(table_for(m.id, lat, lng) if b else None for m, b in zip(methods, bound))
    printed = np.zeros((len(methods), n_days), dtype=bool)
    times = dict(result.times)
    unreached = dict(result.unreached)
    for k, table in enumerate(tables):
        if table is None:
            continue
        on = (years >= table.first_year) & (years <= table.last_year)
        if not on.any():
            continue
        printed[k] = on
        for name in table.columns:
            cells = instants_s(table, days[on], name) + round(options.tune_min.get(name, 0) * 60)
            column = times[name].copy()
            column[k, on] = cells
            times[name] = column
            if name in unreached:
                mask = unreached[name].copy()
                mask[k, on] = False
                unreached[name] = mask
    unreached = {name: mask for name, mask in unreached.items() if mask.any()}
    return replace(result, times=times, unreached=unreached,
                   provenance=Provenance(bound, tables, printed, ignored_options(options)))


def served_places(preset: str) -> list[str]:
    """Return the places a preset's tables serve (for documentation and pages)."""
    return [t.place for t in tables_of(preset)]

