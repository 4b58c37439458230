"""GET /v1/events and GET /v1/day-status.

Iran's dates are checked against Iran's official lunar calendar (Calendar Center of the
Institute of Geophysics, University of Tehran; data/iran_hijri_month_starts.csv and the
1404 SH printed calendar): Ashura 1447 = 6 July 2025, Eid al-Fitr 1446 = 31 March 2025,
Eid al-Adha 1446 = 6 June 2025, 15 Sha'ban 1446 = 14 February 2025, 23 Ramadan 1446 =
24 March 2025.  The Sistani office announced 1 Ramadan 1446 = 2 March 2025 and Eid al-Fitr
= Monday 31 March 2025 (data/announced_month_starts.csv).  Flags are what Shia practice
prescribes for those days (shared/reference/shia_events.md; docs/decisions.md).
"""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from generator import hijri

OFFICIAL_IRAN = {
    "ashura": ("2025-07-06", 1447, 1, 10),
    "eid-al-fitr": ("2025-03-31", 1446, 10, 1),
    "eid-al-adha": ("2025-06-06", 1446, 12, 10),
    "mid-shaban": ("2025-02-14", 1446, 8, 15),
    "qadr-23": ("2025-03-24", 1446, 9, 23),
}
SISTANI = {"first-ramadan": ("2025-03-02", 1446, 9, 1), "eid-al-fitr": ("2025-03-31", 1446, 10, 1)}


def _status(client, day, calendar):
    response = client.get("/v1/day-status", params={"date": day, "calendar": calendar})
    assert response.status_code == 200, response.text
    return response.json()


def _civil(hy, hm, hd, calendar):
    return str(date(1970, 1, 1) + timedelta(days=int(hijri.to_gregorian(hy, hm, hd, calendar))))


@pytest.mark.parametrize("name", sorted(OFFICIAL_IRAN))
def test_iran_dates_match_the_official_calendar(client, name):
    gregorian, hy, hm, hd = OFFICIAL_IRAN[name]
    body = _status(client, gregorian, "iran")
    assert body["hijri"]["hy"] == hy and body["hijri"]["hm"] == hm and body["hijri"]["hd"] == hd
    assert body["source"] == "table" and body["calendarUsed"] == "iran"


@pytest.mark.parametrize("name", sorted(SISTANI))
def test_moonsighting_dates_match_the_sistani_announcements(client, name):
    gregorian, hy, hm, hd = SISTANI[name]
    body = _status(client, gregorian, "moonsighting")
    assert (body["hijri"]["hy"], body["hijri"]["hm"], body["hijri"]["hd"]) == (hy, hm, hd)
    assert body["source"] == "table"


@pytest.mark.parametrize("calendar", ["moonsighting", "iran"])
def test_ashura(client, calendar):
    body = _status(client, _civil(1447, 1, 10, calendar), calendar)
    flags = body["flags"]
    assert "ashura" in [e["id"] for e in body["events"]]
    assert flags["mourning"] and flags["ashuraImsak"] and flags["season"] == {"id": "muharram-safar", "kind": "mourning"}
    assert not flags["fastingRecommended"] and not flags["eid"] and not flags["fastingForbidden"]


@pytest.mark.parametrize("calendar", ["moonsighting", "iran"])
@pytest.mark.parametrize("hy, hm, hd, event", [(1446, 10, 1, "eid-al-fitr"), (1446, 12, 10, "eid-al-adha")])
def test_the_two_eids(client, calendar, hy, hm, hd, event):
    body = _status(client, _civil(hy, hm, hd, calendar), calendar)
    flags = body["flags"]
    assert event in [e["id"] for e in body["events"]]
    assert flags["eid"] and flags["fastingForbidden"] and not flags["fastingRecommended"] and not flags["mourning"]


@pytest.mark.parametrize("calendar", ["moonsighting", "iran"])
def test_mid_shaban_and_its_eve(client, calendar):
    day = _status(client, _civil(1446, 8, 15, calendar), calendar)
    assert {"birth-imam-mahdi", "night-of-mid-shaban"} <= {e["id"] for e in day["events"]}
    assert day["flags"]["fastingRecommended"] and day["flags"]["season"]["kind"] == "worship"
    eve = _status(client, _civil(1446, 8, 14, calendar), calendar)
    assert eve["flags"]["nightOfWorshipEve"] and not day["flags"]["nightOfWorshipEve"]


@pytest.mark.parametrize("calendar", ["moonsighting", "iran"])
def test_23_ramadan_and_the_qadr_eves(client, calendar):
    day = _status(client, _civil(1446, 9, 23, calendar), calendar)
    assert "night-of-qadr-23" in [e["id"] for e in day["events"]]
    assert day["flags"]["season"] == {"id": "ramadan", "kind": "worship"} and not day["flags"]["fastingRecommended"]
    for hd in (18, 20, 22):
        assert _status(client, _civil(1446, 9, hd, calendar), calendar)["flags"]["nightOfWorshipEve"]
    assert not _status(client, _civil(1446, 9, 17, calendar), calendar)["flags"]["nightOfWorshipEve"]


