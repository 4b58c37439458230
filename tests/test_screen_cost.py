"""What a hosted mosque's screen and its admin cost (issue 34: "the builder's preview and the screens cost what a
person's use should cost ... so one admin never sees a 429"; docs/operations.md "What a screen and an admin cost").

One screen runs for an hour and one admin edits the profile every ten minutes (five previews each), both behind the mosque's one
address, against the app in process with its default budgets: the render limit (100 cost units a minute,
RATE_LIMIT_PER_MINUTE's default, as one process serves), the edits budget (120 an hour, counted in the profile store)
and nginx's zones' defaults (deploy/render_nginx_conf.py: 100 requests a minute to the app, 600 profile reads).

Nothing depends on this machine's speed: the limiters and the store's budgets run on an injected clock (an hour
passes in the loop), and a render's cost is a fixed cost model (three times what it costs on the development
machine, README "Measured") instead of its CPU time.  The screen's schedule is screen_core.js's and screen.js's
(written out here from their constants: FOLLOW_MS 20 s, REFRESH_MS an hour, DAYS_AHEAD 31, the page's own URLs in
their order, the static path first), the admin's is the builder's (a month of times per change and, with a time set,
the warnings' year, builder.js, then a PUT).  References: the documented budgets above; the expected answer is that no request of either gets a 429.
"""
from __future__ import annotations

import json
import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from runtime import hosted, keys, mosque_store
from runtime.ratelimit import RateLimiter

ROOT = Path(__file__).resolve().parent.parent
PROFILE = json.loads((ROOT / "tests" / "fixtures" / "mosques" / "example-mosque.json").read_text(encoding="utf-8"))
FOLLOW_S, REFRESH_S, DAYS_AHEAD = 20, 3600, 31  # screen_core.js FOLLOW_MS, screen.js REFRESH_MS and DAYS_AHEAD
EDIT_EVERY_S, CHANGES_PER_EDIT = 600, 5
RENDER_BUDGET, EDITS_PER_HOUR = 100, 120  # RATE_LIMIT_PER_MINUTE's and HOSTED_EDITS_PER_HOUR's defaults
NGINX_RATE, NGINX_PROFILE_RATE = 100, 600  # deploy/render_nginx_conf.py RATE_PER_MINUTE, PROFILE_RATE_PER_MINUTE
# CPU seconds a render is charged (three times the development machine's: a year of times ~30 ms, a page ~16 ms).
COST_S = {"year": 0.09, "month": 0.015, "page": 0.05, "other": 0.01}


class Clock:
    def __init__(self, now_s: float):
        self.now_s = now_s

    def __call__(self) -> float:
        return self.now_s


def _cost_of(key: tuple) -> float:
    text = repr(key)
    if key[0] == "page":
        return COST_S["page"]
    if "'month'" in text:
        return COST_S["month"]
    return COST_S["year"] if "'year'" in text else COST_S["other"]


@pytest.fixture
def mosque_app(tmp_path, monkeypatch):
    """The app in process on a temp SQLite store, its limiters and budgets on the test's clock, renders charged
    by `COST_S`; yields (client, clock, the list of every answer's (time, method, path, status))."""
    import runtime.app as app_module

    clock = Clock(1_780_000_000.0)
    monkeypatch.setattr(app_module, "limiter", keys.KeyedLimiter(RateLimiter(RENDER_BUDGET, clock=clock),
                                                                 app_module.app_keys))
    monkeypatch.setattr(hosted, "creations", hosted.HourlyBucket(10, action="create", clock=clock))
    monkeypatch.setattr(hosted, "edits", hosted.HourlyBucket(EDITS_PER_HOUR, action="edit", clock=clock))
    real_rendered = app_module._rendered

    def modelled(key, render_body):
        job = real_rendered(key, render_body)

        def run():
            body, etag, _cpu_s = job()
            return body, etag, _cost_of(key)
        return run
    monkeypatch.setattr(app_module, "_rendered", modelled)
    previous = hosted._store
    store = mosque_store.SqliteStore(tmp_path / "mosques.sqlite3")
    hosted.open_store(store)
    try:
        yield TestClient(app_module.app), clock
    finally:
        hosted.close_store()
        store.close()
        if previous is not None:
            hosted.open_store(previous)


def _screen_urls(page: str) -> dict:
    config = json.loads(re.search(r'<script[^>]*id="page-config"[^>]*>(.*?)</script>', page, re.S).group(1))
    return config


