"""GET /v1/cities: search the catalogue by name in en, ar, fa or ur (or list it all)."""
from __future__ import annotations

from generator import cities, city_search
from generator.api.endpoint import Canonical, Endpoint, Params, register
from generator.errors import QueryError
from generator.query import Query


def parse(query: Query, now_unix_s: float) -> Canonical:
    text = query.string("q", max_chars=city_search.MAX_QUERY_CHARS)
    everything = query.choice("all", ("1",))
    query.finish()
    if everything is not None:
        if text is not None:
            raise QueryError("all", "give either q or all=1, not both")
        return Canonical({"all": 1})
    if text is None or not text.strip():
        raise QueryError("q", "required: a city name in English, Arabic, Farsi or Urdu (or all=1 for the catalogue)")
    folded = city_search.fold(text)
    if not city_search.has_letters(folded):
        raise QueryError("q", "must contain letters")
    return Canonical({"q": folded})


def build(params: Params) -> dict:
    if "all" in params:
        return {"cities": cities.load()}
    return {"cities": city_search.search(params["q"])}


ENDPOINT = register(Endpoint("cities", parse, build))
