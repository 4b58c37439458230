"""The HTTP application: validate, answer from cache or `render()`, set headers.

Routes are data (a list), built from the endpoint registry.  Every error is JSON:
400 for bad input (naming the parameter), 404 for unknown paths, 405 for methods
other than GET/HEAD, and never a traceback.
"""
from __future__ import annotations

import hashlib
import logging
import time

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from generator.api.endpoint import Canonical, Endpoint, dumps, endpoints, render
from generator.errors import QueryError
from generator.query import Query
from runtime.cache import ResponseCache

API_PREFIX = "/v1"
CACHE_STABLE = "public, max-age=604800"  # a given date's answer does not change
CACHE_TODAY = "public, max-age=300"  # answers that follow "today"
JSON = "application/json"
ALLOWED = "GET, HEAD"

log = logging.getLogger("runtime")
cache = ResponseCache()


def _media_type(endpoint: Endpoint) -> str:
    return f"{endpoint.media_type}; charset=utf-8"


def error_response(status: int, message: str, headers: dict | None = None) -> Response:
    return Response(
        dumps({"error": message}),
        status_code=status,
        media_type=f"{JSON}; charset=utf-8",
        headers={"Access-Control-Allow-Origin": "*", "Cache-Control": "no-store", **(headers or {})},
    )


def _etag(body: bytes) -> str:
    # SHA-256 (hardware-accelerated here: ~2 GB/s), first 128 bits; a strong validator.
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def handler(endpoint: Endpoint):
    async def respond(request: Request) -> Response:
        try:
            canonical: Canonical = endpoint.parse(Query(request.query_params.multi_items()), time.time())
        except QueryError as error:
            return error_response(400, str(error))
        key = (endpoint.name, tuple(canonical.params.items()))
        hit = cache.get(key)
        if hit is None:
            body = render(endpoint.name, canonical.params)
            hit = (body, _etag(body))
            cache.put(key, *hit)
        body, etag = hit
        headers = {
            "ETag": etag,
            "Cache-Control": CACHE_TODAY if canonical.today_dependent else CACHE_STABLE,
            "Access-Control-Allow-Origin": "*",
        }
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=_media_type(endpoint), headers=headers)

    return respond


async def not_found(request: Request, exc: HTTPException) -> Response:
    if exc.status_code == 405:
        return error_response(405, f"method {request.method} not allowed; use GET", {"Allow": ALLOWED})
    if exc.status_code == 404:
        return error_response(404, f"no such path: {request.url.path[:200]}")
    return error_response(exc.status_code, str(exc.detail)[:200])


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error for %s", request.url.path)
    return error_response(500, "internal error")


routes = [
    Route(f"{API_PREFIX}/{name}", handler(endpoint), methods=["GET", "HEAD"], name=name)
    for name, endpoint in endpoints().items()
]
app = Starlette(routes=routes, exception_handlers={HTTPException: not_found, Exception: server_error})
