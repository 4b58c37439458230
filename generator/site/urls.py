"""The site's addresses (docs/site.md): one canonical URL per page.

* ``/`` the index (English: it documents the API);
* ``/city/<id>/`` English, default method; ``/city/<id>/<lang>/`` another language, default
  method; ``/city/<id>/<lang>/<method>/`` any language and method (English included);
* ``/moon/<hy>-<hm>/`` English; ``/moon/<hy>-<hm>/<lang>/`` another language.

Every address is a directory ending in ``/`` (its static file is ``…/index.html``), has no
query string, and so can be pre-rendered and served by any static front.
"""
from __future__ import annotations

from generator.methods import DEFAULT_METHOD
from generator.locale import DEFAULT_LANGUAGE


def city_url(city_id: str, lang: str = DEFAULT_LANGUAGE, method: str = DEFAULT_METHOD) -> str:
    """Return the canonical address of a city's timetable page."""
    if method != DEFAULT_METHOD:
        return f"/city/{city_id}/{lang}/{method}/"
    if lang != DEFAULT_LANGUAGE:
        return f"/city/{city_id}/{lang}/"
    return f"/city/{city_id}/"


def moon_url(hy: int, hm: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """Return the canonical address of a month's crescent-visibility page."""
    return f"/moon/{hy}-{hm}/" if lang == DEFAULT_LANGUAGE else f"/moon/{hy}-{hm}/{lang}/"
