"""GET /v1/prayer-times.csv: the /v1/prayer-times answer as a table, for spreadsheets and mosque screens.

The same parameters, rules and limits as the JSON (its declarations and ``canonical`` are
reused), and the same computation (`prayer_times.times_for`), so the two cannot disagree.
One row per method × day, methods in the JSON's order: ``date,method``, then each time as
local ``HH:mm`` (columns ``imsak`` … ``midnight``, only when a zone is known: a city, or
``tz``), then each UTC instant (``imsak_utc`` … ``midnight_utc``, as the JSON writes them),
then ``polar_latitude``: empty, or the latitude every time of a polar day was computed at
(the JSON's ``polar``).  With ``nightThirds=1`` firstThird and lastThird follow midnight in both
groups.  A time never reached (``highLatitudeRule=none``) is an empty cell.
When a requested method is bound to printed tables (IslamicCentreOfEngland, ImamAliFoundation),
three more columns say where each day comes from: ``source`` (``printed`` or ``computed``; empty
for the other methods), ``table`` and ``computed`` (the times computed on a printed day).
RFC 4180: a header row, CRLF line ends; no cell needs quoting (ids, digits, ``:-.TZ``).
"""
from __future__ import annotations

import numpy as np

from generator.places import timezones
from generator.api import day_rows, prayer_times
from generator.api import jamaat_params as JP
from generator.api.endpoint import Endpoint, Params, Window
from generator.api.location import coordinates
from generator.prayer.prayer import OUTPUT_TIMES

MEDIA_TYPE = "text/csv"
LINE_END = b"\r\n"  # RFC 4180


SOURCE_COLUMNS = ("source", "table", "computed")  # only when a method is bound to printed tables


def header(with_local: bool, with_source: bool = False, names: tuple[str, ...] = OUTPUT_TIMES) -> bytes:
    """Return the header row (without the line end) for the times ``names`` (with ``nightThirds=1``, the output
    times then firstThird and lastThird)."""
    local = list(names) if with_local else []
    source = list(SOURCE_COLUMNS) if with_source else []
    return ",".join(["date", "method", *local, *(f"{name}_utc" for name in names), "polar_latitude",
                     *source]).encode()


def source_cells(provenance) -> list[bytes]:
    """Return, per row (method-major), ``,source,table,computed`` (the JSON's provenance: ``printed`` or
    ``computed``, the table id, the times computed on a printed day separated by spaces); empty cells for a
    method bound to no table.  Ids and names need no quoting."""
    out = []
    for k, bound in enumerate(provenance.bound):
        table = provenance.table[k]
        printed = b"," + b",".join([b"printed", table.id.encode(), " ".join(provenance.computed_times(k)).encode()]) \
            if table is not None else b""
        for flag in provenance.printed[k].tolist():
            out.append(printed if flag else (b",computed,," if bound else b",,,"))
    return out


def build(params: Params) -> bytes:
    """Return the CSV body for canonical /v1/prayer-times parameters."""
    methods = prayer_times.methods_of(params)
    first, n_days = prayer_times.day_range(params)
    lat, lng = coordinates(params)
    result = prayer_times.times_for(lat, lng, first, n_days, methods, prayer_times.options_of(params))

    names, instants, unreached = prayer_times.times_with_thirds(params, result, lat, lng, first, n_days, methods)
    with_local = "tz" in params
    offsets = timezones.utc_offsets_s(params["tz"], instants) if with_local else None
    dates = np.tile(first + np.arange(n_days), len(methods))
    rows = day_rows.rows_csv(names, dates, instants, offsets)
    if unreached is not None:
        day_rows.blank_unreached_csv(rows, names, unreached, with_local)
    polar = [b"" if used == lat else repr(used).encode() for used in result.latitude_used_deg.tolist()]
    sources = source_cells(result.provenance) if result.provenance else None
    lines = [header(with_local, sources is not None, names)]
    # Jamaat columns (issue 20) after every other column, from the same final times (see the JSON).
    jamaats = JP.compute(params, first, n_days, lambda f, n: prayer_times.times_for(
        lat, lng, f, n, methods, prayer_times.options_of(params)), params.get("tz"))
    if jamaats:
        rules = JP.rules_of(params, has_zone=with_local)
        lines[0] += b"," + ",".join(JP.csv_header(rules, with_local)).encode()
        extra = [b"," + cells for found in jamaats for cells in JP.csv_cells(found, rules, params.get("tz"))]
    for k, method in enumerate(methods):
        prefix = method.id.encode()
        for i in range(n_days):
            date_cell, rest = rows[k * n_days + i][:10], rows[k * n_days + i][10:]
            lines.append(date_cell + b"," + prefix + rest + b"," + polar[i]
                         + (sources[k * n_days + i] if sources else b"")
                         + (extra[k * n_days + i] if jamaats else b""))
    return LINE_END.join(lines) + LINE_END


def plan(window: Window):
    """Pre-rendered where the JSON is: a year of the default method for every catalogue city."""
    return prayer_times.plan(window)


RESPONSE = {
    "description": "CSV (RFC 4180), a header row then one row per method and day: date, method, local HH:mm of "
                   "imsak … midnight (only when a zone is known: city or tz), the UTC instants imsak_utc … "
                   "midnight_utc, polar_latitude (empty, or the latitude a polar day was computed at). An empty time "
                   "cell: never reached (highLatitudeRule=none). With a method bound to printed tables (IslamicCentreOfEngland, "
                   "ImamAliFoundation) three more columns: source (printed or computed), table, computed (the times "
                   "computed on a printed day). A city's year of the default method is pre-rendered.",
    "content": {"text/csv": {"schema": {"type": "string"}}},
}

ENDPOINT = Endpoint(
    "prayer-times.csv", "Prayer times as CSV: the same parameters and times as /v1/prayer-times",
    prayer_times.PARAMETERS, prayer_times.canonical, build, RESPONSE, MEDIA_TYPE, plan=plan, quick=True,
    hijri_days=prayer_times.hijri_days)
