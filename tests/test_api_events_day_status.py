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
from conftest import call

from generator.calendars import hijri

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
    assert all(set(e["details"]) == {"en", "ar", "fa", "ur"} and all(e["details"].values()) for e in detailed)


def test_the_martyrdoms_of_imam_al_sadiq_and_imam_al_askari_are_major(client):
    """issue 33 (language review 2026-11-28 fa FA-03 W): both are official mourning holidays in Iran's calendar (the
    reviewer) and great mourning days of the Shia year; ranked minor under a major Mubahala they read as a slight."""
    major = {e["id"] for e in client.get("/v1/events?importance=major").json()["events"]}
    assert {"martyrdom-imam-sadiq", "martyrdom-imam-askari"} <= major


def test_sayyida_ruqayya_is_a_martyrdom_in_the_type_and_every_language(client):
    """5 Safar is named a martyrdom by Shia calendars and majalis in all three languages
    (shared/reference/language_review.md, "Sayyida Ruqayya": Sibtayn Foundation «شهادة رقيّة بنت
    الحسين», IRNA and ISNA «روز شهادت حضرت رقیه (س)», Islam Times Urdu «یوم شہادت بی بی سکینہ (س)»),
    so the catalogue types it `martyrdom` and every title and detail says so (issue 22)."""
    martyrdoms = client.get("/v1/events?type=martyrdom&hm=2&details=1").json()["events"]
    ruqayya = next(e for e in martyrdoms if e["id"] == "death-sayyida-ruqayya")
    assert (ruqayya["hijriMonth"], ruqayya["hijriDay"], ruqayya["importance"]) == (2, 5, "minor")
    assert ruqayya["title"]["en"].startswith("Martyrdom of Sayyida Ruqayya")
    assert ruqayya["title"]["ar"].startswith("استشهاد السيدة رقية")
    assert ruqayya["title"]["fa"].startswith("شهادت حضرت رقیه")
    # issue 33 (language review 2026-11-28 ur UR-22 W): the subcontinent mourns Bibi Sakina on 13 Safar (Lahore's
    # Bibi Pak Daman gathers on its night, city42.tv 2024-08-22, cited by the reviewer); 5 Safar is Iran's day for
    # Ruqayya, so the Urdu title names Ruqayya and the details say where and when Sakina is mourned
    assert ruqayya["title"]["ur"] == "شہادتِ جنابِ رقیہ بنتِ الحسین (س)"
    assert "پاکستان اور ہندوستان میں بی بی سکینہ (س) کا سوگ تیرہ صفر کو منایا جاتا ہے" in ruqayya["details"]["ur"]
    assert "was martyred" in ruqayya["details"]["en"] and "استُشهدت" in ruqayya["details"]["ar"]
    assert "به شهادت رسید" in ruqayya["details"]["fa"] and "شہید ہوئیں" in ruqayya["details"]["ur"]
    words_of_a_death = ("died", "Death", "وفاة", "توفيت", "وفات", "درگذشت", "وفات پائی")
    texts = [*ruqayya["title"].values(), *ruqayya["details"].values()]
    assert not [w for w in words_of_a_death for text in texts if w in text]
    deaths = client.get("/v1/events?type=death").json()["events"]
    assert "death-sayyida-ruqayya" not in {e["id"] for e in deaths}
    # 5 Safar lies in the Muharram-Safar mourning season: a day of mourning before and after.
    day = _civil(1447, 2, 5, "moonsighting")
    assert _status(client, day, "moonsighting")["flags"]["mourning"] is True


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


