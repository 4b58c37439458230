"""Issue 34's abuse items on the hosted mosque profiles: the sweep's 500s, the smaller refusals, writes only from
the service's own origin, IPv6 clients by their /64, bounded storage, and edit links (rotate, named, revoked).

References, named in each test: the outside report ../shared/reference/reliability_2026-11-28/REPORT.md (each
defect as it was found there); RFC 9110 (§13.1.1 If-Match: the strong comparison; §11.1: an authentication scheme
is case-insensitive); the Fetch standard (CORS: a cross-origin request carries Origin); RFC 4291 §2.5.4 (a global
unicast address's interface identifier is its last 64 bits); Unicode's General Categories (Cf, Zs) and its
Default_Ignorable_Code_Point property, restated here as explicit code points.
"""
from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.prayer import mosques
from generator.site import responses
from runtime import hosted, mosque_store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_hosted_mosques import _auth, _bad, _create, cluster, profile  # noqa: E402,F401  (helpers, fixtures)

# The report's profile (section G, 7 of 649 generated profiles): accepted with 201, its page, screen and widget 500.
TORONTO_NEVER_WITHIN = {
    "names": {"en": "Never within"}, "place": {"city": "toronto"}, "reckoning": "moonsighting", "languages": ["en"],
    "times": {"method": "IslamicCentreOfEngland", "highLatitudeRule": "middleOfNight"},
    "jamaat": {"jamaat": "fajr:166,dhuhr:18:28", "eid": "10:30", "jamaatDst": "asr:70,maghrib:10:49,dhuhr:18:12"},
    "sources": [{"about": "a test", "url": "https://example.org/", "read": "2026-11-28"}]}


@pytest.fixture
def api(tmp_path, monkeypatch):
    """The app (in process) on a fresh SQLite store, with fresh per-client buckets; the previous store put back."""
    from runtime.app import app

    monkeypatch.setattr(hosted, "creations", hosted.HourlyBucket(1000))
    monkeypatch.setattr(hosted, "edits", hosted.HourlyBucket(1000))
    previous = hosted._store
    store = mosque_store.open_store("", tmp_path / "mosques.sqlite3")
    hosted.open_store(store)
    responses._body.cache_clear()
    yield TestClient(app), store
    responses._body.cache_clear()
    if previous is not None:  # both first let the reads noted reach this store (hosted._drain_notes)
        hosted.open_store(previous)
    else:
        hosted.close_store()
    store.close()


# ------------------------------------------------------------------ the sweep's 500s

def test_a_profile_is_checked_in_the_years_it_is_served_not_2000(api, monkeypatch):
    """REPORT.md section G: the creation check read the year 2000 only, where this rule happens to fit (Toronto's
    clock rules and the Hijri dates of that year), so the profile was accepted and its pages then failed in every
    year served.  Now it is a 400 naming the jamaat field, and nothing is stored; the same profile still passes a
    check of the year 2000 alone (the old check, reproduced by narrowing the window to that year)."""
    from generator.api import mosque_list

    client, store = api
    response = client.post("/v1/mosques", json=TORONTO_NEVER_WITHIN)
    _bad(response, "jamaat.jamaat")
    assert "never within its prayer's time" in response.json()["error"]
    assert store.ids() == []
    mosque = mosques.parse(TORONTO_NEVER_WITHIN, "abcdefghijklm", "body")
    with monkeypatch.context() as patch:
        patch.setattr(mosque_list, "CHECK_YEARS_AROUND", 0)
        mosque_list.check_one(mosque, datetime(2000, 7, 1, tzinfo=timezone.utc).timestamp())  # 2000 alone: passes
    with pytest.raises(mosques.ProfileError):
        mosque_list.check_one(mosque, datetime(2026, 11, 28, tzinfo=timezone.utc).timestamp())


@pytest.mark.parametrize("from_date", ["9999-01-02", "9999-12-31", "0001-01-01"])
def test_salahapi_csv_far_dates_are_400_not_500(api, from_date):
    """REPORT.md section G: fromDate 9999-01-02 or later was a 500 (OverflowError past date.max), file profiles
    too; the API's range is 1900-2100, so any such date is a 400 naming fromDate."""
    client, _ = api
    for mosque_id in ("jaffari-toronto", _create(client)["id"]):
        _bad(client.get(f"/v1/mosques/{mosque_id}/salahapi.csv", params={"fromDate": from_date}), "fromDate")


