"""Benchmark: a whole /v1/prayer-times request at the ASGI level vs adhan-js computing the same days.

Ours: the Starlette app called directly as an ASGI application on one event loop (routing,
validation, the static-file lookup, computation, JSON, ETag), with the response cache
cleared before every request so each one renders; no HTTP parsing and no test-client
thread hops.  The cached figure is printed beside it.  Peer: adhan-js 4.4.6 in node, timed
inside node, bare ``new PrayerTimes`` for every day × method (no formatting).  Both: best
and median of the runs, milliseconds, measured in the same run so that a busy machine
slows both.
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

from generator.methods import METHODS  # noqa: E402
from runtime import app as runtime_app  # noqa: E402

PEERS = Path(__file__).resolve().parent.parent / "tests" / "peers"
RUNS = 200
TEHRAN = {"lat": 35.69, "lng": 51.39, "tz": "Asia/Tehran"}
WORKLOADS = [
    ("1 year x 1 method (Tehran)", {**TEHRAN, "year": 2026}, {"first": "2026-01-01", "days": 365, "methods": ["Tehran"]}),
    ("31 days x 16 methods", {**TEHRAN, "year": 2026, "month": 3, "method": "all"},
     {"first": "2026-03-01", "days": 31, "methods": list(METHODS)}),
]


async def asgi_get(path: str, query: str) -> tuple[int, bytes]:
    """Call the app as an ASGI server would for ``GET path?query``; return (status, body)."""
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
    return status, b"".join(chunks)


async def time_ours(params: dict, cached: bool) -> tuple[float, float]:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    assert (await asgi_get("/v1/prayer-times", query))[0] == 200
    samples = []
    for _ in range(RUNS):
        if not cached:
            runtime_app.cache.clear()
        start = time.perf_counter()
        status, _ = await asgi_get("/v1/prayer-times", query)
        samples.append((time.perf_counter() - start) * 1000)
        assert status == 200
    return min(samples), statistics.median(samples)


def time_adhan(spec: dict) -> tuple[float, float]:
    arg = json.dumps({"lat": TEHRAN["lat"], "lng": TEHRAN["lng"], "runs": RUNS, **spec})
    out = subprocess.run(["node", str(PEERS / "adhan_bench.js"), arg], capture_output=True, text=True, check=True,
                         env={**os.environ, "TZ": "UTC"})
    result = json.loads(out.stdout)
    return result["best_ms"], result["median_ms"]


async def main() -> None:
    runtime_app.warm_up()
    print("GET /v1/prayer-times at the ASGI level vs adhan-js 4.4.6 bare computation (node 20)")
    print(f"{'workload':30} {'ours uncached':>22} {'ours cached':>20} {'adhan-js':>20} {'ratio (best/median)':>22}")
    for name, params, spec in WORKLOADS:
        ours = await time_ours(params, cached=False)
        hit = await time_ours(params, cached=True)
        peer = time_adhan(spec)
        print(f"{name:30} {ours[0]:9.2f} / {ours[1]:6.2f} ms {hit[0]:8.2f} / {hit[1]:6.2f} ms "
              f"{peer[0]:8.2f} / {peer[1]:6.2f} ms {ours[0] / peer[0]:10.2f} / {ours[1] / peer[1]:5.2f}")
    print("ratio: our whole uncached request over adhan-js's bare computation of the same days (goal <= 0.3)")


if __name__ == "__main__":
    asyncio.run(main())