# --- nights on the evening they begin (issue 10) -------------------------------------------
# A Hijri day begins at sunset, so the night of a Hijri date begins on the evening of the civil
# day before it.  References, independent of our code:
# * Iran's official calendar (Calendar Center, University of Tehran;
#   shared/reference/iran_hijri_month_starts.csv): 1 Rabi I 1448 = 2026-08-14, 1 Sha'ban 1448 =
#   2027-01-10, 1 Ramadan 1448 = 2027-02-08 (the example: 19 Ramadan 1448 = 26 Feb 2027,
#   its night the evening of 25 Feb).  Iranian calendars print "شب قدر" on civil days 18, 20
#   and 22 Ramadan (shared/reference/shia_events.md, PC).
# * The Sistani office's announcements (shared/reference/announced_month_starts.csv):
#   1 Ramadan 1446 = 2025-03-02 (shafaqna.com), 1 Ramadan 1447 = 2026-02-19 (kurdistan24.net).
NIGHTS_IRAN_1448 = {  # id: (the Hijri date's civil day, the eve on whose evening the night begins)
    "hijra": ("2026-08-14", "2026-08-13"),
    "night-of-mid-shaban": ("2027-01-24", "2027-01-23"),
    "night-of-qadr-19": ("2027-02-26", "2027-02-25"),
    "night-of-qadr-21": ("2027-02-28", "2027-02-27"),
    "night-of-qadr-23": ("2027-03-02", "2027-03-01"),
}
QADR_SISTANI = {  # hy: the three eves, from the announced 1 Ramadan
    1446: {"night-of-qadr-19": "2025-03-19", "night-of-qadr-21": "2025-03-21", "night-of-qadr-23": "2025-03-23"},
    1447: {"night-of-qadr-19": "2026-03-08", "night-of-qadr-21": "2026-03-10", "night-of-qadr-23": "2026-03-12"},
}


def _at(endpoint: str, now: datetime, **query) -> dict:
    """Return an endpoint's JSON at a fixed instant ``now`` (no HTTP), so "today" is known."""
    import json

    return json.loads(call(endpoint, now.timestamp(), **query))


def test_nights_are_marked_in_the_catalogue_and_day_events_are_unchanged(client):
    """The five nights of docs/decisions.md carry night: true; no other event has night or eveGregorian."""
    listed = client.get("/v1/events").json()["events"]
    assert {e["id"] for e in listed if e.get("night")} == set(NIGHTS_IRAN_1448)
    resolved = client.get("/v1/events?hy=1448&calendar=iran").json()["events"]
    for event in resolved:
        if event["id"] in NIGHTS_IRAN_1448:
            assert event["night"] is True and "eveGregorian" in event
        else:  # the pre-issue-10 shape, in the same key order
            assert list(event) == ["id", "hijriMonth", "hijriDay", "type", "importance", "title",
                                   *(["lastDayOfMonth"] if "lastDayOfMonth" in event else []),
                                   "hijriYear", "gregorian", "daysUntil", "source"], event["id"]


def test_nights_resolve_to_their_eves_under_iran():
    """Iran's official calendar: each night's eveGregorian is the civil day before its Hijri date."""
    now = datetime(2026, 11, 21, 12, tzinfo=timezone.utc)
    events = {e["id"]: e for e in _at("events", now, hy=1448, calendar="iran")["events"]}
    for event_id, (gregorian, eve) in NIGHTS_IRAN_1448.items():
        event = events[event_id]
        assert (event["gregorian"], event["eveGregorian"], event["source"]) == (gregorian, eve, "table"), event_id
        assert event["daysUntil"] == (date.fromisoformat(eve) - now.date()).days, event_id
    assert events["imam-ali-struck"]["gregorian"] == "2027-02-26"  # the day event of 19 Ramadan stays on its day
    assert events["imam-ali-struck"]["daysUntil"] == (date(2027, 2, 26) - now.date()).days


@pytest.mark.parametrize("hy", sorted(QADR_SISTANI))
def test_qadr_nights_resolve_to_their_eves_under_the_sistani_announcements(hy):
    events = {e["id"]: e for e in _at("events", datetime(2026, 11, 21, tzinfo=timezone.utc), hy=hy)["events"]}
    for event_id, eve in QADR_SISTANI[hy].items():
        assert events[event_id]["eveGregorian"] == eve and events[event_id]["source"] == "table", (hy, event_id)
        assert date.fromisoformat(events[event_id]["gregorian"]) - date.fromisoformat(eve) == timedelta(days=1)


