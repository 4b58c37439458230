"""The `lebanon` reckoning (issue 37): the month starts the office of Sayyid Muhammad Husayn Fadlallah
(Beirut) announces by calculation, served as announced, the rule fitted on them, every surface taking
the new value, and announce.py recording its rows.

References: the rows of data/month_starts/lebanon.csv, each with the report that states the date (URL,
quote, dates; data/SOURCES-HIJRI.md, data/month_starts/notes.md).  The expected values are read from
that file here, never from our own output.  Eid al-Fitr 1447 on Friday 20 March 2026 is the date LBC's
report of the office's statement prints ("Friday, March 20, will mark the first day of Eid al-Fitr").
The Higher Islamic Shia Council's days (Lebanon's other Shia calendar) are those its statements give:
Eid al-Fitr 1441 on Monday 25 May 2020 (wafaamagazine.org/?p=97101: "ويوم الاثنين هو عيد الفطر",
Corona year), Eid al-Fitr 1443 on Tuesday 3 May 2022 (almanar.com.lb/9522856: "الواقع في 2 ايار ...
متمم لشهر رمضان ... الثلاثاء هو أول أيام عيد الفطر"), Ramadan 1445 on Tuesday 12 March 2024
(menatoday.info: "Tuesday, Mar. 12 would mark the start ... for the country's Shiite denomination"), Eid
al-Fitr 1435 on Tuesday 29 July 2014 (naharnet.com 140777: "Lebanon's Higher Islamic Shiite Council announced
... that Tuesday is the first day of Eid al-Fitr").

The held-out agreement of the fitted rule is a figure of `make bench` (bench/hijri.py) and
docs/hijri.md; here it is computed again independently and compared with the bench's, not with a
number written in this file.
"""
from __future__ import annotations

import csv
from datetime import date, timedelta

import pytest

import announce
from generator.calendars import hijri_calibration, hijri_regions

from conftest import assert_bad_request
from regional_reckoning import assert_rows_served, read_rows, announce_and_read, assert_computed_months_follow, held_out_recount

CALENDAR = "lebanon"
BODY = "fadlallah-office"
COLUMNS = ["hy", "hm", "gregorian_start", "decided_by", "shia_followed", "source", "quote", "reported", "read"]
# The Higher Islamic Shia Council's own days (module docstring): Lebanon's second Shia calendar.
COUNCIL_DAYS = {(1435, 10): "2014-07-29", (1441, 10): "2020-05-25", (1443, 10): "2022-05-03", (1445, 9): "2024-03-12"}


def _rows() -> list[dict]:
    return read_rows(CALENDAR, COLUMNS)


def test_the_rows_are_well_formed():
    """One row per month, the office as the body, a real date, an http(s) source with a short quote,
    reported no later than day 1 (the office states its month days or weeks ahead) and read after it;
    every Ramadan, Shawwal and Dhu al-Hijja found since 1440 is there."""
    rows = _rows()
    keys = [(int(r["hy"]), int(r["hm"])) for r in rows]
    assert len(keys) == len(set(keys)) >= 28
    for row in rows:
        start = date.fromisoformat(row["gregorian_start"])
        assert row["decided_by"] == BODY and row["shia_followed"] == "yes", row
        announce.check_source(row["source"])
        assert 0 < len(row["quote"]) <= 200, row
        if row["reported"]:
            assert timedelta(days=0) <= start - date.fromisoformat(row["reported"]) <= timedelta(days=30), row
        assert date.fromisoformat(row["read"]) >= start, row
    for year in range(1440, 1448):
        assert (year, 9) in keys or year in (1441,), year  # Ramadan 1441 (April 2020): not found, notes.md


def test_every_announced_row_is_served_as_announced(client):
    """/v1/hijri?date=<day 1>&calendar=lebanon is day 1 of the announced month, from the table, naming the
    office; the day before is the last (29th or 30th) of the month before; the month map starts there."""
    assert_rows_served(client, CALENDAR, BODY, _rows())


def test_eid_1447_is_the_offices_friday_and_a_day_before_najaf(client):
    """LBC 2026-03-13: the office's Eid al-Fitr 1447 is Friday 20 March 2026.  The Sistani office's Eid
    (moonsighting) is the next day, Saturday 21 March (its own announced row), as issue 37 reports the
    office begins Shawwal a day before Najaf."""
    fitr = client.get("/v1/day-status", params={"calendar": CALENDAR, "date": "2026-03-20"}).json()
    assert (fitr["hijri"]["hy"], fitr["hijri"]["hm"], fitr["hijri"]["hd"]) == (1447, 10, 1)
    najaf = client.get("/v1/hijri", params={"calendar": "moonsighting", "hy": 1447, "hm": 10}).json()
    assert najaf["start"] == "2026-03-21"


