"""The maintainer's command for hosted mosque profiles (issue 27; runtime/mosque_store.py).

Usage::

    python mosque.py show                 every hosted profile: id, version, listed, deleted, English name
    python mosque.py list <id>            list it: in /v1/mosques, its pages indexable (no noindex)
    python mosque.py unlist <id>          back to unlisted
    python mosque.py delete <id>          remove it and every version of it (its edit link then opens nothing)
    python mosque.py stale [--days 365]   the unlisted profiles not created, saved or read for that long
    python mosque.py prune [--days 365]   what `stale` lists, to be removed: a dry run; --yes removes them
    python mosque.py links <id>           the names of its edit links
    python mosque.py link <id> <name>     a new edit link named <name> (a committee that lost every link): its
                                          secret printed this once
    python mosque.py revoke <id> <name>   that edit link opens nothing any more (never the last one)
    python mosque.py export FILE          every profile with every version, as JSON lines ("-": stdout)
    python mosque.py import FILE          add the profiles of an export (all or none; an id already there refuses)

The database is the app's: MOSQUE_DB_URL (postgresql://…) if set, else the SQLite file
MOSQUE_DB_PATH (default var/mosques.sqlite3).  An export holds the salted hashes of the edit
secrets, never the secrets, so edit links keep working after an import; exporting the imported
database gives the same bytes.  Running apps see a change within runtime/hosted.py's
PROFILE_TTL_S (10 s).  Exit status: 0 done, 2 refused.
"""
from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import orjson

from generator.site import urls
from runtime import mosque_store

HEADER = {"format": mosque_store.EXPORT_FORMAT}
STALE_DAYS = 365  # an unlisted profile nobody created, saved or read for a year: a candidate for `prune`


def export_lines(store: mosque_store.Store) -> bytes:
    """The export: a header line, then one line per profile (by id), each line compact JSON."""
    lines = [orjson.dumps(HEADER)] + [orjson.dumps(row) for row in store.export_rows()]
    return b"\n".join(lines) + b"\n"


def read_export(data: bytes) -> list[dict]:
    lines = data.splitlines()
    if not lines or orjson.loads(lines[0]) != HEADER:
        raise ValueError(f"not an export of this program (its first line is {orjson.dumps(HEADER).decode()})")
    return [orjson.loads(line) for line in lines[1:] if line.strip()]


def _missing_database(command: str) -> str | None:
    """Why the command must not run: no MOSQUE_DB_URL and no SQLite file where MOSQUE_DB_PATH (or the default) says.
    Issue 34: run without the app's database settings, the command created an empty SQLite file and reported no
    profiles.  Only ``import`` may start a new database (it says where)."""
    if os.environ.get("MOSQUE_DB_URL") or command == "import":
        return None
    path = Path(os.environ.get("MOSQUE_DB_PATH") or mosque_store.DEFAULT_SQLITE_PATH)
    if path.is_file():
        return None
    return (f"no database at {path}: set MOSQUE_DB_URL (postgresql://…) or MOSQUE_DB_PATH as the app has them "
            f"(this command creates no empty database; `import` starts a new one)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("show")
    for name in ("stale", "prune"):
        command = sub.add_parser(name)
        command.add_argument("--days", type=int, default=STALE_DAYS, help=f"unused for this many days "
                                                                           f"(default {STALE_DAYS})")
        if name == "prune":
            command.add_argument("--yes", action="store_true", help="remove them (without it: a dry run)")
    for name in ("list", "unlist", "delete", "links"):
        sub.add_parser(name).add_argument("id")
    for name in ("link", "revoke"):
        command = sub.add_parser(name)
        command.add_argument("id")
        command.add_argument("name")
    for name in ("export", "import"):
        sub.add_parser(name).add_argument("file")
    args = parser.parse_args(argv)
    missing = _missing_database(args.command)
    if missing:
        print(f"refused: {missing}", file=sys.stderr)
        return 2
    store = mosque_store.open_store()
    print(f"store: {store.describe()}", file=sys.stderr)
    try:
        if args.command == "show":
            size = store.size()
            limits = store.limits
            print(f"{size['profiles']} profiles (cap {limits.profiles or 'none'}), {size['versions']} versions "
                  f"(at most {limits.versions or 'all'} each), {size['bytes'] // 2**20} MB "
                  f"(cap {limits.database_bytes // 2**20 or 'none'} MB)", file=sys.stderr)
            for mosque_id, version, listed, deleted in store.ids():
                record = store.get(mosque_id)
                name = orjson.loads(record.body)["names"]["en"] if record.body else ""
                print(f"{mosque_id}\tversion {version}\t{'listed' if listed else 'unlisted'}"
                      f"{chr(9) + 'deleted' if deleted else ''}\t{name}")
        elif args.command in ("stale", "prune"):
            if args.days < 1:
                raise ValueError("--days: at least 1")
            before = (datetime.now(timezone.utc).date() - timedelta(days=args.days)).isoformat()
            found = store.stale(before)
            for row in found:
                print(f"{row['id']}\tlast used {row['last']}\t{row['versions']} versions\t{row['bytes']} bytes")
            total = sum(row["bytes"] for row in found)
            if args.command == "stale" or not args.yes:
                print(f"{len(found)} unlisted profiles unused since before {before} ({total} bytes)"
                      + ("; a dry run: nothing removed (repeat with --yes)" if args.command == "prune" else ""),
                      file=sys.stderr)
            else:
                for row in found:
                    store.purge(row["id"])
                print(f"removed {len(found)} unlisted profiles unused since before {before} ({total} bytes)",
                      file=sys.stderr)
        elif args.command in ("list", "unlist"):
            store.set_listed(args.id, args.command == "list")
            print(f"{args.id}: {args.command}ed")
        elif args.command == "links":
            if store.get(args.id) is None:
                raise KeyError(args.id)
            for link in store.operator_links(args.id):
                print(f"{link['name']}\tcreated {link['created']}")
        elif args.command == "link":
            secret = store.issue_link(args.id, args.name)
            print(f"{args.id}: edit link {args.name!r} (shown this once; the builder opens it):\n"
                  f"{urls.absolute('/mosque/new/')}#edit={args.id}.{secret}\n"
                  f"secret: {secret}")
        elif args.command == "revoke":
            store.revoke_link(args.id, args.name)
            print(f"{args.id}: edit link {args.name!r} revoked")
        elif args.command == "delete":
            store.purge(args.id)
            print(f"{args.id}: deleted with every version")
        elif args.command == "export":
            data = export_lines(store)
            if args.file == "-":
                sys.stdout.buffer.write(data)
            else:  # private: unlisted addresses and salted hashes (mosque_store.PRIVATE_MODE)
                with os.fdopen(os.open(args.file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                                       mosque_store.PRIVATE_MODE), "wb") as file:
                    file.write(data)
                count = data.count(b"\n") - 1
                print(f"exported {count} profiles to {args.file}", file=sys.stderr)
        elif args.command == "import":
            with open(args.file, "rb") as file:
                count = store.import_rows(read_export(file.read()))
            print(f"imported {count} profiles")
    except KeyError as error:
        print(f"refused: no hosted profile {error.args[0]!r}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
