"""GET /v1/hijri: SPEC 2.5 / 4.5 fields, maps, offset, defaults and every validation rule."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_bad_request
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.calendars import hijri
from generator.api import hijri as hijri_api
from generator.errors import QueryError
from generator.query import Query

SPEC_2_5_FIELDS = {"gregorian", "weekday", "hijri", "monthName", "formatted", "monthLength", "calendarUsed", "source"}
LANGS = {"en", "ar", "fa", "ur"}


def _get(client, **params):
    return client.get("/v1/hijri", params=params)


def test_forward_date_gives_the_spec_object(client):
    """Iran table: 1 Ramadan 1446 = 2025-03-02, so 2025-03-01 is 30 Sha'ban (a 30-day month)."""
    body = _get(client, date="2025-03-01", calendar="iran").json()
    assert SPEC_2_5_FIELDS <= set(body)
    assert body["gregorian"] == "2025-03-01" and body["weekday"] == "Saturday"
    assert body["hijri"] == {"year": 1446, "month": 8, "day": 30}
    assert set(body["monthName"]) == LANGS and set(body["formatted"]) == LANGS
    assert body["monthName"]["en"] == "Sha'ban" and body["formatted"]["ar"] == "٣٠ شعبان ١٤٤٦ هـ"
    assert body["monthLength"] == 30 and body["calendarUsed"] == "iran" and body["source"] == "table"


def test_default_calendar_is_moonsighting_and_follows_sistani():
    """Sistani office: 1 Safar 1447 = 2025-07-27, one day after Iran (2025-07-26)."""
    body = hijri_api.build(hijri_api.ENDPOINT.parse(Query.of({"date": "2025-07-26"}), 0).params)
    assert body["calendarUsed"] == "moonsighting"
    assert body["hijri"] == {"year": 1447, "month": 1, "day": 30}
    iran = hijri_api.build(hijri_api.ENDPOINT.parse(Query.of({"date": "2025-07-26", "calendar": "iran"}), 0).params)
    assert iran["hijri"] == {"year": 1447, "month": 2, "day": 1}


def test_offset_shifts_the_hijri_day_forward_only(client):
    base = _get(client, date="2025-03-01", calendar="iran").json()
    plus = _get(client, date="2025-03-01", calendar="iran", offset=1).json()
    minus = _get(client, date="2025-03-01", calendar="iran", offset=-2).json()
    assert base["offset"] == 0 and plus["offset"] == 1
    assert plus["hijri"] == {"year": 1446, "month": 9, "day": 1} and plus["gregorian"] == "2025-03-01"
    assert minus["hijri"] == {"year": 1446, "month": 8, "day": 28}
    response = _get(client, hy=1446, hm=9, hd=1, offset=1)
    assert response.status_code == 400 and response.json()["error"].startswith("offset:")


def test_default_is_today_in_utc_and_today_dependent():
    now = np.datetime64("2026-02-19T23:30:00", "s").astype(np.int64)
    canonical = hijri_api.ENDPOINT.parse(Query.of({}), float(now))
    assert canonical.today_dependent and canonical.params["date"] == "2026-02-19"
    assert hijri_api.build(canonical.params)["hijri"] == {"year": 1447, "month": 9, "day": 1}
    assert not hijri_api.ENDPOINT.parse(Query.of({"date": "2026-02-19"}), float(now)).today_dependent


def test_default_response_is_cached_briefly(client):
    short = _get(client).headers["cache-control"]
    long = _get(client, date="2026-02-19").headers["cache-control"]
    assert short != long and "max-age" in short


def test_month_map(client):
    body = _get(client, year=2026, month=3, calendar="iran").json()
    assert body["from"] == "2026-03-01" and body["to"] == "2026-03-31" and len(body["days"]) == 31
    assert body["days"]["2026-03-20"] == {"year": 1447, "month": 9, "day": 30}
    assert body["days"]["2026-03-21"] == {"year": 1447, "month": 10, "day": 1}
    assert [(m["year"], m["month"], m["start"], m["monthLength"]) for m in body["months"]] == [
        (1447, 9, "2026-02-19", 30),
        (1447, 10, "2026-03-21", 29),
    ]
    assert all(m["source"] == "table" and set(m["monthName"]) == LANGS for m in body["months"])


def test_year_map_and_offset_moves_month_bounds(client):
    body = _get(client, year=2024).json()
    assert len(body["days"]) == 366 and list(body["days"])[0] == "2024-01-01"
    shifted = _get(client, year=2024, offset=1).json()
    starts = {(m["year"], m["month"]): m["start"] for m in body["months"][1:]}
    shifted_starts = {(m["year"], m["month"]): m["start"] for m in shifted["months"][1:]}
    common = starts.keys() & shifted_starts.keys()
    assert len(common) >= 11
    for key in common:  # +1: the month began a day earlier where the reader is
        assert np.datetime64(shifted_starts[key]) == np.datetime64(starts[key]) - 1


