"""The HTTP application: validate, answer from cache, a pre-rendered file, or `render()`.

Routes are data (a list), built from the endpoint registry.  A request is validated
into canonical parameters; the in-memory LRU answers repeats; otherwise the canonical
static file (build.py's output, DESIGN.md's path scheme) is served if it exists, and
only then is the response rendered, which counts against the client's rate limit.
Every error is JSON: 400 bad input (naming the parameter), 404 unknown path, 405 other
methods, 429 over the limit (with Retry-After), and never a traceback.

Environment: ``RATE_LIMIT_PER_MINUTE`` (default 100, 0 = off), ``TRUSTED_PROXIES``
(comma-separated addresses/networks whose X-Forwarded-For is believed; default none),
``STATIC_ROOT`` (default ./static_out).
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import time
from datetime import datetime, timezone
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from generator import site, static_paths
from generator.api import BY_NAME, ENDPOINTS
from generator.api.endpoint import Canonical, Endpoint, dumps
from generator.errors import QueryError
from generator.query import Query
from runtime.cache import ResponseCache
from runtime.ratelimit import RateLimiter, client_ip, parse_trusted

API_PREFIX = "/v1"
CACHE_STABLE = "public, max-age=604800"  # a given date's answer does not change
CACHE_TODAY = "public, max-age=300"  # answers that follow "today"
ALLOWED = "GET, HEAD"
CLOCK_STEP_S = 900  # a city's date turns on a quarter hour of UTC (every zone offset is whole quarters)
CACHE_PAGE = "public, max-age=86400"  # pages that do not follow "today" (a month's crescent maps)
_PAGE_PART = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)  # ids, languages, methods, numbers: never a path

log = logging.getLogger("runtime")
cache = ResponseCache()
limiter = RateLimiter(int(os.environ.get("RATE_LIMIT_PER_MINUTE", "100")))
trusted_proxies = parse_trusted(os.environ.get("TRUSTED_PROXIES", ""))
static_root = Path(os.environ.get("STATIC_ROOT", static_paths.STATIC_ROOT)).resolve()


def error_response(status: int, message: str, headers: dict | None = None) -> Response:
    return Response(
        dumps({"error": message}),
        status_code=status,
        media_type="application/json; charset=utf-8",
        headers={"Access-Control-Allow-Origin": "*", "Cache-Control": "no-store", **(headers or {})},
    )


def etag_of(body: bytes) -> str:
    # SHA-256 (hardware-accelerated here: ~2 GB/s), first 128 bits; a strong validator.
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def read_static(relative_path: str) -> bytes | None:
    """Return a pre-rendered file under static_root (build.py's output), if there is one.

    The path schemes never produce ``..`` or an absolute path (static_paths percent-encodes
    every value); the check below keeps that true without a filesystem round trip.
    """
    if relative_path.startswith("/") or ".." in relative_path.split("/"):
        return None
    try:
        with open(os.path.join(static_root, relative_path), "rb") as file:
            return file.read()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None


def _over_limit(request: Request) -> Response | None:
    """Count a render for the client; return the 429 answer when it is over the limit."""
    client = client_ip(request.client.host if request.client else None,
                       request.headers.get("x-forwarded-for"), trusted_proxies)
    wait_s = limiter.retry_after_s(client)
    if wait_s is None:
        return None
    return error_response(429, f"more than {limiter.per_minute} uncached requests a minute; retry in {wait_s} s",
                          {"Retry-After": str(wait_s)})


def answer(request: Request, key: tuple, relative_path: str, render_body, media_type: str,
           cache_control: str) -> Response:
    """Answer from the in-memory cache, else the pre-rendered file, else ``render_body()`` (rate-limited)."""
    hit = cache.get(key)
    if hit is None:
        body = read_static(relative_path)
        if body is None:
            refused = _over_limit(request)
            if refused is not None:
                return refused
            body = render_body()
        hit = (body, etag_of(body))
        cache.put(key, *hit)
    body, etag = hit
    headers = {"ETag": etag, "Cache-Control": cache_control, "Access-Control-Allow-Origin": "*"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def handler(endpoint: Endpoint):
    media_type = f"{endpoint.media_type}; charset=utf-8"

    async def respond(request: Request) -> Response:
        try:
            canonical: Canonical = endpoint.parse(Query(request.query_params.multi_items()), time.time())
        except QueryError as error:
            return error_response(400, str(error))
        return answer(request, (endpoint.name, tuple(canonical.params.items())),
                      static_paths.relative_path(endpoint.name, canonical.params),
                      lambda: endpoint.render(canonical.params), media_type,
                      CACHE_TODAY if canonical.today_dependent else CACHE_STABLE)

    return respond


def page_not_found(request: Request) -> Response:
    return Response(site.not_found_page(request.url.path), status_code=404, media_type="text/html; charset=utf-8",
                    headers={"Access-Control-Allow-Origin": "*", "Cache-Control": "no-store"})


def page_handler(page: site.Page):
    """Serve a site page: the in-memory cache, then the pre-rendered file, then `page.render`."""
    media_type = f"{page.media_type}; charset=utf-8"

    async def respond(request: Request) -> Response:
        params = dict(request.path_params)
        if not all(_PAGE_PART.fullmatch(value) for value in params.values()):
            return page_not_found(request)
        now_s = time.time()
        today = datetime.fromtimestamp(now_s, timezone.utc).date()
        clock = {"now_s": now_s} if page.clock_dependent else {}
        key = ("page", page.route, tuple(sorted(params.items())), today if page.today_dependent else None,
               int(now_s // CLOCK_STEP_S) if page.clock_dependent else None)
        try:
            return answer(request, key, site.file_path(page.route, params),
                          lambda: page.render(today=today, **params, **clock), media_type,
                          CACHE_TODAY if page.today_dependent else CACHE_PAGE)
        except site.PageNotFound:
            return page_not_found(request)

    return respond


async def http_error(request: Request, exc: HTTPException) -> Response:
    if exc.status_code == 405:
        return error_response(405, f"method {request.method} not allowed; use GET", {"Allow": ALLOWED})
    if exc.status_code == 404:
        return error_response(404, f"no such path: {request.url.path[:200]}")
    return error_response(exc.status_code, str(exc.detail)[:200])


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error for %s", request.url.path)
    return error_response(500, "internal error")


def warm_up() -> None:
    """Load every table and catalogue before the first request (and fail loudly if one is broken)."""
    from generator import cities, events, hijri, sun_table, ummalqura

    sun_table.load()
    for calendar in hijri.CALENDARS:
        hijri.to_hijri(0, calendar)
    cities.by_id()
    events.catalogue()
    ummalqura.is_ramadan(0)
    prayer_times = BY_NAME["prayer-times"]
    prayer_times.render(prayer_times.parse(Query.of({"lat": "0", "lng": "0", "date": "2000-01-01", "tz": "UTC"}),
                                           0.0).params)


@contextlib.asynccontextmanager
async def lifespan(app):
    warm_up()
    yield


routes = [  # the API first: most requests are API requests, and routes are matched in order
    Route(f"{API_PREFIX}/{endpoint.name}", handler(endpoint), methods=["GET", "HEAD"], name=endpoint.name)
    for endpoint in ENDPOINTS
] + [Route(page.route, page_handler(page), methods=["GET", "HEAD"]) for page in site.pages()]
app = Starlette(routes=routes, lifespan=lifespan,
                exception_handlers={HTTPException: http_error, Exception: server_error})
