"""Day entries of /v1/prayer-times written straight to JSON bytes, vectorised.

Every field of a day entry has a fixed width (a date, ``YYYY-MM-DDTHH:MM:00Z``
instants, ``HH:MM`` clock times), so a row is one fixed byte template whose slots are
filled for all rows at once: dates and clocks are looked up in tables of their text, and
a structured dtype over the rows names each slot, so one assignment fills a slot in every
row.  A year of days, or 31 days × 16 methods, is a few dozen numpy operations instead of
thousands of Python objects.  The bytes equal ``orjson.dumps`` of the same rows built as dicts, which
tests/test_day_rows.py checks.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import orjson

_DATE = "0000-00-00"  # a date, filled from `_date_table`
_CLOCK = "00:00"  # a wall-clock or UTC hh:mm, filled from `_clock_table`
_INSTANT = _DATE + "T" + _CLOCK + ":00Z"  # whole-minute UTC instants: a date and a clock


@dataclass(frozen=True)
class _Layout:
    """A fixed-width row: the template bytes, and a structured dtype whose fields are its slots.

    Slots are named ``date``, ``d<k>``/``c<k>`` (the date and the clock of instant k) and
    ``l<k>`` (the local clock of instant k).  Viewing rows of template bytes through the dtype,
    one assignment fills a slot in every row.
    """

    template: np.ndarray  # uint8, one row
    slots: np.dtype
    instants: int
    with_local: bool


def _make_layout(parts: list[tuple[str, str, str | None]], instants: int, with_local: bool) -> _Layout:
    """Build a `_Layout` from (literal text, skeleton, slot name or None) pieces, in order."""
    template, names, offsets, formats = "", [], [], []
    for literal, skeleton, slot in parts:
        template += literal
        if slot is not None:
            names.append(slot)
            offsets.append(len(template))
            formats.append(f"S{len(skeleton)}")
        template += skeleton
    slots = np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": len(template)})
    return _Layout(np.frombuffer(template.encode(), dtype=np.uint8), slots, instants, with_local)


def _instant_parts(prefix: str, k: int) -> list[tuple[str, str, str | None]]:
    return [(prefix, _DATE, f"d{k}"), ("T", _CLOCK, f"c{k}"), (':00Z', "", None)]


@functools.lru_cache(maxsize=16)
def _layout(names: tuple[str, ...], with_local: bool) -> _Layout:
    """The JSON row ``{"date":…,<name>:instant…[,"local":{<name>:hh:mm…}]},``: each row ends with a comma."""
    parts = [('{"date":"', _DATE, "date")]
    for k, name in enumerate(names):
        parts += _instant_parts(f'","{name}":"', k)
    if with_local:
        parts += [('"' + ("," if k else ',"local":{') + f'"{name}":"', _CLOCK, f"l{k}") for k, name in enumerate(names)]
        parts += [('"}', "", None)]
    parts += [('"},' if not with_local else "},", "", None)]
    return _make_layout(parts, len(names), with_local)


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


def _iso_dates(unix_days: np.ndarray) -> np.ndarray:
    """Return ``YYYY-MM-DD`` of each day as S10 (proleptic Gregorian, years 0..9999)."""
    year, month, day = civil_from_days(unix_days)
    text = np.char.add(np.char.zfill(year.astype("U4"), 4), "-")
    text = np.char.add(np.char.add(text, np.char.zfill(month.astype("U2"), 2)), "-")
    return np.char.add(text, np.char.zfill(day.astype("U2"), 2)).astype("S10")


_TABLE_FIRST_DAY = -25967  # 1898-11-27: the sun table's first day (1899-11-01) less a year of margin
_TABLE_DAYS = 74200  # through 2102


@functools.cache
def _date_table() -> np.ndarray:
    """``YYYY-MM-DD`` (S10) of every day from `_TABLE_FIRST_DAY` for `_TABLE_DAYS` days."""
    return _iso_dates(np.arange(_TABLE_FIRST_DAY, _TABLE_FIRST_DAY + _TABLE_DAYS))


@functools.cache
def _date_table_padded() -> np.ndarray:
    """`_date_table` as S16: numpy's ``take`` copies items of a power-of-two size as integers, four
    times faster than 10-byte ones; assigned to an S10 slot, an item keeps its ten bytes."""
    return _date_table().astype("S16")


def _dates(unix_days: np.ndarray, padded: bool = False) -> np.ndarray:
    """``YYYY-MM-DD`` (S10, or S16 NUL-padded with ``padded``) of each day: one lookup in
    `_date_table` for the service's years."""
    rows = np.asarray(unix_days, dtype=np.int64) - _TABLE_FIRST_DAY
    if rows.size and (np.minimum.reduce(rows, axis=None) < 0 or np.maximum.reduce(rows, axis=None) >= _TABLE_DAYS):
        return _iso_dates(unix_days)
    return (_date_table_padded() if padded else _date_table()).take(rows)


