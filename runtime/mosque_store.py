"""Hosted mosque profiles (issue 27): one storage interface, SQLite by default, PostgreSQL when asked.

A hosted profile is a profile in the data/mosques format (generator/prayer/mosques.py) that a mosque
published through the API (runtime/hosted.py) rather than a file the maintainers added.  It is
kept as a sequence of numbered versions; every save appends one (nothing is overwritten), so an
edit link can list and restore them:

``mosques``   one row per profile: ``id``, ``salt`` and ``secret_hash`` (SHA-256 of salt + edit
              secret: the secret itself is never stored), ``current`` (its latest version number),
              ``listed`` (0 until a maintainer lists it: ``python mosque.py list <id>``), ``created``, ``read_day``
              (the UTC day a node last read it, YYYY-MM-DD, at most one write a day: `touch`; NULL before).
``links``     the other edit links (issue 34: a second committee member): ``id``, ``name``, ``salt``,
              ``secret_hash``, ``created``.  The first link, named "first", is ``mosques``' secret; a revoked
              first link has an empty hash (nothing matches it).  Any link may rotate its own secret, add a named
              link and revoke any other; the last link is never revoked (``mosque.py link`` issues one).
``budgets``   the per-client budgets of writes (issue 34: one client's creations and edits counted once whichever
              app process or node they reach): ``action`` (``create``, ``edit``), ``client`` (an address, an IPv6
              client's /64), ``spent`` (actions not yet refilled, as of) ``as_of`` (unix seconds); `spend`.
``versions``  one row per save: ``id``, ``version`` (1, 2, …), ``saved`` (UTC, ISO 8601 seconds) and
              ``body``: the profile as compact JSON text, or NULL for a deletion (the profile is
              gone while its latest version is one; restoring an older version brings it back).

A save is one transaction: the new version row and the move of ``current`` commit together or not
at all, and ``current`` moves only from the version the editor read (``If-Match``), so a kill
leaves the old version or the new one, never a mix, and of two editors the second is told
(`Stale`) instead of overwriting.

Where: ``MOSQUE_DB_URL=postgresql://…`` (several app nodes behind a load balancer share it;
psycopg 3), else the SQLite file ``MOSQUE_DB_PATH`` (default ``var/mosques.sqlite3`` beside the
code, created with its directory on first use; WAL journal, so readers never wait for a writer).

Issue 34: the store never holds up its caller for long and never fails at opening.  Opening does no I/O; the
schema is made on first use (`ensure_ready`), retried by whoever asks next.  Every wait is bounded: by
``MOSQUE_DB_TIMEOUT_S`` (default 1.5 s) PostgreSQL's ``statement_timeout`` and the wait for a pooled connection
(libpq's ``connect_timeout``: 2 s, its minimum); SQLite's busy timeout by `SQLITE_BUSY_S`.  PostgreSQL connections come from one
`psycopg_pool.ConnectionPool` per process, at most ``MOSQUE_DB_POOL`` (default 4) connections, each checked
before use (a restart costs no request) and kept alive by TCP keepalives (a dead peer is noticed in ~25 s).
A database that cannot answer (gone, hung, read-only, locked, full) is `Unavailable`, never a driver error:
callers answer 503 with Retry-After (runtime/hosted.py).  A hung server is bounded by the caller's wait
(runtime/store_access.py): ``statement_timeout`` is enforced by the server itself, so a stopped one never says so.
"""
from __future__ import annotations

