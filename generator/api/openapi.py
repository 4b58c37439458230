"""The OpenAPI 3.1 description of /v1, served at /v1/openapi.json and used by the site's index.

Each operation's parameters are its endpoint's declarations (`generator.api.params`), so
the document states exactly the ranges, choices and formats the service enforces;
response schemas are hand-written (`generator.api.schemas`).
"""
from __future__ import annotations

from typing import Callable, Sequence

from generator.api import mosque_edits, schemas
from generator.api.endpoint import Canonical, Endpoint, Params

VERSION = "1.0.0"
SUMMARY = "This document"


def _errors() -> dict:
    error = {"$ref": "#/components/schemas/Error"}
    return {
        "400": schemas.json_response(error, "Invalid parameters; `error` names the parameter"),
        "429": schemas.json_response(error, "More than the uncached requests allowed per minute"),
    }


def operation(endpoint: Endpoint) -> dict:
    """Return the OpenAPI path item of one endpoint."""
    return {"get": {"summary": endpoint.summary, "parameters": [p.openapi() for p in endpoint.parameters],
                    "responses": {"200": dict(endpoint.response), **_errors()}}}


def document(endpoints: Sequence[Endpoint]) -> dict:
    """Return the OpenAPI 3.1 document of ``endpoints`` and of the hosted mosque profiles' operations."""
    paths = {f"/{endpoint.name}": operation(endpoint) for endpoint in endpoints}
    for path, item in mosque_edits.PATHS.items():
        paths[path] = {**paths.get(path, {}), **item}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Shia prayer times, Hijri calendar and astronomy",
            "version": VERSION,
            "description": "Free, read-only. Prayer times by the Jafari approach and 15 other methods, qibla, "
                           "cities, Hijri conversion (moonsighting, iran, pakistan, india), crescent visibility, events, eclipses, "
                           "day status and calendar feeds. Every operation is a GET but those that publish and edit "
                           "a hosted mosque profile (/mosques/{id}: POST, PUT, DELETE with its edit secret); errors "
                           "are JSON {error}.",
        },
        "servers": [{"url": "/v1"}],
        "paths": paths,
        "components": {"schemas": {"Error": schemas.ERROR}, "securitySchemes": mosque_edits.SECURITY_SCHEMES},
    }


def endpoint(listing: Callable[[], Sequence[Endpoint]]) -> Endpoint:
    """Return the /v1/openapi.json endpoint describing ``listing()`` (which includes it)."""
    def canonical(values, now_unix_s: float) -> Canonical:
        return Canonical({})

    def build(params: Params) -> dict:
        return document(listing())

    return Endpoint("openapi.json", SUMMARY, (), canonical, build,
                    schemas.json_response({"type": "object"}), plan=lambda window: [{}])
