"""GET /v1/qibla: the bearing to the Kaaba from a place."""
from __future__ import annotations

from generator.prayer import qibla
from generator.api import schemas
from generator.api.endpoint import Canonical, Endpoint, Params
from generator.api.location import PLACE, coordinates, place

QIBLA_DECIMALS = 2


def canonical(values, now_unix_s: float) -> Canonical:
    return Canonical(place(values, with_tz=False))


def build(params: Params) -> dict:
    lat, lng = coordinates(params)
    bearing = float(qibla.bearing_deg(lat, lng))
    return {"lat": lat, "lng": lng, "qibla": round(bearing, QIBLA_DECIMALS)}


ENDPOINT = Endpoint("qibla", "Qibla bearing, degrees clockwise from true north", PLACE, canonical, build,
                    schemas.QIBLA, quick=True)
