"""Hosted mosque profiles over HTTP (issue 27): publish, read, edit, delete, list and restore versions.

The routes (`routes()`, mounted by runtime/app.py before its own):

``POST /v1/mosques``                          a profile (data/mosques format, JSON) → 201 ``{id, version, edit,
                                              links}``; ``edit`` is the secret, shown this once
``GET /v1/mosques/<id>``                      the profile; its version is the ETag (a file profile: its bytes'
                                              hash)
``PUT /v1/mosques/<id>``                      a new version; ``Authorization: Bearer <secret>`` and
``DELETE /v1/mosques/<id>``                   ``If-Match: "<version>"`` (missing: 428; another version: 409
                                              with the current one; a wrong secret: 403 that says nothing)
``GET /v1/mosques/<id>/versions``             the versions (with the secret), and one version's body:
``GET /v1/mosques/<id>/versions/<n>``
``POST /v1/mosques/<id>/versions/<n>/restore`` version n as a new version (with the secret and If-Match)
``GET /v1/mosques/<id>/links``                the edit links' names (with a secret); ``POST`` ``{"name": …}`` adds
``DELETE /v1/mosques/<id>/links/<name>``      one (its secret shown once); ``DELETE`` revokes one (never the last)
``POST /v1/mosques/<id>/rotate``              a new secret for the link presented (the old one opens nothing)
``GET /v1/mosques/<id>/salahapi.json``        the profile in the SalahAPI 1.0 format (runtime/salahapi.py), and
``GET /v1/mosques/<id>/salahapi.csv``         its daily times in SalahAPI's CSV columns (file profiles too)

A body is checked by the reader of data/mosques files (`generator.prayer.mosques.parse`) and then by the
endpoints' own parse (`generator.api.mosque_list.check_one`, as the start-up check does) before
anything is stored: a refused profile is a 400 naming the field, never half-applied.  Bodies are
bounded (`MAX_BODY_BYTES`, 413).  Creation and edits are limited per client (the render limiter's
client identity, runtime/ratelimit.py `client_ip`): `CREATE_PER_HOUR` and `EDITS_PER_HOUR`
(env HOSTED_CREATES_PER_HOUR, HOSTED_EDITS_PER_HOUR), each a bucket of that many refilled over
an hour, answered 429 with Retry-After.  The buckets are kept in the profile store (`HourlyBucket`,
`mosque_store.Store.spend`), so a client's budget is the same whether its writes reach one app process or
several nodes (docs/decisions.md "Limits across nodes").

How a hosted profile is served (`find`, registered as generator.prayer.mosques' hosted reader): read from
the store and kept in this process at most `PROFILE_TTL_S` (an edit on this node forgets it at
once; another node behind the same PostgreSQL reads it again within that).  Answers involving a
hosted profile carry its version in their cache key (`variant`), are never read from the
pre-rendered static files, and are sent with `CACHE_CONTROL` (30 s): an edit is visible to any
client within PROFILE_TTL_S + 30 s, under a minute.

How a screen or widget follows an edit (docs/site.md "Following an edit"): its page carries the profile's
address and the version it was rendered with (generator/site/screen.py `profile_to_follow`); every 20 s
(screen_core.js `FOLLOW_MS`) it asks `read` with ``If-None-Match: "<version>"`` (304 while unchanged) and
reloads when a 200 carries another ETag, never on a 404 (deleted), a 5xx or a network error.  `read` asks the
store itself (no copy, ``no-cache``), so the question sees an edit by t + 20 s; the reload is rendered at once
here (`forget`) and within PROFILE_TTL_S (10 s) on another node, and a reload that reached a node with the old
copy names the old version, so the next question (20 s later) reloads it again: on the wall by t + 30 s at
most, plus a page load (~16 ms to render), well under a minute; 0-20 s on one node.

When the store is away (issue 34; runtime/store_access.py): nothing else waits on it.  The store is read off the
event loop, each read waited for at most ``MOSQUE_DB_WAIT_S``, by `refresh` before a request's synchronous code
asks `find` (which, on the event loop, only ever reads this process's copies).  This process keeps the last
version it saw of each profile (`_seen`: at most `MAX_KNOWN` profiles and `MAX_KNOWN_BYTES` of their bodies, the
least recently used dropped first; ids found absent are kept apart, so asking for random ids drops no profile):
while the store cannot answer, ``mosque=``, pages and screens of a profile seen here are answered from that copy;
one never seen here is a 503 with Retry-After (never "unknown mosque id"), and so is every route of this module
(507 for a write on a full disk).  ``MOSQUE_DB_URL=off``: this deployment hosts no profiles (their routes 404).
"""
from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import dataclasses
import functools
import logging
import math
import os
import re
import threading
import time
from typing import Iterable

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from generator.prayer import mosques
from generator.api import mosque_edits, mosque_list
from generator.api.endpoint import dumps
from generator.output.static_paths import content_hash
from generator.api import salahapi
from generator.site import urls
from runtime import mosque_store
from runtime.mosque_store import Forbidden, Stale
from runtime.store_access import Away, StoreAccess