def test_reverse_day_and_month_map(client):
    day = _get(client, hy=1447, hm=9, hd=1).json()
    assert SPEC_2_5_FIELDS <= set(day) and day["gregorian"] == "2026-02-19" and "offset" not in day
    month = _get(client, hy=1446, hm=9, calendar="iran").json()
    assert month["monthLength"] == 29 and len(month["days"]) == 29
    assert month["days"]["1"] == "2025-03-02" and month["days"]["29"] == "2025-03-30"
    assert month["start"] == "2025-03-02" and month["end"] == "2025-03-30" and month["source"] == "table"


def test_hd_is_checked_against_the_real_month_length(client):
    assert hijri.month_length(1446, 9, "iran") == 29 and hijri.month_length(1447, 9, "iran") == 30
    response = _get(client, hy=1446, hm=9, hd=30, calendar="iran")
    assert response.status_code == 400
    assert response.json()["error"].startswith("hd:") and "29 days" in response.json()["error"]
    assert _get(client, hy=1447, hm=9, hd=30, calendar="iran").status_code == 200


BAD_QUERIES = [  # (query, the parameter the error must name)
    ({"date": "2025-02-30"}, "date"),
    ({"date": "2025-3-1"}, "date"),
    ({"date": "1899-12-31"}, "date"),
    ({"date": "2101-01-01"}, "date"),
    ({"year": "1899"}, "year"),
    ({"year": "2101"}, "year"),
    ({"year": "2025", "month": "0"}, "month"),
    ({"year": "2025", "month": "13"}, "month"),
    ({"month": "3"}, "year"),
    ({"date": "2025-03-01", "year": "2025"}, "date"),
    ({"hy": "1316", "hm": "1"}, "hy"),
    ({"hy": "1524", "hm": "1"}, "hy"),
    ({"hy": "1446", "hm": "0"}, "hm"),
    ({"hy": "1446", "hm": "13"}, "hm"),
    ({"hy": "1446", "hm": "9", "hd": "0"}, "hd"),
    ({"hy": "1446", "hm": "9", "hd": "31"}, "hd"),
    ({"hy": "1446"}, "hm"),
    ({"hm": "9"}, "hy"),
    ({"hd": "3"}, "hy"),
    ({"hy": "1446", "hm": "9", "date": "2025-03-01"}, "hy"),
    ({"offset": "3"}, "offset"),
    ({"offset": "-3"}, "offset"),
    ({"offset": "1.5"}, "offset"),
    ({"hy": "1446", "hm": "9", "offset": "0"}, "offset"),
    ({"calendar": "umm-al-qura"}, "calendar"),
    ({"lang": "en"}, "lang"),
    ({"year": "twenty"}, "year"),
]


@pytest.mark.parametrize("query, parameter", BAD_QUERIES, ids=[str(q) for q, _ in BAD_QUERIES])
def test_every_range_is_validated_with_a_400_naming_the_parameter(client, query, parameter):
    assert_bad_request(client.get("/v1/hijri", params=query), parameter)


def test_bounds_of_the_ranges_are_accepted(client):
    for query in ({"date": "1900-01-01"}, {"date": "2100-12-31"}, {"year": "1900"}, {"year": "2100", "month": "12"},
                  {"hy": "1317", "hm": "1"}, {"hy": "1523", "hm": "12", "hd": "29"}, {"date": "1900-01-01", "offset": "-2"},
                  {"date": "2100-12-31", "offset": "2"}):
        assert client.get("/v1/hijri", params=query).status_code == 200, query


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calendar=st.sampled_from(hijri.CALENDARS), day=st.integers(-25567, 47846))
def test_api_round_trip_forward_then_reverse(client, calendar, day):
    iso = str(np.datetime64(day, "D"))
    forward = _get(client, date=iso, calendar=calendar).json()
    h = forward["hijri"]
    back = _get(client, hy=h["year"], hm=h["month"], hd=h["day"], calendar=calendar)
    if h["year"] > hijri.API_LAST_YEAR:  # the last months of 2100 are AH 1524
        assert back.status_code == 400
        return
    assert back.json()["gregorian"] == iso and back.json()["hijri"] == h


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["date", "year", "month", "hy", "hm", "hd", "calendar", "offset"]),
                       st.text(max_size=12), max_size=4))
def test_no_query_gives_a_server_error(client, query):
    response = client.get("/v1/hijri", params=query)
    assert response.status_code in (200, 400)


def test_parse_errors_are_query_errors():
    with pytest.raises(QueryError):
        hijri_api.ENDPOINT.parse(Query.of({"hy": "1446", "hm": "9", "hd": "30", "calendar": "iran"}), 0)


@pytest.mark.parametrize("query", [{}, {"date": "2025-03-01", "offset": "1"}, {"year": "2026", "month": "3"},
                                   {"year": "2026", "calendar": "iran"}, {"hy": "1447", "hm": "9"},
                                   {"hy": "1447", "hm": "9", "hd": "30", "calendar": "iran"}])
def test_canonical_parameters_are_a_fixed_point_of_parse(query):
    """The static file of a response is named by its canonical query: parsing it again changes nothing."""
    canonical = hijri_api.ENDPOINT.parse(Query.of(query), 1_780_000_000).params
    again = hijri_api.ENDPOINT.parse(Query.of({k: str(v) for k, v in canonical.items()}), 0).params
    assert again == canonical
