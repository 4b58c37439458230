"""Which pre-rendered files the app may serve: those whose bytes match build.py's manifest.

build.py ends every build by writing ``static_out/.manifest.json`` (generator/output/static_paths.py:
each file's XXH3-128 and size).  The app hashes a file's bytes anyway (the hash is its ETag),
so checking them against the manifest costs one dict lookup: a truncated or garbled file, or
one the manifest does not name, is never served (issue 22 found a truncated file served with
200, a strong ETag and a week's max-age); the app renders that answer instead.

The manifest is looked at again at most once a second (runtime/file_watch.py); when it changed
(a build or an announcement finished) the app empties its in-memory cache, so an answer a
rebuild changed is read again from its new file.  A rebuilt file whose manifest is not yet
written does not match the old manifest, so the app renders it meanwhile: it never serves bytes
the manifest does not vouch for.
"""
from __future__ import annotations

import gzip
import os
import threading
import zlib
from pathlib import Path

import brotli

from generator.output import static_paths
from runtime.file_watch import FileWatch

SIBLINGS = (".gz", ".br")  # what nginx's gzip_static and brotli_static send in the file's place
MAX_CHECKED = 100_000  # files whose verdict is remembered (about the whole of a full build's 10,612 and more)


def file_signature(path: str) -> tuple[int, int, int, int] | None:
    """(inode, size, mtime ns, ctime ns) of ``path``, None when there is none.  Any write to the file, a
    rename over it or a reset of its mtime (``touch -r``) changes one of them (ctime cannot be set)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns


def _decompressed(data: bytes, extension: str) -> bytes | None:
    try:
        return gzip.decompress(data) if extension == ".gz" else brotli.decompress(data)
    except (OSError, EOFError, zlib.error, brotli.error):
        return None


class Manifest:
    """The manifest of one static root, reloaded when its file changes."""

    def __init__(self, every_s: float = 1.0):
        self.watch = FileWatch(every_s)
        self._root: Path | None = None
        self._entries: dict[str, tuple[str, int]] = {}
        self._checked: dict[str, tuple[tuple, bool]] = {}  # relative path -> (signatures, verdict)
        self._checked_lock = threading.Lock()

    def due(self, root: Path) -> bool:
        """Whether `refresh` should look at the manifest again (cheap: no system call)."""
        return self.watch.due() or (root is not self._root and root != self._root)

    def refresh(self, root: Path) -> bool:
        """Reload the manifest of ``root`` if its file changed; return True when it did."""
        if not self.watch.changed([Path(root) / static_paths.MANIFEST]) and root == self._root:
            return False
        self._entries, self._root = static_paths.read_manifest(root), root
        self.refreshed()
        return True

    def vouches(self, relative_path: str, content_hash: str, size: int) -> bool:
        """Whether the manifest says ``relative_path`` holds exactly these bytes."""
        return self._entries.get(relative_path) == (content_hash, size)

    def refreshed(self) -> None:
        """Forget the verdicts of `check_file` (the manifest changed)."""
        with self._checked_lock:
            self._checked.clear()

    def signatures(self, root: Path, relative_path: str) -> tuple:
        """The signatures of a file and its siblings (three ``stat``: cheap enough for the event loop)."""
        path = os.path.join(root, relative_path)
        return tuple(file_signature(path + extension) for extension in ("", *SIBLINGS))

    def known_verdict(self, relative_path: str, signatures: tuple) -> bool | None:
        """The verdict `check_file` gave these very files before, else None (they must be read)."""
        with self._checked_lock:
            seen = self._checked.get(relative_path)
        return seen[1] if seen is not None and seen[0] == signatures else None

    def check_file(self, root: Path, relative_path: str, signatures: tuple) -> bool:
        """Whether the file holds the bytes the manifest names and each sibling present decompresses to
        them (what nginx may send for it: deploy/nginx.conf asks `/_vouch` before serving a file).  Reads
        and hashes: run it in a worker thread; the verdict is kept for these signatures."""
        path = os.path.join(root, relative_path)
        try:
            with open(path, "rb") as file:
                body = file.read()
            ok = self.vouches(relative_path, static_paths.content_hash(body), len(body))
            for extension, signature in zip(SIBLINGS, signatures[1:]):
                if ok and signature is not None:
                    with open(path + extension, "rb") as file:
                        ok = _decompressed(file.read(), extension) == body
        except OSError:
            ok = False
        if file_signature(path) == signatures[0]:  # not changed while it was read
            with self._checked_lock:
                if len(self._checked) >= MAX_CHECKED:
                    self._checked.clear()
                self._checked[relative_path] = (signatures, ok)
        return ok