def test_the_councils_days_are_not_the_offices_and_the_country_default_keeps_najafs_reckoning(client):
    """Lebanon keeps two calendars.  The Higher Islamic Shia Council's days found differ from the office's
    in every month both are known, and agree with the moonsighting reckoning (the Sistani office), the
    default data/place_defaults.csv keeps for Lebanon, which names both bodies."""
    from generator.prayer import place_defaults

    office = {(int(r["hy"]), int(r["hm"])): r["gregorian_start"] for r in _rows()}
    for (hy, hm), day in COUNCIL_DAYS.items():
        served = client.get("/v1/hijri", params={"calendar": "moonsighting", "hy": hy, "hm": hm}).json()
        assert served["start"] == day, (hy, hm)
        if (hy, hm) in office:
            assert office[(hy, hm)] < day, (hy, hm)
    beirut = place_defaults.for_city("beirut")
    assert beirut.calendar == "moonsighting"
    with place_defaults.PATH.open(encoding="utf-8", newline="") as handle:
        lb = next(r for r in csv.DictReader(handle) if r["place"] == "LB")
    assert "Fadlallah" in lb["calendar_source"] and "Higher Islamic Shia Council" in lb["calendar_source"]
    assert "lebanon" in lb["calendar_source"]


def test_months_before_the_table_are_computed_and_say_so(client):
    month = client.get("/v1/hijri", params={"calendar": CALENDAR, "hy": 1425, "hm": 9}).json()
    assert month["source"] == "computed" and "authority" not in month


# --- the fitted rule ------------------------------------------------------------------------


def test_the_bench_figure_is_the_leave_one_year_out_agreement():
    """For each Hijri year of the file: choose the candidate with most hits on the other years' rows
    (first on ties), predict that year's months with it; the count of held-out hits, computed here
    again, is the one bench/hijri.py prints and docs/hijri.md states."""
    rows = _rows()
    held, best = held_out_recount(CALENDAR, rows)
    fit = hijri_calibration.regional_fit(CALENDAR)
    assert int(fit.held_out.hits.sum()) == held and len(fit.announced) == len(rows)
    assert_computed_months_follow(CALENDAR, best, 1426, 1449)  # the computed months: the candidate chosen on every row


def test_the_candidates_are_the_offices_wording():
    """The office's rule (bayynat.org.lb 2018-06-06, 2021-05-04): seen by eye or by telescope, anywhere
    sharing part of the night with Lebanon.  Its candidates look from Beirut westward only (the Americas
    share Lebanon's night; East Asia and Australia do not), with optical aid allowed (Odeh ≥ C,
    Yallop ≥ C/D are optical-aid zones)."""
    from generator.places import cities

    region = hijri_regions.REGIONS[CALENDAR]
    catalogue = cities.by_id()
    assert region.place_sets[0] == ("beirut",)
    assert all(float(catalogue[p]["lng"]) <= 40.0 for p in region.places)  # none east of Arabia
    assert "Odeh >= C" in region.criteria and "Odeh >= C, no Danjon limit" in region.criteria
    for calendar in ("pakistan", "india"):  # issue 26's families are unchanged
        assert "Odeh >= C, no Danjon limit" not in hijri_regions.REGIONS[calendar].criteria


# --- every surface --------------------------------------------------------------------------

ENDPOINTS = [
    "/v1/hijri?date=2026-03-20", "/v1/hijri?year=2026", "/v1/events?hy=1447", "/v1/day-status?date=2026-03-20",
    "/v1/events.ics?lang=ar", "/v1/fasting.ics?lang=ar", "/v1/moon-visibility?hy=1447&hm=10&city=beirut",
    "/v1/prayer-times?city=beirut&date=2026-03-21&eid=07:00",
    "/v1/prayer-times.ics?city=beirut&eid=07:00",
]


def _with(url: str, calendar: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}calendar={calendar}"


@pytest.mark.parametrize("url", ENDPOINTS)
def test_every_endpoint_taking_calendar_takes_lebanon(client, url):
    assert client.get(_with(url, CALENDAR)).status_code == 200
    assert_bad_request(client.get(_with(url, "Lebanon")), "calendar")


