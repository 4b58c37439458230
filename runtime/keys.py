"""Optional app keys (issue 35): an app sends ``X-API-Key: <key>`` and spends its own budget of cost units a
minute instead of its users' address's (carrier NAT puts hundreds of phones behind one address at iftar).

No account and no sign-up page: the operator issues a key from the command line and hands it over::

    python -m runtime.keys issue --name myapp --budget 1000   # prints the key once
    python -m runtime.keys list
    python -m runtime.keys revoke --name myapp

Storage: a small JSON file, ``APP_KEYS_PATH`` (default ``var/app_keys.json``), mode 0600, written whole
to a temporary file and renamed (a reader never sees half a file).  Only the SHA-256 of each key is
kept: a key is 32 random bytes (256 bits), so a fast hash is as safe as a slow one (no guessing can
reach it) and a stolen file gives no key.  A file rather than the profile store's database: a key
check is on the path of every keyed answer and must cost a dictionary lookup, the list is a handful
of rows an operator edits by command, and a file is copied to every node with the build (the
database is for what mosques write).  The running app reads the file again within a second of a change
(`KeyStore.lookup`), so issuing or revoking needs no restart.

In the app (runtime/app.py): `AppKeys` refuses an unknown key (401, so a typo is never silently the
address's budget) and marks the request with its key's name; the client of a keyed request is
``key:<name>`` in the rate limiter (`KeyedLimiter`): its own token bucket of ``budget`` units a minute,
shown in the same ``RateLimit-Policy`` / ``RateLimit`` fields.  Budget 0 is unlimited.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import secrets
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from starlette.types import ASGIApp, Receive, Scope, Send

from runtime.ratelimit import RateLimiter

DEFAULT_PATH = Path("var") / "app_keys.json"
HEADER = b"x-api-key"
SCOPE_KEY = "app_key"  # the request scope's entry: the client id "key:<name>" of a keyed request
KEY_PREFIX = "stk_"  # so a key in a log or a paste is recognisable
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)
MAX_KEY_CHARS = 100
RELOAD_EVERY_S = 1.0


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class AppKey:
    name: str
    sha256: str
    budget: int  # cost units a minute; 0 = unlimited
    issued: str

    @property
    def client(self) -> str:
        return "key:" + self.name


def path_from_env() -> Path:
    return Path(os.environ.get("APP_KEYS_PATH") or DEFAULT_PATH)


def read_keys(path: Path) -> list[AppKey]:
    """The keys in ``path`` (none when there is no file)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    return [AppKey(item["name"], item["sha256"], int(item["budget"]), item["issued"]) for item in raw["keys"]]


