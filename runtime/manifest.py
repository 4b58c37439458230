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

from pathlib import Path

from generator.output import static_paths
from runtime.file_watch import FileWatch


class Manifest:
    """The manifest of one static root, reloaded when its file changes."""

    def __init__(self, every_s: float = 1.0):
        self.watch = FileWatch(every_s)
        self._root: Path | None = None
        self._entries: dict[str, tuple[str, int]] = {}

    def due(self, root: Path) -> bool:
        """Whether `refresh` should look at the manifest again (cheap: no system call)."""
        return self.watch.due() or (root is not self._root and root != self._root)

    def refresh(self, root: Path) -> bool:
        """Reload the manifest of ``root`` if its file changed; return True when it did."""
        if not self.watch.changed([Path(root) / static_paths.MANIFEST]) and root == self._root:
            return False
        self._entries, self._root = static_paths.read_manifest(root), root
        return True

    def vouches(self, relative_path: str, content_hash: str, size: int) -> bool:
        """Whether the manifest says ``relative_path`` holds exactly these bytes."""
        return self._entries.get(relative_path) == (content_hash, size)
