"""Legibility from the back of the hall (issue 36), measured in Chromium (tests/peers/screen_align.js).

Target (docs/site.md "Legibility": ANSI/HFES 100-2007 prefers characters of 20-22 minutes of arc; at 5 m from a
43-inch 1080-line TV that is an 86-px font): the prayer times' drawn text box (a Range's rectangle: the font's
ascent and descent, 1.16 em in DejaVu Sans) at least 8 % of the screen's height on a landscape screen of
1920×1080, 1366×768 and 1280×800, on a plain day and on the fullest: a Friday with three Jumu'ah slots, jamaat
rules and an announcement; in English, Arabic and Persian.  Met now on a plain day at 1920×1080 and 1366×768; on a
Friday with three slots and at 1280×800 the table still steps down once (6.75 % at worst): the test holds those at a
floor of 6.5 %, which the stylesheet before issue 36 fails (5.6 % at 1280×800 on the Friday, 6.3 % at 1920×1080).
Urdu keeps its own sizes (its rows' room for Nastaliq, "Right to left, measured") and is not held to it yet.
"""
from __future__ import annotations

import shutil
import urllib.parse
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import browser_app_server, run_node_peer

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "screen-legibility"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LANDSCAPE = ((1920, 1080), (1366, 768), (1280, 800))
CITY = {"en": "london", "ar": "karbala", "fa": "tehran"}
RULES = {"jamaat": "fajr:15,dhuhr:13:30,asr:dhuhr,maghrib:10,isha:maghrib", "jumuah": "13:00,13:45,14:30",
         "note": "Majlis every Thursday after Maghrib; Muharram programme from 16 June, all welcome"}
DAYS = {"plain": datetime(2026, 3, 31, 9, 0, tzinfo=timezone.utc),  # a Tuesday
        "friday": datetime(2026, 4, 3, 9, 0, tzinfo=timezone.utc)}  # three Jumu'ah slots
SHARE = 0.08  # of the screen's height: the target, met on a plain day at 1920×1080 and 1366×768
FLOOR = 0.065  # met on every day and size here (the stylesheet before issue 36: 0.056 to 0.063); the target is not yet
MET = (("plain", (1920, 1080)), ("plain", (1366, 768)))  # where the target holds now
PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")  # the rows of the five prayers (sunrise and midnight are smaller)
pytestmark = pytest.mark.xdist_group("browser-screen_legibility_browser")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from browser_app_server(tmp_path_factory, CHROMIUM)


@pytest.fixture(scope="module")
def measured(server):
    pages = [{"name": f"{lang}-{day}", "url": "/screen/?" + urllib.parse.urlencode({"city": CITY[lang], **RULES, "lang": lang}),
              "start": int(at.timestamp() * 1000), "viewports": [list(v) for v in LANDSCAPE]}
             for lang in CITY for day, at in DAYS.items()]
    out = run_node_peer("screen_align.js", "playwright-core",
                        {"base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS), "pages": pages})
    return {page["name"]: page for page in out["pages"]}


# Portrait: a fajr held for the week (it changes on Fridays) makes Thursday a day with "Jamaat times change
# tomorrow"; the Friday has three Jumu'ah slots and the moved line.  Tuesday is the plain day.
PORTRAIT_RULES = {**RULES, "jamaatWeekly": "fajr:fri"}
PORTRAIT_DAYS = {"plain": datetime(2026, 3, 31, 9, 0, tzinfo=timezone.utc),
                 "notice": datetime(2026, 4, 2, 9, 0, tzinfo=timezone.utc),
                 "friday": datetime(2026, 4, 3, 9, 0, tzinfo=timezone.utc)}


@pytest.fixture(scope="module")
def portrait(server):
    pages = [{"name": f"{lang}-{day}", "url": "/screen/?" + urllib.parse.urlencode(
                  {"city": "london", **PORTRAIT_RULES, "lang": lang}),  # the trial's English and Urdu committee
              "start": int(at.timestamp() * 1000), "viewports": [[1080, 1920]]}
             for lang in ("en", "ur") for day, at in PORTRAIT_DAYS.items()]
    out = run_node_peer("screen_align.js", "playwright-core",
                        {"base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS), "pages": pages})
    return {page["name"]: page for page in out["pages"]}


@pytest.mark.parametrize("lang", ("en", "ur"))
def test_a_portrait_tv_keeps_its_table_s_size_on_a_full_day(portrait, lang):
    """The trial (D3): on a 1080×1920 TV the whole table shrank to 57 % on a day with a notice or the Eid row.  The
    times' font on the day with "changes tomorrow" and on a Friday with three slots equals the plain day's."""
    def size(day):
        read = portrait[f"{lang}-{day}"]["reads"][0]
        return min(cell["fontSize"] for row in read["rows"] if row["id"] in PRAYERS for cell in row["cells"][1:]), read

    plain, _ = size("plain")
    for day in ("notice", "friday"):
        shown, read = size(day)
        assert shown == plain, (lang, day, shown, plain, read["fit"])


@pytest.mark.parametrize("lang", tuple(CITY))
@pytest.mark.parametrize("day", tuple(DAYS))
def test_the_times_are_at_least_8_percent_of_the_screen_height_where_met_and_never_below_the_floor(measured, lang, day):
    page = measured[f"{lang}-{day}"]
    assert page["status"] == 200 and page["ready"] and not page["errors"], page
    shares = []
    for read in page["reads"]:
        times = [cell for row in read["rows"] if row["id"] in PRAYERS
                 for cell in row["cells"][1:] if cell["text"]]
        assert len(times) >= 8, read["rows"]  # adhan and jamaat of five prayers (asr and isha may share)
        share = min(cell["box"]["height"] for cell in times) / read["height"]
        shares.append((read["viewport"], round(share, 4), read["fit"], read["bottom"] <= read["height"] + 0.5))
    assert all(share >= FLOOR and inside for _, share, _, inside in shares), (lang, day, shares)
    assert all(share >= SHARE for viewport, share, _, _ in shares if (day, tuple(viewport)) in MET), (lang, day, shares)
