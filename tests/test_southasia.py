"""The South Asian reckonings `pakistan` and `india` (issue 26): every announced row served as
announced, the fitted rule's leave-one-year-out agreement, every endpoint taking the new values,
bad values refused, and announce.py recording their rows.

References: the rows of data/month_starts/pakistan.csv and india.csv, each with the report that
states the date (URL, quote, dates; data/SOURCES-HIJRI.md).  The expected values are read from
those files here, with the rule on which rows count written again in this test (a row the Shia
did not follow is skipped; the Shia's own body overrides Pakistan's national committee), never
from our own output.  Ashura 1442 in Pakistan on Sunday 30 August 2020 is the date Samaa TV's
report of the committee's decision prints ("Youm-e-Ashur on August 30", the row's source).
"""
from __future__ import annotations

import csv
from datetime import date, timedelta

import numpy as np
import pytest

import announce
from generator.calendars import hijri, hijri_calibration, hijri_regions

from conftest import assert_bad_request

CALENDARS = ("pakistan", "india")
COLUMNS = ["hy", "hm", "gregorian_start", "decided_by", "shia_followed", "source", "quote", "reported", "read"]
NATIONAL = {"pakistan": "ruet-e-hilal"}
# Documented in docs/hijri.md (issue 26): held-out (leave one Hijri year out) agreement of each
# fitted rule with the announced months; a new row the rule misses may lower it, and then the
# documented figure must be revised with it.
LEAVE_ONE_YEAR_OUT_AT_LEAST = {"pakistan": 101 / 117, "india": 45 / 46}
MIN_ROWS = {"pakistan": 117, "india": 46}


def _rows(calendar: str) -> list[dict]:
    with (hijri_regions.MONTH_STARTS_DIR / f"{calendar}.csv").open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == COLUMNS
        return list(reader)


def _kept(calendar: str) -> dict[tuple[int, int], dict]:
    """The day each month's Shia kept, by the file's rows (the rule written again here)."""
    kept: dict[tuple[int, int], dict] = {}
    for row in _rows(calendar):
        if row["shia_followed"] == "no":
            continue
        key = (int(row["hy"]), int(row["hm"]))
        own = row["decided_by"] != NATIONAL.get(calendar)
        if key not in kept or (own and kept[key]["decided_by"] == NATIONAL.get(calendar)):
            kept[key] = row
    return kept


def _day(iso: str) -> int:
    return (date.fromisoformat(iso) - date(1970, 1, 1)).days


# --- the data -------------------------------------------------------------------------------


@pytest.mark.parametrize("calendar", CALENDARS)
def test_the_rows_are_well_formed(calendar):
    """Header, real dates, Hijri month 1..12, an http(s) source with a quote of at most 200 characters, the
    report no later than day 1 (a month's decision is reported on its eve or its day 1) and read after it."""
    rows = _rows(calendar)
    assert len(rows) >= MIN_ROWS[calendar]
    for row in rows:
        assert 1 <= int(row["hm"]) <= 12 and 1430 <= int(row["hy"]) <= 1448, row
        start = date.fromisoformat(row["gregorian_start"])
        announce.check_source(row["source"])
        assert 0 < len(row["quote"]) <= 200, row
        assert row["shia_followed"] in ("yes", "no", "unknown"), row
        if row["reported"]:
            assert timedelta(days=-40) <= date.fromisoformat(row["reported"]) - start <= timedelta(days=40), row
        assert date.fromisoformat(row["read"]) >= start, row
    if calendar == "india":
        assert all(row["shia_followed"] == "yes" for row in rows)


@pytest.mark.parametrize("calendar", CALENDARS)
def test_every_announced_row_is_served_as_announced(client, calendar):
    """/v1/hijri?date=<day 1>&calendar=… is day 1 of the announced month from the table, naming the body
    that announced it; the day before is the last (29th or 30th) of the month before."""
    kept = _kept(calendar)
    assert len(kept) >= MIN_ROWS[calendar]
    for (hy, hm), row in kept.items():
        body = client.get("/v1/hijri", params={"calendar": calendar, "date": row["gregorian_start"]}).json()
        assert body["hijri"] == {"year": hy, "month": hm, "day": 1}, row
        assert body["calendarUsed"] == calendar and body["source"] == "table", row
        assert body["authority"] == row["decided_by"], row
        eve = (date.fromisoformat(row["gregorian_start"]) - timedelta(days=1)).isoformat()
        before = client.get("/v1/hijri", params={"calendar": calendar, "date": eve}).json()["hijri"]
        assert before["day"] in (29, 30) and before["month"] == (hm - 2) % 12 + 1, row
        month = client.get("/v1/hijri", params={"calendar": calendar, "hy": hy, "hm": hm}).json()
        assert month["start"] == row["gregorian_start"] and month["authority"] == row["decided_by"], row


