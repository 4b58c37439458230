"""Shared fixtures: an offline guard, the app's test client, and the adhan-js peer."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest
from starlette.testclient import TestClient

os.environ.setdefault("RATE_LIMIT_PER_MINUTE", "0")  # the limit has its own test; read when runtime.app is imported
# The app under test serves from an empty static root: every answer is rendered by the code being
# tested, never read from a stale static_out/ of an earlier `make build` (tests/test_static.py
# compares pre-rendered files with the code on purpose, on a build of its own).
EMPTY_STATIC_ROOT = tempfile.mkdtemp(prefix="empty-static-")
os.environ["STATIC_ROOT"] = EMPTY_STATIC_ROOT
# Hosted mosque profiles (runtime/hosted.py): the app's store in a temp file, never var/ of the checkout.
os.environ["MOSQUE_DB_PATH"] = os.path.join(tempfile.mkdtemp(prefix="mosque-db-"), "mosques.sqlite3")

PEERS = Path(__file__).resolve().parent / "peers"
_real_connect = socket.socket.connect


def _loopback_only(self, address):
    """Tests must not reach the network: only loopback and Unix sockets may connect."""
    if self.family in (socket.AF_INET, socket.AF_INET6):
        host = address[0]
        if not (host.startswith("127.") or host in ("::1", "localhost")):
            raise RuntimeError(f"network access attempted in a test: {address!r}")
    return _real_connect(self, address)


socket.socket.connect = _loopback_only


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Refuse to run when ``--dist loadgroup`` would not keep an xdist_group on one worker.

    pytest-xdist groups by a suffix it adds to each node id; pytest 9.2 ignores it, which
    silently ran the shared static build and the browser on both workers at once.
    """
    if getattr(config.option, "loadgroup", False):
        lost = [item.nodeid for item in items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
        if lost:
            pytest.exit(f"xdist_group is not applied (pytest/pytest-xdist mismatch?): {lost[0]}", returncode=4)
        # The scheduler hands out groups in collection order: the longest first, so that no long group starts
        # last and runs alone at the end (longest-processing-time-first; the order only, never a verdict).
        items.sort(key=lambda item: _LONGEST_GROUPS_FIRST.get(_group_of(item), len(_LONGEST_GROUPS_FIRST)))


# The groups that take longest, longest first: the static build with nginx's tests (about 140 s of one worker on a
# loaded 2-core machine, 28 November), then the Chromium sessions.
_LONGEST_GROUPS_FIRST = {group: rank for rank, group in enumerate((
    "static_build", "browser-site_browser", "browser-screen_year", "browser-builder_browser",
    "browser-builder_committee", "browser-screen_browser", "runtime_http", "browser-site_print",
    "browser-screen_legibility_browser", "browser-screen_align_browser",
    "browser-jamaat_browser", "browser-screen_home", "browser-screen_follow", "browser-mosque_today"))}


def _group_of(item) -> str | None:
    marker = item.get_closest_marker("xdist_group")
    return (marker.kwargs.get("name") or (marker.args[0] if marker.args else None)) if marker else None


@pytest.fixture(scope="session")
def client():
    from runtime import app as runtime_app
    from runtime.app import app

    assert runtime_app.static_root == Path(EMPTY_STATIC_ROOT).resolve() and not any(runtime_app.static_root.iterdir())

    with TestClient(app) as test_client:
        yield test_client


STATIC_BUILD_GROUP = "static_build"  # test_static and test_nginx share one build: mark both with this xdist group
# The per-city answers and pages of these cities only (a partial build, --cities): a shrine city, daylight
# saving north and south, a half-hour zone, a polar summer and winter, the zone of the Iran calendar.
STATIC_BUILD_CITIES = ("karbala", "najaf", "london", "new-york", "sydney", "kabul", "tromso", "tehran")


@pytest.fixture(scope="session")
def static_build():
    """One static build of 2026 for today (build.py: every endpoint and the pages, the per-city ones
    for STATIC_BUILD_CITIES) shared by the modules that test pre-rendered files; world-readable,
    because nginx's workers serve it."""
    import build

    static = Path(tempfile.mkdtemp(prefix="static_out-"))
    static.chmod(0o755)
    build.main(["--years", "2026-2026", "--cities", ",".join(STATIC_BUILD_CITIES),
                "--jobs", "2", "--out", str(static)])
    yield static
    shutil.rmtree(static, ignore_errors=True)


@pytest.fixture
def example(monkeypatch):
    """The example mosque profile (tests/fixtures/mosques/example-mosque.json, languages ur and en) served beside the
    shipped profiles; the pages' cached answers cleared before and after (test_mosques, test_screen_bilingual)."""
    from generator.prayer import mosques
    from generator.site import responses

    served = {**mosques.load(), **mosques.load(Path(__file__).parent / "fixtures" / "mosques")}
    monkeypatch.setattr(mosques, "by_id", lambda: served)
    responses._body.cache_clear()
    yield served["example-mosque"]
    responses._body.cache_clear()


def browser_app_server(tmp_path_factory, chromium: str):
    """Yield the base URL of the app under uvicorn on a free loopback port, with an empty static root
    (every answer and page rendered by the code under test), for a browser test; skip without Chromium."""
    from deploy import local_stack  # only the browser tests start a server

    if not Path(chromium).exists():
        pytest.skip("chromium is not installed (Debian package `chromium`: run `make system-packages`)")
    port = local_stack.free_port()
    app = local_stack.start_app(tmp_path_factory.mktemp("static"), port)
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{port}/v1/methods", seconds=60)
        yield f"http://127.0.0.1:{port}"
    finally:
        local_stack.stop(app)


def run_node_peer(script: str, package: str, payload, timeout_s: float = 900) -> object:
    """Run a node script of tests/peers (pinned by its package-lock.json) on JSON input; return its JSON output
    (``timeout_s``: a bound against a hung browser, not a measure of speed: a whole Chromium session on a busy
    2-core machine took up to 2 minutes on 28 November, so the bound is far above it)."""
    node = shutil.which("node")
    if node is None or not (PEERS / "node_modules" / package).is_dir():
        pytest.fail(f"{package} peer missing: run `make peers` (node 20 and npm ci in tests/peers)")
    result = subprocess.run(
        [node, str(PEERS / script)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TZ": "UTC"},
        timeout=timeout_s,
    )
    return json.loads(result.stdout)


def run_adhan(cases: list[dict]) -> list[dict]:
    """Run adhan-js (npm adhan 4.4.6, tests/peers) on cases; see tests/peers/adhan_times.js."""
    return run_node_peer("adhan_times.js", "adhan", cases)


def call(endpoint: str, now_unix_s: float, /, **query) -> bytes:
    """Answer /v1/<endpoint>?<query> in process exactly as the runtime does: parse at ``now_unix_s``, then render.

    No HTTP, no cache, no static file, no rate limit: the code itself answers.
    """
    from generator.api import BY_NAME
    from generator.query import Query

    endpoint_ = BY_NAME[endpoint]
    return endpoint_.render(endpoint_.parse(Query.of({k: str(v) for k, v in query.items()}), now_unix_s).params)


@pytest.fixture
def hijri_sandbox(tmp_path, monkeypatch):
    """Every Hijri data file announce.py writes, copied into ``tmp_path`` (announced_month_starts.csv,
    month_starts/, the month table) and the modules pointed at the copies; announce.py re-renders only
    /v1/hijri (one endpoint keeps the tests short).  Yields ``tmp_path``; the real data is read back after."""
    import announce
    from generator.calendars import hijri, hijri_regions

    announced = tmp_path / "announced_month_starts.csv"
    shutil.copy(hijri.ANNOUNCED_PATH, announced)
    regions = tmp_path / "month_starts"
    regions.mkdir()
    for calendar in hijri_regions.REGIONS:
        shutil.copy(hijri_regions.path_of(calendar), regions)
    hijri.to_hijri(0)
    table = tmp_path / "hijri_months.parquet"
    shutil.copy(hijri.TABLE_PATH, table)
    monkeypatch.setattr(hijri, "ANNOUNCED_PATH", announced)
    monkeypatch.setattr(hijri_regions, "MONTH_STARTS_DIR", regions)
    monkeypatch.setattr(hijri, "TABLE_PATH", table)
    monkeypatch.setattr(announce, "AFFECTED_ENDPOINTS", ("hijri",))
    hijri.reload()
    yield tmp_path
    hijri.reload()


def shared_reference(*parts: str) -> Path:
    """A file of the steering repository's shared/reference/ (copies of public sources, e.g. the Imam Ali
    Foundation's UK tables as printed): shared/ lies beside the clone (CI), or beside a worktree's parent.
    Returns the first that exists, else the path beside the clone (its absence is for the caller to report)."""
    here = Path(__file__).resolve().parents[1]
    candidates = [root / "shared" / "reference" / Path(*parts) for root in (here.parent, here.parent.parent)]
    return next((path for path in candidates if path.exists()), candidates[0])


def assert_bad_request(response, parameter: str) -> None:
    """The service's 400: JSON whose `error` (the SPEC's, first) names ``parameter``, then its machine-readable
    form (issue 33): `code`, `parameter` and `args`; a code with words of its own (glossary error.<code>) says,
    in English filled with `args`, what `error` says (its start: a message may go on with the parameter's
    description), so a page that says the code in Arabic says what the API said."""
    from generator.errors import QueryError
    from generator.words import error_words

    assert response.status_code == 400, (response.status_code, response.text[:200])
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    body = response.json()
    assert list(body) == ["error", "code", "parameter", "args"], body
    assert body["error"].startswith(f"{parameter}: ") and body["parameter"] == parameter, body
    if body["code"] != "invalid":
        error = QueryError(parameter, body["error"][len(parameter) + 2:], body["code"], body["args"])
        assert error_words.has_words(error), f"code {body['code']} has no glossary row error.{body['code']}"
        assert error.message.startswith(error_words.english(error)), (error_words.english(error), error.message)
