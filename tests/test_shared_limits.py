"""Limits that hold across nodes (issue 34: limits were per app process, so N processes allowed N times the limit).

Real processes, as docs/operations.md runs them: one throw-away PostgreSQL cluster (tests/pg_cluster.py), two uvicorn
apps on it (one worker each), and a real nginx in front of both.

* Writes: a client's creations and edits are counted in PostgreSQL (runtime/mosque_store.py ``budgets``, one atomic
  upsert per action), so with requests alternating between the two apps the budget is spent once: the N+1th
  creation is refused whichever app it reaches.  The client is an IPv6 /64 (each request from another address of
  it, as nginx forwards them in X-Forwarded-For): one client.  On the old code (a bucket per process) each app
  admitted N, so 2N creations passed.
* Reads: nginx's shared-memory zone is the one per-client limit in front of both apps (their own limit off), so a
  client gets RATE uncached answers a minute in all although nginx's access log shows both apps answering.

References: the statuses on the wire and nginx's access log (which app answered each request); the limits are
the ones set here (HOSTED_CREATES_PER_HOUR=3, HOSTED_EDITS_PER_HOUR=4, nginx 12 a minute).  Skipped, with the
reason, only where no PostgreSQL server binaries or no nginx can be found.
"""
from __future__ import annotations

import http.client
import json
import re
import time
import uuid
from pathlib import Path

import pytest

from deploy import local_stack

import pg_cluster  # noqa: E402  (a helper beside the tests)

ROOT = Path(__file__).resolve().parent.parent
PROFILE = json.loads((ROOT / "tests" / "fixtures" / "mosques" / "example-mosque.json").read_text(encoding="utf-8"))
CREATES_PER_HOUR, EDITS_PER_HOUR, READS_PER_MINUTE = 3, 4, 12

pytestmark = [pytest.mark.skipif(pg_cluster.binaries() is None, reason=pg_cluster.SKIP_REASON),
              pytest.mark.skipif(local_stack.nginx_binary() is None,
                                 reason="nginx is not installed (apt-get install nginx-light)")]


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """PostgreSQL, two apps on it (trusting loopback's X-Forwarded-For, as behind nginx) and nginx in front."""
    static = tmp_path_factory.mktemp("static_out")  # no pre-rendered file: every answer is an app's
    static.chmod(0o755)
    with pg_cluster.Cluster() as cluster:
        env = {"MOSQUE_DB_URL": cluster.create("s" + uuid.uuid4().hex[:12]),
               "HOSTED_CREATES_PER_HOUR": str(CREATES_PER_HOUR), "HOSTED_EDITS_PER_HOUR": str(EDITS_PER_HOUR)}
        ports = [local_stack.free_port(), local_stack.free_port()]
        apps = [local_stack.start_app(static, port, extra_env=env) for port in ports]
        nginx_port, prefix = local_stack.free_port(), tmp_path_factory.mktemp("nginx")
        log = prefix / "access.log"
        nginx = local_stack.start_nginx(prefix, static, nginx_port, ports, access_log=log,
                                        rate_per_minute=READS_PER_MINUTE)
        try:
            for port in ports:
                local_stack.wait_until_up(f"http://127.0.0.1:{port}/readyz", seconds=90)
            local_stack.wait_until_up(f"http://127.0.0.1:{nginx_port}/v1/methods")
            yield {"apps": [("127.0.0.1", port) for port in ports], "nginx": ("127.0.0.1", nginx_port), "log": log}
        finally:
            local_stack.stop(nginx, *apps)


