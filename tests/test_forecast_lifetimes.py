"""A Hijri forecast is reused for hours, an announced answer for a week (issue 35).

Before, an answer stating a month no announcement had fixed (`source: computed`) was sent with
`max-age=604800`: after a Ramadan or Eid announcement, caches and apps kept the old date for a week.
The rule (docs/decisions.md "Lifetime of a Hijri forecast"): a forecast may be reused until 12:00 UTC of
the 29th day of the current Hijri month (the evening the next month's crescent is looked for), at most
6 hours; the reference dates below are those of the service's own month maps (the reverse /v1/hijri),
the rule applied to them by hand.
"""
from __future__ import annotations

import re
from datetime import date, datetime, timezone

import pytest

from generator.calendars import hijri

WEEK = "public, max-age=604800"
SIX_HOURS_S = 6 * 3600


def _max_age_s(response) -> int:
    found = re.fullmatch(r"public, max-age=(\d+)", response.headers["cache-control"])
    assert found, response.headers["cache-control"]
    return int(found.group(1))


def _unix_s(day: date, hour: int, minute: int = 0) -> float:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc).timestamp()


def test_the_lifetime_runs_to_the_sighting_evening_and_never_beyond_six_hours(client):
    """Moonsighting, Jumada II 1448 (a computed month): its 29th from the month map; 2 h before 12:00 UTC that
    day the lifetime is 2 h, a week before it 6 h (the cap), and after 12:00 UTC (the evening has come, the
    announcement may be recorded any time) 6 h again; a lifetime is never under a minute."""
    month = client.get("/v1/hijri", params={"hy": 1448, "hm": 6}).json()
    assert month["source"] == "computed"
    day_29 = date.fromisoformat(month["days"]["29"])
    assert hijri.forecast_max_age_s(_unix_s(day_29, 10), "moonsighting") == 2 * 3600
    assert hijri.forecast_max_age_s(_unix_s(day_29, 11, 59) + 59.5, "moonsighting") == 60
    assert hijri.forecast_max_age_s(_unix_s(day_29, 3), "moonsighting") == SIX_HOURS_S
    assert hijri.forecast_max_age_s(_unix_s(day_29, 12, 1), "moonsighting") == SIX_HOURS_S
    assert hijri.forecast_max_age_s(_unix_s(date.fromisoformat(month["days"]["17"]), 9), "moonsighting") == SIX_HOURS_S


def test_a_span_is_a_forecast_when_any_of_its_months_is_computed():
    """1447/9 and 1447/10 were announced by the Sistani office (data/announced_month_starts.csv); 1448/6 is not."""
    ramadan_1447 = int(hijri.month_start(1447, 9))
    assert not hijri.forecast_within(ramadan_1447, ramadan_1447 + 40, "moonsighting")
    assert hijri.forecast_within(ramadan_1447, int(hijri.month_start(1448, 6)), "moonsighting")
    assert not hijri.forecast_within(int(hijri.month_start(1448, 6)), int(hijri.month_start(1448, 7)), "iran")


@pytest.mark.parametrize(("path", "query", "forecast"), [
    ("/v1/hijri", {"hy": 1448, "hm": 6}, True),
    ("/v1/hijri", {"hy": 1447, "hm": 9}, False),
    ("/v1/hijri", {"hy": 1448, "hm": 6, "calendar": "iran"}, False),  # Iran's official table is published
    ("/v1/hijri", {"year": 2026}, True),
    ("/v1/hijri", {"date": "2026-03-20"}, False),
    ("/v1/hijri", {"date": "2026-12-20", "calendar": "pakistan"}, True),
    ("/v1/day-status", {"date": "2026-12-20"}, True),
    ("/v1/day-status", {"date": "2026-03-20"}, False),
    ("/v1/moon-visibility", {"hy": 1448, "hm": 9, "lat": 32.6, "lng": 44.0}, True),
    ("/v1/moon-visibility", {"hy": 1447, "hm": 10, "lat": 32.6, "lng": 44.0}, False),
    ("/v1/prayer-times", {"city": "london", "date": "2027-03-10", "eid": "07:30"}, True),
    ("/v1/prayer-times", {"city": "london", "date": "2027-03-10"}, False),  # states no Hijri date
    ("/v1/prayer-times.csv", {"city": "london", "year": 2027, "month": 3, "jamaatRamadan": "isha:21:00",
                              "jamaat": "isha:10"}, True),
])
def test_forecast_answers_are_reused_hours_and_announced_ones_a_week(client, path, query, forecast):
    response = client.get(path, params=query)
    assert response.status_code == 200, response.text[:200]
    if forecast:
        assert 60 <= _max_age_s(response) <= SIX_HOURS_S
    else:
        assert response.headers["cache-control"] == WEEK


def test_a_crescent_page_of_a_forecast_month_is_reused_hours_and_an_announced_ones_a_day(client):
    """/moon/<hy>-<hm>/ states the month's start under moonsighting: 1448/9 is computed, 1447/10 was announced
    (so was 1447/9, whose page tests/test_site.py finds with a day's lifetime)."""
    forecast, announced = client.get("/moon/1448-9/"), client.get("/moon/1447-10/ar/")
    assert forecast.status_code == announced.status_code == 200
    assert 60 <= _max_age_s(forecast) <= SIX_HOURS_S
    assert announced.headers["cache-control"] == "public, max-age=86400"


def test_answers_that_follow_today_keep_their_five_minutes(client):
    """Today's date under a computed month: the five minutes of an answer that follows today (shorter still)."""
    response = client.get("/v1/day-status")
    assert response.status_code == 200 and response.headers["cache-control"] == "public, max-age=300"


@pytest.mark.parametrize(("relative", "forecast"), [
    ("v1/hijri/calendar=moonsighting&hm=6&hy=1448.json", True),
    ("v1/hijri/calendar=moonsighting&hm=9&hy=1447.json", False),  # announced (Sistani office)
    ("v1/hijri/calendar=iran&hm=6&hy=1448.json", False),  # Iran's official table is published
    ("v1/day-status/calendar=moonsighting&date=2026-12-20.json", True),
    ("v1/day-status/calendar=moonsighting&date=2026-03-20.json", False),
    ("v1/prayer-times/city=london&year=2026.json", False),  # states no Hijri date
    ("v1/methods.json", False),
    ("v1/hijri/calendar=nowhere&hy=1448.json", False),  # no answer's name
    ("v1/hijri/_/0123abcd.json", False),  # a hashed name: only the app reads it
    ("moon/1448-9/index.html", True),
    ("moon/1448-9/ur/index.html", True),
    ("moon/1447-10/index.html", False),
    ("_today/2026-12-20/index.html", False),  # follows today: five minutes anyway
    ("robots.txt", False),
])
def test_which_files_the_publication_marks_as_forecasts(relative, forecast):
    """`states_forecast` (what deploy/publish.py marks with ``<file>.forecast``, generator/site/lifetimes.py) says a
    file states a forecast exactly when the app gives its answer the hours of one (the parametrised answers above,
    by the same months: data/announced_month_starts.csv has 1447/9 and 1447/10, not 1448/6 or 1448/9), whatever the
    hour: the same verdict at 03:00 UTC and at 12:30 UTC of 1448/6's 29th."""
    from generator.site.lifetimes import states_forecast

    month = hijri.month_start(1448, 6, "moonsighting")
    for now_s in (_unix_s(date(2026, 12, 1), 3), (int(month) + 28) * 86400 + 12.5 * 3600):
        assert states_forecast(relative, now_s) is forecast, (relative, now_s)