log = logging.getLogger("runtime.hosted")

MAX_BODY_BYTES = mosque_edits.MAX_BODY_BYTES  # 64 KiB: a profile with a year of jamaatTable (32,000 characters) fits
PROFILE_TTL_S = float(os.environ.get("PROFILE_TTL_S", "10"))  # how long this process trusts its copy of a hosted profile (other nodes' edits)
CACHE_CONTROL = "public, max-age=30"  # answers of a hosted profile: an edit reaches browsers within 30 s more
CREATE_PER_HOUR = int(os.environ.get("HOSTED_CREATES_PER_HOUR", "10"))
EDITS_PER_HOUR = int(os.environ.get("HOSTED_EDITS_PER_HOUR", "120"))
PATH_PREFIX = "/v1/mosques"  # every route here (a browser's preflight there may ask for POST, PUT, DELETE)
MAX_KNOWN = 10_000  # profiles (and, apart, unknown ids) remembered in this process
MAX_KNOWN_BYTES = 64 * 1024 * 1024  # of those profiles' bodies (at most 64 KiB each): the last copies are bounded
# RFC 9110 §11.1: the scheme is case-insensitive (issue 34: a client library's "bearer" was refused); the token is not.
_BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9_-]{1,200})", re.ASCII)
_VERSION_TAG = re.compile(r'"([0-9]{1,9})"|([0-9]{1,9})', re.ASCII)
_WEAK_TAG = re.compile(r'W/"[^"]*"', re.ASCII)  # RFC 9110 §13.1.1: If-Match compares strongly, a weak tag never matches
_JSON_TYPES = ("application/json",)

_store: mosque_store.Store | None = None
_access: StoreAccess | None = None
# The last version seen of each profile: id → (fresh until, profile, its body's bytes), least recently used first.
_seen: collections.OrderedDict[str, tuple[float, mosques.Mosque, int]] = collections.OrderedDict()
_seen_bytes = 0
_missing: collections.OrderedDict[str, float] = collections.OrderedDict()  # ids the store had not: fresh until
_listed: tuple[float, list[mosques.Mosque]] | None = None
_lock = threading.Lock()
_touched: dict[str, str] = {}  # id -> the UTC day this process last noted its read (`_note_read`)
_noting = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="profile-read")


# ---------------------------------------------------------------- the store and the reader

def open_store(store: mosque_store.Store | None = None) -> mosque_store.Store | None:
    """Serve the profiles of ``store``, else of the store the environment names (MOSQUE_DB_URL, else the SQLite
    file; ``off``: none).  No I/O here: the store is opened and retried in the background (`StoreAccess`)."""
    global _store, _access, _listed
    _detach(close=False)  # a store given back later (tests) stays open; its old threads stop
    if store is None and os.environ.get("MOSQUE_DB_URL", "").strip().lower() == "off":
        log.warning("hosted mosque profiles: off (MOSQUE_DB_URL=off)")
        return None
    _store = store if store is not None else mosque_store.open_store()
    _access = StoreAccess(_store).start()
    _forget_all()
    _touched.clear()
    _listed = None
    mosques.set_hosted(find, listed)
    log.info("hosted mosque profiles: %s (opened in the background; each call waited for at most %g s)",
                _store.describe(), _access.wait_s)
    return _store


def _drain_notes(wait_s: float = 5.0) -> None:
    """Let the reads noted so far reach the store before it is closed or replaced (a note written after the
    store closed would open a connection nobody closes); a store that does not answer is not waited for longer."""
    try:
        _noting.submit(lambda: None).result(timeout=wait_s)
    except concurrent.futures.TimeoutError:
        log.warning("hosted profiles: reads not yet noted when the store closed")


def close_store() -> None:
    _detach(close=True)


def _detach(close: bool) -> None:
    global _store, _access
    _drain_notes()
    mosques.set_hosted(None)
    if _access is not None:
        _access.close(close_store=close)
    elif _store is not None and close:
        _store.close()
    _store, _access = None, None


def status() -> dict:
    """The store's state for /readyz: ``absent`` (deliberately: MOSQUE_DB_URL=off), ``opening``, ``ready`` or
    ``away``, with what it is and why."""
    if _access is None:
        return {"state": "absent", "store": None, "reason": "MOSQUE_DB_URL=off: no hosted profiles"}
    return {"state": _access.state, "store": _store.describe(), "reason": _access.reason}


