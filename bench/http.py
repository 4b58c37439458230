"""HTTP load on loopback with wrk: static hits through the app and through nginx, and dynamic answers.

`make bench-http`.  Starts uvicorn (2 workers, uvloop, bounded httptools) and deploy/nginx.conf on free
loopback ports, builds a small static_out for the static cases, runs wrk for DURATION_S
each, and prints requests/s, p99 latency, errors and the app's memory before and after.
Goals on the 2-core machine: app static ≥ 3,000 req/s, nginx ≥ 15,000 req/s, dynamic
≥ 1,000 req/s, zero errors, memory flat.  Then the contention case (issue 11) against one
app process as `make serve` runs it: 30 clients ask at once for distinct 90-day Tromsø
prayer feeds while one client keeps asking for a cached /v1/methods; goal: every feed
answered, cached answers p95 < 100 ms and none > 500 ms.  Traffic never leaves 127.0.0.1.
"""
from __future__ import annotations

import http.client
import os
import re
import shutil
import statistics
import threading
import time
import subprocess
import sys
import tempfile
from pathlib import Path

import build
from deploy import local_stack

DURATION_S = int(os.environ.get("BENCH_SECONDS", "30"))
RANDOM_PLACE_LUA = """
math.randomseed(os.time())
request = function()
  local lat = string.format("%.2f", math.random() * 120 - 60)
  local lng = string.format("%.2f", math.random() * 360 - 180)
  return wrk.format("GET", "/v1/prayer-times?lat=" .. lat .. "&lng=" .. lng .. "&date=2026-03-20")
end
"""


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total / 1024


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid] + [int(p) for p in out]


def _wrk(url: str, script: str | None = None) -> dict:
    command = ["wrk", "-t2", "-c64", f"-d{DURATION_S}s", "--latency"]
    if script:
        command += ["-s", script]
    out = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    p99_ms = float(p99.group(1)) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {"rate": rate, "p99_ms": p99_ms, "non2xx": int(errors.group(1)) if errors else 0,
            "socket_errors": socket_errors.group(1) if socket_errors else "none"}


def _get_status(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def contention(port: int, feeds: int = 30) -> dict:
    """``feeds`` concurrent distinct 90-day feed renders; latencies of a cached answer meanwhile (s)."""
    assert _get_status(port, "/v1/methods") == 200  # cached from here on
    statuses: list[int] = []
    latencies: list[float] = []
    busy = threading.Event()
    busy.set()

    def sample() -> None:
        while busy.is_set():
            started = time.perf_counter()
            _get_status(port, "/v1/methods")
            latencies.append(time.perf_counter() - started)
            time.sleep(0.005)

    sampler = threading.Thread(target=sample)
    threads = [threading.Thread(target=lambda i=i: statuses.append(
        _get_status(port, f"/v1/prayer-times.ics?city=tromso&days=90&offsets=fajr:{i}&name=bench{i}")))
        for i in range(feeds)]
    started = time.perf_counter()
    sampler.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    elapsed = time.perf_counter() - started
    busy.clear()
    sampler.join(10)
    return {"elapsed_s": elapsed, "ok": statuses.count(200), "feeds": feeds, "n": len(latencies),
            "median_ms": statistics.median(latencies) * 1e3,
            "p95_ms": statistics.quantiles(latencies, n=20)[-1] * 1e3, "max_ms": max(latencies) * 1e3}


def main() -> None:
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk (make bench-http does it)")
    work = Path(tempfile.mkdtemp(prefix="bench-http-"))
    work.chmod(0o755)  # nginx workers run as an unprivileged user and must read static_out
    static = work / "static_out"
    build.main(["--years", "2026-2026", "--only", "methods,cities", "--jobs", "2", "--out", str(static)])
    app_port, nginx_port = local_stack.free_port(), local_stack.free_port()
    app = local_stack.start_app(static, app_port, workers=2)
    front = local_stack.start_nginx(work / "nginx", static, nginx_port, app_port)
    script = work / "random_place.lua"
    script.write_text(RANDOM_PLACE_LUA)
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{app_port}/v1/methods")
        local_stack.wait_until_up(f"http://127.0.0.1:{nginx_port}/v1/methods")
        cases = [
            ("static hit via app", f"http://127.0.0.1:{app_port}/v1/methods", None, 3000),
            ("static hit via nginx", f"http://127.0.0.1:{nginx_port}/v1/methods", None, 15000),
            ("dynamic 1-day lat/lng", f"http://127.0.0.1:{app_port}", str(script), 1000),
        ]
        print(f"wrk -t2 -c64 -d{DURATION_S}s on 127.0.0.1; uvicorn --workers 2 (uvloop, bounded httptools); nginx-light")
        print(f"{'case':24} {'req/s':>10} {'p99 ms':>8} {'errors':>7} {'app RSS MB before→after':>26} {'goal':>8}")
        for name, url, lua, goal in cases:
            before = _rss_mb(_children(app.pid))
            result = _wrk(url, lua)
            after = _rss_mb(_children(app.pid))
            verdict = "ok" if result["rate"] >= goal and result["non2xx"] == 0 else "MISSED"
            print(f"{name:24} {result['rate']:10.0f} {result['p99_ms']:8.2f} {result['non2xx']:7d} "
                  f"{before:12.1f} → {after:8.1f}  ≥{goal:<6} {verdict}  (socket errors: {result['socket_errors']})")
    finally:
        local_stack.stop(front, app)
    single_port = local_stack.free_port()
    single = local_stack.start_app(static, single_port)  # one process, as `make serve` runs it
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{single_port}/v1/methods", seconds=60)
        result = contention(single_port)
        verdict = "ok" if result["ok"] == result["feeds"] and result["p95_ms"] < 100 and result["max_ms"] < 500 \
            else "MISSED"
        print(f"contention: {result['feeds']} distinct 90-day feeds at once on one process: {result['ok']} answered "
              f"in {result['elapsed_s']:.1f} s; cached /v1/methods meanwhile: n={result['n']}, median "
              f"{result['median_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms, max {result['max_ms']:.1f} ms "
              f"(goal p95 < 100, max < 500) {verdict}")
    finally:
        local_stack.stop(single)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
