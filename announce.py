"""Publish a newly announced month start in one step.

Usage::

    python announce.py moonsighting 1448 10 2027-03-10 --source URL [--reported 2027-03-09]
                                 [--kind announcement|forecast] [--dry-run] [--jobs 2] [--out static_out]
    python announce.py pakistan 1448 10 2027-03-10 --source URL [--reported 2027-03-09]
                                 [--decided-by ruet-e-hilal|shia-ulema] [--quote "…"] [--dry-run] …
    python announce.py india 1448 10 2027-03-10 --source URL [--decided-by lucknow-shia] [--quote "…"] …
    python announce.py lebanon 1448 10 2027-03-10 --source URL [--decided-by fadlallah-office] [--quote "…"] …
    python announce.py azerbaijan 1448 10 2027-03-10 --source URL [--decided-by qmi] [--quote "…"] …
    python announce.py cssna-west 1448 10 2027-03-10 --source URL [--quote "…"] …   (and cssna-east)

``moonsighting`` (authority ``sistani``, data/announced_month_starts.csv), ``pakistan``,
``india``, ``lebanon`` and ``azerbaijan`` (data/month_starts/<calendar>.csv, issues 26 and 37:
``--decided-by`` names the body, by default the Central Ruet-e-Hilal Committee, the Shia committee
of Lucknow, the office of Sayyid Muhammad Husayn Fadlallah and the Caucasian Muslims' Board
(``qmi``); the row is the day the community keeps) take announcements, and so do ``cssna-east`` and
``cssna-west`` (issue 37: the Council of Shia Muslim Scholars of North America,
data/month_starts/cssna.csv; the row is written for the named region, so a day announced for the
whole continent is recorded once for each); ``iran`` months come from Iran's
official table (data/iran_hijri_month_starts.csv), which is a table update, not an
announcement.  The row is checked before anything is written:

* ``hy``/``hm`` inside the API's years (1317–1523) and 1–12; the date a real date;
* the month not yet in the data (a different date for a recorded month is a correction:
  edit the file by hand, with its source, so that the change is reviewed);
* astronomy: the evening before day 1 comes after the conjunction (the crescent can exist),
  and day 1 is at most `MAX_DAYS_FROM_COMPUTED` days from the calibrated `computed` rule;
* no gap or overlap: the month lasts 29 or 30 days against announced neighbours, and the
  whole reckoning stays consistent (`hijri._assemble` refuses otherwise);
* ``--source`` an http(s) URL without spaces or control characters; ``--reported`` (the
  date of the statement) a real date, no later than day 1 and at most 30 days before it.

Then the row is written to its file in (hy, hm, authority) order,
the Hijri month table is rebuilt, and build.py re-renders the static answers that depend on
Hijri dates (`AFFECTED_ENDPOINTS`) for the Gregorian years whose dates changed, within the
window the daily build keeps (this year ±1).  ``--dry-run`` prints the checks and what
would change, and writes nothing.  Exit status: 0 done, 2 refused.

Before the row is written, the re-render is recorded as a pending build in the static root
(build.ask_for, ``<out>/.pending-builds/``), and the record is removed when all is done.  A run
killed in between is finished by running the same command again (the row is recorded with the
same date and the record is there: the table is rebuilt and the re-render run), or by
`make serve`, whose ``build.py --tables-only`` rebuilds the table and whose background
``build.py --if-missing`` runs every pending build.  Running app processes follow the new data
by themselves (runtime/app.py looks at the Hijri files' modification times every second).
"""
from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from datetime import date, datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

from generator.calendars import hijri, hijri_regions
from generator.output import static_paths
from generator.places import days

AUTHORITY = {"moonsighting": ("sistani", "Sistani office (Najaf; Iraq and neighbouring areas)")}
# The South Asian reckonings (issue 26): the body that decides by default (--decided-by names another).
REGIONAL_AUTHORITY = {"pakistan": "ruet-e-hilal", "india": "lucknow-shia", "lebanon": "fadlallah-office",
                      "azerbaijan": "qmi", "cssna-east": "cssna", "cssna-west": "cssna"}
