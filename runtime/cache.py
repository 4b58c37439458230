"""A bounded in-memory LRU of rendered responses (entries and bytes both capped)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Hashable


class ResponseCache:
    """Least-recently-used map from a key to (body, etag), bounded in entries and bytes."""

    def __init__(self, max_entries: int = 4096, max_bytes: int = 256 * 1024 * 1024):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, tuple[bytes, str]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[bytes, str] | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: Hashable, body: bytes, etag: str) -> None:
        if len(body) > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= len(old[0])
            self._items[key] = (body, etag)
            self._bytes += len(body)
            while len(self._items) > self.max_entries or self._bytes > self.max_bytes:
                _, (evicted, _) = self._items.popitem(last=False)
                self._bytes -= len(evicted)

    def clear(self) -> None:
        """Forget every entry (benchmarks measure uncached answers this way)."""
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._items)