def test_one_screen_for_an_hour_and_one_admin_editing_never_meet_a_429(mosque_app):
    client, clock = mosque_app
    log: list[tuple[float, str, str, int]] = []

    def ask(method: str, path: str, **options):
        response = client.request(method, path, **options)
        log.append((clock.now_s, method, path, response.status_code))
        return response

    created = ask("POST", "/v1/mosques", json=PROFILE)
    assert created.status_code == 201, created.text
    mosque_id, secret = created.json()["id"], created.json()["edit"]
    screen_path = created.json()["links"]["screen"]
    today = date(2026, 3, 5)
    state = {"version": 1}

    def first(urls: list[str], slot: str, value: str):
        for url in urls:  # the static path first, then the query (screen_core.js fetchFirst)
            if ask("GET", url.replace(slot, value), headers={"Cache-Control": "no-cache"}).status_code == 200:
                return

    def open_screen():
        page = ask("GET", screen_path, follow_redirects=True)
        assert page.status_code == 200, page.text[:300]
        config = _screen_urls(page.text)
        state["config"] = config
        state["rendered"] = f'"{config["profile"]["version"]}"'
        first(config["prayerTimes"], "year=YEAR", f"year={today.year}")
        for k in range(-1, DAYS_AHEAD + 1):  # yesterday, today, tomorrow, then the coming month one by one
            first(config["dayStatus"], "date=DATE", f"date={today + timedelta(days=k)}")

    start_s = clock.now_s
    open_screen()
    for second in range(1, 3601):
        clock.now_s = start_s + second
        if second % EDIT_EVERY_S == 60:  # the admin: a preview per change (a month of times), then the save
            for change in range(CHANGES_PER_EDIT):
                rules = f"city=birmingham&method=ImamAliFoundation&jamaat=fajr:{10 + second // 60 + change},dhuhr:13:30"
                preview = ask("GET", f"/v1/prayer-times?{rules}&year={today.year}&month={today.month}")
                assert preview.status_code == 200, preview.text[:300]
                # a time set (dhuhr 13:30): the warnings' year, asked once the form has rested (builder.js warnings())
                warned = ask("GET", f"/v1/prayer-times?{rules}&jamaatOutside=keep&year={today.year}")
                assert warned.status_code == 200, warned.text[:300]
            saved = ask("PUT", f"/v1/mosques/{mosque_id}", json=PROFILE,
                        headers={"Authorization": f"Bearer {secret}", "If-Match": f'"{state["version"]}"'})
            assert saved.status_code == 200, saved.text[:300]
            state["version"] = saved.json()["version"]
        if second % FOLLOW_S == 0:  # the screen asks whether its profile was edited
            poll = ask("GET", state["config"]["profile"]["url"], headers={"If-None-Match": state["rendered"]})
            if poll.status_code == 200 and poll.headers["etag"] != state["rendered"]:
                open_screen()  # location.reload()
            else:
                assert poll.status_code == 304, poll.text[:300]
        if second == REFRESH_S:  # the hourly re-read of today's answers
            first(state["config"]["prayerTimes"], "year=YEAR", f"year={today.year}")
            first(state["config"]["dayStatus"], "date=DATE", f"date={today}")
            first(state["config"]["dayStatus"], "date=DATE", f"date={today + timedelta(days=1)}")

    refused = [entry for entry in log if entry[3] == 429]
    assert refused == [], refused[:5]
    assert state["version"] == 1 + 3600 // EDIT_EVERY_S  # every save landed
    # nginx (a sufficient condition for limit_req with burst = rate, nodelay): no 60 s holds more requests of a zone
    # than its rate.  Every request but the profile's is counted in `renders` (static hits would not be: an upper bound).
    profile_path = state["config"]["profile"]["url"]
    reads = [t for t, method, path, _ in log if path == profile_path and method == "GET"]
    renders = [t for t, method, path, _ in log if path != profile_path]

    def busiest_minute(times: list[float]) -> int:
        return max(sum(1 for u in times if t <= u < t + 60) for t in times)
    assert busiest_minute(reads) <= NGINX_PROFILE_RATE and busiest_minute(renders) <= NGINX_RATE, \
        (busiest_minute(reads), busiest_minute(renders))
    polls = sum(1 for t, method, path, _ in log if path == profile_path)
    print(f"an hour: {len(log)} requests, {polls} profile polls, {len(renders)} others; "
          f"busiest minute {busiest_minute(renders)} of nginx's {NGINX_RATE}")


def test_a_ceiling_expectation_needs_half_the_bucket_and_runs_alone():
    """RateLimiter.admit's arithmetic, written out (100 units a minute, refilled 5/3 a second): after a page (5 units)
    an expectation capped at the whole minute (100) is admitted (5 <= 50 spent); while it is charged nothing else is
    (105 + 1 > 100); settled to its real 3 units, the next render is.  With 60 spent a ceiling waits until 50 are:
    (60 - 50) / (5/3) = 6 s.  A render expected below the ceiling still needs its whole cost in the bucket."""
    limiter = RateLimiter(100)
    assert limiter.admit("screen", 5, now_s=0.0) is None
    assert limiter.admit("screen", 500, now_s=0.0) is None  # capped at 100: a ceiling
    assert limiter.admit("screen", 1, now_s=0.0) == 4  # 106 > 100: (106 - 100) / (5/3) = 3.6 -> 4 s
    limiter.settle("screen", 500, 0.025, now_s=0.0)  # 25 ms: 3 units
    assert limiter.admit("screen", 1, now_s=0.0) is None
    assert limiter.admit("busy", 60, now_s=0.0) is None
    assert limiter.admit("busy", 100, now_s=0.0) == 6
    assert limiter.admit("busy", 41, now_s=0.0) == 1  # 101 > 100: not a ceiling, its whole cost needed
    assert limiter.admit("busy", 100, now_s=6.0) is None
