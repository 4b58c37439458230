"""IANA time zones: validation, UTC offsets for arrays of instants, local clock strings.

Offsets come from ``zoneinfo`` with the pinned ``tzdata`` package only: the host's
/usr/share/zoneinfo is taken off zoneinfo's search path at import, so neither its version
nor its extra keys (``localtime``, ``posix/…``, ``right/…``) decide an answer.  To stay
vectorised, the zone's transitions inside a year are located once (weekly samples,
then bisection to the second) and cached; converting any number of instants is then
one ``searchsorted``.  A zone that changed its offset twice within one week would be
seen as not changing; tzdata has no such pair in 1900..2100 for the zones we checked.
"""
from __future__ import annotations

import atexit
import functools
import importlib.resources
import zoneinfo
from datetime import datetime, timezone

import numpy as np

zoneinfo.reset_tzpath(to=[])  # the pinned tzdata package is the only source of zone rules

_SAMPLE_STEP_S = 7 * 86400
_NOT_PLACES = frozenset({"Factory"})  # tzdata's placeholder zone ("-00"), not a place's clock
_YEAR_MIN = 1899
_YEAR_MAX = 2101


@functools.cache
def available() -> frozenset[str]:
    """Return every zone key of the pinned tzdata package (its ``zones`` list), less ``Factory``."""
    listed = importlib.resources.files("tzdata").joinpath("zones").read_text(encoding="utf-8").split()
    return frozenset(listed) - _NOT_PLACES


@functools.cache
def _by_folded_key() -> dict[str, str]:
    """Map a case-folded key to its canonical spelling, for keys no other key folds to."""
    folded: dict[str, list[str]] = {}
    for key in available():
        folded.setdefault(key.casefold(), []).append(key)
    return {fold: keys[0] for fold, keys in folded.items() if len(keys) == 1}


@functools.cache
def _finder():
    """The one TimezoneFinder of the process, made on first use (loading its polygons takes ~0.3 s)."""
    from timezonefinder import TimezoneFinder  # offline: its boundary data ships in timezonefinder-data

    finder = TimezoneFinder()
    atexit.register(finder.cleanup)  # release its mapped polygon files before exit (else a ResourceWarning)
    return finder


def zone_at(lat_deg: float, lng_deg: float) -> str | None:
    """Return the IANA zone at a point (timezone-boundary-builder polygons via timezonefinder), or None.

    Open sea gets its nautical zone (``Etc/GMT±N``); None only where the data has no zone
    at all, or a zone the pinned tzdata does not know.
    """
    name = _finder().timezone_at(lng=float(lng_deg), lat=float(lat_deg))
    return name if name is not None and is_valid(name) else None


def is_valid(name: str) -> bool:
    """True for a known IANA key (this is also what keeps keys out of file paths)."""
    return name in available()


def canonical_zone(name: str) -> str | None:
    """Return the canonical spelling of zone ``name`` (``utc`` → ``UTC``, ``asia/tehran`` →
    ``Asia/Tehran``), matching case-insensitively where only one key fits; None if unknown."""
    if name in available():
        return name
    return _by_folded_key().get(name.casefold())


@functools.lru_cache(maxsize=1024)
def zone(name: str) -> zoneinfo.ZoneInfo:
    """Return the zone of a key `is_valid` accepted (anything else is a programming error)."""
    if not is_valid(name):
        raise ValueError(f"not a zone of the pinned tzdata: {name!r}")
    return zoneinfo.ZoneInfo(name)


def _offset_s(zone: zoneinfo.ZoneInfo, unix_s: int) -> int:
    return int(datetime.fromtimestamp(unix_s, timezone.utc).astimezone(zone).utcoffset().total_seconds())


@functools.lru_cache(maxsize=4096)
def _transitions_in_year(name: str, year: int) -> tuple[tuple[int, int], ...]:
    """Return ((unix_s of the change, offset_s after it), ...) within ``year`` (UTC)."""
    tz = zone(name)
    start = int(datetime(year, 1, 1, tzinfo=timezone.utc).timestamp())
    end = int(datetime(year + 1, 1, 1, tzinfo=timezone.utc).timestamp())
    samples = list(range(start, end, _SAMPLE_STEP_S)) + [end]
    offsets = [_offset_s(tz, t) for t in samples]
    found = []
    for (t0, o0), (t1, o1) in zip(zip(samples, offsets), zip(samples[1:], offsets[1:])):
        if o0 == o1:
            continue
        lo, hi = t0, t1  # offset(lo) == o0, offset(hi) != o0
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if _offset_s(tz, mid) == o0:
                lo = mid
            else:
                hi = mid
        found.append((hi, o1))
    return tuple(found)


