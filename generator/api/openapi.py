"""The OpenAPI 3.1 description of /v1, served at /v1/openapi.json and used by the site's index.

Each operation's parameters are its endpoint's declarations (`generator.api.params`), so
the document states exactly the ranges, choices and formats the service enforces;
response schemas are hand-written (`generator.api.schemas`), the shared ones named in
``components`` (Day, PrayerTimes, HijriDate, Event, Error…) so that a generated client has
one type for each.  Every operation has an operationId and documents its statuses (200,
304, 400, 404, 429, 503) and header fields (ETag, Cache-Control, RateLimit, Retry-After)
(issue 35: tests/test_generated_clients.py builds Python and TypeScript clients from it).
"""
from __future__ import annotations

from typing import Callable, Sequence

from generator.api import mosque_edits, schemas
from generator.api.endpoint import Canonical, Endpoint, Params

VERSION = "1.0.0"
SUMMARY = "This document"

# Response header fields (components.headers), as runtime/app.py and deploy/nginx.conf send them.
HEADERS = {
    "ETag": {"description": "The body's XXH3-128, quoted. Sent back in If-None-Match, an unchanged answer is a 304 "
                            "without a body.", "schema": {"type": "string"}},
    "Cache-Control": {"description": "How long the answer may be reused: public, max-age=604800 (a week) for a dated "
                                     "answer, 300 for one that follows today; docs/decisions.md lists the others.",
                      "schema": {"type": "string"}},
    "RateLimit": {"description": "While the server's own limit is on: the client's remaining cost units (r) and the "
                                 "seconds until its window resets (t), e.g. \"default\";r=97;t=42 (IETF RateLimit "
                                 "fields; a render costs one unit per started 10 ms of CPU).",
                  "schema": {"type": "string"}},
    "RateLimit-Policy": {"description": "While the server's own limit is on: the units (q) per window of w seconds, "
                                        "e.g. \"default\";q=100;w=60.", "schema": {"type": "string"}},
    "Retry-After": {"description": "Seconds to wait before trying again.", "schema": {"type": "integer", "minimum": 0}},
}


def _headers(*names: str) -> dict:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


def _errors() -> dict:
    error = {"$ref": "#/components/schemas/Error"}
    limits = ("RateLimit", "RateLimit-Policy")
    return {
        "304": {"description": "Not Modified: If-None-Match named the current ETag", "headers": _headers(
            "ETag", "Cache-Control", *limits)},
        "400": {**schemas.json_response(error, "Invalid parameters; `error` names the parameter"),
                "headers": _headers(*limits)},
        "404": {**schemas.json_response(error, "No such path"), "headers": _headers(*limits)},
        "429": {**schemas.json_response(error, "More than the cost units one client may spend a minute on uncached "
                                               "answers"), "headers": _headers("Retry-After", *limits)},
        "503": {**schemas.json_response(error, "Every render slot is busy, or a render overran its time, or the "
                                               "server is still building its tables (its first start)"),
                "headers": _headers("Retry-After")},
    }


def operation_id(name: str) -> str:
    """The operationId of an endpoint: get + its name in camel case (prayer-times.csv: getPrayerTimesCsv)."""
    return "get" + "".join(part[:1].upper() + part[1:] for part in name.replace(".", "-").split("-"))


def operation(endpoint: Endpoint) -> dict:
    """Return the OpenAPI path item of one endpoint."""
    ok = {**endpoint.response, "headers": _headers("ETag", "Cache-Control", "RateLimit", "RateLimit-Policy")}
    return {"get": {"operationId": operation_id(endpoint.name), "summary": endpoint.summary,
                    "parameters": [p.openapi() for p in endpoint.parameters],
                    "responses": {"200": ok, **_errors()}}}


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
                           "cities, Hijri conversion (moonsighting, iran, pakistan, india, lebanon, azerbaijan, "
                           "cssna-east, cssna-west), crescent "
                           "visibility, events, eclipses, day status and calendar feeds. Every operation is a GET but those that publish and edit "
                           "a hosted mosque profile (/mosques/{id}: POST, PUT, DELETE with its edit secret); errors "
                           "are JSON {error}.",
        },
        "servers": [{"url": "/v1"}],
        "paths": paths,
        "components": {"schemas": schemas.COMPONENTS, "headers": HEADERS,
                       "securitySchemes": mosque_edits.SECURITY_SCHEMES},
    }


def endpoint(listing: Callable[[], Sequence[Endpoint]]) -> Endpoint:
    """Return the /v1/openapi.json endpoint describing ``listing()`` (which includes it)."""
    def canonical(values, now_unix_s: float) -> Canonical:
        return Canonical({})

    def build(params: Params) -> dict:
        return document(listing())

    return Endpoint("openapi.json", SUMMARY, (), canonical, build,
                    schemas.json_response({"type": "object"}), plan=lambda window: [{}])
