"""The serving layer: rate limit (429 + Retry-After), client address behind proxies, errors, HEAD."""
from __future__ import annotations

import pytest

from runtime import app as runtime_app
from runtime.ratelimit import CostModel, RateLimiter, client_ip, parse_trusted


@pytest.fixture
def limited(monkeypatch):
    monkeypatch.setattr(runtime_app, "limiter", RateLimiter(3))
    # and nothing learned yet: a kind of render learned expensive by an earlier test of the same worker (a city page,
    # 30-80 ms) made a 404 city page expected at 3+ units, a 429 here in one run of two (order of xdist's workers)
    monkeypatch.setattr(runtime_app, "costs", CostModel())
    runtime_app.cache.clear()
    yield
    runtime_app.cache.clear()


def test_over_the_limit_is_a_429_with_retry_after(client, limited):
    for day in range(1, 4):
        assert client.get(f"/v1/prayer-times?lat=1&lng=1&date=2026-01-0{day}").status_code == 200
    over = client.get("/v1/prayer-times?lat=1&lng=1&date=2026-01-04")
    assert over.status_code == 429
    assert 1 <= int(over.headers["retry-after"]) <= 60
    assert over.headers["ratelimit-policy"] == '"renders";q=3;w=60' and over.headers["ratelimit"].startswith('"renders";r=0;')
    assert "error" in over.json() and over.headers["content-type"].startswith("application/json")


def test_cached_answers_do_not_count(client, limited):
    for _ in range(10):
        assert client.get("/v1/prayer-times?lat=2&lng=2&date=2026-01-01").status_code == 200


def test_limit_is_per_client_and_refills_at_its_rate():
    """Token bucket arithmetic: 2 units a minute refill one unit every 30 s."""
    limiter = RateLimiter(2)
    assert limiter.admit("a", now_s=60.0) is None and limiter.admit("a", now_s=61.0) is None
    assert limiter.admit("a", now_s=62.0) == 28  # 1.93 units spent at 62 s: a whole unit is free again at 90 s
    assert limiter.admit("b", now_s=62.0) is None  # another client has its own bucket
    assert limiter.admit("a", now_s=90.5) is None  # refilled
    assert RateLimiter(0).admit("a") is None  # 0 turns it off


def test_cost_is_one_unit_per_started_10_ms_of_cpu():
    from runtime.ratelimit import units_of

    assert [units_of(s) for s in (0.0, 0.0004, 0.010, 0.0101, 0.125)] == [1, 1, 1, 2, 13]
    limiter = RateLimiter(100)
    assert limiter.admit("a", now_s=0.0) is None
    limiter.settle("a", 1, 0.125, 0.0)  # a 90-day feed: 13 units in all
    assert limiter.headers("a", 0.0) == {"RateLimit-Policy": '"renders";q=100;w=60', "RateLimit": '"renders";r=87;t=8'}


def test_limiter_memory_is_bounded():
    limiter = RateLimiter(5, max_clients=100)
    for i in range(1000):
        limiter.admit(f"10.0.{i // 256}.{i % 256}", now_s=60.0)
    assert len(limiter._spent) <= 100


def test_forwarded_for_is_believed_only_from_trusted_proxies():
    trusted = parse_trusted("127.0.0.1, 10.0.0.0/8")
    assert client_ip("203.0.113.9", "198.51.100.1", trusted) == "203.0.113.9"  # untrusted peer: ignore header
    assert client_ip("127.0.0.1", "198.51.100.1", trusted) == "198.51.100.1"
    assert client_ip("127.0.0.1", "198.51.100.1, 10.1.2.3", trusted) == "198.51.100.1"  # skip trusted hops
    assert client_ip("127.0.0.1", "spoofed, 198.51.100.7", trusted) == "198.51.100.7"  # right-most untrusted
    assert client_ip("127.0.0.1", "not-an-ip", trusted) == "127.0.0.1"
    assert client_ip("127.0.0.1", None, trusted) == "127.0.0.1"


