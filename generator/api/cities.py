"""GET /v1/cities: search the catalogue by name in en, ar, fa or ur (or list it all)."""
from __future__ import annotations

from generator.places import cities, city_search
from generator.api import params as P
from generator.api import schemas
from generator.api.endpoint import Canonical, Endpoint, Params
from generator.errors import QueryError

Q = P.text("q", city_search.MAX_QUERY_CHARS, "Search text.", min_chars=1, example="کربلا")
ALL = P.choice("all", ("1",), "The whole catalogue instead of a search.")


def canonical(values, now_unix_s: float) -> Canonical:
    text = values["q"]
    if values["all"] is not None:
        if text is not None:
            raise QueryError("all", "give either q or all=1, not both", "q_or_all")
        return Canonical({"all": 1})
    if text is None or not text.strip():
        raise QueryError("q", "required: a city name in English, Arabic, Farsi or Urdu (or all=1 for the catalogue)", "city_name_required")
    folded = city_search.fold(text)
    if not city_search.has_letters(folded):
        raise QueryError("q", "must contain letters", "letters")
    return Canonical({"q": folded})


def build(params: Params) -> dict:
    if "all" in params:
        return {"cities": cities.load()}
    return {"cities": city_search.search(params["q"])}


ENDPOINT = Endpoint(
    "cities", "Search the 348 cities by name in English, Arabic, Farsi or Urdu (or all=1 for the whole catalogue)",
    (Q, ALL), canonical, build, schemas.CITIES, plan=lambda window: [{"all": "1"}])
