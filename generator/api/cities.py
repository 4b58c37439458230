"""GET /v1/cities: search the catalogue by name in en, ar, fa or ur."""
from __future__ import annotations

from generator import city_search
from generator.api.endpoint import Canonical, Endpoint, Params, register
from generator.errors import QueryError
from generator.query import Query


def parse(query: Query, now_unix_s: float) -> Canonical:
    text = query.string("q", max_chars=city_search.MAX_QUERY_CHARS)
    query.finish()
    if text is None or not text.strip():
        raise QueryError("q", "required: a city name in English, Arabic, Farsi or Urdu")
    folded = city_search.fold(text)
    if not folded:
        raise QueryError("q", "must contain letters")
    return Canonical({"q": folded})


def build(params: Params) -> dict:
    return {"cities": city_search.search(params["q"])}


ENDPOINT = register(Endpoint("cities", parse, build))
