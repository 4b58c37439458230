"""Hosted mosque profiles (issue 27): the store on both databases, the edit interface, serving, safety.

References, named in each test:
* the profile format of docs/mosques.md and its fixture (tests/fixtures/mosques/example-mosque.json): a hosted
  profile must answer exactly the bytes of the explicit query it stands for, written here by hand (as
  tests/test_mosques.py does for files), before and after an edit;
* RFC 9110 (If-Match: 412/428 semantics as the issue maps them: a missing validator 428, another version 409)
  and RFC 6750 (Authorization: Bearer);
* the edit secret's hash written independently here with hashlib (SHA-256 of salt bytes + secret);
* PostgreSQL itself (a throw-away cluster, tests/pg_cluster.py) beside SQLite: the same behaviour on both;
* the SalahAPI 1.0 JSON schema (salahapi/salahapi-specification, versions/1.0.schema.json; its constraints
  restated in tests/fixtures/salahapi-1.0.schema.json, data/SOURCES.md), checked with jsonschema.
"""
from __future__ import annotations

import copy
import hashlib
import http.client
import json
import csv
import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from deploy import local_stack
from generator.prayer import mosques
from generator.site import responses
from runtime import hosted, mosque_store

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pg_cluster  # noqa: E402  (a helper beside the tests, like ics_lint)

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "mosques" / "example-mosque.json"
SCHEMA = ROOT / "tests" / "fixtures" / "salahapi-1.0.schema.json"
# What the example profile stands for (its file, field by field; docs/mosques.md).
EXAMPLE_QUERY = {"city": "london", "method": "Jafari", "imsak": "10", "tune": "isha:2",
                 "jamaat": "fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:5",
                 "jamaatWeekly": "fri", "jumuah": "13:15,14:00", "eid": "07:30,09:00", "calendar": "moonsighting"}

try:
    import psycopg  # noqa: F401
    PSYCOPG = None
except ImportError:
    PSYCOPG = "psycopg is not installed (make setup installs requirements.lock)"


