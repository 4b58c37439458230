"""What a page is: a route with a render function, and the error for a page that does not exist."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Callable, Hashable, Iterable, Mapping

from generator.errors import QueryError


class PageNotFound(LookupError):
    """The page named by the path does not exist."""


class BadPageQuery(ValueError):
    """A page's query that cannot be shown (the screen, the widget): answered 400 with the error page in ``lang``."""

    def __init__(self, lang: str, message: str, error: QueryError | None = None):
        super().__init__(message)
        self.lang = lang
        self.error = error  # the parameter's error, said in ``lang`` by the 400 page (generator/words/error_words.py)


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
    # an HTML page of this route that build.py pre-renders is listed in /sitemap.xml (issue 21);
    # False for pages that are not for search results (a mosque's wall screen, an embedded widget)
    listed: bool = True
    headers: tuple[tuple[str, str], ...] = ()  # (name, value) sent with every answer of the route
    # (reckoning, first, last unix day) of the Hijri dates a page fixed by its path states, from its path
    # parameters, or None: a page stating a month no announcement has fixed is reused only hours (issue 35)
    hijri_days: Callable[..., tuple[str, int, int] | None] | None = None


@dataclass(frozen=True)
class QueryPage:
    """A page shown from its query string (the screen, the widget): rendered on request, never a file.

    ``parse(query items, now_s)`` returns the canonical query (hashable: the cache key) or raises
    `BadPageQuery`; ``render(canonical query, today)`` returns the bytes; ``headers`` go with every answer.
    """

    route: str
    parse: Callable[[Iterable[tuple[str, str]], float], Hashable]
    render: Callable[[Any, date], bytes]
    headers: Mapping[str, str]
    media_type: str = "text/html"
    # what the render limiter weighs a render by (runtime/ratelimit.py): the screen's and widget's year of times
    cost_params: Callable[[Any], Mapping[str, Any]] = lambda query: dict(query.prayer)
    # ``parse`` also takes ``host=``: the request's Host (what the reader's address bar shows; the QR code draws
    # only this service's own origins: PUBLIC_ORIGIN's and the one it is read on)
    reads_host: bool = False


def file_path(route: str, parameters: dict) -> str:
    """Return the static file path (relative to static_out/) of a page."""
    path = route.format(**parameters).lstrip("/")
    return path + "index.html" if path.endswith("/") or not path else path
