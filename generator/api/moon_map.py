"""GET /v1/moon-visibility.svg: the crescent-visibility world map of one evening, as SVG.

The same grid as /v1/moon-visibility in grid mode (``hy``, ``hm``, ``evening``, ``res``,
``calendar``; the place parameters are refused), drawn by `generator.site.moon_map`: one
square per grid cell in the colour of its digit, GSHHS coastlines, and a legend in
``lang`` (en, ar, fa, ur; default en).
"""
from __future__ import annotations

from generator import hijri_names
from generator.api import moon_visibility
from generator.api.endpoint import Canonical, Endpoint, Params, register
from generator.errors import QueryError
from generator.query import Query

PLACE_PARAMETERS = ("lat", "lng", "city")
GRID_PARAMETERS = ("calendar", "hy", "hm", "evening", "res")


def parse(query: Query, now_unix_s: float) -> Canonical:
    """Validate a /v1/moon-visibility.svg query: the grid parameters of /v1/moon-visibility, plus lang."""
    for name in PLACE_PARAMETERS:
        if query.has(name):
            raise QueryError(name, "the map is a world grid; use /v1/moon-visibility for a place")
    lang = query.choice("lang", hijri_names.LANGUAGES, default="en")
    grid = {name: query.raw(name) for name in GRID_PARAMETERS if query.has(name)}
    query.finish()
    canonical = moon_visibility.parse(Query.of(grid), now_unix_s)
    return Canonical(dict(sorted({**canonical.params, "lang": lang}.items())), canonical.today_dependent)


def build(params: Params) -> bytes:
    """Return the SVG document of one evening's grid."""
    from generator.site import moon_map

    grid_params = {key: value for key, value in params.items() if key != "lang"}
    return moon_map.standalone_svg(moon_visibility.grid_mode(grid_params), params["lang"])


ENDPOINT = register(Endpoint("moon-visibility.svg", parse, build, media_type="image/svg+xml"))
