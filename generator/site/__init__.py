"""The human-facing site: pages rendered from the same data and render() as the API.

The runtime and build.py only see this interface:

* `pages()`: every page route, each a `Page` (a Starlette path with ``{name}`` parts and
  a function rendering the page's bytes from those parts and ``today``);
* `static_pages(first_year, last_year, today, cities=None)`: every page build.py pre-renders, as
  (route, path parameters) pairs; the file goes to ``static_out/<route with the
  parameters filled in>``, with ``index.html`` appended to paths ending in ``/``.
  Besides the HTML pages: ``/robots.txt`` and ``/sitemap.xml`` (generator/site/sitemap.py).
* `query_pages()`: the pages shown from their query string (`QueryPage`: the screen, the widget);
* `default_years(today)`: the years a full build covers (this year ±1), those the sitemap lists;
* `not_found_page(path)`: the HTML of the 404 page;
* `redirects()`: addresses answered by a redirect (``/mosque/<id>/screen/`` to its screen's query page):
  route -> function of the query's items and the path parameters giving the target path, or None (404).

A page that does not exist (an unknown city id, a Hijri month out of range) raises
`PageNotFound`; the runtime answers 404.
"""
from __future__ import annotations

from datetime import date

from generator.errors import QueryError
from generator.site import routes
from generator.site.page import BadPageQuery, Page, PageNotFound, QueryPage, file_path

__all__ = ["BadPageQuery", "Page", "PageNotFound", "QueryPage", "file_path", "pages", "query_pages", "static_pages",
           "default_years", "not_found_page", "error_page", "redirects"]


def pages() -> list[Page]:
    """Return every page route of the site."""
    return routes.PAGES


def query_pages() -> list[QueryPage]:
    """Return the pages shown from their query string (the screen, the widget)."""
    return routes.QUERY_PAGES


def static_pages(first_year: int, last_year: int, today: date,
                 cities: tuple[str, ...] | None = None) -> list[tuple[str, dict]]:
    """Return the (route, path parameters) of every page to pre-render (city pages: of ``cities``, or all)."""
    return routes.static_pages(first_year, last_year, today, cities)


def default_years(today: date) -> tuple[int, int]:
    """Return the Gregorian years a full build pre-renders (this year ±1): those /sitemap.xml lists."""
    return routes.default_years(today)


def not_found_page(path: str) -> bytes:
    """Return the HTML of the site's 404 page for a request path."""
    return routes.not_found_page(path)


def language_of_path(path: str) -> str | None:
    """The language a page's path names, if any (its 404 is then the page in that language)."""
    return routes.language_of_path(path)


def error_page(path: str, status: int, lang: str | None = None, detail: "str | QueryError | None" = None) -> bytes:
    """Return the HTML of the site's 400, 404, 429 or 503 page, in ``lang`` or the language the path names
    (``detail``: the 400's message, naming the parameter)."""
    return routes.error_page(path, status, lang, detail)


def redirects() -> dict:
    """Return the routes answered by a redirect: route -> (path parameters -> target path, or None for 404)."""
    return routes.REDIRECTS