def test_a_stored_profile_that_no_longer_reads_gets_error_pages_not_500(api):
    """REPORT.md section G: the pages turned the endpoints' refusal into a 500.  A profile stored before the check
    read the served years (written to the store directly, as it was then accepted) now gets 400 pages and 400
    answers, never a 5xx, on its page, screen and widget."""
    client, store = api
    mosque_id, _, _ = store.create(json.dumps(TORONTO_NEVER_WITHIN))
    for path in (f"/mosque/{mosque_id}/", f"/screen/?mosque={mosque_id}", f"/widget/?mosque={mosque_id}",
                 f"/v1/prayer-times?mosque={mosque_id}"):
        response = client.get(path)
        assert response.status_code == 400, (path, response.status_code)


# ------------------------------------------------------------------ the smaller items

def test_a_weak_if_match_never_matches_and_bearer_is_any_case(api):
    """RFC 9110 §13.1.1: If-Match uses the strong comparison, so ``W/"1"`` matches no version (412, nothing
    written; REPORT.md section A: it wrote version 4).  RFC 9110 §11.1: the scheme is case-insensitive, so
    ``bearer`` and ``BEARER`` are Bearer (the report: 403); the secret itself stays exact."""
    client, store = api
    created = _create(client)
    mosque_id, secret = created["id"], created["edit"]
    url = f"/v1/mosques/{mosque_id}"
    _bad(client.put(url, json=profile(), headers={"Authorization": f"Bearer {secret}", "If-Match": 'W/"1"'}),
         "If-Match", 412)
    assert store.get(mosque_id).version == 1
    for scheme, version in (("bearer", 1), ("BEARER", 2), ("BeArEr", 3)):
        response = client.put(url, json=profile(), headers={"Authorization": f"{scheme} {secret}",
                                                            "If-Match": f'"{version}"'})
        assert response.status_code == 200, (scheme, response.text)
    assert client.put(url, json=profile(), headers={"Authorization": f"bearer {secret.swapcase()}",
                                                    "If-Match": '"4"'}).status_code == 403


BIDI_CONTROLS = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
# Names that draw nothing (REPORT.md section C: all were 201): spaces (Zs), format characters (Cf: ZWSP U+200B,
# ZWNJ, ZWJ, LRM, BOM U+FEFF, the Mongolian vowel separator U+180E), the Hangul fillers U+115F, U+1160, U+3164,
# U+FFA0, the braille blank U+2800, a combining mark alone (U+0301), and mixtures of them.
INVISIBLE_NAMES = ["\u200b", "\ufeff", "\u115f", "\u3164", "\u1160\uffa0", "\u2800", "\u200c\u200d\u200e",
                   "\u3000\u00a0 ", "\u180e", "\u0301", "\u200b \u3164\ufeff"]


@pytest.mark.parametrize("text", [f"Masjid {c}x" for c in BIDI_CONTROLS] + INVISIBLE_NAMES)
def test_bidi_controls_and_invisible_names_are_refused_naming_the_field(api, text):
    """REPORT.md section C: U+202E in a name reversed <title>/og: text, and invisible names were accepted; both are a
    400 naming the field (names.en, names.ar, announcement.en), and nothing is stored."""
    client, store = api
    for field, body in (("names.en", dict(profile(), names={"en": text})),
                        ("names.ar", dict(profile(), names={"en": "Masjid", "ar": text})),
                        ("announcement.en", dict(profile(), announcement={"en": text}))):
        _bad(client.post("/v1/mosques", json=body), field)
    assert store.ids() == []


@pytest.mark.parametrize("name", ["مسجد\u200fالنور", "مسجد \u200cامام", "Masjid \U0001f54c", "\u0645\u0651"])
def test_names_with_marks_joiners_and_emoji_are_still_accepted(api, name):
    """What stays allowed: RLM (U+200F) and ZWNJ (U+200C) inside Arabic-script words, an emoji, a letter with its
    shadda (U+0651): each has a visible character and no embedding, override or isolate."""
    client, _ = api
    _create(client, dict(profile(), names={"en": "Masjid", "ar": name}))


