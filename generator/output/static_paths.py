"""Where a pre-rendered response lives: the static path scheme shared by build.py, the runtime, nginx
and any host that only serves files.

For endpoint ``name`` and canonical parameters ``params`` (the file name is also the
response's *path URL*: ``/v1/prayer-times/city=karbala&tz=Asia~Tehran&year=2026.json``)::

    v1/<name>.json                                  no parameters (e.g. v1/methods.json)
    v1/<name>/<k1>=<v1>&<k2>=<v2>&….json            keys sorted; "/" in a value written "~"
    v1/<base>/<…>.ics                               a name with its own extension ("events.ics",
                                                    "openapi.json", "prayer-times.csv") keeps it:
                                                    base "events", "openapi", "prayer-times"
    v1/<name>/_/<sha256 of the canonical query>.json  a value with any other character, or a
                                                    name longer than `MAX_NAME_CHARS`: app only

Values are written as they are when made only of ``A–Z a–z 0–9 . _ , -`` and ``/``
(which becomes ``~``, a character no zone name or id holds); a file name therefore
needs no %-escape on any host, never holds ``/`` or ``..``, and no query can name a
path outside ``static_out/``.  A value with ``~`` or any other character (an Arabic
search, a feed's ``name``) is stored under ``_/`` by hash, which only the app resolves.
The app answers a path URL by reading the file name back into a query (`query_items`),
so ``/v1/qibla/lat=51.5&lng=0.json`` and ``/v1/qibla?lat=51.5&lng=0`` are one answer.

Answers that follow "today" (`Canonical.today_dependent`) carry the day in their
canonical parameters (``date=``, ``today=``), which no request may give; they live under
``_today/`` (`TODAY_DIR`), which no front serves, so such a name is never a public URL.
The runtime finds them by their full canonical name, so a day-old file is never served
as today's.  Pages that follow today live in ``_today/<YYYY-MM-DD>/<route>index.html``
and are used only on that UTC day.  For hosts that only serve files, every build also
writes a *stable* name for each such answer it pre-renders, refreshed by every build:
``today/v1/<name>/<the request's own parameters>.<ext>`` (`STABLE_DIR`; e.g. the feed
``today/v1/prayer-times/city=karbala.ics``) and the page ``city/karbala/index.html``
(hard links to the ``_today/`` files).  nginx and the app never read those: at the app
(and so behind nginx) ``/today/v1/…`` is answered like the path URL ``/v1/…``, with the
date checked; a copy on a CDN is as current as the last upload.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any, Iterable, Mapping
from urllib.parse import quote

import orjson
import xxhash

STATIC_ROOT = Path(__file__).resolve().parents[2] / "static_out"
MAX_NAME_CHARS = 200  # file names must stay under the usual 255-byte limit
TODAY_DIR = "_today"  # answers and pages that follow "today": never a public URL
STABLE_DIR = "today"  # the stable public names of answers that follow "today", for file hosts
HASHED_DIR = "_"  # names only the app resolves

# Cache lifetimes (Cache-Control), the same at the app, nginx and the `_headers` file.
CACHE_STABLE = "public, max-age=604800"  # a given date's answer does not change
CACHE_TODAY = "public, max-age=300"  # answers and pages that follow "today"
CACHE_PAGE = "public, max-age=86400"  # pages that do not follow "today" (a month's crescent maps)
EXPOSED_HEADERS = "ETag, Retry-After, RateLimit, RateLimit-Policy"


def cache_for(max_age_s: int) -> str:
    """Cache-Control of an answer reused at most ``max_age_s`` seconds (a Hijri forecast's, issue 35)."""
    return f"public, max-age={int(max_age_s)}"
HEADERS_FILE = "_headers"
COMPLETE_MARKER = ".build-complete"  # written by a full build.py run (make serve's --if-missing)
MANIFEST = ".manifest.json"  # what every pre-rendered file must hold (`write_manifest`)
PENDING_DIR = ".pending-builds"  # partial builds asked for and not yet finished (announce.py; build.py finishes them)
ERRORS_DIR = "_errors"  # the site's 429 pages, which nginx answers with

_PLAIN_VALUE = re.compile(r"[A-Za-z0-9._,/-]*", re.ASCII)
_FILE_NAME = re.compile(r"[A-Za-z0-9=&._,~-]{1,200}", re.ASCII)
EXTENSIONS = ("ics", "json", "svg")


def canonical_query(params: Mapping[str, Any]) -> str:
    """Return the canonical query string of a URL: sorted keys, values percent-encoded (RFC 3986
    unreserved characters kept).  Links in pages use it; file names use `file_query`."""
    return "&".join(f"{key}={quote(str(value), safe='')}" for key, value in sorted(params.items()))


def _value(value: Any) -> str | None:
    text = str(value)
    return text.replace("/", "~") if _PLAIN_VALUE.fullmatch(text) else None


def file_query(params: Mapping[str, Any]) -> str | None:
    """Return the file-name form of canonical parameters, or None when only a hash can name them."""
    parts = []
    for key, value in sorted(params.items()):
        written = _value(value)
        if written is None:
            return None
        parts.append(f"{key}={written}")
    name = "&".join(parts)
    return name if len(name) <= MAX_NAME_CHARS else None


def _split(name: str) -> tuple[str, str]:
    for suffix in (".ics", ".json", ".svg", ".csv"):
        if name.endswith(suffix):
            return name[: -len(suffix)], suffix[1:]
    return name, "json"


def relative_path(name: str, params: Mapping[str, Any], today_dependent: bool = False) -> str:
    """Return the path of a response under ``static_out/`` (always inside it)."""
    base, extension = _split(name)
    folder = f"{TODAY_DIR}/v1" if today_dependent else "v1"
    if not params:
        return f"{folder}/{base}.{extension}"
    query = file_query(params)
    if query is None:
        canonical = "&".join(f"{key}={value}" for key, value in sorted(params.items()))
        return f"{folder}/{base}/{HASHED_DIR}/{hashlib.sha256(canonical.encode()).hexdigest()}.{extension}"
    return f"{folder}/{base}/{query}.{extension}"


def stable_path(name: str, request_params: Mapping[str, Any]) -> str | None:
    """Return the stable public name of a today-following answer, from the parameters the
    request itself gave (canonical values; e.g. ``today/v1/prayer-times/city=karbala.ics``)."""
    path = relative_path(name, request_params)
    return None if f"/{HASHED_DIR}/" in path else f"{STABLE_DIR}/{path}"


def page_path(relative: str, today_iso: str | None) -> str:
    """Return where a page's file lives: under ``_today/<day>/`` when it follows today."""
    return relative if today_iso is None else f"{TODAY_DIR}/{today_iso}/{relative}"


def endpoint_of_file(base: str, extension: str, names: Iterable[str]) -> str | None:
    """Return the endpoint name whose files are ``v1/<base>/….<extension>``, if any."""
    for name in names:
        if _split(name) == (base, extension):
            return name
    return None


def query_items(file_name: str) -> list[tuple[str, str]] | None:
    """Read a path URL's file name (without extension) back into query items, or None if it
    is not one the scheme writes."""
    if not _FILE_NAME.fullmatch(file_name):
        return None
    items = []
    for part in file_name.split("&"):
        key, equals, value = part.partition("=")
        if not equals or not key:
            return None
        items.append((key, value.replace("~", "/")))
    return items


def headers_file() -> str:
    """Return the ``_headers`` file build.py writes at the root of static_out/, in the form
    Netlify and Cloudflare Pages read (other hosts: set the same headers by these patterns).

    Patterns do not overlap for any header, since such hosts join the values of every
    matching rule: stable names of answers that follow today (``today/v1/…``, refreshed by
    every build), pages that follow today and the sitemap get 5 minutes, other answers a week,
    crescent pages and robots.txt a day.  (Past 50,000 pages the sitemap is an index of
    ``/sitemap-<n>.xml`` files, which such hosts type from their extension.)"""
    rules = [
        ("/*", {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": EXPOSED_HEADERS,
                "X-Content-Type-Options": "nosniff"}),
        ("/v1/*.json", {"Content-Type": "application/json; charset=utf-8", "Cache-Control": CACHE_STABLE}),
        (f"/{STABLE_DIR}/v1/*.json", {"Content-Type": "application/json; charset=utf-8", "Cache-Control": CACHE_TODAY}),
        (f"/{STABLE_DIR}/v1/*.ics", {"Content-Type": "text/calendar; charset=utf-8", "Cache-Control": CACHE_TODAY}),
        ("/", {"Cache-Control": CACHE_TODAY}),
        ("/index.html", {"Cache-Control": CACHE_TODAY}),
        ("/city/*", {"Cache-Control": CACHE_TODAY}),
        ("/mosque/*", {"Cache-Control": CACHE_TODAY}),
        ("/moon/*", {"Cache-Control": CACHE_PAGE}),
        ("/robots.txt", {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": CACHE_PAGE}),
        ("/sitemap.xml", {"Content-Type": "application/xml; charset=utf-8", "Cache-Control": CACHE_TODAY}),
        (f"/{TODAY_DIR}/*", {"X-Robots-Tag": "noindex", "Cache-Control": "no-store"}),
    ]
    lines = ["# Response headers for hosts that read a _headers file (Netlify, Cloudflare Pages).",
             "# Written by build.py from generator/output/static_paths.py; deploy/README.md says which URLs need the app."]
    for pattern, headers in rules:
        lines.append(pattern)
        lines += [f"  {key}: {value}" for key, value in headers.items()]
    return "\n".join(lines) + "\n"



def content_hash(body: bytes) -> str:
    """XXH3-128 of a body as 32 hex digits: the ETag of an answer and its entry in the manifest.

    A 128-bit hash changes whenever the bytes do (chance of a repeat 2⁻¹²⁸); no collision
    resistance against an adversary is needed, as the server alone chooses the bytes of a URL.
    It takes 3 µs for a year of prayer times, where SHA-256 took 94 µs (a tenth of the render)."""
    return xxhash.xxh3_128_hexdigest(body)


def read_manifest(root: Path) -> dict[str, tuple[str, int]]:
    """Return ``root``'s manifest: relative path -> (content hash, size in bytes); empty when there
    is none or it cannot be read (then no file is vouched for, and the app renders)."""
    try:
        files = orjson.loads((Path(root) / MANIFEST).read_bytes())["files"]
        return {relative: (entry[0], entry[1]) for relative, entry in files.items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return {}


def write_manifest(root: Path, entries: Mapping[str, tuple[str, int]]) -> None:
    """Write the manifest of ``root`` atomically: every pre-rendered file build.py wrote, by its
    relative path, with the hash and size of the bytes it must hold.  The app serves a file only
    when its bytes match (a truncated or garbled file is rendered afresh instead)."""
    path = Path(root) / MANIFEST
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(orjson.dumps({"files": {relative: list(entry) for relative, entry in sorted(entries.items())}}))
    os.replace(tmp, path)
