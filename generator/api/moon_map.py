"""GET /v1/moon-visibility.svg: the crescent-visibility world map of one evening, as SVG.

The same grid as /v1/moon-visibility in grid mode (``hy``, ``hm``, ``evening``, ``res``,
``calendar``; the place parameters are refused), drawn by `generator.output.moon_map_svg`: one
square per grid cell in the colour of its digit, GSHHS coastlines, and a legend in
``lang`` (en, ar, fa, ur; default en).
"""
from __future__ import annotations

from generator.output import moon_map_svg
from generator.api import moon_visibility, schemas
from generator.api.common import LANG
from generator.api.endpoint import Canonical, Endpoint, Params

WORLD_GRID_ONLY = "the map is a world grid; use /v1/moon-visibility for a place"
PARAMETERS = (*moon_visibility.GRID_PARAMETERS,
              LANG.but(description="Language of the title and legend (default en)."))


def canonical(values, now_unix_s: float) -> Canonical:
    """The grid parameters of /v1/moon-visibility, plus lang."""
    grid = moon_visibility.canonical({**values, "lat": None, "lng": None, "city": None}, now_unix_s)
    return Canonical({**grid.params, "lang": values["lang"]}, grid.today_dependent)


def build(params: Params) -> bytes:
    """Return the SVG document of one evening's grid."""
    grid_params = {key: value for key, value in params.items() if key != "lang"}
    return moon_map_svg.standalone_svg(moon_visibility.grid_mode(grid_params), params["lang"])


ENDPOINT = Endpoint(
    "moon-visibility.svg", "The crescent-visibility world map of one evening as SVG (the grid of /moon-visibility)",
    PARAMETERS, canonical, build, schemas.SVG, media_type="image/svg+xml",
    refused={name: WORLD_GRID_ONLY for name in ("lat", "lng", "city")}, hijri_days=moon_visibility.hijri_days)
