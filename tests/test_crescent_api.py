"""GET /v1/moon-visibility: grid and point modes (SPEC 2.6 / 4.6) and every validation rule."""
from __future__ import annotations

import numpy as np
import orjson
import pytest
from conftest import assert_bad_request
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.astronomy import crescent
from generator.calendars import hijri
from generator.api import moon_visibility
from generator.query import Query


def _get(client, **params):
    return client.get("/v1/moon-visibility", params=params)


@pytest.mark.parametrize("res, rows, columns", [(5, 26, 72), (2, 65, 180)])
def test_grid_shape_counts_and_legend(client, res, rows, columns):
    body = _get(client, hy=1447, hm=9, res=res).json()
    assert len(body["rows"]) == rows and {len(r) for r in body["rows"]} == {columns}
    assert set("".join(body["rows"])) <= set("01234")
    counts = body["counts"]
    for key in ("digits", "yallop", "odeh", "status"):
        assert sum(counts[key].values()) == rows * columns, key
    flat = "".join(body["rows"])
    assert all(counts["digits"][d] == flat.count(d) for d in "01234")
    thresholds = [z.get("qAbove") for z in body["legend"]["yallop"]]
    assert thresholds == [0.216, -0.014, -0.160, -0.232, -0.293, None]
    assert [z.get("vAtLeast") for z in body["legend"]["odeh"]] == [5.65, 2.0, -0.96, None]
    assert [d["digit"] for d in body["legend"]["digits"]] == [0, 1, 2, 3, 4]
    meta = body["meta"]
    assert meta["res"] == res and meta["rowCount"] == rows and meta["columnCount"] == columns


def test_grid_meta_for_ramadan_1447():
    """USNO new moon 2026-02-17 12:01 UT; Sistani and Iran: 1 Ramadan 1447 = 2026-02-19;
    Sha'ban 1447 began 2026-01-21 (Iran table), so its 29th, the sighting evening, is 2026-02-18."""
    params = moon_visibility.ENDPOINT.parse(Query.of({"hy": "1447", "hm": "9", "calendar": "iran"}), 0).params
    meta = moon_visibility.build(params)["meta"]
    assert meta["conjunction"].startswith("2026-02-17T12:01")
    assert meta["monthBegins"] == {"date": "2026-02-19", "source": "table"}
    assert meta["sightingEvening"] == "2026-02-18" and meta["evening"] == "2026-02-18"


def test_grid_cell_formula_and_digits_match_the_crescent_module(client):
    """Cell centre lat = 70 − (row + 0.5)·res, lng = −180 + (column + 0.5)·res."""
    body = _get(client, hy=1447, hm=9, res=5, evening=1).json()
    day = int(np.datetime64(body["meta"]["evening"]).astype(np.int64))
    conj = hijri.conjunction_day(1447, 9)
    for row, column in [(0, 0), (7, 46), (13, 36), (25, 71), (20, 10)]:
        lat, lng = 70 - (row + 0.5) * 5, -180 + (column + 0.5) * 5
        e = crescent.evening(lat, lng, day, conj)
        assert body["rows"][row][column] == str(int(crescent.digit(e.yallop, e.odeh)))


def test_evening_moves_the_map_by_days(client):
    before = _get(client, hy=1447, hm=9, evening=-1).json()
    after = _get(client, hy=1447, hm=9, evening=2).json()
    assert before["meta"]["evening"] == "2026-02-17" and after["meta"]["evening"] == "2026-02-20"
    assert after["counts"]["digits"]["1"] > before["counts"]["digits"]["1"]


def test_point_mode_seven_evenings_and_first_visible(client):
    body = _get(client, hy=1447, hm=9, city="tehran").json()
    evenings = body["evenings"]
    assert len(evenings) == 7
    assert [e["date"] for e in evenings][:2] == ["2026-02-17", "2026-02-18"]
    assert all({"date", "q", "zone"} <= set(e) for e in evenings)
    # 2026-02-17 at Tehran: the Moon sets 23 s before the Sun, so there is no q (null + reason).
    assert evenings[0]["q"] is None and evenings[0]["zone"] is None and evenings[0]["status"] == "moonSetsFirst"
    assert evenings[1]["zone"] == "A" and evenings[1]["odehZone"] == "A"
    assert body["firstVisible"]["yallop"] == "2026-02-18" and body["firstVisible"]["odeh"] == "2026-02-18"
    assert body["meta"]["city"] == "tehran" and body["meta"]["monthBegins"]["date"] == "2026-02-19"
    assert body["meta"]["sightingEvening"] == "2026-02-18"


