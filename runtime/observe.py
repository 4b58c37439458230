"""What an operator sees of a running app: log lines, a request id, and Prometheus metrics (issue 34).

* **Request id.** Every answer carries ``X-Request-ID``: the request's own when it sent a plain one
  (1-128 characters of ``A-Z a-z 0-9 . _ : -``; deploy/nginx.conf sends nginx's ``$request_id``, which
  its access log prints too), else a new random one.  Every log line written while the request is
  answered names it.
* **Logs.** The app's loggers (``runtime`` and below) write one line per record to stderr with the UTC
  time, the level, the logger, the request id and the message; ``LOG_FORMAT=json`` makes each line a
  JSON object with the same fields (for a log shipper); ``LOG_LEVEL`` (default ``INFO``) sets the least
  level written.  So the store the app opened is named at start (runtime/hosted.py, INFO).
* **Metrics.** ``GET /metrics`` answers Prometheus's text format (prometheus_client, the project's own
  client library) to the addresses ``METRICS_ALLOW`` names (comma-separated networks; default loopback
  only, ``127.0.0.0/8,::1``), judged by the TCP peer, never by a header; others get 404 as for any unknown
  path.  It is not rate-limited and renders nothing.  deploy/nginx.conf has no location for it (nginx
  answers 404): scrape each app process at its own address.  Counters are per process: with uvicorn
  ``--workers N`` a scrape reaches one worker at random, so run one worker per port (docs/operations.md).

  ==============================================  ========================================================
  ``http_requests_total{route,method,status}``    answers by route template (``/v1/{file}``, not the URL)
  ``http_request_duration_seconds{route}``        latency histogram, to the response's first byte
  ``http_rate_limited_total{route}``              429 answers (the app's own limit)
  ``render_queue_depth``                          renders admitted and not finished (runtime/render_pool.py)
  ``response_cache_lookups_total{result}``        the in-memory cache: ``hit`` or ``miss``
  ``profile_store_errors_total``                  hosted-profile answers that failed (5xx) or errors
                                                  the store reports (`STORE_ERRORS.inc()`)
  ==============================================  ========================================================

The middleware (`Observe`) wraps the whole app (runtime/app.py) and reads the route template Starlette's
router leaves in the scope; a path no route matched is counted as route ``(none)``, so a scan of random
URLs cannot grow the number of series.
"""
from __future__ import annotations

import contextvars
import ipaddress
import json
import logging
import os
import re
import sys
import time
import uuid
from datetime import datetime, timezone

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4  # what generate_latest writes; every Prometheus reads it
from starlette.types import ASGIApp, Message, Receive, Scope, Send

METRICS_PATH = "/metrics"
REQUEST_ID_HEADER = b"x-request-id"
_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:-]{1,128}")
NO_ROUTE = "(none)"  # the route label of a path no route matched
DEFAULT_METRICS_ALLOW = "127.0.0.0/8,::1"

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")

registry = CollectorRegistry()
ProcessCollector(registry=registry)  # CPU seconds, memory, open files of this process
REQUESTS = Counter("http_requests", "Answers by route template, method and status", ["route", "method", "status"],
                   registry=registry)
