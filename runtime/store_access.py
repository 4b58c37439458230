"""The profile store reached so that nothing else ever waits on it (issue 34).

A hung PostgreSQL (a stopped VM, a partition) once froze a whole app: a profile was read on the event loop and
psycopg waited without end, so /v1/qibla waited 25 s.  Here every call to the store:

* runs in a thread of its own small pool (``threads``: the PostgreSQL pool's size), never on the event loop and
  never in the render pool or Starlette's thread pool, so a hung store can hold at most these threads; at most
  `QUEUE_PER_THREAD` calls per thread are admitted at once (a burst of screens' polls waits its turn), more are
  refused at once;
* is waited for at most ``wait_s`` (env ``MOSQUE_DB_WAIT_S``, default the store's own timeout + 0.5 s, so that the
  store's timeouts, which say why, usually speak first); a call still running then is abandoned (its thread
  finishes when the store answers or its timeouts fire) and the caller gets `Away`;
* is refused at once (`Away`) while the store is away: after a call found it unreachable or silent, only the
  prober (one background thread) asks it again, backing off from 0.25 s to `MAX_PROBE_S`, until it answers.  So a
  request never queues behind a dead store; it is answered from the last copy this node saw, or 503 with
  Retry-After;
* is shared by callers asking the same thing at once (``key``): 200 screens asking for one profile make one read.

The store is opened by the prober too (its schema on first use): an app starts and serves everything else while
the database refuses connections, hangs, or its SQLite folder is read-only or absent.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import queue
import threading
import time
from typing import Callable, Hashable

from runtime import mosque_store
from runtime.render_pool import Busy

log = logging.getLogger("runtime.store")

QUEUE_PER_THREAD = 4  # calls admitted at once per store thread (running or queued): a burst of polls waits briefly
MAX_PROBE_S = 2.0  # the longest pause between two probes of an away store (so it is back within that); was 10 s:
# after a 25 s PostgreSQL stop every edit and poll was still 503 for 10 s with the database back (d_db_away.py,
# 28 Nov second run); a probe is one shared call (never two at once), so probing more often costs nothing
FIRST_PROBE_S = 0.25


class Away(Busy):
    """The store cannot answer now: a 503 with Retry-After (``full``: 507, the disk is full, on a write).  The
    client is told no more than that; ``reason`` (which may name the database's host) goes to the log and /readyz."""

    def __init__(self, reason: str, full: bool = False):
        what = "the profile store is full" if full else "the profile store does not answer"
        super().__init__(f"mosque profiles are unavailable for now ({what}); retry in {mosque_store.RETRY_AFTER_S} s",
                         mosque_store.RETRY_AFTER_S, started=True)
        self.reason, self.full = reason, full


class _DaemonThreads:
    """``threads`` daemon threads running submitted calls.  Not concurrent.futures.ThreadPoolExecutor: Python joins
    its threads at exit, so a thread still blocked on a hung store (one whose close does not wake it: PostgreSQL's
    pool close does, a file on a hung network mount would not) could keep a stopping app from exiting."""

    def __init__(self, threads: int, name: str):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{n}", daemon=True) for n in range(threads)]
        self._closed = False
        for thread in self._threads:
            thread.start()

    def submit(self, fn, *args) -> concurrent.futures.Future:
        if self._closed:
            raise RuntimeError("closed")
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._jobs.put((future, fn, args))
        return future

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            future, fn, args = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as error:  # handed to the caller, who decides
                future.set_exception(error)

    def shutdown(self) -> None:
        self._closed = True
        for _ in self._threads:
            self._jobs.put(None)


def _take_outcome(future: asyncio.Future) -> None:
    if not future.cancelled():
        future.exception()


def default_wait_s() -> float:
    return float(os.environ.get("MOSQUE_DB_WAIT_S", "0") or 0) or mosque_store.TIMEOUT_S + 0.5


class StoreAccess:
    """Calls to ``store`` in ``threads`` threads of their own, each waited for at most ``wait_s``; the store's state
    (``opening``, ``ready``, ``away``) and why (``reason``) for /readyz."""

    def __init__(self, store: mosque_store.Store, wait_s: float | None = None, threads: int | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.store = store
        self.wait_s = default_wait_s() if wait_s is None else wait_s
        self.threads = threads or getattr(store, "pool_size", None) or mosque_store.POOL_SIZE
        self.state, self.reason, self.since = "opening", "not opened yet", clock()
        self.clock = clock
        self._executor = _DaemonThreads(self.threads, "mosque-store")
        self._lock = threading.Lock()
        self._in_flight = 0
        self._shared: dict[Hashable, concurrent.futures.Future] = {}
        self._wake, self._stop = threading.Event(), threading.Event()
        self._prober = threading.Thread(target=self._probe_loop, name="mosque-store-prober", daemon=True)

    # ------------------------------------------------------------ state
    def start(self) -> "StoreAccess":
        self._prober.start()
        return self

    def close(self, close_store: bool = True) -> None:
        """Stop probing and close the store, waiting for neither a hung call nor a hung store."""
        self._stop.set()
        self._wake.set()
        self._executor.shutdown()
        if not close_store:
            return
        closing = threading.Thread(target=self.store.close, name="mosque-store-close", daemon=True)
        closing.start()
        closing.join(2.0)

    def _set(self, state: str, reason: str) -> None:
        with self._lock:
            if self.state == state:
                self.reason = reason
                return
            self.state, self.reason, self.since = state, reason, self.clock()
        if state == "ready":
            log.warning("hosted mosque profiles: %s answers (%s)", self.store.describe(), reason)
        else:
            log.error("hosted mosque profiles: %s is %s: %s; answering from the last copies, else 503",
                      self.store.describe(), state, reason)
            self._wake.set()

    def _probe_loop(self) -> None:
        pause_s = FIRST_PROBE_S
        while not self._stop.is_set():
            if self.state != "ready":
                try:
                    self._result(self._submit(self._probe, (), key=("probe",), probing=True))
                except Away as away:
                    self._set("away", away.reason)
                    pause_s = min(MAX_PROBE_S, pause_s * 2)
                except Exception as error:  # anything else (a schema race, a driver's surprise): probe again,
                    # never let this thread die: without it a store once away would never be seen back
                    log.exception("hosted mosque profiles: the probe failed")
                    self._set("away", f"{type(error).__name__}: {str(error).strip()[:200]}")
                    pause_s = min(MAX_PROBE_S, pause_s * 2)
                else:
                    self._set("ready", "schema made, SELECT 1 answered")
                    pause_s = FIRST_PROBE_S
            self._wake.clear()
            self._wake.wait(pause_s if self.state != "ready" else None)

    def _probe(self) -> None:
        self.store.ensure_ready()
        self.store.ping()

    # ------------------------------------------------------------ calls
    def _submit(self, fn, args, key: Hashable | None = None, probing: bool = False) -> concurrent.futures.Future:
        with self._lock:
            if self.state == "away" and not probing:  # "opening": calls try (each bounded), the first failure tells
                raise Away(self.reason)
            shared = self._shared.get(key) if key is not None else None
            if shared is not None:
                return shared
            if self._in_flight >= self.threads * QUEUE_PER_THREAD:  # a hung store: never queue without end
                raise Away("every store connection is busy")
            try:
                future = self._executor.submit(fn, *args)
            except RuntimeError:  # closed (the app is stopping)
                raise Away("the store is closed") from None
            self._in_flight += 1
            if key is not None:
                self._shared[key] = future
        future.add_done_callback(lambda done: self._done(key, done))
        return future

    def _done(self, key, future) -> None:
        with self._lock:
            self._in_flight -= 1
            if key is not None and self._shared.get(key) is future:
                del self._shared[key]

    def _failed(self, error: BaseException) -> Away:
        """The `Away` a caller gets for ``error``; an unreachable or silent store is marked away."""
        if isinstance(error, Away):
            return error
        if isinstance(error, mosque_store.Unavailable):
            if error.away:
                self._set("away", str(error))
            return Away(str(error), full=isinstance(error, mosque_store.Full))
        # No answer within the wait: a database over a network is taken for hung (a stopped host, a partition);
        # a local file only waits for a lock (the thread stops at SQLite's busy timeout): this call only.
        reason = f"no answer within {self.wait_s:g} s"
        if getattr(self.store, "remote", True):
            self._set("away", reason)
        return Away(reason)

    def _answered(self, value):
        if self.state == "opening":
            self._set("ready", "answered")
        return value

    def _result(self, future: concurrent.futures.Future):
        try:
            return self._answered(future.result(timeout=self.wait_s))
        except (concurrent.futures.TimeoutError, mosque_store.Unavailable, concurrent.futures.CancelledError) as error:
            raise self._failed(error) from None

    def call_blocking(self, fn, *args, key: Hashable | None = None):
        """``fn(*args)`` in a store thread, waited for at most ``wait_s`` here (a worker thread: never the loop)."""
        return self._result(self._submit(fn, args, key))

    async def call(self, fn, *args, key: Hashable | None = None):
        """``fn(*args)`` in a store thread, awaited at most ``wait_s``; `Away` when the store cannot answer."""
        future = self._submit(fn, args, key)
        waited = asyncio.wrap_future(future)
        try:
            async with asyncio.timeout(self.wait_s):
                # shield: a caller giving up must not cancel a read other callers share
                return self._answered(await asyncio.shield(waited))
        except (TimeoutError, mosque_store.Unavailable, concurrent.futures.CancelledError) as error:
            raise self._failed(error) from None
        finally:
            # A call given up on may still end in an error (a lock that outlasted the wait, a Stale save): no one
            # awaits it any more, so take its outcome here, or asyncio logs "Future exception was never retrieved"
            # with a traceback for every abandoned call (25 in one locked-SQLite run of the outside fault script).
            if not waited.done():
                waited.add_done_callback(_take_outcome)

    async def check(self) -> None:
        """One round trip now (/readyz): `Away` if the store cannot answer."""
        await self.call(self.store.ping, key=("ping",))