def profile() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cluster():
    if pg_cluster.binaries() is None:
        pytest.skip(pg_cluster.SKIP_REASON)
    if PSYCOPG:
        pytest.skip(PSYCOPG)
    with pg_cluster.Cluster() as running:
        yield running


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A fresh, empty database: (its MOSQUE_DB_URL or MOSQUE_DB_PATH environment, the opened store)."""
    if request.param == "sqlite":
        env = {"MOSQUE_DB_PATH": str(tmp_path / "mosques.sqlite3"), "MOSQUE_DB_URL": ""}
    else:
        env = {"MOSQUE_DB_URL": request.getfixturevalue("cluster").create("t" + uuid.uuid4().hex[:12])}
    store = mosque_store.open_store(env.get("MOSQUE_DB_URL"), env.get("MOSQUE_DB_PATH"))
    yield env, store
    store.close()


@pytest.fixture
def api(db, monkeypatch):
    """The app (in process) serving the database of ``db``, with fresh rate-limit buckets (their own test sets
    them); the previous store is put back afterwards."""
    from runtime.app import app

    monkeypatch.setattr(hosted, "creations", hosted.HourlyBucket(1000))
    monkeypatch.setattr(hosted, "edits", hosted.HourlyBucket(1000))
    previous = hosted._store
    hosted.open_store(db[1])
    responses._body.cache_clear()
    yield TestClient(app), db[1]
    responses._body.cache_clear()
    if previous is not None:
        hosted.open_store(previous)
    else:
        hosted.close_store()


def _auth(secret: str, version) -> dict:
    return {"Authorization": f"Bearer {secret}", "If-Match": f'"{version}"'}


def _create(client, body=None) -> dict:
    response = client.post("/v1/mosques", json=profile() if body is None else body)
    assert response.status_code == 201, response.text
    return response.json()


def _bad(response, field: str, status: int = 400) -> None:
    assert response.status_code == status, (response.status_code, response.text[:300])
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert response.json()["error"].startswith(f"{field}: "), response.json()


# ------------------------------------------------------------------ the life of a profile, on both databases

def test_create_answers_the_explicit_query_and_edits_follow(api):
    client, store = api
    created = _create(client)
    mosque_id, secret = created["id"], created["edit"]
    assert mosques.ID.fullmatch(mosque_id) and created["version"] == 1 and created["listed"] is False
    assert created["links"]["page"] == f"/mosque/{mosque_id}/" and created["links"]["screen"] == f"/mosque/{mosque_id}/screen/"
    # The profile back, its version the ETag.
    got = client.get(f"/v1/mosques/{mosque_id}")
    assert got.status_code == 200 and got.headers["etag"] == '"1"' and got.json() == profile()
    assert client.get(f"/v1/mosques/{mosque_id}", headers={"If-None-Match": '"1"'}).status_code == 304
    # mosque=<id> is the explicit query (JSON, CSV, ICS, night), like a file profile.
    feed = {"lang": "en", "ramadan": "1", "prayers": "imsak,fajr,isha"}
    for path, own, explicit_query in (
            ("prayer-times", {"year": "2026", "month": "3"}, EXAMPLE_QUERY),
            ("prayer-times.csv", {"date": "2026-03-06"}, EXAMPLE_QUERY),
            ("prayer-times.ics", feed, {**EXAMPLE_QUERY, "name": "Example Mosque"}),
            ("night.ics", {}, {"city": "london", "method": "Jafari", "name": "Example Mosque"})):  # place, method, name
        hosted_answer = client.get(f"/v1/{path}", params={"mosque": mosque_id, **own})
        explicit = client.get(f"/v1/{path}", params={**explicit_query, **own})
        assert hosted_answer.status_code == explicit.status_code == 200, (path, explicit.text[:200])
        assert hosted_answer.content == explicit.content, path
        assert hosted_answer.headers["cache-control"] == "public, max-age=30"
    # An edit: fajr's jamaat 30 minutes after the adhan (rounded up to 5 on the local clock), shown at once.
    edited = profile()
    edited["jamaat"]["jamaat"] = "fajr:30,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib"
    edited["names"]["en"] = "Edited Mosque"
    put = client.put(f"/v1/mosques/{mosque_id}", json=edited, headers=_auth(secret, 1))
    assert put.status_code == 200 and put.json()["version"] == 2 and put.headers["etag"] == '"2"'
    # jamaatWeekly=fri: from Friday 27 February to Thursday 5 March one time, the latest of the week's
    # "30 minutes after the adhan, rounded up to 5" (docs/decisions.md "Jamaat"), computed here with zoneinfo.
    week = client.get("/v1/prayer-times", params={"mosque": mosque_id, "year": "2026", "month": "3"}).json()["days"]
    week = client.get("/v1/prayer-times", params={"mosque": mosque_id, "year": "2026", "month": "2"}).json()["days"][-2:] \
        + week[:5]
    assert [d["date"] for d in week][::6] == ["2026-02-27", "2026-03-05"]
    london = ZoneInfo("Europe/London")

    def rule(day):
        at = datetime.fromisoformat(day["fajr"].replace("Z", "+00:00")).astimezone(london) + timedelta(minutes=30)
        return (at + timedelta(minutes=(-at.minute) % 5)).strftime("%H:%M")  # the local clock time

    expected = max(rule(day) for day in week)
    assert {day["jamaatLocal"]["fajr"] for day in week} == {expected}
    page = client.get(f"/mosque/{mosque_id}/")
    assert page.status_code == 200 and "Edited Mosque" in page.text
    screen = client.get("/screen/", params={"mosque": mosque_id})
    assert screen.status_code == 200 and "Edited Mosque" in screen.text


def test_stale_edit_is_409_with_the_current_version_and_nothing_changes(api):
    client, _ = api
    created = _create(client)
    mosque_id, secret = created["id"], created["edit"]
    first, second = profile(), profile()
    first["names"]["en"], second["names"]["en"] = "First editor", "Second editor"
    assert client.put(f"/v1/mosques/{mosque_id}", json=first, headers=_auth(secret, 1)).status_code == 200
    stale = client.put(f"/v1/mosques/{mosque_id}", json=second, headers=_auth(secret, 1))
    assert stale.status_code == 409 and stale.json()["version"] == 2 and stale.headers["etag"] == '"2"'
    assert stale.json()["error"].startswith("If-Match: ")
    assert client.get(f"/v1/mosques/{mosque_id}").json()["names"]["en"] == "First editor"
    missing = client.put(f"/v1/mosques/{mosque_id}", json=second, headers={"Authorization": f"Bearer {secret}"})
    _bad(missing, "If-Match", 428)


def test_wrong_secret_is_a_403_that_says_nothing(api):
    client, _ = api
    created = _create(client)
    mosque_id, secret = created["id"], created["edit"]
    wrong_secret = secret[:-1] + ("B" if secret.endswith("A") else "A")  # one character off
    wrong = client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(wrong_secret, 1))
    unknown = client.put("/v1/mosques/zzzzzzzzzzzzz", json=profile(), headers=_auth(secret, 1))
    file_profile = client.delete("/v1/mosques/jaffari-toronto", headers=_auth(secret, 1))
    # The same answer whether the id exists or not, and no version, name or id in it.
    assert wrong.status_code == unknown.status_code == file_profile.status_code == 403
    assert wrong.content == unknown.content == file_profile.content == b'{"error":"not allowed"}'
    stale_and_wrong = client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth("A" * 43, 7))
    assert stale_and_wrong.status_code == 403 and b"1" not in stale_and_wrong.content
    versions = client.get(f"/v1/mosques/{mosque_id}/versions", headers={"Authorization": "Bearer " + "x" * 43})
    assert versions.status_code == 403
    assert client.get(f"/v1/mosques/{mosque_id}").json() == profile()


def test_versions_listed_and_restored_delete_and_undelete(api):
    client, _ = api
    created = _create(client)
    mosque_id, secret = created["id"], created["edit"]
    edited = profile()
    edited["announcement"] = {"en": "Edited announcement"}
    assert client.put(f"/v1/mosques/{mosque_id}", json=edited, headers=_auth(secret, 1)).status_code == 200
    listing = client.get(f"/v1/mosques/{mosque_id}/versions", headers={"Authorization": f"Bearer {secret}"}).json()
    assert [v["version"] for v in listing["versions"]] == [1, 2]
    old = client.get(f"/v1/mosques/{mosque_id}/versions/1", headers={"Authorization": f"Bearer {secret}"})
    assert old.json() == profile()
    restored = client.post(f"/v1/mosques/{mosque_id}/versions/1/restore", headers=_auth(secret, 2))
    assert restored.status_code == 200 and restored.json()["version"] == 3
    assert client.get(f"/v1/mosques/{mosque_id}").json() == profile()
    # Delete: gone for everyone (404, mosque= a 400), kept for the edit link, which can bring it back.
    deleted = client.delete(f"/v1/mosques/{mosque_id}", headers=_auth(secret, 3))
    assert deleted.status_code == 200 and deleted.json() == {"id": mosque_id, "version": 4, "deleted": True}
    assert client.get(f"/v1/mosques/{mosque_id}").status_code == 404
    assert client.get(f"/mosque/{mosque_id}/").status_code == 404
    _bad(client.get("/v1/prayer-times", params={"mosque": mosque_id, "date": "2026-03-03"}), "mosque")
    again = client.delete(f"/v1/mosques/{mosque_id}", headers=_auth(secret, 4))
    assert again.status_code == 404
    _bad(client.post(f"/v1/mosques/{mosque_id}/versions/4/restore", headers=_auth(secret, 4)), "version")
    back = client.post(f"/v1/mosques/{mosque_id}/versions/2/restore", headers=_auth(secret, 4))
    assert back.status_code == 200 and back.json()["version"] == 5
    assert client.get(f"/v1/mosques/{mosque_id}").json() == edited
    listing = client.get(f"/v1/mosques/{mosque_id}/versions", headers={"Authorization": f"Bearer {secret}"}).json()
    assert [(v["version"], v.get("deleted", False)) for v in listing["versions"]] == [
        (1, False), (2, False), (3, False), (4, True), (5, False)]


def test_a_refused_edit_changes_nothing_and_names_the_field(api):
    client, _ = api
    created = _create(client)
    mosque_id, secret = created["id"], created["edit"]
    for change, field in ((lambda p: p["jamaat"].update(jamaat="asr:asr"), "jamaat.jamaat"),
                          (lambda p: p["times"].update(method="Nope"), "times.method"),
                          (lambda p: p.update(colour="green"), "colour"),
                          (lambda p: p["names"].update(en=5), "names.en"),
                          (lambda p: p.update(languages="en"), "languages"),
                          (lambda p: p.update(languages=[["en"]]), "languages"),  # was a TypeError (hypothesis)
                          (lambda p: p["place"].update(city=["london"]), "place.city"),
                          (lambda p: p["announcement"].update(en="line\nbreak"), "announcement.en")):
        body = profile()
        change(body)
        _bad(client.put(f"/v1/mosques/{mosque_id}", json=body, headers=_auth(secret, 1)), field)
        _bad(client.post("/v1/mosques", json=body), field)
    assert client.get(f"/v1/mosques/{mosque_id}").headers["etag"] == '"1"'
    assert client.get(f"/v1/mosques/{mosque_id}").json() == profile()


def test_secrets_are_random_and_stored_only_as_salted_hashes(db):
    env, store = db
    ids, secrets_ = set(), set()
    for _ in range(5):
        mosque_id, secret, _ = store.create(json.dumps(profile()))
        ids.add(mosque_id)
        secrets_.add(secret)
        assert len(secret) >= 43  # token_urlsafe(32): 256 bits (the issue asks >= 128)
    assert len(ids) == len(secrets_) == 5
    rows = list(store.export_rows())
    dump = json.dumps(rows)
    for secret in secrets_:
        assert secret not in dump
    for row in rows:  # the stored hash is SHA-256(salt bytes + secret), written here independently
        assert any(hashlib.sha256(bytes.fromhex(row["salt"]) + s.encode()).hexdigest() == row["secretHash"]
                   for s in secrets_)
    assert len({row["salt"] for row in rows}) == 5


def test_postgresql_connection_dropped_by_the_server_is_replaced(cluster):
    """A fail-over or restart ends the app's connections (pg_terminate_backend does the same): the next call works."""
    import psycopg

    url = cluster.create("r" + uuid.uuid4().hex[:12])
    store = mosque_store.open_store(url)
    try:
        mosque_id, secret, _ = store.create(json.dumps(profile()))
        with psycopg.connect(url, autocommit=True) as admin:
            ended = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                  "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()[0]
        assert ended >= 1
        assert store.get(mosque_id).version == 1
        assert store.save(mosque_id, secret, 1, json.dumps(profile())) == 2
    finally:
        store.close()


