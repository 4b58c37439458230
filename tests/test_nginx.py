"""deploy/nginx.conf in front of the app: a real nginx on loopback (Debian nginx-light), as
deploy/README.md runs it: uvicorn with 2 workers, proxy headers off, its own limit off, and
nginx's limit_req (here 30 requests and 5 feeds a minute, to keep the test short).

Clients with different addresses use different loopback source addresses (127.0.0.x).
Skipped, with the reason, only where no nginx binary can be found (`make test` installs it).
"""
from __future__ import annotations

import gzip
import http.client
import os
import socket
import time
import urllib.request
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest

from conftest import STATIC_BUILD_GROUP
from deploy import local_stack
from runtime import keys

pytestmark = [pytest.mark.skipif(local_stack.nginx_binary() is None,
                                 reason="nginx is not installed (apt-get install nginx-light)"),
              pytest.mark.xdist_group(STATIC_BUILD_GROUP)]


RATE, FEED_RATE = 30, 5
FRONT_INFO: dict = {}


def _from(source: str, url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    """GET from loopback address ``source`` (another client, as nginx sees it)."""
    host, port = url.removeprefix("http://").split("/", 1)[0].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        connection.request("GET", "/" + url.removeprefix("http://").split("/", 1)[1], headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def _get(url: str, headers: dict | None = None, method: str = "GET"):
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.fixture(scope="module")
def front(tmp_path_factory, static_build):
    static = static_build  # shared with tests/test_static.py (conftest.static_build)
    app_port, nginx_port = local_stack.free_port(), local_stack.free_port()
    keys_path = tmp_path_factory.mktemp("keys") / "app_keys.json"  # an app key (issue 35): not counted by nginx
    FRONT_INFO["key"] = keys.issue(keys_path, "nginxapp", 1000)
    app = local_stack.start_app(static, app_port, workers=2, extra_env={"APP_KEYS_PATH": str(keys_path)})
    prefix = tmp_path_factory.mktemp("nginx")
    nginx = local_stack.start_nginx(prefix, static, nginx_port, app_port, rate_per_minute=RATE, feed_rate_per_minute=FEED_RATE)
    try:
        base = f"http://127.0.0.1:{nginx_port}"
        local_stack.wait_until_up(f"http://127.0.0.1:{app_port}/v1/methods", seconds=60)
        local_stack.wait_until_up(f"{base}/v1/methods")
        FRONT_INFO.update(prefix=prefix, app=f"http://127.0.0.1:{app_port}", nginx=nginx)
        yield base, static
    finally:
        local_stack.stop(nginx, app)


def test_static_hit_is_served_by_nginx_from_the_file(front):
    base, static = front
    status, headers, body = _get(f"{base}/v1/methods")
    assert status == 200 and body == (static / "v1/methods.json").read_bytes()
    assert headers["Server"] == "nginx" and headers["Content-Type"] == "application/json; charset=utf-8"
    assert headers["Cache-Control"] == "public, max-age=604800" and headers["Access-Control-Allow-Origin"] == "*"
    assert "Last-Modified" in headers  # only the static file handler sets it; the app never does
    gz_status, gz_headers, gz_body = _get(f"{base}/v1/methods", {"Accept-Encoding": "gzip"})
    assert gz_headers.get("Content-Encoding") == "gzip" and gzip.decompress(gz_body) == body


def test_canonical_query_is_a_static_hit(front):
    base, static = front
    status, headers, body = _get(f"{base}/v1/cities?all=1")
    assert status == 200 and "Last-Modified" in headers
    assert body == (static / "v1/cities/all=1.json").read_bytes()


def test_dynamic_miss_goes_to_the_app(front):
    base, _ = front
    status, headers, body = _get(f"{base}/v1/prayer-times?lat=35.69&lng=51.39&date=2026-03-20")
    assert status == 200 and "Last-Modified" not in headers and b'"fajr":"2026-03-20T01:15:00Z"' in body
    status, headers, body = _get(f"{base}/v1/prayer-times?lat=95&lng=0")
    assert status == 400 and body.startswith(b'{"error":"lat:')


def test_feed_through_nginx(front):
    base, static = front
    status, headers, body = _get(f"{base}/v1/events.ics?calendar=moonsighting&lang=en")
    assert status == 200 and headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert body.startswith(b"BEGIN:VCALENDAR\r\n")


def test_site_pages_are_served_from_static_out_and_the_rest_by_the_app(front):
    base, static = front
    status, headers, body = _get(f"{base}/city/karbala/ar/")
    assert status == 200 and body == (static / "city/karbala/ar/index.html").read_bytes()
    assert headers["Content-Type"] == "text/html; charset=utf-8" and "Last-Modified" in headers
    status, headers, body = _get(f"{base}/")
    assert status == 200 and body == (static / "index.html").read_bytes()
    status, headers, body = _get(f"{base}/city/karbala/en/Jafari/")  # other methods: rendered on request
    assert status == 200 and "Last-Modified" not in headers and body.startswith(b"<!doctype html>")
    status, headers, body = _get(f"{base}/city/atlantis/")
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    for path in ("/fa/", "/city/karbala/ur/imsakiya/"):  # issue 13's pre-rendered pages
        status, headers, body = _get(f"{base}{path}")
        assert status == 200 and body == (static / path.lstrip("/") / "index.html").read_bytes(), path
    for path in ("/city/karbala/en/imsakiya/iran/Jafari/", "/city/karbala/ar/Jafari/2026-08/",
                 "/city/karbala/en/imsakiya/iran/"):  # rendered on request
        status, headers, body = _get(f"{base}{path}")
        assert status == 200 and "Last-Modified" not in headers and body.startswith(b"<!doctype html>"), path
    # a mosque's page (issue 20): today's file; in another language too; its screen address: the app's redirect
    for path in ("/mosque/jaffari-toronto/", "/mosque/jaffari-toronto/ur/"):
        status, headers, body = _get(f"{base}{path}")
        assert status == 200 and body == (static / path.lstrip("/") / "index.html").read_bytes(), path
    # the notice board (issue 36): a mosque's month and its Ramadan timetable, rendered by the app
    for path in ("/mosque/jaffari-toronto/en/2026-03/", "/mosque/jaffari-toronto/ur/imsakiya/",
                 "/mosque/jaffari-toronto/fa/imsakiya/1447/"):
        status, headers, body = _get(f"{base}{path}")
        assert status == 200 and "Last-Modified" not in headers and body.startswith(b"<!doctype html>"), path
    status, headers, body = _get(f"{base}/mosque/jaffari-toronto/en/2026-13/")
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(base).netloc, timeout=10)
    connection.request("GET", "/mosque/jaffari-toronto/screen/")
    response = connection.getresponse()
    assert response.status == 302 and response.getheader("Location") == "/screen/?mosque=jaffari-toronto&lang=en"
    connection.close()
    status, headers, body = _get(f"{base}/mosque/atlantis/")
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    status, headers, body = _get(f"{base}/screen/?city=karbala&lang=ar")  # issue 21: from the app, with its CSP
    assert status == 200 and "frame-ancestors 'self'" in {k.lower(): v for k, v in headers.items()}["content-security-policy"]
    for path in ("/widget.js", "/screen/sw.js"):  # the scripts: files
        status, headers, body = _get(f"{base}{path}")
        assert status == 200 and body == (static / path.lstrip("/")).read_bytes(), path
        assert headers["Content-Type"].startswith(("application/javascript", "text/javascript")), path
        # the screen's worker may also take a mosque's short address (outside /screen/): the file says so, as the app
        assert headers.get("Service-Worker-Allowed") == ("/" if path == "/screen/sw.js" else None), (path, headers)


def test_robots_and_sitemap_are_served_from_the_build_with_their_types(front):
    """Issue 21: nginx answers /robots.txt (a day) and today's /sitemap.xml (5 minutes) from the build's
    files with the same types as the app (text/plain, application/xml; charset=utf-8), compressed on
    request; a sitemap file that does not exist goes to the app (a 404 page)."""
    base, static = front
    status, headers, body = _get(f"{base}/robots.txt")
    assert status == 200 and body == (static / "robots.txt").read_bytes() and b"Sitemap: " in body
    assert headers["Content-Type"] == "text/plain; charset=utf-8" and headers["Cache-Control"] == "public, max-age=86400"
    assert "Last-Modified" in headers  # the file, not the app
    status, headers, body = _get(f"{base}/sitemap.xml")
    assert status == 200 and headers["Content-Type"] == "application/xml; charset=utf-8"
    assert headers["Cache-Control"] == "public, max-age=300" and "Last-Modified" in headers
    assert body == (static / "_today" / datetime.now(timezone.utc).date().isoformat() / "sitemap.xml").read_bytes()
    assert body.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/')
    status, headers, _ = _get(f"{base}/sitemap.xml", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("Content-Encoding") == "gzip" and "Accept-Encoding" in headers["Vary"]
    status, headers, _ = _get(f"{base}/sitemap-1.xml")  # no index below 50,000 pages: the app's 404 page
    assert status == 404 and headers["Content-Type"] == "text/html; charset=utf-8"
    status, _, _ = _get(f"{base}/robots.txt", method="POST")
    assert status == 405


def test_errors_are_json(front):
    base, _ = front
    status, headers, body = _get(f"{base}/nothing")
    assert status == 404 and body == b'{"error":"no such path"}'
    status, headers, body = _get(f"{base}/v1/methods", method="POST")
    assert status == 405 and headers["Allow"] == "GET, HEAD" and b"error" in body
    status, headers, body = _get(f"{base}/v1/methods?../../etc/passwd")
    assert status == 400 and b"error" in body


def test_csv_is_served_from_its_static_file_as_text_csv(front):
    """A pre-rendered CSV (written here as build.py writes it: the canonical path) is a static hit."""
    from generator.output import static_paths
    from generator.api import BY_NAME
    from generator.query import Query

    base, static = front
    endpoint = BY_NAME["prayer-times.csv"]
    canonical = endpoint.parse(Query.of({"city": "karbala", "year": "2026"}), 0.0)
    path = static / static_paths.relative_path(endpoint.name, canonical.params)
    query = static_paths.canonical_query(canonical.params)
    assert path.name == static_paths.file_query(canonical.params) + ".csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.parent.chmod(0o755)
    path.write_bytes(endpoint.render(canonical.params))
    path.chmod(0o644)
    status, headers, body = _get(f"{base}/v1/prayer-times.csv?{query}")
    assert status == 200 and body == path.read_bytes() and "Last-Modified" in headers
    assert headers["Content-Type"] == "text/csv; charset=utf-8"
    status, headers, body = _get(f"{base}/v1/prayer-times.csv?city=karbala&date=2026-03-20")  # not a file: the app
    assert status == 200 and "Last-Modified" not in headers and headers["Content-Type"] == "text/csv; charset=utf-8"


def test_one_limit_per_client_for_the_whole_server(front):
    """2 app workers behind nginx: one client gets RATE uncached answers a minute in all (not per
    worker), rotating X-Forwarded-For changes nothing, and another client is not affected."""
    base, _ = front
    statuses, started = [], time.monotonic()
    for i in range(2 * RATE):
        status, headers, body = _from("127.0.0.5", f"{base}/v1/qibla?lat={20 + i * 0.37:.2f}&lng=3",
                                      {"X-Forwarded-For": f"203.0.113.{i}"})
        statuses.append(status)
        if status == 429:
            assert headers["content-type"] == "application/json; charset=utf-8" and body.startswith(b'{"error":')
            assert int(headers["retry-after"]) >= 1 and "ratelimit-policy" in headers
    refilled = (time.monotonic() - started) * RATE / 60
    assert RATE - 1 <= statuses.count(200) <= RATE + refilled + 1, statuses
    assert _from("127.0.0.6", f"{base}/v1/qibla?lat=1.23&lng=3")[0] == 200


def test_a_keyed_app_is_not_counted_by_nginx_and_a_bad_key_is_refused(front):
    """With X-API-Key nginx's per-address zone does not count (the app charges the key's own budget, here
    1000 a minute per worker): twice nginx's limit from one address all pass; an unknown key is the app's 401."""
    base, _ = front
    statuses = [_from("127.0.0.10", f"{base}/v1/qibla?lat={21 + i * 0.41:.2f}&lng=4", {"X-API-Key": FRONT_INFO["key"]})[0]
                for i in range(2 * RATE)]
    assert statuses == [200] * (2 * RATE), statuses
    status, _, body = _from("127.0.0.10", f"{base}/v1/qibla?lat=1&lng=5", {"X-API-Key": "stk_wrong"})
    assert status == 401 and body.startswith(b'{"error":"X-API-Key:')


def test_feeds_weigh_more(front):
    """A feed also counts against the feed zone (FEED_RATE a minute)."""
    base, _ = front
    statuses = [_from("127.0.0.7", f"{base}/v1/night.ics?city=karbala&days={30 + i}")[0] for i in range(FEED_RATE + 4)]
    assert statuses.count(200) <= FEED_RATE + 1 and statuses.count(429) >= 3, statuses


def test_pages_over_the_limit_get_the_html_429_in_their_language(front):
    base, _ = front
    from generator.prayer.methods import METHODS

    for city in ("kufa", "samarra", "basra"):
        for method in METHODS:
            status, headers, body = _from("127.0.0.8", f"{base}/city/{city}/ur/{method}/")
            if status == 429:
                assert headers["content-type"] == "text/html; charset=utf-8"
                assert b'<html lang="ur" dir="rtl">' in body and int(headers["retry-after"]) >= 1
                return
    pytest.fail("never limited")


def test_compression_varies_and_covers_proxied_answers(front):
    base, _ = front
    _, headers, _ = _get(f"{base}/v1/cities?all=1", {"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
    status, headers, body = _from("127.0.0.9", f"{base}/v1/prayer-times?lat=35.69&lng=51.39&year=2026",
                                  {"Accept-Encoding": "gzip"})  # 111 kB from the app
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(body).startswith(b'{"meta":{"lat":35.69')


def test_nginx_own_errors_are_json(front):
    base, _ = front
    status, headers, body = _get(f"{base}/v1/methods?q={'a' * 9000}")
    assert status == 414 and body.startswith(b'{"error":"request:') and headers["Content-Type"].startswith("application/json")
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(b"GET /v1/methods HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        answer = raw.recv(4096)
    assert answer.startswith(b"HTTP/1.1 400") and b'{"error":"request:' in answer
    status, headers, body = _get(f"{base}/_today/x/index.html")
    assert status == 404 and body == b'{"error":"no such path"}' and headers["Content-Type"].startswith("application/json")


def test_5xx_from_a_missing_app_is_json(front, tmp_path):
    _, static = front
    port = local_stack.free_port()
    nginx = local_stack.start_nginx(tmp_path / "dead", static, port, local_stack.free_port(),  # nothing listens there
                                    published_in=FRONT_INFO["nginx"].site_root)
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{port}/v1/methods")
        status, headers, body = _get(f"http://127.0.0.1:{port}/v1/qibla?lat=1&lng=1")
        assert status == 502 and body.startswith(b'{"error":') and headers["Retry-After"] == "5"  # its own status, a JSON body
    finally:
        local_stack.stop(nginx)


def test_same_lifetimes_and_slashes_as_the_app(front):
    base, _ = front
    app = FRONT_INFO["app"]
    for path in ("/v1/methods", "/city/karbala/", "/v1/cities?all=1"):
        at_nginx, at_app = _get(base + path)[1], _get(app + path)[1]
        assert at_nginx["Cache-Control"] == at_app["cache-control"], path
    # A pre-rendered Hijri forecast (moonsighting 1448/5 and 1448/6: no announcement recorded in
    # data/announced_month_starts.csv) goes out for an hour, the publication's marker (deploy/publish.py), without
    # asking the app, whose own lifetime for it is hours, at most 6 (issue 35; docs/decisions.md "A forecast's
    # lifetime on static files"); the announced neighbour (1447/9) keeps the app's week.
    for path, forecast in (("/v1/hijri?calendar=moonsighting&hm=6&hy=1448", True), ("/moon/1448-5/", True),
                           ("/v1/hijri?calendar=moonsighting&hm=9&hy=1447", False)):
        at_nginx, at_app = _get(base + path)[1], _get(app + path)[1]
        assert "Last-Modified" in at_nginx, path  # nginx sent the file itself
        app_s = int(at_app["cache-control"].split("max-age=")[1])
        if forecast:
            assert at_nginx["Cache-Control"] == "public, max-age=3600" and 60 <= app_s <= 6 * 3600, path
        else:
            assert at_nginx["Cache-Control"] == at_app["cache-control"] == "public, max-age=604800", path
    for path in ("/v1/methods/", "/city/karbala", "/moon/1448-5/ar", "/mosque/jaffari-toronto",
                 "/mosque/jaffari-toronto/screen"):
        at_nginx = _get(base + path, {"Host": "evil.example"})
        at_app = _get(app + path, {"Host": "evil.example"})
        assert at_nginx[0] == at_app[0], path
        assert at_nginx[1].get("Location") == at_app[1].get("location"), path
        assert not (at_nginx[1].get("Location") or "/").startswith("http"), path


def test_today_files_are_private_and_feeds_have_a_stable_url(front):
    base, static = front
    # what nginx and the app answer for an internal name is the same: 400 (today is not a parameter)
    status, _, _ = _get(f"{base}/v1/events?calendar=iran&hy=1448&today=2026-11-21")
    assert status == 400
    stable = f"{base}/today/v1/events/calendar=moonsighting&lang=en.ics"
    status, headers, body = _get(stable)
    assert status == 200 and "Last-Modified" not in headers  # the app answers (it checks the date)
    assert body == _get(f"{base}/v1/events.ics?calendar=moonsighting&lang=en")[2]
    assert (static / "today/v1/events/calendar=moonsighting&lang=en.ics").is_file()


def test_a_page_whose_day_has_passed_is_not_served_as_today(front):
    base, static = front
    today = datetime.now(timezone.utc).date().isoformat()
    status, headers, _ = _get(f"{base}/city/najaf/fa/")
    assert status == 200 and "Last-Modified" in headers  # today's pre-rendered file
    # the published tree a day later, before the next build: yesterday's folder only
    published = FRONT_INFO["nginx"].site_root / "current" / "_today"
    yesterday_root = published / (datetime.now(timezone.utc).date() - timedelta(days=1)).isoformat()
    os.rename(published / today, yesterday_root)
    try:
        status, headers, body = _get(f"{base}/city/najaf/ar/")
        assert status == 200 and "Last-Modified" not in headers and body.startswith(b"<!doctype html>")
    finally:
        os.rename(yesterday_root, published / today)


def test_access_log_is_off_by_default(front):
    assert not list(FRONT_INFO["prefix"].glob("*access*"))


def test_dot_files_are_never_served(front):
    """Files whose name begins with a dot under static_out/ (build.py's temporary files, its
    manifest, anything planted there) are not served by nginx, by path or through a query (issue 22)."""
    base, static = front
    planted = [static / "v1" / "methods" / ".secret.json", static / "v1" / "qibla" / ".secret.json",
               static / "v1" / ".secret.json", static / ".secret.json"]
    for path in planted:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b'{"planted":1}')
        path.chmod(0o644)
    try:
        for address in ("/v1/methods/.secret.json", "/v1/qibla?.secret", "/v1/.secret.json", "/.secret.json",
                        "/.manifest.json", "/v1/qibla/.secret.json"):
            status, _, body = _get(base + address)
            assert status in (400, 404) and b"planted" not in body, (address, status, body)
    finally:
        for path in planted:
            path.unlink()


def _damage(path, damage: str, good: bytes) -> None:
    """Damage a pre-rendered file (or a sibling) in place (same inode), or plant one no build wrote."""
    import brotli

    other = b'{"hijri":"another month"}' + b" " * 400
    if damage == "truncated":
        path.write_bytes(good[: len(good) // 2])
    elif damage == "garbled":
        path.write_bytes(good[:100] + bytes(b ^ 0x20 for b in good[100:120]) + good[120:])
    elif damage == "emptied":
        path.write_bytes(b"")
    elif damage == "old .gz":
        path.with_name(path.name + ".gz").write_bytes(gzip.compress(other))
    elif damage == "old .br":
        path.with_name(path.name + ".br").write_bytes(brotli.compress(other))
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b'{"planted":1}')
        path.chmod(0o644)


def _decoded(headers: dict, body: bytes) -> bytes:
    import brotli

    encoding = headers.get("content-encoding")
    return gzip.decompress(body) if encoding == "gzip" else brotli.decompress(body) if encoding == "br" else body


DAMAGES = ("truncated", "garbled", "emptied", "old .gz", "old .br", "planted")


def test_nginx_sends_no_bytes_the_manifest_does_not_name(front):
    """Issue 29: nginx sent a truncated or garbled pre-rendered file with 200 to clients asking for no
    compression (397 bytes of a 795-byte answer; an empty file) and the old .gz/.br to the others, until
    the next build.  Issue 34: without asking the app per file.  nginx's root is the tree deploy/publish.py
    publishes: a file damaged in static_out/ after publishing never reaches it (nginx keeps sending the
    manifest's bytes, from its copy), and a publication of the damaged tree leaves the file (or the bad
    sibling) out, so the app renders the answer; an incremental publication keeps the copy it checked
    before (the manifest names the same bytes).  Reference: static_out/.manifest.json's entry and the
    file's bytes read before the damage; every encoding decoded here.  Each damage on a file of its own, all
    at once, so that each publication (every file of the tree read and checked) is made once, not per damage."""
    from generator.output import static_paths

    base, static = front
    nginx = FRONT_INFO["nginx"]
    manifest = static_paths.read_manifest(static)
    files = {}  # damage -> (relative, url, good bytes)
    originals = {}
    for damage, month in zip(DAMAGES, ((1447, 9), (1447, 10), (1447, 11), (1447, 12), (1448, 1), None)):
        if month is None:  # planted: a file in a name the scheme serves, which no build wrote
            relative, url = "v1/qibla/lat=1.5&lng=2.5.json", "/v1/qibla?lat=1.5&lng=2.5"
        else:
            hy, hm = month
            relative = f"v1/hijri/calendar=moonsighting&hm={hm}&hy={hy}.json"
            url = f"/v1/hijri?calendar=moonsighting&hm={hm}&hy={hy}"
        path = static / relative
        mine = {q: q.read_bytes() for q in (path, path.with_name(path.name + ".gz"), path.with_name(path.name + ".br"))
                if q.is_file()}
        good = mine.get(path, b"")
        if damage != "planted":
            assert len(mine) == 3 and (static_paths.content_hash(good), len(good)) == tuple(manifest[relative])
        files[damage] = (relative, url, good)
        originals.update(mine)
    try:
        for damage, (relative, _, good) in files.items():
            _damage(static / relative, damage, good)
        for stage in ("after publishing", "published again", "published afresh"):
            if stage == "published again":
                published = local_stack.republish(nginx)
                assert published.refused == [] and published.refused_siblings == []
                for damage, (relative, _, good) in files.items():
                    if damage != "planted":
                        assert (published.generation / relative).read_bytes() == good  # the copy checked before
            if stage == "published afresh":
                published = local_stack.republish(nginx, fresh=True)
                siblings = sorted(files[d][0] + d[-3:] for d in ("old .gz", "old .br"))
                whole = sorted(files[d][0] for d in ("truncated", "garbled", "emptied"))
                assert sorted(published.refused_siblings) == siblings and sorted(published.refused) == whole
                for damage, (relative, _, good) in files.items():
                    copy = published.generation / relative
                    if damage in ("old .gz", "old .br"):
                        assert copy.read_bytes() == good and not copy.with_name(copy.name + damage[-3:]).exists()
                    else:
                        assert not copy.exists(), damage
            for damage, (relative, url, good) in files.items():
                for encoding in ("identity", "gzip", "br"):
                    status, headers, body = _from("127.0.0.12", base + url, {"Accept-Encoding": encoding})
                    assert status == 200, (damage, stage, encoding, status)
                    if damage == "planted":
                        assert b"planted" not in body
                        assert _decoded(headers, body).startswith(b'{"lat":1.5,"lng":2.5,"qibla":')
                    else:
                        assert _decoded(headers, body) == good, (damage, stage, encoding, body[:80])
    finally:
        (static / files["planted"][0]).unlink(missing_ok=True)
        for q, data in originals.items():
            q.write_bytes(data)
        local_stack.republish(nginx)
    # published again: a static hit, once nginx's file cache has looked again (open_file_cache_valid 1s:
    # a miss it remembered from the damaged publication may stand for up to a second)
    for damage, (relative, url, good) in files.items():
        if damage == "planted":
            continue
        for _ in range(30):
            status, headers, body = _get(base + url)
            if "Last-Modified" in headers:
                break
            time.sleep(0.2)
        assert status == 200 and "Last-Modified" in headers and body == good, damage


def _public_url(relative: str, today: str) -> str | None:
    """The address nginx serves a pre-rendered file at (deploy/nginx.conf's locations), None for files
    only the app reads (answers that follow today, the internal 429 pages).  Written here from the
    path scheme's documentation (generator/output/static_paths.py, docs/site.md), not from its code."""
    name = relative.rsplit("/", 1)[-1]
    if relative.startswith(f"_today/{today}/") and relative.endswith(("index.html", ".xml")):
        return "/" + relative.removeprefix(f"_today/{today}/").removesuffix("index.html")
    if relative.startswith("moon/") and name == "index.html":
        return "/" + relative.removesuffix("index.html")
    if relative in ("robots.txt", "widget.js", "screen/sw.js"):
        return "/" + relative
    parts = relative.split("/")
    if parts[0] == "v1" and parts[1].removesuffix(".json") == "mosques":
        return None  # /v1/mosques and every address under it are the app's (the hosted profiles)
    if parts[0] == "v1" and len(parts) == 2:
        return "/v1/" + name.removesuffix(".json")
    if parts[0] == "v1" and len(parts) == 3 and parts[2] != "_" and name.endswith((".json", ".ics", ".svg")):
        return "/" + relative
    if parts[0] == "v1" and len(parts) == 3 and name.endswith(".csv"):
        return f"/v1/{parts[1]}.csv?" + name.removesuffix(".csv").replace("~", "%2F")
    return None


def test_every_published_file_is_served_with_every_app_process_down(front, tmp_path):
    """Issue 34: with the apps down (a restart, a start refused for want of the database), nginx answered
    500/502 for every static file not asked for in the last moments (its per-file check asked the app).
    Now nginx in front of no app at all serves every file of the build's manifest it has an address
    for, 200 with the manifest's bytes in every encoding it stores (identity, .gz, .br), and the
    file's own headers.  Reference: static_out/.manifest.json (hash and size of each file's bytes);
    every body decoded here and hashed with XXH3-128 directly (the `xxhash` library)."""
    import xxhash

    from generator.output import static_paths

    _, static = front
    today = datetime.now(timezone.utc).date().isoformat()
    port = local_stack.free_port()
    # the front's own publication (as the build last published it), served by an nginx in front of no app
    nginx = local_stack.start_nginx(tmp_path / "no-app", static, port, local_stack.free_port(),  # nothing listens there
                                    published_in=FRONT_INFO["nginx"].site_root)
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{port}/v1/methods")
        urls = {relative: _public_url(relative, today) for relative in static_paths.read_manifest(static)}
        served = {relative: url for relative, url in urls.items() if url is not None}
        kinds = {relative.rsplit(".", 1)[-1] for relative in served}
        assert {"json", "html", "csv", "js", "txt", "xml"} <= kinds and len(served) > 1000, (kinds, len(served))
        entries = static_paths.read_manifest(static)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        checked = Counter()
        try:
            for relative, url in sorted(served.items()):
                digest, size = entries[relative]
                for encoding in ("identity", "gzip", "br"):
                    connection.request("GET", url, headers={"Accept-Encoding": encoding})
                    response = connection.getresponse()
                    body = _decoded({k.lower(): v for k, v in response.getheaders()}, response.read())
                    assert response.status == 200, (url, encoding, response.status)
                    assert (xxhash.xxh3_128_hexdigest(body), len(body)) == (digest, size), (url, encoding)
                    checked[response.getheader("Content-Encoding") or "identity"] += 1
        finally:
            connection.close()
        brotli_module = (FRONT_INFO["prefix"] / "brotli.conf").read_text().strip() != ""
        assert checked["identity"] >= len(served) and checked["gzip"] > 500, checked
        assert checked["br"] > 500 or not brotli_module, checked
    finally:
        local_stack.stop(nginx)
