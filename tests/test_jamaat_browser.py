"""Combined prayers and the committee's Jumu'ah as set, on the wall screen and the widget in Chromium (issue 33;
tests/peers/screen_check.js, Playwright's fake clock; one browser session, one context per run).

The mosque is the Leicester committee's of the trial of 28 November (../shared/reference/mosque_trial_2026-11-28):
the Sistani office's Leicester table, fajr 10 minutes after the adhan rounded to 5, dhuhr 13:15 with asr,
maghrib 5 minutes after the adhan with isha, Jumu'ah 13:00 and 14:00.

References, written here from the API's own answer (/v1/prayer-times of the same query) and from the rule the issue
states, not from the page's script:

* a Shia mosque that prays asr with dhuhr (Jumu'ah on Fridays) and isha with maghrib calls no second adhan: after
  the combined jamaat the countdown goes to the next adhan of a prayer that is *not* the second of a pair the
  query combines (asr:dhuhr, isha:maghrib): maghrib's after dhuhr's jamaat, the next day's fajr after maghrib's;
  the old screen counted down to "Asr adhan" and "Isha adhan" (the trial's D12);
* asr's and isha's rows are labelled as the start of their recommended (fadhila) time on such days;
* the committee's second Jumu'ah stays 14:00 on a winter Friday whose computed asr is earlier (4 December 2026:
  the old screen showed 13:33 and "moved earlier"), and the screen counts down to it.
"""
from __future__ import annotations

import json
import shutil
import urllib.parse
import urllib.request
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from conftest import browser_app_server, run_node_peer

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "screen"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TZ = ZoneInfo("Europe/London")
LEICESTER = {"city": "leicester", "jamaat": "fajr:10,dhuhr:13:15,asr:dhuhr,maghrib:5,isha:maghrib",
             "jamaatRound": "fajr:5", "jumuah": "13:00,14:00"}
SECONDS = {"asr": "dhuhr", "isha": "maghrib"}  # the pairs the query combines: the second has no adhan
THURSDAY, FRIDAY = date(2026, 12, 3), date(2026, 12, 4)
SUMMER = {"city": "leicester", "jamaat": "maghrib:5,isha:20:00"}
SUMMER_DAY = date(2026, 6, 25)
pytestmark = pytest.mark.xdist_group("browser-jamaat_browser")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from browser_app_server(tmp_path_factory, CHROMIUM)


def _ms(instant: str) -> int:
    return int(datetime.fromisoformat(instant.replace("Z", "+00:00")).timestamp() * 1000)


def _local_ms(day: date, hh: int, mm: int) -> int:
    return int(datetime(day.year, day.month, day.day, hh, mm, tzinfo=TZ).timestamp() * 1000)


def _days(server: str) -> dict[str, dict]:
    query = urllib.parse.urlencode({**LEICESTER, "method": "ImamAliFoundation", "year": 2026, "jamaatNotice": 5})
    with urllib.request.urlopen(f"{server}/v1/prayer-times?{query}", timeout=60) as response:
        return {d["date"]: d for d in json.loads(response.read())["days"]}


def _adhans(days: dict, day: date) -> list[tuple[int, str]]:
    """The day's adhans a mosque calls: every prayer but the second of a combined pair on the days it is combined
    (its jamaat is the first prayer's: the answer's jamaat of both is one instant)."""
    row = days[day.isoformat()]
    jamaat = row["jamaat"]
    first_of = {"asr": jamaat.get("jumuah", [jamaat.get("dhuhr")])[0] if day.weekday() == 4 else jamaat.get("dhuhr"),
                "isha": jamaat.get("maghrib")}
    return [(_ms(row[p]), p) for p in ("fajr", "dhuhr", "asr", "maghrib", "isha")
            if not (p in SECONDS and jamaat.get(p) is not None and jamaat[p] == first_of[p])]


