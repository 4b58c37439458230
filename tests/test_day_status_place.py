"""/v1/day-status for a place or a zone (issue 33: nights on the evening they begin; issue 35: one call
for a main screen).

Independent references:
* the Sistani office's announcement of 1 Ramadan 1447 = Thursday 19 February 2026, read here from its row
  of data/announced_month_starts.csv (source: kurdistan24.net, reported 18 February), and the rule that the
  night of a Hijri date begins at sunset of the civil day before it (Mafatih al-Jinan; "the night of the
  21st" is the evening of the 20th): so the 21st night of Ramadan 1447 begins on the evening of
  19 Feb + 19 days = 10 March 2026 and ends at the fajr of 11 March;
* the Sun's positions from astronomy-engine (Don Cross, the Python package): sunset is the Sun's centre
  0.833° below the horizon (refraction and the Sun's radius, as almanacs define it), fajr 17.7° before
  sunrise (the Tehran preset, data/methods.json), dhuhr the Sun's transit; the service's instants are whole
  minutes, so they agree within 1.5 minutes;
* Python's zoneinfo for the local date (Apia, UTC+13 in November 2026).
"""
from __future__ import annotations

import csv
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import astronomy
import orjson
import pytest
from conftest import call

KARBALA = {"lat": 32.62, "lng": 44.02}  # data/cities.csv "karbala", rounded as the API rounds (SPEC 2.1)
ANNOUNCED = Path(__file__).resolve().parents[1] / "data" / "announced_month_starts.csv"
TOLERANCE_S = 90  # whole-minute instants against the unrounded Sun


def _announced_start(hy: int, hm: int, authority: str) -> date:
    with ANNOUNCED.open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle)
                if (int(r["hy"]), int(r["hm"]), r["authority_id"]) == (hy, hm, authority)]
    assert len(rows) == 1, rows
    return date.fromisoformat(rows[0]["gregorian_start"])


RAMADAN_1447 = _announced_start(1447, 9, "sistani")
EVE_OF_21 = RAMADAN_1447 + timedelta(days=21 - 1 - 1)  # the 21st day's civil date, minus one: its eve
NOW = datetime(2026, 11, 28, 19, 0, tzinfo=timezone.utc).timestamp()


def _ask(client, **query) -> dict:
    response = client.get("/v1/day-status", params=query)
    assert response.status_code == 200, response.text
    return response.json()


