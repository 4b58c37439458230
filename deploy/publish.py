"""Publish the files of a build that hold the bytes its manifest names, as one read-only tree nginx serves.

Usage::

    python -m deploy.publish STATIC_ROOT SITE_ROOT [--keep 2] [--fresh]   (from the repository root)
    python -m deploy.publish --verify SITE_ROOT

build.py writes ``STATIC_ROOT`` (static_out/) and ends with its manifest (static_paths.MANIFEST: each
file's XXH3-128 and size).  This step copies every file the manifest names into a new generation
``SITE_ROOT/gen-<UTC time>-<pid>/`` only when its bytes are the manifest's, each ``.gz``/``.br``
sibling only when it decompresses to them, then points ``SITE_ROOT/current`` at it with one rename
(an atomic symlink swap) and removes all but the ``--keep`` newest generations.  nginx's root is
``SITE_ROOT/current`` (deploy/nginx.conf): it sends any file found there without asking the app,
so the static site outlives the app (issue 34), and it still never sends bytes the manifest does
not vouch for (issue 29): a truncated, garbled or planted file in static_out/ is left out (the app
renders that answer), and one damaged in static_out/ after publishing never reaches the copy.

Files are copies, never links to static_out/ (a file rewritten in place there would change the
copy too); a file whose manifest entry is the one the current generation published is hard-linked
from that generation instead, once its copy there is read and checked again (the copies are read-only,
0444, written only here; a damaged one is copied afresh), so a daily build costs the disk of what changed.  build.py runs this after every build (announcements'
partial builds too) when ``PUBLISH_ROOT`` is set.  Publications are serialised by a lock file.

A published file that states a Hijri forecast (generator/site/lifetimes.py `states_forecast`: a month no
announcement has fixed yet) gets an empty, read-only sibling ``<file>.forecast`` (`FORECAST_MARKER`) in the
new generation, and nginx sends that file with an hour's lifetime instead of its location's week or day,
without asking the app (issue 35; docs/decisions.md "A forecast's lifetime on static files").  Markers are
decided afresh by every publication from the Hijri data loaded then (never linked from the previous
generation): the publication build.py runs after announce.py's re-render drops the markers of a month just
announced.  They are not in the generation's manifest (nothing to check: they are empty), there is never one
without its file, and a manifest entry whose name ends in ``.forecast`` is refused (a marker is never the
content of another address; nginx's locations never name a path ending in it either).
"""
from __future__ import annotations

import argparse
import fcntl
import gzip
import os
import shutil
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import brotli

from generator.output import static_paths
from generator.site import lifetimes

CURRENT = "current"  # the symlink nginx's root names
GENERATION_PREFIX = "gen-"
SIBLINGS = (".gz", ".br")  # what nginx's gzip_static and brotli_static send in a file's place
FORECAST_MARKER = lifetimes.FORECAST_MARKER  # "<file>.forecast": the file states a Hijri forecast (deploy/nginx.conf)
KEEP = 2  # generations kept: the current one and the one before (requests in flight may still read it)
LOCK = ".publish.lock"


@dataclass
class Published:
    """What one publication did: its folder and, by verdict, the relative paths it saw."""
    generation: Path
    copied: int = 0  # files (and siblings) read, checked and copied
    linked: int = 0  # unchanged files hard-linked from the previous generation
    refused: list[str] = field(default_factory=list)  # named by the manifest, but other bytes or absent
    refused_siblings: list[str] = field(default_factory=list)  # a .gz/.br that is not its file compressed
    forecasts: list[str] = field(default_factory=list)  # published files marked as stating a Hijri forecast


def _decompressed(data: bytes, extension: str) -> bytes | None:
    try:
        return gzip.decompress(data) if extension == ".gz" else brotli.decompress(data)
    except (OSError, EOFError, zlib.error, brotli.error):
        return None


def _write_read_only(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "xb") as file:
        file.write(data)
    path.chmod(0o444)


def _damaged(generation: Path, relative: str, entry: tuple[str, int]) -> list[str]:
    """The file (or siblings) of ``generation`` that no longer hold the bytes ``entry`` names."""
    try:
        body = (generation / relative).read_bytes()
    except OSError:
        return [relative]
    if (static_paths.content_hash(body), len(body)) != tuple(entry):
        return [relative]
    bad = []
    for extension in SIBLINGS:
        sibling = generation / (relative + extension)
        if sibling.is_file() and _decompressed(sibling.read_bytes(), extension) != body:
            bad.append(relative + extension)
    return bad


def _good_copy(generation: Path, relative: str, entry: tuple[str, int]) -> bool:
    """Whether the copy in ``generation`` (and its siblings) still hold the bytes ``entry`` names: a copy
    damaged after it was published is never linked into the next generation (it is copied afresh)."""
    return not _damaged(generation, relative, entry)


def current_generation(site_root: Path) -> Path | None:
    """The generation ``SITE_ROOT/current`` points at, None before the first publication."""
    link = Path(site_root) / CURRENT
    return Path(site_root) / os.readlink(link) if link.is_symlink() else None