def test_the_database_and_exports_are_private_and_the_command_needs_the_database(tmp_path, monkeypatch, capsys):
    """REPORT.md section B: the export and var/mosques.sqlite3 were created 0644 under umask 022 (any local user read
    every unlisted address), and `mosque.py` run without the app's database quietly created an empty SQLite file
    and reported no profiles.  Now both files are 0600 (its -wal too), and the command refuses (exit 2, a message
    naming MOSQUE_DB_URL and MOSQUE_DB_PATH) without creating anything."""
    import os
    import stat

    import mosque as command

    old_umask = os.umask(0o022)
    try:
        path = tmp_path / "db" / "mosques.sqlite3"
        monkeypatch.setenv("MOSQUE_DB_URL", "")
        monkeypatch.setenv("MOSQUE_DB_PATH", str(path))
        assert command.main(["show"]) == 2
        assert "MOSQUE_DB_URL" in capsys.readouterr().err and not path.exists()
        store = mosque_store.open_store("", path)
        store.create(json.dumps(profile()))
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.with_name(path.name + "-wal").stat().st_mode) == 0o600
        store.close()
        out = tmp_path / "export.jsonl"
        assert command.main(["export", str(out)]) == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o600
        assert command.main(["show"]) == 0 and "SQLite" in capsys.readouterr().err  # the store it opened, named
    finally:
        os.umask(old_umask)


def test_timetable_py_with_a_data_folder_without_index_is_a_clear_refusal(tmp_path, capsys):
    """REPORT.md section E (N5): `timetable.py add --data <folder without index.csv>` ended in a traceback."""
    import timetable

    table = tmp_path / "table.csv"
    table.write_text("day,fajr\n01-01,06:00\n", encoding="utf-8")
    code = timetable.main(["add", str(table), "--authority", "ImamAliFoundation", "--place", "london",
                           "--source", "https://example.org/", "--data", str(tmp_path / "empty")])
    assert code == 2
    assert "no index.csv" in capsys.readouterr().err


# ------------------------------------------------------------------ writes only from the service's own origin

FOREIGN_ORIGINS = ["https://evil.example", "null", "http://127.0.0.1:8001", "https://testserver.evil.example",
                   "file://", "https://127.0.0.1:8000.evil.example"]


