"""A hosted mosque's wall screen and widget follow an edit of its profile within a minute (issue 27), in Chromium
(tests/peers/screen_follow.js, Playwright's fake clock; the app under uvicorn with a temp SQLite store).

The issue's Birmingham Hussainiya is published (POST /v1/mosques), its short screen address opened at 1920×1080
and its widget beside it; the profile is then edited with its secret (PUT: a new name, a new announcement, dhuhr's
jamaat 13:30 → 13:45) and deleted (DELETE).  References, independent of the page's script:

* the edit itself: the name and announcement sent, and dhuhr's fixed jamaat ``dhuhr:13:45`` (a fixed time,
  written here), which /v1/prayer-times answers for a profile of the edited body (a second profile), so the
  time is one the API keeps on that day (not moved for the end of dhuhr's time);
* docs/site.md "Following an edit": a page asks every 20 s (so an edit shows within 20 s plus a load on one node,
  well under the issue's minute); an unchanged profile (304), a question without network and a deleted profile
  (404) never reload the page.

The fake clock is a Thursday (no Jumu'ah in the dhuhr row) at 10:00 in Birmingham; the real time the test waits is
only for the answers and the reload.
"""
from __future__ import annotations

import json
import re
import shutil
import urllib.request
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from conftest import browser_app_server, run_node_peer

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "screen"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FOLLOW_S = 20  # docs/site.md: a hosted profile's page asks every 20 s
ISSUE_BOUND_S = 60  # issue 27: "within a minute"
BIRMINGHAM = {"names": {"en": "Birmingham Hussainiya"}, "place": {"city": "birmingham"},
              "times": {"method": "ImamAliFoundation"},
              "jamaat": {"jamaat": "fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib", "jumuah": "13:15"},
              "reckoning": "moonsighting", "languages": ["en", "ur"],
              "announcement": {"en": "Majlis tonight after isha"}, "sources": [{"about": "test", "read": "2026-11-26"}]}
EDITED = {**BIRMINGHAM, "names": {"en": "Birmingham Hussainiya Centre"},
          "jamaat": {**BIRMINGHAM["jamaat"], "jamaat": "fajr:20,dhuhr:13:45,asr:dhuhr,maghrib:5,isha:maghrib"},
          "announcement": {"en": "Majlis moved to Friday after maghrib"}}
