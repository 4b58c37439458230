"""One client cannot fill the render pool or pass its limit with concurrent expensive renders
(issue 22, finding 2: 100 concurrent 90-day feeds from one address made other clients' qibla
answers 503 or wait 9.8 s).

Real concurrency over HTTP against uvicorn as `make serve` runs it (tests/test_runtime_http.py's
`serving`): one client (127.0.0.2) sends 100 distinct 90-day Tromsø prayer feeds at once (each
~120 ms of CPU, measured in issue 11); another client (127.0.0.3) meanwhile asks for distinct,
uncached qibla answers one after another.  The reference is the wall clock and the statuses seen
on the wire; the limiter arithmetic is draft-ietf-httpapi-ratelimit-headers' fields.  Bounded:
at most 100 + 60 requests and ~60 s per test.
"""
from __future__ import annotations

import asyncio
import contextlib
import threading
import time

import pytest

from runtime.ratelimit import CostModel, RateLimiter, units_of
from runtime.render_pool import Busy, RenderPool
from test_runtime_http import get, serving

pytestmark = pytest.mark.xdist_group("runtime_http")

FEEDS = 100


def _storm_and_probe(base: str) -> tuple[list[int], list[tuple[int, float, int, int]]]:
    """Fire FEEDS feeds from one client; return their statuses and (status, seconds, feeds answered 200 by
    then, feeds answered 200 when it was asked) of the other's qiblas."""
    storm: list[int] = []
    threads = [threading.Thread(target=lambda i=i: storm.append(
        get(base, f"/v1/prayer-times.ics?city=tromso&days=90&offsets=fajr:{i % 60},isha:{i // 60}",
            source="127.0.0.2", timeout=60)[0])) for i in range(FEEDS)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)  # the storm has arrived
    probes: list[tuple[int, float, int]] = []
    for i in range(60):
        started, done_before = time.perf_counter(), storm.count(200)
        status = get(base, f"/v1/qibla?lat={-30 + i * 0.77:.2f}&lng=44.4", source="127.0.0.3")[0]
        probes.append((status, time.perf_counter() - started, storm.count(200), done_before))
        if not any(thread.is_alive() for thread in threads) and i >= 10:
            break
        time.sleep(0.02)
    for thread in threads:
        thread.join(60)
    return storm, probes


@pytest.mark.parametrize("rate_limit_per_minute", [100, 0], ids=["own limit (make serve)", "no limit (behind nginx)"])
def test_a_storm_of_feeds_from_one_client_does_not_starve_another(tmp_path, rate_limit_per_minute):
    with serving(tmp_path, rate_limit_per_minute=rate_limit_per_minute) as base:
        storm, probes = _storm_and_probe(base)
    seconds = [s for _, s, _, _ in probes]
    print(f"limit {rate_limit_per_minute}: storm {sorted(set(storm))} "
          f"({storm.count(200)} x 200, {storm.count(429)} x 429, {storm.count(503)} x 503); "
          f"other client: n={len(probes)}, max {max(seconds) * 1000:.0f} ms, statuses {sorted({s for s, _, _, _ in probes})}")
    assert len(storm) == FEEDS and set(storm) <= {200, 429, 503}
    assert all(status == 200 for status, _, _, _ in probes), probes
    # it waits for a free thread (one feed, ~120 ms of CPU), never behind the storm's queue: 0.3-0.5 s
    # measured on this 2-core VM when idle, up to 1.4 s under a load average of 7 (before: 8.8-10 s).
    # Issue 34: the verdict is the order, not those seconds: the first qibla is answered before the
    # storm's admitted feeds are (threads are handed to clients in turn: it waits for one running feed).  Judged
    # only when the first qibla was asked with more than two turns of the pool's two threads still to run: on a
    # fast machine the admitted feeds may all be done before it is asked, and then there is no order to judge.
    if storm.count(200) - probes[0][3] >= 2 * 2 + 1:
        assert probes[0][2] < storm.count(200), probes
    if rate_limit_per_minute:
        # each feed costs ~12 units and the expected cost is charged before it runs: 100 units a minute
        # let at most ~100 / 9 feeds through (a unit a second refills meanwhile)
        assert storm.count(200) <= 15 and storm.count(429) >= FEEDS - 15 - storm.count(503), storm
    else:
        assert storm.count(200) <= 32 + 10 and storm.count(503) >= FEEDS - 42  # at most half the pool (64) at once


