"""Where a request is about: ``lat``+``lng`` or a catalogue ``city``, and an optional zone."""
from __future__ import annotations

from generator import cities, timezones
from generator.errors import QueryError
from generator.query import Query

COORDINATE_DECIMALS = 2  # SPEC 2.1: rounded to 2 decimal places for caching


def read_place(query: Query, *, with_tz: bool) -> dict:
    """Return canonical {lat, lng, city?, tz?} from ``lat``+``lng`` or ``city`` (and ``tz``)."""
    city_id = query.string("city", max_chars=64)
    lat = query.number("lat", -90, 90)
    lng = query.number("lng", -180, 180)
    tz = query.string("tz", max_chars=64) if with_tz else None
    if city_id is not None:
        if lat is not None or lng is not None:
            raise QueryError("city", "give either city or lat+lng, not both")
        city = cities.by_id().get(city_id)
        if city is None:
            close = cities.suggest(city_id)
            hint = f"; did you mean {', '.join(close)}?" if close else "; search ids with /v1/cities?q="
            raise QueryError("city", f"unknown city id{hint}")
        place = {"lat": round(city["lat"], COORDINATE_DECIMALS), "lng": round(city["lng"], COORDINATE_DECIMALS)}
        place["city"] = city_id
        tz = tz if tz is not None else city["tz"]
    else:
        if lat is None and lng is None:
            raise QueryError("lat", "required: give lat and lng (decimal degrees) or city")
        if lat is None:
            raise QueryError("lat", "required with lng (a number from -90 to 90)")
        if lng is None:
            raise QueryError("lng", "required with lat (a number from -180 to 180)")
        place = {"lat": _round(lat), "lng": _round(lng)}
    if tz is not None:
        if not timezones.is_valid(tz):
            raise QueryError("tz", "must be an IANA time zone such as Europe/London or Asia/Tehran")
        place["tz"] = tz
    return place


def _round(value: float) -> float:
    rounded = round(value, COORDINATE_DECIMALS)
    return 0.0 if rounded == 0 else rounded  # no "-0.0" in keys or output
