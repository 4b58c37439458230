"""A Hijri forecast's short lifetime reaches nginx's static files without asking the app (issues 34 and 35).

nginx sends a published file without asking the app, so the static site outlives the app (issue 34); the
answer's lifetime comes from the publication: deploy/publish.py writes an empty ``<file>.forecast`` beside each
file that states a Hijri forecast (a month no announcement has fixed), and deploy/nginx.conf sends such a file
with an hour's Cache-Control instead of its location's week (a day for crescent pages).  An announcement
re-renders and publishes again (announce.py, build.py with ``PUBLISH_ROOT``), which drops the month's markers.

Here a real nginx with no app behind it (nothing listens on its upstream port), on a build of /v1/hijri with the
Hijri data in a sandbox (conftest.hijri_sandbox).  Reference for which months are forecasts: the announcements
file itself, read here with the csv module (data/announced_month_starts.csv: the Sistani office's rows are the
moonsighting reckoning's announcements, announce.py AUTHORITY): 1447/9 is announced, 1448/10 and 1448/11 are not
until the test announces 1448/10 (Eid al-Fitr 1448 on 2027-03-10, as tests/test_announce_live.py does).
"""
from __future__ import annotations

import csv
import http.client
import time

import pytest

from deploy import local_stack

pytestmark = pytest.mark.skipif(local_stack.nginx_binary() is None,
                                reason="nginx is not installed (apt-get install nginx-light)")

HOUR, DAY, WEEK = "public, max-age=3600", "public, max-age=86400", "public, max-age=604800"
FORECAST = "/v1/hijri?calendar=moonsighting&hm=10&hy=1448"  # Shawwal 1448: announced by the test
FORECAST_PATH_URL = "/v1/hijri/calendar=moonsighting&hm=10&hy=1448.json"
STILL_FORECAST = "/v1/hijri?calendar=moonsighting&hm=11&hy=1448"
ANNOUNCED = "/v1/hijri?calendar=moonsighting&hm=9&hy=1447"
IRAN = "/v1/hijri?calendar=iran&hm=10&hy=1448"  # Iran's official table: never a forecast
MOON_FORECAST, MOON_ANNOUNCED = "moon/1448-10/index.html", "moon/1447-10/ar/index.html"
ANNOUNCE = ["moonsighting", "1448", "10", "2027-03-10", "--source", "https://a.example/eid-1448", "--jobs", "1",
            "--today", "2026-11-22"]


