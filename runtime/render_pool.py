"""A bounded pool of render threads that the event loop awaits, with a time budget per request.

Rendering is CPU work (numpy, icalendar); run on the event loop it stops every other answer,
cached ones included.  Here at most ``max_pending`` renders are admitted at once (running on
``threads`` threads or waiting for one); one more is refused at once (503), and a request
whose render has not finished within ``budget_s`` is answered 503 instead of waiting longer.
A thread cannot be stopped, so an abandoned render still completes and fills the cache (its
job puts its own result there): the work is not lost, and the admission bound keeps such
renders from piling up.  Two requests for the same answer share one render.
"""
from __future__ import annotations

import asyncio
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Hashable, TypeVar

T = TypeVar("T")


class Busy(Exception):
    """The pool is full, or a render overran its budget: answer 503 with ``retry_after_s``."""

    def __init__(self, message: str, retry_after_s: int):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class RenderPool:
    def __init__(self, threads: int = 2, max_pending: int = 32, budget_s: float = 10.0):
        self.threads, self.max_pending, self.budget_s = threads, max_pending, budget_s
        self._executor: ThreadPoolExecutor | None = None  # made on first use, again after `shutdown`
        self._pending = 0  # touched only on the event loop's thread
        self._in_flight: dict[Hashable, asyncio.Future] = {}

    @property
    def pending(self) -> int:
        return self._pending

    async def run(self, key: Hashable, job: Callable[[], T]) -> T:
        """Return ``job()``'s result, run on a render thread; raise `Busy` when full or too slow."""
        future = self._in_flight.get(key)
        if future is None:
            if self._pending >= self.max_pending:
                raise Busy(f"the server is rendering {self._pending} answers; retry shortly",
                           max(1, math.ceil(self.budget_s / 2)))
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="render")
            self._pending += 1
            future = asyncio.get_running_loop().run_in_executor(self._executor, job)
            self._in_flight[key] = future
            future.add_done_callback(lambda done: self._finished(key, done))
        try:
            async with asyncio.timeout(self.budget_s):  # no task per request, unlike wait_for
                return await asyncio.shield(future)
        except TimeoutError:
            raise Busy(f"rendering took longer than {self.budget_s:g} s; the answer will be ready shortly, retry",
                       max(1, math.ceil(self.budget_s / 2))) from None

    def _finished(self, key: Hashable, done: asyncio.Future) -> None:
        self._pending -= 1
        self._in_flight.pop(key, None)
        if not done.cancelled():
            done.exception()  # retrieved: an abandoned render's error is not reported as never retrieved

    def shutdown(self) -> None:
        """Stop the threads (the app's lifespan ends); a later `run` starts new ones."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor, self._pending, self._in_flight = None, 0, {}