ANNOUNCING = (*AUTHORITY, *REGIONAL_AUTHORITY)
KINDS = ("announcement", "forecast")
COLUMNS = ("hy", "hm", "gregorian_start", "authority_id", "kind", "authority", "source", "reported")
MAX_DAYS_FROM_COMPUTED = 2
MAX_REPORT_DAYS_BEFORE = 30
MAX_QUOTE_CHARS = 200
LATEST_IRAQ_SUNSET_UTC_DAYS = (19.5 - 3.0) / 24.0  # 19:30 local (UTC+3): later than any sunset in Iraq
# Later than any sunset where the reckoning's crescent is looked for (19:45 PKT, UTC+5; 19:30 IST, UTC+5:30;
# for lebanon the westernmost place of its rule, Los Angeles, 20:15 PDT, UTC-7: a day-1 evening in Beirut's date;
# for cssna-west Los Angeles likewise, for cssna-east Toronto, 21:05 EDT, UTC-4;
# for azerbaijan 21:00 AZT, UTC+4: later than Nakhchivan's midsummer sunset, the country's latest).
LATEST_SUNSET_UTC_DAYS = {"moonsighting": LATEST_IRAQ_SUNSET_UTC_DAYS, "pakistan": (19.75 - 5.0) / 24.0,
                          "india": (19.5 - 5.5) / 24.0, "lebanon": (20.25 + 7.0) / 24.0,
                          "azerbaijan": (21.0 - 4.0) / 24.0,
                          "cssna-east": (21.25 + 4.0) / 24.0, "cssna-west": (20.25 + 7.0) / 24.0}
MAX_URL_CHARS = 500
AFFECTED_ENDPOINTS = ("hijri", "events", "day-status", "eclipses", "moon-visibility", "events.ics", "fasting.ics",
                      "pages")


class Refused(ValueError):
    """The row fails a check; the message says which and why."""


def _iso(unix_day: int) -> str:
    return str(np.datetime64(int(unix_day), "D"))