@pytest.mark.parametrize("origin", FOREIGN_ORIGINS)
def test_a_write_from_another_origin_is_refused_even_without_a_preflight(api, origin):
    """REPORT.md section C: `OPTIONS /v1/mosques` from `Origin: https://evil.example` allowed POST with `*`, so any
    web page could make its visitors' browsers publish.  The Fetch standard has a browser send Origin with every
    cross-origin POST, PUT and DELETE (a "simple" form POST needs no preflight): each is a 403 naming Origin, and
    nothing is stored or changed; the preflight from there allows reads only (`*`, GET and HEAD)."""
    client, store = api
    created = _create(client)  # no Origin: a tool, not a browser's drive-by
    mosque_id, secret = created["id"], created["edit"]
    foreign = {"Origin": origin}
    _bad(client.post("/v1/mosques", json=profile(), headers=foreign), "Origin", 403)
    _bad(client.post("/v1/mosques", content=json.dumps(profile()), headers={**foreign, "Content-Type": "text/plain"}),
         "Origin", 403)
    _bad(client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers={**foreign, **_auth(secret, 1)}), "Origin", 403)
    _bad(client.delete(f"/v1/mosques/{mosque_id}", headers={**foreign, **_auth(secret, 1)}), "Origin", 403)
    _bad(client.post(f"/v1/mosques/{mosque_id}/versions/1/restore", headers={**foreign, **_auth(secret, 1)}),
         "Origin", 403)
    assert [row[:2] for row in store.ids()] == [(mosque_id, 1)]
    preflight = client.options("/v1/mosques", headers={**foreign, "Access-Control-Request-Method": "POST",
                                                       "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"
    assert preflight.headers["access-control-allow-methods"] == "GET, HEAD"
    read = client.get(f"/v1/mosques/{mosque_id}", headers=foreign)  # reads stay open to every origin
    assert read.status_code == 200 and read.headers["access-control-allow-origin"] == "*"


def test_writes_from_the_services_own_origins_are_allowed(api):
    """Own origins: PUBLIC_ORIGIN (the test app's default http://127.0.0.1:8000) and the host the request was sent
    to (TestClient's Host: testserver; a mirror the builder is read on)."""
    from generator.site import urls

    client, _ = api
    for origin in (urls.PUBLIC_ORIGIN, "http://testserver", "https://testserver"):
        response = client.post("/v1/mosques", json=profile(), headers={"Origin": origin})
        assert response.status_code == 201, (origin, response.text)
        mosque_id, secret = response.json()["id"], response.json()["edit"]
        assert client.put(f"/v1/mosques/{mosque_id}", json=profile(),
                          headers={"Origin": origin, **_auth(secret, 1)}).status_code == 200


# ------------------------------------------------------------------ an IPv6 client is its /64

def _network(address: str, bits: int = 64) -> str:
    """The independent reference: Python's ipaddress (RFC 4291), an IPv4-mapped address as its IPv4 address."""
    import ipaddress

    ip = ipaddress.ip_address(address)
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{address}/{bits}", strict=False).network_address)


def _addresses(count: int = 400) -> list[str]:
    """IPv6 addresses with every shape of zero runs (seeded): each group zero or not, in and out of the prefix."""
    import ipaddress
    import random

    draw = random.Random(34)
    found = ["::", "::1", "1::", "2001:db8::", "2001:db8::1", "2001:db8:0:0:1::", "2001:0:0:5::1", "2001::5:1:2:3:4",
             "fe80::1:2:3:4", "::ffff:192.0.2.7", "2001:db8:1:2:3:4:5:6", "0:0:0:1::"]
    while len(found) < count:
        groups = [0 if draw.random() < 0.45 else draw.randrange(1, 65536) for _ in range(8)]
        found.append(ipaddress.IPv6Address(b"".join(g.to_bytes(2, "big") for g in groups)).compressed)
    return found


def test_the_apps_limits_count_an_ipv6_client_by_its_64(api, monkeypatch):
    """REPORT.md section C: 60 creations from 60 addresses of one /64 all got 201.  Clients (the peer address, as
    uvicorn gives it) of one /64 share one bucket (the 4th is 429), another /64 has its own, IPv4 addresses stay
    apart; the key is ipaddress's network for every shape of address (the reference `_network`)."""
    from runtime import app as app_module
    from runtime import ratelimit

    for address in _addresses():
        key = ratelimit.client_key(address)
        assert _network_of_key(key) == _network(address), (address, key)
    assert ratelimit.client_key("2001:db8::1", 128) == "2001:db8::1"  # IPV6_CLIENT_PREFIX=128: each address
    assert ratelimit.client_key("2001:db8:1:2:3::1", 48) == "2001:db8:1::/48"
    with pytest.raises(ValueError, match="IPV6_CLIENT_PREFIX"):
        ratelimit.ipv6_prefix_bits("8")
    monkeypatch.setattr(hosted, "creations", hosted.HourlyBucket(3))
    assert app_module.ipv6_client_prefix == 64  # the default

    def create(address):
        peer = TestClient(app_module.app, client=(address, 50000))  # not entered: the app's start-up not run again
        return peer.post("/v1/mosques", json=profile()).status_code

    assert [create(f"2001:db8:aa:bb::{k:x}") for k in range(1, 5)] == [201, 201, 201, 429]
    assert create("2001:db8:aa:bb:ffff:ffff:ffff:ffff") == 429
    assert create("2001:db8:aa:bc::1") == 201  # the next /64
    assert [create(f"192.0.2.{k}") for k in (1, 2, 3, 4)] == [201] * 4  # IPv4: each address its own


def _network_of_key(key: str) -> str:
    import ipaddress

    return str(ipaddress.ip_network(key, strict=False).network_address) if "/" in key else key


@pytest.mark.skipif(not __import__("shutil").which("nginx") and not Path("/usr/sbin/nginx").exists(),
                    reason="nginx is not installed (apt-get install nginx-light)")
@pytest.mark.parametrize("bits", [64, 48])
def test_nginx_zones_count_an_ipv6_client_by_its_64(tmp_path, bits):
    """The zones' key in deploy/nginx.conf is the map render_nginx_conf.py writes (`client_network_map`), evaluated by a
    real nginx: its realip module takes each client address from a header (trusted from loopback) and writes it in
    its own text (lower case, RFC 5952 compression), so addresses sent exploded or in upper case are read as nginx
    reads a peer.  Every key names the /64 (or, with --ipv6-prefix 48, the /48) ipaddress computes (`_network`); IPv4
    and IPv4-mapped addresses are the IPv4 address."""
    import http.client
    import subprocess

    from deploy import local_stack
    from deploy.render_nginx_conf import client_network_map

    port = local_stack.free_port()
    for folder in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / folder).mkdir()
    temp = "".join(f"{name}_temp_path {tmp_path / folder};\n" for name, folder in (
        ("client_body", "client_body"), ("proxy", "proxy"), ("fastcgi", "fastcgi"), ("uwsgi", "uwsgi"), ("scgi", "scgi")))
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"""pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    {temp}
    {client_network_map(bits)}
    server {{
        listen 127.0.0.1:{port};
        set_real_ip_from 127.0.0.1;
        real_ip_header X-Real-IP;
        location / {{ return 200 "$client_network"; }}
    }}
}}
""")
    nginx = subprocess.Popen([local_stack.nginx_binary(), "-c", str(conf), "-p", str(tmp_path), "-g", "daemon off;"])
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{port}/", 20)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        import ipaddress

        cases = [(address, address) for address in _addresses()]
        cases += [(ipaddress.ip_address(a).exploded.upper(), a) for a in _addresses(60) if ":" in a and "." not in a]
        cases += [("192.0.2.9", "192.0.2.9")]
        for sent, address in cases:
            connection.request("GET", "/", headers={"X-Real-IP": sent})
            key = connection.getresponse().read().decode()
            assert _network_of_key(key) == _network(address, bits), (sent, key)
            assert key.endswith(f"/{bits}") == (":" in address and not address.startswith("::ffff:"))
        connection.close()
    finally:
        local_stack.stop(nginx)


