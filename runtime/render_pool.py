"""A bounded, fair pool of render threads that the event loop awaits, with a time budget per request.

Rendering is CPU work (numpy, icalendar); run on the event loop it stops every other answer,
cached ones included.  Here at most ``max_pending`` renders are admitted at once (running on
``threads`` threads or waiting for one), and one client at most ``max_per_client`` of them
(half the pool by default); one more is refused at once (503).  Waiting renders are handed to
the threads client by client (the one with the fewest renders running first, then the one
whose turn is oldest), so a client's render waits for the next free thread, never behind another client's
whole queue (issue 22: 100 concurrent 90-day
feeds from one address made other clients' qibla answers 503 or wait 9.8 s).  A request whose
render has not finished within ``budget_s`` is answered 503 instead of waiting longer.
A thread cannot be stopped, so an abandoned render still completes and fills the cache (its
job puts its own result there): the work is not lost, and the admission bound keeps such
renders from piling up.  Two requests for the same answer share one render.
"""
from __future__ import annotations

import asyncio
import contextlib
import math
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, Hashable, TypeVar

T = TypeVar("T")


class Busy(Exception):
    """The pool is full, or a render overran its budget: answer 503 with ``retry_after_s``.
    ``started`` tells whether the render runs anyway (its cost is spent)."""

    def __init__(self, message: str, retry_after_s: int, started: bool = False):
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.started = started


class RenderPool:
    def __init__(self, threads: int = 2, max_pending: int = 32, budget_s: float = 10.0,
                 max_per_client: int | None = None):
        self.threads, self.max_pending, self.budget_s = threads, max_pending, budget_s
        self.max_per_client = max_per_client or max(1, max_pending // 2)
        self._executor: ThreadPoolExecutor | None = None  # made on first use, again after `shutdown`
        # All of the below are touched only on the event loop's thread.
        self._pending = 0  # admitted renders, running or waiting
        self._running = 0  # renders handed to a thread
        self._per_client: dict[Hashable, int] = {}  # admitted renders per client
        self._running_of: dict[Hashable, int] = {}  # renders on a thread per client
        self._last_turn: dict[Hashable, int] = {}  # when a client with renders admitted last got a thread
        self._turns = 0
        self._waiting: dict[Hashable, deque] = {}  # client -> its renders not yet handed over
        self._in_flight: dict[Hashable, asyncio.Future] = {}
        self._generation = 0  # bumped by `shutdown`: renders of an earlier generation are forgotten

    @property
    def pending(self) -> int:
        return self._pending

    def _retry_after_s(self) -> int:
        return max(1, math.ceil(self.budget_s / 2))

    async def run(self, key: Hashable, job: Callable[[], T], client: Hashable = None) -> T:
        """Return ``job()``'s result, run on a render thread; raise `Busy` when full or too slow."""
        future = self._in_flight.get(key)
        if future is None:
            if self._pending >= self.max_pending:
                raise Busy(f"the server is rendering {self._pending} answers; retry shortly", self._retry_after_s())
            mine = self._per_client.get(client, 0)
            if mine >= self.max_per_client:
                raise Busy(f"you have {mine} answers being rendered, the most one client may; retry shortly",
                           self._retry_after_s())
            self._pending += 1
            self._per_client[client] = mine + 1
            future = asyncio.get_running_loop().create_future()
            self._in_flight[key] = future
            self._waiting.setdefault(client, deque()).append((key, job, future, client))
            self._hand_over()
        try:
            async with asyncio.timeout(self.budget_s):  # no task per request, unlike wait_for
                return await asyncio.shield(future)
        except TimeoutError:
            raise Busy(f"rendering took longer than {self.budget_s:g} s; the answer will be ready shortly, retry",
                       self._retry_after_s(), started=True) from None

    def _hand_over(self) -> None:
        """Give each free thread a waiting render of the client with the fewest running, and among
        those the one whose last turn is oldest (a client new to the pool first)."""
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="render")
        loop = asyncio.get_running_loop()
        while self._running < self.threads and self._waiting:
            client = min(self._waiting, key=lambda waiting: (self._running_of.get(waiting, 0),
                                                             self._last_turn.get(waiting, -1)))
            queue = self._waiting[client]
            entry = queue.popleft()
            if not queue:
                del self._waiting[client]
            self._running += 1
            self._running_of[client] = self._running_of.get(client, 0) + 1
            self._turns += 1
            self._last_turn[client] = self._turns
            done = self._executor.submit(entry[1])
            done.add_done_callback(lambda finished, entry=entry, generation=self._generation:
                                   self._call_on_loop(loop, self._finished, entry, finished, generation))

    @staticmethod
    def _call_on_loop(loop: asyncio.AbstractEventLoop, callback, *args) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed (the server stopped) while a render ran
            loop.call_soon_threadsafe(callback, *args)

    def _finished(self, entry: tuple, finished: Future, generation: int) -> None:
        if generation != self._generation:  # a render from before `shutdown`
            return
        key, _, future, client = entry
        self._running -= 1
        self._pending -= 1
        running = self._running_of.pop(client) - 1
        if running:
            self._running_of[client] = running
        left = self._per_client.pop(client) - 1
        if left:
            self._per_client[client] = left
        else:
            self._last_turn.pop(client, None)
        self._in_flight.pop(key, None)
        if not future.done():
            if finished.cancelled():
                future.cancel()
            elif finished.exception() is not None:
                future.set_exception(finished.exception())
            else:
                future.set_result(finished.result())
        if not future.cancelled():
            future.exception()  # retrieved: an abandoned render's error is not reported as never retrieved
        if self._executor is not None:
            self._hand_over()

    def shutdown(self) -> None:
        """Stop the threads (the app's lifespan ends); a later `run` starts new ones."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        for queue in self._waiting.values():
            for _, _, future, _ in queue:
                future.cancel()
        self._generation += 1
        self._executor, self._pending, self._running = None, 0, 0
        self._per_client, self._running_of, self._last_turn = {}, {}, {}
        self._waiting, self._in_flight = {}, {}