async def check() -> dict:
    """`status` after one round trip to the store now (at most its wait)."""
    if _access is not None:
        with contextlib.suppress(Away):
            await _access.check()
    return status()


def _forget_all() -> None:
    global _seen_bytes
    with _lock:
        _seen.clear()
        _missing.clear()
        _seen_bytes = 0


def _remember(mosque_id: str, record: mosque_store.Record | None, fresh: bool = True) -> mosques.Mosque | None:
    """Keep what the store said of ``mosque_id``: its profile as the last copy, or that it has none (``fresh``
    False: a copy to fall back on, read again at the next request)."""
    global _seen_bytes
    fresh_until = time.monotonic() + PROFILE_TTL_S if fresh else 0.0
    mosque = None if record is None else _to_mosque(record)
    with _lock:
        old = _seen.pop(mosque_id, None)
        if old is not None:
            _seen_bytes -= old[2]
        _missing.pop(mosque_id, None)
        if mosque is None:
            _missing[mosque_id] = fresh_until
            while len(_missing) > MAX_KNOWN:
                _missing.popitem(last=False)
        else:
            size = len(record.body)
            _seen[mosque_id] = (fresh_until, mosque, size)
            _seen_bytes += size
            while len(_seen) > MAX_KNOWN or _seen_bytes > MAX_KNOWN_BYTES:
                _, (_, _, dropped) = _seen.popitem(last=False)
                _seen_bytes -= dropped
    return mosque


def _copy(mosque_id: str) -> tuple[bool, bool, mosques.Mosque | None]:
    """This process's copy of ``mosque_id``: (known at all, fresh, the profile or None)."""
    now = time.monotonic()
    with _lock:
        seen = _seen.get(mosque_id)
        if seen is not None:
            _seen.move_to_end(mosque_id)
            return True, seen[0] > now, seen[1]
        missing = _missing.get(mosque_id)
        return missing is not None, missing is not None and missing > now, None


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _to_mosque(record: mosque_store.Record) -> mosques.Mosque | None:
    if record.body is None:
        return None
    try:
        mosque = mosques.parse(orjson.loads(record.body), record.id, f"hosted {record.id}", record.version)
        return dataclasses.replace(mosque, listed=record.listed)
    except (mosques.ProfileError, orjson.JSONDecodeError) as error:  # a profile stored under older rules
        log.warning("hosted profile %s version %d no longer reads: %s", record.id, record.version, error)
        return None


def find(mosque_id: str) -> mosques.Mosque | None:
    """The hosted profile ``mosque_id`` as this process knows it (re-read after `PROFILE_TTL_S`).

    On the event loop only this process's copy is read (a request's `refresh` made it fresh before); in a worker
    thread a copy older than `PROFILE_TTL_S` is read again, waited for at most the store's wait.  While the store
    cannot answer: the last copy seen here, else None."""
    if _access is None or not mosques.ID.fullmatch(mosque_id):
        return None
    _, fresh, mosque = _copy(mosque_id)
    if fresh or _on_event_loop():
        return mosque
    try:
        record = _access.call_blocking(_store.get, mosque_id, key=("get", mosque_id))
    except Away:
        return mosque
    mosque = _remember(mosque_id, record)
    if mosque is not None:
        _note_read(mosque_id)
    return mosque


def _read_listed() -> list[mosques.Mosque]:
    return [m for m in map(_to_mosque, _store.listed()) if m is not None]


def _note_read(mosque_id: str) -> None:
    """Note in the store, once a UTC day per profile and process and off the caller's thread, that it was read:
    `mosque_store.Store.stale` lists the unlisted profiles nobody read for long (``mosque.py stale``, ``prune``)."""
    day = mosque_store.now_text()[:10]
    store = _store
    if store is None or _touched.get(mosque_id) == day:
        return
    with _lock:
        if len(_touched) >= MAX_KNOWN:
            _touched.clear()
        _touched[mosque_id] = day

    def note() -> None:
        try:
            store.touch(mosque_id, day)
        except Exception as error:  # a day's note lost: the profile looks a day older to `stale`, nothing more
            log.warning("hosted profile %s: its read was not noted: %s", mosque_id, error)
            _touched.pop(mosque_id, None)
    _noting.submit(note)


def listed() -> list[mosques.Mosque]:
    """The hosted profiles a maintainer listed (re-read after `PROFILE_TTL_S` off the event loop, as `find`)."""
    global _listed
    if _access is None:
        return []
    last = _listed
    if (last is not None and last[0] > time.monotonic()) or _on_event_loop():
        return [] if last is None else last[1]
    try:
        found = _access.call_blocking(_read_listed, key=("listed",))
    except Away:
        return [] if last is None else last[1]
    _listed = (time.monotonic() + PROFILE_TTL_S, found)
    return found