def test_expected_cost_is_charged_before_and_settled_after():
    """Units are started 10 ms of CPU (runtime/ratelimit.py): a render expected to cost 12 units takes
    12 from a bucket of 20 at once, so a second is refused until it is settled to its real cost."""
    limiter = RateLimiter(20)
    assert limiter.admit("a", 12, now_s=0.0) is None
    assert limiter.admit("a", 12, now_s=0.0) == 12  # 24 > 20: 4 units refill at 1/3 a second in 12 s
    limiter.settle("a", 12, 0.031, now_s=0.0)  # it really took 31 ms: 4 units
    assert limiter.admit("a", 12, now_s=0.0) is None  # 4 + 12 <= 20
    limiter.settle("a", 12, None, now_s=0.0)  # refused by a full pool: nothing spent
    assert limiter.headers("a", 0.0)["RateLimit"] == '"renders";r=16;t=12'
    assert limiter.admit("b", 500, now_s=0.0) is None  # an estimate above the limit is charged as the whole limit


def test_cost_model_learns_per_day_and_method():
    """Work is days × methods; the first render of a kind sets its cost per unit of work."""
    model = CostModel()
    feed = {"city": "tromso", "days": 90, "method": "Tehran", "date": "2026-01-01"}
    assert CostModel.work(feed) == ("days", 90)
    assert CostModel.work({"year": 2026, "month": 3, "method": "Jafari,Tehran"}) == ("month", 60)
    assert CostModel.work({"year": 2026, "method": "Jafari"}) == ("year", 365)
    assert CostModel.work({"lat": 1, "lng": 2}) == ("one", 1)
    assert model.expected_units("prayer-times.ics", feed) == units_of(90 * CostModel.PRIOR_CPU_S_PER_WORK) == 27
    model.learn("prayer-times.ics", {**feed, "days": 60}, 0.080)  # 80 ms for 60 days
    assert model.expected_units("prayer-times.ics", feed) == 12  # 90 days: 120 ms
    assert model.expected_units("prayer-times.ics", {**feed, "days": 7}) == 1
    assert model.expected_units("night.ics", feed) == 27  # another endpoint: still the prior


def test_pool_hands_threads_to_clients_in_turn_and_caps_each_client():
    """One thread, client a queues 5 renders, then b one: b's runs second, not sixth; a's sixth
    admitted render (the cap is half of 10) is refused."""
    order: list[str] = []

    async def scenario():
        pool = RenderPool(threads=1, max_pending=10, budget_s=10)
        gate = threading.Event()

        def job(name):
            def run():
                gate.wait(5)
                order.append(name)
                return name
            return run

        tasks = [asyncio.create_task(pool.run(("a", i), job(f"a{i}"), "a")) for i in range(5)]
        await asyncio.sleep(0.01)
        with pytest.raises(Busy, match="the most one client may"):
            await pool.run(("a", 5), job("a5"), "a")
        tasks.append(asyncio.create_task(pool.run(("b", 0), job("b0"), "b")))
        await asyncio.sleep(0.01)
        gate.set()
        results = await asyncio.gather(*tasks)
        pool.shutdown()
        return results

    results = asyncio.run(scenario())
    assert sorted(results) == ["a0", "a1", "a2", "a3", "a4", "b0"]
    assert order[:2] == ["a0", "b0"], order


EXPENSIVE_OPTIONS = ("jamaat=fajr:20,dhuhr:10,asr:15,maghrib:5,isha:15&jamaatWeekly=fri&jamaatRound=15"
                     "&jumuah=13:15,14:00&eid=07:30,09:00&ramadan=1&alarm=10&duration=fajr:20,maghrib:30"
                     "&prayers=imsak,fajr,sunrise,dhuhr,asr,maghrib,isha,midnight")
BURST = 30


PLAIN_CPU_S, EXPENSIVE_CPU_S = 0.060, 0.160  # a plain 90-day feed and one with every option (issue 29's measures)


class _FrozenClockLimiter(RateLimiter):
    """The app's limiter on a clock that does not move: no refill during the test, so what it admits does
    not depend on how fast this machine renders (issue 34)."""

    NOW_S = 1_000_000.0

    def admit(self, client, units=1, now_s=None):
        return super().admit(client, units, self.NOW_S)

    def settle(self, client, charged_units, cpu_s, now_s=None):
        return super().settle(client, charged_units, cpu_s, self.NOW_S)

    def headers(self, client, now_s=None):
        return super().headers(client, self.NOW_S)


def _burn_cpu(cpu_s: float) -> None:
    """Use ``cpu_s`` of this thread's CPU (time.thread_time: only while it runs, so a busy machine makes
    it slower, never dearer): the injected cost of a render, which the app measures the same way."""
    started = time.thread_time()
    while time.thread_time() - started < cpu_s:
        pass


@contextlib.contextmanager
def _feeds_costing(cost_of):
    """Replace the prayer feed's render by one that costs ``cost_of(params)`` seconds of CPU (a short
    calendar as its body): the cost model is injected, the rest of the app is real."""
    from generator.api import BY_NAME

    endpoint = BY_NAME["prayer-times.ics"]
    real = endpoint.render

    def render(params):
        _burn_cpu(cost_of(params))
        return f"BEGIN:VCALENDAR\r\nX-CITY:{params.get('city')}\r\nEND:VCALENDAR\r\n".encode()

    object.__setattr__(endpoint, "render", render)  # Endpoint is frozen; the app calls endpoint.render
    try:
        yield
    finally:
        object.__setattr__(endpoint, "render", real)