def _span_s(unix_s: np.ndarray) -> tuple[int, int]:
    """The first and last of some instants (ufunc reductions: ndarray.min/max's wrappers cost more)."""
    return int(np.minimum.reduce(unix_s, axis=None)), int(np.maximum.reduce(unix_s, axis=None))


def utc_offsets_s(name: str, unix_s: np.ndarray) -> np.ndarray:
    """Return the zone's UTC offset in seconds at each instant (same shape)."""
    unix_s = np.asarray(unix_s, dtype=np.int64)
    if unix_s.size == 0:
        return unix_s.copy()
    lo, hi = _span_s(unix_s)
    first_year = max(_YEAR_MIN, datetime.fromtimestamp(lo, timezone.utc).year)
    last_year = min(_YEAR_MAX, datetime.fromtimestamp(hi, timezone.utc).year)
    times, offsets = _offset_steps(name, first_year, last_year)
    if len(times) == 1:  # no change of offset in these years (Iran, Iraq, the Gulf, Pakistan, India…)
        return np.full(unix_s.shape, offsets[0])
    index = np.searchsorted(times, unix_s, side="right") - 1
    return offsets[np.maximum(index, 0, out=index)]


@functools.lru_cache(maxsize=1024)
def _offset_steps(name: str, first_year: int, last_year: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (Unix seconds from which, offset in seconds) of the zone over the years: the
    offset at the first year's start, then every transition."""
    start = int(datetime(first_year, 1, 1, tzinfo=timezone.utc).timestamp())
    changes = [c for year in range(first_year, last_year + 1) for c in _transitions_in_year(name, year)]
    times = np.array([start] + [t for t, _ in changes], dtype=np.int64)
    offsets = np.array([_offset_s(zone(name), start)] + [o for _, o in changes], dtype=np.int64)
    times.flags.writeable = offsets.flags.writeable = False  # shared by every caller
    return times, offsets


def summer_time(name: str, unix_s: np.ndarray) -> np.ndarray:
    """Return True at each instant where the zone's clock is ahead of the lowest offset it shows in that
    (UTC) calendar year: daylight-saving ("summer") time, issue 28's seasonal jamaat rules.

    Not zoneinfo's ``dst()``: tzdata gives Ireland's *winter* a negative ``dst()`` (Irish Standard
    Time is the summer clock), and Morocco's Ramadan months one; the clock's own offsets say which
    part of the year a congregation calls summer time wherever it changes twice a year.
    """
    unix_s = np.asarray(unix_s, dtype=np.int64)
    if unix_s.size == 0:
        return np.zeros(unix_s.shape, dtype=bool)
    years = unix_s.astype("datetime64[s]").astype("datetime64[Y]").astype(np.int64) + 1970
    first = int(np.minimum.reduce(years, axis=None))
    lowest = np.array([_lowest_offset_s(name, y) for y in range(first, int(np.maximum.reduce(years, axis=None)) + 1)])
    return utc_offsets_s(name, unix_s) > lowest[years - first]


@functools.lru_cache(maxsize=1024)
def _lowest_offset_s(name: str, year: int) -> int:
    """The lowest UTC offset the zone's clock shows in ``year`` (clamped to the years zones are read for)."""
    year = min(max(year, _YEAR_MIN), _YEAR_MAX)
    return int(np.minimum.reduce(_offset_steps(name, year, year)[1]))


_HHMM = np.array([f"{m // 60:02d}:{m % 60:02d}" for m in range(1440)], dtype=object)


def local_hhmm(name: str, unix_s: np.ndarray) -> np.ndarray:
    """Return local wall-clock ``HH:mm`` strings (object array, same shape)."""
    unix_s = np.asarray(unix_s, dtype=np.int64)
    local_minutes = (unix_s + utc_offsets_s(name, unix_s)) // 60
    return _HHMM[local_minutes % 1440]




# --- local wall-clock times to instants (issue 20: jamaat at a fixed local time) ---------------
# A wall time is written as "wall seconds": the local date and clock as if they were UTC, i.e. the
# instant plus the zone's offset at it.  The mapping back is not one-to-one around a change of
# offset; RFC 5545 3.3.5's rule is used, the one calendar clients apply to a local DATE-TIME:
# a wall time that never occurs (the hour skipped when clocks go forward) is read with the offset
# before the gap (01:30 on the London spring-forward day is 01:30 GMT = 02:30 BST), and a wall time
# that occurs twice (clocks go back) means its first occurrence, again the offset before the change.
# That is zoneinfo's ``fold=0`` in both cases.


def _steps_around(name: str, unix_s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return `_offset_steps` covering the years of ``unix_s`` and a year each side."""
    lo, hi = _span_s(unix_s)
    first_year = max(_YEAR_MIN, datetime.fromtimestamp(lo, timezone.utc).year - 1)
    last_year = min(_YEAR_MAX, datetime.fromtimestamp(hi, timezone.utc).year + 1)
    return _offset_steps(name, first_year, last_year)


def wall_to_utc_s(name: str, wall_s: np.ndarray) -> np.ndarray:
    """Return the instants (Unix seconds) at which zone ``name``'s clock reads ``wall_s``.

    ``wall_s``: local date and time as seconds since 1970-01-01 00:00 *local*.  Gaps and
    repeated hours follow RFC 5545 3.3.5 (the offset before the change; see above).  A change
    k from offset ``o_before`` to ``o_after`` at instant ``t_k`` switches wall times to
    ``o_after`` from the wall time ``t_k + max(o_before, o_after)`` on.
    """
    wall_s = np.asarray(wall_s, dtype=np.int64)
    if wall_s.size == 0:
        return wall_s.copy()
    times, offsets = _steps_around(name, wall_s)
    if len(times) == 1:
        return wall_s - offsets[0]
    switch = times[1:] + np.maximum(offsets[:-1], offsets[1:])  # wall time from which change k applies
    index = np.searchsorted(switch, wall_s, side="right")  # number of changes already applied
    return wall_s - offsets[index]


def noon_offsets_s(name: str, unix_days: np.ndarray) -> np.ndarray:
    """Return the zone's UTC offset in seconds at 12:00 local time of each local date (unix days).

    Noon is never inside a change of offset in tzdata; were it, `wall_to_utc_s`'s rule would apply.
    """
    wall_noon_s = np.asarray(unix_days, dtype=np.int64) * 86400 + 43200
    return wall_noon_s - wall_to_utc_s(name, wall_noon_s)


def next_change_s(name: str, unix_s: np.ndarray) -> np.ndarray:
    """Return the instant of the zone's first change of offset after each of ``unix_s`` (int64 max if none
    within the following year)."""
    unix_s = np.asarray(unix_s, dtype=np.int64)
    if unix_s.size == 0:
        return unix_s.copy()
    times, _ = _steps_around(name, unix_s)
    changes = np.append(times[1:], np.iinfo(np.int64).max)
    return changes[np.searchsorted(times[1:], unix_s, side="right")]


def clock_change(name: str, unix_day: int) -> tuple[int, int, int] | None:
    """Return how the zone's clock changed in the night before the local date ``unix_day``, as (the change's instant
    in Unix seconds, the offset before it in seconds, the change in minutes: < 0 when the clock went back), or None.

    A change belongs to the day whose night held it: the offsets at the local noons of the day before and of the
    day are compared (every zone changes at night; one that changes at local midnight, as Lebanon, changes between
    one day's end and the next day's start, which "start versus end of the day" would miss).  Gallery review 4 of
    issue 33 (ar AR4-03, fa LANG4-01, ur UR4-05): docs/decisions.md "The clock change named on its day"."""
    old_s, new_s = (int(x) for x in noon_offsets_s(name, np.array([unix_day - 1, unix_day])))
    if old_s == new_s:
        return None
    noon_before_s = (unix_day - 1) * 86400 + 43200 - old_s  # the day before's local noon, as a UTC instant
    return int(next_change_s(name, np.array([noon_before_s]))[0]), old_s, (new_s - old_s) // 60


def reading_before(change: tuple[int, int, int]) -> str:
    """Return the old clock's HH:MM at a `clock_change` (02:00 for London in October, 01:00 in March), as a notice
    of the change says it: the pages, the screen's config and /v1/day-status' ``clockChange.before``."""
    change_s, old_s, _ = change
    wall_min = (change_s + old_s) // 60 % 1440
    return f"{wall_min // 60:02d}:{wall_min % 60:02d}"