async def refresh(mosque_id: str | None) -> None:
    """Before a request's own code reads ``mosque_id`` (`find`, synchronously): this process's copy made fresh, read
    off the event loop and waited for at most the store's wait.  If the store cannot answer, the last copy stands;
    with none, `Away` (a 503 with Retry-After: never "unknown mosque id" for a profile that may exist)."""
    if (_access is None or not mosque_id or not mosques.ID.fullmatch(mosque_id)
            or mosque_id in mosques.by_id()):
        return
    known, fresh, _ = _copy(mosque_id)
    if fresh:
        return
    try:
        record = await _access.call(_store.get, mosque_id, key=("get", mosque_id))
    except Away:
        if known:
            return
        raise
    if _remember(mosque_id, record) is not None:
        _note_read(mosque_id)  # for `mosque.py stale`: once a UTC day per profile and process, off this thread


async def refresh_listed() -> None:
    """`refresh` for the listed profiles (/v1/mosques): the last list stands while the store cannot answer, and
    with none yet the list is the files' (the core's answer, not a 503; the hosted ones join when it answers)."""
    global _listed
    if _access is None or (_listed is not None and _listed[0] > time.monotonic()):
        return
    try:
        found = await _access.call(_read_listed, key=("listed",))
    except Away:
        return
    _listed = (time.monotonic() + PROFILE_TTL_S, found)


async def refresh_query(items: Iterable[tuple[str, str]], listing: bool = False) -> None:
    """`refresh` of a query's ``mosque`` (the last one given, as the query reader keeps one); ``listing``: and
    the listed profiles."""
    mosque_id = None
    for name, value in items:
        if name == "mosque":
            mosque_id = value
    await refresh(mosque_id)
    if listing:
        await refresh_listed()


def forget(mosque_id: str) -> None:
    """Make this process's copy stale after a save here: the next request reads the new version (and, if the store
    cannot answer then, still has this copy)."""
    global _listed
    with _lock:
        seen = _seen.get(mosque_id)
        if seen is not None:
            _seen[mosque_id] = (0.0, *seen[1:])
        _missing.pop(mosque_id, None)
    _listed = None


def variant(mosque_id: str | None) -> tuple | None:
    """What an answer about ``mosque_id`` must be keyed by besides its query: ("hosted", id, version, listed) for a hosted
    profile, None otherwise (a file profile, or none)."""
    if not mosque_id:
        return None
    mosque = mosques.find(mosque_id)
    return ("hosted", mosque.id, mosque.version, mosque.listed) if mosque is not None and mosque.hosted else None


def query_variant(items: Iterable[tuple[str, str]]) -> tuple | None:
    """`variant` of a query's ``mosque`` parameter (the last one given, as the query reader keeps one)."""
    mosque_id = None
    for name, value in items:
        if name == "mosque":
            mosque_id = value
    return variant(mosque_id)


def listing_variant() -> tuple | None:
    """/v1/mosques lists the listed hosted profiles too: its key carries their ids and versions."""
    hosted = listed()
    return ("listed", tuple((m.id, m.version) for m in hosted)) if hosted else None


# ---------------------------------------------------------------- rate limits

class HourlyBucket:
    """``per_hour`` actions per client, refilled continuously over an hour (0: no limit).

    ``action`` names a budget kept in the profile store (`mosque_store.Store.spend`): every app process and node on
    that store then counts one client once (issue 34: per process, N processes allowed N times the limit).  Without
    it (or with no store), the budget is this process's own (`admit`).  ``clock``: unix seconds (tests inject one)."""

    def __init__(self, per_hour: int, max_clients: int = 100_000, action: str | None = None, clock=time.time):
        self.per_hour, self.max_clients, self.action, self.clock = per_hour, max_clients, action, clock
        self._spent: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    async def spend(self, client: str) -> int | None:
        """Count one action of ``client`` where this budget is kept; the seconds to wait instead when none is left
        (`Away` when the store keeping it cannot answer: the write it guards could not be made either)."""
        if self.per_hour <= 0:
            return None
        if self.action is not None and _store is not None:
            return await _call(_store.spend, self.action, client, self.per_hour, self.clock())
        return self.admit(client, self.clock())

    def admit(self, client: str, now_s: float | None = None) -> int | None:
        """Count one action in this process; return the seconds to wait instead when the client has none left."""
        if self.per_hour <= 0:
            return None
        now_s = self.clock() if now_s is None else now_s
        rate_per_s = self.per_hour / 3600.0
        with self._lock:
            spent, as_of = self._spent.get(client, (0.0, now_s))
            level = max(0.0, spent - (now_s - as_of) * rate_per_s)
            if level + 1 > self.per_hour:
                return max(1, math.ceil((level + 1 - self.per_hour) / rate_per_s))
            if client not in self._spent and len(self._spent) >= self.max_clients:
                self._spent.clear()
            self._spent[client] = (level + 1, now_s)
            return None


