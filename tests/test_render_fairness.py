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
import threading
import time

import pytest

from runtime.ratelimit import CostModel, RateLimiter, units_of
from runtime.render_pool import Busy, RenderPool
from test_runtime_http import get, serving

pytestmark = pytest.mark.xdist_group("runtime_http")

FEEDS = 100


def _storm_and_probe(base: str) -> tuple[list[int], list[tuple[int, float]]]:
    """Fire FEEDS feeds from one client; return their statuses and (status, seconds) of the other's qiblas."""
    storm: list[int] = []
    threads = [threading.Thread(target=lambda i=i: storm.append(
        get(base, f"/v1/prayer-times.ics?city=tromso&days=90&offsets=fajr:{i % 60},isha:{i // 60}",
            source="127.0.0.2", timeout=60)[0])) for i in range(FEEDS)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)  # the storm has arrived
    probes: list[tuple[int, float]] = []
    for i in range(60):
        started = time.perf_counter()
        status = get(base, f"/v1/qibla?lat={-30 + i * 0.77:.2f}&lng=44.4", source="127.0.0.3")[0]
        probes.append((status, time.perf_counter() - started))
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
    seconds = [s for _, s in probes]
    print(f"limit {rate_limit_per_minute}: storm {sorted(set(storm))} "
          f"({storm.count(200)} x 200, {storm.count(429)} x 429, {storm.count(503)} x 503); "
          f"other client: n={len(probes)}, max {max(seconds) * 1000:.0f} ms, statuses {sorted({s for s, _ in probes})}")
    assert len(storm) == FEEDS and set(storm) <= {200, 429, 503}
    assert all(status == 200 for status, _ in probes), probes
    # it waits for a free thread (one feed, ~120 ms of CPU), never behind the storm's queue: 0.3-0.5 s
    # measured on this 2-core VM when idle, up to 1.4 s under a load average of 7 (before: 8.8-10 s)
    assert max(seconds) < 2.0, probes
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
    assert model.expected_units("prayer-times.ics", feed) == units_of(90 * CostModel.PRIOR_CPU_S_PER_WORK) == 18
    model.learn("prayer-times.ics", {**feed, "days": 60}, 0.080)  # 80 ms for 60 days
    assert model.expected_units("prayer-times.ics", feed) == 12  # 90 days: 120 ms
    assert model.expected_units("prayer-times.ics", {**feed, "days": 7}) == 1
    assert model.expected_units("night.ics", feed) == 18  # another endpoint: still the prior


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
