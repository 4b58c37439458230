"""The Hijri reckonings of the service, `moonsighting`, `iran`, `pakistan`, `india`, `lebanon`, `azerbaijan`,
`cssna-east` and `cssna-west`, vectorised.

Public functions (days are whole days since 1970-01-01, numpy int arrays or ints; every
function broadcasts its arguments and takes ``calendar``, one of `CALENDARS`):

* ``to_hijri(unix_day, calendar) -> HijriDates(year, month, day, month_length, source)``:
  Gregorian to Hijri; ``source`` is a str array, one of `SOURCES`.
* ``to_gregorian(hy, hm, hd, calendar) -> unix_day``: Hijri to Gregorian (ValueError if
  a day is past the end of its month).
* ``month_start(hy, hm, calendar)``, ``month_length(hy, hm, calendar)``,
  ``month_source(hy, hm, calendar)``: the month table itself.
* ``conjunction_day(hy, hm)``: UT1 day number (real) of the new moon the month follows.
* ``computed_start(hy, hm, calendar="iran")``: a reckoning's `computed` rule alone, month by
  month (for validation); ``candidate_starts`` every candidate rule of `pakistan`/`india`/`lebanon`/`azerbaijan`/
  `cssna-*`.
* ``month_authority(hy, hm, calendar)``: who announced or published a `table` month.

How a month start is chosen (SPEC 2.5: ``table``, then ``computed``, then ``tabular``):

* ``iran``: Iran's official lunar calendar, ``data/iran_hijri_month_starts.csv``
  (1265–1449; official Calendar Center calendars from 1423, predictions after 1448/10;
  see data/SOURCES-HIJRI.md), then ``computed``, then ``tabular``.  The table's own
  month lengths are kept, including the last month's: 1450/1 starts where the table says
  1449/12 ends, and that start is labelled ``table``; ``computed`` from 1450/2.
* ``moonsighting``: month starts announced by the office of Grand Ayatollah Sistani
  (Najaf), ``data/announced_month_starts.csv`` rows with ``authority_id = sistani``,
  then ``computed``, then ``tabular``.  Other authorities in that file are kept for
  reference only (docs/decisions.md says why).  Its ``computed`` rule (`SISTANI_RULE`) is
  calibrated on the office's own announcements (`generator.calendars.hijri_calibration`): day 1 is
  the day after the first evening, from the conjunction's date in Iraq (UTC+3), on which
  the crescent reaches Yallop zone A (q > +0.216, easily visible to the naked eye) at any
  point of a 1° grid over Iraq and Iran (25–40° N, 39–63° E; 400 points).
* ``iran``'s ``computed`` rule (`IRAN_RULE`), "crescent-visibility calculation with Tehran
  reference" read as Iran's reckoning (DESIGN.md): for the month's conjunction, evenings are tried from the
  conjunction's date in Iran (UTC+3:30) on; day 1 is the day after the first evening on
  which the crescent reaches Yallop zone C or better (q > −0.160) at any point of a 1°
  grid over Iran's bounding box (25–40° N, 44–63° E; 320 points, `generator.astronomy.crescent`
  geometry at each point's best time).  Validation against the official table is in
  docs/hijri.md and ``python -m bench.hijri``.
* ``pakistan``, ``india`` (issue 26): the day the country's Shia keep, ``data/month_starts/``
  (`generator.calendars.hijri_regions`: the Central Ruet-e-Hilal Committee, or Pakistan's Shia ulema
  where they kept another day; the Shia committee of Lucknow), then ``computed`` by the
  candidate rule that reproduces most of those rows, chosen when the table is built (so a
  new row needs no code change), then ``tabular``.
* ``lebanon`` (issue 37): the month starts the office of Sayyid Muhammad Husayn Fadlallah (Beirut)
  announces by calculation, ``data/month_starts/lebanon.csv``, then ``computed`` the same way
  (a crescent seen by eye or telescope anywhere sharing part of Lebanon's night), then ``tabular``.
* ``azerbaijan`` (issue 37): the month starts the Caucasian Muslims' Board (Baku) announces by the
  Shamakhi observatory's calculation, ``data/month_starts/azerbaijan.csv``, then ``computed`` the same
  way, the rule chosen on the months from 1443 (the Moon setting after the Sun at Baku), then ``tabular``.
* ``cssna-east``, ``cssna-west`` (issue 37): the month starts the Council of Shia Muslim Scholars of
  North America announces for the continent's east and north, and its south and west (one file,
  ``data/month_starts/cssna.csv``, rows of ``all`` or one region), then ``computed`` the same way
  (a naked-eye crescent at the region's cities), then ``tabular``.
* ``tabular``: the arithmetic calendar of `generator.calendars.hijri_tabular`, only for months
  whose conjunction lies outside the new-moon table (never inside 1317–1523).

Month lengths come from consecutive starts only.  Table starts are fixed; a computed or
tabular start next to a fixed one is moved (by a day at most in practice) so that every
month has 29 or 30 days: there is no gap or overlap at any seam between sources.

Gregorian 1900-01-01 is 1317/8 and 2100-12-31 is 1524/10: forward conversion covers the
whole Gregorian range even where the Hijri year passes SPEC's ``hy`` limit (1523).

The whole month table (1316/1 to 1524/12) is built once from the new moons and the
crescent criteria (~20 s), written to ``data/tables/hijri_months.parquet`` (keyed by a
hash of the rules and the two CSV files; when only the files changed, the computed starts
of the previous table are reused) and read once per process.
"""
from __future__ import annotations

