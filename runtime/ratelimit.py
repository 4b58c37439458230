"""Per-client limit on rendered answers, weighted by cost: a token bucket per client IP.

A client may spend ``per_minute`` cost units a minute, refilled continuously (so a burst of
up to ``per_minute`` is allowed, then ``per_minute``/60 a second).  A render costs one unit
per started 10 ms of CPU time (`units_of`): a qibla or a day of prayer times 1, a year of
prayer times about 3, a 90-day prayer feed about 12 on this machine.  Its *expected* cost is
charged before it runs (`CostModel`: days × methods times what a render of that endpoint with the
same options has cost so far), and a render is admitted only while the bucket holds that much (at most a
whole minute's worth, `admit`); when it is done the charge is settled to its real cost.  So one client's
concurrent renders are bounded by its limit before they run (issue 22: charging one unit up
front let 100 concurrent 90-day feeds in at once).  Cached and pre-rendered answers cost
nothing.  The state is given in the IETF ``RateLimit`` / ``RateLimit-Policy`` fields
(draft-ietf-httpapi-ratelimit-headers).

A client is its address, an IPv6 client its /64 (`client_key`; IPV6_CLIENT_PREFIX).  This limiter is per process: it is the whole server's limit only when one process serves
(`make serve`).  Behind nginx with several app workers, nginx's ``limit_req`` (a zone
shared by all nginx workers) is the limit and this one is turned off (deploy/README.md).
"""
from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict

COST_UNIT_CPU_S = 0.010  # one cost unit per started 10 ms of render CPU time
POLICY_NAME = "renders"


def units_of(cpu_s: float) -> int:
    """Return the cost units of a render that used ``cpu_s`` seconds of CPU (at least 1)."""
    return max(1, math.ceil(cpu_s / COST_UNIT_CPU_S - 1e-9))


class RateLimiter:
    """Allow each client IP ``per_minute`` cost units a minute (0 turns it off)."""

    CEILING_ROOM = 0.5  # an expectation capped at the whole minute is admitted with half the bucket spent (`admit`)

    def __init__(self, per_minute: int, max_clients: int = 100_000, clock=time.time):
        self.per_minute = per_minute
        self.max_clients = max_clients
        self.clock = clock  # unix seconds (tests inject a clock)
        self._spent: dict[str, tuple[float, float]] = {}  # ip -> (units spent, as of unix s)
        self._lock = threading.Lock()

    @property
    def _rate_per_s(self) -> float:
        return self.per_minute / 60.0

    def _level(self, client: str, now_s: float) -> float:
        spent, as_of = self._spent.get(client, (0.0, now_s))
        return max(0.0, spent - (now_s - as_of) * self._rate_per_s)

    def admit(self, client: str, units: int = 1, now_s: float | None = None) -> int | None:
        """Admit a render expected to cost ``units`` (charged now; at most ``per_minute``) for ``client``;
        return seconds to wait instead if its bucket does not hold them.

        An expectation of a whole minute or more (a kind of render never measured, charged `CostModel`'s prior, 3 ms
        a day: a first year of a mosque's times 1.1 s where it takes ~30 ms) is a ceiling, not a measure: it is
        admitted while at least half the bucket is there (`CEILING_ROOM`), not only a full one, and still alone (the
        charge leaves no room for another render until it is settled).  Issue 34: requiring a full bucket made a
        screen's first year after its own page (5 units) a 429, the "TV opened in that minute" that waited."""
        if self.per_minute <= 0:
            return None
        units = min(max(1, units), self.per_minute)
        now_s = self.clock() if now_s is None else now_s
        allowed = self.per_minute * (1 + self.CEILING_ROOM) if units == self.per_minute else self.per_minute
        with self._lock:
            level = self._level(client, now_s)
            if level + units > allowed:
                return max(1, math.ceil((level + units - allowed) / self._rate_per_s - 1e-9))
            if client not in self._spent and len(self._spent) >= self.max_clients:
                self._forget(now_s)
            self._spent[client] = (level + units, now_s)
            return None

    def settle(self, client: str, charged_units: int, cpu_s: float | None, now_s: float | None = None) -> None:
        """Replace the ``charged_units`` of an admitted render by its real cost: `units_of(cpu_s)`, or
        nothing when it never ran (``cpu_s`` None: refused by a full pool)."""
        if self.per_minute <= 0:
            return
        charged_units = min(max(1, charged_units), self.per_minute)
        real = 0 if cpu_s is None else units_of(cpu_s)
        now_s = self.clock() if now_s is None else now_s
        with self._lock:
            self._spent[client] = (max(0.0, self._level(client, now_s) + real - charged_units), now_s)

    def headers(self, client: str, now_s: float | None = None) -> dict[str, str]:
        """Return the ``RateLimit-Policy`` and ``RateLimit`` fields for ``client`` (none when off)."""
        if self.per_minute <= 0:
            return {}
        now_s = self.clock() if now_s is None else now_s
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


IPV6_CLIENT_PREFIX_BITS = 64  # an IPv6 client is its /64 (RFC 4291 §2.5.4: one subscriber's network), IPV6_CLIENT_PREFIX


