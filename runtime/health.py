"""Liveness, readiness, and an app that no exception takes out of service (issue 34).

``GET /healthz``  live: the process answers (200, ``{"live": true}``); it asks nothing else, so a supervisor
                  restarts only a process that no longer answers at all.
``GET /readyz``   ready to serve every kind of answer: the generated tables are built and the profile store
                  answered a round trip now (or is deliberately absent, ``MOSQUE_DB_URL=off``); else 503 with
                  Retry-After; the JSON body says which part is not ready.  A store that is away makes a node
                  unready but not dead: it still serves everything but hosted profiles it never saw, so use
                  /readyz to pace a rolling restart, not to take every node out of a load balancer at once
                  (deploy/README.md).

`KeepServing`: Starlette's ServerErrorMiddleware sends the 500 of an unhandled exception and then re-raises it
(by design, for the server to log); uvicorn then closes the connection, and nginx, seeing its next request on
that connection reset, marks the app down (one 0.25 s database restart became 10 s of 502 for everyone).  Here
an exception after a complete answer is dropped (it was logged with the answer), one before any answer gets a
JSON 500, and only an answer cut halfway (nothing else can end it) closes the connection.
"""
from __future__ import annotations

import logging
from typing import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from generator.api.endpoint import dumps

log = logging.getLogger("runtime")

RETRY_AFTER_S = 5  # what an unready node tells its prober


def _json(status: int, body: dict, headers: dict | None = None) -> Response:
    return Response(dumps(body), status_code=status, media_type="application/json; charset=utf-8",
                    headers={"Cache-Control": "no-store", **(headers or {})})


async def healthz(request: Request) -> Response:
    return _json(200, {"live": True})


def readyz(tables_built: Callable[[], bool], store_status: Callable[[], Awaitable[dict]]):
    """The /readyz handler: ``tables_built()`` and ``await store_status()`` (runtime/hosted.py `check`)."""
    async def respond(request: Request) -> Response:
        tables = tables_built()
        store = await store_status()
        ready = tables and store["state"] in ("ready", "absent")
        body = {"ready": ready, "tables": "built" if tables else "building", "store": store}
        return _json(200, body) if ready else _json(503, body, {"Retry-After": str(RETRY_AFTER_S)})
    return respond


_FALLBACK = dumps({"error": "internal error"})


class KeepServing:
    """The outermost layer: an exception under it never reaches the server, so a healthy keep-alive connection
    serves its next request (see the module's docstring)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = finished = False

        async def sending(message: Message) -> None:
            nonlocal started, finished
            if message["type"] == "http.response.start":
                started = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                finished = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            if finished:  # answered (the 500 of ServerErrorMiddleware, logged there): keep the connection
                return
            if started:  # half an answer: only closing the connection can end it
                raise
            log.exception("unhandled error for %s before any answer", scope.get("path", "")[:200])
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json; charset=utf-8"),
                                    (b"content-length", str(len(_FALLBACK)).encode()),
                                    (b"cache-control", b"no-store"), (b"access-control-allow-origin", b"*")]})
            await send({"type": "http.response.body", "body": _FALLBACK})
