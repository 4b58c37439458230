"""Notice cheaply that files the app read have changed on disk (a build, an announcement).

The event loop asks `FileWatch.due` on every request (a clock read: no system call); when it is
due, a worker thread calls `FileWatch.changed`, one ``stat`` per file, at most once every
``every_s`` seconds.  A file counts as changed when its inode, modification time or size differ
(an atomic rename gives a new inode even within one clock tick).
"""
from __future__ import annotations

import math
import os
import threading
import time
from pathlib import Path
from typing import Iterable


def signature(path: Path) -> tuple[int, int, int] | None:
    """(inode, mtime in ns, size) of ``path``, or None when it cannot be read."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_ino, stat.st_mtime_ns, stat.st_size


class FileWatch:
    """Whether any of a set of files changed since the last look."""

    def __init__(self, every_s: float = 1.0):
        self.every_s = every_s
        self._seen: dict[Path, tuple | None] = {}
        self._checked_at = -math.inf
        self._lock = threading.Lock()

    def due(self) -> bool:
        return time.monotonic() - self._checked_at >= self.every_s

    def changed(self, paths: Iterable[Path]) -> bool:
        """Look at ``paths`` now; True when the set or any file's signature differs from the last look
        (so True on the first look)."""
        with self._lock:
            self._checked_at = time.monotonic()
            seen = {Path(path): signature(Path(path)) for path in paths}
            if seen == self._seen:
                return False
            self._seen = seen
            return True
