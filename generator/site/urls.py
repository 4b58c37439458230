"""The site's addresses (docs/site.md): one canonical URL per page.

* ``/`` the index (English: it documents the API);
* ``/city/<id>/`` English, default method (the authority of the city's printed table where it has one,
  e.g. ImamAliFoundation for london; else the service default, Tehran); ``/city/<id>/<lang>/`` another language, default
  method; ``/city/<id>/<lang>/<method>/`` any language and method (English included);
* ``/city/<id>/<lang>/<method>/<YYYY>-<MM>/`` one month of the timetable (always in full);
* ``/city/<id>/<lang>/imsakiya/`` the Ramadan imsakiya under the city's reckoning, default method;
  ``…/imsakiya/<calendar>/`` the other reckoning; ``…/imsakiya/<calendar>/<method>/`` any method;
* ``/moon/<hy>-<hm>/`` English; ``/moon/<hy>-<hm>/<lang>/`` another language;
* ``/<lang>/`` the home page in ar, fa, ur (``/`` is English);
* ``/mosque/new/`` the mosque builder in English, ``/mosque/new/<lang>/`` in another language (issue 27; "new" is
  never a mosque's id: `generator.prayer.mosques.RESERVED_IDS`), linked from every page's header;
* ``/mosque/<id>/`` a mosque's page in English (`generator.prayer.mosques.PAGE_PATH`), ``/mosque/<id>/<lang>/`` in
  another language; ``/mosque/<id>/<lang>/<YYYY>-<MM>/`` one month of it (any month of the API's years: the
  notice board's printed month); ``/mosque/<id>/<lang>/imsakiya/`` its own Ramadan timetable (jamaat included),
  ``…/imsakiya/<hy>/`` that of Ramadan of Hijri year ``hy``; ``/mosque/<id>/screen/`` redirects to its wall screen, ``/screen/?mosque=<id>&lang=<lang>``
  (a query page: rendered on request, in the scope of the screen's service worker).

Every address is a directory ending in ``/`` (its static file is ``…/index.html``), has no
query string, and so can be pre-rendered and served by any static front.  Links between pages
are these paths; what must be absolute (the canonical URL, the ``hreflang`` alternates,
OpenGraph's ``og:url``, the sitemap's ``<loc>``, robots.txt's ``Sitemap:``) is
``PUBLIC_ORIGIN`` + path (`absolute`).

``PUBLIC_ORIGIN`` is where the site is public, ``scheme://host[:port]`` with no path: a setting of
the build and of the app alike (the environment variable of that name, read once at import),
because a pre-rendered page carries it and the app must render the same bytes.  Never taken
from a request's ``Host`` header: a cache would keep a page whose canonical URL a client chose.
Default ``http://127.0.0.1:8000``, the address ``make serve`` listens on; a public deployment
sets its own (deploy/README.md).  A value that is not an origin stops the build and the app.
"""
from __future__ import annotations

import os
import re

from generator.prayer import mosques
from generator.prayer.methods import DEFAULT_METHOD
from generator.words.locale import DEFAULT_LANGUAGE

PUBLIC_ORIGIN_VARIABLE = "PUBLIC_ORIGIN"
DEFAULT_PUBLIC_ORIGIN = "http://127.0.0.1:8000"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_ORIGIN = re.compile(rf"https?://(?:{_LABEL}(?:\.{_LABEL})*|\[[0-9a-f:.]{{2,45}}\])(?::(?P<port>[0-9]{{1,5}}))?", re.ASCII)


def public_origin(value: str) -> str:
    """Return ``value`` as the site's origin (``https://times.example.org``), or raise ValueError.

    Lower-case host (a DNS name or a bracketed IPv6 address), an optional port, no path, no
    user, no query, no trailing slash: every absolute URL is this string followed by a path."""
    found = _ORIGIN.fullmatch(value)
    if not found or not 0 < int(found["port"] or 1) < 65536:
        raise ValueError(f"{PUBLIC_ORIGIN_VARIABLE} must be scheme://host[:port] in lower case with no path, "
                         f"e.g. https://times.example.org; got {value[:100]!r}")
    return value


PUBLIC_ORIGIN = public_origin(os.environ.get(PUBLIC_ORIGIN_VARIABLE, DEFAULT_PUBLIC_ORIGIN))
# The origin the operator set (None: the default, which is no public address).  Where a page hands a reader an
# address to keep (a calendar feed to subscribe to), it is on this origin when set, never the one the page happens to
# be read on (an app's own port behind the proxy: mosque trial of 28 November, D14); unset, the reader's host as
# before (feed_links.js).
CONFIGURED_ORIGIN = PUBLIC_ORIGIN if os.environ.get(PUBLIC_ORIGIN_VARIABLE) else None


def absolute(path: str) -> str:
    """Return the absolute URL of a site path ("/city/london/" -> "https://…/city/london/")."""
    return PUBLIC_ORIGIN + path


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


BUILDER_PATH = "/mosque/new/"


def builder_url(lang: str = DEFAULT_LANGUAGE) -> str:
    """Return the address of the mosque builder in ``lang``."""
    return BUILDER_PATH if lang == DEFAULT_LANGUAGE else f"{BUILDER_PATH}{lang}/"


def mosque_url(mosque_id: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """Return the canonical address of a mosque's page in ``lang`` (ids are ``[a-z0-9-]``: nothing to escape)."""
    path = mosques.PAGE_PATH.format(id=mosque_id)
    return path if lang == DEFAULT_LANGUAGE else f"{path}{lang}/"


def mosque_month_url(mosque_id: str, lang: str, year: int, month: int) -> str:
    """Return the address of one month of a mosque's page (always with its language, as a city's month)."""
    return f"{mosques.PAGE_PATH.format(id=mosque_id)}{lang}/{year:04d}-{month:02d}/"


def mosque_imsakiya_url(mosque_id: str, lang: str, hy: int | None = None) -> str:
    """Return the address of a mosque's Ramadan timetable: the current or coming Ramadan, else Hijri year ``hy``."""
    path = f"{mosques.PAGE_PATH.format(id=mosque_id)}{lang}/imsakiya/"
    return path if hy is None else f"{path}{hy}/"


def screen_url(mosque_id: str, lang: str) -> str:
    """Return the address of a mosque's wall screen in ``lang`` (where ``/mosque/<id>/screen/`` leads)."""
    return f"/screen/?mosque={mosque_id}&lang={lang}"
