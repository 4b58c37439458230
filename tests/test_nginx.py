"""deploy/nginx.conf in front of the app: a real nginx on loopback (Debian nginx-light).

Skipped, with the reason, only where no nginx binary can be found (`make test` installs it).
"""
from __future__ import annotations

import gzip
import shutil
import tempfile
import urllib.request
from pathlib import Path

import pytest

import build
from deploy import local_stack

pytestmark = pytest.mark.skipif(local_stack.nginx_binary() is None,
                                reason="nginx is not installed (apt-get install nginx-light)")


def _get(url: str, headers: dict | None = None, method: str = "GET"):
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    # nginx workers run as an unprivileged user: the tree they serve must be world-readable
    static = Path(tempfile.mkdtemp(prefix="static_out-"))
    static.chmod(0o755)
    build.main(["--years", "2026-2026", "--only", "methods,cities,events,events.ics,pages", "--jobs", "2",
                "--out", str(static)])
    app_port, nginx_port = local_stack.free_port(), local_stack.free_port()
    app = local_stack.start_app(static, app_port)
    nginx = local_stack.start_nginx(tmp_path_factory.mktemp("nginx"), static, nginx_port, app_port)
    try:
        base = f"http://127.0.0.1:{nginx_port}"
        local_stack.wait_until_up(f"http://127.0.0.1:{app_port}/v1/methods")
        local_stack.wait_until_up(f"{base}/v1/methods")
        yield base, static
    finally:
        local_stack.stop(nginx, app)
        shutil.rmtree(static, ignore_errors=True)


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


def test_errors_are_json(front):
    base, _ = front
    status, headers, body = _get(f"{base}/nothing")
    assert status == 404 and body == b'{"error":"no such path"}'
    status, headers, body = _get(f"{base}/v1/methods", method="POST")
    assert status == 405 and headers["Allow"] == "GET, HEAD" and b"error" in body
    status, headers, body = _get(f"{base}/v1/methods?../../etc/passwd")
    assert status == 400 and b"error" in body
