"""Compression from the app itself (issue 35): brotli or gzip by ``Accept-Encoding``, for ``make serve``
behind any proxy (a year of prayer times: 169 kB plain, about 22 kB gzipped).

The outermost layer of the app (`Compression`), over whole answers (every answer here is one body):

* an answer of a compressible type (JSON, text, calendars, CSV, SVG, XML, JavaScript) of at least
  `MIN_BYTES` with status 200 is sent ``br`` when the client accepts it, else ``gzip``, else as is;
  smaller ones are never compressed (the framing would outweigh the saving; nginx's gzip_min_length);
* every answer of a compressible type, and every 304, says ``Vary: Accept-Encoding``, so a cache keeps
  the encodings apart;
* validators per encoding, as nginx's gzip_static gives each pre-built sibling file a validator of
  its own: the identity answer keeps the app's strong ETag ``"<hash>"``, the brotli one is
  ``"<hash>-br"`` and the gzip one ``"<hash>-gzip"`` (strong: each names exactly one byte sequence;
  the suffixes hold no digit, so a version ETag read as a number stays the version).
  ``If-None-Match`` is therefore answered here, against the tag of the encoding this request gets
  (weak comparison, RFC 9110 §13.1.2; ``*`` matches): the app below sees no ``If-None-Match``;
* HEAD is answered as GET without the body, so its fields (length, encoding, ETag) are the GET's;
* the hosted profiles' API (/v1/mosques…, whose ETag is the profile's version by contract) is left as is.

Compressed bodies are kept by (ETag, encoding) in a small LRU (`CompressedCache`): a repeated
answer is compressed once.  A body above `THREAD_BYTES` is compressed in a worker thread, so the
event loop never spends more than about a millisecond on one.
"""
from __future__ import annotations

import gzip
import threading
from collections import OrderedDict

import brotli
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MIN_BYTES = 512  # as deploy/nginx.conf's gzip_min_length
THREAD_BYTES = 32 * 1024  # larger bodies are compressed off the event loop
GZIP_LEVEL = 6  # zlib's default: most of level 9's saving at a third of its time
BROTLI_QUALITY = 5  # the usual setting for answers compressed on the fly (the build's siblings use 9)
CACHE_BYTES = 32 * 1024 * 1024
ENCODINGS = ("br", "gzip")  # in order of preference
SUFFIX = {"br": "-br", "gzip": "-gzip"}
_COMPRESSIBLE_PREFIXES = ("text/",)
_COMPRESSIBLE_TYPES = frozenset({"application/json", "application/xml", "image/svg+xml", "application/javascript",
                                 "application/manifest+json", "application/geo+json"})


def chosen_encoding(accept_encoding: str | None) -> str | None:
    """The encoding to send for an ``Accept-Encoding`` value (br before gzip), or None for identity."""
    if not accept_encoding:
        return None
    weights: dict[str, float] = {}
    for item in accept_encoding.split(","):
        name, _, parameters = item.strip().partition(";")
        q = 1.0
        for parameter in parameters.split(";"):
            key, _, value = parameter.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[name.strip().lower()] = q
    for encoding in ENCODINGS:
        if weights.get(encoding, weights.get("*", 0.0)) > 0:
            return encoding
    return None


def compressible(content_type: str) -> bool:
    media_type = content_type.split(";")[0].strip().lower()
    return (media_type.startswith(_COMPRESSIBLE_PREFIXES) or media_type in _COMPRESSIBLE_TYPES
            or media_type.endswith(("+json", "+xml")))


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(body, quality=BROTLI_QUALITY)
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


def encoded_etag(etag: str, encoding: str) -> str:
    """``"<tag>"`` → ``"<tag>-br"`` (a weak tag stays weak)."""
    weak = etag.startswith("W/")
    opaque = etag[2:] if weak else etag
    if not (len(opaque) >= 2 and opaque.startswith('"') and opaque.endswith('"')):
        return etag
    return ("W/" if weak else "") + opaque[:-1] + SUFFIX[encoding] + '"'


def matches(if_none_match: str, etag: str | None) -> bool:
    """RFC 9110 §13.1.2 with the weak comparison: ``*`` or any listed tag equal to ``etag`` (``W/`` ignored)."""
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or (etag is not None and etag.removeprefix("W/") in tags)


