"""A mosque's short screen address (``/mosque/<id>/screen/``) starts the screen without network, in Chromium
(tests/peers/screen_home.js; the app under uvicorn on loopback, conftest.browser_app_server).

The case: a TV whose browser starts on the short address after a power cut, before the router has the internet back.
The short address is the app's 302 to ``/screen/?mosque=<id>&lang=<first language>`` (docs/mosques.md), outside the
screen's service worker's scope (/screen/).  The screen is opened there once online (jaffari-toronto: a file profile,
so no hosting is needed), then the network is cut and the short address opened again in a new page of the same
browser.  References, independent of the page's script:

* the mosque's name: its profile file's ``names.en`` (data/mosques/jaffari-toronto.json, read here);
* the day's times: /v1/prayer-times?mosque=jaffari-toronto&date=<the day> fetched here while online (``local``),
  the day being the fake clock's date in America/Toronto (zoneinfo); English shows them as 24-hour HH:MM;
* "nothing is wrong": the screen shows neither its "no connection since" line (its data is minutes old) nor its
  "waiting for data" line, and no script error is thrown.

A crafted registration of the same worker (a script of this origin registering ``/screen/sw.js?screen=<target>`` for
a scope of its choice) cannot send a browser anywhere but a same-origin /screen/ address of that scope's mosque: each
hostile target, opened offline, leads nowhere (the browser's own error), with no request but the address itself; a
well-formed one (the control) is followed, which shows the check can see a redirect.
"""
from __future__ import annotations

import json
import urllib.parse
import shutil
import urllib.request
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from conftest import browser_app_server, run_node_peer

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "screen"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
MOSQUE = "jaffari-toronto"
HOME = f"/mosque/{MOSQUE}/screen/"
TZ = "America/Toronto"
PRAYERS = ("fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha")
# Targets a hostile script could give; each under a scope of its own (the id in the scope is the crafted mosque's).
HOSTILE = [
    "https://evil.example/screen/?mosque={id}",  # another origin
    "//evil.example/screen/?mosque={id}",  # scheme-relative
    "/\\evil.example/screen/?mosque={id}",  # a backslash, read as a slash by URL parsers
    "/v1/methods?mosque={id}",  # this origin, off /screen/
    "/screen/../v1/methods?mosque={id}",  # dot segments out of /screen/
    "/screen/%2e%2e/v1/methods?mosque={id}",  # encoded dot segments
    "/screen/sw.js?mosque={id}",  # under /screen/, not the screen
    "javascript:alert(1)//?mosque={id}",
    "data:text/html,<h1>x</h1>?mosque={id}",
    "/screen/?mosque=" + MOSQUE + "&lang=en",  # a kept screen, of another mosque than the scope's
    "%E0%A4%A",  # not even a URL
]
pytestmark = pytest.mark.xdist_group("browser-screen_home")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from browser_app_server(tmp_path_factory, CHROMIUM)


def _json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def test_the_short_address_starts_the_screen_offline(server):
    profile = json.loads((ROOT / "data" / "mosques" / f"{MOSQUE}.json").read_text(encoding="utf-8"))
    today = datetime.now(ZoneInfo(TZ)).date()
    start = datetime.combine(today, datetime.min.time().replace(hour=12), ZoneInfo(TZ))  # the fake clock: noon there
    expected = _json(f"{server}/v1/prayer-times?mosque={MOSQUE}&date={today}")["days"][0]["local"]
    crafted = [{"scope": f"/mosque/crafted-{n}/screen/", "target": target.replace("{id}", f"crafted-{n}")}
               for n, target in enumerate(HOSTILE)]
    crafted += [{"scope": "/mosque/crafted-ok/screen/", "target": "/screen/?mosque=crafted-ok&lang=en"},  # the control
                {"scope": "/mosque/", "target": "/screen/?mosque=x&lang=en"},  # a scope that is not a screen's
                {"scope": "/mosque/crafted-sub/screen/x/", "target": "/screen/?mosque=crafted-sub&lang=en"}]
    out = run_node_peer("screen_home.js", "playwright-core", {
        "base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS),
        "start": int(start.timestamp() * 1000), "home": HOME, "crafted": crafted})
    print("wall ms in the browser:", out["ms"])
    assert out["offloop"] == [], out["offloop"]  # nothing left loopback (a redirect off this origin would)

    # Online: the 302 to the screen in the profile's first language, its page and today's answers kept.
    online = out["online"]
    target = f"{server}/screen/?mosque={MOSQUE}&lang={profile['languages'][0]}"
    assert online["chain"] == [server + HOME, target] and online["status"] == 200, online
    assert online["read"]["place"] == profile["names"]["en"]
    registered = {scope: (script, active) for scope, script, active in online["registrations"]}
    assert registered[server + "/screen/"] == (server + "/screen/sw.js", True), online["registrations"]
    assert registered[server + HOME] == (f"{server}/screen/sw.js?screen=%2Fscreen%2F%3Fmosque%3D{MOSQUE}%26lang%3Den",
                                         True), online["registrations"]

    # Offline: the short address again, in a new page: the same screen, from the service workers' copies.
    offline = out["offline"]
    assert "gotoError" not in offline, (offline, online["registrations"], online["kept"])
    # asked first, the short address was answered by its worker's redirect (Playwright reports no answer of a
    # redirect made by a worker), then the screen by the /screen/ worker's kept copy
    assert offline["requests"][:2] == [server + HOME, target], offline["requests"][:5]
    assert offline["status"] == 200 and offline["url"] == target and offline["fromServiceWorker"], offline
    assert offline["navigations"] == [target], offline["navigations"]
    read = offline["read"]
    assert read["url"] == target and read["controlled"] and read["scripted"], read
    assert read["place"] == profile["names"]["en"], read
    shown = read["times"]  # every row shown (imsak only in Ramadan): the API's local time of the day
    assert set(PRAYERS) <= set(shown) and shown == {row: expected[row] for row in shown}, (shown, expected)
    assert read["stale"] is None and read["waiting"] is None, read
    assert offline["errors"] == [] and offline["failed"] == [], (offline["errors"], offline["failed"])
    assert all(u.startswith(server) for u in offline["requests"]), offline["requests"]

    # Crafted registrations: made (the worker is allowed there), never followed off this mosque's /screen/.
    by_scope = {c["scope"]: c for c in out["crafted"]}
    control = by_scope.pop("/mosque/crafted-ok/screen/")
    assert control["registered"] is True, control
    assert f"{server}/screen/?mosque=crafted-ok&lang=en" in control["requests"], control  # followed: not kept, so it fails
    for scope, c in by_scope.items():
        assert c["registered"] is True, c
        assert c["gotoError"] and "ERR_INTERNET_DISCONNECTED" in c["gotoError"], c
        # Never a request for the crafted target (resolved as the worker would).  Other requests of the context may
        # show (the first screen, still open, reads its coming days and itself; the browser checks the worker's
        # script): the first screen's own address is then the navigations' check alone.
        crafted_target = urllib.parse.urljoin(server + scope, c["target"])
        if crafted_target != target:
            assert not any(u.startswith(crafted_target) for u in c["requests"]), (crafted_target, c["requests"])
        assert all(u in (server + scope, "chrome-error://chromewebdata/") for u in c["navigations"]), c

