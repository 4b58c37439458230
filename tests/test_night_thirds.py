"""`nightThirds=1` on /v1/prayer-times (issue 35): firstThird and lastThird of the night `midnight` halves.

References: adhan-js 4.4.6's ``SunnahTimes`` (tests/peers/adhan_sunnah.js) gives the last third of the night
maghrib → next fajr (``lastThirdOfTheNight``); the first third and the thirds of the other nights are
computed here from adhan-js's own sunset, maghrib, next fajr and next sunrise (start + ⅓ or ⅔ of the night).
Tolerance 1 min: both round to the minute, from times that each round to the minute.
"""
from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

import orjson
import pytest

from conftest import call, run_node_peer

NOW = datetime(2026, 11, 28, 12, tzinfo=timezone.utc).timestamp()
PLACES = {"karbala": (32.62, 44.02), "tehran": (35.69, 51.39), "london": (51.51, -0.13), "mumbai": (19.08, 72.88),
          "toronto": (43.65, -79.38), "sydney": (-33.87, 151.21), "dar-es-salaam": (-6.79, 39.21)}
DATES = ("2026-01-10", "2026-03-21", "2026-06-21", "2026-11-28")
METHODS = ("Tehran", "Jafari", "MuslimWorldLeague")
TOLERANCE_S = 60


def _unix_s(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def _day(lat: float, lng: float, day: str, **query) -> dict:
    return orjson.loads(call("prayer-times", NOW, lat=lat, lng=lng, date=day, **query))["days"][0]


@pytest.fixture(scope="module")
def adhan_nights() -> dict:
    cases = [{"lat": lat, "lng": lng, "date": day, "method": method}
             for lat, lng in PLACES.values() for day in DATES for method in METHODS]
    return {(c["lat"], c["lng"], c["date"], c["method"]): found
            for c, found in zip(cases, run_node_peer("adhan_sunnah.js", "adhan", cases))}


def test_the_last_third_equals_adhan_sunnah_times_and_the_first_third_adhans_night(adhan_nights):
    """84 nights (7 places × 4 dates × 3 methods) under the SPEC's night (maghrib → next fajr)."""
    for (lat, lng, day, method), peer in adhan_nights.items():
        ours = _day(lat, lng, day, method=method, nightThirds=1)
        night_s = peer["nextFajr"] - peer["maghrib"]
        assert abs(_unix_s(ours["lastThird"]) - peer["lastThird"]) <= TOLERANCE_S, (lat, lng, day, method)
        assert abs(_unix_s(ours["firstThird"]) - (peer["maghrib"] + night_s / 3)) <= TOLERANCE_S, (lat, day, method)
        assert abs(_unix_s(ours["midnight"]) - peer["middle"]) <= TOLERANCE_S  # the same night, halved


@pytest.mark.parametrize(("midnight", "start", "end"), [("sunsetToFajr", "sunset", "nextFajr"),
                                                        ("sunsetToSunrise", "sunset", "nextSunrise")])
def test_the_thirds_follow_the_requested_night(adhan_nights, midnight, start, end):
    """``midnight=`` chooses the night the thirds divide, as it chooses the night midnight halves."""
    for (lat, lng, day, method), peer in adhan_nights.items():
        if method != "Tehran":
            continue
        ours = _day(lat, lng, day, method=method, nightThirds=1, midnight=midnight)
        night_s = peer[end] - peer[start]
        for name, share in (("firstThird", 1 / 3), ("lastThird", 2 / 3)):
            assert abs(_unix_s(ours[name]) - (peer[start] + share * night_s)) <= TOLERANCE_S, (lat, day, name)


def test_a_method_whose_night_ends_at_the_same_dates_dawn_divides_that_night():
    """ImamAliFoundation's own night (sunsetToSameDayFajr): sunset → the same date's fajr + 24 h, computed here
    from the day's own sunset and fajr in the answer."""
    ours = _day(51.51, -0.13, "2026-11-28", method="ImamAliFoundation", nightThirds=1)
    sunset_s, fajr_s = _unix_s(ours["sunset"]), _unix_s(ours["fajr"])
    night_s = fajr_s + 86400 - sunset_s
    assert abs(_unix_s(ours["firstThird"]) - (sunset_s + night_s / 3)) <= 30
    assert abs(_unix_s(ours["lastThird"]) - (sunset_s + 2 * night_s / 3)) <= 30


def test_without_the_option_every_answer_stays_byte_for_byte():
    """The default (absent or 0) adds nothing: the SPEC's day, and the same bytes whether 0 is spelled out."""
    for query in ({"city": "karbala", "year": 2026, "month": 3}, {"lat": 51.5, "lng": -0.12, "date": "2026-11-28"}):
        plain = call("prayer-times", NOW, **query)
        assert call("prayer-times", NOW, **query, nightThirds=0) == plain
        assert b"Third" not in plain
        assert call("prayer-times.csv", NOW, **query, nightThirds=0) == call("prayer-times.csv", NOW, **query)


def test_a_night_without_its_maghrib_has_no_thirds():
    """highLatitudeRule=none at 70° N on 21 June: maghrib and fajr are never reached, so neither are the thirds
    (null, and listed in `unreached`), while the days around keep the times they have."""
    ours = _day(70.0, 25.0, "2026-06-21", tz="Europe/Oslo", nightThirds=1, highLatitudeRule="none")
    assert ours["firstThird"] is None and ours["lastThird"] is None
    assert ours["local"]["lastThird"] is None
    assert {"maghrib", "firstThird", "lastThird"} <= set(ours["unreached"])


def test_the_csv_carries_the_same_thirds_as_the_json():
    query = {"city": "london", "year": 2026, "month": 2, "nightThirds": 1}
    days = orjson.loads(call("prayer-times", NOW, **query))["days"]
    rows = list(csv.DictReader(io.StringIO(call("prayer-times.csv", NOW, **query).decode())))
    assert len(rows) == len(days) == 28
    for row, day in zip(rows, days):
        for name in ("firstThird", "lastThird"):
            assert row[f"{name}_utc"] == day[name] and row[name] == day["local"][name]