pytestmark = pytest.mark.xdist_group("browser-screen_follow")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app under uvicorn on loopback (conftest.browser_app_server; its store: conftest's temp SQLite file)."""
    yield from browser_app_server(tmp_path_factory, CHROMIUM)


def _request(base: str, method: str, path: str, body: dict | None = None, headers: dict | None = None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, dict(response.headers), json.loads(response.read() or b"null")


def _thursday() -> date:
    today = datetime.now(ZoneInfo("Europe/London")).date()
    return today + timedelta(days=(3 - today.weekday()) % 7 or 7)  # the next Thursday (Monday is 0)


def test_a_hosted_mosques_screen_and_widget_follow_an_edit_and_outlive_its_deletion(server):
    status, _, created = _request(server, "POST", "/v1/mosques", BIRMINGHAM)
    assert status == 201 and created["version"] == 1
    mosque_id, secret = created["id"], created["edit"]
    thursday = _thursday()
    # The API's answers for the day, before and (a profile of the edited body) after: the jamaat the screen must show.
    before = _request(server, "GET", f"/v1/prayer-times?mosque={mosque_id}&date={thursday}")[2]["days"][0]
    _, _, twin = _request(server, "POST", "/v1/mosques", EDITED)
    after = _request(server, "GET", f"/v1/prayer-times?mosque={twin['id']}&date={thursday}")[2]["days"][0]
    assert (before["jamaatLocal"]["dhuhr"], after["jamaatLocal"]["dhuhr"]) == ("13:30", "13:45")
    assert before["local"] == after["local"]  # the edit moves the jamaat only
    # The script's constant is the documented one.
    core = (ROOT / "generator" / "site" / "assets" / "screen_core.js").read_text(encoding="utf-8")
    assert re.search(r"^var FOLLOW_MS = (\d+);", core, re.M)[1] == str(FOLLOW_S * 1000)

    start = datetime.combine(thursday, datetime.min.time().replace(hour=10), ZoneInfo("Europe/London"))
    auth = {"Authorization": f"Bearer {secret}", "Content-Type": "application/json"}
    new = {"announcement": EDITED["announcement"]["en"], "place": EDITED["names"]["en"], "dhuhrJamaat": "13:45"}
    out = run_node_peer("screen_follow.js", "playwright-core", {
        "base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS),
        "start": int(start.timestamp() * 1000),
        "pages": [{"name": "screen", "url": f"/mosque/{mosque_id}/screen/", "viewport": [1920, 1080]},
                  {"name": "widget", "url": f"/widget/?mosque={mosque_id}", "viewport": [400, 600]}],
        "steps": [
            {"wait": 45_000, "step": 5000},  # unchanged: two questions each, answered 304
            {"http": {"method": "PUT", "path": f"/v1/mosques/{mosque_id}", "body": EDITED,
                      "headers": {**auth, "If-Match": '"1"'}}},
            {"until": {"screen": new, "widget": {"place": new["place"], "dhuhrJamaat": "13:45"}},
             "within": ISSUE_BOUND_S * 1000},
            {"shot": "follow-edited-1920x1080.png"},
            {"offline": True}, {"wait": 45_000, "step": 5000}, {"offline": False},  # two questions fail: no reload
            {"http": {"method": "DELETE", "path": f"/v1/mosques/{mosque_id}", "headers": {**auth, "If-Match": '"2"'}}},
            {"wait": 65_000, "step": 5000},  # deleted: three questions, answered 404
            {"shot": "follow-deleted-1920x1080.png"},
        ]})
    unchanged, edit, followed, _, _, cut, _, deletion, after_delete, _ = out["steps"]
    for name in ("screen", "widget"):
        first = unchanged["reads"][name]
        # the page was rendered with version 1, asked twice (304) and was not reloaded
        assert first["config"] == {"url": f"/v1/mosques/{mosque_id}", "version": 1}
        assert first["navigations"] == 1 and [s for s, *_ in first["profileAnswers"]] == [304, 304], first
        assert first["place"] == BIRMINGHAM["names"]["en"] and first["dhuhrJamaat"] == "13:30"
    assert unchanged["reads"]["screen"]["controlled"]  # the service worker was there (it leaves the question alone)
    assert unchanged["reads"]["screen"]["notes"] == [BIRMINGHAM["announcement"]["en"]]
    assert edit["status"] == 200 and edit["etag"] == '"2"', edit
    # Shown within a question's period of the edit (the fake clock), well inside the issue's minute.
    for name in ("screen", "widget"):
        seen_s = followed["seenAt"].get(name)
        assert seen_s is not None and seen_s / 1000 <= FOLLOW_S + 1, (name, followed["seenAt"], followed["reads"][name])
        read = followed["reads"][name]
        assert read["config"]["version"] == 2 and read["navigations"] == 2, read  # one reload, no more
        assert read["dhuhrJamaat"] == after["jamaatLocal"]["dhuhr"] and read["place"] == new["place"]
    assert followed["reads"]["screen"]["notes"] == [new["announcement"]]
    # the real time a reload took is printed, not judged: it is this machine's speed (issue 34), not the page's rule
    print("real ms from the question that saw the edit to the page showing it:", followed["realReloadMs"])
    # Without network: the questions fail, the pages keep what they show and do not reload.
    for name in ("screen", "widget"):
        read = cut["reads"][name]
        assert read["navigations"] == 2 and read["place"] == new["place"] and read["dhuhrJamaat"] == "13:45", read
        assert len(out["pages"][name]["offlineErrors"]) >= 2  # the two questions asked without network
        assert all("/v1/mosques/" in e or "ERR_INTERNET_DISCONNECTED" in e for e in out["pages"][name]["offlineErrors"])
    # Deleted: the pages keep what they show, ask again (404) and never reload.
    assert deletion["status"] == 200 and json.loads(deletion["body"])["deleted"] is True
    for name in ("screen", "widget"):
        read = after_delete["reads"][name]
        statuses = [s for s, *_ in read["profileAnswers"]]
        assert read["navigations"] == 2 and statuses[-3:] == [404, 404, 404], read
        assert read["place"] == new["place"] and read["dhuhrJamaat"] == "13:45" and read["fajrAdhan"]
        assert not read["waiting"]
        errors = [e for e in out["pages"][name]["errors"] if not re.search(r"status of 404 .*/v1/mosques/", e)]
        assert errors == [], errors
    assert after_delete["reads"]["screen"]["notes"] == [new["announcement"]]
    assert after_delete["reads"]["screen"]["bandShown"]
