"""What an endpoint is, and `render()`: the single function that produces every response body.

An endpoint declares its query parameters once (`generator.api.params`), and has three
functions.  ``canonical`` applies the rules that involve several parameters and turns the
checked values into *canonical parameters*: defaults filled (including "today"), numbers
rounded, lists sorted.  ``build`` turns canonical parameters into the response.  ``plan``
lists the queries to pre-render for a window of years.  The runtime calls `Endpoint.parse`
then `render()`; ``build.py`` walks every endpoint's plan through the same two calls, so a
pre-rendered file and a dynamic answer cannot differ.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from typing import Any, Callable, Iterable, Mapping

import orjson

from generator.calendars import hijri
from generator.places import cities, days
from generator.api import params as P
from generator.query import Query

Params = Mapping[str, Any]


@dataclass(frozen=True)
class Canonical:
    """Canonical parameters of one request, sorted by name.

    ``today_dependent`` is True when a default of "today" was filled in, so the answer
    changes from day to day and may be cached only briefly.
    """

    params: dict[str, Any]
    today_dependent: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", dict(sorted(self.params.items())))


@dataclass(frozen=True)
class Window:
    """What build.py pre-renders: Gregorian years ``first_year``..``last_year`` and "today".

    ``cities`` narrows the per-city answers to those catalogue ids (a partial build, for tests
    and previews); None is every city of the catalogue.
    """

    first_year: int
    last_year: int
    today: date
    cities: tuple[str, ...] | None = None

    @property
    def years(self) -> range:
        return range(self.first_year, self.last_year + 1)

    @cached_property
    def hijri_years(self) -> range:
        """Hijri years overlapping the Gregorian years (inclusive), under the default reckoning."""
        first = int(hijri.to_hijri(days.unix_day(date(self.first_year, 1, 1))).year)
        last = int(hijri.to_hijri(days.unix_day(date(self.last_year, 12, 31))).year)
        return range(first, last + 1)

    @property
    def dates(self) -> list[str]:
        first, last = date(self.first_year, 1, 1).toordinal(), date(self.last_year, 12, 31).toordinal()
        return [date.fromordinal(d).isoformat() for d in range(first, last + 1)]

    @cached_property
    def city_ids(self) -> list[str]:
        return sorted(cities.by_id() if self.cities is None else self.cities)


Plan = Callable[[Window], Iterable[dict]]


def _nothing(window: Window) -> Iterable[dict]:
    return ()


@dataclass(frozen=True)
class Endpoint:
    """One GET endpoint under /v1."""

    name: str
    summary: str
    parameters: tuple[P.Param, ...]
    canonical: Callable[[P.Values, float], Canonical]  # (checked values, now as Unix seconds)
    build: Callable[[Params], Any]  # JSON-ready object, or bytes for other media types
    response: Mapping[str, Any]  # the OpenAPI "200" response object (hand-written schema)
    media_type: str = "application/json"
    plan: Plan = _nothing  # queries to pre-render for a window (build.py)
    refused: Mapping[str, str] = field(default_factory=dict)  # names refused with a reason of their own
    # True when every query the parameters allow renders in a few milliseconds at most (the slowest,
    # a polar year of prayer times, takes about 5 ms; `make bench` prints it): the runtime may then
    # render on its event loop while no other render runs, sparing the two thread hand-overs (about
    # 0.2 ms) that cost more than a day's times.
    quick: bool = False
    # The Hijri dates an answer states, as (reckoning, first day, last day) of the Gregorian days (unix days)
    # they fall on, or None; an answer stating a month no announcement has fixed is a forecast, reused only
    # hours (`forecast_max_age_s`, issue 35).  None for an endpoint that states no Hijri date.
    hijri_days: Callable[[Params], tuple[str, int, int] | None] | None = None

    def forecast_max_age_s(self, params: Params, now_unix_s: float) -> int | None:
        """Seconds the answer for canonical ``params`` may be reused when it states a forecast, else None."""
        found = self.hijri_days(params) if self.hijri_days is not None else None
        if found is None or not hijri.forecast_within(found[1], found[2], found[0]):
            return None
        return hijri.forecast_max_age_s(now_unix_s, found[0])

    def parse(self, query: Query, now_unix_s: float) -> Canonical:
        """Check a request's query and return its canonical parameters (a QueryError names the parameter)."""
        result = self.canonical(P.read(query, self.parameters, self.refused), now_unix_s)
        return Canonical(P.drop_defaults(result.params, self.parameters), result.today_dependent)

    def render(self, params: Params) -> bytes:
        """Return the response body for canonical ``params``."""
        body = self.build(params)
        return body if isinstance(body, bytes) else dumps(body)


_JSON_OPTIONS = orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z


def dumps(obj: Any) -> bytes:
    """Serialise a response object: UTF-8 JSON, keys in insertion order.

    Naive datetimes are UTC and written ``2026-03-20T02:41:00Z``; orjson refuses NaN
    by writing null, so builders must turn missing values into explained nulls first.
    """
    return orjson.dumps(obj, option=_JSON_OPTIONS)