import abc
import contextlib
import hashlib
import math
import hmac
import os
import re
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Iterator

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SQLITE_PATH = ROOT / "var" / "mosques.sqlite3"
SECRET_BYTES = 32  # 256 bits of `secrets.token_urlsafe` (the issue asks ≥ 128)
SALT_BYTES = 16
ID_BYTES = 8  # 64 random bits: an unlisted profile's address is not guessed
EXPORT_FORMAT = "shia-times hosted mosques 1"
TIMEOUT_S = float(os.environ.get("MOSQUE_DB_TIMEOUT_S", "1.5"))  # PostgreSQL: the longest a statement runs
# SQLite: the longest a write waits for another connection's lock (two app processes, `mosque.py` beside the app):
# a writer's fsync on a loaded disk can hold it for seconds, and a wait here never holds up a request (the caller
# stops waiting after MOSQUE_DB_WAIT_S: runtime/store_access.py), only one of the store's threads.
SQLITE_BUSY_S = 10.0
POOL_SIZE = int(os.environ.get("MOSQUE_DB_POOL", "4"))  # PostgreSQL connections per process, at most
RETRY_AFTER_S = 5  # what a 503 of an unavailable store tells the client (runtime/hosted.py)
# libpq's keepalives: a peer gone without a word (a crashed host, a partition) is given up after
# idle + interval × count = 10 + 5 × 3 = 25 s instead of the kernel's two hours.
KEEPALIVE = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3}
SCHEMA_LOCK_KEY = 0x5348_4941_5453  # "SHIATS": the PostgreSQL advisory lock the processes making the schema take in turn
PRIVATE_MODE = 0o600  # the SQLite file and the exports: unlisted addresses and salted hashes (`create_private`)

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS mosques (
         id TEXT PRIMARY KEY,
         salt TEXT NOT NULL,
         secret_hash TEXT NOT NULL,
         current INTEGER NOT NULL,
         listed INTEGER NOT NULL DEFAULT 0,
         created TEXT NOT NULL,
         read_day TEXT)""",
    """CREATE TABLE IF NOT EXISTS versions (
         id TEXT NOT NULL REFERENCES mosques(id) ON DELETE CASCADE,
         version INTEGER NOT NULL,
         saved TEXT NOT NULL,
         body TEXT,
         PRIMARY KEY (id, version))""",
    """CREATE TABLE IF NOT EXISTS links (
         id TEXT NOT NULL REFERENCES mosques(id) ON DELETE CASCADE,
         name TEXT NOT NULL,
         salt TEXT NOT NULL,
         secret_hash TEXT NOT NULL,
         created TEXT NOT NULL,
         PRIMARY KEY (id, name))""",
    # Per-client budgets of writes shared by every app process and node on this store (issue 34; `spend`).
    """CREATE TABLE IF NOT EXISTS budgets (
         action TEXT NOT NULL,
         client TEXT NOT NULL,
         spent DOUBLE PRECISION NOT NULL,
         as_of DOUBLE PRECISION NOT NULL,
         PRIMARY KEY (action, client))""",
)
BUDGET_WINDOW_S = 3600.0  # a budget of N actions refills N an hour (runtime/hosted.py HOSTED_CREATES_PER_HOUR …)
PRUNE_BUDGETS_EVERY = 256  # spends per process between two removals of the budgets that have refilled
FIRST_LINK = "first"  # the name of the edit link a profile is published with (its secret in ``mosques``)
MAX_LINKS = 10  # edit links per profile, the first included
LINK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}", re.ASCII)  # a committee member's link: "treasurer"


class Stale(Exception):
    """The profile moved on since the editor read it (or is gone): ``current`` is its version now."""

    def __init__(self, current: int | None):
        super().__init__(f"current version {current}")
        self.current = current


class Forbidden(Exception):
    """No such profile, or the wrong secret (the two are not told apart)."""


class Unavailable(Exception):
    """The database cannot answer now; ``away``: it cannot be reached or opened at all (gone, hung, a read-only or
    missing folder), else this one operation was refused (a lock held too long).  A write that raised it may or
    may not have committed (its acknowledgement may be what was lost): repeating it with If-Match is safe."""

    def __init__(self, reason: str, away: bool = True):
        super().__init__(reason)
        self.away = away


class Full(Unavailable):
    """The disk (or SQLite's page limit) is full: nothing was written; reads still work."""

    def __init__(self, reason: str):
        super().__init__(reason, away=False)


class Conflict(ValueError):
    """An edit-link change the profile's links refuse (a name taken, too many, the last one): HTTP 409."""


class CapReached(Exception):
    """A global cap is reached (`Limits`): the write is refused, nothing is stored (HTTP 507).  Not `Unavailable`:
    the store answered, and a retry will not help until the operator raises the cap or prunes."""


@dataclass(frozen=True)
class Limits:
    """Global caps (issue 34: one /64 created 6,788 profiles, 448 MB, in 20 s, and every version was kept for ever).

    ``profiles``: profiles in the database (deleted ones too, until `prune` or ``mosque.py delete``), beyond which a
    creation is refused; ``versions``: versions kept per profile, the newest (older ones are removed as a save adds
    one, so a profile never holds more than ``versions`` × 64 KiB); ``database_bytes``: the database's used size
    beyond which creations and edits are refused (deletions never are).  0 turns a cap off.  Environment:
    HOSTED_MAX_PROFILES, HOSTED_MAX_VERSIONS, HOSTED_MAX_DATABASE_MB (docs/mosques.md)."""

    profiles: int = 10_000
    versions: int = 20
    database_bytes: int = 2048 * 2**20

    @classmethod
    def from_env(cls, env=None) -> "Limits":
        env = os.environ if env is None else env
        values = {}
        for name, field, scale in (("HOSTED_MAX_PROFILES", "profiles", 1), ("HOSTED_MAX_VERSIONS", "versions", 1),
                                   ("HOSTED_MAX_DATABASE_MB", "database_bytes", 2**20)):
            text = env.get(name, "")
            if text:
                if not text.isdigit():
                    raise ValueError(f"{name}: a whole number (0: no cap); got {text[:20]!r}")
                values[field] = int(text) * scale
        return cls(**values)


@dataclass(frozen=True)
class Record:
    """A profile's current state: ``body`` None when its latest version is a deletion."""

    id: str
    version: int
    body: str | None
    listed: bool
    saved: str


def now_text() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def new_id() -> str:
    """A random id of ``[a-z0-9]`` (13 characters of base 32: 64 bits), within generator.prayer.mosques.ID."""
    alphabet = "abcdefghijklmnopqrstuvwxyz234567"
    number = int.from_bytes(secrets.token_bytes(ID_BYTES), "big")
    return "".join(alphabet[(number >> (5 * k)) & 31] for k in range(13))


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def secret_hash(salt: str, secret: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt) + secret.encode("utf-8")).hexdigest()


def secret_matches(salt: str, stored_hash: str, secret: str) -> bool:
    """Constant time in the secret's content (`hmac.compare_digest` of the two hashes)."""
    return hmac.compare_digest(secret_hash(salt, secret), stored_hash)