def _instant(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def _sun(day: date, lat: float, lng: float) -> dict[str, datetime]:
    """Dhuhr, sunset (0.833° below) and the next day's fajr (17.7° below) at a place, from astronomy-engine."""
    observer = astronomy.Observer(lat, lng, 0)
    noon_guess = astronomy.Time.Make(day.year, day.month, day.day, 12, 0, 0).AddDays(-lng / 360)
    transit = astronomy.SearchHourAngle(astronomy.Body.Sun, observer, 0.0, noon_guess.AddDays(-0.5)).time
    sunset = astronomy.SearchAltitude(astronomy.Body.Sun, observer, astronomy.Direction.Set, transit, 1, -0.8333)
    fajr = astronomy.SearchAltitude(astronomy.Body.Sun, observer, astronomy.Direction.Rise, sunset, 1, -17.7)
    return {name: t.Utc().replace(tzinfo=timezone.utc) for name, t in
            (("dhuhr", transit), ("sunset", sunset), ("fajr", fajr))}


def _close(text: str, expected: datetime) -> bool:
    return abs((_instant(text) - expected).total_seconds()) <= TOLERANCE_S


def test_the_21st_night_is_tonight_on_its_eve_and_never_on_the_day_after(client):
    """Issue 33: on 10 March 2026 (20 Ramadan) at Karbala the 21st night is `tonight`, named from the eve's
    dhuhr, beginning at sunset and ending at the next fajr; on 11 March (21 Ramadan) it is neither tonight nor
    among the day's events (the old answer had no place: 400, and listed it under the 11th's events)."""
    assert EVE_OF_21 == date(2026, 3, 10)
    eve = _ask(client, date=EVE_OF_21.isoformat(), city="karbala")
    assert [n["id"] for n in eve["tonight"]] == ["night-of-qadr-21"]
    assert (eve["hijri"]["hm"], eve["hijri"]["hd"]) == (9, 20)
    assert (eve["hijriChange"]["hijri"]["hm"], eve["hijriChange"]["hijri"]["hd"]) == (9, 21)
    [night] = eve["nights"]  # the 20th night (ended at this dawn) is no catalogue night
    sun = _sun(EVE_OF_21, **KARBALA)
    assert night["id"] == "night-of-qadr-21" and night["eve"] == "2026-03-10"
    assert night["hijri"] == {"hy": 1447, "hm": 9, "hd": 21}
    assert _close(night["namedFrom"], sun["dhuhr"]) and _close(night["begins"], sun["sunset"])
    assert _close(night["ends"], sun["fajr"]) and eve["hijriChange"]["at"] == night["begins"]
    assert night["title"]["en"] == "Night of Qadr (21st night of Ramadan)"

    day_after = _ask(client, date="2026-03-11", city="karbala")
    assert day_after["tonight"] == []
    assert [e["id"] for e in day_after["events"]] == ["martyrdom-imam-ali"]  # Imam Ali's martyrdom, a day event
    # it is named only as the night that ended at this day's dawn, with that dawn
    [past] = day_after["nights"]
    assert past["id"] == "night-of-qadr-21" and _instant(past["ends"]) <= sun["fajr"] + timedelta(seconds=TOLERANCE_S)
    assert _instant(past["ends"]).astimezone(ZoneInfo("Asia/Baghdad")).date() == date(2026, 3, 11)
    assert _instant(past["ends"]).astimezone(ZoneInfo("Asia/Baghdad")).hour < 6


def test_the_answer_without_a_place_keeps_the_spec(client):
    """SPEC 4.9/2.9: with no place, zone or offset the answer is the SPEC's, byte for byte; the defaults of the
    new parameters sent alone change nothing (a generated client sends them)."""
    plain = client.get("/v1/day-status?date=2026-03-11")
    assert client.get("/v1/day-status?date=2026-03-11&offset=0&method=Tehran").content == plain.content
    body = plain.json()
    assert list(body) == ["date", "weekday", "calendarUsed", "source", "hijri", "events", "tonight", "flags"]
    assert "night-of-qadr-21" in {e["id"] for e in body["events"]}  # the Hijri date's events, as the SPEC lists


def test_the_hijri_date_changes_at_the_places_sunset(client):
    """`hijriChange.at` is the place's sunset (astronomy-engine); `hijri` is the date before it,
    `hijriChange.hijri` the next civil day's (the day-status of 2 December without a place). The method moves
    only the fajr that ends a night (Jafari 16°, Tehran 17.7°: Jafari's is later)."""
    body = _ask(client, date="2026-12-01", lat=51.51, lng=-0.13)
    assert body["tz"] == "Europe/London" and body["place"] == {"lat": 51.51, "lng": -0.13}
    assert _close(body["hijriChange"]["at"], _sun(date(2026, 12, 1), 51.51, -0.13)["sunset"])
    before, after = _ask(client, date="2026-12-01"), _ask(client, date="2026-12-02")
    assert body["hijri"] == before["hijri"] and body["hijriChange"]["hijri"] == after["hijri"]
    assert body["method"] == "Tehran"
    eve = _ask(client, date=EVE_OF_21.isoformat(), city="karbala")
    jafari = _ask(client, date=EVE_OF_21.isoformat(), city="karbala", method="Jafari")
    assert jafari["method"] == "Jafari" and jafari["hijriChange"] == eve["hijriChange"]
    assert _instant(jafari["nights"][0]["ends"]) > _instant(eve["nights"][0]["ends"])


def test_the_default_date_is_todays_in_the_zone_at_the_date_line(client):
    """Issue 35: at 2026-11-28T19:00Z it is 08:00 on 29 November in Apia (zoneinfo); UTC's date is the 28th."""
    assert datetime.fromtimestamp(NOW, ZoneInfo("Pacific/Apia")).date() == date(2026, 11, 29)
    assert call("day-status", NOW).startswith(b'{"date":"2026-11-28"')
    zoned = call("day-status", NOW, tz="Pacific/Apia")
    assert zoned.startswith(b'{"date":"2026-11-29"') and b'"tz":"Pacific/Apia"' in zoned
    at_apia = call("day-status", NOW, lat=-13.83, lng=-171.76)  # the zone at the coordinates
    assert at_apia.startswith(b'{"date":"2026-11-29"') and b'"tz":"Pacific/Apia"' in at_apia


@pytest.mark.parametrize("lat, lng, tz", [(-13.83, -171.76, "Pacific/Apia"), (-21.14, -175.2, "Pacific/Tongatapu"),
                                          (1.87, -157.4, "Pacific/Kiritimati"), (-17.71, 178.07, "Pacific/Fiji")])
def test_the_instants_are_on_the_local_day_asked_at_the_date_line(client, lat, lng, tz):
    """Issue 35: at UTC+13/+14 west of 180° a day's computed times fell on the next local day; the Hijri date's
    change and a night's instants are on the local dates they name (zoneinfo), and equal to astronomy-engine's
    sunset of that local date. 15 Sha'ban 1448's night (mid-Sha'ban) is on the evening before 15 Sha'ban."""
    day = date(2026, 11, 28)
    body = _ask(client, date=day.isoformat(), lat=lat, lng=lng)
    assert body["tz"] == tz
    change = _instant(body["hijriChange"]["at"]).astimezone(ZoneInfo(tz))
    assert change.date() == day and 17 <= change.hour <= 20, change
    observer = astronomy.Observer(lat, lng, 0)
    local_noon = datetime(2026, 11, 28, 12, tzinfo=ZoneInfo(tz)).astimezone(timezone.utc)
    sunset = astronomy.SearchAltitude(astronomy.Body.Sun, observer, astronomy.Direction.Set,
                                      astronomy.Time.Make(*local_noon.timetuple()[:6]), 1, -0.8333)
    assert _close(body["hijriChange"]["at"], sunset.Utc().replace(tzinfo=timezone.utc))
    eve = client.get("/v1/events", params={"hy": 1448, "hm": 8}).json()["events"]
    eve_day = next(e["eveGregorian"] for e in eve if e["id"] == "night-of-mid-shaban")
    [night] = [n for n in _ask(client, date=eve_day, lat=lat, lng=lng)["nights"] if n["eve"] == eve_day]
    for key, local_date in (("namedFrom", eve_day), ("begins", eve_day)):
        assert _instant(night[key]).astimezone(ZoneInfo(tz)).date().isoformat() == local_date, (key, night)
    ends = _instant(night["ends"]).astimezone(ZoneInfo(tz))
    assert ends.date() == date.fromisoformat(eve_day) + timedelta(days=1) and ends.hour < 7, night


@pytest.mark.parametrize("offset", [-1, 1])
def test_offset_follows_a_community_a_day_apart(client, offset):
    """A community whose Ramadan began a day later (offset −1) keeps the 21st night on the evening of
    11 March; one a day earlier (+1) on the 9th: the announced start, moved by the offset."""
    eve = (EVE_OF_21 - timedelta(days=offset)).isoformat()
    body = _ask(client, date=eve, city="karbala", offset=offset)
    assert body["offset"] == offset and [n["id"] for n in body["tonight"]] == ["night-of-qadr-21"]
    assert body["nights"][-1]["eve"] == eve
    shifted = _ask(client, date="2026-03-11", offset=offset)  # without a place too
    assert shifted["hijri"]["hd"] == 21 + offset


@pytest.mark.parametrize("query, parameter", [
    ("tz=Mars/Base", "tz"), ("offset=3", "offset"), ("offset=x", "offset"), ("method=Jafari", "method"),
    ("lat=32.6", "lng"), ("lng=44", "lat"), ("city=nowhere", "city"), ("city=karbala&lat=1&lng=1", "city"),
    ("city=karbala&method=Nope", "method"), ("tz=Asia/Baghdad&method=Jafari", "method"),
])
def test_bad_input_is_a_400_naming_the_parameter(client, query, parameter):
    response = client.get("/v1/day-status?date=2026-03-10&" + query)
    assert response.status_code == 400 and response.json()["error"].startswith(parameter + ":"), response.text


@pytest.mark.parametrize("offset", [-1, 1])
def test_events_offset_moves_the_dated_events_of_a_community_a_day_apart(client, offset):
    """/v1/events?hy=1447 with offset: the 21st night's eve and Imam Ali's martyrdom move by −offset days from
    the announced dates (eve 10 March, day 11 March 2026); without hy or upcoming an offset is a 400."""
    body = client.get("/v1/events", params={"hy": 1447, "offset": offset}).json()["events"]
    by_id = {e["id"]: e for e in body}
    moved = timedelta(days=-offset)
    assert by_id["night-of-qadr-21"]["eveGregorian"] == (EVE_OF_21 + moved).isoformat()
    assert by_id["martyrdom-imam-ali"]["gregorian"] == (EVE_OF_21 + timedelta(days=1) + moved).isoformat()
    plain = client.get("/v1/events?hy=1447").content
    assert client.get("/v1/events?hy=1447&offset=0").content == plain
    bad = client.get("/v1/events", params={"offset": offset})
    assert bad.status_code == 400 and bad.json()["error"].startswith("offset:")


def test_with_a_place_no_night_is_an_event_and_each_is_named_only_from_its_eve_to_its_dawn():
    """Every civil day of Rajab to Ramadan 1447 at Karbala (five catalogue nights: mid-Sha'ban, three of Qadr):
    `events` never holds a night; each night in `nights` has its eve on the day or the day before, is named from
    the eve's local noon hours (dhuhr) and ends on the next local morning (fajr before 06:00), and the nights
    begun at a day's sunset are exactly its `tonight`. The eves are the Hijri dates minus one day (the rule)."""
    first, last = date(2026, 1, 1), date(2026, 3, 20)
    night_ids = {"night-of-mid-shaban", "night-of-qadr-19", "night-of-qadr-21", "night-of-qadr-23"}
    zone, seen = ZoneInfo("Asia/Baghdad"), set()
    day = first
    while day <= last:
        body = orjson.loads(call("day-status", NOW, date=day.isoformat(), city="karbala"))
        assert not {e["id"] for e in body["events"]} & night_ids, day
        for night in body["nights"]:
            eve = date.fromisoformat(night["eve"])
            assert eve in (day - timedelta(days=1), day), (day, night)
            named, ends = (_instant(night[k]).astimezone(zone) for k in ("namedFrom", "ends"))
            assert named.date() == eve and 11 <= named.hour < 13, night
            assert ends.date() == eve + timedelta(days=1) and ends.hour < 6, night
            seen.add((night["id"], night["eve"]))
        assert [n["id"] for n in body["tonight"]] == [n["id"] for n in body["nights"] if n["eve"] == day.isoformat()]
        day += timedelta(days=1)
    assert {i for i, _ in seen} == night_ids and len(seen) == 4
    assert ("night-of-qadr-21", EVE_OF_21.isoformat()) in seen
