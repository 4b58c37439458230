"""GET /v1/prayer-times: shapes, ranges, zones, custom methods, polar days, agreement of day, month
and year answers, and every 400."""
from __future__ import annotations

import zoneinfo
from datetime import datetime

import numpy as np
import orjson
import pytest
from conftest import assert_bad_request, call

from generator.prayer import prayer
from generator.prayer.methods import METHODS

TIME_FIELDS = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight")


def _get(client, **params):
    return client.get("/v1/prayer-times", params={k: str(v) for k, v in params.items()})


def _instant(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def test_one_day_shape_and_meta(client):
    response = _get(client, lat=35.6892, lng=51.389, date="2026-03-20", tz="Asia/Tehran")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    body = response.json()
    assert body["meta"] == {"lat": 35.69, "lng": 51.39, "tz": "Asia/Tehran", "qibla": body["meta"]["qibla"]}
    (day,) = body["days"]
    assert day["date"] == "2026-03-20"
    for name in TIME_FIELDS:
        assert day[name].endswith(":00Z") and _instant(day[name]).second == 0
    assert set(day["local"]) == set(TIME_FIELDS)
    assert _instant(day["fajr"]) - _instant(day["imsak"]) == (_instant(day["fajr"]) - _instant(day["imsak"])).__class__(minutes=10)


def test_midnight_is_the_midpoint_of_maghrib_and_the_next_fajr(client):
    days = _get(client, lat=32.0, lng=44.33, year=2026, month=2, method="Jafari").json()["days"]
    for today, tomorrow in zip(days, days[1:]):
        middle = _instant(today["maghrib"]) + (_instant(tomorrow["fajr"]) - _instant(today["maghrib"])) / 2
        assert abs((_instant(today["midnight"]) - middle).total_seconds()) <= 60


def test_local_times_follow_the_zone_including_dst_changes(client):
    """Independent check: Python's zoneinfo applied to each UTC instant (London, 2026 DST dates)."""
    zone = zoneinfo.ZoneInfo("Europe/London")
    for month in (3, 10):
        days = _get(client, city="london", year=2026, month=month).json()["days"]
        for day in days:
            for name in TIME_FIELDS:
                expected = _instant(day[name]).astimezone(zone).strftime("%H:%M")
                assert day["local"][name] == expected, (day["date"], name)


def test_year_and_month_ranges(client):
    assert len(_get(client, lat=0, lng=0, year=2024).json()["days"]) == 366
    assert len(_get(client, lat=0, lng=0, year=2100).json()["days"]) == 365
    days = _get(client, lat=0, lng=0, year=2100, month=12).json()["days"]
    assert [d["date"] for d in days] == [f"2100-12-{d:02d}" for d in range(1, 32)]
    days = _get(client, lat=0, lng=0, year=1900, month=1).json()["days"]
    assert days[0]["date"] == "1900-01-01"


def test_default_is_today_in_the_zone_and_cached_briefly(client):
    response = _get(client, city="tehran")
    (day,) = response.json()["days"]
    assert day["date"] == datetime.now(zoneinfo.ZoneInfo("Asia/Tehran")).date().isoformat()
    assert response.headers["cache-control"] == "public, max-age=300"
    dated = _get(client, city="tehran", date="2026-01-01")
    assert "max-age=604800" in dated.headers["cache-control"]


def test_several_methods_give_results_sorted_and_deduplicated(client):
    body = _get(client, lat=51.5, lng=-0.13, date="2026-06-21", method="Tehran,Jafari,Tehran").json()
    assert "days" not in body
    assert [r["method"] for r in body["results"]] == ["Jafari", "Tehran"]
    everything = _get(client, lat=51.5, lng=-0.13, year=2026, month=1, method="all").json()
    assert len(everything["results"]) == 16 and all(len(r["days"]) == 31 for r in everything["results"])


def test_city_fills_place_and_zone(client):
    body = _get(client, city="karbala", date="2026-07-01").json()
    assert body["meta"]["city"] == "karbala" and body["meta"]["tz"] == "Asia/Baghdad"
    assert "local" in body["days"][0]


def test_unknown_city_suggests_ids(client):
    response = _get(client, city="londn")
    assert response.status_code == 400
    assert "london" in response.json()["error"]


def test_etag_and_304(client):
    first = _get(client, lat=10, lng=10, date="2026-05-05")
    again = client.get(
        "/v1/prayer-times?lat=10&lng=10&date=2026-05-05", headers={"If-None-Match": first.headers["etag"]}
    )
    assert again.status_code == 304 and again.headers["etag"] == first.headers["etag"]
    assert first.headers["access-control-allow-origin"] == "*"


def test_custom_method(client):
    body = _get(client, lat=35.69, lng=51.39, date="2026-03-20", method="custom", fajrAngle=16, ishaInterval=60,
                maghribInterval=10).json()
    (day,) = body["days"]
    assert (_instant(day["maghrib"]) - _instant(day["sunset"])).total_seconds() in (540, 600, 660)
    assert abs((_instant(day["isha"]) - _instant(day["maghrib"])).total_seconds() - 3600) <= 60
    tehran = _get(client, lat=35.69, lng=51.39, date="2026-03-20", method="custom", fajrAngle=17.7, ishaAngle=14,
                  maghribAngle=4.5).json()["days"][0]
    preset = _get(client, lat=35.69, lng=51.39, date="2026-03-20", method="Tehran").json()["days"][0]
    assert tehran == preset


BAD = [
    ({"lng": 1, "date": "2026-01-01"}, "lat"),
    ({"lat": 1, "date": "2026-01-01"}, "lng"),
    ({}, "lat"),
    ({"lat": 90.01, "lng": 0}, "lat"),
    ({"lat": 0, "lng": -180.5}, "lng"),
    ({"lat": "NaN", "lng": 0}, "lat"),
    ({"lat": "inf", "lng": 0}, "lat"),
    ({"lat": "1e2", "lng": 0}, "lat"),
    ({"lat": "١٢", "lng": 0}, "lat"),
    ({"lat": 0, "lng": 0, "city": "london"}, "city"),
    ({"city": "no-such-place"}, "city"),
    ({"lat": 0, "lng": 0, "date": "2026-02-30"}, "date"),
    ({"lat": 0, "lng": 0, "date": "2026-2-3"}, "date"),
    ({"lat": 0, "lng": 0, "date": "1899-12-31"}, "date"),
    ({"lat": 0, "lng": 0, "date": "2026-01-01", "year": 2026}, "date"),
    ({"lat": 0, "lng": 0, "month": 3}, "year"),
    ({"lat": 0, "lng": 0, "year": 2101}, "year"),
    ({"lat": 0, "lng": 0, "year": 2026, "month": 13}, "month"),
    ({"lat": 0, "lng": 0, "year": "20x6"}, "year"),
    ({"lat": 0, "lng": 0, "method": "Shia"}, "method"),
    ({"lat": 0, "lng": 0, "method": "Tehran,custom"}, "method"),
    ({"lat": 0, "lng": 0, "method": ""}, "method"),
    ({"lat": 0, "lng": 0, "year": 2026, "method": "Tehran,Jafari"}, "method"),
    ({"lat": 0, "lng": 0, "method": "custom"}, "fajrAngle"),
    ({"lat": 0, "lng": 0, "method": "custom", "fajrAngle": 18}, "ishaAngle"),
    ({"lat": 0, "lng": 0, "method": "custom", "fajrAngle": 18, "ishaAngle": 17, "ishaInterval": 90}, "ishaAngle"),
    ({"lat": 0, "lng": 0, "method": "custom", "fajrAngle": 3, "ishaAngle": 17}, "fajrAngle"),
    ({"lat": 0, "lng": 0, "method": "custom", "fajrAngle": 18, "ishaAngle": 24.5}, "ishaAngle"),
    ({"lat": 0, "lng": 0, "method": "custom", "fajrAngle": 18, "ishaInterval": 181}, "ishaInterval"),
    ({"lat": 0, "lng": 0, "method": "custom", "fajrAngle": 18, "ishaInterval": 90, "maghribAngle": 0.4}, "maghribAngle"),
    ({"lat": 0, "lng": 0, "method": "custom", "fajrAngle": 18, "ishaInterval": 90, "maghribInterval": 121}, "maghribInterval"),
    ({"lat": 0, "lng": 0, "method": "custom", "fajrAngle": 18, "ishaInterval": 90, "maghribInterval": 5, "maghribAngle": 4},
     "maghribAngle"),
    ({"lat": 0, "lng": 0, "fajrAngle": 18}, "fajrAngle"),
    ({"lat": 0, "lng": 0, "tz": "Mars/Olympus"}, "tz"),
    ({"lat": 0, "lng": 0, "tz": "../../etc/passwd"}, "tz"),
    ({"lat": 0, "lng": 0, "colour": "blue"}, "colour"),
    ({"lat": "0" * 300, "lng": 0}, "lat"),
]


@pytest.mark.parametrize("params, parameter", BAD)
def test_bad_input_is_a_400_naming_the_parameter(client, params, parameter):
    assert_bad_request(_get(client, **params), parameter)


def test_repeated_parameter_is_a_400(client):
    response = client.get("/v1/prayer-times?lat=1&lat=2&lng=0")
    assert response.status_code == 400 and response.json()["error"].startswith("lat:")


def test_over_budget_year_with_two_methods_is_rejected(client):
    response = _get(client, lat=0, lng=0, year=2026, method="Tehran,Jafari")
    assert response.status_code == 400 and "single method" in response.json()["error"]


@pytest.mark.parametrize("lat, lng", [(90, 0), (-90, 0), (89.99, 120), (78.22, 15.65), (-77.85, 166.67), (69.65, 18.96)])
def test_polar_places_get_every_time_every_day_with_the_rule_marked(client, lat, lng):
    days = _get(client, lat=lat, lng=lng, year=2026).json()["days"]
    assert len(days) == 365
    marked = [d for d in days if "polar" in d]
    for day in days:
        assert all(isinstance(day[name], str) for name in TIME_FIELDS), day
        times = [_instant(day[name]) for name in ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha")]
        assert times == sorted(times), day
    for day in marked:
        assert day["polar"]["rule"] == "nearestLatitude"
        assert abs(day["polar"]["latitude"]) < abs(lat) and (day["polar"]["latitude"] > 0) == (lat > 0)
    if abs(lat) >= 78:
        assert len(marked) > 100  # months of midnight sun and polar night


@pytest.mark.parametrize("lat, lng", [(35.69, 51.39), (-33.87, 151.21), (59.9, 10.75), (0.0, -78.5), (21.42, 39.83)])
def test_times_are_in_order_every_day_for_every_method(client, lat, lng):
    body = _get(client, lat=lat, lng=lng, year=2027, month=6, method="all").json()
    for result in body["results"]:
        for day in result["days"]:
            times = [_instant(day[n]) for n in ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha")]
            assert times == sorted(times), (result["method"], day)
            assert _instant(day["maghrib"]) < _instant(day["midnight"])


@pytest.mark.parametrize("lat, lng", [(69.65, 18.96), (51.5, -0.12), (-66.6, -73.9)])
def test_a_day_is_the_same_alone_in_its_month_and_in_its_year(lat, lng):
    """Tromsø, London and the Antarctic circle, 2026: every day entry of the year answer equals the
    entry of its month answer and of the day's own answer, byte for byte (the solver stops each time
    on its own convergence, so a time never depends on the days solved with it)."""
    def days(**query):
        return orjson.loads(call("prayer-times", 0.0, lat=lat, lng=lng, method="Jafari", **query))["days"]

    year = days(year=2026)
    months = [day for month in range(1, 13) for day in days(year=2026, month=month)]
    assert months == year
    for index in range(0, 365, 7):  # every seventh day, and the days around the polar limits
        assert days(date=year[index]["date"]) == [year[index]]
    for entry in year:
        if "polar" in entry:
            assert days(date=entry["date"]) == [entry]


def test_unrounded_times_do_not_depend_on_the_days_solved_with_them():
    """The engine at Tromsø, 2026: a day's unrounded times alone equal its times within the year
    to the last bit (a solver that iterates the whole array until its slowest time converges gives
    the others extra passes, which move them by microseconds)."""
    first = int(np.datetime64("2026-01-01").astype(int))
    year = prayer.compute(69.65, 18.96, first, 365, [METHODS["Jafari"]]).unrounded_days
    for index in (0, 60, 140, 172, 200, 300, 330, 355):
        alone = prayer.compute(69.65, 18.96, first + index, 1, [METHODS["Jafari"]]).unrounded_days
        for name, values in alone.items():
            np.testing.assert_array_equal(values[:, 0], year[name][:, index], err_msg=f"{name} on day {index}")
