"""GET /v1/qibla: the bearing to the Kaaba from a place."""
from __future__ import annotations

from generator import qibla
from generator.api.endpoint import Canonical, Endpoint, Params, register
from generator.api.location import coordinates, read_place
from generator.query import Query

QIBLA_DECIMALS = 2


def parse(query: Query, now_unix_s: float) -> Canonical:
    place = read_place(query, with_tz=False)
    query.finish()
    return Canonical(dict(sorted(place.items())))


def build(params: Params) -> dict:
    lat, lng = coordinates(params)
    bearing = float(qibla.bearing_deg(lat, lng))
    return {"lat": lat, "lng": lng, "qibla": round(bearing, QIBLA_DECIMALS)}


ENDPOINT = register(Endpoint("qibla", parse, build))