class Store(abc.ABC):
    """The storage interface; `SqliteStore` and `PostgresStore` differ only in how they connect and lock."""

    placeholder = "?"
    remote = False  # a database over a network, which can hang without a word (a stopped host, a partition)

    # -- connection: one per thread (SQLite), or borrowed from a pool (PostgreSQL: `_borrow`) --
    def __init__(self):
        self.limits = Limits.from_env()  # the global caps (a test or the operator's command may set others)
        self._local = threading.local()
        self._opened: list = []  # every thread's connection, closed by `close`
        self._opened_lock = threading.Lock()
        self._ready = False  # the schema is there (`ensure_ready`)
        self._ready_lock = threading.Lock()
        self._spends = 0  # `spend` calls in this process (every `PRUNE_BUDGETS_EVERY`th prunes)

    @abc.abstractmethod
    def _connect(self): ...

    @contextlib.contextmanager
    def _borrow(self):
        """The connection this thread works with, kept for its next call (a pool lends one instead)."""
        yield self._connection()

    @abc.abstractmethod
    def _unavailable(self, error: Exception) -> Unavailable | None:
        """``error`` as `Unavailable` when it says the database cannot answer (None: a defect, raised as it is)."""

    @abc.abstractmethod
    def _transaction(self, connection): ...

    def _connection(self):
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._local.connection = self._connect()
            with self._opened_lock:
                self._opened.append(connection)
        return connection

    def _drop_connection(self) -> None:
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            with self._opened_lock:
                if connection in self._opened:
                    self._opened.remove(connection)
            self._close(connection)

    @staticmethod
    def _close(connection) -> None:
        try:
            connection.close()
        except Exception:  # a broken connection may fail to close: it is dropped either way
            pass

    def _sql(self, text: str) -> str:
        return text.replace("?", self.placeholder)

    def _run(self, work, write: bool = False, schema: bool = True):
        """Run ``work(cursor)`` in one transaction (committed when it returns, rolled back if it raises).

        A connection the database dropped (a restart, a fail-over) is replaced and the work run once more: the
        failed transaction was rolled back, so running it again is safe (a save that did commit before the
        connection broke is then refused as `Stale`, never written twice)."""
        if schema:
            self.ensure_ready()
        for attempt in (1, 2):
            try:
                with self._borrow() as connection, self._transaction(connection, write) as cursor:
                    return work(cursor)
            except (Stale, Forbidden, KeyError, ValueError, Unavailable, CapReached):
                raise
            except Exception as error:
                self._drop_connection()  # a broken connection is not kept for the next request
                if attempt == 2 or not self._lost(error):
                    unavailable = self._unavailable(error)
                    if unavailable is None:
                        raise
                    raise unavailable from error

    def _lost(self, error: Exception) -> bool:
        """Whether ``error`` says the connection is gone (worth one more try on a new one)."""
        return False

    def _used_bytes(self, cursor) -> int:
        """The database's used size in bytes (each kind of database says how)."""
        return 0

    def _check_room(self, cursor, creating: bool) -> None:
        """`CapReached` when a cap refuses this write: the database's size (creations and edits), the profiles (creations)."""
        limits = self.limits
        if limits.database_bytes and self._used_bytes(cursor) >= limits.database_bytes:
            raise CapReached(f"the service's profile database is full ({limits.database_bytes // 2**20} MB, "
                       f"HOSTED_MAX_DATABASE_MB); nothing was saved: tell the service's operator")
        if creating and limits.profiles and \
                self._one(cursor, "SELECT COUNT(*) FROM mosques")[0] >= limits.profiles:
            raise CapReached(f"the service holds as many profiles as it may ({limits.profiles}, HOSTED_MAX_PROFILES); "
                       f"nothing was saved: tell the service's operator")

    def _keep_newest(self, cursor, mosque_id: str, newest: int) -> None:
        """Remove the versions older than the newest `Limits.versions` (the bounded history)."""
        if self.limits.versions:
            cursor.execute(self._sql("DELETE FROM versions WHERE id = ? AND version <= ?"),
                           (mosque_id, newest - self.limits.versions))

    def size(self) -> dict:
        """What the caps read: {"profiles", "versions", "bytes"} (``mosque.py show`` prints it)."""
        def work(cursor):
            return {"profiles": int(self._one(cursor, "SELECT COUNT(*) FROM mosques")[0]),
                    "versions": int(self._one(cursor, "SELECT COUNT(*) FROM versions")[0]),
                    "bytes": int(self._used_bytes(cursor))}
        return self._run(work)

    def _one(self, cursor, sql: str, *args):
        cursor.execute(self._sql(sql), args)
        return cursor.fetchone()

    def create_schema(self) -> None:
        """Make the tables if they are not there (`ensure_ready` does it once, on first use)."""
        def work(cursor):
            self._lock_schema(cursor)
            for statement in SCHEMA:
                cursor.execute(statement)
            if not self._has_column(cursor, "mosques", "read_day"):  # a database made before issue 34
                cursor.execute("ALTER TABLE mosques ADD COLUMN read_day TEXT")
        self._run(work, write=True, schema=False)
        self._ready = True

    def ensure_ready(self) -> None:
        """The schema made once (`Unavailable` while the database cannot answer: the next call tries again)."""
        if self._ready:
            return
        with self._ready_lock:
            if not self._ready:
                self._prepare()
                self.create_schema()

    def _prepare(self) -> None:
        """What opening needs before the first connection (SQLite: its folder)."""

    def _lock_schema(self, cursor) -> None:
        """Hold off every other process making the schema until this transaction ends (SQLite's write
        transaction already does)."""

    def ping(self) -> None:
        """One round trip to the database (`Unavailable` if it cannot answer): what /readyz asks."""
        self._run(lambda cursor: self._one(cursor, "SELECT 1"))

    def _has_column(self, cursor, table: str, column: str) -> bool:
        cursor.execute(self._sql("SELECT 1 FROM information_schema.columns WHERE table_name = ? AND column_name = ?"),
                       (table, column))
        return cursor.fetchone() is not None

    def touch(self, mosque_id: str, day: str | None = None) -> None:
        """Note that a node read the profile on ``day`` (UTC, YYYY-MM-DD; default today): what `stale` reads."""
        day = day or now_text()[:10]
        self._run(lambda cursor: cursor.execute(
            self._sql("UPDATE mosques SET read_day = ? WHERE id = ? AND (read_day IS NULL OR read_day < ?)"),
            (day, mosque_id, day)), write=True)

    def stale(self, before_day: str) -> list[dict]:
        """The unlisted profiles not created, saved or read since ``before_day`` (YYYY-MM-DD, UTC), by id: each with
        its last day of use, its versions and their bytes (what ``mosque.py stale`` and ``prune`` show)."""
        def work(cursor):
            cursor.execute("SELECT m.id, m.created, m.read_day, MAX(v.saved), COUNT(v.version), "
                           "SUM(COALESCE(LENGTH(v.body), 0)) FROM mosques m JOIN versions v ON v.id = m.id "
                           "WHERE m.listed = 0 GROUP BY m.id, m.created, m.read_day")
            return cursor.fetchall()
        found = []
        for mosque_id, created, read, saved, count, size in self._run(work):
            last = max(day[:10] for day in (created, read, saved) if day)
            if last < before_day:
                found.append({"id": mosque_id, "last": last, "versions": int(count), "bytes": int(size or 0)})
        return sorted(found, key=lambda row: row["id"])

    # -- reading --
    def get(self, mosque_id: str) -> Record | None:
        """The profile's latest version (its body None if that is a deletion), or None if there is no such id."""
        row = self._run(lambda c: self._one(
            c, "SELECT m.current, v.body, m.listed, v.saved FROM mosques m JOIN versions v "
               "ON v.id = m.id AND v.version = m.current WHERE m.id = ?", mosque_id))
        return None if row is None else Record(mosque_id, int(row[0]), row[1], bool(row[2]), row[3])

    def listed(self) -> list[Record]:
        """The listed profiles that are not deleted, by id."""
        def work(cursor):
            cursor.execute(self._sql(
                "SELECT m.id, m.current, v.body, v.saved FROM mosques m JOIN versions v ON v.id = m.id "
                "AND v.version = m.current WHERE m.listed = 1 AND v.body IS NOT NULL ORDER BY m.id"))
            return sorted((Record(r[0], int(r[1]), r[2], True, r[3]) for r in cursor.fetchall()), key=lambda r: r.id)
        return self._run(work)

    def ids(self) -> list[tuple[str, int, bool, bool]]:
        """Every profile: (id, current version, listed, deleted), by id (for the maintainer's command)."""
        def work(cursor):
            cursor.execute("SELECT m.id, m.current, m.listed, v.body IS NULL FROM mosques m JOIN versions v "
                           "ON v.id = m.id AND v.version = m.current ORDER BY m.id")
            return sorted((r[0], int(r[1]), bool(r[2]), bool(r[3])) for r in cursor.fetchall())
        return self._run(work)

    def _authorised(self, cursor, mosque_id: str, secret: str) -> int:
        return self._link_of(cursor, mosque_id, secret)[0]

    def _link_of(self, cursor, mosque_id: str, secret: str) -> tuple[int, str]:
        """(current version, the name of the link whose secret this is), or `Forbidden`.  Every id costs the same
        `MAX_LINKS` hashes, known or not, however many links it has, and every link is compared."""
        row = self._one(cursor, "SELECT salt, secret_hash, current FROM mosques WHERE id = ?", mosque_id)
        links = [] if row is None else [(FIRST_LINK, row[0], row[1])]
        if row is not None:
            cursor.execute(self._sql("SELECT name, salt, secret_hash FROM links WHERE id = ? ORDER BY name"),
                           (mosque_id,))
            links += [tuple(found) for found in cursor.fetchall()]
        links += [("", "00" * SALT_BYTES, "")] * (MAX_LINKS - len(links))  # the same work for every id
        matched = None
        for name, salt, stored_hash in links:
            if secret_matches(salt, stored_hash, secret) and name and matched is None:
                matched = name
        if matched is None:
            raise Forbidden()
        return int(row[2]), matched

    def _link_names(self, cursor, mosque_id: str) -> list[dict]:
        first = self._one(cursor, "SELECT created, secret_hash FROM mosques WHERE id = ?", mosque_id)
        names = [{"name": FIRST_LINK, "created": first[0]}] if first[1] else []
        cursor.execute(self._sql("SELECT name, created FROM links WHERE id = ? ORDER BY name"), (mosque_id,))
        return names + [{"name": r[0], "created": r[1]} for r in cursor.fetchall()]

    # -- edit links (issue 34): named, rotated, revoked --
    def operator_links(self, mosque_id: str) -> list[dict]:
        """Every link's name and creation, without a secret (the operator's ``mosque.py links``)."""
        return self._run(lambda cursor: self._link_names(cursor, mosque_id))

    def links(self, mosque_id: str, secret: str) -> tuple[str, list[dict]]:
        """(the name of the link ``secret`` is, every link's name and creation), `Forbidden` without a secret."""
        def work(cursor):
            _, mine = self._link_of(cursor, mosque_id, secret)
            return mine, self._link_names(cursor, mosque_id)
        return self._run(work)

    def _new_link(self, cursor, mosque_id: str, name: str) -> str:
        if not LINK_NAME.fullmatch(name):
            raise ValueError("name: 1 to 32 letters, digits, '-' or '_', first a letter or digit")
        known = [link["name"] for link in self._link_names(cursor, mosque_id)]
        if name == FIRST_LINK or name in known or self._one(cursor, "SELECT 1 FROM links WHERE id = ? AND name = ?",
                                                             mosque_id, name):
            raise Conflict(f"name: the profile has a link named {name!r} ({FIRST_LINK!r}: always its first); "
                           f"choose another")
        if len(known) >= MAX_LINKS:
            raise Conflict(f"name: a profile has at most {MAX_LINKS} edit links; revoke one first")
        secret, salt = new_secret(), secrets.token_hex(SALT_BYTES)
        cursor.execute(self._sql("INSERT INTO links (id, name, salt, secret_hash, created) VALUES (?, ?, ?, ?, ?)"),
                       (mosque_id, name, salt, secret_hash(salt, secret), now_text()))
        return secret

    def add_link(self, mosque_id: str, secret: str, name: str) -> str:
        """A new edit link named ``name`` (a second committee member's); its secret, shown once."""
        def work(cursor):
            self._link_of(cursor, mosque_id, secret)
            return self._new_link(cursor, mosque_id, name)
        return self._run(work, write=True)

    def issue_link(self, mosque_id: str, name: str) -> str:
        """The operator's new edit link (``mosque.py link``: a committee that lost every link); KeyError: no id."""
        def work(cursor):
            if self._one(cursor, "SELECT 1 FROM mosques WHERE id = ?", mosque_id) is None:
                raise KeyError(mosque_id)
            return self._new_link(cursor, mosque_id, name)
        return self._run(work, write=True)

    def rotate(self, mosque_id: str, secret: str) -> tuple[str, str]:
        """A new secret for the link ``secret`` is (the old one then opens nothing): (its name, the new secret)."""
        def work(cursor):
            _, name = self._link_of(cursor, mosque_id, secret)
            new, salt = new_secret(), secrets.token_hex(SALT_BYTES)
            if name == FIRST_LINK:
                cursor.execute(self._sql("UPDATE mosques SET salt = ?, secret_hash = ? WHERE id = ?"),
                               (salt, secret_hash(salt, new), mosque_id))
            else:
                cursor.execute(self._sql("UPDATE links SET salt = ?, secret_hash = ? WHERE id = ? AND name = ?"),
                               (salt, secret_hash(salt, new), mosque_id, name))
            return name, new
        return self._run(work, write=True)

    def revoke_link(self, mosque_id: str, name: str, secret: str | None = None) -> None:
        """Revoke the link ``name`` (with any link's ``secret``; None: the operator's ``mosque.py revoke``).
        KeyError: no such link; `Conflict`: it is the last one."""
        def work(cursor):
            if secret is not None:
                self._link_of(cursor, mosque_id, secret)
            elif self._one(cursor, "SELECT 1 FROM mosques WHERE id = ?", mosque_id) is None:
                raise KeyError(mosque_id)
            names = [link["name"] for link in self._link_names(cursor, mosque_id)]
            if name not in names:
                raise KeyError(name)
            if len(names) == 1:
                raise Conflict(f"name: {name!r} is the profile's last edit link; add another first")
            if name == FIRST_LINK:
                cursor.execute(self._sql("UPDATE mosques SET secret_hash = '' WHERE id = ?"), (mosque_id,))
            else:
                cursor.execute(self._sql("DELETE FROM links WHERE id = ? AND name = ?"), (mosque_id, name))
        self._run(work, write=True)

    def versions(self, mosque_id: str, secret: str) -> list[dict]:
        """Every version: number, when it was saved, whether it is a deletion (`Forbidden` without the secret)."""
        def work(cursor):
            self._authorised(cursor, mosque_id, secret)
            cursor.execute(self._sql("SELECT version, saved, body IS NULL FROM versions WHERE id = ? ORDER BY version"),
                           (mosque_id,))
            return [{"version": int(r[0]), "saved": r[1], **({"deleted": True} if r[2] else {})}
                    for r in cursor.fetchall()]
        return self._run(work)

    def version_body(self, mosque_id: str, secret: str, version: int) -> str | None:
        """The body of one version (None: a deletion); KeyError when there is no such version."""
        def work(cursor):
            self._authorised(cursor, mosque_id, secret)
            row = self._one(cursor, "SELECT body FROM versions WHERE id = ? AND version = ?", mosque_id, version)
            if row is None:
                raise KeyError(version)
            return row[0]
        return self._run(work)

    # -- the shared budgets of writes (issue 34) --
    greatest = "GREATEST"  # the larger of two numbers (SQLite: MAX with two arguments)

    def spend(self, action: str, client: str, per_hour: int, now_s: float) -> int | None:
        """Spend one of ``client``'s ``per_hour`` ``action``s (a token bucket refilled ``per_hour`` an hour); return None
        when spent, else the seconds until one is there again.  One upsert, atomic in the database (PostgreSQL's
        row lock on conflict, SQLite's write lock), so of two app processes or nodes spending a client's last
        action at once exactly one succeeds.  ``now_s``: the app's clock (unix seconds; nodes keep it by NTP, as
        their prayer times need): a node behind the others never refills a bucket (``as_of`` only moves on)."""
        rate_per_s = per_hour / BUDGET_WINDOW_S
        g = self.greatest
        level = f"{g}(0, budgets.spent - {g}(0, excluded.as_of - budgets.as_of) * ?)"
        upsert = self._sql(
            f"INSERT INTO budgets (action, client, spent, as_of) VALUES (?, ?, 1, ?) "
            f"ON CONFLICT (action, client) DO UPDATE SET spent = {level} + 1, as_of = {g}(budgets.as_of, excluded.as_of) "
            f"WHERE {level} + 1 <= ? RETURNING spent")

        def work(cursor):
            self._spends += 1
            if self._spends % PRUNE_BUDGETS_EVERY == 0:  # a bucket idle for the window has refilled: forget it
                cursor.execute(self._sql("DELETE FROM budgets WHERE as_of < ?"), (now_s - BUDGET_WINDOW_S,))
            cursor.execute(upsert, (action, client, now_s, rate_per_s, rate_per_s, per_hour))
            if cursor.fetchone() is not None:
                return None
            spent, as_of = self._one(cursor, "SELECT spent, as_of FROM budgets WHERE action = ? AND client = ?",
                                     action, client)
            level_now = max(0.0, spent - max(0.0, now_s - as_of) * rate_per_s)
            return max(1, math.ceil((level_now + 1 - per_hour) / rate_per_s - 1e-9))
        return self._run(work, write=True)

    # -- writing: each one transaction --
    def create(self, body: str, reserved=lambda mosque_id: False) -> tuple[str, str, int]:
        """Store a new profile (``body``: already checked) as version 1; return (id, secret, version).  An id is
        drawn again while ``reserved(id)`` (a data/mosques file's) or taken (64 random bits: never in practice)."""
        secret, salt = new_secret(), secrets.token_hex(SALT_BYTES)
        while True:
            mosque_id = new_id()
            if reserved(mosque_id):
                continue

            def work(cursor):
                self._check_room(cursor, creating=True)
                if self._one(cursor, "SELECT 1 FROM mosques WHERE id = ?", mosque_id) is not None:
                    return False
                saved = now_text()
                cursor.execute(self._sql("INSERT INTO mosques (id, salt, secret_hash, current, listed, created) "
                                         "VALUES (?, ?, ?, 1, 0, ?)"),
                               (mosque_id, salt, secret_hash(salt, secret), saved))
                cursor.execute(self._sql("INSERT INTO versions (id, version, saved, body) VALUES (?, 1, ?, ?)"),
                               (mosque_id, saved, body))
                return True
            if self._run(work, write=True):
                return mosque_id, secret, 1

    def save(self, mosque_id: str, secret: str, expected: int, body: str | None) -> int:
        """Append a version (``body`` None: a deletion) if the current one is ``expected``; return its number.

        `Forbidden` without the right secret; `Stale` (with the current version) when another save came first.
        """
        def work(cursor):
            current = self._authorised(cursor, mosque_id, secret)
            if current != expected:
                raise Stale(current)
            if body is None and self._one(cursor, "SELECT body IS NULL FROM versions WHERE id = ? AND version = ?",
                                          mosque_id, current)[0]:
                raise KeyError("deleted")  # deleting a deleted profile: nothing to do
            if body is not None:  # a deletion is never refused for room
                self._check_room(cursor, creating=False)
            # Moves only from the version read: of two transactions that both read ``expected``, one updates
            # no row (the database's row lock orders them) and is told, never both write.
            cursor.execute(self._sql("UPDATE mosques SET current = ? WHERE id = ? AND current = ?"),
                           (expected + 1, mosque_id, expected))
            if cursor.rowcount != 1:
                raise Stale(self._one(cursor, "SELECT current FROM mosques WHERE id = ?", mosque_id)[0])
            cursor.execute(self._sql("INSERT INTO versions (id, version, saved, body) VALUES (?, ?, ?, ?)"),
                           (mosque_id, expected + 1, now_text(), body))
            self._keep_newest(cursor, mosque_id, expected + 1)
            return expected + 1
        return self._run(work, write=True)

    def set_listed(self, mosque_id: str, listed: bool) -> None:
        def work(cursor):
            cursor.execute(self._sql("UPDATE mosques SET listed = ? WHERE id = ?"), (int(listed), mosque_id))
            if cursor.rowcount != 1:
                raise KeyError(mosque_id)
        self._run(work, write=True)

    def purge(self, mosque_id: str) -> None:
        """Remove a profile and every version of it (the maintainer's ``mosque.py delete``)."""
        def work(cursor):
            cursor.execute(self._sql("DELETE FROM versions WHERE id = ?"), (mosque_id,))
            cursor.execute(self._sql("DELETE FROM links WHERE id = ?"), (mosque_id,))
            cursor.execute(self._sql("DELETE FROM mosques WHERE id = ?"), (mosque_id,))
            if cursor.rowcount != 1:
                raise KeyError(mosque_id)
        self._run(work, write=True)

    # -- moving between databases --
    def export_rows(self) -> Iterator[dict]:
        """Every profile with every version, by id then version (what ``mosque.py export`` writes)."""
        def work(cursor):
            cursor.execute("SELECT id, salt, secret_hash, current, listed, created FROM mosques ORDER BY id")
            profiles = cursor.fetchall()
            cursor.execute("SELECT id, version, saved, body FROM versions ORDER BY id, version")
            versions = cursor.fetchall()
            cursor.execute("SELECT id, name, salt, secret_hash, created FROM links ORDER BY id, name")
            return profiles, versions, cursor.fetchall()
        profiles, versions, links = self._run(work)
        links_of: dict[str, list] = {}
        for row in sorted(links, key=lambda row: (row[0], row[1])):
            links_of.setdefault(row[0], []).append({"name": row[1], "salt": row[2], "secretHash": row[3],
                                                    "created": row[4]})
        profiles.sort(key=lambda row: row[0])  # by code point: a database's collation may sort '-' otherwise
        by_id: dict[str, list] = {}
        for row in versions:
            by_id.setdefault(row[0], []).append({"version": int(row[1]), "saved": row[2], "body": row[3]})
        for row in profiles:
            yield {"id": row[0], "salt": row[1], "secretHash": row[2], "current": int(row[3]),
                   "listed": bool(row[4]), "created": row[5], "versions": by_id.get(row[0], []),
                   **({"links": links_of[row[0]]} if row[0] in links_of else {})}  # named links: only if any

    def import_rows(self, rows: Iterable[dict]) -> int:
        """Add exported profiles, all in one transaction (an id already here: ValueError, nothing added)."""
        rows = list(rows)

        def work(cursor):
            for row in rows:
                if self._one(cursor, "SELECT 1 FROM mosques WHERE id = ?", row["id"]) is not None:
                    raise ValueError(f"{row['id']}: already in this database")
                cursor.execute(self._sql("INSERT INTO mosques (id, salt, secret_hash, current, listed, created) "
                                         "VALUES (?, ?, ?, ?, ?, ?)"),
                               (row["id"], row["salt"], row["secretHash"], row["current"], int(row["listed"]),
                                row["created"]))
                for version in row["versions"]:
                    cursor.execute(self._sql("INSERT INTO versions (id, version, saved, body) VALUES (?, ?, ?, ?)"),
                                   (row["id"], version["version"], version["saved"], version["body"]))
                for link in row.get("links", ()):
                    cursor.execute(self._sql("INSERT INTO links (id, name, salt, secret_hash, created) "
                                             "VALUES (?, ?, ?, ?, ?)"),
                                   (row["id"], link["name"], link["salt"], link["secretHash"], link["created"]))
            return len(rows)
        return self._run(work, write=True)

    def close(self) -> None:
        """Close every thread's connection (the store opens new ones if used again)."""
        with self._opened_lock:
            opened, self._opened = self._opened, []
        for connection in opened:
            self._close(connection)
        self._local = threading.local()