# ------------------------------------------------------------------ bounded storage

def test_each_profile_keeps_its_newest_versions_only(api):
    """Issue 34: every version was kept for ever.  With `Limits.versions` = 3, after 6 saves the history is versions
    4-6 (the newest three; version 1 is gone from the database), restoring a kept one works and a removed one is a
    404; the count is read from the database itself with sqlite3, not through the store."""
    import sqlite3

    client, store = api
    store.limits = mosque_store.Limits(versions=3)
    created = _create(client)
    mosque_id, secret = created["id"], created["edit"]
    for version in range(1, 6):
        body = dict(profile(), announcement={"en": f"edit {version}"})
        assert client.put(f"/v1/mosques/{mosque_id}", json=body, headers=_auth(secret, version)).status_code == 200
    listed = client.get(f"/v1/mosques/{mosque_id}/versions", headers={"Authorization": f"Bearer {secret}"})
    assert [v["version"] for v in listed.json()["versions"]] == [4, 5, 6]
    with sqlite3.connect(store.path) as raw:
        assert raw.execute("SELECT version FROM versions WHERE id = ? ORDER BY version", (mosque_id,)).fetchall() \
            == [(4,), (5,), (6,)]
    restore = f"/v1/mosques/{mosque_id}/versions/%d/restore"
    assert client.post(restore % 1, headers=_auth(secret, 6)).status_code == 404
    assert client.post(restore % 4, headers=_auth(secret, 6)).status_code == 200
    assert client.get(f"/v1/mosques/{mosque_id}").json()["announcement"] == {"en": "edit 3"}