creations = HourlyBucket(CREATE_PER_HOUR, action="create")  # kept in the store: shared by every process and node
edits = HourlyBucket(EDITS_PER_HOUR, action="edit")


# ---------------------------------------------------------------- HTTP

def _error(status: int, message: str, field: str | None = None, headers: dict | None = None,
           **extra) -> Response:
    body = {"error": f"{field}: {message}" if field else message, **extra}  # the API's 400: the field first
    return Response(dumps(body), status_code=status, media_type="application/json; charset=utf-8",
                    headers={"Cache-Control": "no-store", **(headers or {})})


def _json(status: int, body: dict, headers: dict | None = None) -> Response:
    return Response(dumps(body), status_code=status, media_type="application/json; charset=utf-8",
                    headers={"Cache-Control": "no-store", **(headers or {})})


_answer = None  # the app's answer(): cache, render pool, cost limit (`routes`)
_client_of = None  # the app's client identity (runtime/ratelimit.py client_ip under TRUSTED_PROXIES): `routes`


def _client(request: Request) -> str:
    return _client_of(request) if _client_of is not None else (request.client.host if request.client else "unknown")


class _Refused(Exception):
    def __init__(self, response: Response):
        self.response = response


async def _body(request: Request) -> bytes:
    """The request body, at most `MAX_BODY_BYTES` (413 beyond: Content-Length first, then as it arrives)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        raise _Refused(_error(413, f"a profile is at most {MAX_BODY_BYTES} bytes", "body")
                       if length.isdigit() else _error(400, "not a number of bytes", "Content-Length"))
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if kind not in _JSON_TYPES:
        raise _Refused(_error(415, "send the profile as application/json", "Content-Type"))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _Refused(_error(413, f"a profile is at most {MAX_BODY_BYTES} bytes", "body"))
        chunks.append(chunk)
    return b"".join(chunks)


def check_profile(body: bytes, mosque_id: str, *, new: bool = False) -> tuple[str, mosques.Mosque]:
    """Read a body as a profile of ``mosque_id``: (its compact JSON text, the profile); `mosques.ProfileError`
    (the field named) or ValueError (not JSON) when refused.  Runs in a worker thread.

    ``new``: a publish or an edit (not a restore of a stored version): a declared time outside its prayer's time
    then needs the committee's choice (issue 33, `mosque_list.check_outside_choice`, this year and the next)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as error:
        raise ValueError(f"not UTF-8 JSON ({str(error)[:120]})") from None
    mosque = mosques.parse(data, mosque_id, "body")
    mosque_list.check_one(mosque)
    if new:
        mosque_list.check_outside_choice(mosque, time.gmtime().tm_year)
    return orjson.dumps(data).decode("utf-8"), mosque


async def _checked(request: Request, mosque_id: str) -> str:
    body = await _body(request)
    try:
        text, _ = await run_in_threadpool(functools.partial(check_profile, body, mosque_id, new=True))
    except mosques.ProfileError as error:
        field = error.field if error.field != "file" else "body"
        # as a query's 400 (generator/errors.py as_json): the builder says it in its reader's language
        raise _Refused(_error(400, error.message, field, code=error.code, parameter=field,
                              args=error.arguments)) from None
    except ValueError as error:
        raise _Refused(_error(400, str(error), "body")) from None
    return text


def _secret(request: Request) -> str:
    header = request.headers.get("authorization")
    if header is None:
        raise _Refused(_error(401, "give the edit secret as Authorization: Bearer <secret>", "Authorization",
                              {"WWW-Authenticate": 'Bearer realm="mosques"'}))
    match = _BEARER.fullmatch(header.strip())
    if match is None:
        raise _Refused(_error(403, "not allowed", "Authorization"))  # says nothing about the profile
    return match.group(1)


def _if_match(request: Request) -> int:
    header = request.headers.get("if-match")
    if header is None:
        raise _Refused(_error(428, 'give the version you read as If-Match: "<version>" (the ETag of '
                                   'GET /v1/mosques/<id>)', "If-Match"))
    if _WEAK_TAG.fullmatch(header.strip()):
        raise _Refused(_error(412, 'a weak tag never matches (RFC 9110 strong comparison); give the ETag as read: '
                                   '"<version>"', "If-Match"))
    match = _VERSION_TAG.fullmatch(header.strip())
    if match is None:
        raise _Refused(_error(400, 'one version, as its ETag: "<number>"', "If-Match"))
    return int(match.group(1) or match.group(2))


