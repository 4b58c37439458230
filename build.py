"""Render every cacheable response into static_out/ with the same `render()` the runtime uses.

Usage::

    python build.py [--years 2025-2027] [--only prayer-times,hijri] [--cities karbala,london] [--jobs 2]
                    [--today 2026-11-21]

The plan is a list of (endpoint, query) pairs.  Each query goes through the endpoint's
own ``parse`` — exactly what the runtime does with a request — so the file lands at the
canonical path (generator/output/static_paths.py) the runtime and nginx look for.  ``--only`` and
``--cities`` make a partial build (tests and previews): nothing is pruned and the build is not
marked complete.  A file is
written only when its bytes change (incremental; two builds are byte-identical), with
``.gz`` and ``.br`` siblings for nginx's gzip_static/brotli_static, written before the file
and checked on every build (each must decompress to the file's bytes, else it is rewritten).  Without ``--only``,
files no longer in the plan (e.g. yesterday's "today" answers) are removed.  Last, the build
writes the manifest (static_paths.MANIFEST: each file's hash and size; a partial build adds
its files to it): the app serves a file only when its bytes match it.
Also builds the generated tables (sun, Hijri months, eclipses) first.  The site's pages
(generator/site: index, city timetables, crescent maps) are jobs of kind ``pages``, written
to ``static_out/<route>/index.html`` the same way.
"""
from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import os
import re
import sys
import time
import zlib
from collections import Counter
from datetime import date, datetime, time as clock_time, timezone
from pathlib import Path

import brotli
from tqdm import tqdm

from generator.places import cities as catalogue
from generator import all_tables, site
from generator.output import static_paths
from generator.words import locale
from generator.api import BY_NAME, ENDPOINTS
from generator.api.endpoint import Window
from generator.query import Query
from deploy import publish

PAGES = "pages"  # the job kind of a site page (generator/site): query = (route, path parameters)


default_years = site.default_years  # this year ±1: also the years /sitemap.xml lists pages for


def plan(first_year: int, last_year: int, today: date,
         cities: tuple[str, ...] | None = None) -> list[tuple[str, dict]]:
    """Return every (endpoint name, query) to pre-render for the window: each endpoint's own plan."""
    window = Window(first_year, last_year, today, cities)
    return [(endpoint.name, query) for endpoint in ENDPOINTS for query in endpoint.plan(window)]


def _now_s(today: date) -> float:
    return datetime.combine(today, clock_time(12, 0), tzinfo=timezone.utc).timestamp()


def page_jobs(first_year: int, last_year: int, today: date,
              cities: tuple[str, ...] | None = None) -> list[tuple[str, tuple[str, dict]]]:
    """Return the site pages to pre-render, as (PAGES, (route, path parameters)) jobs."""
    return [(PAGES, (route, parameters))
            for route, parameters in site.static_pages(first_year, last_year, today, cities)]


def render_one(job: tuple[str, dict, float, str]) -> tuple[str, list[str], int, bool, str]:
    """Render one job and write it (and its compressed siblings) if its bytes changed.

    An answer or page that follows "today" goes under ``_today/`` (static_paths), and its
    stable public name becomes a hard link to it (re-made every build: a rewrite replaces the
    inode).  Returns (job kind, paths written or kept, bytes, changed, content hash)."""
    name, query, now_s, root = job
    today = datetime.fromtimestamp(now_s, timezone.utc).date()
    if name == PAGES:
        route, parameters = query
        page = {page.route: page for page in site.pages()}[route]
        stable = site.file_path(route, parameters)
        relative = static_paths.page_path(stable, today.isoformat() if page.today_dependent else None)
        body = page.render(today=today, **parameters)
    else:
        endpoint = BY_NAME[name]
        canonical = endpoint.parse(Query.of(query), now_s)
        relative = static_paths.relative_path(name, canonical.params, canonical.today_dependent)
        given = {key: value for key, value in canonical.params.items() if key in query}
        stable = static_paths.stable_path(name, given) if canonical.today_dependent else None
        body = endpoint.render(canonical.params)
    path = Path(root) / relative
    changed = not path.is_file() or path.read_bytes() != body
    if changed or not _siblings_hold(path, body):
        # The siblings first, the file last: a build killed in between leaves the file's old bytes,
        # so the next build sees the change and writes all three again.
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path.with_name(path.name + ".gz"), gzip.compress(body, compresslevel=9, mtime=0))
        _write_atomic(path.with_name(path.name + ".br"), brotli.compress(body, quality=9))
        if changed:
            _write_atomic(path, body)
        changed = True
    written = [relative]
    if stable is not None and stable != relative:
        _link(Path(root) / stable, path)
        written.append(stable)
    return name, written, len(body), changed, static_paths.content_hash(body)