@functools.cache
def _clock_table() -> np.ndarray:
    """``HH:MM`` (S5) of each minute of three days in a row, (4320,): minute m of the middle day
    is entry 1440 + m, so a UTC clock minute plus a zone's offset (±1440 at most) needs no modulo."""
    return np.array([f"{m // 60 % 24:02d}:{m % 60:02d}" for m in range(3 * 1440)], dtype="S5")


@functools.cache
def _clock_table_padded() -> np.ndarray:
    """`_clock_table` as S8 (see `_date_table_padded`): for the slots of `_fill`."""
    return _clock_table().astype("S8")


def _fill(layout: _Layout, dates: np.ndarray, instants_s: np.ndarray, utc_offsets_s: np.ndarray | None) -> np.ndarray:
    """Return the rows, one per date, as one uint8 buffer: the ``layout`` template with its slots filled."""
    n_rows = len(dates)
    out = np.tile(layout.template, (n_rows, 1)).view(layout.slots).reshape(n_rows)
    out["date"] = _dates(dates, padded=True)
    # Instants are whole minutes; one division each way (numpy's integer % and // are slow).
    minutes = np.asarray(instants_s, dtype=np.int64) // 60
    day = minutes // 1440
    clock_minutes = minutes - day * 1440
    clock_table = _clock_table_padded()  # padded items, each cut to its slot's width on assignment
    instant_dates, clocks = _dates(day, padded=True), clock_table[1440:].take(clock_minutes)
    for k in range(layout.instants):
        out[f"d{k}"] = instant_dates[k]
        out[f"c{k}"] = clocks[k]
    if layout.with_local:
        clock_minutes += utc_offsets_s // 60  # = (instant + offset) // 60 − day: instants are whole minutes
        local = clock_table.take(clock_minutes + 1440)
        for k in range(layout.instants):
            out[f"l{k}"] = local[k]
    return out.view(np.uint8)


def json_rows(names: tuple[str, ...], dates: np.ndarray, instants_s: np.ndarray,
              utc_offsets_s: np.ndarray | None) -> tuple[memoryview, int]:
    """Return (every row as one JSON object followed by a comma, in one buffer; the row width).

    ``dates``: (rows,) days since 1970-01-01.  ``instants_s``: (len(names), rows) int64
    Unix seconds on whole minutes, written as UTC ``…:00Z``.  ``utc_offsets_s`` (same
    shape, optional) adds ``local``: the wall-clock ``HH:MM`` of each instant.  Rows i..j
    joined by commas are ``buffer[i * width : j * width - 1]``.
    """
    layout = _layout(tuple(names), utc_offsets_s is not None)
    # A view of the buffer: the response joins its slices, so the rows are copied once, into the body.
    return memoryview(_fill(layout, dates, instants_s, utc_offsets_s)), layout.slots.itemsize


def rows_json(names: tuple[str, ...], dates: np.ndarray, instants_s: np.ndarray,
              utc_offsets_s: np.ndarray | None) -> list[bytes]:
    """Return each row as one JSON object: ``{"date":…, <names>…, "local":{…}}`` (see `json_rows`)."""
    return split_json_rows(*json_rows(names, dates, instants_s, utc_offsets_s))


def json_rows_with(blob: memoryview, width: int, fields: bytes) -> bytes:
    """Return the rows of a `json_rows` buffer, each with the same ``fields`` (``,"name":value…``)
    before its closing brace, joined by commas: one copy of every row at once, where rewriting
    them one by one (`split_json_rows`) costs a bytes object per row."""
    rows = np.frombuffer(blob, dtype=np.uint8).reshape(-1, width)  # each row ends with "},"
    out = np.empty((len(rows), width + len(fields)), dtype=np.uint8)
    out[:, : width - 2] = rows[:, : width - 2]
    out[:, width - 2 : -2] = np.frombuffer(fields, dtype=np.uint8)
    out[:, -2:] = rows[:, -2:]
    return out.tobytes()[:-1]