def _ask(where: tuple[str, int], method: str, path: str, body: dict | None = None, headers: dict | None = None,
         source: str = "127.0.0.1") -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection(*where, timeout=60, source_address=(source, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def _retry_after_s(headers: dict) -> int:
    value = headers["retry-after"]
    assert value.isdigit(), value
    return int(value)


def test_creations_from_one_ipv6_network_are_counted_once_across_two_apps(stack):
    """Six creations from six addresses of one /64, alternating between the apps: the first three 201, then 429
    at whichever app (the fourth at the second app, the fifth at the first), with Retry-After about a third of an
    hour (the bucket refills 3 an hour); another /64 still creates."""
    apps = stack["apps"]
    statuses, waits = [], []
    for i in range(2 * CREATES_PER_HOUR):
        status, headers, body = _ask(apps[i % 2], "POST", "/v1/mosques", PROFILE,
                                     {"X-Forwarded-For": f"2001:db8:34:1::{i + 1:x}"})
        statuses.append(status)
        if status == 429:
            assert json.loads(body)["error"].startswith(f"more than {CREATES_PER_HOUR} new profiles an hour"), body
            waits.append(_retry_after_s(headers))
    assert statuses == [201] * CREATES_PER_HOUR + [429] * CREATES_PER_HOUR, statuses
    assert all(3600 / CREATES_PER_HOUR - 30 <= wait <= 3600 / CREATES_PER_HOUR for wait in waits), waits
    other = _ask(apps[1], "POST", "/v1/mosques", PROFILE, {"X-Forwarded-For": "2001:db8:34:2::1"})
    assert other[0] == 201, other[2][:200]


def test_edits_are_counted_once_across_two_apps(stack):
    """A committee member edits one profile through both apps in turn: EDITS_PER_HOUR edits pass (each a new
    version), the next is 429 on either app and changes nothing."""
    apps = stack["apps"]
    status, _, body = _ask(apps[0], "POST", "/v1/mosques", PROFILE, {"X-Forwarded-For": "198.51.100.7"})
    assert status == 201, body[:200]
    created = json.loads(body)
    path, auth = f"/v1/mosques/{created['id']}", {"Authorization": f"Bearer {created['edit']}",
                                                  "X-Forwarded-For": "198.51.100.8"}
    versions = []
    for i in range(EDITS_PER_HOUR):
        status, headers, body = _ask(apps[i % 2], "PUT", path, PROFILE, {**auth, "If-Match": f'"{i + 1}"'})
        assert status == 200, (i, status, body[:200])
        versions.append(json.loads(body)["version"])
    assert versions == list(range(2, EDITS_PER_HOUR + 2))
    for app in apps:
        status, headers, body = _ask(app, "PUT", path, PROFILE, {**auth, "If-Match": f'"{EDITS_PER_HOUR + 1}"'})
        assert status == 429 and _retry_after_s(headers) >= 1, (status, body[:200])
    status, headers, _ = _ask(apps[1], "GET", path)
    assert status == 200 and headers["etag"] == f'"{EDITS_PER_HOUR + 1}"'


def test_reads_through_nginx_are_one_budget_for_both_apps(stack):
    """Twice nginx's limit of uncached answers from one address, nginx balancing them over both apps: about
    READS_PER_MINUTE pass in all (plus what refills while the loop runs), not twice as many; both apps answered."""
    statuses, started = [], time.monotonic()
    for i in range(2 * READS_PER_MINUTE):
        statuses.append(_ask(stack["nginx"], "GET", f"/v1/qibla?lat={30 + i * 0.37:.2f}&lng=7",
                             source="127.0.0.34")[0])
    refilled = (time.monotonic() - started) * READS_PER_MINUTE / 60
    assert READS_PER_MINUTE - 1 <= statuses.count(200) <= READS_PER_MINUTE + refilled + 1, statuses
    assert statuses.count(429) >= READS_PER_MINUTE - refilled - 1, statuses
    answered_by = set()
    for line in stack["log"].read_text().splitlines():
        found = re.search(r'"GET /v1/qibla\?lat=\S+&lng=7 HTTP/1.1" 200 .* upstream=(\S+) upstream_status=200 ', line)
        if found:
            answered_by.add(found.group(1))
    assert answered_by == {f"{host}:{port}" for host, port in stack["apps"]}, answered_by


def test_a_keys_budget_is_shared_by_the_app_processes(tmp_path):
    """nginx does not count keyed requests, and the app's buckets are per process: with APP_PROCESSES=2 each
    process keeps half a key's budget (rounded up), so a key's requests spread over two processes get its budget
    in all (20 units a minute: 20 one-unit renders admitted at a fixed instant, the 21st and 22nd refused), where
    each process alone used to give the whole budget (40 in all).  The limiter is asked directly (no server: the
    clock is the test's)."""
    from runtime import keys
    from runtime.ratelimit import RateLimiter

    path = tmp_path / "app_keys.json"
    keys.issue(path, "twoprocs", 20)
    processes = [keys.KeyedLimiter(RateLimiter(0), keys.KeyStore(path), processes=keys.processes_from_env("2"))
                 for _ in range(2)]
    admitted = [processes[i % 2].admit("key:twoprocs", 1, now_s=1000.0) is None for i in range(22)]
    assert admitted == [True] * 20 + [False] * 2, admitted
    assert keys.KeyedLimiter(RateLimiter(0), keys.KeyStore(path), processes=3).of("key:twoprocs").per_minute == 7
    for bad in ("0", "x", "-1", ""):
        with pytest.raises(ValueError, match="^APP_PROCESSES: "):
            keys.processes_from_env(bad)