def _siblings_hold(path: Path, body: bytes) -> bool:
    """Whether ``path``'s ``.gz`` and ``.br`` siblings decompress to ``body`` (nginx serves them to
    clients that accept compression: a stale one would give them another answer than the file)."""
    try:
        return (gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == body
                and brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == body)
    except (OSError, EOFError, zlib.error, brotli.error):  # missing, truncated or not compressed data
        return False


def _link(link: Path, target: Path) -> None:
    """Make ``link`` a hard link to ``target`` (atomically; nothing to do when it already is one)."""
    if link.exists() and os.path.samefile(link, target):
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    tmp = link.with_name(f".{link.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    os.link(target, tmp)
    os.replace(tmp, link)
    for sibling in (".gz", ".br"):  # a regular file's old siblings would outlive it
        link.with_name(link.name + sibling).unlink(missing_ok=True)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def build_tables() -> None:
    """Build the generated tables and load them, before workers fork (each would otherwise load them)."""
    all_tables.build()


def _years_argument(text: str) -> tuple[int, int]:
    """``--years A-B`` within 1900-2100 (a usage error otherwise, exit 2: issue 29 found ``--years 2026``
    ending in a ValueError traceback, after the tables were built)."""
    match = re.fullmatch(r"([0-9]{4})-([0-9]{4})", text, re.ASCII)
    if not match or not 1900 <= int(match[1]) <= int(match[2]) <= 2100:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: years A-B within 1900-2100, e.g. 2026-2026 for one year")
    return int(match[1]), int(match[2])


def date_argument(text: str) -> date:
    """A ``YYYY-MM-DD`` option (``--today``; timetable.py's too): an argparse type, so anything else is a
    usage error (exit 2)."""
    try:
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text, re.ASCII):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a date YYYY-MM-DD")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--years", type=_years_argument, help="Gregorian years A-B (default: this year ±1)")
    parser.add_argument("--only", help="comma-separated endpoint names, or pages for the site (default: all)")
    parser.add_argument("--cities", help="comma-separated catalogue ids: only their per-city answers and pages "
                                         "(default: every city)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--today", type=date_argument, help="YYYY-MM-DD to build 'today' answers for (default: today, UTC)")
    parser.add_argument("--out", default=str(static_paths.STATIC_ROOT))
    parser.add_argument("--tables-only", action="store_true", help="build the generated tables and stop")
    parser.add_argument("--if-missing", action="store_true",
                        help="render only when no full build has completed into --out yet; else finish the "
                             "partial builds an interrupted announce.py left (static_paths.PENDING_DIR)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    build_tables()
    print(f"tables ready ({time.perf_counter() - started:.1f} s)")
    complete = Path(args.out) / static_paths.COMPLETE_MARKER
    manifest_path = Path(args.out) / static_paths.MANIFEST
    if args.tables_only:
        return
    if args.if_missing and complete.is_file() and manifest_path.is_file():
        finish_pending(Path(args.out), args.jobs)
        return
    today = args.today or datetime.now(timezone.utc).date()
    first_year, last_year = args.years or default_years(today)
    cities = None
    if args.cities:
        cities = tuple(sorted(set(args.cities.split(","))))
        unknown_cities = set(cities) - set(catalogue.by_id())
        if unknown_cities:
            parser.error(f"unknown cities: {', '.join(sorted(unknown_cities))}")
    partial = bool(args.only or cities)
    jobs = plan(first_year, last_year, today, cities) + page_jobs(first_year, last_year, today, cities)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - set(BY_NAME) - {PAGES}
        if unknown:
            parser.error(f"unknown endpoints: {', '.join(sorted(unknown))}")
        jobs = [job for job in jobs if job[0] in wanted]
    now_s = _now_s(today)
    work = [(name, query, now_s, args.out) for name, query in jobs]
    counts, sizes, written, produced = Counter(), Counter(), 0, set()
    manifest = static_paths.read_manifest(Path(args.out)) if partial else {}  # a partial build adds to it
    progress = _Progress(len(work))
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        results = pool.imap_unordered(render_one, work, chunksize=8)
        for name, relatives, size, changed, digest in tqdm(results, total=len(work), disable=not sys.stderr.isatty(),
                                                            unit="file", desc="rendering"):
            counts[name] += 1
            sizes[name] += size
            written += changed
            produced.update(relatives)
            manifest[relatives[0]] = (digest, size)
            progress.step()
    manifest.update(_write_front_files(Path(args.out)))
    removed = 0 if partial else _prune(Path(args.out), produced)
    static_paths.write_manifest(Path(args.out), manifest)  # last: every file it names is written
    if os.environ.get("PUBLISH_ROOT"):  # nginx's root: the files that hold the manifest's bytes (deploy/publish.py)
        published = publish.publish(Path(args.out), Path(os.environ["PUBLISH_ROOT"]))
        print(f"published {published.generation}: {published.copied} copied, {published.linked} linked, "
              f"{len(published.refused)} refused, {len(published.forecasts)} marked as Hijri forecasts")
    if not partial:  # --if-missing resumes an interrupted first build, not a finished one
        complete.write_text(f"{today.isoformat()}\n")
        for pending in pending_builds(Path(args.out)):  # a full build re-rendered what they asked for
            pending.unlink()
    elapsed = time.perf_counter() - started
    print(f"static_out: {sum(counts.values())} responses for {first_year}-{last_year} "
          f"({written} written, {sum(counts.values()) - written} unchanged, {removed} stale removed) "
          f"in {elapsed:.1f} s with {args.jobs} jobs")
    for name in sorted(counts):
        print(f"  {name:18} {counts[name]:6} files {sizes[name] / 1e6:9.1f} MB")


def pending_builds(root: Path) -> list[Path]:
    """The partial builds asked for in ``root`` and not finished (static_paths.PENDING_DIR), oldest name first."""
    folder = root / static_paths.PENDING_DIR
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def ask_for(root: Path, name: str, arguments: list[str] | None) -> Path:
    """Record that the partial build ``arguments`` (build.py options other than --out and --jobs;
    None: only the tables) must run in ``root`` before it is current: announce.py records its
    re-render before it changes anything, and removes the record when it is done."""
    folder = root / static_paths.PENDING_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    _write_atomic(path, json.dumps({"build": arguments}).encode())
    return path


def finish_pending(root: Path, jobs: int) -> None:
    """Run every partial build recorded in ``root`` (`ask_for`) and remove its record: what an
    interrupted announce.py left undone (`make serve` runs this through --if-missing)."""
    for pending in pending_builds(root):
        arguments = json.loads(pending.read_text())["build"]
        print(f"finishing {pending.name}: build.py {' '.join(arguments or ['--tables-only'])}", flush=True)
        if arguments:
            main([*arguments, "--out", str(root), "--jobs", str(jobs)])
        pending.unlink()


def _write_front_files(root: Path) -> dict[str, tuple[str, int]]:
    """The `_headers` file for static hosts, and the pages nginx answers 429 with (deploy/nginx.conf);
    return the manifest's entries for the pages (nginx's root holds only what the manifest names)."""
    (root / static_paths.HEADERS_FILE).write_text(static_paths.headers_file())
    errors = root / static_paths.ERRORS_DIR
    errors.mkdir(parents=True, exist_ok=True)
    entries = {}
    for lang in locale.LANGUAGES:
        page = site.error_page("", 429, lang)
        _write_atomic(errors / f"429-{lang}.html", page)
        entries[f"{static_paths.ERRORS_DIR}/429-{lang}.html"] = (static_paths.content_hash(page), len(page))
    return entries


class _Progress:
    """A progress line every 10 s when stderr is not a terminal (tqdm draws a bar when it is)."""

    def __init__(self, total: int, every_s: float = 10.0):
        self.total, self.done, self.every_s = total, 0, every_s
        self.started = self.last = time.perf_counter()
        self.quiet = sys.stderr.isatty()

    def step(self) -> None:
        self.done += 1
        now = time.perf_counter()
        if not self.quiet and (now - self.last >= self.every_s or self.done == self.total):
            self.last = now
            print(f"rendering: {self.done}/{self.total} files ({100 * self.done / self.total:.0f} %, "
                  f"{now - self.started:.0f} s)", flush=True)


def _prune(root: Path, produced: set[str]) -> int:
    removed = 0
    routes = [page.route for page in site.pages()]
    page_folders = {route.strip("/").split("/")[0] for route in routes if route.endswith("/")} - {""}
    # pages that are files (robots.txt, sitemap.xml, sitemap-<n>.xml): their routes as patterns
    page_files = {re.sub(r"\{[^}]*\}", "*", route.lstrip("/")) for route in routes if not route.endswith("/")}
    folders = ("v1", static_paths.TODAY_DIR, static_paths.STABLE_DIR, *sorted(page_folders))
    candidates = [*(p for folder in folders for p in (root / folder).rglob("*")),
                  *(p for pattern in sorted(page_files) for p in root.glob(pattern + "*"))]  # and .gz, .br
    for path in candidates:
        if not path.is_file():
            continue
        relative = path.relative_to(root).as_posix()
        base = relative[: -len(".gz")] if relative.endswith(".gz") else relative[: -len(".br")] if relative.endswith(".br") else relative
        if base not in produced:
            path.unlink()
            removed += 1
    return removed


if __name__ == "__main__":
    main()
