"""GET /v1/openapi.json: the OpenAPI 3.1 document of the service."""
from __future__ import annotations

from generator import openapi
from generator.api.endpoint import Canonical, Endpoint, Params, endpoints, register
from generator.query import Query


def parse(query: Query, now_unix_s: float) -> Canonical:
    query.finish()
    return Canonical({})


def build(params: Params) -> dict:
    return openapi.document(feeds="events.ics" in endpoints())


ENDPOINT = register(Endpoint("openapi.json", parse, build))
