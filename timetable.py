"""Add or refresh an authority's printed timetable in one step.

Usage::

    python timetable.py add FILE --authority ID --place PLACE --source URL
                        [--lat LAT --lng LNG --coordinates TEXT] [--presets ID ...] [--tz ZONE]
                        [--clock-year YYYY] [--sun-year YYYY] [--first-year YYYY] [--last-year YYYY]
                        [--read-on YYYY-MM-DD] [--copied-from TEXT] [--dry-run] [--jobs 2] [--out static_out]

``FILE`` is the table as copied from the authority: a CSV with ``day`` (``MM-DD``, the 366 days
of a leap year) and some of ``imsak,fajr,sunrise,dhuhr,sunset,maghrib,midnight`` as printed
(local ``HH:MM``; a midnight before noon is the next morning's).  ``--place`` is a catalogue
city id (data/cities.csv gives its coordinates and zone) or, with ``--lat``, ``--lng`` and
``--coordinates`` (where they come from), any other place.  A refresh of a table already in
data/timetables/index.csv keeps that entry's other fields unless given.

Every check of the start-up loader (generator.prayer.timetables) runs before anything is written:
the format, every day present once, the times of each day in order, the clock of the zone in
``--clock-year`` (daylight saving), each cell within a plausible distance of the preset's
computed time, the place within reach of no other catalogue city; then the command prints
where the new cells differ from the table already recorded.  Then it writes
data/timetables/<authority>/<place>.csv and the index row, and re-renders the static answers
that name tables (``methods``, and the pages of the city) with build.py; running app processes
reload the tables within a second (runtime/app.py ``follow_files``).  ``--dry-run``
checks and prints, and writes nothing.  Exit status: 0 done, 2 refused (nothing written).
"""
from __future__ import annotations

import argparse
import csv
import os
import io
import re
import sys
from datetime import date, datetime, timezone
from pathlib import Path

import build
from announce import Refused, check_source
from generator.output import static_paths
from generator.places import cities
from generator.prayer import timetables
from generator.prayer.methods import METHODS

AFFECTED_ENDPOINTS = ("methods", "pages")  # the static answers that name a table; API answers of the bound
# presets are not pre-rendered (a city's year is pre-rendered for the default method only)
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)
MAX_DIFFERENCES_SHOWN = 20
# A table is 367 lines of at most 8 cells (~16 kB); 1 MB is far above any real one and bounds what is read
# from an endless or huge input (issue 29: /dev/zero ended in a MemoryError or the out-of-memory killer).
MAX_FILE_BYTES = 1_000_000
BYTE_ORDER_MARK = "\ufeff"  # what spreadsheets put before a CSV saved as "UTF-8"


def entry_for(args: argparse.Namespace, existing: dict[str, str] | None) -> dict[str, str]:
    """Return the index row the command would write (or raise `Refused`)."""
    if args.authority not in METHODS:
        raise Refused(f"authority: a preset id of data/methods.json ({', '.join(METHODS)})")
    if not _SLUG.fullmatch(args.place or ""):
        raise Refused("place: a lowercase id (letters, digits, hyphens): a catalogue city id or a new place")
    check_source(args.source)
    old = existing or {}
    city = cities.by_id().get(args.place)
    coordinates_given = args.lat is not None or args.lng is not None
    if city is not None and coordinates_given:
        raise Refused(f"lat/lng: {args.place} is a catalogue city; its coordinates come from data/cities.csv")
    if city is not None:
        lat, lng, source, tz = f"{city['lat']:.4f}", f"{city['lng']:.4f}", "data/cities.csv", str(city["tz"])
    elif coordinates_given:
        if args.lat is None or args.lng is None or not args.coordinates:
            raise Refused("lat, lng and coordinates (where they come from, e.g. 'GeoNames 2654675') go together")
        lat, lng, source, tz = f"{args.lat:.4f}", f"{args.lng:.4f}", args.coordinates, args.tz or old.get("tz", "")
    elif old:
        lat, lng, source, tz = old["lat"], old["lng"], old["coordinates"], old["tz"]
    else:
        raise Refused(f"place: {args.place} is not a catalogue city: give --lat, --lng and --coordinates")
    tz = args.tz or tz
    if not tz:
        raise Refused("tz: the IANA zone the table is printed in (e.g. Europe/London)")
    fields = {"clock_year": args.clock_year, "sun_year": args.sun_year, "first_year": args.first_year,
              "last_year": args.last_year}
    years = {}
    for name, value in fields.items():
        value = str(value) if value is not None else old.get(name, "")
        if not value:
            raise Refused(f"{name.replace('_', '-')}: required for a new table (docs/decisions.md 'Printed timetables')")
        years[name] = value
    presets = " ".join(args.presets) if args.presets else old.get("presets", args.authority)
    read_on = args.read_on or datetime.now(timezone.utc).date().isoformat()
    try:
        build.date_argument(read_on)
    except argparse.ArgumentTypeError as error:
        raise Refused(f"read-on: {error}") from None
    return {"table": f"{args.authority}/{args.place}", "authority": args.authority, "presets": presets,
            "place": args.place, "city": args.place if city is not None else "", "lat": lat, "lng": lng,
            "coordinates": source, "tz": tz, **years, "source_url": args.source,
            "copied_from": args.copied_from if args.copied_from is not None else old.get("copied_from", ""),
            "read_on": read_on}