def publish(static_root: Path, site_root: Path, keep: int = KEEP, *, fresh: bool = False) -> Published:
    """Check every file ``static_root``'s manifest names, copy the good ones into a new generation
    under ``site_root``, swap ``site_root/current`` to it and prune old generations.  ``fresh``: link
    nothing from the current generation (every file read and checked again)."""
    static_root, site_root = Path(static_root), Path(site_root)
    site_root.mkdir(parents=True, exist_ok=True)
    with open(site_root / LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _publish_locked(static_root, site_root, max(1, keep), fresh)


def _publish_locked(static_root: Path, site_root: Path, keep: int, fresh: bool) -> Published:
    manifest = static_paths.read_manifest(static_root)
    previous = None if fresh else current_generation(site_root)
    previous_manifest = static_paths.read_manifest(previous) if previous else {}
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    result = Published(site_root / f"{GENERATION_PREFIX}{stamp}-{os.getpid()}-{time.monotonic_ns()}")
    result.generation.mkdir()
    published: dict[str, tuple[str, int]] = {}
    for relative, entry in sorted(manifest.items()):
        if (relative.startswith("/") or ".." in relative.split("/") or "/." in "/" + relative
                or relative.endswith(FORECAST_MARKER)):
            result.refused.append(relative)  # never a path outside the tree, a dot-file or a marker's name
            continue
        target = result.generation / relative
        if previous is not None and previous_manifest.get(relative) == entry and _good_copy(previous, relative, entry):
            target.parent.mkdir(parents=True, exist_ok=True)
            for extension in ("", *SIBLINGS):  # the previous generation's copies, checked again just now
                source = previous / (relative + extension)
                if source.is_file():
                    os.link(source, target.with_name(target.name + extension))
                    result.linked += 1
            published[relative] = entry
            continue
        try:
            body = (static_root / relative).read_bytes()
        except OSError:
            result.refused.append(relative)
            continue
        if (static_paths.content_hash(body), len(body)) != tuple(entry):
            result.refused.append(relative)  # the app renders this answer
            continue
        _write_read_only(target, body)
        result.copied += 1
        published[relative] = entry
        for extension in SIBLINGS:
            try:
                compressed = (static_root / (relative + extension)).read_bytes()
            except OSError:
                continue  # none: nginx compresses the file itself
            if _decompressed(compressed, extension) == body:
                _write_read_only(target.with_name(target.name + extension), compressed)
                result.copied += 1
            else:
                result.refused_siblings.append(relative + extension)
    now_s = time.time()  # reads dated file names back into their parameters (the same any day)
    for relative in published:  # after every file: a marker is never written without its file
        if lifetimes.states_forecast(relative, now_s):
            _write_read_only(result.generation / (relative + FORECAST_MARKER), b"")
            result.forecasts.append(relative)
    static_paths.write_manifest(result.generation, published)  # what this generation holds (a dot-file)
    _swap(site_root, result.generation)
    _prune(site_root, keep)
    return result


def _swap(site_root: Path, generation: Path) -> None:
    """Point ``site_root/current`` at ``generation`` with one rename: a reader sees the old tree or the new."""
    temporary = site_root / f".{CURRENT}.{os.getpid()}.tmp"
    if temporary.is_symlink() or temporary.exists():
        temporary.unlink()
    os.symlink(generation.name, temporary)  # relative: the site root may be moved or mounted elsewhere
    os.replace(temporary, site_root / CURRENT)


def _prune(site_root: Path, keep: int) -> None:
    current = current_generation(site_root)
    generations = sorted((p for p in site_root.iterdir() if p.name.startswith(GENERATION_PREFIX) and p.is_dir()),
                         key=lambda p: p.stat().st_mtime_ns, reverse=True)
    kept = [current] + [p for p in generations if p != current][: keep - 1]
    for old in generations:
        if old not in kept:
            shutil.rmtree(old)  # files are 0444 but their folders are writable: unlinking needs only the folder


def verify(site_root: Path) -> list[str]:
    """The files of the current generation whose bytes (or whose siblings' decompressed bytes) are no longer
    those its manifest names: damage from outside after publishing (a disk, an operator).  Empty: all good."""
    generation = current_generation(Path(site_root))
    if generation is None:
        return []
    return [bad for relative, entry in sorted(static_paths.read_manifest(generation).items())
            for bad in _damaged(generation, relative, entry)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("static_root", nargs="?", help="build.py's output (static_out/); not with --verify")
    parser.add_argument("site_root", help="where the generations and the `current` symlink live (nginx's root)")
    parser.add_argument("--keep", type=int, default=KEEP, help="generations kept (default %(default)s)")
    parser.add_argument("--fresh", action="store_true",
                        help="read and check every file again, linking none from the current generation")
    parser.add_argument("--verify", action="store_true",
                        help="only check the current generation's files again; exit 1 naming each damaged one")
    args = parser.parse_args(argv)
    if args.verify:
        bad = verify(Path(args.site_root))
        for relative in bad:
            print(f"damaged: {relative}")
        print(f"{len(bad)} damaged files in {current_generation(Path(args.site_root))}")
        raise SystemExit(1 if bad else 0)
    if args.static_root is None:
        parser.error("static_root is needed to publish")
    result = publish(Path(args.static_root), Path(args.site_root), args.keep, fresh=args.fresh)
    print(f"published {result.generation}: {result.copied} files copied, {result.linked} linked, "
          f"{len(result.refused)} refused, {len(result.refused_siblings)} siblings refused, "
          f"{len(result.forecasts)} marked as Hijri forecasts")
    for relative in result.refused + result.refused_siblings:
        print(f"  refused: {relative}")


if __name__ == "__main__":
    main()
