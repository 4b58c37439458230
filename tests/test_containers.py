"""The container image and deploy/compose.yaml, run for real (issue 34: "a compose file with nginx, two apps and
PostgreSQL that a test starts").

`make container-check` runs this file: it installs a Docker engine and `docker compose` where they are missing,
builds local stand-ins for the three public base images when a registry cannot be reached
(tests/containers/build_standins.sh), builds deploy/Dockerfile as shia-times:latest, and sets CONTAINER_CHECK=1.
Without that, or without an engine that answers, every test here is skipped at collection in a few milliseconds:
`make test` never starts a container.

The stack is deploy/compose.yaml itself (its own project name, a free port, a fresh password, a site built for
two cities of this year only: SITE_BUILD_OPTIONS), checked against facts that do not come from its own code:

* nginx sends a published file byte for byte (the file read in the nginx container) without asking an app
  (its access log: `upstream=-`), and pages;
* `/v1/qibla` through nginx against the initial great-circle bearing to the Kaaba written out below, and
  against the value adhan-js publishes for London (tests/test_qibla.py's source);
* a profile POSTed through nginx is a row read back with `psql` in the PostgreSQL container;
* the apps run as uid 10001 (the kernel's /proc/1/status in each container) on a read-only root (a write is
  refused by the kernel: EROFS) with the tables built in (/readyz);
* /healthz, /readyz and /metrics of each app (Prometheus text read by prometheus_client's own parser; the
  counter moves by exactly the number of requests this test sent);
* the documented rolling restart (`docker compose restart app1`, wait until it is ready and nginx uses it, then
  app2) under four clients asking uncached answers all along: every answer a 200 (the statuses on the wire);
* deploy/backup.py's backup, then the documented restore, brings back a profile deleted after the backup
  (read back through nginx and with psql).

Verdicts are orders and counts, never durations; the waits are generous safety nets.
"""
from __future__ import annotations

import http.client
import json
import math
import os
import re
import secrets
import shutil
import subprocess
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from deploy import local_stack

ROOT = Path(__file__).resolve().parent.parent
IMAGE = "shia-times:latest"
PROJECT = "shia-times-check"  # not the operator's project name (compose.yaml's `shia-times`)
UP_S = 1200.0  # bring-up: the site's build for two cities, on a busy 2-core machine
READY_S = 180.0
KAABA = (21.4225241, 39.8261818)  # the Kaaba's centre, as adhan-js and tests/test_qibla.py take it
ORIGIN_HEADER = "Origin"


def _skip_reason() -> str | None:
    if os.environ.get("CONTAINER_CHECK") != "1":
        return "containers are run by `make container-check` only (CONTAINER_CHECK=1): make test starts none"
    if shutil.which("docker") is None:
        return "no docker client (make container-check installs docker.io)"
    info = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True, text=True,
                          timeout=30)
    if info.returncode:
        return f"no Docker engine answers: {info.stderr.strip()[:200]}"
    if subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30).returncode:
        return "no `docker compose` (v2) plugin"
    if subprocess.run(["docker", "image", "inspect", IMAGE], capture_output=True, timeout=30).returncode:
        return f"no {IMAGE} image: `make container-check` builds it"
    return None


SKIP = _skip_reason()
pytestmark = [pytest.mark.skipif(SKIP is not None, reason=SKIP or ""), pytest.mark.xdist_group("containers")]


def great_circle_bearing_deg(lat: float, lng: float) -> float:
    """The initial bearing of the great circle from (lat, lng) to the Kaaba, degrees clockwise from true north
    (the spherical-trigonometry formula, written here independently of generator/prayer/qibla.py)."""
    phi1, phi2 = math.radians(lat), math.radians(KAABA[0])
    dlam = math.radians(KAABA[1] - lng)
    y = math.sin(dlam) * math.cos(phi2)
    x = math.cos(phi1) * math.sin(phi2) - math.sin(phi1) * math.cos(phi2) * math.cos(dlam)
    return math.degrees(math.atan2(y, x)) % 360.0