def read_file(path: Path) -> tuple[list[dict[str, str]], list[str]]:
    """The rows and header of the table file: at most `MAX_FILE_BYTES` are read (an endless input is
    refused, not exhausted), UTF-8 with or without a byte-order mark."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise Refused(f"FILE: cannot read {path} ({error.strerror or error})") from None
    if len(data) > MAX_FILE_BYTES:
        raise Refused(f"FILE: {path} holds more than {MAX_FILE_BYTES:,} bytes; a table is 367 lines of a few "
                      f"times each")
    try:
        text = data.decode("utf-8").removeprefix(BYTE_ORDER_MARK)  # a spreadsheet's "CSV UTF-8" starts with one
        reader = csv.DictReader(io.StringIO(text, newline=""))
        return list(reader), list(reader.fieldnames or ())
    except (UnicodeDecodeError, csv.Error) as error:
        raise Refused(f"FILE: cannot read {path} as UTF-8 CSV ({error})") from None


def validate(entry: dict[str, str], rows: list[dict[str, str]], header: list[str],
             others: list[timetables.Table]) -> timetables.Table:
    """Return the checked table (or raise `Refused` with the loader's message)."""
    try:
        table = timetables.build_table(entry, rows, header)
        timetables.check_places([*others, table])
    except timetables.TableError as error:
        raise Refused(str(error)) from None
    return table


def differences(old: timetables.Table | None, new: timetables.Table) -> list[str]:
    """Return the cells where ``new`` differs from the recorded table (``MM-DD column old -> new``)."""
    if old is None:
        return []
    out = [f"columns {', '.join(old.columns)} -> {', '.join(new.columns)}"] if old.columns != new.columns else []
    for name in new.columns:
        if name in old.printed:
            out += [f"{day} {name} {a} -> {b}" for day, a, b in zip(timetables.LEAP_DAYS, old.printed[name],
                                                                      new.printed[name]) if a != b]
    return out


def write(entry: dict[str, str], table: timetables.Table, directory: Path = timetables.TABLES_DIR) -> None:
    """Write the table file (as printed, in day order) and its index row, each atomically."""
    path = directory / f"{table.id}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["day", *table.columns])
        for k, day in enumerate(timetables.LEAP_DAYS):
            writer.writerow([day, *(table.printed[name][k] for name in table.columns)])
    index = directory / "index.csv"
    rows = [row for row in timetables.read_index(index) if row["table"] != entry["table"]] + [entry]
    rows.sort(key=lambda row: row["table"])
    index_tmp = index.with_name(f".{index.name}.tmp")
    with index_tmp.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, timetables.INDEX_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    tmp.replace(path)
    index_tmp.replace(index)


def render(city: str | None, out: str, jobs: int, today: date) -> None:
    """Re-render the static answers that name tables (build.py, incremental: unchanged files stay)."""
    from generator.site import responses

    responses._body.cache_clear()  # page answers cached in this process
    only = AFFECTED_ENDPOINTS if city is not None else ("methods",)
    args = ["--only", ",".join(only), "--out", out, "--jobs", str(jobs), "--today", today.isoformat()]
    build.main(args + (["--cities", city] if city is not None else []))


def add(args: argparse.Namespace) -> int:
    directory = Path(args.data).resolve()
    served = directory == timetables.TABLES_DIR.resolve()
    if not (directory / "index.csv").is_file():  # issue 34: was a traceback (FileNotFoundError)
        print(f"refused: --data {args.data}: no index.csv there; a tables' folder holds index.csv and "
              f"<authority>/<place>.csv files (start from a copy of {os.path.relpath(timetables.TABLES_DIR)}/)", file=sys.stderr)
        return 2
    try:
        recorded = timetables.TABLES if served else timetables.load(directory)
        existing = {row["table"]: row for row in timetables.read_index(directory / "index.csv")}
    except (timetables.TableError, OSError, UnicodeDecodeError, csv.Error) as error:
        print(f"refused: --data {args.data}: {error}", file=sys.stderr)
        return 2
    table_id = f"{args.authority}/{args.place}"
    try:
        entry = entry_for(args, existing.get(table_id))
        rows, header = read_file(Path(args.file))
        table = validate(entry, rows, header, [t for t in recorded if t.id != table_id])
    except Refused as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2
    old = next((t for t in recorded if t.id == table_id), None)
    print(f"table {table.id}: {len(timetables.LEAP_DAYS)} days, columns {', '.join(table.columns)}; "
          f"serves {', '.join(table.presets)} within {timetables.SERVE_RADIUS_KM:g} km of {table.lat}, {table.lng}, "
          f"years {table.first_year}-{table.last_year}: every check passed")
    changed = differences(old, table)
    if old is None:
        print("  a new table")
    else:
        print(f"  {len(changed)} cells differ from the recorded table" + (":" if changed else ""))
        for line in changed[:MAX_DIFFERENCES_SHOWN]:
            print(f"    {line}")
        if len(changed) > MAX_DIFFERENCES_SHOWN:
            print(f"    … and {len(changed) - MAX_DIFFERENCES_SHOWN} more")
    print(f"  static answers to re-render: {', '.join(AFFECTED_ENDPOINTS if table.city else ('methods',))}"
          + (f" for {table.city}" if table.city else ""))
    if args.dry_run:
        print("dry run: nothing written")
        return 0
    write(entry, table, directory)
    print(f"wrote {directory / table.id}.csv and {directory / 'index.csv'}")
    if not served:
        print("not the served data (--data): nothing re-rendered")
        return 0
    timetables.reload()
    today = args.today or datetime.now(timezone.utc).date()
    render(table.city, args.out, args.jobs, today)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("add", help="add or refresh a table")
    p.add_argument("file", help="the table as copied: day,MM-DD then the printed columns")
    p.add_argument("--authority", required=True, help="the authority's preset id (e.g. ImamAliFoundation)")
    p.add_argument("--place", required=True, help="a catalogue city id, or a new place id with --lat/--lng")
    p.add_argument("--source", required=True, help="http(s) URL of the authority's page")
    p.add_argument("--lat", type=float)
    p.add_argument("--lng", type=float)
    p.add_argument("--coordinates", help="where lat/lng come from (e.g. 'GeoNames 2654675')")
    p.add_argument("--presets", nargs="+", help="the presets the table serves (default: the authority)")
    p.add_argument("--tz", help="the IANA zone the table is printed in (default: the city's)")
    p.add_argument("--clock-year", type=int, help="the year whose clock (daylight saving) the table prints")
    p.add_argument("--sun-year", type=int, help="the year whose Sun the table was computed for (a perpetual table)")
    p.add_argument("--first-year", type=int)
    p.add_argument("--last-year", type=int)
    p.add_argument("--read-on", help="YYYY-MM-DD the table was read (default today)")
    p.add_argument("--copied-from", help="where the cells were copied from, when not the source page itself")
    p.add_argument("--dry-run", action="store_true", help="check and print; write nothing")
    p.add_argument("--data", default=str(timetables.TABLES_DIR), help="the tables' folder (default data/timetables; "
                   "another folder is checked and written, and nothing is re-rendered)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default=str(static_paths.STATIC_ROOT))
    p.add_argument("--today", type=build.date_argument, help="YYYY-MM-DD for the re-rendered pages (default: today, UTC)")
    args = parser.parse_args(argv)
    return add(args)


if __name__ == "__main__":
    sys.exit(main())
