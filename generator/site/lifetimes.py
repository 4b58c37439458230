"""How long an answer or a pre-rendered file may be reused, and which files state a Hijri forecast (issue 35).

An answer about days whose Hijri month no announcement has fixed yet (`source: computed`) states a forecast:
it may be reused only until the next possible announcement (`hijri.forecast_max_age_s`: hours, at most 6),
every other dated answer a week (`CACHE_STABLE`), a page fixed by its path a day (`CACHE_PAGE`).

The app asks `dated_cache_control` and `page_cache_control` for what it answers.  For a file of the
published tree it is `states_forecast`: deploy/publish.py writes an empty marker ``<file>.forecast``
(`FORECAST_MARKER`) beside every file that states one, and deploy/nginx.conf sends such a file with
`FORECAST_FILE_CACHE` (an hour) instead of its location's week or day, without asking the app
(docs/decisions.md "A forecast's lifetime on static files").  Whether a file states a forecast depends
only on its name and the Hijri data (the announcements), never on the hour, so a marker stays true until
the next announcement, after which announce.py re-renders and build.py publishes again.

Here, not in runtime/: deploy/publish.py imports it without the app (it runs where no app does).
"""
from __future__ import annotations

import functools
import re
import time
from typing import Mapping

from generator import site
from generator.api import BY_NAME
from generator.api.endpoint import Endpoint
from generator.calendars import hijri
from generator.errors import QueryError
from generator.output import static_paths
from generator.output.static_paths import CACHE_PAGE, CACHE_STABLE
from generator.query import Query

FORECAST_MARKER = ".forecast"  # the empty sibling of a published file that states a forecast (deploy/publish.py)
# What nginx sends with a marked file: one fixed hour, never longer than the app's own for a forecast
# (`hijri.FORECAST_MAX_AGE_S`, 6 h) and, after 12:00 UTC of a month's 29th, shorter (docs/decisions.md).
FORECAST_FILE_MAX_AGE_S = 3600
FORECAST_FILE_CACHE = static_paths.cache_for(FORECAST_FILE_MAX_AGE_S)


def dated_cache_control(endpoint: Endpoint, params: Mapping[str, str], now_s: float) -> str:
    """A dated answer's Cache-Control: a week, or while it states a Hijri forecast only until the next possible
    announcement (hours: `Endpoint.forecast_max_age_s`)."""
    max_age_s = endpoint.forecast_max_age_s(params, now_s)
    return CACHE_STABLE if max_age_s is None else static_paths.cache_for(max_age_s)


def _page_forecast(page: site.Page, params: Mapping[str, str]) -> str | None:
    """The reckoning whose forecast ``page`` states for its path ``params``, None when it states none."""
    found = page.hijri_days(**params) if page.hijri_days is not None else None
    return found[0] if found is not None and hijri.forecast_within(found[1], found[2], found[0]) else None


def page_cache_control(page: site.Page, params: Mapping[str, str], now_s: float) -> str:
    """A page fixed by its path: a day, or while it states a Hijri forecast only until the next possible
    announcement (`hijri.forecast_max_age_s`)."""
    calendar = _page_forecast(page, params)
    return CACHE_PAGE if calendar is None else static_paths.cache_for(hijri.forecast_max_age_s(now_s, calendar))


@functools.cache
def _page_patterns() -> tuple[tuple[site.Page, re.Pattern], ...]:
    """Each page fixed by its path that may state a Hijri date, with the pattern of its file's relative path."""
    patterns = []
    for page in site.pages():
        if page.today_dependent or page.hijri_days is None:
            continue
        pattern = re.escape(site.file_path(page.route, {})) if "{" not in page.route else "".join(
            f"(?P<{part[1:-1]}>[A-Za-z0-9_-]{{1,64}})" if part.startswith("{") else re.escape(part)
            for part in re.split(r"(\{[a-z]+\})", page.route.lstrip("/") + "index.html"))
        patterns.append((page, re.compile(pattern, re.ASCII)))
    return tuple(patterns)


def _page_of_file(relative: str) -> tuple[site.Page, dict] | None:
    """The page fixed by its path whose pre-rendered file is ``relative``, with its path parameters."""
    for page, pattern in _page_patterns():
        found = pattern.fullmatch(relative)
        if found:
            return page, found.groupdict()
    return None


def _answer_of_file(relative: str, now_s: float) -> tuple[Endpoint, dict] | None:
    """The dated answer whose file is ``relative`` (``v1/<base>/<query>.<ext>``) and its canonical parameters,
    when its endpoint may state a Hijri date; None for any other file (or a name build.py never writes)."""
    folder, _, file_name = relative.removeprefix("v1/").rpartition("/")
    stem, _, extension = file_name.rpartition(".")
    name = static_paths.endpoint_of_file(folder or stem, extension, BY_NAME)
    if name is None or not folder or BY_NAME[name].hijri_days is None:
        return None
    items = static_paths.query_items(stem)
    if items is None:
        return None
    try:
        return BY_NAME[name], BY_NAME[name].parse(Query(items), now_s).params
    except QueryError:  # not a file name build.py writes
        return None


def states_forecast(relative: str, now_s: float | None = None) -> bool:
    """Whether the pre-rendered file at ``relative`` (a path of the published tree) states a Hijri forecast under
    the Hijri data loaded now: the files deploy/publish.py marks.  ``now_s`` only reads the file name back into
    canonical parameters (a dated file's are the same any day); answers that follow today (``_today/``) and
    files of no answer state none here."""
    now_s = time.time() if now_s is None else now_s
    if relative.startswith("v1/"):
        answer = _answer_of_file(relative, now_s)
        found = answer[0].hijri_days(answer[1]) if answer is not None else None
        return found is not None and hijri.forecast_within(found[1], found[2], found[0])
    found = _page_of_file(relative)
    return found is not None and _page_forecast(found[0], found[1]) is not None
