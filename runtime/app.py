"""The HTTP application: validate, answer from cache, a pre-rendered file, or `render()`.

Routes are data (a list), built from the endpoint registry.  A request is validated
into canonical parameters; the in-memory LRU answers repeats; otherwise the canonical
static file (build.py's output, generator/output/static_paths.py) is read in a thread if it
exists, and only then is the response rendered, in the bounded render pool
(runtime/render_pool.py: one client at most half of it), which counts against the client's rate
limit by its CPU time (the expected cost before it runs, settled to the real cost after).
A file is served only when its bytes match the build's manifest (runtime/manifest.py),
else the answer is rendered; a changed manifest, Hijri data file (an announcement) or printed
timetable (timetable.py) is followed within a second (`follow_files`).  The event loop itself never renders and never reads a file
(it only asks whether the canonical file exists), so cached answers keep flowing while renders queue.  Every API error is JSON: 400 bad input (naming the
parameter), 404 unknown path, 405 other methods, 429 over the limit and 503 when the
render pool is full or a render overran its budget (both with Retry-After); the site's
pages get the same statuses as HTML pages in the page's language.  CORS: every answer
allows any origin to read and exposes ETag, Retry-After and the rate-limit fields; OPTIONS is a
204 preflight; writes (/v1/mosques) only from this service's own origins (`Cors`).  No redirect is built from the Host header (a page address without its
trailing slash gets a relative 308).

Environment: ``RATE_LIMIT_PER_MINUTE`` (default 100 cost units, 0 = off), ``TRUSTED_PROXIES``
(comma-separated addresses/networks whose X-Forwarded-For is believed; default none; run
uvicorn with ``--no-proxy-headers`` so it does not rewrite the client address itself),
``IPV6_CLIENT_PREFIX`` (the
prefix an IPv6 client's limits count by, default 64: a subscriber's network), ``STATIC_ROOT`` (default ./static_out), ``RENDER_THREADS`` (default 2), ``RENDER_QUEUE``
(renders admitted at once, default 64), ``RENDER_BUDGET_S`` (default 10).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from generator import all_tables, site
from generator.calendars import hijri
from generator.output import static_paths
from generator.prayer import timetables
from generator.api import BY_NAME, ENDPOINTS
from generator.api.endpoint import Canonical, Endpoint, dumps
from generator.errors import QueryError
from generator.query import Query
from generator.site import responses, urls
from generator.site.lifetimes import dated_cache_control, page_cache_control
from generator.output.static_paths import CACHE_PAGE, CACHE_TODAY, EXPOSED_HEADERS
from runtime import compat_door, health, hosted, keys, observe
from runtime.compression import Compression
from runtime.cache import ResponseCache
from runtime.file_watch import FileWatch
from runtime.manifest import Manifest
from runtime.ratelimit import (IPV6_CLIENT_PREFIX_BITS, CostModel, RateLimiter, client_ip, client_key,
                               ipv6_prefix_bits, parse_trusted)
from runtime.render_pool import Busy, RenderPool

API_PREFIX = "/v1"
ALLOWED = "GET, HEAD"
PREFLIGHT_METHODS = "GET, HEAD, POST, PUT, DELETE"  # under /v1/mosques: the hosted profiles' (runtime/hosted.py)
CLOCK_STEP_S = 900  # a city's date turns on a quarter hour of UTC (every zone offset is whole quarters)
PREFLIGHT_MAX_AGE_S = 86400  # browsers may reuse a preflight answer for a day
_PAGE_PART = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)  # ids, languages, methods, numbers: never a path
# A page address without its trailing slash (the page routes of generator/site/routes.py).
_PAGE_WITHOUT_SLASH = re.compile(r"/(ar|fa|ur|screen|widget)|/(city|moon|mosque)/[A-Za-z0-9_-]{1,64}(/[a-z]{2}(/[A-Za-z0-9_-]{1,64}){0,3})?"
                                 r"|/mosque/[A-Za-z0-9_-]{1,64}/screen",
                                 re.ASCII)
_HEADER_LIST = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*", re.ASCII)

# Render threads hold the GIL while they compute; the event loop's thread gets it back after at
# most this long (Python's default is 5 ms), so a cached answer waits ~1 ms per hand-over.
sys.setswitchinterval(0.001)

log = logging.getLogger("runtime")
cache = ResponseCache()
manifest = Manifest()
hijri_watch = FileWatch()
tables_watch = FileWatch()
data_generation = 0  # bumped when the Hijri data or the printed timetables are reloaded (`follow_files`)
# True from a first start until the generated tables are all there (`lifespan`, `follow_files`):
# meanwhile nothing renders on the event loop, where waiting for a table would stop every answer.
tables_pending = False
app_keys = keys.KeyStore(keys.path_from_env())  # optional app keys, each with its own budget (runtime/keys.py)
limiter = keys.KeyedLimiter(RateLimiter(int(os.environ.get("RATE_LIMIT_PER_MINUTE", "100"))), app_keys,
                            keys.processes_from_env())  # a key's budget shared by the processes behind nginx
costs = CostModel()
trusted_proxies = parse_trusted(os.environ.get("TRUSTED_PROXIES", ""))
ipv6_client_prefix = ipv6_prefix_bits(os.environ.get("IPV6_CLIENT_PREFIX", str(IPV6_CLIENT_PREFIX_BITS)))
static_root = Path(os.environ.get("STATIC_ROOT", static_paths.STATIC_ROOT)).resolve()
renders = RenderPool(threads=int(os.environ.get("RENDER_THREADS", "2")),
                     max_pending=int(os.environ.get("RENDER_QUEUE", "64")),
                     budget_s=float(os.environ.get("RENDER_BUDGET_S", "10")))


def error_response(status: int, message: str, headers: dict | None = None, body: dict | None = None) -> Response:
    """A JSON error: ``{"error": message}``, or ``body`` (a 400's machine-readable form, QueryError.as_json)."""
    return Response(
        dumps(body or {"error": message}),
        status_code=status,
        media_type="application/json; charset=utf-8",
        headers={"Cache-Control": "no-store", **(headers or {})},
    )


def html_error(request: Request, status: int, headers: dict | None = None, lang: str | None = None,
               detail: "str | QueryError | None" = None) -> Response:
    """The site's 400, 404, 429 or 503 page, in ``lang`` or the language the path names."""
    return Response(site.error_page(request.url.path, status, lang, detail), status_code=status,
                    media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-store", **(headers or {})})


def etag_of(body: bytes) -> str:
    """A strong validator: the body's content hash (static_paths.content_hash, XXH3-128), in quotes."""
    return '"' + static_paths.content_hash(body) + '"'


def static_file(relative_path: str) -> str | None:
    """Return the full path of a pre-rendered file under static_root (build.py's output), if there is one.

    One ``stat`` of a local path, on the event loop: a miss (every request nginx passes on, and
    every dynamic answer) then goes straight to the render pool without a thread hop.  The path
    schemes never produce ``..`` or an absolute path (static_paths); the check below keeps that
    true without a filesystem round trip."""
    if relative_path.startswith("/") or ".." in relative_path.split("/"):
        return None
    path = os.path.join(static_root, relative_path)
    return path if os.path.isfile(path) else None


def read_static(path: str, relative_path: str) -> tuple[bytes, str] | None:
    """Return a pre-rendered file's bytes and ETag, or None if it went away since `static_file` or
    its bytes are not the ones the build's manifest names (runtime/manifest.py).  Runs in a
    worker thread: a read and a hash never hold up the event loop."""
    try:
        with open(path, "rb") as file:
            body = file.read()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    digest = static_paths.content_hash(body)
    if not manifest.vouches(relative_path, digest, len(body)):
        log.warning("not serving %s: its %d bytes are not the ones the build's manifest names", relative_path, len(body))
        return None
    return body, f'"{digest}"'


def _client(request: Request) -> str:
    """Whom a request counts against: a keyed app's key, else its address, an IPv6 client's /64 (runtime/ratelimit.py
    `client_key`)."""
    if keys.SCOPE_KEY in request.scope:  # a keyed app: its key's own bucket
        return request.scope[keys.SCOPE_KEY]
    return client_key(client_ip(request.client.host if request.client else None,
                                request.headers.get("x-forwarded-for"), trusted_proxies), ipv6_client_prefix)


def _hijri_files() -> tuple[Path, ...]:
    """The files the Hijri reckonings are read from (announce.py writes the announcements and the table)."""
    return *hijri.data_paths(), hijri.TABLE_PATH


def follow_files(root: Path) -> None:
    """Follow what changed on disk (in a worker thread, at most once a second; `answer` asks).
    The printed timetables (timetable.py) the same way as the Hijri data.

    The Hijri data (an announcement, issue 22: a running app kept the old month table, so
    day-status and hijri answered different dates in one process): reload the table in this
    process (render threads share it), forget every answer made with the old one, and keep
    renders begun before from filling the cache (`data_generation`).  The build's manifest:
    forget answers read from files (runtime/manifest.py).  On a first start, whether the generated
    tables are all built now (`tables_pending`)."""
    global data_generation, tables_pending
    if tables_pending and all_tables.present():
        tables_pending = False
    if hijri_watch.due() and hijri_watch.changed(_hijri_files()):
        hijri.reload()
        for calendar in hijri.CALENDARS:
            hijri.to_hijri(0, calendar)  # rebuilt here when only the data changed (~40 ms)
        hijri_watch.changed(_hijri_files())  # a rebuilt table is the new baseline
        responses._body.cache_clear()  # the pages' in-process API answers
        data_generation += 1
        cache.clear()
        log.warning("Hijri data changed on disk: reloaded")
    if tables_watch.due() and tables_watch.changed(timetables.files()):
        # Issue 29: after timetable.py, a running app kept the old table in its API answers while its
        # pages (files timetable.py re-rendered) showed the new one.
        try:
            timetables.reload()
        except (timetables.TableError, OSError) as error:  # a half-written or bad table: keep the old ones
            log.error("printed timetables changed on disk but do not load; serving the old ones: %s", error)
        else:
            tables_watch.changed(timetables.files())  # the new set of files is the baseline
            responses._body.cache_clear()
            data_generation += 1
            cache.clear()
            log.warning("printed timetables changed on disk: reloaded")
    if manifest.due(root) and manifest.refresh(root):
        cache.clear()  # a build finished: answers read from files are read again


def _rendered(key: tuple, render_body):
    """The job a render thread runs: the body, its ETag, into the cache (kept even if the
    request that asked gave up waiting, unless the Hijri data was reloaded meanwhile), and the
    thread's CPU seconds (the request's cost)."""
    generation = data_generation

    def job() -> tuple[bytes, str, float]:
        started = time.thread_time()
        body = render_body()
        etag = etag_of(body)
        if generation == data_generation:
            cache.put(key, body, etag)
        return body, etag, time.thread_time() - started
    return job


async def _render(request: Request, key: tuple, cost: tuple[str, Mapping], render_body, html: bool,
                  quick: bool) -> tuple[bytes, str] | Response:
    """Render in the pool (or inline, `answer`), charged to the client: its expected cost before,
    its real cost after (runtime/ratelimit.py).  Returns the body and ETag, or the 429/503 answer."""
    client = _client(request)
    expected = costs.expected_units(*cost)
    wait_s = limiter.admit(client, expected)
    if wait_s is not None:
        headers = {"Retry-After": str(wait_s)}
        if html:
            return html_error(request, 429, headers)
        return error_response(429, f"more than {keys.budget_of(limiter, client)} cost units a minute (a render costs "
                                   f"one per started 10 ms of CPU); retry in {wait_s} s", headers)
    try:
        if quick and renders.pending == 0 and not tables_pending:
            body, etag, cpu_s = _rendered(key, render_body)()
        else:
            body, etag, cpu_s = await renders.run(key, _rendered(key, render_body), client)
    except Busy as busy:
        if not busy.started:  # refused before it ran: nothing was spent
            limiter.settle(client, expected, None)
        headers = {"Retry-After": str(busy.retry_after_s)}
        return html_error(request, 503, headers) if html else error_response(503, str(busy), headers)
    limiter.settle(client, expected, cpu_s)
    costs.learn(*cost, cpu_s)
    return body, etag


async def answer(request: Request, key: tuple, relative_path: str | None, render_body, media_type: str,
                 cache_control: str, cost: tuple[str, Mapping], html: bool = False, quick: bool = False,
                 headers: dict | None = None) -> Response:
    """Answer from the in-memory cache, else the pre-rendered file, else ``render_body()`` in the
    render pool (rate-limited by cost: ``cost`` is the endpoint's name and the canonical
    parameters, `CostModel`).  A ``quick`` render (`Endpoint.quick`: a few ms at most)
    runs on the event loop itself while no other render is running: a thread hand-over each way
    would cost more than it, and with the pool idle there is nothing for the loop to interleave.
    ``relative_path`` None: an answer that is never a file (a page shown from its query)."""
    if hijri_watch.due() or tables_watch.due() or manifest.due(static_root):
        await run_in_threadpool(follow_files, static_root)
    hit = cache.get(key)
    observe.cache_lookup(hit is not None)
    if hit is None:
        path = None if relative_path is None else static_file(relative_path)
        hit = None if path is None else await run_in_threadpool(read_static, path, relative_path)
        if hit is not None:
            cache.put(key, *hit)
        else:
            rendered = await _render(request, key, cost, render_body, html, quick)
            if isinstance(rendered, Response):
                return rendered
            hit = rendered
    body, etag = hit
    headers = {"ETag": etag, "Cache-Control": cache_control, **(headers or {})}
    if not_modified(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def not_modified(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 §13.1.2: ``*`` matches any current representation (every answer here has one),
    else any listed entity tag equal to ``etag`` by the weak comparison (``W/`` ignored)."""
    if not if_none_match:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


async def _parse_off_the_loop(parse):
    """``parse()`` (a request's check) in a thread, within the render budget (`Busy` after it): while
    the tables are built on a first start, a check that reads one (a Hijri month's length, an
    event's date) waits for it, and on the event loop that wait would stop every answer.  The
    thread runs on if abandoned."""
    parsed = asyncio.get_running_loop().run_in_executor(None, parse)
    try:
        async with asyncio.timeout(renders.budget_s):
            return await asyncio.shield(parsed)
    except TimeoutError:
        raise Busy("the server is still building its tables (its first start); retry shortly",
                   max(1, math.ceil(renders.budget_s / 2)), started=True) from None


async def _parse_checked(parse):
    """``parse()`` on the event loop, or off it while the tables are still built (`_parse_off_the_loop`)."""
    return await _parse_off_the_loop(parse) if tables_pending else parse()


async def respond_api(request: Request, endpoint: Endpoint, items: list[tuple[str, str]]) -> Response:
    try:
        now_s = time.time()
        await hosted.refresh_query(items, listing=endpoint.name == "mosques")  # off the loop, bounded (issue 34)
        if tables_pending:
            canonical: Canonical = await _parse_off_the_loop(lambda: endpoint.parse(Query(items), now_s))
        else:
            canonical = endpoint.parse(Query(items), now_s)
        # A hosted mosque's answer (issue 27): keyed by its version, never a pre-rendered file, a short Cache-Control.
        variant = hosted.listing_variant() if endpoint.name == "mosques" else hosted.query_variant(items)
        if variant or canonical.today_dependent:
            cache_control = hosted.CACHE_CONTROL if variant else CACHE_TODAY
        elif tables_pending:  # a forecast's lifetime reads the Hijri table: never waited for on the event loop
            cache_control = await _parse_off_the_loop(lambda: dated_cache_control(endpoint, canonical.params, now_s))
        else:
            cache_control = dated_cache_control(endpoint, canonical.params, now_s)
    except QueryError as error:
        return error_response(400, str(error), body=error.as_json())
    except Busy as busy:
        return error_response(503, str(busy), {"Retry-After": str(busy.retry_after_s)})
    return await answer(request, (endpoint.name, tuple(canonical.params.items()), *((variant,) if variant else ())),
                        None if variant else
                        static_paths.relative_path(endpoint.name, canonical.params, canonical.today_dependent),
                        lambda: endpoint.render(canonical.params), f"{endpoint.media_type}; charset=utf-8",
                        cache_control, (endpoint.name, canonical.params), quick=endpoint.quick)


def handler(endpoint: Endpoint):
    async def respond(request: Request) -> Response:
        return await respond_api(request, endpoint, request.query_params.multi_items())

    return respond


async def path_url(request: Request) -> Response:
    """``/v1/<base>/<file name>`` (and the stable ``/today/v1/…`` of an answer that follows today):
    the path URL of an answer (static_paths), read back into its query."""
    base, file_name = request.path_params["base"], request.path_params["file"]
    stem, dot, extension = file_name.rpartition(".")
    name = static_paths.endpoint_of_file(base, extension, BY_NAME) if dot else None
    items = static_paths.query_items(stem) if name else None
    if items is None:
        return error_response(404, f"no such path: {request.url.path[:200]}")
    return await respond_api(request, BY_NAME[name], items)


async def named_file(request: Request) -> Response:
    """``/v1/<name>.json`` (the path URL of an answer without parameters, e.g. ``/v1/methods.json``,
    and what nginx maps ``/v1/<name>.json?<query>`` to): the endpoint whose files bear that name."""
    stem, dot, extension = request.path_params["file"].rpartition(".")
    name = static_paths.endpoint_of_file(stem, extension, BY_NAME) if dot else None
    if name is None:
        return error_response(404, f"no such path: {request.url.path[:200]}")
    return await respond_api(request, BY_NAME[name], request.query_params.multi_items())


def page_handler(page: site.Page):
    """Serve a site page: the in-memory cache, then the pre-rendered file (a page that follows
    today only from today's folder), then `page.render`."""
    media_type = f"{page.media_type}; charset=utf-8"

    async def respond(request: Request) -> Response:
        params = dict(request.path_params)
        if not all(_PAGE_PART.fullmatch(value) for value in params.values()):
            return html_error(request, 404)
        try:
            await hosted.refresh(params.get("mosque"))  # a hosted profile read off the loop, bounded (issue 34)
        except Busy as busy:
            return html_error(request, 503, {"Retry-After": str(busy.retry_after_s)})
        now_s = time.time()
        today = datetime.fromtimestamp(now_s, timezone.utc).date()
        clock = {"now_s": now_s} if page.clock_dependent else {}  # a city's date, read at the request
        variant = hosted.variant(params.get("mosque"))  # a hosted mosque's page: keyed by its version
        key = ("page", page.route, tuple(sorted(params.items())), today if page.today_dependent else None,
               int(now_s // CLOCK_STEP_S) if page.clock_dependent else None, variant)
        relative = None if variant else static_paths.page_path(site.file_path(page.route, params),
                                                               today.isoformat() if page.today_dependent else None)
        if variant or page.today_dependent:
            cache_control = hosted.CACHE_CONTROL if variant else CACHE_TODAY
        elif tables_pending:  # a forecast's lifetime reads the Hijri table: never waited for on the event loop
            try:
                cache_control = await _parse_off_the_loop(lambda: page_cache_control(page, params, now_s))
            except Busy as busy:
                return html_error(request, 503, {"Retry-After": str(busy.retry_after_s)})
        else:
            cache_control = page_cache_control(page, params, now_s)
        try:
            return await answer(request, key, relative, lambda: page.render(today=today, **params, **clock),
                                media_type, cache_control, (page.route, params), html=True,
                                headers=dict(page.headers))
        except site.PageNotFound:
            return html_error(request, 404)
        except QueryError as error:  # a stored profile the endpoints no longer read (rules moved): a page, never a 500
            return html_error(request, 400, detail=str(error))

    return respond


def redirect_handler(target):
    """Answer a short address with a redirect to the path ``target(query items, **path parameters)`` gives (None:
    404); the target is built from checked ids and re-encoded query values only, never from the request's Host or
    raw path."""
    async def respond(request: Request) -> Response:
        params = dict(request.path_params)
        try:
            await hosted.refresh(params.get("mosque"))  # a hosted profile read off the loop, bounded (issue 34)
        except Busy as busy:
            return html_error(request, 503, {"Retry-After": str(busy.retry_after_s)})
        valid = all(_PAGE_PART.fullmatch(v) for v in params.values())
        location = target(request.query_params.multi_items(), **params) if valid else None
        if location is None:
            return html_error(request, 404)
        cache_control = hosted.CACHE_CONTROL if hosted.variant(params.get("mosque")) else CACHE_PAGE
        return Response(status_code=302, headers={"Location": location, "Cache-Control": cache_control})

    return respond


def query_page_handler(page: site.QueryPage):
    """Serve a page shown from its query (the screen, the widget): the query checked by the page (a bad one
    is the 400 page in the query's language), then the cache, then `page.render`, with the page's headers."""
    media_type = f"{page.media_type}; charset=utf-8"

    async def respond(request: Request) -> Response:
        now_s = time.time()
        items = request.query_params.multi_items()
        own = {"host": request.headers.get("host")} if page.reads_host else {}  # /qr.svg: the host read on
        try:
            await hosted.refresh_query(items)  # a hosted profile read off the loop, bounded (issue 34)
            if tables_pending:  # see respond_api
                query = await _parse_off_the_loop(lambda: page.parse(items, now_s, **own))
            else:
                query = page.parse(items, now_s, **own)
        except site.BadPageQuery as error:
            return html_error(request, 400, lang=error.lang, detail=error.error or str(error))
        except Busy as busy:
            return html_error(request, 503, {"Retry-After": str(busy.retry_after_s)})
        today = datetime.fromtimestamp(now_s, timezone.utc).date()
        variant = hosted.variant(getattr(query, "mosque", None))  # a hosted mosque's name and announcement
        try:
            return await answer(request, ("page", page.route, query, today, variant), None,
                                lambda: page.render(query, today), media_type,
                                hosted.CACHE_CONTROL if variant else CACHE_TODAY, (page.route, page.cost_params(query)),
                                html=True, headers=dict(page.headers))
        except QueryError as error:  # as page_handler: a stored profile that no longer reads is a page, never a 500
            return html_error(request, 400, detail=str(error))

    return respond


async def http_error(request: Request, exc: HTTPException) -> Response:
    if exc.status_code == 405:
        return error_response(405, f"method {request.method} not allowed; use GET", {"Allow": ALLOWED})
    if exc.status_code == 404:
        if _PAGE_WITHOUT_SLASH.fullmatch(request.url.path):  # relative: never built from the Host header
            query = request.url.query
            return Response(status_code=308, headers={"Location": request.url.path + "/" + (f"?{query}" if query else ""),
                                                      "Cache-Control": CACHE_PAGE})
        if site.language_of_path(request.url.path):  # /ar/…, /city/x/fa/…: the page's reader, in their language
            return html_error(request, 404)
        return error_response(404, f"no such path: {request.url.path[:200]}")
    return error_response(exc.status_code, str(exc.detail)[:200])


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error for %s", request.url.path)
    if site.language_of_path(request.url.path):  # a page's reader: the 500 page in the path's language
        return html_error(request, 500)
    return error_response(500, "internal error")


def _limit_fields(scope: Scope) -> list[tuple[bytes, bytes]]:
    """The client's rate-limit fields (none while the app's own limit is off)."""
    if keys.SCOPE_KEY in scope:
        client = scope[keys.SCOPE_KEY]
    elif limiter.per_minute <= 0:
        return []
    else:
        forwarded = next((value.decode("latin-1") for name, value in scope["headers"] if name == b"x-forwarded-for"), None)
        client = client_key(client_ip(scope["client"][0] if scope.get("client") else None, forwarded, trusted_proxies),
                            ipv6_client_prefix)
    return [(name.lower().encode(), value.encode()) for name, value in limiter.headers(client).items()]


def _header(scope: Scope, name: bytes) -> str | None:
    return next((value.decode("latin-1") for key, value in scope["headers"] if key == name), None)


def own_origin(origin: str, host: str | None) -> bool:
    """Whether a browser's ``Origin`` is this service's own: PUBLIC_ORIGIN, or the host the request was sent to (a
    mirror or another name the builder is read on; behind nginx ``Host`` is its ``$host``, without a port: a
    deployment on a port of its own sets PUBLIC_ORIGIN).  ``null`` (a sandboxed frame, a file) is no one's."""
    if origin == urls.PUBLIC_ORIGIN:
        return True
    scheme, _, netloc = origin.partition("://")
    return scheme in ("http", "https") and bool(netloc) and host is not None and netloc == host.strip().lower()


def _foreign_write(scope: Scope) -> bool:
    """A write to the hosted profiles from a browser on another origin (issue 34: any web page could make its
    visitors' browsers publish, edit and delete profiles, each visitor a fresh address for the limits).  A browser
    always sends ``Origin`` with a cross-origin POST, PUT or DELETE, with or without a preflight; a request without
    one (curl, a server's client) is no browser's drive-by and is let through to the secret and the limits."""
    if scope["method"] in ("GET", "HEAD", "OPTIONS") or not scope["path"].startswith(hosted.PATH_PREFIX):
        return False
    origin = _header(scope, b"origin")
    return origin is not None and not own_origin(origin.strip(), _header(scope, b"host"))


class Cors:
    """CORS for every answer: reads from any origin, the validators and rate-limit fields exposed, and
    OPTIONS answered as a preflight (204) before routing; writes (/v1/mosques) only from this service's own
    origins (`own_origin`): another origin's write is a 403 before routing, and its preflight allows reads only.
    While the app's own limit is on, every answer but a preflight (cached, pre-rendered, rendered, 304 and errors
    alike) also carries the client's ``RateLimit`` and ``RateLimit-Policy`` fields, as deploy/README.md promises; a
    preflight is the browser's, and the page cannot read its fields."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if scope["method"] == "OPTIONS":
            return await self._preflight(scope, send)
        if _foreign_write(scope):
            refusal = error_response(403, "Origin: profiles are published and edited only from this service's own "
                                          f"pages ({urls.PUBLIC_ORIGIN}/mosque/new/)")
            return await refusal(scope, receive, send)

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []),
                                      (b"access-control-allow-origin", b"*"),
                                      (b"access-control-expose-headers", EXPOSED_HEADERS.encode()),
                                      *_limit_fields(scope)]
            await send(message)

        await self.app(scope, receive, send_with_cors)

    @staticmethod
    async def _preflight(scope: Scope, send: Send) -> None:
        asked = next((value for name, value in scope["headers"] if name == b"access-control-request-headers"), b"")
        asked_text = asked.decode("latin-1").strip()
        origin = (_header(scope, b"origin") or "").strip()
        # writes: only under /v1/mosques, and only for this service's own origins (named back: never "*" for them)
        writes = scope["path"].startswith(hosted.PATH_PREFIX) and own_origin(origin, _header(scope, b"host"))
        methods = PREFLIGHT_METHODS if writes else ALLOWED
        allowed_origin = origin.encode("latin-1") if writes else b"*"
        headers = [(b"access-control-allow-origin", allowed_origin), (b"access-control-allow-methods", methods.encode()),
                   (b"access-control-max-age", str(PREFLIGHT_MAX_AGE_S).encode()),
                   (b"access-control-expose-headers", EXPOSED_HEADERS.encode()),
                   (b"allow", (methods + ", OPTIONS").encode()), (b"vary", b"Origin, Access-Control-Request-Headers"),
                   (b"cache-control", b"no-store")]
        if len(asked_text) <= 1000 and _HEADER_LIST.fullmatch(asked_text):  # echo only a plain list of names
            headers.append((b"access-control-allow-headers", asked_text.encode()))
        await send({"type": "http.response.start", "status": 204, "headers": headers})
        await send({"type": "http.response.body", "body": b""})


def warm_up() -> None:
    """Load every table and catalogue before the first request (and fail loudly if one is broken)."""
    from generator.astronomy import sun_table
    from generator.calendars import events, ummalqura
    from generator.places import cities

    sun_table.load()
    for calendar in hijri.CALENDARS:
        hijri.to_hijri(0, calendar)
    hijri_watch.changed(_hijri_files())  # the baseline `follow_files` compares with
    tables_watch.changed(timetables.files())
    cities.by_id()
    events.catalogue()
    ummalqura.is_ramadan(0)
    prayer_times = BY_NAME["prayer-times"]
    prayer_times.render(prayer_times.parse(Query.of({"lat": "0", "lng": "0", "date": "2000-01-01", "tz": "UTC"}),
                                           0.0).params)


@contextlib.asynccontextmanager
async def lifespan(app):
    observe.setup_logging()  # time, level and request id on every line (LOG_FORMAT, LOG_LEVEL)
    if all_tables.present():
        warm_up()
    else:
        # A first start (`make serve` on a fresh clone builds the tables beside the server): answer
        # at once.  An answer that needs a table not built yet waits for its build (the table's lock,
        # generator/tables.py) within the render budget, then 503 with Retry-After; never a guess.
        global tables_pending
        tables_pending = True
        hijri_watch.changed(_hijri_files())  # the baseline: the month table, once written, is followed
        log.warning("serving while the generated tables are built (data/tables/)")
    hosted.open_store()  # the hosted mosque profiles (var/mosques.sqlite3 or MOSQUE_DB_URL), opened in the background
    yield
    hosted.close_store()
    renders.shutdown()


routes = [Route("/healthz", health.healthz, methods=["GET", "HEAD"]),
          Route("/readyz", health.readyz(lambda: not tables_pending, hosted.check), methods=["GET", "HEAD"])
          ] + hosted.routes(_client, answer) + compat_door.routes(answer, _parse_checked) + [  # the API first
    Route(f"{API_PREFIX}/{endpoint.name}", handler(endpoint), methods=["GET", "HEAD"], name=endpoint.name)
    for endpoint in ENDPOINTS
] + [Route(route, redirect_handler(target), methods=["GET", "HEAD"]) for route, target in site.redirects().items()
      ] + [Route(page.route, page_handler(page), methods=["GET", "HEAD"]) for page in site.pages()] + [
      Route(page.route, query_page_handler(page), methods=["GET", "HEAD"]) for page in site.query_pages()] + [
      Route(API_PREFIX + "/{file}", named_file, methods=["GET", "HEAD"]),
      Route(API_PREFIX + "/{base}/{file}", path_url, methods=["GET", "HEAD"]),
      Route(f"/{static_paths.STABLE_DIR}{API_PREFIX}" + "/{base}/{file}", path_url, methods=["GET", "HEAD"])]
starlette_app = Starlette(routes=routes, lifespan=lifespan,
                          exception_handlers={HTTPException: http_error, Exception: server_error})
starlette_app.router.redirect_slashes = False  # its redirect would be built from the Host header
# Outermost: the request id, logs and /metrics (runtime/observe.py) see every answer, the 500s of KeepServing
# included; no exception closes a healthy connection (runtime/health.py); then brotli/gzip, Vary and an ETag per
# encoding (runtime/compression.py); keys inside CORS, so a 401 is readable.
app = observe.Observe(health.KeepServing(Compression(Cors(keys.AppKeys(starlette_app, app_keys)),
                                                     identity_prefixes=(hosted.PATH_PREFIX,))),
                      render_queue=lambda: renders.pending)
