"""Day entries of /v1/prayer-times written straight to JSON bytes, vectorised.

Every field of a day entry has a fixed width (a date, ``YYYY-MM-DDTHH:MM:00Z``
instants, ``HH:MM`` clock times), so a row is one fixed byte template whose digit
positions are filled for all rows at once with integer arithmetic: a year of days, or
31 days × 16 methods, is a few dozen numpy operations instead of thousands of Python
objects.  The bytes equal ``orjson.dumps`` of the same rows built as dicts, which
tests/test_day_rows.py checks.
"""
from __future__ import annotations

import functools

import numpy as np
import orjson

_DATE_DIGITS = (0, 1, 2, 3, 5, 6, 8, 9)  # YYYY MM DD in "0000-00-00"
_CLOCK_DIGITS = (0, 1, 3, 4)  # hh mm in "00:00"
_ISO_DIGITS = _DATE_DIGITS + tuple(11 + k for k in _CLOCK_DIGITS)  # in "0000-00-00T00:00:00Z"


@functools.lru_cache(maxsize=16)
def _layout(names: tuple[str, ...], with_local: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (row template as uint8, date digit columns, instant digit columns, clock digit columns)."""
    template = ""
    date_cols: list[int] = []
    iso_cols: list[int] = []
    clock_cols: list[int] = []

    def field(prefix: str, skeleton: str, positions: tuple[int, ...], columns: list[int]) -> None:
        nonlocal template
        template += prefix
        columns.extend(len(template) + k for k in positions)
        template += skeleton + '"'

    field('{"date":"', "0000-00-00", _DATE_DIGITS, date_cols)
    for name in names:
        field(f',"{name}":"', "0000-00-00T00:00:00Z", _ISO_DIGITS, iso_cols)
    if with_local:
        for i, name in enumerate(names):
            field(("," if i else ',"local":{') + f'"{name}":"', "00:00", _CLOCK_DIGITS, clock_cols)
        template += "}"
    template += "}"
    return (np.frombuffer(template.encode(), dtype=np.uint8), np.array(date_cols), np.array(iso_cols),
            np.array(clock_cols, dtype=np.int64))


def civil_from_days(unix_days: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (year, month, day) of proleptic Gregorian dates, days since 1970-01-01.

    Integer-only (H. Hinnant, "chrono-compatible low-level date algorithms"): much
    faster than numpy's datetime64 unit conversions on small arrays.
    """
    z = np.asarray(unix_days, dtype=np.int64) + 719468
    era = z // 146097
    day_of_era = z - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    mp = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * mp + 2) // 5 + 1
    month = np.where(mp < 10, mp + 3, mp - 9)
    return year_of_era + era * 400 + (month <= 2), month, day