@pytest.mark.parametrize("calendar", ["moonsighting", "iran"])
def test_a_plain_day(client, calendar):
    body = _status(client, _civil(1448, 6, 11, calendar), calendar)  # 11 Jumada II: no rule applies
    assert body["events"] == [] and body["flags"] == {
        "mourning": False, "season": None, "eid": False, "fastingRecommended": False, "fastingForbidden": False,
        "ashuraImsak": False, "nightOfWorshipEve": False,
    }
    assert set(body["hijri"]["monthName"]) == {"en", "ar", "fa", "ur"}


def test_day_status_defaults_to_today_and_rejects_bad_input(client):
    response = client.get("/v1/day-status")
    assert response.status_code == 200 and response.headers["cache-control"] == "public, max-age=300"
    for query in ("date=2025-13-01", "calendar=shia", "date=1800-01-01", "x=1"):
        bad = client.get("/v1/day-status?" + query)
        assert bad.status_code == 400 and bad.json()["error"].split(":")[0] in ("date", "calendar", "x")


# --- /v1/events ---------------------------------------------------------------------------


def test_catalogue_lists_73_events_with_four_language_titles(client):
    events = client.get("/v1/events").json()["events"]
    assert len(events) == 73 and len({e["id"] for e in events}) == 73
    for e in events:
        assert set(e) >= {"id", "hijriMonth", "hijriDay", "type", "importance", "title"}
        assert set(e["title"]) == {"en", "ar", "fa", "ur"} and all(e["title"].values())
        assert "details" not in e


def test_filters_and_details(client):
    muharram = client.get("/v1/events?hm=1").json()["events"]
    assert muharram and all(e["hijriMonth"] == 1 for e in muharram)
    major = client.get("/v1/events?importance=major&type=martyrdom").json()["events"]
    assert major and all(e["importance"] == "major" and e["type"] == "martyrdom" for e in major)
    detailed = client.get("/v1/events?hm=12&details=1").json()["events"]
    assert all(set(e["details"]) == {"en", "ar", "fa"} and all(e["details"].values()) for e in detailed)


def test_resolving_to_a_year_under_iran(client):
    events = {e["id"]: e for e in client.get("/v1/events?hy=1447&calendar=iran").json()["events"]}
    assert events["ashura"]["gregorian"] == "2025-07-06" and events["ashura"]["source"] == "table"
    assert events["ashura"]["hijriYear"] == 1447
    safar_start = _civil(1447, 2, 1, "iran")
    safar_length = int(hijri.month_length(1447, 2, "iran"))
    last_of_safar = str(date.fromisoformat(safar_start) + timedelta(days=safar_length - 1))
    assert events["martyrdom-imam-reza"]["gregorian"] == last_of_safar  # "end of Safar", Iran's holiday
    assert events["martyrdom-imam-reza"]["lastDayOfMonth"] is True
    today = datetime.now(timezone.utc).date()
    assert events["ashura"]["daysUntil"] == (date(2025, 7, 6) - today).days


def test_a_day_30_event_is_null_in_a_29_day_month(client):
    # No catalogue event other than the two "last day" ones is on day 30, so check the rule on them:
    # in a 29-day month they move to the 29th rather than vanish.
    for hy in range(1440, 1450):
        if int(hijri.month_length(hy, 11, "iran")) == 29:
            events = {e["id"]: e for e in client.get(f"/v1/events?hy={hy}&calendar=iran&hm=11").json()["events"]}
            assert events["martyrdom-imam-jawad"]["gregorian"] == _civil(hy, 11, 29, "iran")
            break
    else:
        pytest.fail("no 29-day Dhu al-Qa'da in 1440-1449")


def test_upcoming(client):
    events = client.get("/v1/events?upcoming=10").json()["events"]
    assert len(events) == 10
    days = [e["daysUntil"] for e in events]
    assert days == sorted(days) and days[0] >= 0
    major = client.get("/v1/events?upcoming=3&importance=major").json()["events"]
    assert all(e["importance"] == "major" for e in major)


@pytest.mark.parametrize("query", ["hm=13", "hm=0", "hy=1316", "hy=1524", "upcoming=0", "upcoming=74", "importance=trivial",
                                   "type=feast", "details=2", "calendar=umm", "hy=1447&upcoming=3", "x=y"])
def test_events_bad_input(client, query):
    response = client.get("/v1/events?" + query)
    assert response.status_code == 400
    assert response.json()["error"].split(":")[0] in ("hm", "hy", "upcoming", "importance", "type", "details",
                                                      "calendar", "x")
