"""A rolling restart behind deploy/nginx.conf loses no request (issue 34: with nginx's `max_fails=1
fail_timeout=10s` and no retry, a rolling restart with less than 10 s between nodes gave 417 x 502).

Real processes, as docs/operations.md "Restart without losing a request" runs them: two uvicorn apps (one
worker each) behind a real nginx; four clients ask for uncached answers (distinct qibla coordinates,
which only the app answers) over keep-alive connections in a loop while the first app is stopped with
SIGTERM (uvicorn's graceful shutdown: it stops accepting, finishes what it holds, closes idle
connections), started again and waited for at its own address and until nginx answers from it again
(its access log), then the second the same way; the test
itself also asks while each app is down.  Reference: the statuses on the wire (every one 200, bodies
the qibla JSON), and nginx's access log (upstream address and time of each request).  Skipped only
where no nginx binary can be found.
"""
from __future__ import annotations

import http.client
import re
import threading
import time

import pytest

from deploy import local_stack

pytestmark = pytest.mark.skipif(local_stack.nginx_binary() is None,
                                reason="nginx is not installed (apt-get install nginx-light)")

CLIENTS = 4
MAX_REQUESTS = 20_000  # the loop's bound, whatever happens
PAUSE_S = 0.005  # between one client's requests


def _ask(connection: http.client.HTTPConnection, i: int) -> tuple[int, bytes]:
    connection.request("GET", f"/v1/qibla?lat={(i % 17000) / 200 - 42.5:.3f}&lng={(i // 17000) + 0.5}")
    response = connection.getresponse()
    return response.status, response.read()


def _wait_until_nginx_uses(log, port: int, seconds: float = 120.0) -> None:
    """Wait until nginx's access log shows an answer from the app at ``port`` after this call: nginx sets an
    app aside for `fail_timeout` (2 s) after its failures, and the next app must not stop before it is back
    (docs/operations.md: wait for this line, or 3 s)."""
    start = log.stat().st_size
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with open(log, "rb") as file:
            file.seek(start)
            if re.search(rb"upstream=(\S+, )*127\.0\.0\.1:%d upstream_status=(\S+, )*200 " % port, file.read()):
                return
        time.sleep(0.1)
    raise AssertionError(f"nginx did not use the app at {port} again within {seconds} s")


def test_a_rolling_restart_behind_nginx_loses_no_request(tmp_path):
    static = tmp_path / "static_out"  # no pre-rendered file: every answer is the app's
    static.mkdir()
    static.chmod(0o755)
    ports = [local_stack.free_port(), local_stack.free_port()]
    apps = [local_stack.start_app(static, port) for port in ports]
    nginx_port = local_stack.free_port()
    log = tmp_path / "nginx" / "access.log"
    nginx = local_stack.start_nginx(tmp_path / "nginx", static, nginx_port, ports, access_log=log,
                                    rate_per_minute=1_000_000)  # the limit is not what this tests
    statuses: list[int] = []
    counter, lock, done = iter(range(MAX_REQUESTS)), threading.Lock(), threading.Event()

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", nginx_port, timeout=60)
        try:
            while not done.is_set():
                with lock:
                    i = next(counter, None)
                if i is None:
                    return
                status, body = _ask(connection, i)
                statuses.append(status)
                assert status != 200 or body.startswith(b'{"lat":'), body[:80]
                time.sleep(PAUSE_S)  # steady traffic, not a load test: the suite's other worker keeps its core
        finally:
            connection.close()

    try:
        for port in ports:
            local_stack.wait_until_up(f"http://127.0.0.1:{port}/v1/methods", seconds=120)
        local_stack.wait_until_up(f"http://127.0.0.1:{nginx_port}/v1/methods")
        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for thread in threads:
            thread.start()
        while_down: list[int] = []
        for n, port in enumerate(ports):
            apps[n].terminate()  # SIGTERM: uvicorn's graceful shutdown
            assert apps[n].wait(60) in (0, -15)  # uvicorn re-raises the signal once it has shut down
            own = http.client.HTTPConnection("127.0.0.1", nginx_port, timeout=60)
            while_down += [_ask(own, MAX_REQUESTS + 100 * n + i)[0] for i in range(20)]  # asked while it is down
            own.close()
            apps[n] = local_stack.start_app(static, port)
            local_stack.wait_until_up(f"http://127.0.0.1:{port}/v1/methods", seconds=120)
            _wait_until_nginx_uses(log, port)  # the procedure's last step: nginx answers from it again
        done.set()
        for thread in threads:
            thread.join(120)
    finally:
        done.set()
        local_stack.stop(nginx, *apps)
    print(f"{len(statuses)} requests in the loop, {len(while_down)} while an app was down: "
          f"{sorted(set(statuses + while_down))}")
    errors = (tmp_path / "nginx" / "error.log")
    why = [line for line in (errors.read_text().splitlines() if errors.exists() else []) if "upstream" in line][:8]
    assert len(statuses) >= CLIENTS and while_down == [200] * 40, why
    assert [status for status in statuses if status != 200] == [], why  # nginx's own reasons, if any
    lines = [line for line in log.read_text().splitlines() if "/v1/qibla" in line]
    fields = [re.search(r'"GET /v1/qibla\S* HTTP/1.1" (\d+) .* upstream=(\S+(?:, \S+)*) upstream_status=(\S+(?:, \S+)*) '
                        r'upstream_time=(\S+(?:, \S+)*) rid=([0-9a-f]{32})$', line) for line in lines]
    assert all(fields), [line for line, match in zip(lines, fields) if not match][:3]
    answered_by = {match.group(2).split(", ")[-1] for match in fields}
    assert answered_by == {f"127.0.0.1:{port}" for port in ports}, answered_by
    assert all(float(match.group(4).split(", ")[-1]) >= 0 for match in fields)
    assert len(lines) == len(statuses) + len(while_down)  # every request of the test, one line each