def ipv6_prefix_bits(text: str) -> int:
    """Read IPV6_CLIENT_PREFIX: the prefix length, 16 to 128, an IPv6 client is counted by (128: each address)."""
    if not text.isdigit() or not 16 <= int(text) <= 128:
        raise ValueError(f"IPV6_CLIENT_PREFIX: a prefix length from 16 to 128 (default {IPV6_CLIENT_PREFIX_BITS}); "
                         f"got {text[:20]!r}")
    return int(text)


def client_key(address: str, ipv6_prefix: int = IPV6_CLIENT_PREFIX_BITS) -> str:
    """The identity a client's limits count against: an IPv4 address itself, an IPv6 address's network of
    ``ipv6_prefix`` bits (``2001:db8:1:2::/64``; issue 34: one subscriber's /64 is 2^64 addresses, and 60 creations
    from one all got 201), an IPv4-mapped IPv6 address as its IPv4 address; anything else (``unknown``) as given."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6 and ipv6_prefix < 128:
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return str(ip)


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


class CostModel:
    """The expected cost of a render, learned per kind of render as it goes.

    The work of a render is its days × methods, read from the canonical parameters by their
    shared names (``days``; ``year`` with or without ``month``; else one day; ``method`` a
    comma-separated list): a 90-day feed is 90, a year of prayer times 365, a qibla 1.  The cost
    per unit of work depends on the other options too (issue 29: a 90-day feed with jamaat,
    Jumu'ah, Eid, Ramadan, alarms and all eight times took ~160 ms of CPU, a plain one ~60 ms, and
    one address spent 2.4 s of CPU in one burst against a budget of 1 s a minute, each admitted at
    the plain feed's learned cost).  So a *kind* of render is its endpoint, its kind of span (days,
    month, year, one) and every canonical parameter but those that only choose the place, the
    days and the labels (`WORK_FREE`): the option values themselves, so a kind learned from cheap
    values is never used for dearer ones.  The model keeps, per kind, the CPU seconds per unit of
    work of its renders so far (the first measurement, then a moving average), and expects a new
    render to cost its work times that.  A kind not seen yet is expected to cost as much per unit
    of work as the dearest kind of its endpoint and span seen so far, and at least
    `PRIOR_CPU_S_PER_WORK` (3 ms a day-method: above every feed measured, the dearest 1.7-2.2 ms), so
    a burst of a new kind is over-charged and settled down, never let through.  At most
    `MAX_KINDS` kinds are remembered (least recently used forgotten: a forgotten kind is new again).
    """

    PRIOR_CPU_S_PER_WORK = 0.003
    SMOOTHING = 0.3  # weight of the newest render in the average
    MAX_KINDS = 4096
    # Parameters that choose where, which days and which words: they change a render's work by its
    # days (counted in `work`) or hardly at all, so renders differing only in them are one kind.
    WORK_FREE = frozenset({"city", "lat", "lng", "tz", "date", "today", "days", "year", "month", "lang", "name"})

    def __init__(self):
        self._cpu_s_per_work: OrderedDict[tuple, float] = OrderedDict()  # kind -> CPU s per work (LRU)
        self._dearest: dict[tuple[str, str], float] = {}  # (endpoint, span) -> the dearest kind's (bounded)
        self._lock = threading.Lock()

    @staticmethod
    def work(params) -> tuple[str, int]:
        """Return (kind of span, days × methods) of canonical parameters."""
        if "days" in params:
            span, n_days = "days", int(params["days"])
        elif "year" in params:
            span, n_days = ("month", 30) if "month" in params else ("year", 365)
        else:
            span, n_days = "one", 1
        return span, n_days * len(str(params.get("method", "")).split(","))

    @classmethod
    def kind(cls, name: str, params) -> tuple[tuple, int]:
        """Return (the kind of render, its work) of canonical parameters."""
        span, work = cls.work(params)
        options = tuple(sorted((key, str(value)) for key, value in params.items() if key not in cls.WORK_FREE))
        return (name, span, options), work

    def expected_units(self, name: str, params) -> int:
        kind, work = self.kind(name, params)
        with self._lock:
            per_work = self._cpu_s_per_work.get(kind)
            if per_work is None:
                per_work = max(self.PRIOR_CPU_S_PER_WORK, self._dearest.get(kind[:2], 0.0))
            else:
                self._cpu_s_per_work.move_to_end(kind)
        return units_of(work * per_work)

    def learn(self, name: str, params, cpu_s: float) -> None:
        kind, work = self.kind(name, params)
        per_work = cpu_s / work
        with self._lock:
            old = self._cpu_s_per_work.pop(kind, None)
            average = per_work if old is None else old + self.SMOOTHING * (per_work - old)
            self._cpu_s_per_work[kind] = average
            if len(self._cpu_s_per_work) > self.MAX_KINDS:
                self._cpu_s_per_work.popitem(last=False)
            self._dearest[kind[:2]] = max(self._dearest.get(kind[:2], 0.0), average)
