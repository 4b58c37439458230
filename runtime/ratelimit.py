"""Per-client limit on rendered answers, weighted by cost: a token bucket per client IP.

A client may spend ``per_minute`` cost units a minute, refilled continuously (so a burst of
up to ``per_minute`` is allowed, then ``per_minute``/60 a second).  A render is admitted
while the client's bucket holds at least one unit; it is charged one unit on admission and,
when done, one more for every started 10 ms of CPU time beyond the first (`units_of`):
a qibla or a day of prayer times costs 1, a year of prayer times about 3, a 90-day prayer
feed about 12 on this machine.  Cached and pre-rendered answers cost nothing.  The state is
given in the IETF ``RateLimit`` / ``RateLimit-Policy`` fields (draft-ietf-httpapi-ratelimit-headers).

This limiter is per process: it is the whole server's limit only when one process serves
(`make serve`).  Behind nginx with several app workers, nginx's ``limit_req`` (a zone
shared by all nginx workers) is the limit and this one is turned off (deploy/README.md).
"""
from __future__ import annotations

import ipaddress
import math
import threading
import time

COST_UNIT_CPU_S = 0.010  # one cost unit per started 10 ms of render CPU time
POLICY_NAME = "renders"


def units_of(cpu_s: float) -> int:
    """Return the cost units of a render that used ``cpu_s`` seconds of CPU (at least 1)."""
    return max(1, math.ceil(cpu_s / COST_UNIT_CPU_S - 1e-9))


class RateLimiter:
    """Allow each client IP ``per_minute`` cost units a minute (0 turns it off)."""

    def __init__(self, per_minute: int, max_clients: int = 100_000):
        self.per_minute = per_minute
        self.max_clients = max_clients
        self._spent: dict[str, tuple[float, float]] = {}  # ip -> (units spent, as of unix s)
        self._lock = threading.Lock()

    @property
    def _rate_per_s(self) -> float:
        return self.per_minute / 60.0

    def _level(self, client: str, now_s: float) -> float:
        spent, as_of = self._spent.get(client, (0.0, now_s))
        return max(0.0, spent - (now_s - as_of) * self._rate_per_s)

    def admit(self, client: str, now_s: float | None = None) -> int | None:
        """Admit one render for ``client`` (charging one unit); return seconds to wait if over the limit."""
        if self.per_minute <= 0:
            return None
        now_s = time.time() if now_s is None else now_s
        with self._lock:
            level = self._level(client, now_s)
            if level + 1 > self.per_minute:
                return max(1, math.ceil((level + 1 - self.per_minute) / self._rate_per_s - 1e-9))
            if client not in self._spent and len(self._spent) >= self.max_clients:
                self._forget(now_s)
            self._spent[client] = (level + 1, now_s)
            return None

    def charge(self, client: str, cpu_s: float, now_s: float | None = None) -> None:
        """Charge the rest of a finished render's cost (its units beyond the one paid on admission)."""
        if self.per_minute <= 0:
            return
        now_s = time.time() if now_s is None else now_s
        with self._lock:
            self._spent[client] = (self._level(client, now_s) + units_of(cpu_s) - 1, now_s)

    def headers(self, client: str, now_s: float | None = None) -> dict[str, str]:
        """Return the ``RateLimit-Policy`` and ``RateLimit`` fields for ``client`` (none when off)."""
        if self.per_minute <= 0:
            return {}
        now_s = time.time() if now_s is None else now_s
        with self._lock:
            level = self._level(client, now_s)
        remaining = max(0, math.floor(self.per_minute - level))
        reset_s = math.ceil(level / self._rate_per_s - 1e-9)
        return {"RateLimit-Policy": f'"{POLICY_NAME}";q={self.per_minute};w=60',
                "RateLimit": f'"{POLICY_NAME}";r={remaining};t={reset_s}'}

    def _forget(self, now_s: float) -> None:
        """Bounded memory: drop clients whose bucket has refilled, else everyone."""
        self._spent = {ip: s for ip, s in self._spent.items() if self._level(ip, now_s) > 0}
        if len(self._spent) >= self.max_clients:
            self._spent.clear()


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
