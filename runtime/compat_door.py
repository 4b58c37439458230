"""The routes of the Aladhan-compatible door (generator/api/compat_aladhan.py) under /compat/aladhan/v1/.

A request is checked by the door (a 400 or 404 in Aladhan's shape, never cached), then answered like
every /v1 answer by the app's ``answer``: the in-memory cache, else a render in the render pool
charged to the client's rate limit by its cost, with an ETag, 304s and the Cache-Control of a dated
(a week) or a today-following (5 minutes) answer.  Nothing of the door is pre-rendered.
"""
from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from generator.api import compat_aladhan
from generator.output.static_paths import CACHE_STABLE, CACHE_TODAY

JSON = "application/json; charset=utf-8"


def routes(answer, parse_checked) -> list[Route]:
    """``answer`` is runtime.app.answer; ``parse_checked(parse)`` runs a request's check (off the event loop
    while the tables are still being built on a first start, raising `Busy` past the budget)."""
    from runtime.render_pool import Busy

    async def door(request: Request) -> Response:
        items = request.query_params.multi_items()
        now_s = time.time()
        try:
            call = await parse_checked(lambda: compat_aladhan.parse(request.path_params["rest"], items, now_s))
        except compat_aladhan.CompatError as error:
            return Response(error.body(), status_code=error.code, media_type=JSON, headers={"Cache-Control": "no-store"})
        except Busy as busy:
            return Response(compat_aladhan.envelope_error(503, str(busy)), status_code=503, media_type=JSON,
                            headers={"Cache-Control": "no-store", "Retry-After": str(busy.retry_after_s)})
        return await answer(request, ("compat", *call.key), None, call.render, JSON,
                            CACHE_TODAY if call.today_dependent else CACHE_STABLE, (call.name, call.cost_params))

    return [Route(compat_aladhan.PREFIX + "/{rest:path}", door, methods=["GET", "HEAD"])]
