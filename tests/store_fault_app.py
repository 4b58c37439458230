"""The app exactly as runtime/app.py serves it, plus one route that raises (tests/test_store_faults.py): an unhandled
exception on a real uvicorn, to show that it never closes a healthy keep-alive connection."""
from starlette.routing import Route

import runtime.app

FAULT_PATH = "/_test/unhandled"


async def unhandled(request):
    raise RuntimeError("a defect under a route")


runtime.app.starlette_app.router.routes.insert(0, Route(FAULT_PATH, unhandled, methods=["GET"]))
app = runtime.app.app