def write_keys(path: Path, keys: list[AppKey]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"keys": [key.__dict__ for key in keys]}, indent=1) + "\n"
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".app_keys.")
    try:
        os.fchmod(handle, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(body)
        os.replace(temporary, path)
    except BaseException:
        with_suppressed_unlink(temporary)
        raise


def with_suppressed_unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def issue(path: Path, name: str, budget: int) -> str:
    """Add a key named ``name`` with ``budget`` units a minute; return the key (shown once, never stored)."""
    if not NAME.fullmatch(name):
        raise ValueError("--name: letters, digits, - and _ (at most 64)")
    if budget < 0:
        raise ValueError("--budget: a whole number of cost units a minute, 0 for unlimited")
    keys = read_keys(path)
    if any(key.name == name for key in keys):
        raise ValueError(f"--name: {name} has a key already (revoke it first)")
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    issued = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    write_keys(path, [*keys, AppKey(name, digest(key), budget, issued)])
    return key


def revoke(path: Path, name: str) -> bool:
    keys = read_keys(path)
    kept = [key for key in keys if key.name != name]
    if len(kept) == len(keys):
        return False
    write_keys(path, kept)
    return True


class KeyStore:
    """The keys of a file, by SHA-256, read again when the file changes (at most once a second)."""

    def __init__(self, path: Path, clock=time.monotonic):
        self.path = path
        self._clock = clock
        self._by_digest: dict[str, AppKey] = {}
        self._by_name: dict[str, AppKey] = {}
        self._signature: tuple | None = None
        self._checked_at = -RELOAD_EVERY_S
        self._lock = threading.Lock()

    def _refresh(self) -> None:
        now = self._clock()
        if now - self._checked_at < RELOAD_EVERY_S:
            return
        with self._lock:
            self._checked_at = now
            try:
                stat = self.path.stat()
                signature = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
            except FileNotFoundError:
                signature = None
            if signature == self._signature:
                return
            keys = read_keys(self.path) if signature is not None else []
            self._by_digest = {key.sha256: key for key in keys}
            self._by_name = {key.name: key for key in keys}
            self._signature = signature

    def lookup(self, key: str) -> AppKey | None:
        self._refresh()
        return self._by_digest.get(digest(key))

    def by_name(self, name: str) -> AppKey | None:
        self._refresh()
        return self._by_name.get(name)


def processes_from_env(text: str | None = None) -> int:
    """Read APP_PROCESSES: how many app processes share the traffic (behind nginx: as many as its upstreams)."""
    text = os.environ.get("APP_PROCESSES", "1") if text is None else text
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise ValueError("APP_PROCESSES: the number of app processes behind the load balancer, 1 to 1000; "
                         f"got {text[:20]!r}")
    return int(text)


class KeyedLimiter:
    """The address limiter for addresses, and one bucket of its key's budget for each keyed client.

    A key's budget is the whole service's: nginx does not count keyed requests (deploy/nginx.conf), and a bucket
    here is per process, so each of ``processes`` processes keeps its share, ``ceil(budget / processes)`` (nginx
    spreads a client's requests round-robin: N processes had allowed a key N times its budget, issue 34)."""

    def __init__(self, addresses: RateLimiter, store: KeyStore, processes: int = 1):
        self.addresses = addresses
        self.store = store
        self.processes = processes
        self._keyed: dict[str, RateLimiter] = {}
        self._lock = threading.Lock()

    @property
    def per_minute(self) -> int:
        return self.addresses.per_minute

    def of(self, client: str) -> RateLimiter:
        if not client.startswith("key:"):
            return self.addresses
        key = self.store.by_name(client[4:])
        # revoked meanwhile: as an address; budget 0 (unlimited) stays 0
        budget = -(-key.budget // self.processes) if key is not None else self.addresses.per_minute
        with self._lock:
            limiter = self._keyed.get(client)
            if limiter is None or limiter.per_minute != budget:
                limiter = self._keyed[client] = RateLimiter(budget)
            return limiter

    def admit(self, client: str, units: int = 1, now_s: float | None = None) -> int | None:
        return self.of(client).admit(client, units, now_s)

    def settle(self, client: str, charged_units: int, cpu_s: float | None, now_s: float | None = None) -> None:
        self.of(client).settle(client, charged_units, cpu_s, now_s)

    def headers(self, client: str, now_s: float | None = None) -> dict[str, str]:
        return self.of(client).headers(client, now_s)


def budget_of(limiter, client: str) -> int:
    """The cost units a minute ``client`` may spend (a plain RateLimiter: its one budget)."""
    return limiter.of(client).per_minute if isinstance(limiter, KeyedLimiter) else limiter.per_minute


class AppKeys:
    """ASGI: a request with ``X-API-Key`` is marked with its key's client id (``scope["app_key"]``), or
    refused with 401 when the key is unknown or revoked."""

    def __init__(self, app: ASGIApp, store: KeyStore):
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            raw = next((value for name, value in scope["headers"] if name == HEADER), None)
            if raw is not None:
                key = self.store.lookup(raw.decode("latin-1").strip()) if len(raw) <= MAX_KEY_CHARS else None
                if key is None:
                    body = b'{"error":"X-API-Key: unknown or revoked key (leave the header out to use the address\'s limit)"}'
                    await send({"type": "http.response.start", "status": 401,
                                "headers": [(b"content-type", b"application/json; charset=utf-8"),
                                            (b"cache-control", b"no-store"),
                                            (b"content-length", str(len(body)).encode())]})
                    await send({"type": "http.response.body", "body": body})
                    return
                scope[SCOPE_KEY] = key.client  # in place: the outer layers (CORS's rate-limit fields) read it
        await self.app(scope, receive, send)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m runtime.keys", description="Issue, list or revoke app keys.")
    parser.add_argument("--path", type=Path, default=None, help="the keys file (default APP_KEYS_PATH or var/app_keys.json)")
    commands = parser.add_subparsers(dest="command", required=True)
    issuing = commands.add_parser("issue", help="issue a key and print it (once)")
    issuing.add_argument("--name", required=True)
    issuing.add_argument("--budget", type=int, required=True, help="cost units a minute (0: unlimited)")
    commands.add_parser("list", help="names, budgets and dates (never the keys)")
    revoking = commands.add_parser("revoke", help="revoke a key by name")
    revoking.add_argument("--name", required=True)
    arguments = parser.parse_args(argv)
    path = arguments.path or path_from_env()
    try:
        if arguments.command == "issue":
            print(issue(path, arguments.name, arguments.budget))
        elif arguments.command == "list":
            for key in read_keys(path):
                print(f"{key.name}\t{key.budget}\t{key.issued}")
        elif not revoke(path, arguments.name):
            print(f"--name: no key named {arguments.name}", file=sys.stderr)
            return 1
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