class _SqliteTransaction:
    def __init__(self, connection: sqlite3.Connection, write: bool):
        self.connection, self.write = connection, write

    def __enter__(self):
        # IMMEDIATE: a writer takes the write lock before it reads, so its read of ``current`` is the one it moves.
        self.connection.execute("BEGIN IMMEDIATE" if self.write else "BEGIN")
        self.cursor = self.connection.cursor()
        return self.cursor

    def __exit__(self, kind, value, trace):
        if kind is None:
            self.connection.execute("COMMIT")
        elif self.connection.in_transaction:  # SQLite rolls back itself on some errors (a full disk): no second try
            self.connection.execute("ROLLBACK")
        return False


def create_private(path: Path | str) -> None:
    """Create ``path`` empty, readable by its owner only (`PRIVATE_MODE`), unless it exists (its mode is then the
    operator's).  Issue 34: the database and the exports were created 0644, so any local user read every unlisted
    profile's address; SQLite gives its -wal and -shm files the database file's mode."""
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_MODE))


class SqliteStore(Store):
    greatest = "MAX"  # SQLite's scalar max of its arguments

    def __init__(self, path: Path | str, timeout_s: float = SQLITE_BUSY_S):
        super().__init__()
        self.path = Path(path)
        self.timeout_s = timeout_s

    def _prepare(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise Unavailable(f"cannot make the folder of {self.path}: {error.strerror}") from None
        try:
            create_private(self.path)
        except OSError as error:
            raise Unavailable(f"cannot create {self.path}: {error.strerror}") from None

    def _connect(self):
        # The busy timeout bounds how long a statement waits for another connection's lock (then "locked").
        connection = sqlite3.connect(self.path, timeout=self.timeout_s, isolation_level=None)  # transactions: ours
        try:
            connection.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            connection.execute("PRAGMA synchronous=FULL")  # a committed save survives a power cut, not only a kill
            connection.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            connection.close()
            raise
        return connection

    def _unavailable(self, error: Exception) -> Unavailable | None:
        # Not IntegrityError or ProgrammingError: those are defects, raised as they are.
        if not isinstance(error, (sqlite3.OperationalError, OSError)) and type(error) is not sqlite3.DatabaseError:
            return None
        code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF  # the primary code of an extended one
        text = f"SQLite {self.path.name}: {error}"
        if code == sqlite3.SQLITE_FULL:
            return Full(text)
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_READONLY):
            return Unavailable(text, away=False)  # this write waited too long, or may not write: reads go on
        return Unavailable(text)  # cannot open, gone, not a database

    def _transaction(self, connection, write: bool = False):
        return _SqliteTransaction(connection, write)

    def _has_column(self, cursor, table: str, column: str) -> bool:
        cursor.execute(f"PRAGMA table_info({table})")  # table: a constant of this module
        return any(row[1] == column for row in cursor.fetchall())

    def _used_bytes(self, cursor) -> int:
        # pages in use (a removed version's pages are free for the next ones: the file does not shrink)
        pages = self._one(cursor, "PRAGMA page_count")[0] - self._one(cursor, "PRAGMA freelist_count")[0]
        return pages * self._one(cursor, "PRAGMA page_size")[0]

    def describe(self) -> str:
        return f"SQLite {self.path}"


