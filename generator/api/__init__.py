"""The API layer: one module per endpoint, the ordered tuple of endpoints, and `render()`.

Adding an endpoint is one module (its parameter declarations, ``canonical``, ``build``
and ``plan``) and one line in `ENDPOINTS`.  The runtime routes, build.py pre-renders and
the OpenAPI document lists exactly this tuple, in this order.  Layers read one way:
domain modules (generator/*.py) know nothing of this package; the runtime, build.py and
the site (generator/site) import it.
"""
from __future__ import annotations

from generator.api import (
    calendar_feeds, cities, city_feeds, day_status, eclipses, events, hijri, methods, moon_map, moon_visibility,
    mosque_list, openapi, prayer_times, prayer_times_csv, qibla,
)
from generator.api.endpoint import Endpoint, Params

ENDPOINTS: tuple[Endpoint, ...] = (
    prayer_times.ENDPOINT,
    prayer_times_csv.ENDPOINT,
    methods.ENDPOINT,
    qibla.ENDPOINT,
    cities.ENDPOINT,
    mosque_list.ENDPOINT,
    hijri.ENDPOINT,
    moon_visibility.ENDPOINT,
    moon_map.ENDPOINT,
    events.ENDPOINT,
    eclipses.ENDPOINT,
    day_status.ENDPOINT,
    openapi.endpoint(lambda: ENDPOINTS),
    calendar_feeds.EVENTS,
    city_feeds.PRAYER_TIMES,
    calendar_feeds.FASTING,
    city_feeds.NIGHT,
)
BY_NAME: dict[str, Endpoint] = {endpoint.name: endpoint for endpoint in ENDPOINTS}


def render(name: str, params: Params) -> bytes:
    """Return the response body of endpoint ``name`` for canonical ``params``."""
    return BY_NAME[name].render(params)
