"""What an endpoint is, and `render()`: the single function that produces every response body.

An endpoint has two halves.  ``parse`` turns a request's query into *canonical
parameters*: validated, defaults filled (including "today"), numbers rounded, lists
sorted.  ``build`` turns canonical parameters into the response.  The runtime calls
both; ``build.py`` enumerates canonical parameters and calls `render()` only, so a
pre-rendered file and a dynamic answer cannot differ.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import orjson

from generator.query import Query

Params = Mapping[str, Any]


@dataclass(frozen=True)
class Canonical:
    """Canonical parameters of one request.

    ``today_dependent`` is True when a default of "today" was filled in, so the
    answer changes from day to day and may be cached only briefly.
    """

    params: dict[str, Any]
    today_dependent: bool = False


@dataclass(frozen=True)
class Endpoint:
    """One GET endpoint under /v1."""

    name: str
    parse: Callable[[Query, float], Canonical]  # (query, now as Unix seconds)
    build: Callable[[Params], Any]  # JSON-ready object, or bytes for other media types
    media_type: str = "application/json"


_JSON_OPTIONS = orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z


def dumps(obj: Any) -> bytes:
    """Serialise a response object: UTF-8 JSON, keys in insertion order.

    Naive datetimes are UTC and written ``2026-03-20T02:41:00Z``; orjson refuses NaN
    by writing null, so builders must turn missing values into explained nulls first.
    """
    return orjson.dumps(obj, option=_JSON_OPTIONS)


_REGISTRY: dict[str, Endpoint] = {}


def register(endpoint: Endpoint) -> Endpoint:
    assert endpoint.name not in _REGISTRY, endpoint.name
    _REGISTRY[endpoint.name] = endpoint
    return endpoint


def endpoints() -> Mapping[str, Endpoint]:
    """Return every registered endpoint by name (importing the endpoint modules)."""
    from generator.api import (  # noqa: F401  (they register)
        cities, day_status, eclipses, events, feeds, hijri, methods, moon_map, moon_visibility, openapi, prayer_times,
        qibla,
    )

    return _REGISTRY


def render(name: str, params: Params) -> bytes:
    """Return the response body of endpoint ``name`` for canonical ``params``."""
    body = endpoints()[name].build(params)
    return body if isinstance(body, bytes) else dumps(body)
