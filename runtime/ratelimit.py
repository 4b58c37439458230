"""Per-client limit on uncached (rendered) requests: a fixed one-minute window per IP."""
from __future__ import annotations

import ipaddress
import threading
import time


class RateLimiter:
    """Allow at most ``per_minute`` renders per client IP per clock minute (0 turns it off)."""

    def __init__(self, per_minute: int, max_clients: int = 100_000):
        self.per_minute = per_minute
        self.max_clients = max_clients
        self._counts: dict[str, tuple[int, int]] = {}  # ip -> (minute, count)
        self._lock = threading.Lock()

    def retry_after_s(self, client: str, now_s: float | None = None) -> int | None:
        """Count one render for ``client``; return seconds to wait if over the limit, else None."""
        if self.per_minute <= 0:
            return None
        now_s = time.time() if now_s is None else now_s
        minute = int(now_s // 60)
        with self._lock:
            if len(self._counts) >= self.max_clients:  # bounded memory: forget finished windows
                self._counts = {ip: mc for ip, mc in self._counts.items() if mc[0] == minute}
                if len(self._counts) >= self.max_clients:
                    self._counts.clear()
            window, count = self._counts.get(client, (minute, 0))
            if window != minute:
                window, count = minute, 0
            if count >= self.per_minute:
                return max(1, int(60 - now_s % 60 + 0.999))
            self._counts[client] = (window, count + 1)
            return None


def parse_trusted(value: str) -> list[ipaddress._BaseNetwork]:
    """Parse a comma-separated list of proxy addresses or networks (TRUSTED_PROXIES)."""
    return [ipaddress.ip_network(part.strip(), strict=False) for part in value.split(",") if part.strip()]


def client_ip(peer: str | None, forwarded_for: str | None, trusted: list) -> str:
    """Return the client address: the peer, or — only when the peer is a trusted proxy — the
    right-most X-Forwarded-For address that is not itself a trusted proxy."""
    peer = peer or "unknown"
    if not forwarded_for or not _is_trusted(peer, trusted):
        return peer
    for hop in reversed([h.strip() for h in forwarded_for.split(",")]):
        if not _is_trusted(hop, trusted):
            return hop[:64] if _is_address(hop) else peer
    return peer


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return False


def _is_trusted(address: str, trusted: list) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)