class Stack:
    def __init__(self, workdir: Path):
        self.port = local_stack.free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.password = secrets.token_urlsafe(24)
        self.env_file = workdir / "compose.env"
        year = datetime.now(timezone.utc).year
        self.env_file.write_text(f"PUBLIC_ORIGIN={self.origin}\nPOSTGRES_PASSWORD={self.password}\n"
                                 f"FRONT_PORT={self.port}\n"
                                 f"SITE_BUILD_OPTIONS=--years {year}-{year} --cities karbala,london\n"
                                 # every request here comes from one address: nginx's limit is not what this tests
                                 "NGINX_OPTIONS=--rate 1000000 --feed-rate 1000000\n")
        self.base = ["docker", "compose", "-p", PROJECT, "-f", str(ROOT / "deploy" / "compose.yaml"),
                     "--env-file", str(self.env_file)]

    def compose(self, *args: str, check: bool = True, timeout: float = 300.0) -> subprocess.CompletedProcess:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=timeout)
        if check and done.returncode:
            raise AssertionError(f"docker compose {' '.join(args)}: exit {done.returncode}\n{done.stdout[-2000:]}"
                                 f"\n{done.stderr[-2000:]}")
        return done

    def psql(self, sql: str, database: str = "shia_times") -> str:
        return self.compose("exec", "-T", "db", "psql", "-U", "shia_times", "-d", database, "-At",
                            "-v", "ON_ERROR_STOP=1", "-c", sql).stdout.strip()

    def container(self, service: str) -> str:
        return self.compose("ps", "-q", service).stdout.strip()

    def ip(self, service: str) -> str:
        done = subprocess.run(["docker", "inspect", "--format",
                               "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}", self.container(service)],
                              capture_output=True, text=True, check=True, timeout=30)
        return done.stdout.split()[0]

    def access_log_size(self) -> int:
        return int(self.compose("exec", "-T", "front", "sh", "-c", "wc -c < /srv/front/access.log").stdout)

    def access_log_since(self, offset: int) -> str:
        return self.compose("exec", "-T", "front", "tail", "-c", f"+{offset + 1}", "/srv/front/access.log").stdout


def request(host: str, port: int, method: str, path: str, body: bytes | None = None,
            headers: dict | None = None) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection(host, port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def _until(check, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            value = check()
        except (OSError, http.client.HTTPException) as error:  # not listening yet, reset while starting
            value, last = None, error
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"not within {seconds:g} s: {what} (last error: {last})")


# Asked inside a container (tests reach loopback only, tests/conftest.py): prints status, headers and body as JSON.
_GET = ("import json, sys, urllib.error, urllib.request\n"
        "try:\n    r = urllib.request.urlopen(sys.argv[1], timeout=10)\n"
        "except urllib.error.HTTPError as e:\n    r = e\n"
        "print(json.dumps([r.status, dict(r.headers), r.read().decode()]))")


def app_get(stack: Stack, service: str, path: str, via: str | None = None) -> tuple[int, dict, str]:
    """GET ``path`` of ``service``'s app: from its own loopback, or ``via`` another container over the compose
    network (as nginx and a Prometheus there do).  Status 0 when the container cannot run it (restarting)."""
    url = f"http://{'127.0.0.1' if via is None else service}:8000{path}"
    done = stack.compose("exec", "-T", via or service, "python", "-c", _GET, url, check=False, timeout=60)
    if done.returncode:
        return 0, {}, done.stderr
    status, headers, body = json.loads(done.stdout)
    return status, {k.lower(): v for k, v in headers.items()}, body


def _ready(stack: Stack, service: str) -> bool:
    status, _, body = app_get(stack, service, "/readyz")
    return status == 200 and json.loads(body)["ready"] is True


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("compose"))
    running.compose("down", "-v", "--remove-orphans", check=False)  # a run interrupted before its own teardown
    started = time.monotonic()
    try:
        running.compose("up", "-d", timeout=UP_S)  # returns once the one-shot build has finished and the rest started
        _until(lambda: all(_ready(running, s) for s in ("app1", "app2")), READY_S, "app1 and app2 /readyz 200")
        _until(lambda: request("127.0.0.1", running.port, "GET", "/v1/methods")[0] == 200, READY_S,
               "nginx answering")
        print(f"\ncompose up to ready: {time.monotonic() - started:.1f} s")
        yield running
    except BaseException:
        print(running.compose("logs", "--no-color", "--tail", "80", check=False).stdout)
        raise
    finally:
        running.compose("down", "-v", "--remove-orphans", check=False, timeout=180)


