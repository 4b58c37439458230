"""The human-facing site: pages rendered from the same data and render() as the API.

The runtime and build.py only see this interface:

* `pages()`: every page route, each a `Page` (a Starlette path with ``{name}`` parts and
  a function rendering the page's bytes from those parts and ``today``);
* `static_pages(first_year, last_year, today)`: every page build.py pre-renders, as
  (route, path parameters) pairs; the file goes to ``static_out/<route with the
  parameters filled in>``, with ``index.html`` appended to paths ending in ``/``.
* `not_found_page(path)`: the HTML of the 404 page.

A page that does not exist (an unknown city id, a Hijri month out of range) raises
`PageNotFound`; the runtime answers 404.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Callable


class PageNotFound(LookupError):
    """The page named by the path does not exist."""


@dataclass(frozen=True)
class Page:
    """One page route: ``render(today=date, **path_parameters) -> bytes``."""

    route: str
    render: Callable[..., bytes]
    media_type: str = "text/html"
    today_dependent: bool = True  # pages showing "this month" change with the date
    # pages whose "today" is a city's own date: rendered on request, ``render`` also takes ``now_s``
    # (the request's Unix time), and an answer is cached per quarter hour (zones are whole quarters)
    clock_dependent: bool = False


def pages() -> list[Page]:
    """Return every page route of the site."""
    from generator.site import routes

    return routes.PAGES


def static_pages(first_year: int, last_year: int, today: date) -> list[tuple[str, dict]]:
    """Return the (route, path parameters) of every page to pre-render."""
    from generator.site import routes

    return routes.static_pages(first_year, last_year, today)


def not_found_page(path: str) -> bytes:
    """Return the HTML of the site's 404 page for a request path."""
    from generator.site import routes

    return routes.not_found_page(path)


def file_path(route: str, parameters: dict) -> str:
    """Return the static file path (relative to static_out/) of a page."""
    path = route.format(**parameters).lstrip("/")
    return path + "index.html" if path.endswith("/") or not path else path
