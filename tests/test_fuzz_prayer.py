"""No input gives a 500: generated queries against /v1/prayer-times, /v1/qibla, /v1/methods."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.prayer.methods import METHODS

NAMES = ["q", "lat", "lng", "city", "date", "year", "month", "method", "tz", "fajrAngle", "ishaAngle", "ishaInterval",
         "maghribAngle", "maghribInterval", "x"]
VALUES = st.one_of(
    st.text(max_size=20),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.integers(-10**12, 10**12).map(str),
    st.sampled_from(list(METHODS) + ["all", "custom", "Tehran,Jafari", "london", "Asia/Tehran", "2026-03-20", "1900-01-01",
                                     "2100-12-31", "-90", "90", "180", "-180", "0", "2100", "12", "24", "4", "0.5"]),
)
QUERIES = st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=8)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(params=QUERIES, path=st.sampled_from(["/v1/prayer-times", "/v1/qibla", "/v1/methods", "/v1/cities"]))
def test_generated_queries_never_fail_the_server(client, params, path):
    response = client.get(path, params=params)
    assert response.status_code in (200, 400), (params, response.status_code, response.text[:200])
    body = response.json()
    if response.status_code == 400:
        assert list(body) == ["error", "code", "parameter", "args"] and body["error"].startswith(body["parameter"] + ": ")


@FUZZ
@given(
    lat=st.floats(-90, 90),
    lng=st.floats(-180, 180),
    day=st.dates(min_value=__import__("datetime").date(1900, 1, 1), max_value=__import__("datetime").date(2100, 12, 31)),
)
def test_any_place_and_day_gives_every_time_for_every_method(client, lat, lng, day):
    response = client.get("/v1/prayer-times", params={"lat": repr(lat), "lng": repr(lng), "date": day.isoformat(), "method": "all"})
    assert response.status_code == 200, response.text
    for result in response.json()["results"]:
        (entry,) = result["days"]
        assert entry["date"] == day.isoformat()
        assert all(isinstance(entry[k], str) and entry[k].endswith("Z") for k in
                   ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight"))