def test_json_errors_for_unknown_paths_and_methods(client):
    for path in ("/v1", "/v2/methods", "/v1/../etc/passwd", "/v1/methods/extra", "/v1/nothing.json"):
        response = client.get(path)
        assert response.status_code == 404 and "error" in response.json()
    for method in ("post", "put", "delete", "patch"):
        response = getattr(client, method)("/v1/prayer-times?lat=1&lng=1")
        assert response.status_code == 405 and response.headers["allow"] == "GET, HEAD"


def test_head_is_get_without_a_body(client):
    get = client.get("/v1/qibla?lat=51.5&lng=0")
    head = client.head("/v1/qibla?lat=51.5&lng=0")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["etag"] == get.headers["etag"] and head.headers["content-length"] == get.headers["content-length"]


def test_cors_and_content_type_on_every_answer(client):
    for path in ("/v1/methods", "/v1/qibla?lat=x", "/v1/nowhere"):
        response = client.get(path)
        assert response.headers["access-control-allow-origin"] == "*"
        assert "access-control-allow-credentials" not in response.headers
        assert response.headers["content-type"] == "application/json; charset=utf-8"


def test_response_cache_is_bounded_in_entries_and_bytes():
    from runtime.cache import ResponseCache

    cache = ResponseCache(max_entries=3, max_bytes=100)
    for i in range(5):
        cache.put(i, b"x" * 10, f'"{i}"')
    assert len(cache) == 3 and cache.get(0) is None and cache.get(4) == (b"x" * 10, '"4"')
    cache.put("big", b"y" * 60, '"b"')
    cache.put("bigger", b"z" * 60, '"c"')  # 120 bytes would exceed 100: the older entries go
    assert cache.get("big") is None and cache.get("bigger") is not None and cache._bytes <= 100
    cache.put("huge", b"w" * 101, '"h"')  # larger than the whole budget: not cached at all
    assert cache.get("huge") is None
    cache.clear()
    assert len(cache) == 0 and cache._bytes == 0


def test_the_test_client_answers_from_the_code_not_from_static_out(client, tmp_path):
    """A wrong file planted where `make build` writes (static_out/) is never what the tests' client serves."""
    from generator.output import static_paths

    relative = static_paths.relative_path("qibla", {"lat": 51.51, "lng": -0.13})
    planted = static_paths.STATIC_ROOT / relative
    existed = planted.exists()
    if not existed:
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.write_bytes(b'{"qibla": 0}')
    try:
        body = client.get("/v1/qibla", params={"lat": "51.51", "lng": "-0.13"}).json()
        assert body["qibla"] != 0 and abs(body["qibla"] - 118.99) < 0.05  # adhan's qibla table: London 118.99°
    finally:
        if not existed:
            planted.unlink()


def test_a_quick_render_runs_on_the_loop_only_while_no_other_render_runs(client, monkeypatch):
    """`Endpoint.quick` answers (prayer times, qibla, hijri) skip the render pool's thread hand-over
    while the pool is idle; while a render runs, they queue in the pool like any other, so the loop
    keeps answering cached requests.  Slow endpoints (the feeds) always go to the pool.  Both ways
    give the same bytes, charged to the limiter the same way."""
    pooled: list[str] = []
    run = runtime_app.renders.run

    async def recording_run(key, job, client=None):
        pooled.append(key[0])
        return await run(key, job, client)

    monkeypatch.setattr(runtime_app.renders, "run", recording_run)
    runtime_app.cache.clear()
    url = "/v1/prayer-times?lat=3&lng=3&year=2026"
    inline = client.get(url)
    assert inline.status_code == 200 and pooled == []
    assert client.get("/v1/night.ics?city=karbala&days=7").status_code == 200 and pooled == ["night.ics"]
    runtime_app.cache.clear()
    monkeypatch.setattr(type(runtime_app.renders), "pending", property(lambda self: 1))  # another render running
    in_pool = client.get(url)
    assert pooled == ["night.ics", "prayer-times"]
    assert in_pool.content == inline.content and in_pool.headers["etag"] == inline.headers["etag"]
    runtime_app.cache.clear()