def test_ashura_1442_in_pakistan_is_the_reported_day(client):
    """The committee's 1442/1 decision (Samaa TV, 2020-08-20): "Youm-e-Ashur on August 30"."""
    body = client.get("/v1/day-status", params={"calendar": "pakistan", "date": "2020-08-30"}).json()
    assert (body["hijri"]["hy"], body["hijri"]["hm"], body["hijri"]["hd"]) == (1442, 1, 10)
    assert "ashura" in [e["id"] for e in body["events"]]


@pytest.mark.parametrize("calendar", CALENDARS)
def test_months_before_the_table_are_computed_and_say_so(client, calendar):
    """A year no row covers (1425) is predicted: `source` computed, no `authority`."""
    first = min(_kept(calendar))
    assert first > (1425, 12)
    month = client.get("/v1/hijri", params={"calendar": calendar, "hy": 1425, "hm": 9}).json()
    assert month["source"] == "computed" and "authority" not in month


def test_the_shia_day_overrides_the_committee_and_rows_not_followed_are_skipped(tmp_path):
    """Synthetic file: 1441/10 has the committee's 2020-05-24 and the Shia ulema's 2020-05-25; 1441/12's
    committee row says the Shia did not follow it; two committee days for 1442/1 are refused."""
    path = tmp_path / "pakistan.csv"
    lines = [",".join(COLUMNS),
             "1441,10,2020-05-24,ruet-e-hilal,no,https://a.example/1,q,2020-05-23,2026-11-26",
             "1441,10,2020-05-25,shia-ulema,yes,https://a.example/2,q,2020-05-23,2026-11-26",
             "1441,12,2020-07-22,ruet-e-hilal,no,https://a.example/3,q,2020-07-21,2026-11-26"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = hijri_regions.announced("pakistan", path)
    assert list(found) == [(1441, 10)]
    assert found[(1441, 10)].start == _day("2020-05-25") and found[(1441, 10)].decided_by == "shia-ulema"
    path.write_text("\n".join([*lines, "1442,1,2020-08-21,ruet-e-hilal,yes,https://a.example/4,q,,2026-11-26",
                               "1442,1,2020-08-22,ruet-e-hilal,yes,https://a.example/5,q,,2026-11-26"]) + "\n",
                    encoding="utf-8")
    with pytest.raises(ValueError, match="two different starts"):
        hijri_regions.announced("pakistan", path)


# --- the fitted rule ------------------------------------------------------------------------


@pytest.mark.parametrize("calendar", CALENDARS)
def test_leave_one_year_out_agreement_with_the_announcements(calendar):
    """For each Hijri year of the file: choose the candidate with most hits on the other years' rows
    (first on ties), predict that year's months with it, compare with the rows.  The choosing is
    written again here; the candidates' starts are the crescent geometry (tests/test_crescent.py)."""
    kept = _kept(calendar)
    keys = sorted(kept)
    hy = np.array([k[0] for k in keys])
    hm = np.array([k[1] for k in keys])
    announced = np.array([_day(kept[k]["gregorian_start"]) for k in keys])
    starts = hijri.candidate_starts(hy, hm, calendar)
    hits = starts == announced[None, :]
    held = []
    for year in sorted(set(hy.tolist())):
        train, test = hy != year, hy == year
        best = max(range(len(starts)), key=lambda i: (hits[i, train].sum(), -i))
        held += hits[best, test].tolist()
    agreement = sum(held) / len(held)
    assert agreement >= LEAVE_ONE_YEAR_OUT_AT_LEAST[calendar], (calendar, sum(held), len(held))
    assert hijri_calibration.regional_fit(calendar).held_out.hits.sum() == sum(held)  # the bench's figure


@pytest.mark.parametrize("calendar", CALENDARS)
def test_the_table_computes_with_the_rule_chosen_on_all_rows(calendar):
    """Months without a row follow the candidate with most hits on every row (first on ties)."""
    kept = _kept(calendar)
    keys = sorted(kept)
    hy, hm = np.array(keys).T
    announced = np.array([_day(kept[k]["gregorian_start"]) for k in keys])
    hits = (hijri.candidate_starts(hy, hm, calendar) == announced[None, :]).sum(axis=1)
    best = int(np.argmax(hits))
    months_hy, months_hm = np.array([(y, m) for y in range(1426, 1450) for m in range(1, 13)]).T
    np.testing.assert_array_equal(hijri.computed_start(months_hy, months_hm, calendar),
                                  hijri.candidate_starts(months_hy, months_hm, calendar)[best])


# --- every endpoint -------------------------------------------------------------------------

ENDPOINTS = [
    "/v1/hijri?date=2026-03-20", "/v1/hijri?year=2026", "/v1/events?hy=1447", "/v1/day-status?date=2026-03-20",
    "/v1/events.ics?lang=ur", "/v1/fasting.ics?lang=ur", "/v1/eclipses", "/v1/moon-visibility?hy=1447&hm=10&city=karachi",
    "/v1/prayer-times?city=karachi&date=2026-03-21&eid=08:00",
    "/v1/prayer-times.ics?city=lucknow&eid=08:00",
]


def _with(url: str, calendar: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}calendar={calendar}"


@pytest.mark.parametrize("calendar", CALENDARS)
@pytest.mark.parametrize("url", ENDPOINTS)
def test_every_endpoint_taking_calendar_takes_the_new_values(client, url, calendar):
    response = client.get(_with(url, calendar))
    assert response.status_code == 200, response.text[:300]


@pytest.mark.parametrize("url", ENDPOINTS)
def test_a_bad_calendar_is_a_400_naming_it(client, url):
    for bad in ("pakistn", "Pakistan", "india ", ""):
        assert_bad_request(client.get(_with(url, bad)), "calendar")


def test_pages_take_the_new_values(client):
    """The imsakiya by a South Asian reckoning names it; the screen and widget pass it through; a bad one
    is refused as a page."""
    page = client.get("/city/karachi/ur/imsakiya/pakistan/")
    assert page.status_code == 200 and "مرکزی رویتِ ہلال کمیٹی پاکستان کے اعلان" in page.text  # issue 33, UR-3
    assert client.get("/city/lucknow/en/imsakiya/india/").status_code == 200
    screen = client.get("/screen/?city=lucknow&calendar=india")
    assert screen.status_code == 200 and "calendar=india" in screen.text
    assert client.get("/widget/?city=karachi&calendar=pakistan").status_code == 200
    assert client.get("/city/karachi/ur/imsakiya/pakistn/").status_code == 404
    assert client.get("/screen/?city=karachi&calendar=pakistn").status_code == 400


# --- announce.py ----------------------------------------------------------------------------


@pytest.fixture
def sandbox(hijri_sandbox):
    """The Hijri data in a temporary folder (conftest.hijri_sandbox): yields its month_starts/."""
    return hijri_sandbox / "month_starts"


def test_announce_records_a_pakistan_row_that_the_table_then_serves(sandbox, capsys):
    """1448/10 = 2027-03-10 (Wednesday; the conjunction is 2027-03-08 09:29 UT, USNO): written with the
    committee as the body, then served from the table."""
    assert announce.main(["pakistan", "1448", "10", "2027-03-10", "--source", "https://a.example/eid",
                          "--quote", "Eid on Wednesday", "--today", "2026-11-26", "--out", str(sandbox / "out")]) == 0
    with (sandbox / "pakistan.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {"hy": "1448", "hm": "10", "gregorian_start": "2027-03-10", "decided_by": "ruet-e-hilal",
            "shia_followed": "yes", "source": "https://a.example/eid", "quote": "Eid on Wednesday", "reported": "",
            "read": "2026-11-26"} in rows
    hijri.reload()
    assert hijri.month_start(1448, 10, "pakistan") == _day("2027-03-10")
    assert hijri.month_authority(1448, 10, "pakistan") == "ruet-e-hilal"


@pytest.mark.parametrize("argv, says", [
    (["india", "1448", "10", "2027-03-10", "--source", "https://a.example/x", "--kind", "forecast"], "kind"),
    (["moonsighting", "1448", "10", "2027-03-10", "--source", "https://a.example/x", "--decided-by", "x"],
     "decided-by"),
    (["pakistan", "1448", "10", "2027-03-10", "--source", "https://a.example/x", "--decided-by", "Shia Ulema"],
     "decided-by"),
    (["pakistan", "1448", "10", "2027-03-08", "--source", "https://a.example/x"], "date"),  # before the conjunction
])
def test_announce_refuses_bad_south_asian_rows(sandbox, capsys, argv, says):
    assert announce.main([*argv, "--dry-run"]) == 2
    assert capsys.readouterr().err.startswith(f"refused: {says}:")


# --- pages ----------------------------------------------------------------------------------


def test_a_page_following_pakistan_shows_its_column_first_on_the_announced_days(monkeypatch):
    """A city page whose reckoning is `pakistan` (the per-place defaults decide which; here set by hand):
    its Hijri column comes first, labelled «ہجری (پاکستان)», beside the two every page shows, and
    Muharram 1447 begins on the row's day (2025-06-27, Business Recorder: "the moon of
    Muharram-ul-Haram was sighted in Pakistan"); the note says what the column follows."""
    import re

    from generator.words import page_words as words
    from generator.site import routes, timetable

    row = _kept("pakistan")[(1447, 1)]
    assert row["gregorian_start"] == "2025-06-27"
    monkeypatch.setattr(timetable, "city_calendar", lambda city: "pakistan" if city["country"] == "PK" else "moonsighting")
    html = routes.city_month(date(2026, 11, 26), "karachi", "ur", "Tehran", "2025-06").decode()
    assert re.findall(r'<th scope="col" class="hijri">([^<]*)</th>', html) == ["ہجری (پاکستان)", "ہجری (نجف اشرف)",
                                                                              "ہجری (ایران)"]
    day_one = re.search(r'<tr data-date="2025-06-27".*?</tr>', html, re.S).group(0)
    cells = re.findall(r'<td data-calendar="(\w+)"( class="start")?>([^<]*)</td>', day_one)
    assert cells[0][:2] == ("pakistan", ' class="start"') and cells[0][2] == "۱ محرم الحرام"
    eve = re.search(r'<tr data-date="2025-06-26".*?</tr>', html, re.S).group(0)
    assert re.search(r'<td data-calendar="pakistan">(۲۹|۳۰)</td>', eve)
    assert words.WORDS["ur"]["calendar_note_region.pakistan"] in html  # the glossary row, written for this note
    london = routes.city_month(date(2026, 11, 26), "london", "ur", "Tehran", "2025-06").decode()
    assert re.findall(r'<th scope="col" class="hijri">([^<]*)</th>', london) == ["ہجری (نجف اشرف)", "ہجری (ایران)"]


# --- jamaat and mosque profiles -------------------------------------------------------------


def test_eid_jamaat_follows_each_countrys_announced_eid(client):
    """Eid al-Fitr 1441: Pakistan's committee 2020-05-24, Lucknow's Shia 2020-05-25 (the rows; notes.md:
    "committee 24 May (Ramadan 29 days); Lucknow 25 May").  The Eid slot is on that day only."""
    assert _kept("pakistan")[(1441, 10)]["gregorian_start"] == "2020-05-24"
    assert _kept("india")[(1441, 10)]["gregorian_start"] == "2020-05-25"

    def eid_days(city, calendar):
        body = client.get("/v1/prayer-times", params={"city": city, "year": 2020, "month": 5, "eid": "08:00",
                                                      "calendar": calendar}).json()
        return [d["date"] for d in body["days"] if d["jamaat"].get("eid")]

    assert eid_days("karachi", "pakistan") == ["2020-05-24"]
    assert eid_days("lucknow", "india") == ["2020-05-25"]


def test_a_mosque_profile_may_keep_a_south_asian_reckoning(tmp_path):
    """docs/mosques.md: `reckoning` is any `calendar` value; a misspelt one is refused naming the field."""
    import json
    from pathlib import Path

    from generator.prayer import mosques

    data = json.loads((Path(__file__).parent / "fixtures" / "mosques" / "example-mosque.json").read_text("utf-8"))
    for reckoning in CALENDARS:
        path = tmp_path / "example-mosque.json"
        path.write_text(json.dumps({**data, "reckoning": reckoning}), encoding="utf-8")
        assert mosques.read(path).reckoning == reckoning
    path.write_text(json.dumps({**data, "reckoning": "pakistani"}), encoding="utf-8")
    with pytest.raises(mosques.ProfileError) as error:
        mosques.read(path)
    assert error.value.field == "reckoning"
