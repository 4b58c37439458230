"""Where a request is about: ``lat``+``lng`` or a catalogue ``city``, and an optional zone.

Canonical parameters keep what the request named: ``city`` (its coordinates come from
the catalogue, `coordinates()`), or ``lat``/``lng`` rounded to 2 decimals (SPEC 2.1).
So a pre-rendered file's name parses back to the same request.
"""
from __future__ import annotations

from typing import Mapping

from generator.places import cities, timezones
from generator.api import params as P
from generator.errors import QueryError

COORDINATE_DECIMALS = 2  # SPEC 2.1: rounded to 2 decimal places for caching
CITY_ID_MAX_CHARS = 64
ZONE_MAX_CHARS = 64

LAT = P.number("lat", -90, 90, "Latitude, decimal degrees (rounded to 0.01°). With lng, instead of city.",
               example=35.69)
LNG = P.number("lng", -180, 180, "Longitude, decimal degrees east (rounded to 0.01°).", example=51.39)
CITY = P.text("city", CITY_ID_MAX_CHARS, "A city id of /v1/cities (sets lat, lng and tz).", example="karbala")
AUTO_ZONE = "auto"
TZ = P.text("tz", ZONE_MAX_CHARS, "IANA zone for `local` HH:mm (default the city's), or `auto`: the zone at the "
            "coordinates, looked up offline (timezone-boundary-builder polygons; open sea gets Etc/GMT±N).",
            example="Asia/Tehran")
PLACE = (LAT, LNG, CITY)


def place(values: Mapping, *, with_tz: bool) -> dict:
    """Return canonical {city} or {lat, lng}, plus {tz} (from ``tz``, the city's zone, or ``tz=auto``)."""
    city_id, lat, lng = values["city"], values["lat"], values["lng"]
    tz = values.get("tz") if with_tz else None
    if city_id is not None:
        if lat is not None or lng is not None:
            raise QueryError("city", "give either city or lat+lng, not both", "city_or_coordinates")
        city = known_city(city_id)
        found: dict = {"city": city["id"]}
        tz = tz if tz is not None else (city["tz"] if with_tz else None)
    else:
        if lat is None and lng is None:
            raise QueryError("lat", "required: give lat and lng (decimal degrees) or city", "place_required")
        if lat is None:
            raise QueryError("lat", "required with lng (a number from -90 to 90)", "lat_with_lng")
        if lng is None:
            raise QueryError("lng", "required with lat (a number from -180 to 180)", "lng_with_lat")
        found = {"lat": _round(lat), "lng": _round(lng)}
    if tz == AUTO_ZONE:  # the key stores the zone found, so the answer equals the explicit-tz one
        tz = city["tz"] if city_id is not None else timezones.zone_at(found["lat"], found["lng"])
        if tz is None:
            raise QueryError("tz", "no zone is known at these coordinates; give an IANA zone such as Etc/GMT-3", "no_zone_here")
    if tz is not None:
        found["tz"] = timezones.canonical_zone(tz)
        if found["tz"] is None:
            raise QueryError("tz", "must be an IANA time zone such as Europe/London or Asia/Tehran", "zone")
    return found


def known_city(city_id: str) -> Mapping:
    """Return the catalogue city ``city_id``, or a QueryError on ``city`` suggesting close ids."""
    city = cities.by_id().get(cities.resolve(city_id))
    if city is None:
        close = cities.suggest(city_id)
        if close:
            raise QueryError("city", f"unknown city id; did you mean {', '.join(close)}?", "unknown_city_close",
                             {"close": list(close)})
        raise QueryError("city", "unknown city id; search ids with /v1/cities?q=", "unknown_city")
    return city


def coordinates(params: Mapping) -> tuple[float, float]:
    """Return (lat, lng) of canonical params: the city's (rounded to 2 decimals) or the given ones."""
    if "city" in params:
        city = cities.by_id()[params["city"]]
        return _round(city["lat"]), _round(city["lng"])
    return params["lat"], params["lng"]


def is_point(params: Mapping) -> bool:
    """True when canonical params name a place."""
    return "city" in params or "lat" in params


def _round(value: float) -> float:
    rounded = round(value, COORDINATE_DECIMALS)
    return 0.0 if rounded == 0 else rounded  # no "-0.0" in keys or output