def _sistani_months(path) -> set[tuple[int, int]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return {(int(row["hy"]), int(row["hm"])) for row in csv.DictReader(handle) if row["authority_id"] == "sistani"}


def _head(port: int, url: str, encoding: str = "identity") -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", url, headers={"Accept-Encoding": encoding})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def _lifetime(port: int, url: str, encoding: str = "identity") -> str:
    """The Cache-Control nginx sends with the file itself (Last-Modified: no app answered)."""
    status, headers, _ = _head(port, url, encoding)
    assert status == 200 and "last-modified" in headers, (url, status, headers)
    return headers["cache-control"]


def _crescent_pages(out) -> None:
    """Two crescent pages added to the build by hand (bytes of our own, named by its manifest as build.py names
    them): publish.py copies them, nginx's crescent location sends them."""
    from generator.output import static_paths

    manifest = static_paths.read_manifest(out)
    for relative in (MOON_FORECAST, MOON_ANNOUNCED):
        body = f"<!doctype html><title>{relative}</title>".encode()
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_bytes(body)
        manifest[relative] = (static_paths.content_hash(body), len(body))
    static_paths.write_manifest(out, manifest)


def test_forecast_files_get_an_hour_at_nginx_with_no_app_until_an_announcement_is_published(
        hijri_sandbox, monkeypatch, tmp_path):
    import announce
    import build
    from deploy import publish
    from generator.calendars import hijri
    from generator.output import static_paths

    announced = _sistani_months(hijri.ANNOUNCED_PATH)
    assert (1447, 9) in announced and (1448, 10) not in announced and (1448, 11) not in announced
    out = hijri_sandbox / "static"
    build.main(["--only", "hijri", "--years", "2026-2027", "--out", str(out), "--jobs", "1", "--today", "2026-11-22"])
    _crescent_pages(out)
    port = local_stack.free_port()
    nginx = local_stack.start_nginx(tmp_path / "nginx", out, port, local_stack.free_port())  # no app listens there
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{port}{ANNOUNCED}")
        generation = publish.current_generation(nginx.site_root)
        marker = generation / "v1/hijri/calendar=moonsighting&hm=10&hy=1448.json.forecast"
        assert marker.is_file() and marker.stat().st_size == 0 and marker.stat().st_mode & 0o777 == 0o444
        markers = {str(p.relative_to(generation)) for p in generation.rglob("*.forecast")}
        published = static_paths.read_manifest(generation)
        assert not markers & set(published)  # markers are not in the manifest
        assert all(m.removesuffix(".forecast") in published for m in markers)  # never a marker without its file
        assert not (generation / "v1/hijri/calendar=moonsighting&hm=9&hy=1447.json.forecast").exists()
        assert not (generation / "v1/hijri/calendar=iran&hm=10&hy=1448.json.forecast").exists()

        for encoding in ("identity", "gzip", "br"):  # the .gz/.br siblings nginx sends get the file's lifetime
            assert _lifetime(port, FORECAST, encoding) == HOUR, encoding
        assert _lifetime(port, FORECAST_PATH_URL) == HOUR
        assert _lifetime(port, STILL_FORECAST) == HOUR
        assert _lifetime(port, ANNOUNCED) == WEEK and _lifetime(port, IRAN) == WEEK
        assert _lifetime(port, "/" + MOON_FORECAST.removesuffix("index.html")) == HOUR
        assert _lifetime(port, "/" + MOON_ANNOUNCED.removesuffix("index.html")) == DAY
        for url in (FORECAST_PATH_URL + ".forecast", "/" + MOON_FORECAST + ".forecast",
                    "/v1/hijri?calendar=moonsighting&hm=10&hy=1448.json.forecast"):
            status, _, body = _head(port, url)  # a marker is never sent: 404, or the (absent) app asked: 502
            assert status in (404, 502) and body.startswith(b'{"error":'), (url, status, body[:80])

        # Eid al-Fitr 1448 announced: announce.py re-renders /v1/hijri, and build.py publishes into nginx's root
        monkeypatch.setenv("PUBLISH_ROOT", str(nginx.site_root))
        assert announce.main([*ANNOUNCE, "--out", str(out)]) == 0
        generation = publish.current_generation(nginx.site_root)
        assert not (generation / "v1/hijri/calendar=moonsighting&hm=10&hy=1448.json.forecast").exists()
        assert not (generation / (MOON_FORECAST + ".forecast")).exists()
        assert (generation / "v1/hijri/calendar=moonsighting&hm=11&hy=1448.json.forecast").is_file()
        deadline = time.monotonic() + 30  # nginx's open_file_cache looks again within a second
        while _lifetime(port, FORECAST) != WEEK and time.monotonic() < deadline:
            time.sleep(0.2)
        status, _, body = _head(port, FORECAST)
        assert b'"2027-03-10"' in body  # the announced start, sent by nginx from the new generation
        assert _lifetime(port, FORECAST) == WEEK and _lifetime(port, FORECAST_PATH_URL) == WEEK
        assert _lifetime(port, "/" + MOON_FORECAST.removesuffix("index.html")) == DAY
        assert _lifetime(port, STILL_FORECAST) == HOUR and _lifetime(port, ANNOUNCED) == WEEK
    finally:
        local_stack.stop(nginx)


def test_a_manifest_entry_named_like_a_marker_is_refused(tmp_path):
    """A build whose manifest names ``<file>.forecast`` (no build.py writes one) would give another file's
    address an hour's lifetime: deploy/publish.py refuses it, as it refuses a dot-file."""
    from deploy import publish
    from generator.output import static_paths

    static = tmp_path / "static"
    (static / "v1").mkdir(parents=True)
    entries = {}
    for relative in ("v1/methods.json", "v1/methods.json.forecast"):
        (static / relative).write_bytes(b"{}")
        entries[relative] = (static_paths.content_hash(b"{}"), 2)
    static_paths.write_manifest(static, entries)
    result = publish.publish(static, tmp_path / "site")
    assert result.refused == ["v1/methods.json.forecast"] and result.forecasts == []
    assert not (result.generation / "v1/methods.json.forecast").exists()
    assert (result.generation / "v1/methods.json").read_bytes() == b"{}"


def test_every_marked_location_gives_the_hour_and_it_is_within_the_apps_cap():
    """deploy/nginx.conf: each location that reads a ``.forecast`` marker sets the same lifetime, the one
    generator/site/lifetimes.py names (`FORECAST_FILE_CACHE`), and it is no longer than the app's own cap for a
    forecast (`hijri.FORECAST_MAX_AGE_S`, 6 h: docs/decisions.md "Lifetime of a Hijri forecast")."""
    import re
    from pathlib import Path

    from generator.calendars import hijri
    from generator.site import lifetimes

    conf = (Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    marked = re.findall(r'if \(-f \$document_root\$static_file\.forecast\) \{\s*set \$static_cache_control "([^"]+)";',
                        conf)
    assert marked == [lifetimes.FORECAST_FILE_CACHE] * 3, marked  # /v1/<name>?…, /v1/<name>/<file>, /moon/…
    assert lifetimes.FORECAST_MARKER == ".forecast" and HOUR == lifetimes.FORECAST_FILE_CACHE
    assert 60 <= lifetimes.FORECAST_FILE_MAX_AGE_S <= hijri.FORECAST_MAX_AGE_S == 6 * 3600