def test_a_night_whose_eve_is_today_is_upcoming_with_days_until_zero():
    """On 25 Feb 2027 (Iran: 18 Ramadan 1448) the 19th night begins this evening; on the 26th it has begun."""
    eve = _at("events", datetime(2027, 2, 25, 8, tzinfo=timezone.utc), upcoming=3, calendar="iran")["events"]
    assert (eve[0]["id"], eve[0]["daysUntil"], eve[0]["eveGregorian"]) == ("night-of-qadr-19", 0, "2027-02-25")
    assert [e["id"] for e in eve[1:]] == ["imam-ali-struck", "night-of-qadr-21"]
    assert [e["daysUntil"] for e in eve[1:]] == [1, 2]
    day = _at("events", datetime(2027, 2, 26, 8, tzinfo=timezone.utc), upcoming=2, calendar="iran")["events"]
    assert [(e["id"], e["daysUntil"]) for e in day] == [("imam-ali-struck", 0), ("night-of-qadr-21", 1)]


def test_day_status_says_which_night_begins_tonight(client):
    """The issue's example: 25 Feb 2027 under iran is the eve of the 19th night of Ramadan."""
    eve = _status(client, "2027-02-25", "iran")
    assert eve["tonight"] == [{"id": "night-of-qadr-19", "title": eve["tonight"][0]["title"]}]
    assert eve["tonight"][0]["title"]["en"] == "Night of Qadr (19th night of Ramadan)"
    assert eve["flags"]["nightOfWorshipEve"] and eve["hijri"]["hd"] == 18
    day = _status(client, "2027-02-26", "iran")
    assert day["tonight"] == [] and not day["flags"]["nightOfWorshipEve"]
    assert "night-of-qadr-19" in {e["id"] for e in day["events"]}  # the Hijri date's events still list it
    plain = _status(client, _civil(1448, 6, 11, "iran"), "iran")
    assert plain["tonight"] == []


@pytest.mark.parametrize("calendar", ["moonsighting", "iran"])
def test_tonight_agrees_with_the_events_eves_and_night_of_worship_eve(calendar):
    """Every civil day of two Hijri years: ``tonight`` is exactly the nights whose eveGregorian is that day.

    The vigil nights (Qadr, mid-Sha'ban; WKS Ihya') always have nightOfWorshipEve; Laylat al-Mabit
    is remembered but is not a vigil night (docs/decisions.md), so its eve has tonight without it.
    """
    now = datetime(2026, 11, 21, tzinfo=timezone.utc)
    eves: dict[str, set[str]] = {}
    for hy in (1447, 1448):
        for event in _at("events", now, hy=hy, calendar=calendar)["events"]:
            if event.get("night"):
                eves.setdefault(event["eveGregorian"], set()).add(event["id"])
    # 1 Muharram 1447 to the day before the last of 1448: no night of 1447-1448 has its eve outside,
    # and no night of 1446 or 1449 has its eve inside (none is on 1 Muharram or 30 Dhu al-Hijja).
    first = date.fromisoformat(_civil(1447, 1, 1, calendar))
    last = date.fromisoformat(_civil(1449, 1, 1, calendar)) - timedelta(days=2)
    seen = 0
    day = first
    while day <= last:
        body = _at("day-status", now, date=day.isoformat(), calendar=calendar)
        ids = {n["id"] for n in body["tonight"]}
        assert ids == eves.get(day.isoformat(), set()), day
        if ids - {"hijra"}:
            assert body["flags"]["nightOfWorshipEve"], day
        seen += len(ids)
        day += timedelta(days=1)
    assert seen == 10  # five nights a year, two years


@pytest.mark.parametrize("when", [{"month": 7, "dya": 13}, {"from": [1, 1]}, {"weekday": "friday"},
                                  {"weekday": "friday", "which": "second"}])
def test_a_day_rule_the_service_cannot_read_is_refused_at_load(when):
    """data/day_rules.json is read into typed records once; a misspelt or half pattern is an error
    at start-up, never a rule that silently matches no day."""
    from generator.calendars import day_status

    with pytest.raises(ValueError, match="day_rules.json"):
        day_status.DayRule.of({"when": when, "basis": "test"})
    from generator.calendars import events

    emphasised = day_status.rules().fasting_emphasised  # the four of the year, each titled by a catalogue event
    assert len(emphasised) == 4 and {r.event for r in emphasised} <= {e["id"] for e in events.catalogue()}