def test_nginx_sends_a_published_file_as_published_without_asking_an_app(stack):
    offset = stack.access_log_size()
    status, headers, body = request("127.0.0.1", stack.port, "GET", "/v1/methods")
    published = subprocess.run([*stack.base, "exec", "-T", "front", "cat", "/srv/site/current/v1/methods.json"],
                               capture_output=True, check=True, timeout=60).stdout
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert body == published and len(body) > 1000
    line = _until(lambda: re.search(r'"GET /v1/methods HTTP/1\.1" 200 .* upstream=(\S+)', stack.access_log_since(offset)),
                  30, "the access log line")
    assert line.group(1) == "-"  # nginx's own file: no upstream asked
    status, headers, page = request("127.0.0.1", stack.port, "GET", "/city/karbala/")
    assert status == 200 and headers["content-type"].startswith("text/html") and b"Karbala" in page


@pytest.mark.parametrize("lat, lng", [(51.51, -0.13), (43.65, -79.38), (-33.87, 151.21), (35.69, 51.39)])
def test_qibla_through_nginx_is_the_great_circle_bearing(stack, lat, lng):
    """The API answers at 0.01° coordinates with two decimals (SPEC 2.1): within 0.006° of the formula above."""
    status, _, body = request("127.0.0.1", stack.port, "GET", f"/v1/qibla?lat={lat}&lng={lng}")
    assert status == 200
    answer = json.loads(body)
    assert abs(answer["qibla"] - great_circle_bearing_deg(lat, lng)) < 0.006, (answer, great_circle_bearing_deg(lat, lng))


def test_qibla_for_london_is_the_published_value(stack):
    """adhan-js (test/qibla.test.ts): London 51.5074 N, 0.1278 W faces 118.987°."""
    status, _, body = request("127.0.0.1", stack.port, "GET", "/v1/qibla?lat=51.5074&lng=-0.1278")
    assert status == 200 and abs(json.loads(body)["qibla"] - 118.987) < 0.01


@pytest.mark.parametrize("service", ["app1", "app2"])
def test_each_app_runs_as_uid_10001_on_a_read_only_root_with_the_tables_built_in(stack, service):
    status = stack.compose("exec", "-T", service, "cat", "/proc/1/status").stdout
    uids = re.search(r"^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", status, re.MULTILINE).groups()
    assert set(uids) == {"10001"}  # real, effective, saved and file-system uid of the server process
    inspected = json.loads(subprocess.run(["docker", "inspect", stack.container(service)], capture_output=True,
                                          text=True, check=True, timeout=30).stdout)[0]
    assert inspected["HostConfig"]["ReadonlyRootfs"] is True
    refused = stack.compose("exec", "-T", service, "sh", "-c", "echo x > /srv/shia-times/data/tables/probe",
                            check=False)
    assert refused.returncode != 0 and "Read-only file system" in refused.stderr
    status_code, _, body = app_get(stack, service, "/readyz")
    assert status_code == 200 and json.loads(body)["tables"] == "built"