# ------------------------------------------------------------------ durability: kill -9, restart, export/import

WRITER = r"""
import json, sys
from runtime import mosque_store
store = mosque_store.open_store(sys.argv[1] or None, sys.argv[2] or None)
body = json.loads(sys.argv[3])
mosque_id, secret, version = store.create(json.dumps(dict(body, address="write 1")))
print(mosque_id, flush=True)
while True:
    version = store.save(mosque_id, secret, version, json.dumps(dict(body, address=f"write {version + 1}")))
"""


def test_kill_9_during_saves_leaves_a_whole_version(db):
    env, store = db
    writer = subprocess.Popen([sys.executable, "-c", WRITER, env.get("MOSQUE_DB_URL", ""),
                               env.get("MOSQUE_DB_PATH", ""), json.dumps(profile())],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        mosque_id = writer.stdout.readline().strip()

        def saved() -> int:
            # the versions written so far; a read the busy writer kept waiting past the store's bounded wait is a
            # 503 in production (Unavailable), here only "not yet": this loop waits, it is not the verdict (beside a
            # CPU hog the writer's lock outlived the wait once, 28 November)
            try:
                record = store.get(mosque_id)
            except mosque_store.Unavailable:
                return 0
            return record.version if record else 0
        deadline = time.time() + 120  # a bound for a writer that never writes, far above its usual second
        while saved() < 20 and time.time() < deadline:
            time.sleep(0.05)
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait(10)
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait(10)
        writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL
    reopened = mosque_store.open_store(env.get("MOSQUE_DB_URL"), env.get("MOSQUE_DB_PATH"))
    try:
        record = reopened.get(mosque_id)
        assert record.version >= 20
        # The current version is whole: its body is the one written as that version, and every earlier one kept
        # (the newest HOSTED_MAX_VERSIONS, issue 34) is there.
        assert json.loads(record.body)["address"] == f"write {record.version}"
        rows = next(r for r in reopened.export_rows() if r["id"] == mosque_id)
        kept = mosque_store.Limits.from_env().versions or record.version
        assert [v["version"] for v in rows["versions"]] == list(range(max(1, record.version - kept + 1),
                                                                      record.version + 1))
        assert all(json.loads(v["body"])["address"] == f"write {v['version']}" for v in rows["versions"])
        if "MOSQUE_DB_PATH" in env and env["MOSQUE_DB_PATH"]:
            with sqlite3.connect(env["MOSQUE_DB_PATH"]) as connection:
                assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
                assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        reopened.close()


def test_export_import_moves_every_profile_byte_identical(db, tmp_path, cluster):
    import mosque as command

    env, store = db
    first, secret_1, _ = store.create(json.dumps(profile()))
    second, secret_2, _ = store.create(json.dumps(dict(profile(), address="Ünïcode address ✓ مسجد")))
    store.save(first, secret_1, 1, json.dumps(dict(profile(), address="second version")))
    store.save(second, secret_2, 1, None)  # a deletion is a version too
    store.set_listed(first, True)
    source_export = command.export_lines(store)
    # Into the other kind of database, and back out of it: the same bytes.
    if env.get("MOSQUE_DB_URL"):
        other = mosque_store.open_store("", tmp_path / "copy.sqlite3")
    else:
        other = mosque_store.open_store(cluster.create("c" + uuid.uuid4().hex[:12]))
    try:
        assert other.import_rows(command.read_export(source_export)) == 2
        assert command.export_lines(other) == source_export
        # The edit link still works where the profiles went (the salted hash moved, not the secret).
        assert other.save(first, secret_1, 2, json.dumps(profile())) == 3
        with pytest.raises(ValueError):  # importing twice adds nothing
            other.import_rows(command.read_export(source_export))
    finally:
        other.close()


def test_the_command_lists_unlists_exports_imports_and_deletes(db, tmp_path, monkeypatch, capsys):
    import mosque as command

    env, store = db
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    mosque_id, _, _ = store.create(json.dumps(profile()))
    assert command.main(["list", mosque_id]) == 0 and store.get(mosque_id).listed
    assert command.main(["unlist", mosque_id]) == 0 and not store.get(mosque_id).listed
    out = tmp_path / "export.jsonl"
    assert command.main(["export", str(out)]) == 0
    assert command.main(["import", str(out)]) == 2  # already there: refused, nothing added
    assert command.main(["delete", mosque_id]) == 0 and store.get(mosque_id) is None
    assert command.main(["import", str(out)]) == 0 and store.get(mosque_id) is not None
    assert command.main(["list", "nosuchid"]) == 2
    assert "refused" in capsys.readouterr().err


# ------------------------------------------------------------------ over real HTTP: restart, several nodes, within a minute

def _http(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


@pytest.mark.slow
def test_over_http_a_second_node_and_a_restarted_app_follow_an_edit_within_a_minute(db, tmp_path):
    env, _ = db
    static = tmp_path / "static"
    static.mkdir()
    ports = [local_stack.free_port(), local_stack.free_port()]
    extra = {**env, "HOSTED_CREATES_PER_HOUR": "100", "HOSTED_EDITS_PER_HOUR": "100",
             "PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)}
    apps = [local_stack.start_app(static, port, extra_env=extra) for port in ports]
    try:
        for port in ports:
            local_stack.wait_until_up(f"http://127.0.0.1:{port}/v1/methods", seconds=120)
        status, _, body = _http(ports[0], "POST", "/v1/mosques", json.dumps(profile()).encode())
        assert status == 201, body
        created = json.loads(body)
        mosque_id, secret = created["id"], created["edit"]
        screen = f"/screen/?mosque={mosque_id}&lang=en"
        for port in ports:  # both nodes have read (and cached) the first version
            status, headers, page = _http(port, "GET", screen)
            assert status == 200 and b"Example Mosque" in page and headers["cache-control"] == "public, max-age=30"
        edited = dict(profile(), names={"en": "Renamed Mosque"})
        status, _, body = _http(ports[0], "PUT", f"/v1/mosques/{mosque_id}", json.dumps(edited).encode(),
                                {"Authorization": f"Bearer {secret}", "If-Match": '"1"'})
        assert status == 200, body
        _, _, page = _http(ports[0], "GET", screen)
        assert b"Renamed Mosque" in page  # the node that took the edit: at once
        # The other node read version 1 before the edit (its screen above), so its copy is trusted until less than
        # PROFILE_TTL_S after `started`: a question sent later than that must see the edit.  The verdict is that
        # order (issue 34: "within TTL + 2 s" of wall-clock time failed when a loaded machine slowed the questions).
        started = time.monotonic()
        while True:
            sent = time.monotonic()
            if b"Renamed Mosque" in _http(ports[1], "GET", screen)[2]:
                break
            assert sent - started <= hosted.PROFILE_TTL_S, \
                f"a question sent {sent - started:.1f} s after the edit got the old profile (copies live {hosted.PROFILE_TTL_S} s)"
            time.sleep(0.5)
        # Restart: a new process on the same database serves the edited profile at once.
        local_stack.stop(apps[1])
        apps[1] = local_stack.start_app(static, ports[1], extra_env=extra)
        local_stack.wait_until_up(f"http://127.0.0.1:{ports[1]}/v1/methods", seconds=120)
        status, headers, body = _http(ports[1], "GET", f"/v1/mosques/{mosque_id}")
        assert status == 200 and headers["etag"] == '"2"' and json.loads(body) == edited
        # Header injection and a body that never ends: 4xx, and the server carries on.
        raw = (f"PUT /v1/mosques/{mosque_id} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {secret}\r\n"
               f"X-Evil: a\rb\r\nIf-Match: \"2\"\r\nContent-Length: 2\r\n\r\n{{}}").encode()
        import socket
        with socket.create_connection(("127.0.0.1", ports[1]), timeout=10) as sock:
            sock.sendall(raw)
            assert sock.recv(100).split(b" ")[1][:1] == b"4"
        status, _, _ = _http(ports[1], "POST", "/v1/mosques", b"{" + b" " * (80 * 1024))
        assert status == 413
        assert _http(ports[1], "GET", f"/v1/mosques/{mosque_id}")[0] == 200
    finally:
        local_stack.stop(*apps)


@pytest.mark.slow
@pytest.mark.skipif(local_stack.nginx_binary() is None, reason="nginx is not installed (make system-packages)")
def test_behind_nginx_publish_edit_and_pages_reach_the_app(tmp_path):
    """deploy/nginx.conf passes POST/PUT/DELETE of /v1/mosques… to the app (every other path is GET/HEAD only)."""
    static = tmp_path / "static"
    static.mkdir()
    app_port, nginx_port = local_stack.free_port(), local_stack.free_port()
    extra = {"MOSQUE_DB_PATH": str(tmp_path / "m.sqlite3"), "MOSQUE_DB_URL": "",
             "PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)}
    app = local_stack.start_app(static, app_port, extra_env=extra)
    nginx = local_stack.start_nginx(tmp_path / "nginx", static, nginx_port, app_port)
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{app_port}/v1/methods", seconds=120)
        local_stack.wait_until_up(f"http://127.0.0.1:{nginx_port}/v1/methods", seconds=120)  # a loaded CI machine
        status, _, body = _http(nginx_port, "POST", "/v1/mosques", json.dumps(profile()).encode())
        assert status == 201, body
        created = json.loads(body)
        mosque_id, secret = created["id"], created["edit"]
        status, headers, _ = _http(nginx_port, "GET", f"/v1/mosques/{mosque_id}")
        assert status == 200 and headers["etag"] == '"1"'
        status, _, _ = _http(nginx_port, "PUT", f"/v1/mosques/{mosque_id}", json.dumps(profile()).encode(),
                             {"Authorization": f"Bearer {secret}", "If-Match": '"1"'})
        assert status == 200
        assert _http(nginx_port, "GET", f"/mosque/{mosque_id}/")[0] == 200
        # 150 screens of one centre behind one address ask the profile at once (each asks every 20 s): nginx's
        # renders zone (100 a minute) would refuse a third of them; the profile's own zone lets them all through
        asked = [_http(nginx_port, "GET", f"/v1/mosques/{mosque_id}", None, {"If-None-Match": '"2"'})[0]
                 for _ in range(150)]
        assert asked == [304] * 150, sorted(set(asked))
        assert _http(nginx_port, "GET", f"/v1/mosques/{mosque_id}/salahapi.json")[0] == 200
        assert _http(nginx_port, "POST", "/v1/mosques", b" " * (65 * 1024))[0] == 413
        assert _http(nginx_port, "PATCH", f"/v1/mosques/{mosque_id}", b"{}")[0] == 405
        assert _http(nginx_port, "DELETE", f"/v1/mosques/{mosque_id}", None,
                     {"Authorization": f"Bearer {secret}", "If-Match": '"2"'})[0] == 200
    finally:
        local_stack.stop(nginx, app)


# ------------------------------------------------------------------ hostile input: 4xx, never 5xx

HOSTILE_BODIES = [b"", b"null", b"[]", b"\"text\"", b"{", b"{\"names\": {\"en\": \"x\"}}", b"\xff\xfe", b"1e999999",
                  b"{\"a\":" * 2000 + b"1" + b"}" * 2000, json.dumps({"names": {"en": "x" * 61}}).encode(),
                  json.dumps(dict(profile(), place={"lat": "91", "lng": "0", "tz": "UTC"})).encode(),
                  json.dumps(dict(profile(), place={"lat": 10, "lng": 10, "tz": "Mars/Olympus"})).encode(),
                  json.dumps(dict(profile(), website="javascript:alert(1)")).encode(),
                  json.dumps(dict(profile(), sources=[])).encode(),
                  json.dumps(dict(profile(), jamaat={"jamaatTable": "day,fajr;" + "2026-01-01,05:00;" * 3000})).encode()]


@pytest.mark.parametrize("body", HOSTILE_BODIES, ids=range(len(HOSTILE_BODIES)))
def test_hostile_bodies_are_4xx(api, body):
    client, _ = api
    response = client.post("/v1/mosques", content=body, headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:200])
    assert "error" in response.json()


@pytest.mark.parametrize("path", ["/v1/mosques/..%2f..%2fetc%2fpasswd", "/v1/mosques/%3Cscript%3E", "/v1/mosques/" + "a" * 300,
                                  "/v1/mosques/ABC", "/v1/mosques/a--b/salahapi.json", "/v1/mosques/x/versions/99999999999",
                                  "/v1/mosques/x/versions/-1"])
def test_hostile_ids_are_4xx(api, path):
    client, _ = api
    for method in ("GET", "PUT", "DELETE"):
        response = client.request(method, path, headers=_auth("x", 1), content=b"{}")
        assert 400 <= response.status_code < 500, (method, path, response.status_code)


def test_hostile_headers_are_4xx(api):
    client, _ = api
    created = _create(client)
    mosque_id, secret = created["id"], created["edit"]
    url = f"/v1/mosques/{mosque_id}"
    body = json.dumps(profile())
    cases = [({"Authorization": "Basic abc", "If-Match": '"1"'}, 403),
             ({"Authorization": "Bearer " + "a" * 5000, "If-Match": '"1"'}, 403),
             ({"Authorization": f"Bearer {secret}", "If-Match": "*"}, 400),
             ({"Authorization": f"Bearer {secret}", "If-Match": '"1", "2"'}, 400),
             ({"Authorization": f"Bearer {secret}", "If-Match": '"99999999999999"'}, 400),
             ({"Authorization": f"Bearer {secret}", "If-Match": '"1"', "Content-Type": "text/html"}, 415),
             ({"Authorization": f"Bearer {secret}", "If-Match": '"1"', "Content-Length": "99999999"}, 413)]
    for headers, status in cases:
        response = client.put(url, content=body, headers={"Content-Type": "application/json", **headers})
        assert response.status_code == status, (headers, response.status_code, response.text[:200])
    assert client.get(url).headers["etag"] == '"1"'


def test_a_streamed_body_past_the_bound_is_413(api):
    client, _ = api

    def chunks():
        for _ in range(100):
            yield b" " * 1024

    response = client.post("/v1/mosques", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413


def test_creation_and_edits_are_rate_limited_per_client(api, monkeypatch):
    client, _ = api
    monkeypatch.setattr(hosted, "creations", hosted.HourlyBucket(3))
    monkeypatch.setattr(hosted, "edits", hosted.HourlyBucket(2))
    answers = [client.post("/v1/mosques", json=profile()) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert int(answers[-1].headers["retry-after"]) > 0  # a bucket of 3 an hour: the next in ~20 minutes
    assert 1100 <= int(answers[-1].headers["retry-after"]) <= 1200
    mosque_id, secret = answers[0].json()["id"], answers[0].json()["edit"]
    edits = [client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(secret, v)) for v in (1, 2, 3)]
    assert [e.status_code for e in edits] == [200, 200, 429]


# ------------------------------------------------------------------ listing, noindex, text only

def test_unlisted_until_listed_noindex_and_text_only(api):
    client, store = api
    created = _create(client)
    mosque_id = created["id"]
    listed = [m["id"] for m in client.get("/v1/mosques").json()["mosques"]]
    assert mosque_id not in listed
    page = client.get(f"/mosque/{mosque_id}/")
    assert '<meta name="robots" content="noindex">' in page.text
    assert "<script>alert(1)</script>" not in page.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    screen = client.get("/screen/", params={"mosque": mosque_id, "lang": "en"}).text
    assert "<script>alert(1)</script>" not in screen and "alert(1)" in screen
    store.set_listed(mosque_id, True)
    hosted.forget(mosque_id)  # what PROFILE_TTL_S does by itself
    assert mosque_id in [m["id"] for m in client.get("/v1/mosques").json()["mosques"]]
    assert 'content="noindex"' not in client.get(f"/mosque/{mosque_id}/").text
    redirect = client.get(f"/mosque/{mosque_id}/screen/", follow_redirects=False)
    assert redirect.headers["location"] == f"/screen/?mosque={mosque_id}&lang=ur"  # its first language
    assert redirect.headers["cache-control"] == "public, max-age=30"


# ------------------------------------------------------------------ SalahAPI 1.0

@pytest.mark.parametrize("which", ["file", "hosted"])
def test_salahapi_document_is_valid_and_its_csv_is_the_apis_times(api, which):
    client, _ = api
    mosque_id = "jaffari-toronto" if which == "file" else _create(client)["id"]
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    document = client.get(f"/v1/mosques/{mosque_id}/salahapi.json")
    assert document.status_code == 200
    jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).validate(document.json())
    doc = document.json()
    if which == "file":  # custom 16°/14° is not a named SalahAPI method: "other", with its angles
        assert doc["calculationMethod"]["name"] == "other"
        assert (doc["calculationMethod"]["fajrAngle"], doc["calculationMethod"]["ishaAngle"]) == (16, 14)
        # The centre's coordinates (Wikipedia: 43.8417, -79.4608) at the 0.01° the API computes at (README).
        assert (doc["location"]["latitude"], doc["location"]["longitude"]) == (43.84, -79.46)
        assert doc["location"]["timezone"] == "America/Toronto"
    else:  # Jafari: SalahAPI's "jafari" is 16°/14° (versions/1.0.md's calculationEnum), as ours
        assert doc["calculationMethod"]["name"] == "jafari"
        rules = doc["calculationMethod"]["iqamaCalculationRules"]
        assert rules["changeOn"] == "friday" and rules["dhuhr"] == {"static": "13:30"}
        assert rules["fajr"]["afterAthanMinutes"] == 20 and rules["fajr"]["roundMinutes"] == 5
        assert "asr" not in rules  # combined with dhuhr: no SalahAPI words for it (the CSV carries its times)
        assert [r["time"]["static"] for r in doc["calculationMethod"]["jumuahRules"]] == ["13:15", "14:00"]
    assert doc["dailyPrayerTimes"]["csvUrl"].endswith(f"/v1/mosques/{mosque_id}/salahapi.csv")
    csv_text = client.get(f"/v1/mosques/{mosque_id}/salahapi.csv",
                          params={"fromDate": "2026-03-01", "toDate": "2026-03-31"}).text
    lines = csv_text.split("\r\n")
    assert lines[0] == ("day,fajr_athan,fajr_iqama,sunrise,dhuhr_athan,dhuhr_iqama,asr_athan,asr_iqama,"
                        "maghrib_athan,maghrib_iqama,isha_athan,isha_iqama")
    answer = client.get("/v1/prayer-times", params={"mosque": mosque_id, "year": "2026", "month": "3"}).json()
    assert len(lines) == 1 + 31 + 1 and lines[-1] == ""
    for line, day in zip(lines[1:], answer["days"]):
        cells = dict(zip(lines[0].split(","), line.split(",")))
        assert cells["day"] == day["date"]
        for prayer in ("fajr", "dhuhr", "asr", "maghrib", "isha"):
            assert cells[f"{prayer}_athan"] == day["local"][prayer]
            assert cells[f"{prayer}_iqama"] == day.get("jamaatLocal", {}).get(prayer, "")
        assert cells["sunrise"] == day["local"]["sunrise"]
    _bad(client.get(f"/v1/mosques/{mosque_id}/salahapi.csv", params={"fromDate": "2026-13-01"}), "fromDate")
    _bad(client.get(f"/v1/mosques/{mosque_id}/salahapi.csv", params={"fromDate": "2026-01-01",
                                                                     "toDate": "2027-06-01"}), "toDate")
    assert client.get("/v1/mosques/nosuchmosque/salahapi.json").status_code == 404


def test_a_browser_may_edit_from_the_services_own_origin_and_only_there(api):
    """Fetch standard: the preflight of a PUT with Authorization and If-Match is allowed under /v1/mosques only, and
    (issue 34) only for this service's own origin, named back (tests/test_hosted_abuse.py: other origins)."""
    client, _ = api
    from generator.site import urls

    asked = {"Origin": urls.PUBLIC_ORIGIN, "Access-Control-Request-Method": "PUT",
             "Access-Control-Request-Headers": "authorization, if-match, content-type"}
    there = client.options("/v1/mosques/abcdefghijklm", headers=asked)
    assert there.status_code == 204 and there.headers["access-control-allow-origin"] == urls.PUBLIC_ORIGIN
    assert "PUT" in there.headers["access-control-allow-methods"].split(", ")
    assert there.headers["access-control-allow-headers"] == "authorization, if-match, content-type"
    elsewhere = client.options("/v1/methods", headers=asked)
    assert elsewhere.headers["access-control-allow-methods"] == "GET, HEAD"


# Any JSON value, nested (st.deferred: hypothesis 6.170's st.recursive sometimes warned that its extend function
# "doesn't use its argument" though it does, which the suite's warnings-as-errors turned into a failure).
JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=80)
JSON_VALUES = st.deferred(lambda: JSON_LEAVES | st.lists(JSON_VALUES, max_size=4)
                          | st.dictionaries(st.text(max_size=12), JSON_VALUES, max_size=4))


# psycopg_pool's worker threads draw from the global `random` (a new connection's expiry jitter, psycopg_pool/base.py)
# when the PostgreSQL store's pool grows; when that falls inside a draw, hypothesis (6.170) blames the strategy with a
# HypothesisDeprecationWarning, which warnings-as-errors made a failure (1 fresh-clone run of 4, 28 November). The
# strategies here use no `random`: that one warning is not the test's.
@pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies:hypothesis.errors.HypothesisDeprecationWarning")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], database=None)
@given(field=st.sampled_from(["names", "place", "times", "jamaat", "reckoning", "languages", "announcement",
                              "website", "address", "sources", "extra"]),
       inner=st.one_of(st.none(), st.text(max_size=20)), value=JSON_VALUES)
def test_any_value_in_any_field_is_a_201_or_a_4xx_never_a_5xx(api, field, inner, value):
    """Property (hypothesis): the example profile with one field (or one key inside it) replaced by any JSON value."""
    client, _ = api
    body = profile()
    if inner is not None and isinstance(body.get(field), dict):
        body[field] = {**body[field], inner: value}
    else:
        body[field] = value
    response = client.post("/v1/mosques", content=json.dumps(body, allow_nan=True).encode(),
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 201 or 400 <= response.status_code < 500, (response.status_code, response.text)
    assert response.headers["content-type"] == "application/json; charset=utf-8"


def test_a_file_profiles_id_is_never_given_to_a_hosted_one(api, monkeypatch):
    client, _ = api
    drawn = iter(["provisional00", "jaffari-toronto", "abcdefghijklm"])  # the check's id, then the store's draws
    monkeypatch.setattr(mosque_store, "new_id", lambda: next(drawn))
    created = _create(client)
    assert created["id"] == "abcdefghijklm"
    assert client.get("/v1/mosques/jaffari-toronto").json()["names"]["en"] == "Jaffari Community Centre"


# ------------------------------------------------------------------ issue 33: the committee's choice on an undisputed bound

def test_a_declared_time_outside_its_prayers_time_needs_the_committees_choice_and_it_is_applied(api):
    """A fixed fajr at 07:30 in London is at or after sunrise from spring to autumn (sunrise 04:43 BST on 21 June
    2026: the API's own sunrise, checked below).  A new publish or edit that hits such a bound without
    ``jamaat.jamaatOutside`` is a 400 naming that field; with ``skip`` the day has no fajr jamaat in JSON, CSV and
    the feed says why; with ``keep`` 07:30 stands and is marked.  A profile stored before the choice existed (put
    straight into the store, as an older service saved it) keeps serving, with the documented default (move),
    marked as moved."""
    client, store = api
    body = profile()
    body["jamaat"] = {"jamaat": "fajr:07:30,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib"}
    _bad(client.post("/v1/mosques", json=body), "jamaat.jamaatOutside")
    created = _create(client)  # the example profile declares nothing outside: no choice asked
    _bad(client.put(f"/v1/mosques/{created['id']}", json=body, headers=_auth(created["edit"], 1)),
         "jamaat.jamaatOutside")
    june = {"date": "2026-06-21"}
    for choice in ("skip", "keep"):
        chosen = {**body, "jamaat": {**body["jamaat"], "jamaatOutside": choice}}
        mosque_id = _create(client, chosen)["id"]
        (day,) = client.get("/v1/prayer-times", params={"mosque": mosque_id, **june}).json()["days"]
        assert day["local"]["sunrise"] < "07:30"  # the bound is hit that day
        csv_rows = list(csv.DictReader(io.StringIO(client.get("/v1/prayer-times.csv",
                                                              params={"mosque": mosque_id, **june}).text)))
        ics = client.get("/v1/prayer-times.ics", params={"mosque": mosque_id}).text
        if choice == "skip":
            assert "fajr" not in day["jamaat"] and day["jamaatSkipped"] == ["fajr"]
            assert csv_rows[0]["jamaat_fajr"] == "" and "fajr:skipped" in csv_rows[0]["jamaat_moved"].split()
        else:
            assert day["jamaatLocal"]["fajr"] == "07:30" and day["jamaatKept"] == ["fajr"]
            assert csv_rows[0]["jamaat_fajr"] == "07:30" and "fajr:kept" in csv_rows[0]["jamaat_moved"].split()
        assert ics.startswith("BEGIN:VCALENDAR")
    # stored before the choice existed: served with today's move, marked
    legacy = store.create(json.dumps(body))[0]
    response = client.get("/v1/prayer-times", params={"mosque": legacy, **june})
    assert response.status_code == 200, response.text
    (day,) = response.json()["days"]
    assert "fajr" in day["jamaatMoved"] and "fajr" in day["jamaatMovedEnd"]
    assert day["jamaatLocal"]["fajr"] < day["local"]["sunrise"]


def test_the_mosque_page_marks_the_recommended_time_beside_a_combined_jamaat(api):
    """Issue 33: the example profile prays asr with dhuhr and isha with maghrib (its rules, read here), so on every day
    of the month its page's asr and isha cells are marked ° and the page says what the mark means (the glossary's
    mosque.fadhila_note in the page's language, in all four: the page prints as the mosque's notice, so the print
    carries the note too); fajr, dhuhr and maghrib are never marked."""
    from generator.words import glossary

    client, _ = api
    rules = profile()["jamaat"]["jamaat"].split(",")
    assert "asr:dhuhr" in rules and "isha:maghrib" in rules
    mosque_id = _create(client)["id"]
    for lang in ("en", "ar", "fa", "ur"):
        html = client.get(f"/mosque/{mosque_id}/" + ("" if lang == "en" else f"{lang}/")).text
        cells = re.findall(r'<td data-time="(\w+)">([^<]*)</td>', html)
        assert cells and all(text.endswith("°") == (name in ("asr", "isha")) for name, text in cells if text), cells[:8]
        assert glossary.term("page.mosque.fadhila_note")[lang] in html