@pytest.fixture(scope="module")
def seen(server):
    days = _days(server)
    thursday, friday = days[THURSDAY.isoformat()], days[FRIDAY.isoformat()]
    # the moments read: a minute after each combined jamaat, and ten minutes before the second Jumu'ah
    after_dhuhr = _ms(thursday["jamaat"]["dhuhr"]) + 60_000
    before_second = _local_ms(FRIDAY, 13, 50)
    after_second = _local_ms(FRIDAY, 14, 0) + 60_000
    after_maghrib = _ms(friday["jamaat"]["maghrib"]) + 60_000
    screen = "/screen/?" + urllib.parse.urlencode({**LEICESTER, "lang": "en"})
    widget = "/widget/?" + urllib.parse.urlencode({**LEICESTER, "lang": "en"})
    runs = [
        {"name": "screen", "url": screen, "viewport": [1920, 1080], "start": after_dhuhr - 120_000,
         "steps": [{"at": after_dhuhr}, {"at": before_second}, {"at": after_second}, {"at": after_maghrib},
                   {"shot": "jamaat-combined-evening.png"}]},
        {"name": "widget", "url": widget, "viewport": [420, 700], "start": after_maghrib - 120_000,
         "steps": [{"at": after_maghrib}]},
        # the trial's D11: a fixed isha 20:00 before a summer maghrib; moved (the default) on the screen, kept on
        # the widget of a mosque that chose to keep it
        {"name": "summer-screen", "url": "/screen/?" + urllib.parse.urlencode({**SUMMER, "lang": "en"}),
         "viewport": [1920, 1080], "start": _local_ms(SUMMER_DAY, 19, 0), "steps": [{"at": _local_ms(SUMMER_DAY, 19, 1)}]},
        {"name": "summer-widget", "url": "/widget/?" + urllib.parse.urlencode({**SUMMER, "jamaatOutside": "keep",
                                                                              "lang": "en"}),
         "viewport": [420, 700], "start": _local_ms(SUMMER_DAY, 19, 0), "steps": [{"at": _local_ms(SUMMER_DAY, 19, 1)}]},
    ]
    config = {"base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS), "runs": runs}
    out = {run["name"]: run for run in run_node_peer("screen_check.js", "playwright-core", config)["runs"]}
    return out, days, {"after_dhuhr": after_dhuhr, "before_second": before_second, "after_second": after_second,
                       "after_maghrib": after_maghrib}


def _next_adhan(days: dict, now_ms: int, today: date) -> tuple[int, str]:
    around = [m for d in (today, today + timedelta(days=1)) for m in _adhans(days, d)]
    return next(m for m in sorted(around) if m[0] > now_ms)


def test_no_countdown_to_an_asr_or_isha_adhan_after_a_combined_jamaat(seen):
    runs, days, at = seen
    run = runs["screen"]
    assert run["errors"] == []
    reads = {r["now"]: r for r in run["reads"]}
    for key, today in (("after_dhuhr", THURSDAY), ("after_second", FRIDAY), ("after_maghrib", FRIDAY)):
        read = reads[at[key]]
        expected_at, prayer = _next_adhan(days, at[key], today)
        assert prayer not in SECONDS, (key, prayer)
        assert (read["next"]["kind"], read["next"]["at"]) == ("adhan", expected_at), (key, read["next"])
        assert read["next"]["label"] == f"Until the {prayer.capitalize()} adhan", read["next"]
        assert "Asr adhan" not in read["next"]["label"] and "Isha adhan" not in read["next"]["label"]
        # the rows of the second prayers say what their time is
        assert sorted(read["fadhila"]) == ["asr", "isha"], read["fadhila"]
    # after maghrib's jamaat: the next day's fajr, never the isha adhan of the same evening
    assert _next_adhan(days, at["after_maghrib"], FRIDAY)[1] == "fajr"
    (widget,) = runs["widget"]["reads"]
    assert runs["widget"]["errors"] == []
    assert widget["widgetNext"].startswith("Next: Fajr"), widget["widgetNext"]
    assert sorted(widget["fadhila"]) == ["asr", "isha"]


def test_the_committees_second_jumuah_is_shown_and_counted_down_as_set(seen):
    """4 December 2026: the computed asr in Leicester is before 14:00 (so the old rule moved the slot to 13:33);
    the screen shows 13:00 and 14:00 and, at 13:50, counts down to Jumu'ah at 14:00."""
    runs, days, at = seen
    friday = days[FRIDAY.isoformat()]
    assert friday["local"]["asr"] < "14:00"  # the day is one the old rule rewrote
    read = {r["now"]: r for r in runs["screen"]["reads"]}[at["before_second"]]
    assert read["jumuah"] == "13:00 and 14:00"
    assert (read["next"]["kind"], read["next"]["at"]) == ("jumuah", _local_ms(FRIDAY, 14, 0))
    assert read["next"]["label"] == "Until Jumu'ah at 2:00 PM" or read["next"]["label"].endswith("14:00"), read["next"]
    assert read["moved"] is None  # nothing says it was moved


def test_a_set_time_outside_its_prayers_time_is_said_on_the_screen_and_the_widget(seen, server):
    """The trial's D11: isha fixed at 20:00 is before maghrib's jamaat on 25 June 2026 in Leicester (maghrib after
    21:30 BST: the API's own maghrib, checked).  By default (move) the screen shows the API's moved isha and says
    "Jamaat moved later …" with that time; a mosque that chose keep shows 20:00 on its widget and says that the time
    it set is outside the prayer's time today.  The old screen said nothing (and the widget never did)."""
    runs, _, _ = seen
    query = urllib.parse.urlencode({**SUMMER, "method": "ImamAliFoundation", "date": SUMMER_DAY.isoformat()})
    with urllib.request.urlopen(f"{server}/v1/prayer-times?{query}", timeout=60) as response:
        (day,) = json.loads(response.read())["days"]
    assert day["local"]["maghrib"] > "21:30" and "isha" in day["jamaatMoved"]
    moved_isha = day["jamaatLocal"]["isha"]
    (screen,) = runs["summer-screen"]["reads"]
    assert runs["summer-screen"]["errors"] == []
    assert screen["moved"] == f"Jamaat moved later, to when the prayer's time has begun: Isha {moved_isha}"
    assert screen["times"]["isha"]["jamaat"] == moved_isha
    (widget,) = runs["summer-widget"]["reads"]
    assert runs["summer-widget"]["errors"] == []
    assert widget["moved"] == "At the time the mosque set, outside the prayer's time today: Isha 20:00"
    assert widget["times"]["isha"]["jamaat"] == "20:00"