def test_every_path_url_deploy_readme_lists_is_the_query_answer(client):
    """deploy/README.md promises that the app and nginx answer the same path URLs (issue 22: the app
    answered 404 for /v1/methods.json, nginx 200).  Reference: the same answer asked by its query."""
    import re
    from pathlib import Path

    from generator.output import static_paths

    readme = (Path(__file__).resolve().parent.parent / "deploy" / "README.md").read_text()
    listed = sorted(set(re.findall(r"`(/v1/[^`?<]*\.(?:json|ics))`", readme)))
    assert "/v1/methods.json" in listed and len(listed) >= 9
    for path in listed:
        by_path = client.get(path)
        assert by_path.status_code == 200, path
        base, _, file_name = path.removeprefix("/v1/").rpartition("/")
        stem, extension = file_name.rsplit(".", 1)
        if base:
            name, query = static_paths.endpoint_of_file(base, extension, runtime_app.BY_NAME), static_paths.query_items(stem)
        else:
            name, query = static_paths.endpoint_of_file(stem, extension, runtime_app.BY_NAME), []
        by_query = client.get(f"/v1/{name}", params=query)
        assert by_path.content == by_query.content and by_path.headers["etag"] == by_query.headers["etag"], path
    assert client.get("/v1/prayer-times.json?city=karbala&date=2026-03-20").content == client.get(
        "/v1/prayer-times?city=karbala&date=2026-03-20").content  # nginx's /v1/<name>.json?<query> form
    for unknown in ("/v1/nothing.json", "/v1/methods.svg", "/v1/methods."):
        assert client.get(unknown).status_code == 404, unknown


def test_if_none_match(client):
    """RFC 9110 §13.1.2: "*" matches any current representation; a list matches by weak comparison."""
    answer = client.get("/v1/qibla?lat=21.4&lng=39.8")
    etag = answer.headers["etag"]
    for header in ("*", etag, f"W/{etag}", f'"0", {etag}', f' "0" ,W/{etag} '):
        not_modified = client.get("/v1/qibla?lat=21.4&lng=39.8", headers={"If-None-Match": header})
        assert not_modified.status_code == 304 and not_modified.content == b"", header
        assert not_modified.headers["etag"] == etag
    for header in ('"0"', etag[:-2] + '"', "", "W/"):
        assert client.get("/v1/qibla?lat=21.4&lng=39.8", headers={"If-None-Match": header}).status_code == 200, header


def test_every_answer_carries_the_rate_limit_fields_while_the_limit_is_on(client, limited):
    """deploy/README.md: `RateLimit` and `RateLimit-Policy` in every answer of the app's own limit
    (issue 22: cached answers and errors had none).  Field syntax: draft-ietf-httpapi-ratelimit-headers."""
    rendered = client.get("/v1/qibla?lat=2.5&lng=3")
    assert rendered.headers["ratelimit"] == '"renders";r=2;t=20'  # 1 of 3 units spent, refilled in 20 s
    cached = client.get("/v1/qibla?lat=2.5&lng=3")
    not_modified = client.get("/v1/qibla?lat=2.5&lng=3", headers={"If-None-Match": "*"})
    bad = client.get("/v1/qibla?lat=x")
    unknown = client.get("/v1/nowhere")
    page_404 = client.get("/city/atlantis/")
    not_allowed = client.post("/v1/qibla?lat=2.5&lng=3")
    for response in (cached, not_modified, bad, unknown, page_404, not_allowed):
        assert response.headers["ratelimit-policy"] == '"renders";q=3;w=60', response.status_code
        remaining = 1 if response in (page_404, not_allowed) else 2  # looking a page up renders it: one unit
        assert response.headers["ratelimit"].startswith(f'"renders";r={remaining};t='), response.status_code
    assert [r.status_code for r in (cached, not_modified, bad, unknown, page_404, not_allowed)] == [200, 304, 400, 404,
                                                                                                     404, 405]
    preflight = client.options("/v1/qibla", headers={"Access-Control-Request-Method": "GET"})
    assert preflight.status_code == 204 and "ratelimit" not in preflight.headers  # the browser's, unread by the page