import csv
import functools
import hashlib
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pyarrow.parquet as pq

from generator import tables
from generator.astronomy import crescent, lunar
from generator.calendars import hijri_regions, hijri_tabular
from generator.places import days

CALENDARS = ("moonsighting", "iran", *hijri_regions.CALENDARS)
DEFAULT_CALENDAR = "moonsighting"
SOURCES = ("table", "computed", "tabular")
TABLE, COMPUTED, TABULAR = range(3)

FIRST_YEAR = 1316  # internal span: one year of margin around the API's 1317..1523
LAST_YEAR = 1524
API_FIRST_YEAR, API_LAST_YEAR = 1317, 1523

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
IRAN_TABLE_PATH = DATA_DIR / "iran_hijri_month_starts.csv"
ANNOUNCED_PATH = DATA_DIR / "announced_month_starts.csv"
MOONSIGHTING_AUTHORITIES = ("sistani",)
TABLE_PATH = tables.TABLES_DIR / "hijri_months.parquet"
TABLE_VERSION = "3"  # 2: a computed rule per reckoning; 3: the South Asian reckonings (issue 26)

# Who stands behind `table` rows; the South Asian reckonings name the body of each month's row
# (`month_authority`).
TABLE_AUTHORITY = {"moonsighting": "sistani", "iran": "iran-calendar-center"}


class CrescentRule(NamedTuple):
    """A `computed` rule: day 1 follows the first evening the crescent clears ``q_above`` on a grid.

    Evenings are tried from the conjunction's civil date at ``utc_offset_days``; the crescent
    counts as seen when Yallop's q exceeds ``q_above`` at any point of the 1° grid
    ``lat_deg`` × ``lng_deg`` (degrees, east positive) at that point's best time.
    """

    lat_deg: np.ndarray
    lng_deg: np.ndarray
    q_above: float
    utc_offset_days: float

    def key(self) -> str:
        return f"{self.lat_deg.tolist()}|{self.lng_deg.tolist()}|{self.q_above}|{self.utc_offset_days}"


