"""Back up the hosted mosque profiles' store on a schedule, and restore a backup into a fresh store.

Usage::

    python deploy/backup.py backup DIR [--keep 14]     one backup of the store the app uses, into DIR
    python deploy/backup.py restore FILE               FILE into a fresh store (never over an existing one)

The store is the app's: ``MOSQUE_DB_URL`` (PostgreSQL) when set, else ``MOSQUE_DB_PATH`` (SQLite, default
var/mosques.sqlite3), as runtime/mosque_store.py reads them.  Each is backed up with its own engine's
consistent online copy while the apps keep running:

* SQLite: the sqlite3 online backup API (a consistent snapshot of the database, WAL included) into
  ``DIR/mosques-<UTC time>.sqlite3``;
* PostgreSQL: ``pg_dump --format=custom`` (one consistent snapshot; the client must be of the server's
  major version or newer) into ``DIR/mosques-<UTC time>.pgdump``.

Files are created 0600 (they hold the edit secrets' salted hashes).  ``--keep`` newest backups of that
kind are kept, older ones removed.  ``restore`` refuses to write over anything: the SQLite file must not
exist, the PostgreSQL database must hold no table (``createdb`` a new one); it restores with
``pg_restore --no-owner --single-transaction --exit-on-error`` (all or nothing).  A schedule:
deploy/systemd/shia-times-backup.timer, or the cron line in docs/operations.md.  For point-in-time
recovery of PostgreSQL use its WAL archiving (docs/operations.md); these are daily snapshots.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SQLITE_PATH = ROOT / "var" / "mosques.sqlite3"  # runtime/mosque_store.py's default
KEEP = 14


def _store() -> tuple[str, str]:
    """("postgresql", URL) or ("sqlite", path): the store the app opens."""
    url = os.environ.get("MOSQUE_DB_URL", "").strip()
    if url:
        return "postgresql", url
    return "sqlite", os.environ.get("MOSQUE_DB_PATH") or str(DEFAULT_SQLITE_PATH)


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name}: not found (install PostgreSQL's client programs, e.g. Debian's postgresql-client)")
    return found


def backup(folder: Path, keep: int = KEEP, now_s: float | None = None) -> Path:
    """Write one backup of the app's store into ``folder``; keep the ``keep`` newest of its kind."""
    kind, where = _store()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now_s is None else now_s))
    suffix = ".pgdump" if kind == "postgresql" else ".sqlite3"
    target = folder / f"mosques-{stamp}{suffix}"
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # 0600 before a byte is written
    try:
        if kind == "postgresql":
            subprocess.run([_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(partial), where],
                           check=True)
        else:
            if not Path(where).is_file():
                raise SystemExit(f"MOSQUE_DB_PATH: no SQLite database at {where}")
            source = sqlite3.connect(f"file:{where}?mode=ro", uri=True)
            destination = sqlite3.connect(partial)
            try:
                source.backup(destination)
            finally:
                destination.close()
                source.close()
        os.replace(partial, target)  # a backup is whole or absent
    finally:
        partial.unlink(missing_ok=True)
    for old in sorted(folder.glob(f"mosques-*{suffix}"))[:-max(1, keep)]:
        old.unlink()
    return target


def restore(file: Path) -> str:
    """Restore ``file`` (a backup of either kind) into the app's store, which must be fresh; return where."""
    kind, where = _store()
    if file.suffix == ".pgdump":
        if kind != "postgresql":
            raise SystemExit("MOSQUE_DB_URL: a .pgdump restores into PostgreSQL; set it to a new, empty database")
        import psycopg

        with psycopg.connect(where) as connection:
            tables = connection.execute("SELECT count(*) FROM pg_catalog.pg_tables "
                                        "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')").fetchone()[0]
        if tables:
            raise SystemExit(f"MOSQUE_DB_URL: the database holds {tables} tables; restore into a new one (createdb)")
        subprocess.run([_tool("pg_restore"), "--no-owner", "--single-transaction", "--exit-on-error",
                        "--dbname", where, str(file)], check=True)
    elif file.suffix == ".sqlite3":
        if kind != "sqlite":
            raise SystemExit("MOSQUE_DB_URL is set: a .sqlite3 backup restores into MOSQUE_DB_PATH (unset the URL)")
        target = Path(where)
        if target.exists():
            raise SystemExit(f"MOSQUE_DB_PATH: {target} exists; restore into a new path (or move it away first)")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        source, destination = sqlite3.connect(f"file:{file}?mode=ro", uri=True), sqlite3.connect(partial)
        try:
            source.backup(destination)
        finally:
            destination.close()
            source.close()
        os.replace(partial, target)
    else:
        raise SystemExit(f"{file}: not a backup of this script (.sqlite3 or .pgdump)")
    return where


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    making = sub.add_parser("backup", help="one backup of the app's store into DIR")
    making.add_argument("folder", type=Path)
    making.add_argument("--keep", type=int, default=KEEP, help="backups of this kind kept (default %(default)s)")
    sub.add_parser("restore", help="a backup into a fresh store").add_argument("file", type=Path)
    args = parser.parse_args(argv)
    if args.command == "backup":
        print(backup(args.folder, args.keep))
    else:
        where = restore(args.file)
        print(f"restored {args.file} into {where if _store()[0] == 'sqlite' else 'MOSQUE_DB_URL'}", file=sys.stderr)


if __name__ == "__main__":
    main()
