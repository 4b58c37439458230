"""Benchmark: a whole /v1/prayer-times request at the ASGI level vs adhan-js computing the same days.

Ours: the Starlette app called directly as an ASGI application on one event loop (routing,
validation, the static-file lookup, computation, JSON, ETag), with the response cache
cleared before every request so each one renders; no HTTP parsing and no test-client
thread hops.  The cached figure is printed beside it.  Peer: adhan-js 4.4.6 in node, timed
inside node, bare ``new PrayerTimes`` for every day × method (no formatting).  Both: best
and median of the runs, milliseconds.  The two are measured in alternating rounds (ours,
then adhan-js, five times) so that a host that slows down for a while slows both: on this
shared machine one side's timings alone move by 30 % from one minute to the next.
"""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

os.environ["RATE_LIMIT_PER_MINUTE"] = "0"  # every request here must render, none may be refused
os.environ["STATIC_ROOT"] = tempfile.mkdtemp(prefix="bench-empty-static-")  # nothing pre-rendered: every request renders

from generator.prayer.methods import SPEC_METHODS  # noqa: E402
from runtime import app as runtime_app  # noqa: E402

PEERS = Path(__file__).resolve().parent.parent / "tests" / "peers"
RUNS = 200
ROUNDS = 5  # alternating rounds of RUNS / ROUNDS samples each
TEHRAN = {"lat": 35.69, "lng": 51.39, "tz": "Asia/Tehran"}
# Every kind of jamaat rule at once (issues 20 and 28): its cost is printed beside the plain year's.
JAMAAT = {"jamaat": "fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:15,maghrib:5",
          "jamaatWeekly": "fri", "jumuah": "13:15,14:00", "eid": "07:30,09:00", "jamaatDst": "dhuhr:13:45",
          "jumuahDst": "13:30,14:15", "jamaatRamadan": "maghrib:2,isha:21:30", "jamaatEarliest": "maghrib:17:00",
          "jamaatLatest": "maghrib:21:00", "jamaatTable": "day,fajr;2026-03-01..2026-03-07,05:30;2026-06-21,03:30",
          "jamaatNotice": "5"}
WORKLOADS = [
    ("1 year x 1 method (Tehran)", {**TEHRAN, "year": 2026}, {"first": "2026-01-01", "days": 365, "methods": ["Tehran"]}),
    ("31 days x 16 methods", {**TEHRAN, "year": 2026, "month": 3, "method": "all"},
     {"first": "2026-03-01", "days": 31, "methods": list(SPEC_METHODS)}),
]


async def asgi_get(path: str, query: str) -> tuple[int, int]:
    """Call the app as an ASGI server would for ``GET path?query``; return (status, body length).

    The body's chunks are kept, not joined: a server writes them to the socket as they come."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": [(b"host", b"127.0.0.1:8000")], "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000)}
    status, chunks = 0, []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await runtime_app.app(scope, receive, send)
    return status, sum(map(len, chunks))


async def time_ours(params: dict, cached: bool, runs: int) -> list[float]:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    assert (await asgi_get("/v1/prayer-times", query))[0] == 200
    samples = []
    for _ in range(runs):
        if not cached:
            runtime_app.cache.clear()
        start = time.perf_counter()
        status, _ = await asgi_get("/v1/prayer-times", query)
        samples.append((time.perf_counter() - start) * 1000)
        assert status == 200
    return samples


def time_adhan(spec: dict, runs: int) -> list[float]:
    arg = json.dumps({"lat": TEHRAN["lat"], "lng": TEHRAN["lng"], "runs": runs, **spec})
    out = subprocess.run(["node", str(PEERS / "adhan_bench.js"), arg], capture_output=True, text=True, check=True,
                         env={**os.environ, "TZ": "UTC"})
    return json.loads(out.stdout)["samples_ms"]


def best_median(samples: list[float]) -> tuple[float, float]:
    return min(samples), statistics.median(samples)


async def main() -> None:
    runtime_app.warm_up()
    print("GET /v1/prayer-times at the ASGI level vs adhan-js 4.4.6 bare computation (node 20)")
    print(f"{'workload':30} {'ours uncached':>22} {'ours cached':>20} {'adhan-js':>20} {'ratio (best/median)':>22}")
    for name, params, spec in WORKLOADS:
        ours, hit, peer = [], [], []
        for _ in range(ROUNDS):
            ours += await time_ours(params, cached=False, runs=RUNS // ROUNDS)
            hit += await time_ours(params, cached=True, runs=RUNS // ROUNDS)
            peer += time_adhan(spec, RUNS // ROUNDS)
        (ours_best, ours_median), (hit_best, hit_median), (peer_best, peer_median) = map(best_median, (ours, hit, peer))
        print(f"{name:30} {ours_best:9.2f} / {ours_median:6.2f} ms {hit_best:8.2f} / {hit_median:6.2f} ms "
              f"{peer_best:8.2f} / {peer_median:6.2f} ms {ours_best / peer_best:10.2f} / {ours_median / peer_median:5.2f}")
    print("ratio: our whole uncached request over adhan-js's bare computation of the same days (goal <= 0.3)")
    plain = await time_ours({**TEHRAN, "year": 2026}, cached=False, runs=40)
    with_jamaat = await time_ours({**TEHRAN, **JAMAAT, "year": 2026}, cached=False, runs=40)
    print(f"a year with jamaat rules ({'&'.join(f'{k}={v}' for k, v in JAMAAT.items())}): "
          f"{min(with_jamaat):.2f} / {statistics.median(with_jamaat):.2f} ms, against {min(plain):.2f} / "
          f"{statistics.median(plain):.2f} ms without (best / median, uncached)")
    polar = await time_ours({"lat": 69.65, "lng": 18.96, "tz": "Europe/Oslo", "year": 2026}, cached=False, runs=40)
    print(f"slowest quick query (Endpoint.quick: rendered on the event loop when the pool is idle), a polar year "
          f"at Tromsø: {min(polar):.2f} / {statistics.median(polar):.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
