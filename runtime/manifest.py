"""Which pre-rendered files the app may serve: those whose bytes match build.py's manifest.

build.py ends every build by writing ``static_out/.manifest.json`` (generator/static_paths.py:
each file's XXH3-128 and size).  The app hashes a file's bytes anyway (the hash is its ETag),
so checking them against the manifest costs one dict lookup: a truncated or garbled file, or
one the manifest does not name, is never served (issue 22 found a truncated file served with
200, a strong ETag and a week's max-age); the app renders that answer instead.

The manifest is looked at again at most once a second (one ``stat``, in a worker thread); when
it changed (a build or an announcement finished) the app's in-memory cache is emptied, so an
answer a rebuild changed is read again from its new file.  A rebuilt file whose manifest is not
yet written does not match the old manifest, so the app renders it meanwhile: it never serves
bytes the manifest does not vouch for.
"""
from __future__ import annotations

import math
import os
import threading
import time
from pathlib import Path

from generator import static_paths

CHECK_EVERY_S = 1.0


class Manifest:
    """The manifest of one static root, reloaded when its file changes."""

    def __init__(self):
        self._root: Path | None = None
        self._signature: tuple | None = None  # (inode, mtime ns, size) of the manifest read
        self._entries: dict[str, tuple[str, int]] = {}
        self._checked_at = -math.inf
        self._lock = threading.Lock()

    def due(self, root: Path) -> bool:
        """Whether `refresh` should look at the manifest again (cheap: no system call)."""
        return time.monotonic() - self._checked_at >= CHECK_EVERY_S or (root is not self._root and root != self._root)

    def refresh(self, root: Path) -> bool:
        """Reload the manifest of ``root`` if its file changed; return True when it did."""
        with self._lock:
            self._checked_at = time.monotonic()
            try:
                stat = os.stat(Path(root) / static_paths.MANIFEST)
                signature = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
            except OSError:
                signature = None
            if root == self._root and signature == self._signature:
                return False
            self._entries = static_paths.read_manifest(root) if signature else {}
            self._root, self._signature = root, signature
            return True

    def vouches(self, relative_path: str, content_hash: str, size: int) -> bool:
        """Whether the manifest says ``relative_path`` holds exactly these bytes."""
        return self._entries.get(relative_path) == (content_hash, size)