def test_point_mode_never_emits_nan_at_the_poles(client):
    for lat in ("89.99", "-89.99", "70", "-70"):
        response = _get(client, hy=1446, hm=3, lat=lat, lng="0")
        assert response.status_code == 200
        orjson.loads(response.content)  # strict JSON: NaN would be refused
        assert b"NaN" not in response.content


def test_default_is_the_current_month_and_today_dependent():
    now = float(np.datetime64("2026-02-25T10:00:00", "s").astype(np.int64))
    canonical = moon_visibility.ENDPOINT.parse(Query.of({}), now)
    assert canonical.today_dependent
    assert (canonical.params["hy"], canonical.params["hm"]) == (1447, 9)
    assert canonical.params["res"] == 5 and canonical.params["evening"] == 0
    assert not moon_visibility.ENDPOINT.parse(Query.of({"hy": "1447", "hm": "9"}), now).today_dependent


BAD_QUERIES = [
    ({"hy": "1316", "hm": "1"}, "hy"),
    ({"hy": "1524", "hm": "1"}, "hy"),
    ({"hy": "1447", "hm": "0"}, "hm"),
    ({"hy": "1447", "hm": "13"}, "hm"),
    ({"hy": "1447"}, "hm"),
    ({"hm": "9"}, "hy"),
    ({"res": "3"}, "res"),
    ({"res": "2.0"}, "res"),
    ({"evening": "3"}, "evening"),
    ({"evening": "-3"}, "evening"),
    ({"lat": "35.7"}, "lng"),
    ({"lng": "51.4"}, "lat"),
    ({"lat": "91", "lng": "0"}, "lat"),
    ({"lat": "0", "lng": "181"}, "lng"),
    ({"city": "atlantis"}, "city"),
    ({"city": "tehran", "lat": "35"}, "city"),
    ({"city": "tehran", "evening": "1"}, "evening"),
    ({"lat": "35", "lng": "51", "res": "2"}, "res"),
    ({"calendar": "saudi"}, "calendar"),
    ({"date": "2026-02-18"}, "date"),
]


@pytest.mark.parametrize("query, parameter", BAD_QUERIES, ids=[str(q) for q, _ in BAD_QUERIES])
def test_every_range_is_validated_with_a_400_naming_the_parameter(client, query, parameter):
    assert_bad_request(client.get("/v1/moon-visibility", params=query), parameter)


def test_range_ends_are_answered(client):
    for query in ({"hy": "1317", "hm": "1"}, {"hy": "1523", "hm": "12", "res": "2", "evening": "2"},
                  {"hy": "1317", "hm": "1", "lat": "-60", "lng": "-180"}, {"hy": "1523", "hm": "12", "city": "london"}):
        response = client.get("/v1/moon-visibility", params=query)
        assert response.status_code == 200, query
        orjson.loads(response.content)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["hy", "hm", "evening", "res", "lat", "lng", "city", "calendar"]),
                       st.one_of(st.text(max_size=8), st.integers(-200, 2000).map(str)), max_size=4))
def test_no_query_gives_a_server_error(client, query):
    assert client.get("/v1/moon-visibility", params=query).status_code in (200, 400)


@pytest.mark.parametrize("query", [{}, {"hy": "1447", "hm": "9", "res": "2", "evening": "-1"},
                                   {"hy": "1447", "hm": "9", "lat": "35.689", "lng": "51.389", "calendar": "iran"}])
def test_canonical_parameters_are_a_fixed_point_of_parse(query):
    """The static file of a response is named by its canonical query: parsing it again changes nothing."""
    canonical = moon_visibility.ENDPOINT.parse(Query.of(query), 1_780_000_000).params
    again = moon_visibility.ENDPOINT.parse(Query.of({k: str(v) for k, v in canonical.items()}), 0).params
    assert again == canonical