# The computed rules (see the module docstring and docs/decisions.md).
IRAN_UTC_OFFSET_DAYS = 3.5 / 24.0  # Iran Standard Time, the date of the conjunction in Iran
IRAN_GRID_LAT_DEG = np.arange(25.0, 40.0 + 0.5, 1.0)
IRAN_GRID_LNG_DEG = np.arange(44.0, 63.0 + 0.5, 1.0)
COMPUTED_Q_ABOVE = crescent.YALLOP_Q_ABOVE[2]  # −0.160: Yallop zone C or better (Iran accepts optical aid)
IRAN_RULE = CrescentRule(IRAN_GRID_LAT_DEG, IRAN_GRID_LNG_DEG, COMPUTED_Q_ABOVE, IRAN_UTC_OFFSET_DAYS)
# Sistani: a naked-eye sighting in Iraq or the lands sharing its horizon.  Calibrated on the
# office's own announcements (generator/calendars/hijri_calibration.py, docs/hijri.md): Yallop zone A
# ("easily visible to the naked eye") anywhere over Iraq and Iran, 25–40° N, 39–63° E.
IRAQ_UTC_OFFSET_DAYS = 3.0 / 24.0  # Arabia Standard Time, the date of the conjunction in Najaf
SISTANI_GRID_LAT_DEG = np.arange(25.0, 40.0 + 0.5, 1.0)
SISTANI_GRID_LNG_DEG = np.arange(39.0, 63.0 + 0.5, 1.0)
SISTANI_Q_ABOVE = crescent.YALLOP_Q_ABOVE[0]  # +0.216: Yallop zone A
SISTANI_RULE = CrescentRule(SISTANI_GRID_LAT_DEG, SISTANI_GRID_LNG_DEG, SISTANI_Q_ABOVE, IRAQ_UTC_OFFSET_DAYS)
COMPUTED_RULES = {"moonsighting": SISTANI_RULE, "iran": IRAN_RULE}
EVENINGS_TRIED = 4  # from the conjunction's date; under both rules the crescent is seen by the 3rd (measured)
_LUNATIONS_PER_CHUNK = 150  # 150 × 400 points per numpy evaluation

MIN_MONTH_DAYS, MAX_MONTH_DAYS = 29, 30
NO_DAY = np.iinfo(np.int32).min  # "no computed start" (day numbers before 1970 are negative)
_N_MONTHS = (LAST_YEAR - FIRST_YEAR + 1) * 12


class HijriDates(NamedTuple):
    """Hijri dates as parallel arrays."""

    year: np.ndarray
    month: np.ndarray
    day: np.ndarray
    month_length: np.ndarray
    source: np.ndarray  # str, one of SOURCES


class _Reckoning(NamedTuple):
    start: np.ndarray  # (_N_MONTHS + 1,) unix day of day 1; the last entry ends the last month
    source: np.ndarray  # (_N_MONTHS,) int8 codes into SOURCES


# --- the public, vectorised conversions ---------------------------------------------------


def to_hijri(unix_day, calendar: str = DEFAULT_CALENDAR) -> HijriDates:
    """Return the Hijri dates of days since 1970-01-01 under ``calendar``.

    ValueError if a day lies outside the month table (1316/1 .. 1524/12).
    """
    table = _reckoning(calendar)
    day = np.asarray(unix_day, dtype=np.int64)
    k = np.searchsorted(table.start, day, side="right") - 1
    if np.any((k < 0) | (k >= _N_MONTHS)):
        raise ValueError("date outside the Hijri month table (AH 1316..1524)")
    year, month = _year_month(k)
    return HijriDates(
        year=year,
        month=month,
        day=day - table.start[k] + 1,
        month_length=table.start[k + 1] - table.start[k],
        source=np.asarray(SOURCES)[table.source[k]],
    )


def month_start(hy, hm, calendar: str = DEFAULT_CALENDAR) -> np.ndarray:
    """Return the day number (since 1970-01-01) of day 1 of Hijri month ``hy``/``hm``."""
    return _reckoning(calendar).start[_index(hy, hm)]


def month_length(hy, hm, calendar: str = DEFAULT_CALENDAR) -> np.ndarray:
    """Return the length in days (29 or 30) of Hijri month ``hy``/``hm``."""
    k = _index(hy, hm)
    start = _reckoning(calendar).start
    return start[k + 1] - start[k]


