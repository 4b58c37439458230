"""The API's answers, asked in process: the pages' only source of data.

A page never computes a time, a date or a zone itself.  It asks the endpoint exactly as
an HTTP client would (`Endpoint.parse` on a query, then `render`), and reads the JSON
bytes the API serves, so a page and /v1 cannot disagree.  ``today`` stands for the
request's clock: noon UTC of that day, as build.py renders "today" answers.
"""
from __future__ import annotations

import functools
from datetime import date, datetime, time, timezone
from typing import Any, Mapping

import orjson

from generator.output import static_paths
from generator.prayer import mosques
from generator.api import BY_NAME
from generator.query import Query

CACHED_ANSWERS = 512  # a city page asks ~8 questions, a moon page 6; months repeat across languages


def now_s(today: date) -> float:
    """Return the Unix time (s) the pages use for ``today``: 12:00 UTC."""
    return datetime.combine(today, time(12, 0), tzinfo=timezone.utc).timestamp()


def api_body(name: str, query: Mapping[str, Any], today: date) -> bytes:
    """Return the body /v1/<name>?<query> answers on ``today`` (QueryError for a bad query).  A hosted
    mosque's answers are kept under its version: an edit is read at once (issue 27)."""
    mosque = mosques.find(str(query["mosque"])) if "mosque" in query else None
    version = None if mosque is None else mosque.version
    return _body(name, tuple(sorted((key, str(value)) for key, value in query.items())), today, version)


def api_json(name: str, query: Mapping[str, Any], today: date) -> Any:
    """Return the parsed JSON /v1/<name>?<query> answers on ``today``."""
    return orjson.loads(api_body(name, query, today))


def catalogue_city(city_id: str, today: date) -> dict:
    """Return the catalogue city ``city_id`` as /v1/cities?all=1 lists it (names, zone, country, …)."""
    return next(c for c in api_json("cities", {"all": "1"}, today)["cities"] if c["id"] == city_id)


def api_url(name: str, query: Mapping[str, Any]) -> str:
    """Return the /v1 address of a query (keys sorted, values percent-encoded)."""
    return f"/v1/{name}?{static_paths.canonical_query(query)}" if query else f"/v1/{name}"


@functools.lru_cache(maxsize=CACHED_ANSWERS)
def _body(name: str, items: tuple[tuple[str, str], ...], today: date, version: int | None = None) -> bytes:
    endpoint = BY_NAME[name]
    return endpoint.render(endpoint.parse(Query(items), now_s(today)).params)