class CompressedCache:
    """Compressed bodies by (ETag, encoding), least recently used dropped past ``max_bytes``."""

    def __init__(self, max_bytes: int = CACHE_BYTES):
        self.max_bytes = max_bytes
        self._items: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> bytes | None:
        with self._lock:
            body = self._items.get(key)
            if body is not None:
                self._items.move_to_end(key)
            return body

    def put(self, key: tuple[str, str], body: bytes) -> None:
        with self._lock:
            if key in self._items or len(body) > self.max_bytes:
                return
            self._items[key] = body
            self._bytes += len(body)
            while self._bytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self._bytes -= len(dropped)


class Compression:
    """The ASGI layer described in the module docstring."""

    def __init__(self, app: ASGIApp, cache: CompressedCache | None = None, identity_prefixes: tuple[str, ...] = ()):
        self.app = app
        self.cache = cache or CompressedCache()
        # Paths whose ETag is a contract of its own (a hosted profile's version, docs/mosques.md): untouched.
        self.identity_prefixes = identity_prefixes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] not in ("GET", "HEAD")
                or scope["path"].startswith(self.identity_prefixes)):
            return await self.app(scope, receive, send)
        head = scope["method"] == "HEAD"
        if_none_match = None
        headers = []
        for name, value in scope["headers"]:
            if name == b"if-none-match":
                if_none_match = value.decode("latin-1")
            else:
                headers.append((name, value))
        accept = next((v.decode("latin-1") for n, v in headers if n == b"accept-encoding"), None)
        inner = {**scope, "headers": headers, "method": "GET" if head else scope["method"]}
        encoding = chosen_encoding(accept)
        started: Message | None = None
        parts: list[bytes] = []

        async def hold(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = message
                if "route" in inner:  # the route template Starlette found, for the layers outside (runtime/observe.py)
                    scope["route"] = inner["route"]
                return
            if message["type"] != "http.response.body" or started is None:
                return await send(message)
            parts.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            await self._finish(started, b"".join(parts), encoding, if_none_match, head, send)

        await self.app(inner, receive, hold)

    async def _finish(self, start: Message, body: bytes, encoding: str | None, if_none_match: str | None,
                      head: bool, send: Send) -> None:
        status = start["status"]
        fields = [(n, v) for n, v in start.get("headers", [])]
        lookup = {n.lower(): v.decode("latin-1") for n, v in fields}
        content_type = lookup.get(b"content-type", "")
        etag = lookup.get(b"etag")
        kind_varies = compressible(content_type) or status == 304
        chosen = (encoding if status == 200 and encoding and compressible(content_type) and len(body) >= MIN_BYTES
                  and b"content-encoding" not in lookup else None)
        if chosen and etag:
            etag = encoded_etag(etag, chosen)
        fields = [(n, v) for n, v in fields if n.lower() not in (b"etag", b"content-length", b"vary")]
        vary = [v.strip() for v in lookup.get(b"vary", "").split(",") if v.strip()]
        if kind_varies and "accept-encoding" not in (v.lower() for v in vary):
            vary.append("Accept-Encoding")
        if vary:
            fields.append((b"vary", ", ".join(vary).encode("latin-1")))
        if etag:
            fields.append((b"etag", etag.encode("latin-1")))
        if status == 200 and if_none_match is not None and etag and matches(if_none_match, etag):
            fields = [(n, v) for n, v in fields if n.lower() not in (b"content-type", b"content-encoding")]
            await send({"type": "http.response.start", "status": 304, "headers": fields})
            await send({"type": "http.response.body", "body": b""})
            return
        if chosen:
            body = await self._compressed(body, chosen, etag)
            fields.append((b"content-encoding", chosen.encode()))
        fields.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": fields})
        await send({"type": "http.response.body", "body": b"" if head else body})

    async def _compressed(self, body: bytes, encoding: str, etag: str | None) -> bytes:
        key = (etag, encoding) if etag else None
        if key is not None:
            kept = self.cache.get(key)
            if kept is not None:
                return kept
        out = await run_in_threadpool(compress, body, encoding) if len(body) > THREAD_BYTES else compress(body, encoding)
        if key is not None:
            self.cache.put(key, out)
        return out