def month_source(hy, hm, calendar: str = DEFAULT_CALENDAR) -> np.ndarray:
    """Return the source (one of `SOURCES`, str array) of Hijri month ``hy``/``hm``."""
    return np.asarray(SOURCES)[_reckoning(calendar).source[_index(hy, hm)]]


def to_gregorian(hy, hm, hd, calendar: str = DEFAULT_CALENDAR) -> np.ndarray:
    """Return the day number (since 1970-01-01) of Hijri date ``hy``/``hm``/``hd``.

    ValueError if a day is not within its month (1..month length).
    """
    hd = np.asarray(hd, dtype=np.int64)
    if np.any((hd < 1) | (hd > month_length(hy, hm, calendar))):
        raise ValueError("Hijri day outside its month")
    return month_start(hy, hm, calendar) + hd - 1


def conjunction_day(hy, hm) -> np.ndarray:
    """Return the UT1 day number (real, since 1970-01-01) of the new moon of month ``hy``/``hm``.

    The lunation is the same under both reckonings (the new moon nearest to 1.5 days
    before the tabular month start; checked against every official Iran month).
    """
    return _months()["conjunction_day"][_index(hy, hm)]


def computed_start(hy, hm, calendar: str = "iran") -> np.ndarray:
    """Return ``calendar``'s `computed` rule's month start for ``hy``/``hm``, month by month (no seams).

    The default is the `iran` rule (the one validated against Iran's official table).  For
    `pakistan` and `india` it is the candidate rule chosen on their announced months
    (`chosen_candidate`).
    """
    if calendar not in CALENDARS:
        raise ValueError(f"unknown calendar {calendar!r}; one of {', '.join(CALENDARS)}")
    return _months()[f"{calendar}_computed_start"][_index(hy, hm)]


def candidate_starts(hy, hm, calendar: str) -> np.ndarray:
    """Return (candidates, months) every candidate rule's month start of a South Asian reckoning."""
    months, k = _months(), _index(hy, hm)
    count = len(hijri_regions.candidates(calendar))
    return np.array([months[f"{calendar}_candidate_{i:02d}"][k] for i in range(count)], dtype=np.int64)


def chosen_candidate(calendar: str) -> int:
    """Return the index (into `hijri_regions.candidates`) of the rule a South Asian reckoning computes with."""
    return _chosen(calendar, {k: row.start for k, row in hijri_regions.announced(calendar).items()}, candidate_starts)


def month_authority(hy: int, hm: int, calendar: str) -> str | None:
    """Return who announced or published a `table` month (None for `computed` and `tabular` months)."""
    if str(month_source(hy, hm, calendar)) != "table":
        return None
    if calendar in TABLE_AUTHORITY:
        return TABLE_AUTHORITY[calendar]
    return str(_months()[f"{calendar}_authority"][_index(hy, hm)])


# --- how long an answer that states a forecast may be reused (issue 35) ---------------------
# A month whose start no announcement has fixed yet (`computed`) is a forecast: an authority may
# announce another day on the evening of the 29th of the month before, and the operator records it
# (announce.py) any time after.  An answer stating such a month is reused at most until that
# evening's earliest announcement, and never for more than a few hours; an announced answer keeps
# the week of a dated answer.
FORECAST_MAX_AGE_S = 6 * 3600  # the operator may record a late announcement at any hour
ANNOUNCEMENT_FROM_UTC_S = 12 * 3600  # 12:00 UTC: before the sunset of the 29th anywhere from Iraq to India
FORECAST_MIN_AGE_S = 60
SIGHTING_DAY = 29  # the Hijri day on whose evening the next month's crescent is looked for


def forecast_within(first_day: int, last_day: int, calendar: str = DEFAULT_CALENDAR) -> bool:
    """True when any Hijri month a Gregorian day ``first_day``..``last_day`` (unix days) falls in is computed:
    an answer about those days states a forecast.  Days outside the month table state none."""
    bounds = np.array([first_day, last_day], dtype=np.int64)
    table = _reckoning(calendar)
    k = np.searchsorted(table.start, bounds, side="right") - 1
    k = np.clip(k, 0, _N_MONTHS - 1)
    return bool((table.source[k[0] : k[1] + 1] == SOURCES.index("computed")).any())