def test_pages_screen_widget_and_builder_take_lebanon(client):
    """The imsakiya by the office's reckoning names the office (the glossary's basis in Arabic); the screen
    and widget pass it through; the builder offers it by its label."""
    page = client.get("/city/beirut/ar/imsakiya/lebanon/")
    assert page.status_code == 200 and "حسابات مكتب المرجع السيد محمد حسين فضل الله" in page.text
    screen = client.get("/screen/?city=beirut&calendar=lebanon")
    assert screen.status_code == 200 and "calendar=lebanon" in screen.text
    assert client.get("/widget/?city=beirut&calendar=lebanon").status_code == 200
    assert "مكتب السيد فضل الله، بيروت" in client.get("/mosque/new/ar/").text
    assert client.get("/city/beirut/ar/imsakiya/lebanonn/").status_code == 404


def test_eid_jamaat_follows_the_offices_eid(client):
    """Eid al-Fitr 1444: the office's Friday 21 April 2023 (alalam.ir 2023-04-14)."""
    body = client.get("/v1/prayer-times", params={"city": "beirut", "year": 2023, "month": 4, "eid": "07:00",
                                                  "calendar": CALENDAR}).json()
    assert [d["date"] for d in body["days"] if d["jamaat"].get("eid")] == ["2023-04-21"]


# --- announce.py ----------------------------------------------------------------------------


def test_announce_records_a_lebanon_row_that_the_table_then_serves(hijri_sandbox):
    """1447/11 = 2026-04-18 (Saturday; the conjunction is 2026-04-17 11:52 UT, USNO): written with the
    office as the body by default, then served from the table."""
    announce_and_read(hijri_sandbox / "month_starts", CALENDAR, BODY, 1447, 11, "2026-04-18",
                      "https://a.example/dhulqada", "Saturday 18 April")


def test_announce_refuses_a_lebanon_day_before_the_conjunction(hijri_sandbox, capsys):
    """1447/11 on 2026-04-17: its evening before (16 April, even in Los Angeles) precedes the conjunction."""
    assert announce.main(["lebanon", "1447", "11", "2026-04-17", "--source", "https://a.example/x",
                          "--dry-run"]) == 2
    assert capsys.readouterr().err.startswith("refused: date:")


# --- Lebanon's two calendars on the pages ---------------------------------------------------


def test_a_lebanese_page_shows_both_calendars_and_names_both_bodies():
    """data/place_defaults.csv: Lebanon keeps `moonsighting` (the Council's days found are Najaf's) and is
    offered `lebanon`.  Beirut's February 2026 page: the office's column beside the two every page shows,
    labelled «الهجري (مكتب السيد فضل الله، بيروت)», Ramadan 1447 beginning there on 2026-02-18 (lebanon24, the office's
    statement of 2026-02-17: «غداً أوّل أيام شهر رمضان»); the note names the office and the Council.
    Karachi's page is unchanged (its own reckoning first, nothing offered)."""
    import re

    from generator.site import routes
    from generator.words import page_words as words

    assert next(r for r in _rows() if (r["hy"], r["hm"]) == ("1447", "9"))["gregorian_start"] == "2026-02-18"
    html = routes.city_month(date(2026, 11, 28), "beirut", "ar", "Tehran", "2026-02").decode()
    heads = re.findall(r'<th scope="col" class="hijri">([^<]*)</th>', html)
    assert heads[-1] == "الهجري (مكتب السيد فضل الله، بيروت)" and len(heads) == 3, heads  # gallery review ar F15
    day_one = re.search(r'<tr data-date="2026-02-18".*?</tr>', html, re.S).group(0)
    cell = re.search(r'<td data-calendar="lebanon"( class="start")?>([^<]*)</td>', day_one)
    assert cell.group(1) and cell.group(2).startswith("١ ")
    assert words.WORDS["ar"]["calendar_note_region.lebanon"] in html
    assert "المجلس الإسلامي الشيعي الأعلى" in words.WORDS["ar"]["calendar_note_region.lebanon"]
    karachi = routes.city_month(date(2026, 11, 28), "karachi", "ur", "Tehran", "2026-02").decode()
    assert len(re.findall(r'<th scope="col" class="hijri">', karachi)) == 3
    assert 'data-calendar="lebanon"' not in karachi


def test_a_mosque_profile_may_keep_the_lebanon_reckoning(tmp_path):
    """docs/mosques.md: `reckoning` is any `calendar` value, so a Beirut mosque following the office may keep it."""
    import json
    from pathlib import Path

    from generator.prayer import mosques

    data = json.loads((Path(__file__).parent / "fixtures" / "mosques" / "example-mosque.json").read_text("utf-8"))
    path = tmp_path / "example-mosque.json"
    path.write_text(json.dumps({**data, "reckoning": CALENDAR}), encoding="utf-8")
    assert mosques.read(path).reckoning == CALENDAR