@pytest.mark.parametrize("service, via", [("app1", "app2"), ("app2", "app1")])
def test_healthz_readyz_of_each_app(stack, service, via):
    """Asked over the compose network from the other app's container (where nginx asks from)."""
    status, headers, body = app_get(stack, service, "/healthz", via=via)
    assert status == 200 and json.loads(body) == {"live": True} and "no-store" in headers["cache-control"]
    status, headers, body = app_get(stack, service, "/readyz", via=via)
    ready = json.loads(body)
    assert status == 200 and ready["ready"] is True and ready["store"]["state"] == "ready"
    assert ready["store"]["store"] == "PostgreSQL db:5432/shia_times"  # the compose database, never its password
    _until(lambda: subprocess.run(["docker", "inspect", "--format", "{{.State.Health.Status}}", stack.container(service)],
                                  capture_output=True, text=True, check=True, timeout=30).stdout.strip() == "healthy",
           READY_S, f"{service} healthy (compose's healthcheck asks /healthz every 10 s)")


def _qibla_count(stack: Stack, service: str) -> float:
    from prometheus_client.parser import text_string_to_metric_families

    other = "app2" if service == "app1" else "app1"
    status, headers, body = app_get(stack, service, "/metrics", via=other)  # a scrape over the compose network
    assert status == 200 and headers["content-type"].startswith("text/plain")
    families = {family.name: family for family in text_string_to_metric_families(body)}
    return sum(sample.value for sample in families["http_requests"].samples
               if sample.name == "http_requests_total" and sample.labels.get("route") == "/v1/qibla"
               and sample.labels.get("status") == "200")


def test_metrics_of_each_app_count_the_requests_sent_through_nginx(stack):
    """Each app's /metrics (Prometheus text, read by prometheus_client's parser), scraped from the other app's
    container as a Prometheus on the compose network would: over both apps the qibla counter moves by exactly the
    requests sent."""
    before = sum(_qibla_count(stack, s) for s in ("app1", "app2"))
    sent = 7
    for i in range(sent):
        assert request("127.0.0.1", stack.port, "GET", f"/v1/qibla?lat={10 + i}.25&lng=20.5")[0] == 200
    after = sum(_qibla_count(stack, s) for s in ("app1", "app2"))
    assert after - before == sent
    assert request("127.0.0.1", stack.port, "GET", "/metrics")[0] == 404  # nginx has no location for it


def _post_profile(stack: Stack) -> tuple[str, str, dict]:
    profile = json.loads((ROOT / "tests" / "fixtures" / "mosques" / "example-mosque.json").read_text(encoding="utf-8"))
    status, _, body = request("127.0.0.1", stack.port, "POST", "/v1/mosques", json.dumps(profile).encode(),
                              {"Content-Type": "application/json", ORIGIN_HEADER: stack.origin})
    assert status == 201, body
    created = json.loads(body)
    return created["id"], created["edit"], profile


def test_a_profile_posted_through_nginx_is_stored_in_postgresql(stack):
    mosque_id, _, profile = _post_profile(stack)
    assert stack.psql(f"SELECT id, current FROM mosques WHERE id = '{mosque_id}'") == f"{mosque_id}|1"
    status, _, body = request("127.0.0.1", stack.port, "GET", f"/v1/mosques/{mosque_id}")
    assert status == 200 and json.loads(body)["names"] == profile["names"]


