"""build.py and the runtime agree byte for byte; the path scheme never leaves static_out/."""
from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

import build
from generator.prayer import mosques
from conftest import STATIC_BUILD_CITIES, STATIC_BUILD_GROUP
from generator.output import static_paths
from generator.api import BY_NAME, render
from generator.errors import QueryError
from generator.query import Query

TODAY = __import__("datetime").datetime.now(__import__("datetime").timezone.utc).date().isoformat()  # the shared build's
NOW_S = build._now_s(__import__("datetime").date.fromisoformat(TODAY))
LIGHT = "methods,cities,events,hijri,day-status,prayer-times,eclipses,moon-visibility,events.ics,fasting.ics"


pytestmark = pytest.mark.xdist_group(STATIC_BUILD_GROUP)


@pytest.fixture(scope="module")
def built(static_build) -> Path:
    return static_build


def _job_of(out: Path, path: Path) -> tuple[str, dict]:
    """Recover (endpoint, query) from a static file's path: the scheme is reversible."""
    relative = path.relative_to(out)
    relative = relative.relative_to(static_paths.TODAY_DIR) if relative.parts[0] == static_paths.TODAY_DIR else relative
    relative = relative.relative_to("v1")
    if len(relative.parts) == 1:  # v1/methods.json is methods; v1/openapi.json is openapi.json
        return (relative.name if relative.name in BY_NAME else relative.stem), {}
    name = relative.parts[0] + (".ics" if path.suffix == ".ics" else "")
    return name, dict(static_paths.query_items(relative.name[: -len(path.suffix)]))


def _canonical(name: str, query: dict):
    """Parse a file name's query; keys parse fills from the clock (today, the feed window's
    month or first date) are not query parameters: drop each one parse refuses and retry."""
    while True:
        try:
            return BY_NAME[name].parse(Query.of(query), NOW_S)
        except QueryError as error:
            if error.message != "is not a parameter of this endpoint":
                raise
            del query[error.parameter]


def _files(out: Path) -> list[Path]:
    folders = (out / "v1", out / static_paths.TODAY_DIR / "v1")
    return sorted(p for folder in folders for p in folder.rglob("*") if p.is_file() and p.suffix in (".json", ".ics"))


def _sample(files: list[Path], per_endpoint: int, total: int) -> list[Path]:
    """Up to ``per_endpoint`` files of every endpoint, then random others up to ``total``."""
    rng = random.Random(5)
    groups: dict[str, list[Path]] = {}
    for path in files:
        groups.setdefault(path.parent.name if path.parent.name != "v1" else path.name, []).append(path)
    chosen: set[Path] = set()
    for group in groups.values():
        chosen.update(rng.sample(group, min(per_endpoint, len(group))))
    rest = [p for p in files if p not in chosen]
    chosen.update(rng.sample(rest, max(0, total - len(chosen))))
    return sorted(chosen)


def test_render_reproduces_200_sampled_static_files(built):
    files = _files(built)
    planned = build.plan(2026, 2026, build.date.fromisoformat(TODAY), STATIC_BUILD_CITIES)
    expected, hashed = set(), {}
    for name, query in planned:  # every planned answer is there, at its canonical path, and nothing else
        canonical = BY_NAME[name].parse(Query.of(query), NOW_S)
        expected.add(static_paths.relative_path(name, canonical.params, canonical.today_dependent))
        if f"/{static_paths.HASHED_DIR}/" in static_paths.relative_path(name, canonical.params):
            hashed[static_paths.relative_path(name, canonical.params, canonical.today_dependent)] = (name, query)
    assert {p.relative_to(built).as_posix() for p in files} == {e for e in expected if e.endswith((".json", ".ics"))}
    assert len(files) > 900 and {query["city"] for name, query in planned if name == "prayer-times" and "city" in query} \
        == {_job_of(built, p)[1]["city"] for p in files if p.parent.name == "prayer-times"
            and "city" in _job_of(built, p)[1]} == set(STATIC_BUILD_CITIES)
    # each mosque's year too (mosque=<id> stands for its explicit query, whose file it is: data/mosques/)
    assert {query["mosque"] for name, query in planned if name == "prayer-times" and "mosque" in query} == \
        set(mosques.by_id())
    sample = _sample(files, per_endpoint=10, total=220)
    assert len(sample) >= 200 and {p.parent.name for p in sample} >= {"prayer-times", "moon-visibility", "night"}
    for path in sample:
        # a hashed name (a value needing one, e.g. a mosque feed's title) is not reversible: its planned query
        name, query = hashed.get(path.relative_to(built).as_posix()) or _job_of(built, path)
        canonical = _canonical(name, query)
        assert static_paths.relative_path(name, canonical.params, canonical.today_dependent) == \
            path.relative_to(built).as_posix()
        assert render(name, canonical.params) == path.read_bytes(), path


def test_a_partial_build_is_not_marked_complete_and_unknown_cities_are_refused(built, capsys):
    assert not (built / static_paths.COMPLETE_MARKER).exists()  # --only/--cities: `make serve` would finish it
    with pytest.raises(SystemExit):
        build.main(["--years", "2026-2026", "--cities", "karbala,atlantis", "--out", str(built)])
    assert "unknown cities: atlantis" in capsys.readouterr().err


