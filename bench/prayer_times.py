"""Benchmark: a whole /v1/prayer-times request in process vs adhan-js computing the same days.

Ours: Starlette's TestClient through the full ASGI stack (routing, validation,
computation, JSON), with the response cache cleared before every request, so each
one computes; the cached figure is printed beside it.  Peer: adhan-js 4.4.6 in node,
timed inside node, bare ``new PrayerTimes`` for every day × method (no formatting).
Both: best and median of the runs, milliseconds.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import time
from pathlib import Path

from starlette.testclient import TestClient

os.environ["RATE_LIMIT_PER_MINUTE"] = "0"  # every request here must render, none may be refused

from generator.methods import METHODS
from runtime import app as runtime_app

PEERS = Path(__file__).resolve().parent.parent / "tests" / "peers"
RUNS = 200
TEHRAN = {"lat": 35.69, "lng": 51.39, "tz": "Asia/Tehran"}
WORKLOADS = [
    ("1 year x 1 method (Tehran)", {**TEHRAN, "year": 2026}, {"first": "2026-01-01", "days": 365, "methods": ["Tehran"]}),
    ("31 days x 16 methods", {**TEHRAN, "year": 2026, "month": 3, "method": "all"},
     {"first": "2026-03-01", "days": 31, "methods": list(METHODS)}),
]


def time_ours(client: TestClient, params: dict, cached: bool) -> tuple[float, float]:
    query = "/v1/prayer-times?" + "&".join(f"{k}={v}" for k, v in params.items())
    assert client.get(query).status_code == 200
    samples = []
    for _ in range(RUNS):
        if not cached:
            runtime_app.cache.clear()
        start = time.perf_counter()
        response = client.get(query)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    return min(samples), statistics.median(samples)


def time_adhan(spec: dict) -> tuple[float, float]:
    arg = json.dumps({"lat": TEHRAN["lat"], "lng": TEHRAN["lng"], "runs": RUNS, **spec})
    out = subprocess.run(["node", str(PEERS / "adhan_bench.js"), arg], capture_output=True, text=True, check=True,
                         env={**os.environ, "TZ": "UTC"})
    result = json.loads(out.stdout)
    return result["best_ms"], result["median_ms"]


def main() -> None:
    print("GET /v1/prayer-times in process (TestClient) vs adhan-js 4.4.6 bare computation (node 20)")
    print(f"{'workload':30} {'ours uncached':>22} {'ours cached':>20} {'adhan-js':>20} {'ratio (best/median)':>22}")
    with TestClient(runtime_app.app) as client:
        for name, params, spec in WORKLOADS:
            ours = time_ours(client, params, cached=False)
            hit = time_ours(client, params, cached=True)
            peer = time_adhan(spec)
            print(f"{name:30} {ours[0]:9.2f} / {ours[1]:6.2f} ms {hit[0]:8.2f} / {hit[1]:6.2f} ms "
                  f"{peer[0]:8.2f} / {peer[1]:6.2f} ms {ours[0] / peer[0]:10.2f} / {ours[1] / peer[1]:5.2f}")
    print("ratio < 1: our whole uncached request is faster than adhan-js's bare computation")


if __name__ == "__main__":
    main()