def _real_date(text: str, what: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise Refused(f"{what}: {text!r} is not a real date YYYY-MM-DD") from None


def check_source(url: str) -> str:
    if len(url) > MAX_URL_CHARS or re.search(r"[\s\x00-\x1f\x7f]", url):
        raise Refused(f"source: an http(s) URL of at most {MAX_URL_CHARS} characters, without spaces")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise Refused("source: an http(s) URL (the page that reports the announcement)")
    return url


def recorded_starts(calendar: str) -> dict[tuple[int, int], int]:
    """Return {(hy, hm): start day} of the months ``calendar`` already has as announced."""
    if calendar in REGIONAL_AUTHORITY:
        return {key: row.start for key, row in hijri_regions.announced(calendar).items()}
    return hijri.read_announced((AUTHORITY[calendar][0],))


def data_path(calendar: str) -> Path:
    """Return the file a calendar's announcements are written to."""
    return hijri_regions.path_of(calendar) if calendar in REGIONAL_AUTHORITY else hijri.ANNOUNCED_PATH


def validate(calendar: str, hy: int, hm: int, start_text: str, source: str, reported_text: str | None = None,
             kind: str = "announcement", decided_by: str | None = None, quote: str = "",
             read_on: date | None = None) -> dict:
    """Return the CSV row of a valid announcement, or raise `Refused`.

    ``decided_by`` and ``quote`` are for the South Asian reckonings (the body that announced the
    day the Shia keep, and the report's words); ``read_on`` is the day the report was read (today).
    """
    if calendar not in ANNOUNCING:
        if calendar in hijri.CALENDARS:
            raise Refused(f"calendar: {calendar} months come from its official table, not announcements "
                          f"(data/iran_hijri_month_starts.csv)")
        raise Refused(f"calendar: one of {', '.join(ANNOUNCING)}")
    regional = calendar in REGIONAL_AUTHORITY
    if regional and kind != "announcement":
        raise Refused(f"kind: {calendar} records announcements only")
    if not regional and (decided_by or quote):
        raise Refused(f"{'decided-by' if decided_by else 'quote'}: for the "
                      f"{', '.join(REGIONAL_AUTHORITY)} reckonings only")
    if not hijri.API_FIRST_YEAR <= hy <= hijri.API_LAST_YEAR:
        raise Refused(f"hy: {hijri.API_FIRST_YEAR}..{hijri.API_LAST_YEAR}")
    if not 1 <= hm <= 12:
        raise Refused("hm: 1..12")
    if kind not in KINDS:
        raise Refused(f"kind: one of {', '.join(KINDS)}")
    start = days.unix_day(_real_date(start_text, "date"))
    check_source(source)
    reported = ""
    if reported_text:
        days_before = start - days.unix_day(_real_date(reported_text, "reported"))
        if not 0 <= days_before <= MAX_REPORT_DAYS_BEFORE:
            raise Refused(f"reported: a date from {MAX_REPORT_DAYS_BEFORE} days before day 1 to day 1 itself")
        reported = reported_text
    if regional:
        decided_by = decided_by or REGIONAL_AUTHORITY[calendar]
        if not hijri_regions.AUTHORITY_ID.fullmatch(decided_by):
            raise Refused("decided-by: an id such as ruet-e-hilal, shia-ulema, lucknow-shia, fadlallah-office or qmi")
        if len(quote) > MAX_QUOTE_CHARS or re.search(r"[\x00-\x1f\x7f]", quote):
            raise Refused(f"quote: at most {MAX_QUOTE_CHARS} characters on one line")
    recorded = recorded_starts(calendar)
    if (hy, hm) in recorded:
        raise Refused(f"{hy}/{hm}: already recorded as {_iso(recorded[(hy, hm)])}; a correction is a reviewed "
                      f"hand edit of {data_path(calendar).name}")
    conjunction = float(hijri.conjunction_day(hy, hm))
    if conjunction >= start - 1 + LATEST_SUNSET_UTC_DAYS[calendar]:
        raise Refused(f"date: the evening before {_iso(start)} is before the conjunction "
                      f"({np.datetime64(round(conjunction * 86400), 's')} UT): no crescent can be seen")
    computed = int(hijri.computed_start(hy, hm, calendar))
    if abs(start - computed) > MAX_DAYS_FROM_COMPUTED:
        raise Refused(f"date: {_iso(start)} is {start - computed:+d} days from what astronomy allows "
                      f"(computed {_iso(computed)}; at most {MAX_DAYS_FROM_COMPUTED})")
    previous = (hy - 1, 12) if hm == 1 else (hy, hm - 1)
    following = (hy + 1, 1) if hm == 12 else (hy, hm + 1)
    for month, neighbour, length in ((previous, previous, start - recorded.get(previous, start - 29)),
                                     ((hy, hm), following, recorded.get(following, start + 29) - start)):
        if not hijri.MIN_MONTH_DAYS <= length <= hijri.MAX_MONTH_DAYS:
            raise Refused(f"date: {month[0]}/{month[1]} would last {length} days, given the announced "
                          f"{neighbour[0]}/{neighbour[1]} = {_iso(recorded[neighbour])} (a gap or an overlap)")
    try:
        after_starts({**recorded, (hy, hm): start}, calendar)
    except ValueError as error:
        raise Refused(f"date: {error}") from None
    if regional:
        read_on = read_on or datetime.now(timezone.utc).date()
        row = {"hy": str(hy), "hm": str(hm), "gregorian_start": _iso(start), "decided_by": decided_by,
               "shia_followed": "yes", "source": source, "quote": quote, "reported": reported,
               "read": read_on.isoformat()}
        region = hijri_regions.REGIONS[calendar].region
        return {**row, "region": region} if region else row
    authority_id, authority = AUTHORITY[calendar]
    return {"hy": str(hy), "hm": str(hm), "gregorian_start": _iso(start), "authority_id": authority_id,
            "kind": kind, "authority": authority, "source": source, "reported": reported}


def after_starts(fixed: dict[tuple[int, int], int], calendar: str = "moonsighting") -> np.ndarray:
    """Return ``calendar``'s month starts with ``fixed`` as the table (same rules and seams as the build)."""
    return hijri.starts_with(calendar, fixed)


def changed_months(before: np.ndarray, after: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Return (hy, hm, old start, new start) of every month whose start moves."""
    k = np.flatnonzero(before[: hijri.month_count()] != after[: hijri.month_count()])
    years, months = hijri._year_month(k)
    return [(int(y), int(m), int(before[i]), int(after[i])) for y, m, i in zip(years, months, k)]


def affected_years(before: np.ndarray, after: np.ndarray, announced: int, today: date) -> tuple[int, int] | None:
    """Return the Gregorian years (first, last) whose Hijri answers change, within this year ±1, or None.

    ``announced`` is the index of the announced month: its source becomes `table` even when
    its start does not move.  Months are indexed as in `hijri` (``before``/``after`` hold one
    start more than there are months: the end of the last).
    """
    k = np.union1d(np.flatnonzero(before[:-1] != after[:-1]), [announced])
    lo = int(min(before[k].min(), after[k].min()))
    hi = int(max(before[k + 1].max(), after[k + 1].max())) - 1  # last day of the last month touched
    epoch = date(1970, 1, 1).toordinal()
    first = max(date.fromordinal(lo + epoch).year, today.year - 1)
    last = min(date.fromordinal(hi + epoch).year, today.year + 1)
    return (first, last) if first <= last else None


def write_row(row: dict, calendar: str = "moonsighting", path: Path | None = None) -> None:
    """Insert ``row`` (a row of ``calendar``) into its announcements file in (hy, hm, authority) order, atomically."""
    regional = calendar in REGIONAL_AUTHORITY
    path = path or data_path(calendar)
    columns, who = (hijri_regions.columns_of(calendar), "decided_by") if regional else (COLUMNS, "authority_id")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows.append(row)
    rows.sort(key=lambda r: (int(r["hy"]), int(r["hm"]), r[who]))
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    tmp.replace(path)


def build_arguments(years: tuple[int, int] | None) -> list[str] | None:
    """The build.py options that re-render what an announcement changes in ``years`` (None: nothing)."""
    return None if years is None else ["--only", ",".join(AFFECTED_ENDPOINTS), "--years", f"{years[0]}-{years[1]}"]


def render(arguments: list[str] | None, out: str, jobs: int, today: date | None) -> None:
    """Rebuild the Hijri month table, then re-render with build.py (incremental: unchanged files stay)."""
    import build
    from generator.site import responses

    hijri.reload()
    hijri.to_hijri(0)  # rebuilds data/tables/hijri_months.parquet (new data hash)
    print(f"rebuilt {hijri.TABLE_PATH.name}")
    if arguments:
        responses._body.cache_clear()  # page answers cached in this process
        build.main([*arguments, "--out", out, "--jobs", str(jobs),
                    *(["--today", today.isoformat()] if today else [])])


def announcer(calendar: str) -> str:
    """Return the name an announcement of ``calendar`` is recorded under among the pending builds."""
    return AUTHORITY[calendar][0] if calendar in AUTHORITY else calendar


def pending_name(authority_id: str, hy: int, hm: int) -> str:
    """The name of an announcement's record among the pending builds (build.ask_for)."""
    return f"announce-{authority_id}-{hy}-{hm:02d}"


def finish(calendar: str, hy: int, hm: int, start_text: str, out: str, jobs: int) -> bool:
    """Finish an announcement whose run was interrupted after its row was written: True when the row
    is recorded with this date and its pending build is still there (then it has now run)."""
    import build

    if calendar not in ANNOUNCING:
        return False
    pending = Path(out) / static_paths.PENDING_DIR / f"{pending_name(announcer(calendar), hy, hm)}.json"
    recorded = recorded_starts(calendar).get((hy, hm))
    if not pending.is_file() or recorded is None or _iso(recorded) != start_text:
        return False
    print(f"{hy}/{hm} = {start_text} is recorded, and its publishing was interrupted: finishing it")
    render(json.loads(pending.read_text())["build"], out, jobs, None)
    pending.unlink()
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("calendar")
    parser.add_argument("hy", type=int)
    parser.add_argument("hm", type=int)
    parser.add_argument("date", help="day 1 of the month, YYYY-MM-DD")
    parser.add_argument("--source", required=True, help="http(s) URL of the page reporting the announcement")
    parser.add_argument("--reported", help="date of the statement, YYYY-MM-DD")
    parser.add_argument("--kind", default="announcement", choices=KINDS)
    parser.add_argument("--decided-by", help="pakistan, india, lebanon, azerbaijan, cssna-east, cssna-west: the body "
                                             "that announced the day the Shia keep (default ruet-e-hilal, lucknow-shia, "
                                             "fadlallah-office, qmi, cssna; e.g. shia-ulema)")
    parser.add_argument("--quote", default="", help="pakistan, india, lebanon, azerbaijan, cssna-east, cssna-west: "
                                                    "the report's words that state the date")
    parser.add_argument("--dry-run", action="store_true", help="check and print what would change; write nothing")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=str(static_paths.STATIC_ROOT))
    parser.add_argument("--today", help="YYYY-MM-DD (default: today, UTC): the window re-rendered is this year ±1")
    args = parser.parse_args(argv)
    today = date.fromisoformat(args.today) if args.today else datetime.now(timezone.utc).date()
    if not args.dry_run and finish(args.calendar, args.hy, args.hm, args.date, args.out, args.jobs):
        return 0
    try:
        row = validate(args.calendar, args.hy, args.hm, args.date, args.source, args.reported, args.kind,
                       args.decided_by, args.quote, today)
    except Refused as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2
    before = hijri._reckoning(args.calendar).start
    after = after_starts({**recorded_starts(args.calendar), (args.hy, args.hm): days.unix_day(
        date.fromisoformat(row["gregorian_start"]))}, args.calendar)
    print(f"row: {','.join(row.values())}")
    print(f"  {args.hy}/{args.hm:02d} source {hijri.month_source(args.hy, args.hm, args.calendar)} -> table")
    for y, m, old, new in changed_months(before, after):
        print(f"  {y}/{m:02d} starts {_iso(old)} -> {_iso(new)}")
    years = affected_years(before, after, int(hijri._index(args.hy, args.hm)), today)
    window = f"{years[0]}-{years[1]}" if years else "no year of the kept window"
    print(f"  static answers to re-render: {', '.join(AFFECTED_ENDPOINTS)} for {window}")
    if args.dry_run:
        print("dry run: nothing written")
        return 0
    import build

    # Recorded before anything changes, removed when all is done: an interrupted run is finished
    # by running it again, or by `make serve` (build.py --if-missing runs the pending builds).
    # (Nothing to re-render: no record; the table is rebuilt by whichever process reads it next.)
    arguments = build_arguments(years)
    pending = arguments and build.ask_for(Path(args.out), pending_name(announcer(args.calendar), args.hy, args.hm),
                                          arguments)
    write_row(row, args.calendar)
    print(f"wrote {data_path(args.calendar).name}")
    render(arguments, args.out, args.jobs, today)
    if pending:
        pending.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