def test_a_rolling_restart_of_the_apps_loses_no_request(stack):
    """docs/operations.md "Containers": `docker compose restart app1`, wait until it is ready and nginx answers from
    it again, then app2; four clients ask uncached qibla answers through nginx all along."""
    statuses: list[int] = []
    done = threading.Event()
    lock = threading.Lock()

    def client(k: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=60)
        i = 0
        while not done.is_set() and i < 20_000:
            try:
                connection.request("GET", f"/v1/qibla?lat={(k * 5000 + i) % 17000 / 200 - 42.5:.2f}&lng={k + 1}.5")
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                status = 0  # a connection nginx dropped: counted as lost
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=60)
            with lock:
                statuses.append(status)
            i += 1
            time.sleep(0.005)
        connection.close()

    clients = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    for thread in clients:
        thread.start()
    asked_while_restarting = []
    try:
        _until(lambda: len(statuses) >= 40, 60, "the clients' first answers")
        for service in ("app1", "app2"):
            address = stack.ip(service)
            offset = stack.access_log_size()
            with lock:
                before = len(statuses)
            stack.compose("restart", service, timeout=120)  # SIGTERM: uvicorn's graceful shutdown, then a start
            assert stack.ip(service) == address  # nginx resolved app1/app2 once, at its start
            _until(lambda: _ready(stack, service), READY_S, f"{service} ready again")
            with lock:
                asked_while_restarting.append(len(statuses) - before)
            _until(lambda: re.search(r"upstream=(\S+, )*%s:8000 upstream_status=(\S+, )*200 " % re.escape(address),
                                     stack.access_log_since(offset)), READY_S, f"nginx answering from {service} again")
            time.sleep(3)  # the documented margin (nginx's fail_timeout, 2 s): a step of the procedure, not a verdict
    finally:
        done.set()
        for thread in clients:
            thread.join(120)
        errors = stack.compose("exec", "-T", "front", "sh", "-c",
                               "grep -v 'signal process' /srv/front/error.log | tail -n 30", check=False).stdout
    if any(s != 200 for s in statuses):
        print(f"\nnginx's error log:\n{errors}")
    print(f"\nrolling restart: {len(statuses)} requests, {asked_while_restarting} asked while app1/app2 restarted, "
          f"statuses {sorted(set(statuses))}")
    assert all(n > 0 for n in asked_while_restarting)  # the clients really asked while each app was away
    assert [s for s in statuses if s != 200] == []


def test_a_backup_restored_brings_back_a_profile_deleted_after_it(stack):
    """docs/operations.md "Containers", backups: deploy/backup.py in an app container, then the restore steps."""
    mosque_id, secret, profile = _post_profile(stack)
    made = stack.compose("exec", "-T", "app1", "python", "deploy/backup.py", "backup", "/srv/backups")
    backup = made.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"/srv/backups/mosques-\d{8}T\d{6}Z\.pgdump", backup), made.stdout
    status, _, body = request("127.0.0.1", stack.port, "DELETE", f"/v1/mosques/{mosque_id}", None,
                              {"Authorization": f"Bearer {secret}", "If-Match": '"1"', ORIGIN_HEADER: stack.origin})
    assert status in (200, 204), body
    assert request("127.0.0.1", stack.port, "GET", f"/v1/mosques/{mosque_id}")[0] in (404, 410)

    stack.compose("stop", "app1", "app2", timeout=120)
    stack.psql("ALTER DATABASE shia_times RENAME TO shia_times_before_restore", database="postgres")
    stack.psql("CREATE DATABASE shia_times", database="postgres")
    stack.compose("run", "--rm", "--no-deps", "app1", "python", "deploy/backup.py", "restore", backup, timeout=300)
    stack.compose("up", "-d", "--no-deps", "app1", "app2", timeout=120)  # `start` would run the site's build first
    _until(lambda: all(_ready(stack, s) for s in ("app1", "app2")), READY_S, "both apps ready on the restored store")

    assert stack.psql(f"SELECT current FROM mosques WHERE id = '{mosque_id}'") == "1"
    assert stack.psql(f"SELECT count(*) FROM versions WHERE id = '{mosque_id}'") == "1"  # the delete was after it
    status, _, body = _until(lambda: (lambda a: a if a[0] == 200 else None)(
        request("127.0.0.1", stack.port, "GET", f"/v1/mosques/{mosque_id}")), 60, "the profile through nginx")
    assert json.loads(body)["names"] == profile["names"]
