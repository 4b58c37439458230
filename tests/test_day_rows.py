"""The vectorised day-row writer against orjson writing the same rows as dicts (byte equality)."""
from __future__ import annotations

import numpy as np
import orjson
import pytest

from generator.places import timezones
from generator.api.day_rows import COMPUTED_SOURCE, civil_from_days, json_rows, json_rows_with, rows_json

NAMES = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight")
OPTIONS = orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z


def _reference(dates, instants, zone):
    rows = []
    for day, values in zip(dates, instants):
        row = {"date": str(np.datetime64(int(day), "D")), **dict(zip(NAMES, values.astype("datetime64[s]").tolist()))}
        if zone:
            row["local"] = dict(zip(NAMES, timezones.local_hhmm(zone, values).tolist()))
        rows.append(orjson.dumps(row, option=OPTIONS))
    return rows


@pytest.mark.parametrize("zone", [None, "Asia/Tehran", "America/St_Johns", "Pacific/Kiritimati"])
@pytest.mark.parametrize("spread_days", [1, 400, 73000])
def test_rows_equal_orjson_of_dicts(zone, spread_days):
    rng = np.random.default_rng(spread_days)
    first = int(np.datetime64("1900-01-01").astype(int))
    dates = first + rng.integers(0, 73000, 200)
    minutes = rng.integers(0, spread_days * 1440, (200, len(NAMES)))
    instants = ((dates[:, None] - 1) * 86400 + minutes * 60).astype(np.int64)
    offsets = timezones.utc_offsets_s(zone, instants) if zone else None
    by_name = np.ascontiguousarray(instants.T)  # the writer takes one row of instants per name
    assert rows_json(NAMES, dates, by_name, None if offsets is None else np.ascontiguousarray(offsets.T)) == \
        _reference(dates, instants, zone)


@pytest.mark.parametrize("zone", [None, "Asia/Tehran"])
def test_rows_with_the_same_fields_equal_orjson_of_dicts(zone):
    """Every row with the same fields added (a bound preset's computed days), written at once."""
    rng = np.random.default_rng(7)
    dates = int(np.datetime64("2026-03-01").astype(int)) + np.arange(31)
    instants = (dates[:, None] * 86400 + rng.integers(0, 1440, (31, len(NAMES))) * 60).astype(np.int64)
    offsets = timezones.utc_offsets_s(zone, instants) if zone else None
    blob, width = json_rows(NAMES, dates, np.ascontiguousarray(instants.T),
                            None if offsets is None else np.ascontiguousarray(offsets.T))
    expected = [orjson.dumps({**orjson.loads(row), "source": "computed"}) for row in _reference(dates, instants, zone)]
    assert COMPUTED_SOURCE == b',"source":"computed"'
    assert json_rows_with(blob, width, COMPUTED_SOURCE) == b",".join(expected)


def test_civil_from_days_equals_numpy_calendar():
    days = np.arange(-80000, 60000)
    year, month, day = civil_from_days(days)
    as_dates = days.astype("datetime64[D]")
    assert (year == as_dates.astype("datetime64[Y]").astype(int) + 1970).all()
    assert (month == as_dates.astype("datetime64[M]").astype(int) % 12 + 1).all()
    assert (day == (as_dates - as_dates.astype("datetime64[M]")).astype(int) + 1).all()