def split_json_rows(blob: memoryview, width: int) -> list[bytes]:
    """Return the rows of a `json_rows` buffer, each without its trailing comma."""
    return [bytes(blob[i : i + width - 1]) for i in range(0, len(blob), width)]


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
def _csv_layout(names: tuple[str, ...], with_local: bool) -> _Layout:
    """The CSV row ``date,[HH:MM,…,]instant,…`` (no line end)."""
    parts = [("", _DATE, "date")]
    if with_local:
        parts += [(",", _CLOCK, f"l{k}") for k in range(len(names))]
    for k in range(len(names)):
        parts += _instant_parts(",", k)
    return _make_layout(parts, len(names), with_local)


def rows_csv(names: tuple[str, ...], dates: np.ndarray, instants_s: np.ndarray,
             utc_offsets_s: np.ndarray | None) -> list[bytes]:
    """Return each row as CSV cells ``date,<local HH:MM of names>…,<UTC instants of names>…`` (no line end).

    Same inputs as `rows_json`; the local cells are present only with ``utc_offsets_s``.
    Every cell has a fixed width and needs no quoting, so rows are filled like `rows_json`.
    """
    layout = _csv_layout(tuple(names), utc_offsets_s is not None)
    blob, width = _fill(layout, dates, instants_s, utc_offsets_s).tobytes(), layout.slots.itemsize
    return [blob[i : i + width] for i in range(0, len(blob), width)]


def blank_unreached_csv(rows: list[bytes], names: tuple[str, ...], unreached: np.ndarray, with_local: bool) -> None:
    """Empty, in place, the cells of times never reached (``highLatitudeRule=none``): local and UTC."""
    for r in np.flatnonzero(unreached.any(axis=1)):
        cells = rows[r].split(b",")
        for k in np.flatnonzero(unreached[r]).tolist():
            if with_local:
                cells[1 + k] = b""
            cells[1 + (len(names) if with_local else 0) + k] = b""
        rows[r] = b",".join(cells)


def instant_texts(instants_s: np.ndarray) -> np.ndarray:
    """``YYYY-MM-DDTHH:MM:00Z`` (S20) of whole-minute instants, any shape: the same text as the rows'."""
    minutes = np.asarray(instants_s, dtype=np.int64) // 60
    day = minutes // 1440
    dates, clocks = _dates(day.ravel()), _clock_table()[1440:].take((minutes - day * 1440).ravel())
    return np.strings.add(np.strings.add(np.strings.add(dates, b"T"), clocks), b":00Z").reshape(minutes.shape)


def clock_texts(instants_s: np.ndarray, utc_offsets_s: np.ndarray) -> np.ndarray:
    """Local ``HH:MM`` (S5) of whole-minute instants at the given offsets, as the rows' ``local`` writes them."""
    minutes = (np.asarray(instants_s, dtype=np.int64) + utc_offsets_s) // 60
    return _clock_table()[1440:].take(minutes % 1440)


def provenance_fields(provenance) -> list[bytes]:
    """Return, per row (method-major, as `json_rows`), the JSON fields of a day's source, or b"" for a
    method bound to no table (generator.prayer.timetables.Provenance).

    A printed day: ``,"source":"printed","authority":…,"table":…,"computed":[times the table does not
    print][,"ignored":[options]]``; a computed day of a bound method: ``,"source":"computed"``.
    """
    out = []
    for k, bound in enumerate(provenance.bound):
        n_days = provenance.printed.shape[1]
        if not bound:
            out += [b""] * n_days
            continue
        table = provenance.table[k]
        printed = b""
        if table is not None:
            fields = {"source": "printed", "authority": table.authority_name, "table": table.id,
                      "computed": list(provenance.computed_times(k))}
            if provenance.ignored:
                fields["ignored"] = list(provenance.ignored)
            printed = b"," + orjson.dumps(fields)[1:-1]
        out += [printed if flag else COMPUTED_SOURCE for flag in provenance.printed[k].tolist()]
    return out


COMPUTED_SOURCE = b',"source":"computed"'  # the fields of a computed day of a method bound to printed tables