LATENCY = Histogram("http_request_duration_seconds", "Time to the answer's first byte, by route template", ["route"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
                    registry=registry)
RATE_LIMITED = Counter("http_rate_limited", "429 answers (over a client's limit), by route template", ["route"],
                       registry=registry)
CACHE_LOOKUPS = Counter("response_cache_lookups", "In-memory cache lookups, by result", ["result"], registry=registry)
STORE_ERRORS = Counter("profile_store_errors", "Hosted-profile answers that failed (5xx) and store errors reported",
                       registry=registry)
RENDER_QUEUE = Gauge("render_queue_depth", "Renders admitted and not finished (the render pool's queue)",
                     registry=registry)


def parse_allowed(text: str) -> list:
    """``METRICS_ALLOW``: comma-separated addresses or networks (a bad one stops the app at start)."""
    return [ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()]


class _Formatter(logging.Formatter):
    """One line per record: UTC time, level, logger, request id, message (or the same as a JSON object)."""

    def __init__(self, as_json: bool):
        super().__init__()
        self.as_json = as_json

    def format(self, record: logging.LogRecord) -> str:
        fields = {"time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
                  "level": record.levelname, "logger": record.name, "request_id": request_id.get(),
                  "message": record.getMessage()}
        if record.exc_info:
            fields["exception"] = self.formatException(record.exc_info)
        if self.as_json:
            return json.dumps(fields, ensure_ascii=False)
        line = "{time} {level} {logger} [{request_id}] {message}".format(**fields)
        return line + ("\n" + fields["exception"] if record.exc_info else "")


class _StderrHandler(logging.StreamHandler):
    """Writes to the ``sys.stderr`` of the moment, not the one of the start: a test runner swaps it per test and
    closes the old one, and a store thread logging later then raised "I/O operation on closed file" (issue 34: its
    traceback, printed by that thread while pytest's own thread parsed a module, met CPython 3.11's AST recursion
    check, gh-106905, and ended the run)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass  # always sys.stderr


def setup_logging(environ=os.environ, stream=None) -> logging.Logger:
    """Give the app's loggers (``runtime``) one handler writing `_Formatter` lines (``LOG_FORMAT``: ``text``
    or ``json``; ``LOG_LEVEL``: a level name); a bad value stops the app at start, naming the variable."""
    log_format = environ.get("LOG_FORMAT", "text").strip().lower()
    if log_format not in ("text", "json"):
        raise SystemExit(f"LOG_FORMAT: 'text' or 'json', not {log_format!r}")
    level = environ.get("LOG_LEVEL", "INFO").strip().upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise SystemExit(f"LOG_LEVEL: DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}")
    logger = logging.getLogger("runtime")
    for handler in list(logger.handlers):
        if getattr(handler, "_observe", False):
            logger.removeHandler(handler)
    handler = logging.StreamHandler(stream) if stream is not None else _StderrHandler()
    handler._observe = True
    handler.setFormatter(_Formatter(log_format == "json"))
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False  # one line per record, whatever uvicorn does with the root logger
    return logger


class Observe:
    """ASGI middleware: the request id, the metrics of every answer, and ``GET /metrics``."""

    def __init__(self, app: ASGIApp, render_queue=lambda: 0, metrics_allow: str | None = None):
        self.app = app
        RENDER_QUEUE.set_function(render_queue)
        self.allowed = parse_allowed(os.environ.get("METRICS_ALLOW", DEFAULT_METRICS_ALLOW)
                                     if metrics_allow is None else metrics_allow)

    def _may_read_metrics(self, scope: Scope) -> bool:
        peer = (scope.get("client") or ("",))[0]
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in self.allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        given = next((value for name, value in scope["headers"] if name == REQUEST_ID_HEADER), b"")
        rid = given.decode("ascii") if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        token = request_id.set(rid)
        try:
            if scope["path"] == METRICS_PATH and scope["method"] in ("GET", "HEAD") and self._may_read_metrics(scope):
                return await self._metrics(scope, send, rid)
            await self._observed(scope, receive, send, rid)
        finally:
            request_id.reset(token)

    async def _observed(self, scope: Scope, receive: Receive, send: Send, rid: str) -> None:
        started = time.perf_counter()
        status = {"code": 500}

        async def send_observed(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                message["headers"] = [*(h for h in message.get("headers", []) if h[0].lower() != REQUEST_ID_HEADER),
                                      (REQUEST_ID_HEADER, rid.encode())]
                route = _route(scope)
                LATENCY.labels(route).observe(time.perf_counter() - started)
                REQUESTS.labels(route, scope["method"] if scope["method"] in _METHODS else "other",
                                str(message["status"])).inc()
                if message["status"] == 429:
                    RATE_LIMITED.labels(route).inc()
                if message["status"] >= 500 and route.startswith("/v1/mosques"):
                    STORE_ERRORS.inc()
            await send(message)

        await self.app(scope, receive, send_observed)

    @staticmethod
    async def _metrics(scope: Scope, send: Send, rid: str) -> None:
        body = generate_latest(registry)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", CONTENT_TYPE_PLAIN_0_0_4.encode()), (b"cache-control", b"no-store"),
                                (b"content-length", str(len(body)).encode()), (REQUEST_ID_HEADER, rid.encode())]})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"})


def _route(scope: Scope) -> str:
    """The template of the route that answered (``/v1/{base}/{file}``), never the URL itself."""
    route = scope.get("route")
    return getattr(route, "path", None) or NO_ROUTE


def cache_lookup(hit: bool) -> None:
    CACHE_LOOKUPS.labels("hit" if hit else "miss").inc()