async def _limit(bucket: HourlyBucket, request: Request, what: str) -> None:
    wait_s = await bucket.spend(_client(request))
    if wait_s is not None:
        raise _Refused(_error(429, f"more than {bucket.per_hour} {what} an hour from one client; retry in {wait_s} s",
                              headers={"Retry-After": str(wait_s)}))


def _id(request: Request) -> str:
    mosque_id = request.path_params["id"]
    if not mosques.ID.fullmatch(mosque_id):
        raise _Refused(_error(404, "no such mosque"))
    return mosque_id


def _store_or_refuse() -> mosque_store.Store:
    if _store is None:
        raise _Refused(_error(404, "this deployment hosts no mosque profiles"))
    return _store


def links(mosque_id: str) -> dict:
    own = f"mosque={mosque_id}"
    return {"profile": mosques.PROFILE_PATH.format(id=mosque_id), "page": mosques.PAGE_PATH.format(id=mosque_id),
            "screen": mosques.SCREEN_PATH.format(id=mosque_id), "widget": f"/widget/?{own}",
            "prayerTimes": f"/v1/prayer-times?{own}", "csv": f"/v1/prayer-times.csv?{own}",
            "ics": f"/v1/prayer-times.ics?{own}", "night": f"/v1/night.ics?{own}",
            "versions": f"/v1/mosques/{mosque_id}/versions", "salahapi": f"/v1/mosques/{mosque_id}/salahapi.json"}


def _handled(handler):
    async def respond(request: Request) -> Response:
        try:
            return await handler(request)
        except _Refused as refused:
            return refused.response
        except Forbidden:
            return _error(403, "not allowed")
        except mosque_store.CapReached as full:  # a global cap (mosque_store.Limits): the operator's to raise or prune
            log.warning("hosted profiles: a write refused: %s", full)
            return _error(507, str(full))
        except Away as away:  # the store cannot answer now: never a 500 (issue 34)
            return _error(507 if away.full and request.method not in ("GET", "HEAD") else 503, str(away),
                          headers={"Retry-After": str(away.retry_after_s)})
    return respond


async def _call(fn, *args):
    """``fn(*args)`` on the store, off the event loop and waited for at most the store's wait (`Away` after)."""
    access = _access
    if access is None:  # closed while the request ran (the app stopping)
        raise Away("the store is closed")
    return await access.call(fn, *args)


@_handled
async def create(request: Request) -> Response:
    store = _store_or_refuse()
    await _limit(creations, request, "new profiles")
    mosque_id = mosque_store.new_id()  # checked under a provisional id; the store draws the stored one
    text = await _checked(request, mosque_id)
    mosque_id, secret, version = await _call(store.create, text, mosques.by_id().__contains__)
    # This node has seen it: its pages answer from this copy even if the store goes away before they are asked.
    _remember(mosque_id, mosque_store.Record(mosque_id, version, text, False, mosque_store.now_text()), fresh=False)
    return _json(201, {"id": mosque_id, "version": version, "edit": secret, "listed": False,
                       "links": links(mosque_id)},
                 {"ETag": f'"{version}"', "Location": f"/v1/mosques/{mosque_id}"})