def forecast_max_age_s(now_unix_s: float, calendar: str = DEFAULT_CALENDAR) -> int:
    """Seconds an answer stating a forecast under ``calendar`` may be reused from ``now_unix_s``: until 12:00 UTC
    of the next 29th day of a Hijri month (today's if not yet past), at most `FORECAST_MAX_AGE_S`, at least
    `FORECAST_MIN_AGE_S`."""
    today = int(now_unix_s // 86400)
    h = to_hijri(today, calendar)
    day, length = int(h.day), int(h.month_length)
    sighting_day = today + SIGHTING_DAY - day
    if now_unix_s >= sighting_day * 86400 + ANNOUNCEMENT_FROM_UTC_S:  # this month's evening has come
        sighting_day += length  # the next month's 29th (within a day; the cap decides anyway)
    until_s = sighting_day * 86400 + ANNOUNCEMENT_FROM_UTC_S - now_unix_s
    return int(min(max(until_s, FORECAST_MIN_AGE_S), FORECAST_MAX_AGE_S))


def month_count() -> int:
    return _N_MONTHS


# --- indexing -----------------------------------------------------------------------------


def _index(hy, hm) -> np.ndarray:
    hy = np.asarray(hy, dtype=np.int64)
    hm = np.asarray(hm, dtype=np.int64)
    if np.any((hy < FIRST_YEAR) | (hy > LAST_YEAR) | (hm < 1) | (hm > 12)):
        raise ValueError(f"Hijri month outside {FIRST_YEAR}/1..{LAST_YEAR}/12")
    return (hy - FIRST_YEAR) * 12 + hm - 1


def _year_month(k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    year, month0 = np.divmod(np.asarray(k, dtype=np.int64), 12)
    return year + FIRST_YEAR, month0 + 1


def _all_months() -> tuple[np.ndarray, np.ndarray]:
    """Return (hy, hm) of every month of the table, plus the month after the last."""
    return _year_month(np.arange(_N_MONTHS + 1))


# --- the data files -----------------------------------------------------------------------


def read_iran_table(path: Path | None = None) -> dict[tuple[int, int], tuple[int, int]]:
    """Return {(hy, hm): (start day, month length)} of Iran's official table."""
    with (path or IRAN_TABLE_PATH).open(encoding="utf-8", newline="") as handle:
        return {
            (int(r["hy"]), int(r["hm"])): (days.unix_day(r["gregorian_start"]), int(r["month_length"]))
            for r in csv.DictReader(handle)
        }


def read_announced(authorities=MOONSIGHTING_AUTHORITIES, path: Path | None = None) -> dict[tuple[int, int], int]:
    """Return {(hy, hm): start day} of the announced month starts of ``authorities``."""
    found: dict[tuple[int, int], int] = {}
    with (path or ANNOUNCED_PATH).open(encoding="utf-8", newline="") as handle:
        for r in csv.DictReader(handle):
            if r["authority_id"] not in authorities:
                continue
            key, day = (int(r["hy"]), int(r["hm"])), days.unix_day(r["gregorian_start"])
            if found.setdefault(key, day) != day:
                raise ValueError(f"announced_month_starts.csv: two different starts for {key}")
    return found


def data_paths() -> tuple[Path, ...]:
    """Return the data files the month table is built from (a change to any rebuilds it)."""
    return (IRAN_TABLE_PATH, ANNOUNCED_PATH, *(hijri_regions.path_of(c) for c in hijri_regions.CALENDARS))


def _rules_hash() -> str:
    """Return a key of what the computed starts depend on: versions and the rules (not the data files)."""
    rules = "|".join(rule.key() for rule in COMPUTED_RULES.values())
    key = f"{TABLE_VERSION}|{lunar.TABLE_VERSION}|{rules}|{EVENINGS_TRIED}|{hijri_regions.rules_key()}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _data_hash() -> str:
    """Return a key of everything the month table depends on: versions, the rules, the data files."""
    digest = hashlib.sha256(f"{_rules_hash()}|{MOONSIGHTING_AUTHORITIES}".encode())
    for path in data_paths():
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# --- the computed rule --------------------------------------------------------------------


def lunation_conjunctions() -> np.ndarray:
    """Return the UT1 day of the new moon of every month of the table (NaN if outside it)."""
    hy, hm = _all_months()
    tabular = hijri_tabular.month_start(hy, hm).astype(float)
    moons = lunar.load()
    i = moons.nearest(tabular - 1.5)
    conj = moons.ut1_day[i]
    inside = (i > 0) & (i < len(moons.ut1_day) - 1)
    if np.any(np.diff(moons.lunation[i][inside]) != 1):
        raise RuntimeError("Hijri months do not map one-to-one onto lunations")
    return np.where(inside, conj, np.nan)


def visible(evening_day: np.ndarray, conjunction: np.ndarray, rule: CrescentRule = IRAN_RULE) -> np.ndarray:
    """Return, per evening, whether Yallop q > ``rule.q_above`` at any point of ``rule``'s grid (bool)."""
    lat, lng = np.meshgrid(rule.lat_deg, rule.lng_deg, indexing="ij")
    evening = crescent.evening(
        lat.ravel()[None, :], lng.ravel()[None, :], np.asarray(evening_day)[:, None], np.asarray(conjunction)[:, None]
    )
    seen = (evening.status == crescent.OK) & (evening.q > rule.q_above)
    return seen.any(axis=1)


def computed_starts(conjunction: np.ndarray, rule: CrescentRule = IRAN_RULE) -> np.ndarray:
    """Return ``rule``'s month start (unix day) after each conjunction (`NO_DAY` where NaN).

    Evenings are tried from the conjunction's date at the rule's UTC offset; the month
    starts the day after the first evening the crescent is seen over the rule's grid
    (staged: later evenings are evaluated only for lunations still unseen).
    """
    conjunction = np.asarray(conjunction, dtype=float)
    known = np.isfinite(conjunction)
    first_evening = np.floor(np.where(known, conjunction, 0.0) + rule.utc_offset_days).astype(np.int64)
    start = np.where(known, first_evening + EVENINGS_TRIED, NO_DAY)
    pending = known.copy()
    for offset in range(EVENINGS_TRIED):
        todo = np.flatnonzero(pending)
        for chunk in np.array_split(todo, max(1, -(-len(todo) // _LUNATIONS_PER_CHUNK))):
            if not len(chunk):
                continue
            seen = chunk[visible(first_evening[chunk] + offset, conjunction[chunk], rule)]
            start[seen] = first_evening[seen] + offset + 1
            pending[seen] = False
    return start


# --- assembling the reckonings ------------------------------------------------------------


def _assemble(fixed: dict[tuple[int, int], int], computed: np.ndarray, tabular: np.ndarray) -> _Reckoning:
    """Return month starts from fixed (table) starts, then computed, then tabular, made consistent."""
    hy, hm = _all_months()
    has_computed = computed != NO_DAY
    start = np.where(has_computed, computed, tabular).astype(np.int64)
    source = np.where(has_computed, COMPUTED, TABULAR).astype(np.int8)
    is_fixed = np.zeros(len(start), dtype=bool)
    for (y, m), day in fixed.items():
        if FIRST_YEAR <= y <= LAST_YEAR + 1 and (y <= LAST_YEAR or m == 1):
            k = (y - FIRST_YEAR) * 12 + m - 1
            if k <= _N_MONTHS:
                start[k], is_fixed[k] = day, True
                if k < _N_MONTHS:
                    source[k] = TABLE
    _make_consistent(start, is_fixed)
    return _Reckoning(start=start, source=source[:_N_MONTHS])


def _make_consistent(start: np.ndarray, is_fixed: np.ndarray) -> None:
    """Move non-fixed starts (in place) so that every month has 29 or 30 days.

    A forward pass clamps each free start to its predecessor, a backward pass to its
    successor (a fixed start is never moved).  Runs once per build over ~2,500 months.
    """
    n = len(start)
    for k in range(1, n):
        if not is_fixed[k]:
            start[k] = min(max(start[k], start[k - 1] + MIN_MONTH_DAYS), start[k - 1] + MAX_MONTH_DAYS)
    for k in range(n - 2, -1, -1):
        if not is_fixed[k]:
            start[k] = min(max(start[k], start[k + 1] - MAX_MONTH_DAYS), start[k + 1] - MIN_MONTH_DAYS)
    lengths = np.diff(start)
    bad = np.flatnonzero((lengths < MIN_MONTH_DAYS) | (lengths > MAX_MONTH_DAYS))
    if len(bad):
        y, m = _year_month(bad[0])
        raise ValueError(f"month {y}/{m} would have {lengths[bad[0]]} days: the fixed starts are inconsistent")


def _iran_fixed() -> dict[tuple[int, int], int]:
    """Return the fixed starts of `iran`: every table start, plus the end of the last table month."""
    table = read_iran_table()
    fixed = {key: day for key, (day, _) in table.items()}
    (y, m), (day, length) = max(table.items())
    fixed[(y + m // 12, m % 12 + 1)] = day + length
    return fixed


def _chosen(calendar: str, fixed: dict[tuple[int, int], int], starts_of) -> int:
    """Return the candidate reproducing most announced starts ``fixed`` (first, the strictest, on ties).

    ``starts_of(hy, hm, calendar)`` gives the candidates' starts of those months, (candidates, months).
    """
    first = max(FIRST_YEAR, hijri_regions.REGIONS[calendar].fit_from_year)
    keys = [k for k in fixed if first <= k[0] <= LAST_YEAR]
    if not keys:
        return 0
    hy, hm = np.array(keys).T
    hits = starts_of(hy, hm, calendar) == np.array([fixed[k] for k in keys])[None, :]
    return hijri_regions.choose(hits)


def starts_with(calendar: str, fixed: dict[tuple[int, int], int]) -> np.ndarray:
    """Return ``calendar``'s month starts if ``fixed`` were its announced starts (same rules and seams as the build).

    For `announce.py`: a `pakistan` or `india` row may change the rule chosen on the rows.
    """
    months = _months()
    if calendar in hijri_regions.CALENDARS:
        index = _chosen(calendar, fixed, candidate_starts)
        computed = months[f"{calendar}_candidate_{index:02d}"].astype(np.int64)
    else:
        computed = months[f"{calendar}_computed_start"].astype(np.int64)
    return _assemble(fixed, computed, months["tabular_start"].astype(np.int64)).start


def build(path: Path | None = None) -> Path:
    """Compute the month table of every reckoning and write it atomically to ``path`` (`TABLE_PATH`)."""
    hy, hm = _all_months()
    conjunction, evaluated = _reusable_computed(path or TABLE_PATH)
    if evaluated is None:  # the rules changed (or no table yet): evaluate every lunation (~20 s)
        conjunction = lunation_conjunctions()
        evaluated = {f"{calendar}_computed_start": computed_starts(conjunction, rule)
                     for calendar, rule in COMPUTED_RULES.items()}
        for calendar in hijri_regions.CALENDARS:
            for i, starts in enumerate(hijri_regions.candidate_starts(calendar, conjunction, EVENINGS_TRIED)):
                evaluated[f"{calendar}_candidate_{i:02d}"] = starts
    tabular = hijri_tabular.month_start(hy, hm).astype(np.int64)
    iran = _assemble(_iran_fixed(), evaluated["iran_computed_start"], tabular)
    moonsighting = _assemble(read_announced(), evaluated["moonsighting_computed_start"], tabular)
    no_source = np.full(1, -1, dtype=np.int8)  # the row after the last month has no source
    columns = {
        "hy": hy.astype(np.int16),
        "hm": hm.astype(np.int8),
        "conjunction_day": conjunction,
        "iran_computed_start": evaluated["iran_computed_start"].astype(np.int32),
        "moonsighting_computed_start": evaluated["moonsighting_computed_start"].astype(np.int32),
        "tabular_start": tabular.astype(np.int32),
        "iran_start": iran.start.astype(np.int32),
        "iran_source": np.concatenate([iran.source, no_source]),
        "moonsighting_start": moonsighting.start.astype(np.int32),
        "moonsighting_source": np.concatenate([moonsighting.source, no_source]),
    }
    for calendar in hijri_regions.CALENDARS:
        count = len(hijri_regions.candidates(calendar))
        candidates = [evaluated[f"{calendar}_candidate_{i:02d}"] for i in range(count)]
        rows = hijri_regions.announced(calendar)
        fixed = {key: row.start for key, row in rows.items()}

        def starts_of(y, m, _calendar, candidates=candidates):  # the table being built, not the one on disk
            k = _index(y, m)
            return np.array([c[k] for c in candidates])

        computed = candidates[_chosen(calendar, fixed, starts_of)]
        reckoning = _assemble(fixed, computed, tabular)
        authority = np.full(_N_MONTHS + 1, "", dtype=object)
        for (y, m), row in rows.items():
            if FIRST_YEAR <= y <= LAST_YEAR:
                authority[_index(y, m)] = row.decided_by
        columns.update({
            f"{calendar}_computed_start": computed.astype(np.int32),
            **{f"{calendar}_candidate_{i:02d}": c.astype(np.int32) for i, c in enumerate(candidates)},
            f"{calendar}_start": reckoning.start.astype(np.int32),
            f"{calendar}_source": np.concatenate([reckoning.source, no_source]),
            f"{calendar}_authority": authority.astype(str),
        })
    return tables.write_parquet(path or TABLE_PATH, columns, _stamp())


def _reusable_computed(path: Path) -> tuple[np.ndarray | None, dict[str, np.ndarray] | None]:
    """Return the conjunctions and rule evaluations of the table at ``path`` if built with the same rules.

    Only the data files changed (e.g. a new announcement): the crescent evaluations stand.
    """
    try:
        table = pq.read_table(path)
    except (OSError, ValueError):
        return None, None
    if (table.schema.metadata or {}).get(b"rules") != _rules_hash().encode():
        return None, None
    names = [f"{calendar}_computed_start" for calendar in COMPUTED_RULES]
    names += [f"{calendar}_candidate_{i:02d}" for calendar in hijri_regions.CALENDARS
              for i in range(len(hijri_regions.candidates(calendar)))]
    evaluated = {name: table.column(name).to_numpy().astype(np.int64) for name in names}
    return table.column("conjunction_day").to_numpy(), evaluated


def _stamp() -> dict[str, str]:
    return {"version": TABLE_VERSION, "rules": _rules_hash(), "data": _data_hash()}


def reload() -> None:
    """Forget the month table read by this process (after a data file changed; rebuilt on next use)."""
    _months.cache_clear()
    _reckoning.cache_clear()


@functools.cache
def _months() -> dict[str, np.ndarray]:
    """Return the month table's columns, building the table first if missing or stale."""
    table = tables.read_parquet(TABLE_PATH, _stamp(), build)
    return {name: table.column(name).to_numpy() for name in table.column_names}


@functools.cache
def _reckoning(calendar: str) -> _Reckoning:
    if calendar not in CALENDARS:
        raise ValueError(f"unknown calendar {calendar!r}; one of {', '.join(CALENDARS)}")
    months = _months()
    return _Reckoning(
        start=months[f"{calendar}_start"].astype(np.int64),
        source=months[f"{calendar}_source"][:_N_MONTHS].astype(np.int8),
    )
