"""GET /v1/cities: search the catalogue by name in en, ar, fa or ur (or list it all), or the cities nearest a point.

``lat`` + ``lng`` (issue 35: apps snap a user to a catalogue city whose answers are pre-rendered files):
alone, the ``limit`` nearest cities (default 1); with ``q``, the matches ordered by distance.  Each
city then carries ``distanceKm``, the great-circle distance on a sphere of the Earth's mean radius
(haversine), to 0.1 km.  Without them the answer is unchanged.
"""
from __future__ import annotations

import numpy as np

from generator.places import cities, city_search
from generator.api import params as P
from generator.api import schemas
from generator.api.endpoint import Canonical, Endpoint, Params
from generator.api.location import LAT, LNG, COORDINATE_DECIMALS
from generator.errors import QueryError

EARTH_MEAN_RADIUS_KM = 6371.0088  # IUGG mean radius R1
MAX_NEAREST = 20
Q = P.text("q", city_search.MAX_QUERY_CHARS, "Search text.", min_chars=1, example="کربلا")
ALL = P.choice("all", ("1",), "The whole catalogue instead of a search.")
NEAR_LAT = LAT.but(description="With lng: the cities nearest this point (alone: the `limit` nearest; with q: the "
                               "matches by distance), each with distanceKm. Rounded to 0.01°.", keep_default=False)
NEAR_LNG = LNG.but(description="With lat: longitude of the point, decimal degrees east (rounded to 0.01°).",
                   keep_default=False)
LIMIT = P.integer("limit", 1, MAX_NEAREST, "With lat and lng: how many cities at most (default 1 without q, every "
                  "match with q).", keep_default=False)


def canonical(values, now_unix_s: float) -> Canonical:
    text = values["q"]
    near = _near(values)
    if values["all"] is not None:
        if text is not None:
            raise QueryError("all", "give either q or all=1, not both", "q_or_all")
        if near:
            raise QueryError("all", "give either all=1 or lat and lng, not both")
        return Canonical({"all": 1})
    if text is None and near:
        return Canonical({**near, "limit": values["limit"] or 1})
    if text is None or not text.strip():
        raise QueryError("q", "required: a city name in English, Arabic, Farsi or Urdu (or all=1 for the catalogue, "
                              "or lat and lng for the nearest)", "city_name_required")
    folded = city_search.fold(text)
    if not city_search.has_letters(folded):
        raise QueryError("q", "must contain letters", "letters")
    return Canonical({"q": folded, **near, **({"limit": values["limit"]} if values["limit"] else {})})


def _near(values) -> dict:
    lat, lng = values["lat"], values["lng"]
    if lat is None and lng is None:
        if values["limit"] is not None:
            raise QueryError("limit", "applies with lat and lng")
        return {}
    if lat is None or lng is None:
        raise QueryError("lat" if lat is None else "lng", "required with the other: the point's lat and lng")
    return {"lat": _round(lat), "lng": _round(lng)}


def _round(value: float) -> float:
    rounded = round(value, COORDINATE_DECIMALS)
    return 0.0 if rounded == 0 else rounded


def distances_km(lat: float, lng: float, found: list[dict]) -> np.ndarray:
    """Great-circle distances (haversine) from (lat, lng) to each city of ``found``."""
    lat1, lng1 = np.radians(lat), np.radians(lng)
    lat2 = np.radians([c["lat"] for c in found])
    lng2 = np.radians([c["lng"] for c in found])
    h = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lng2 - lng1) / 2) ** 2
    return 2 * EARTH_MEAN_RADIUS_KM * np.arcsin(np.sqrt(np.clip(h, 0.0, 1.0)))


def build(params: Params) -> dict:
    if "all" in params:
        return {"cities": cities.load()}
    found = city_search.search(params["q"]) if "q" in params else cities.load()
    if "lat" not in params:
        return {"cities": found}
    if not found:
        return {"cities": []}
    distance = distances_km(params["lat"], params["lng"], found)
    order = np.argsort(distance, kind="stable")[: params.get("limit", len(found))]
    return {"cities": [{**found[i], "distanceKm": round(float(distance[i]), 1)} for i in order.tolist()]}


ENDPOINT = Endpoint(
    "cities", "Search the 348 cities by name in English, Arabic, Farsi or Urdu (or all=1 for the whole catalogue), "
              "or find the cities nearest a point (lat, lng)",
    (Q, ALL, NEAR_LAT, NEAR_LNG, LIMIT), canonical, build, schemas.CITIES, plan=lambda window: [{"all": "1"}])