def _file_bytes(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


@_handled
async def read(request: Request) -> Response:
    mosque_id = _id(request)
    file_profile = mosques.by_id().get(mosque_id)
    if file_profile is not None:  # read-only: its bytes, their hash as the ETag
        body = await run_in_threadpool(_file_bytes, file_profile.path)
        etag, cache = f'"{content_hash(body)}"', "no-cache"
    else:
        store = _store_or_refuse()
        record = await _access.call(store.get, mosque_id, key=("get", mosque_id))  # polls at once share one read
        _remember(mosque_id, record)
        if record is None or record.body is None:
            return _error(404, "no such mosque")
        _note_read(mosque_id)  # a screen's question counts as a read (`stale`)
        body, etag, cache = record.body.encode("utf-8"), f'"{record.version}"', "no-cache"
    headers = {"ETag": etag, "Cache-Control": cache}
    tags = [t.strip() for t in request.headers.get("if-none-match", "").split(",")]
    if etag in tags or "*" in tags:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json; charset=utf-8", headers=headers)


async def _save(request: Request, mosque_id: str, text: str | None) -> Response:
    store = _store_or_refuse()
    secret, expected = _secret(request), _if_match(request)
    try:
        version = await _call(store.save, mosque_id, secret, expected, text)
    except Stale as stale:
        return _error(409, f"the profile is at version {stale.current} now; read it again and repeat the edit "
                           f"(If-Match: \"{stale.current}\")", "If-Match", {"ETag": f'"{stale.current}"'},
                      version=stale.current)
    except KeyError:
        return _error(404, "no such mosque")
    forget(mosque_id)
    listed_before = _copy(mosque_id)[2]
    _remember(mosque_id, None if text is None else mosque_store.Record(
        mosque_id, version, text, bool(listed_before and listed_before.listed), mosque_store.now_text()), fresh=False)
    return _json(200, {"id": mosque_id, "version": version, **({"links": links(mosque_id)} if text else {}),
                       **({"deleted": True} if text is None else {})}, {"ETag": f'"{version}"'})


async def _editable(request: Request) -> str:
    """The id of an edit (PUT, DELETE), charged to the client's edits; a file profile's is never editable."""
    mosque_id = _id(request)
    await _limit(edits, request, "edits")
    if mosque_id in mosques.by_id():
        raise Forbidden()
    return mosque_id


@_handled
async def update(request: Request) -> Response:
    mosque_id = await _editable(request)
    _secret(request)  # both headers are checked before the body is read
    _if_match(request)
    return await _save(request, mosque_id, await _checked(request, mosque_id))


@_handled
async def delete(request: Request) -> Response:
    return await _save(request, await _editable(request), None)


def _version_number(request: Request) -> int:
    text = request.path_params["n"]
    if not text.isdigit() or len(text) > 9:
        raise _Refused(_error(404, "no such version"))
    return int(text)


@_handled
async def versions(request: Request) -> Response:
    mosque_id = _id(request)
    await _limit(edits, request, "edits")
    store = _store_or_refuse()
    found = await _call(store.versions, mosque_id, _secret(request))
    return _json(200, {"id": mosque_id, "versions": found})


@_handled
async def version(request: Request) -> Response:
    mosque_id, number = _id(request), _version_number(request)
    await _limit(edits, request, "edits")
    store = _store_or_refuse()
    try:
        body = await _call(store.version_body, mosque_id, _secret(request), number)
    except KeyError:
        return _error(404, "no such version")
    if body is None:
        return _json(200, {"id": mosque_id, "version": number, "deleted": True})
    return Response(body.encode("utf-8"), media_type="application/json; charset=utf-8",
                    headers={"Cache-Control": "no-store", "ETag": f'"{number}"'})


@_handled
async def restore(request: Request) -> Response:
    mosque_id, number = _id(request), _version_number(request)
    await _limit(edits, request, "edits")
    store = _store_or_refuse()
    secret, _ = _secret(request), _if_match(request)
    try:
        body = await _call(store.version_body, mosque_id, secret, number)
    except KeyError:
        return _error(404, "no such version")
    if body is None:
        return _error(400, f"version {number} is a deletion; restore a version with a profile", "version")
    try:  # the rules may have moved since: a version is restored only if it reads today
        text, _ = await run_in_threadpool(check_profile, body.encode("utf-8"), mosque_id)
    except mosques.ProfileError as error:
        return _error(400, f"version {number} no longer reads: {str(error).split(': ', 2)[-1]}", error.field)
    return await _save(request, mosque_id, text)


# ---------------------------------------------------------------- edit links (issue 34)

def _link_name(request: Request) -> str:
    name = request.path_params["name"]
    if not mosque_store.LINK_NAME.fullmatch(name):
        raise _Refused(_error(404, "no such link"))
    return name


@_handled
async def list_links(request: Request) -> Response:
    """``GET /v1/mosques/<id>/links``: the names of the profile's edit links and which one this secret is."""
    mosque_id = _id(request)
    await _limit(edits, request, "edits")
    store = _store_or_refuse()
    mine, found = await _call(store.links, mosque_id, _secret(request))
    return _json(200, {"id": mosque_id, "you": mine, "links": found})


async def _json_body(request: Request) -> dict:
    body = await _body(request)
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise _Refused(_error(400, "not UTF-8 JSON", "body")) from None
    if not isinstance(data, dict) or set(data) - {"name"} or not isinstance(data.get("name"), str):
        raise _Refused(_error(400, 'a JSON object {"name": "<the link\'s name>"}', "body"))
    return data


@_handled
async def add_link(request: Request) -> Response:
    """``POST /v1/mosques/<id>/links`` ``{"name": "treasurer"}``: a new named edit link, its secret shown this once."""
    mosque_id = _id(request)
    await _limit(edits, request, "edits")
    store = _store_or_refuse()
    secret = _secret(request)
    name = (await _json_body(request))["name"]
    try:
        new = await _call(store.add_link, mosque_id, secret, name)
    except ValueError as error:  # `mosque_store.Conflict` (taken, too many): 409; a malformed name: 400
        return _error(409 if isinstance(error, mosque_store.Conflict) else 400, str(error).partition(": ")[2], "name")
    return _json(201, {"id": mosque_id, "name": name, "edit": new})


@_handled
async def revoke_link(request: Request) -> Response:
    """``DELETE /v1/mosques/<id>/links/<name>``: that link opens nothing any more (never the last one: 409)."""
    mosque_id, name = _id(request), _link_name(request)
    await _limit(edits, request, "edits")
    store = _store_or_refuse()
    try:
        await _call(store.revoke_link, mosque_id, name, _secret(request))
    except KeyError:
        return _error(404, "no such link")
    except mosque_store.Conflict as error:
        return _error(409, str(error).partition(": ")[2], "name")
    return _json(200, {"id": mosque_id, "revoked": name})


@_handled
async def rotate(request: Request) -> Response:
    """``POST /v1/mosques/<id>/rotate``: a new secret for the link presented; the old secret opens nothing."""
    mosque_id = _id(request)
    await _limit(edits, request, "edits")
    store = _store_or_refuse()
    name, new = await _call(store.rotate, mosque_id, _secret(request))
    return _json(200, {"id": mosque_id, "name": name, "edit": new})


async def _profile_for_salahapi(mosque_id: str) -> mosques.Mosque:
    await refresh(mosque_id)
    mosque = mosques.find(mosque_id) if mosques.ID.fullmatch(mosque_id) else None
    if mosque is None:
        raise _Refused(_error(404, "no such mosque"))
    return mosque


@_handled
async def salahapi_document(request: Request) -> Response:
    mosque = await _profile_for_salahapi(request.path_params["id"])
    label = str(mosque.version) if mosque.hosted else content_hash(await run_in_threadpool(_file_bytes, mosque.path))
    body = await run_in_threadpool(salahapi.document, mosque, urls.absolute(""), label)
    return Response(body, media_type="application/json; charset=utf-8",
                    headers={"ETag": f'"{content_hash(body)}"',
                             "Cache-Control": CACHE_CONTROL if mosque.hosted else "public, max-age=3600"})


@_handled
async def salahapi_csv(request: Request) -> Response:
    """Rendered like an API answer (`_answer`, the app's): cached, in the render pool, charged to the client."""
    mosque = await _profile_for_salahapi(request.path_params["id"])
    try:
        plan = await run_in_threadpool(salahapi.plan_csv, mosque, request.query_params.get("fromDate"),
                                       request.query_params.get("toDate"), time.time())
    except salahapi.BadRange as error:
        return _error(400, error.message, error.field)
    key = ("salahapi.csv", plan, variant(mosque.id))
    cost = ("prayer-times", dict(plan.years[0]))  # about a year of one method's times (runtime/ratelimit.py)
    return await _answer(request, key, None, lambda: salahapi.csv(plan), "text/csv; charset=utf-8",
                         CACHE_CONTROL if mosque.hosted else "public, max-age=3600", cost)


def routes(client_of, answer) -> list[Route]:
    """The hosted profiles' routes (before the app's: ``/v1/{base}/{file}`` would take ``/v1/mosques/<id>``);
    ``client_of(request)``: the client a request counts against (the app's rate-limit identity); ``answer``: the
    app's cache → render pool path (runtime/app.py `answer`)."""
    global _client_of, _answer
    _client_of, _answer = client_of, answer
    base = PATH_PREFIX
    return [Route(base, create, methods=["POST"]),
            Route(base + "/{id}/salahapi.json", salahapi_document, methods=["GET", "HEAD"]),
            Route(base + "/{id}/salahapi.csv", salahapi_csv, methods=["GET", "HEAD"]),
            Route(base + "/{id}/versions", versions, methods=["GET", "HEAD"]),
            Route(base + "/{id}/versions/{n}", version, methods=["GET", "HEAD"]),
            Route(base + "/{id}/versions/{n}/restore", restore, methods=["POST"]),
            Route(base + "/{id}/links", list_links, methods=["GET", "HEAD"]),
            Route(base + "/{id}/links", add_link, methods=["POST"]),
            Route(base + "/{id}/links/{name}", revoke_link, methods=["DELETE"]),
            Route(base + "/{id}/rotate", rotate, methods=["POST"]),
            Route(base + "/{id}", read, methods=["GET", "HEAD"]),
            Route(base + "/{id}", update, methods=["PUT"]),
            Route(base + "/{id}", delete, methods=["DELETE"])]