def test_global_caps_refuse_with_507_and_deletion_stays_possible(api):
    """Issue 34: no global cap on profiles or database size.  At `Limits.profiles` a creation is a 507 saying what is
    full, nothing stored; at `Limits.database_bytes` (here: one byte, so any database is over it) creations and
    edits are 507 and a deletion still works."""
    client, store = api
    store.limits = mosque_store.Limits(profiles=2)
    first, _ = _create(client), _create(client)
    refused = client.post("/v1/mosques", json=profile())
    assert refused.status_code == 507 and "HOSTED_MAX_PROFILES" in refused.json()["error"]
    assert len(store.ids()) == 2
    store.limits = mosque_store.Limits(database_bytes=1)
    assert client.post("/v1/mosques", json=profile()).status_code == 507
    url = f"/v1/mosques/{first['id']}"
    edit = client.put(url, json=profile(), headers=_auth(first["edit"], 1))
    assert edit.status_code == 507 and "HOSTED_MAX_DATABASE_MB" in edit.json()["error"]
    assert client.delete(url, headers=_auth(first["edit"], 1)).status_code == 200


def test_the_caps_are_read_from_the_environment():
    limits = mosque_store.Limits.from_env({"HOSTED_MAX_PROFILES": "50", "HOSTED_MAX_VERSIONS": "0",
                                           "HOSTED_MAX_DATABASE_MB": "3"})
    assert limits == mosque_store.Limits(profiles=50, versions=0, database_bytes=3 * 2**20)
    with pytest.raises(ValueError, match="HOSTED_MAX_VERSIONS"):
        mosque_store.Limits.from_env({"HOSTED_MAX_VERSIONS": "-1"})


def test_the_caps_hold_on_postgresql_too(cluster):
    """The same caps on a real PostgreSQL (tests/pg_cluster.py): the tables' size from pg_total_relation_size, the
    count of profiles, the newest versions kept."""
    import uuid

    store = mosque_store.open_store(cluster.create("t" + uuid.uuid4().hex[:12]))
    try:
        store.limits = mosque_store.Limits(profiles=1, versions=2)
        mosque_id, secret, _ = store.create(json.dumps(profile()))
        with pytest.raises(mosque_store.CapReached):
            store.create(json.dumps(profile()))
        for version in (1, 2, 3):
            store.save(mosque_id, secret, version, json.dumps(profile()))
        assert [v["version"] for v in store.versions(mosque_id, secret)] == [3, 4]
        size = store.size()
        assert size["profiles"] == 1 and size["versions"] == 2 and size["bytes"] > 8192
        store.limits = mosque_store.Limits(database_bytes=size["bytes"])
        with pytest.raises(mosque_store.CapReached):
            store.save(mosque_id, secret, 4, json.dumps(profile()))
    finally:
        store.close()


def test_unlisted_profiles_unused_for_long_are_listed_and_pruned_after_a_dry_run(api, monkeypatch, capsys):
    """`mosque.py stale` and `prune`: a profile's last day of use is the latest of its creation, its saves and the
    days a node read it (`touch`, noted by the app when it serves it).  Dates are written into the database
    directly (sqlite3) to stand for a year ago: the unlisted one nobody read is listed and, after a dry run that
    removes nothing, pruned; the one read recently, and the listed one, stay."""
    import sqlite3

    import mosque as command

    client, store = api
    monkeypatch.setenv("MOSQUE_DB_URL", "")
    monkeypatch.setenv("MOSQUE_DB_PATH", str(store.path))
    old, read_lately, listed = (_create(client)["id"] for _ in range(3))
    with sqlite3.connect(store.path) as raw:
        raw.execute("UPDATE mosques SET created = '2024-01-01T00:00:00Z'")
        raw.execute("UPDATE versions SET saved = '2024-01-01T00:00:00Z'")
        raw.execute("UPDATE mosques SET listed = 1 WHERE id = ?", (listed,))
    hosted.forget(read_lately)
    assert client.get(f"/prayer-times-not-a-page?mosque={read_lately}").status_code == 404  # not a read
    assert client.get(f"/v1/prayer-times?mosque={read_lately}").status_code == 200  # served: a read, noted
    hosted._noting.submit(lambda: None).result(timeout=10)  # the note is written off the request's thread
    assert [row["id"] for row in store.stale("2025-01-01")] == [old]
    assert command.main(["prune", "--days", "30"]) == 0
    assert "dry run" in capsys.readouterr().err and len(store.ids()) == 3
    assert command.main(["prune", "--days", "30", "--yes"]) == 0
    assert "removed 1" in capsys.readouterr().err
    assert sorted(row[0] for row in store.ids()) == sorted([read_lately, listed])