def test_compressed_siblings_decompress_to_the_same_bytes(built):
    import gzip

    import brotli

    for path in random.Random(6).sample(_files(built), 20):
        body = path.read_bytes()
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == body
        assert brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == body


def test_a_second_build_is_identical_and_writes_nothing(built, capsys):
    before = {p: p.read_bytes() for p in _files(built)}
    mtimes = {p: p.stat().st_mtime_ns for p in before}
    build.main(["--years", "2026-2026", "--only", LIGHT, "--cities", ",".join(STATIC_BUILD_CITIES), "--jobs", "2",
                "--out", str(built), "--today", TODAY])
    assert "0 written" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in _files(built)} == before
    assert {p: p.stat().st_mtime_ns for p in before} == mtimes


def test_runtime_serves_the_static_file(built, client, monkeypatch):
    from runtime import app as runtime_app

    monkeypatch.setattr(runtime_app, "static_root", built)
    runtime_app.cache.clear()
    path = built / static_paths.relative_path("methods", {})
    original = path.read_bytes()
    manifest = static_paths.read_manifest(built)
    try:
        marker = b'{"methods":[]}'  # a marker only the static file can produce, written as a build writes it
        path.write_bytes(marker)
        static_paths.write_manifest(built, {**manifest, "v1/methods.json": (static_paths.content_hash(marker),
                                                                            len(marker))})
        time.sleep(1.1)  # the app looks at the manifest again after a second
        assert client.get("/v1/methods").content == marker
    finally:
        path.write_bytes(original)
        static_paths.write_manifest(built, manifest)
        runtime_app.cache.clear()


@pytest.mark.parametrize("value", ["..", "../../etc/passwd", "a/b", "x\x00y", "%2e%2e", "&q=1", "ﻙ/..", "\\..\\"])
def test_no_value_can_name_a_path_outside_static_out(value):
    relative = static_paths.relative_path("cities", {"q": value})
    resolved = (static_paths.STATIC_ROOT / relative).resolve()
    assert resolved.is_relative_to(static_paths.STATIC_ROOT.resolve())
    assert ".." not in relative.split("/") and "%" not in relative
    assert relative.count("/") == 2 or relative.startswith("v1/cities/_/")  # plain, or only the app's hash


def test_a_plain_file_server_serves_the_documented_urls(built):
    """Python's http.server (no rewriting, no configuration) over static_out: the path URLs
    and stable feed URLs of deploy/README.md answer the bytes the app answers for the same
    request, with a content type from the extension; no file name needs a %-escape."""
    import subprocess
    import sys
    import urllib.request

    from deploy import local_stack

    names = [p.relative_to(built).as_posix() for p in built.rglob("*") if p.is_file()]
    assert names and not [n for n in names if "%" in n or "?" in n]
    port = local_stack.free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(built)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        local_stack.wait_until_up(f"http://127.0.0.1:{port}/", seconds=20)
        cases = [
            ("/v1/methods.json", "methods", {}, "application/json"),
            ("/v1/cities/all=1.json", "cities", {"all": "1"}, "application/json"),
            ("/v1/prayer-times/city=karbala&method=Tehran&tz=Asia~Baghdad&year=2026.json", "prayer-times",
             {"city": "karbala", "year": "2026"}, "application/json"),
            ("/v1/hijri/calendar=iran&offset=0&year=2026.json", "hijri", {"calendar": "iran", "year": "2026"}, "application/json"),
            ("/today/v1/prayer-times/city=karbala.ics", "prayer-times.ics", {"city": "karbala"}, "text/calendar"),
            ("/today/v1/night/city=london.ics", "night.ics", {"city": "london"}, "text/calendar"),
            ("/today/v1/events/calendar=iran&lang=fa.ics", "events.ics", {"calendar": "iran", "lang": "fa"},
             "text/calendar"),
        ]
        for url, name, query, media_type in cases:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{url}", timeout=10) as response:
                assert response.headers["Content-Type"].startswith(media_type), url
                assert response.read() == render(name, _canonical(name, dict(query)).params), url
    finally:
        server.terminate()
        server.wait(10)
    headers = (built / static_paths.HEADERS_FILE).read_text().splitlines()
    rules = [line for line in headers if line.startswith("/")]
    assert "/v1/*.json" in rules and "/today/v1/*.ics" in rules and {"/robots.txt", "/sitemap.xml"} <= set(rules)
    assert "  Access-Control-Allow-Origin: *" in headers and "  Cache-Control: public, max-age=300" in headers


def test_the_build_writes_robots_txt_and_todays_sitemap(built):
    """Issue 21: robots.txt and sitemap.xml are pages of the plan: the app's bytes, the sitemap (which
    follows today) under _today/<date>/ with its public name a hard link, whole even in a partial build."""
    from generator.site import routes

    robots = built / "robots.txt"
    assert robots.read_bytes() == routes.robots_page(None) and (built / "robots.txt.gz").is_file()
    dated = built / "_today" / TODAY / "sitemap.xml"
    assert dated.read_bytes() == routes.sitemap_page(__import__("datetime").date.fromisoformat(TODAY))
    assert (built / "sitemap.xml").samefile(dated)
    assert dated.read_bytes().count(b"<url>") > 4 * 325 * 4  # every city, not only the build's --cities
