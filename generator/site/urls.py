"""The site's addresses (docs/site.md): one canonical URL per page.

* ``/`` the index (English: it documents the API);
* ``/city/<id>/`` English, default method (the authority of the city's printed table where it has one,
  e.g. ImamAliFoundation for london; else the service default, Tehran); ``/city/<id>/<lang>/`` another language, default
  method; ``/city/<id>/<lang>/<method>/`` any language and method (English included);
* ``/city/<id>/<lang>/<method>/<YYYY>-<MM>/`` one month of the timetable (always in full);
* ``/city/<id>/<lang>/imsakiya/`` the Ramadan imsakiya under the city's reckoning, default method;
  ``…/imsakiya/<calendar>/`` the other reckoning; ``…/imsakiya/<calendar>/<method>/`` any method;
* ``/moon/<hy>-<hm>/`` English; ``/moon/<hy>-<hm>/<lang>/`` another language;
* ``/<lang>/`` the home page in ar, fa, ur (``/`` is English).

Every address is a directory ending in ``/`` (its static file is ``…/index.html``), has no
query string, and so can be pre-rendered and served by any static front.
"""
from __future__ import annotations

from generator.methods import DEFAULT_METHOD
from generator.locale import DEFAULT_LANGUAGE


def city_url(city_id: str, lang: str = DEFAULT_LANGUAGE, method: str | None = None,
             default_method: str = DEFAULT_METHOD) -> str:
    """Return the canonical address of a city's timetable page (``default_method``: the method the city's
    page shows by default, the authority of a printed table where the city has one)."""
    method = method or default_method
    if method != default_method:
        return f"/city/{city_id}/{lang}/{method}/"
    if lang != DEFAULT_LANGUAGE:
        return f"/city/{city_id}/{lang}/"
    return f"/city/{city_id}/"


def moon_url(hy: int, hm: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """Return the canonical address of a month's crescent-visibility page."""
    return f"/moon/{hy}-{hm}/" if lang == DEFAULT_LANGUAGE else f"/moon/{hy}-{hm}/{lang}/"


def month_url(city_id: str, lang: str, method: str, year: int, month: int) -> str:
    """Return the address of one month of a city's timetable (always in full: language, method, YYYY-MM)."""
    return f"/city/{city_id}/{lang}/{method}/{year:04d}-{month:02d}/"


def imsakiya_url(city_id: str, lang: str, calendar: str, city_calendar: str, method: str = DEFAULT_METHOD,
                 default_method: str = DEFAULT_METHOD) -> str:
    """Return the canonical address of a city's Ramadan imsakiya (the reckoning left out when it is the city's)."""
    if method != default_method:
        return f"/city/{city_id}/{lang}/imsakiya/{calendar}/{method}/"
    if calendar != city_calendar:
        return f"/city/{city_id}/{lang}/imsakiya/{calendar}/"
    return f"/city/{city_id}/{lang}/imsakiya/"