class _PostgresTransaction:
    def __init__(self, connection, write: bool):
        self.connection = connection
        self.inner = connection.transaction()

    def __enter__(self):
        self.inner.__enter__()
        self.cursor = self.connection.cursor()
        return self.cursor

    def __exit__(self, kind, value, trace):
        self.cursor.close()
        return self.inner.__exit__(kind, value, trace)


class PostgresStore(Store):
    """Connections from a `psycopg_pool.ConnectionPool` of at most ``pool_size`` (opened in the background: no
    I/O here, so an app starts while the database is away), each with ``statement_timeout`` and keepalives."""

    placeholder = "%s"
    remote = True

    def __init__(self, url: str, timeout_s: float = TIMEOUT_S, pool_size: int = POOL_SIZE):
        super().__init__()
        import psycopg  # only a deployment that names a PostgreSQL database needs the driver loaded
        import psycopg_pool

        self._psycopg, self._pool_errors = psycopg, (psycopg_pool.PoolTimeout, psycopg_pool.PoolClosed)
        self.url, self.timeout_s, self.pool_size = url, timeout_s, pool_size
        timeout_ms = max(1, round(timeout_s * 1000))
        self.connect_options = {
            "autocommit": True, "connect_timeout": max(2, math.ceil(timeout_s)), **KEEPALIVE,
            # A statement (and a transaction left open by a stuck client) ends on the server after the timeout.
            "options": f"-c statement_timeout={timeout_ms} -c idle_in_transaction_session_timeout={timeout_ms * 10}"}
        self._pool = psycopg_pool.ConnectionPool(
            url, kwargs=self.connect_options, min_size=1, max_size=pool_size, open=False, timeout=timeout_s,
            check=psycopg_pool.ConnectionPool.check_connection,  # a connection a restart broke is replaced, not used
            max_idle=300, reconnect_timeout=0, name="mosques")
        self._pool.open(wait=False)

    @contextlib.contextmanager
    def _borrow(self):
        with self._pool.connection() as connection:
            yield connection

    def _drop_connection(self) -> None:
        pass  # the pool drops a broken connection itself when it is given back

    def _connect(self):
        return self._psycopg.connect(self.url, **self.connect_options)

    def _lost(self, error: Exception) -> bool:
        """A connection broken under a call (one more try on another); not a timeout, a full disk or no connection
        within the wait (psycopg_pool's errors are OperationalErrors too): trying again would only wait again."""
        errors = self._psycopg.errors
        return (isinstance(error, self._psycopg.OperationalError)
                and not isinstance(error, (errors.QueryCanceled, errors.LockNotAvailable, errors.DiskFull,
                                           *self._pool_errors)))

    def _unavailable(self, error: Exception) -> Unavailable | None:
        errors = self._psycopg.errors
        if isinstance(error, errors.DiskFull):
            return Full(f"PostgreSQL: {str(error).strip()[:200]}")
        if isinstance(error, (errors.QueryCanceled, errors.LockNotAvailable)):  # statement_timeout: this one call
            return Unavailable(f"PostgreSQL: {str(error).strip()[:200]}", away=False)
        if isinstance(error, self._pool_errors):
            return Unavailable(f"PostgreSQL: no connection within {self.timeout_s} s ({type(error).__name__})")
        if isinstance(error, (self._psycopg.OperationalError, self._psycopg.InterfaceError)):
            return Unavailable(f"PostgreSQL: {str(error).strip()[:200]}")
        return None

    def close(self) -> None:
        self._pool.close(timeout=1.0)  # a hung server must not hold up a shutdown

    def _transaction(self, connection, write: bool = False):
        return _PostgresTransaction(connection, write)

    def _lock_schema(self, cursor) -> None:
        # Two apps opening one empty database at once (compose's app1 and app2, first run): PostgreSQL's
        # CREATE TABLE IF NOT EXISTS is not safe against a concurrent one (the loser fails on the catalogue's
        # unique index, pg_type_typname_nsp_index); one transaction-scoped advisory lock makes them take turns.
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))

    def _used_bytes(self, cursor) -> int:
        # the two tables with their indexes and TOAST (not the whole database: other tables may share it)
        return int(self._one(cursor, "SELECT pg_total_relation_size('mosques') + pg_total_relation_size('versions')")[0])

    def describe(self) -> str:
        return "PostgreSQL " + self.url.split("@")[-1]  # never the password of the URL


def open_store(url: str | None = None, path: str | Path | None = None) -> Store:
    """The store named by ``url`` (else env MOSQUE_DB_URL: postgresql://…) or the SQLite file ``path`` (else env
    MOSQUE_DB_PATH, else var/mosques.sqlite3)."""
    url = url if url is not None else os.environ.get("MOSQUE_DB_URL", "")
    if url:
        if not url.startswith(("postgresql://", "postgres://")):
            raise ValueError("MOSQUE_DB_URL: a postgresql:// connection URL")
        return PostgresStore(url)
    return SqliteStore(path if path is not None else os.environ.get("MOSQUE_DB_PATH") or DEFAULT_SQLITE_PATH)