def test_a_database_made_before_the_read_day_column_is_migrated(tmp_path):
    """A database of the old schema (no read_day, written here by hand with sqlite3) opens, gains the column, and
    its profiles read on."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE mosques (id TEXT PRIMARY KEY, salt TEXT NOT NULL, secret_hash TEXT NOT NULL, "
                    "current INTEGER NOT NULL, listed INTEGER NOT NULL DEFAULT 0, created TEXT NOT NULL)")
        raw.execute("CREATE TABLE versions (id TEXT NOT NULL REFERENCES mosques(id) ON DELETE CASCADE, "
                    "version INTEGER NOT NULL, saved TEXT NOT NULL, body TEXT, PRIMARY KEY (id, version))")
        raw.execute("INSERT INTO mosques VALUES ('abcdefghijklm', '00', '00', 1, 0, '2026-01-01T00:00:00Z')")
        raw.execute("INSERT INTO versions VALUES ('abcdefghijklm', 1, '2026-01-01T00:00:00Z', '{}')")
    store = mosque_store.open_store("", path)
    try:
        assert store.get("abcdefghijklm").body == "{}"
        store.touch("abcdefghijklm", "2026-11-28")
        assert store.stale("2026-11-28") == []  # read on the 28th: not unused since before it
        assert [row["last"] for row in store.stale("2026-11-29")] == ["2026-11-28"]
    finally:
        store.close()


# ------------------------------------------------------------------ edit links: rotate, named, revoked

def _bearer(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


def test_a_secret_is_rotated_and_the_old_one_opens_nothing(api):
    """Issue 34: there was no way to rotate a secret.  After POST …/rotate the old secret is a 403 everywhere (edit,
    versions, rotate again) and the new one edits; the stored hash is the new secret's (SHA-256 of salt bytes +
    secret, computed here with hashlib, as test_hosted_mosques does)."""
    import hashlib
    import sqlite3

    client, store = api
    created = _create(client)
    mosque_id, old = created["id"], created["edit"]
    rotated = client.post(f"/v1/mosques/{mosque_id}/rotate", headers=_bearer(old))
    assert rotated.status_code == 200 and rotated.json()["name"] == "first"
    new = rotated.json()["edit"]
    assert new != old and len(new) >= 43
    assert client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(old, 1)).status_code == 403
    assert client.get(f"/v1/mosques/{mosque_id}/versions", headers=_bearer(old)).status_code == 403
    assert client.post(f"/v1/mosques/{mosque_id}/rotate", headers=_bearer(old)).status_code == 403
    assert client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(new, 1)).status_code == 200
    with sqlite3.connect(store.path) as raw:
        salt, stored = raw.execute("SELECT salt, secret_hash FROM mosques WHERE id = ?", (mosque_id,)).fetchone()
    assert stored == hashlib.sha256(bytes.fromhex(salt) + new.encode()).hexdigest()


def test_named_links_for_a_second_member_each_revocable(api):
    """Issue 34: a second committee member gets a link of their own (its secret shown once), edits with it, and can
    be revoked by another link without touching the first; a taken name is 409, a malformed one 400, the last link
    is never revoked (409), and a revoked link is a 403."""
    client, _ = api
    created = _create(client)
    mosque_id, first = created["id"], created["edit"]
    links = f"/v1/mosques/{mosque_id}/links"
    added = client.post(links, json={"name": "treasurer"}, headers=_bearer(first))
    assert added.status_code == 201 and added.json()["name"] == "treasurer"
    second = added.json()["edit"]
    assert second != first
    listing = client.get(links, headers=_bearer(second)).json()
    assert listing["you"] == "treasurer" and [link["name"] for link in listing["links"]] == ["first", "treasurer"]
    assert client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(second, 1)).status_code == 200
    _bad(client.post(links, json={"name": "treasurer"}, headers=_bearer(first)), "name", 409)
    _bad(client.post(links, json={"name": "first"}, headers=_bearer(first)), "name", 409)
    _bad(client.post(links, json={"name": "no spaces/here"}, headers=_bearer(first)), "name", 400)
    _bad(client.post(links, json={"name": 7}, headers=_bearer(first)), "body", 400)
    assert client.post(links, json={"name": "imam"}, headers=_bearer("x" * 43)).status_code == 403
    # the first member revokes the treasurer's link; its secret then opens nothing
    assert client.delete(f"{links}/treasurer", headers=_bearer(first)).status_code == 200
    assert client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(second, 2)).status_code == 403
    assert client.delete(f"{links}/treasurer", headers=_bearer(first)).status_code == 404
    _bad(client.delete(f"{links}/first", headers=_bearer(first)), "name", 409)  # the last link stays
    # a new member's link, then the first link revoked by it (the first secret lost): the profile lives on
    third = client.post(links, json={"name": "secretary"}, headers=_bearer(first)).json()["edit"]
    assert client.delete(f"{links}/first", headers=_bearer(third)).status_code == 200
    assert client.get(links, headers=_bearer(first)).status_code == 403
    assert [link["name"] for link in client.get(links, headers=_bearer(third)).json()["links"]] == ["secretary"]
    assert client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(third, 2)).status_code == 200


def test_the_operator_issues_and_revokes_a_link_and_exports_carry_them(api, monkeypatch, capsys, tmp_path):
    """A committee that lost every link asks the operator: `mosque.py link <id> <name>` prints a new secret (its
    hash kept), `mosque.py links <id>` names them, `mosque.py revoke <id> <name>` revokes; an export holds the named
    links' hashes so an import keeps them working (export → import → the link edits)."""
    import mosque as command

    client, store = api
    monkeypatch.setenv("MOSQUE_DB_URL", "")
    monkeypatch.setenv("MOSQUE_DB_PATH", str(store.path))
    mosque_id = _create(client)["id"]
    capsys.readouterr()
    assert command.main(["link", mosque_id, "chair"]) == 0
    secret = capsys.readouterr().out.strip().split()[-1]
    assert client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(secret, 1)).status_code == 200
    assert command.main(["links", mosque_id]) == 0 and "chair" in capsys.readouterr().out
    assert command.main(["link", "nosuchid00000", "chair"]) == 2
    exported = tmp_path / "export.jsonl"
    assert command.main(["export", str(exported)]) == 0
    other = mosque_store.open_store("", tmp_path / "other.sqlite3")
    try:
        other.import_rows(command.read_export(exported.read_bytes()))
        assert other.save(mosque_id, secret, 2, json.dumps(profile())) == 3
    finally:
        other.close()
    assert command.main(["revoke", mosque_id, "chair"]) == 0
    assert client.put(f"/v1/mosques/{mosque_id}", json=profile(), headers=_auth(secret, 2)).status_code == 403


def test_nginx_sends_every_hosted_route_to_the_app():
    """deploy/nginx.conf's location for /v1/mosques (read from the file, a PCRE that Python's re reads alike) matches
    every route runtime/hosted.py serves, with sample ids, version numbers and link names: a route added to the
    app and not to nginx (the edit links, rotate) would be a 404 behind it."""
    import re

    conf = (Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf").read_text()
    pattern = re.search(r'location ~ "(\^/v1/mosques\(.*?)" \{', conf).group(1)
    samples = {"id": "abcdefghijklm", "n": "12", "name": "treasurer"}
    from runtime import app as app_module

    paths = [route.path.format(**samples) for route in app_module.routes
             if getattr(route, "path", "").startswith(hosted.PATH_PREFIX)]
    assert "/v1/mosques/abcdefghijklm/links/treasurer" in paths and "/v1/mosques/abcdefghijklm/rotate" in paths
    for path in paths:
        assert re.fullmatch(pattern, path), path
    assert not re.fullmatch(pattern, "/v1/mosques/abcdefghijklm/links/no%2fslash")
