"""GET /v1/cities: search in four scripts, folding of Arabic-script variants, ranking, limits."""
from __future__ import annotations

import pytest

from generator.places.city_search import fold


def _ids(client, q):
    response = client.get("/v1/cities", params={"q": q})
    assert response.status_code == 200, response.text
    return [c["id"] for c in response.json()["cities"]]


@pytest.mark.parametrize(
    "q, expected",
    [
        ("karbala", "karbala"), ("کربلا", "karbala"), ("كربلاء", "karbala"),
        ("London", "london"), ("لندن", "london"),
        ("مشهد", "mashhad"), ("tehran", "tehran"), ("طهران", "tehran"), ("تہران", "tehran"),
        ("قم", "qom"), ("najaf", "najaf"), ("نجف", "najaf"),
        ("مزار شریف", "mazar-i-sharif"), ("mazar i sharif", "mazar-i-sharif"),
    ],
)
def test_names_in_each_language_find_the_city_first(client, q, expected):
    assert _ids(client, q)[0] == expected


def test_letter_variants_diacritics_and_tatweel_fold_together():
    assert fold("كربلاء") != fold("کربلا")  # a different word (final hamza), but:
    assert fold("كربلا") == fold("کربلا") == fold("كَرْبَلا") == fold("كربـــلا")
    assert fold("يزد") == fold("یزد") == fold("ىزد")
    assert fold("الحلة") == fold("الحله") == fold("الحلۀ")
    assert fold("أصفهان") == fold("اصفهان") == fold("إصفهان") == fold("آصفهان")
    assert fold("São Paulo") == fold("sao paulo")
    assert fold("مُحَمَّد") == fold("محمد")


def test_ranking_exact_then_prefix_then_substring(client):
    ids = _ids(client, "najaf")
    assert ids[0] == "najaf" and "najafabad" in ids
    assert ids.index("najaf") < ids.index("najafabad")


def test_at_most_ten_results_under_the_cities_key(client):
    body = client.get("/v1/cities", params={"q": "a"}).json()
    assert list(body) == ["cities"] and len(body["cities"]) == 10
    assert set(body["cities"][0]) == {"id", "names", "country", "lat", "lng", "tz"}


def test_no_match_is_an_empty_list(client):
    assert _ids(client, "zzzzqqq") == []


@pytest.mark.parametrize("query", ["", "q=", "q=%20%20", "q=" + "a" * 101, "q=%D9%8E%D9%8E", "q=london&x=1",
                                   "q=a&q=b"])
def test_bad_queries_are_400(client, query):
    response = client.get("/v1/cities?" + query)
    assert response.status_code == 400
    assert response.json()["error"].split(":")[0] in ("q", "x")


def test_all_lists_the_whole_catalogue(client):
    body = client.get("/v1/cities?all=1").json()
    assert len(body["cities"]) == 348
    assert client.get("/v1/cities?all=1&q=x").status_code == 400
    assert client.get("/v1/cities?all=2").status_code == 400


def _haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Independent great-circle distance (pure math, the haversine formula, mean Earth radius 6371.0088 km)."""
    import math

    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


@pytest.mark.parametrize("lat, lng", [(51.5, -0.12), (31.99, 44.3), (-33.87, 151.21), (64.14, -21.94),
                                      (-13.83, -171.76), (0.0, 0.0), (89.9, 179.99), (35.0, -179.99)])
def test_near_gives_the_nearest_catalogue_cities(client, lat, lng):
    """lat+lng: the 5 nearest, by an independent haversine over the whole catalogue (ties to 0.1 km aside);
    distanceKm within 0.05 km of it (the answer rounds to 0.1 km), from the rounded point (0.01°)."""
    catalogue = client.get("/v1/cities?all=1").json()["cities"]
    expected = sorted(catalogue, key=lambda c: _haversine_km(lat, lng, c["lat"], c["lng"]))[:5]
    got = client.get(f"/v1/cities?lat={lat}&lng={lng}&limit=5").json()["cities"]
    assert [c["id"] for c in got] == [c["id"] for c in expected]
    for city in got:
        assert abs(city["distanceKm"] - _haversine_km(lat, lng, city["lat"], city["lng"])) <= 0.05 + 1e-9
    one = client.get(f"/v1/cities?lat={lat}&lng={lng}").json()["cities"]
    assert [c["id"] for c in one] == [expected[0]["id"]]


def test_near_orders_a_search_by_distance_and_leaves_the_default_alone(client):
    """q with lat+lng: the same matches, nearest first (Hyderabad near Karachi is Sindh's); without them
    the answer is byte for byte the one without the option (no distanceKm)."""
    plain = client.get("/v1/cities?q=hyderabad")
    near = client.get("/v1/cities?q=hyderabad&lat=24.86&lng=67.01").json()["cities"]
    assert sorted(c["id"] for c in near) == sorted(c["id"] for c in plain.json()["cities"])
    assert near[0]["country"] == "PK" and near[0]["distanceKm"] < near[-1]["distanceKm"]
    assert all("distanceKm" not in c for c in plain.json()["cities"])
    assert plain.content == client.get("/v1/cities?q=hyderabad").content


@pytest.mark.parametrize("query, parameter", [
    ("lat=51.5", "lng"), ("lng=1", "lat"), ("lat=91&lng=0", "lat"), ("lat=1&lng=1&limit=21", "limit"),
    ("limit=2&q=london", "limit"), ("all=1&lat=1&lng=1", "all"),
])
def test_near_refusals_name_the_parameter(client, query, parameter):
    response = client.get(f"/v1/cities?{query}")
    assert response.status_code == 400 and response.json()["error"].startswith(parameter + ":"), response.text