# "00".."99" as little-endian uint16: one lookup gives two ASCII digits (integer division is slow in numpy).
_PAIRS = np.array([(ord("0") + n // 10) | (ord("0") + n % 10) << 8 for n in range(100)], dtype="<u2")


def _ascii_pairs(fields: np.ndarray) -> np.ndarray:
    """Return two ASCII digits per field 0..99 (shape (..., k) -> (..., 2k) uint8)."""
    pairs = _PAIRS[fields]
    return pairs.view(np.uint8).reshape(*pairs.shape[:-1], 2 * pairs.shape[-1])


def _date_digits(unix_days: np.ndarray) -> np.ndarray:
    """Return the ASCII digits YYYYMMDD of each day (shape + (8,))."""
    year, month, day = civil_from_days(unix_days)
    return _ascii_pairs(np.stack([year // 100, year % 100, month, day], axis=-1))


_TABLE_FIRST_DAY = -25567  # 1900-01-01 − a day of margin is covered by the span below
_TABLE_DAYS = 73800  # through 2102


@functools.cache
def _date_table() -> np.ndarray:
    """ASCII YYYYMMDD of every day from 1900-01-01 (minus a margin) through 2102, (days, 8)."""
    return _date_digits(np.arange(_TABLE_FIRST_DAY - 400, _TABLE_FIRST_DAY + _TABLE_DAYS))


def _days_digits(unix_days: np.ndarray) -> np.ndarray:
    """``_date_digits`` through a precomputed table for the service's years (one lookup)."""
    rows = np.asarray(unix_days) - (_TABLE_FIRST_DAY - 400)
    if rows.size and (rows.min() < 0 or rows.max() >= _TABLE_DAYS + 400):
        return _date_digits(unix_days)
    return _date_table()[rows]


_CLOCK_TABLE = None


def _clock_table() -> np.ndarray:
    """ASCII hhmm for each minute of the day, (1440, 4)."""
    global _CLOCK_TABLE
    if _CLOCK_TABLE is None:
        _CLOCK_TABLE = _ascii_pairs(np.stack(np.divmod(np.arange(1440), 60), axis=-1))
    return _CLOCK_TABLE


def _instant_digits(unix_s: np.ndarray) -> np.ndarray:
    """Return the ASCII digits YYYYMMDDhhmm of each instant (shape + (12,))."""
    day, seconds = np.divmod(unix_s, 86400)
    return np.concatenate([_days_digits(day), _clock_table()[seconds // 60]], axis=-1)


def _clock_digits(seconds_of_day: np.ndarray) -> np.ndarray:
    """Return the ASCII digits hhmm of seconds after midnight (shape + (4,))."""
    return _clock_table()[seconds_of_day // 60]


def rows_json(names: tuple[str, ...], dates: np.ndarray, instants_s: np.ndarray,
              utc_offsets_s: np.ndarray | None) -> list[bytes]:
    """Return each row as one JSON object: ``{"date":…, <names>…, "local":{…}}``.

    ``dates``: (rows,) days since 1970-01-01.  ``instants_s``: (rows, len(names)) int64
    Unix seconds on whole minutes, written as UTC ``…:00Z``.  ``utc_offsets_s`` (same
    shape, optional) adds ``local``: the wall-clock ``HH:MM`` of each instant.
    """
    return _fill(_layout(tuple(names), utc_offsets_s is not None), dates, instants_s, utc_offsets_s)


def _fill(layout: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], dates: np.ndarray, instants_s: np.ndarray,
          utc_offsets_s: np.ndarray | None) -> list[bytes]:
    """Return one row per date: the fixed-width ``layout`` template with its digit columns filled."""
    template, date_cols, iso_cols, clock_cols = layout
    rows = len(dates)
    out = np.tile(template, (rows, 1))
    out[:, date_cols] = _days_digits(np.asarray(dates))
    out[:, iso_cols] = _instant_digits(instants_s).reshape(rows, -1)
    if utc_offsets_s is not None:
        out[:, clock_cols] = _clock_digits((instants_s + utc_offsets_s) % 86400).reshape(rows, -1)
    blob, width = out.tobytes(), out.shape[1]
    return [blob[i : i + width] for i in range(0, len(blob), width)]


def mark_unreached(rows: list[bytes], names: tuple[str, ...], unreached: np.ndarray) -> None:
    """Rewrite, in place, the rows with a time that is never reached (``highLatitudeRule=none``).

    ``unreached``: (rows, len(names)) bool.  Such a time becomes null (and null in ``local``),
    and the row gains ``"unreached": [names]`` in output order.  Only these rows go through
    a dict, so the fixed-width path above stays the one every other row takes.
    """
    for r in np.flatnonzero(unreached.any(axis=1)):
        row = orjson.loads(rows[r])
        missing = [name for name, flag in zip(names, unreached[r].tolist()) if flag]
        for name in missing:
            row[name] = None
            if "local" in row:
                row["local"][name] = None
        row["unreached"] = missing
        rows[r] = orjson.dumps(row)


@functools.lru_cache(maxsize=16)
def _csv_layout(names: tuple[str, ...], with_local: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return the CSV row template ``date,[HH:MM,…,]instant,…`` and its digit columns (as `_layout`)."""
    parts = ["0000-00-00"] + (["00:00"] * len(names) if with_local else []) + ["0000-00-00T00:00:00Z"] * len(names)
    template = ",".join(parts)
    starts = np.cumsum([0] + [len(p) + 1 for p in parts[:-1]])
    date_cols = [starts[0] + k for k in _DATE_DIGITS]
    n_local = len(names) if with_local else 0
    clock_cols = [s + k for s in starts[1 : 1 + n_local] for k in _CLOCK_DIGITS]
    iso_cols = [s + k for s in starts[1 + n_local :] for k in _ISO_DIGITS]
    return (np.frombuffer(template.encode(), dtype=np.uint8), np.array(date_cols), np.array(iso_cols),
            np.array(clock_cols, dtype=np.int64))


def rows_csv(names: tuple[str, ...], dates: np.ndarray, instants_s: np.ndarray,
             utc_offsets_s: np.ndarray | None) -> list[bytes]:
    """Return each row as CSV cells ``date,<local HH:MM of names>…,<UTC instants of names>…`` (no line end).

    Same inputs as `rows_json`; the local cells are present only with ``utc_offsets_s``.
    Every cell has a fixed width and needs no quoting, so rows are filled like `rows_json`.
    """
    return _fill(_csv_layout(tuple(names), utc_offsets_s is not None), dates, instants_s, utc_offsets_s)


def blank_unreached_csv(rows: list[bytes], names: tuple[str, ...], unreached: np.ndarray, with_local: bool) -> None:
    """Empty, in place, the cells of times never reached (``highLatitudeRule=none``): local and UTC."""
    for r in np.flatnonzero(unreached.any(axis=1)):
        cells = rows[r].split(b",")
        for k in np.flatnonzero(unreached[r]).tolist():
            if with_local:
                cells[1 + k] = b""
            cells[1 + (len(names) if with_local else 0) + k] = b""
        rows[r] = b",".join(cells)