def test_a_burst_of_expensive_feeds_is_charged_what_its_options_cost(client, monkeypatch):
    """Issue 29: the limiter charged a feed by days × methods only, at what plain feeds had cost: after a
    few plain 90-day feeds, a burst of 90-day feeds with jamaat, Jumu'ah, Eid, Ramadan, alarms and all
    eight times (~2.5× a plain one's CPU) was admitted at the plain cost, and one address spent 2.4 s of
    CPU in one burst against 1 s a minute.  Here the app (in process, its limiter on: 100 units a minute,
    one unit per started 10 ms of the render thread's CPU) learns from three plain feeds, then one client
    sends BURST expensive feeds at once (distinct cities: nothing cached).  Issue 34: the costs are
    injected (each render burns exactly its CPU: 60 ms plain, 160 ms expensive, issue 29's measures) and
    the limiter's clock is frozen, so no verdict depends on this machine's speed (the test had re-measured
    a feed's cost in its own process and failed once when the two measures differed).  Reference: the
    budget of 100 units and 16 units (160 ms) a feed: the admitted feeds' CPU stays within the budget."""
    from generator.places import cities
    from runtime import app as runtime_app

    ids = sorted(c["id"] for c in cities.by_id().values() if abs(c["lat"]) < 50)[:BURST + 3]
    monkeypatch.setattr(runtime_app, "costs", CostModel())
    monkeypatch.setattr(runtime_app.renders, "budget_s", 600.0)  # never a 503 for a slow machine
    runtime_app.cache.clear()
    with _feeds_costing(lambda params: EXPENSIVE_CPU_S if "jamaat" in params else PLAIN_CPU_S):
        monkeypatch.setattr(runtime_app, "limiter", _FrozenClockLimiter(1000))
        for city in ids[:3]:  # teach the cost model the plain kind
            assert client.get(f"/v1/prayer-times.ics?city={city}&days=90").status_code == 200
        monkeypatch.setattr(runtime_app, "limiter", _FrozenClockLimiter(100))
        statuses: list[int] = []
        threads = [threading.Thread(target=lambda city=city: statuses.append(client.get(
            f"/v1/prayer-times.ics?city={city}&days=90&{EXPENSIVE_OPTIONS}").status_code)) for city in ids[3:]]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    runtime_app.cache.clear()
    admitted = statuses.count(200)
    print(f"burst: {admitted} x 200, {statuses.count(429)} x 429, {statuses.count(503)} x 503")
    assert len(statuses) == BURST and set(statuses) <= {200, 429}
    assert admitted >= 1 and statuses.count(429) >= 1
    assert admitted * units_of(EXPENSIVE_CPU_S) <= 100, (admitted, statuses)


def test_cost_model_keeps_kinds_apart_by_their_options():
    """Issue 29: a kind learned from cheap option values is never used for dearer ones; a new kind is
    expected to cost what the dearest kind of its endpoint and span has (at least the prior)."""
    model = CostModel()
    plain = {"city": "leeds", "days": 90, "method": "Tehran", "date": "2026-01-01"}
    dear = {**plain, "prayers": "imsak,fajr,sunrise,dhuhr,asr,maghrib,isha,midnight", "alarm": 10}
    model.learn("prayer-times.ics", plain, 0.060)  # 60 ms: 0.67 ms a day
    assert model.expected_units("prayer-times.ics", {**plain, "city": "york", "date": "2026-02-01"}) == 6  # one kind
    assert model.expected_units("prayer-times.ics", dear) == units_of(90 * CostModel.PRIOR_CPU_S_PER_WORK)
    model.learn("prayer-times.ics", {**dear, "prayers": "fajr"}, 0.050)  # cheap values of the same options
    assert model.expected_units("prayer-times.ics", dear) == 27  # still unseen: the prior, not 5
    model.learn("prayer-times.ics", dear, 0.450)  # 5 ms a day: the dearest kind now
    assert model.expected_units("prayer-times.ics", {**dear, "alarm": 20}) == 45  # a new kind: the dearest's cost
    assert model.expected_units("night.ics", plain) == 27  # another endpoint: its own prior


def test_cost_model_memory_is_bounded(monkeypatch):
    monkeypatch.setattr(CostModel, "MAX_KINDS", 10)
    model = CostModel()
    for minutes in range(50):
        model.learn("prayer-times.ics", {"days": 7, "alarm": minutes}, 0.001)
    assert len(model._cpu_s_per_work) == 10
