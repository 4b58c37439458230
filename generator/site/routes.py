"""The site's pages: their routes (Starlette paths), their renderers, and what build.py pre-renders.

Addresses are those of `generator.site.urls` (docs/site.md).  Path parts arrive as
strings; a renderer refuses what does not name a page with `PageNotFound` (404).
Pre-rendered: the index (four languages), every city in its four languages with the
default method, with its one-month pages around this month and its Ramadan imsakiya under
its own reckoning, and the crescent pages (four languages) of every Hijri month overlapping
the build's years.  Other methods' pages are rendered on request (16 × 4 × 348 pages would be
20,800 files for little use) and cached by the runtime like any answer.
"""
from __future__ import annotations

import functools
import re
from datetime import date
from urllib.parse import quote, urlencode

from generator.calendars import hijri
from generator.errors import QueryError
from generator.prayer import mosques
from generator.words import error_words
from generator.words import page_words as words
from generator.site import builder, head, imsakiya, index, moon_page, mosque_page, responses, screen, sitemap, timetable
from generator.site.page import Page, PageNotFound, QueryPage
from generator.site.templating import render_page

_NUMBER = re.compile(r"[0-9]{1,4}", re.ASCII)


def index_page(today: date) -> bytes:
    return index.render(today)


def home_page(today: date, lang: str) -> bytes:
    return index.render_home(today, lang)


def city_page(today: date, city: str, lang: str = words.DEFAULT_LANGUAGE, method: str | None = None,
              now_s: float | None = None) -> bytes:
    return timetable.render(today, city, lang, method, now_s=now_s)


def city_month(today: date, city: str, lang: str, method: str, month: str, now_s: float | None = None) -> bytes:
    return timetable.render_month(today, city, lang, method, month, now_s=now_s)


def imsakiya_page(today: date, city: str, lang: str, calendar: str | None = None, method: str | None = None,
                  now_s: float | None = None) -> bytes:
    return imsakiya.render(today, city, lang, calendar, method, now_s=now_s)


def builder_page(today: date, lang: str | None = None) -> bytes:
    if lang == words.DEFAULT_LANGUAGE:  # English is /mosque/new/ itself
        raise PageNotFound("the builder in English is /mosque/new/")
    return builder.render(today, lang or words.DEFAULT_LANGUAGE)


def mosque(today: date, mosque: str, lang: str = words.DEFAULT_LANGUAGE, now_s: float | None = None) -> bytes:
    return mosque_page.render(today, mosque, lang, now_s=now_s)


def moon_hijri_days(hy: str, hm: str, lang: str | None = None) -> tuple[str, int, int] | None:
    """A crescent page states its month's start under moonsighting (the maps' reckoning)."""
    if not (_NUMBER.fullmatch(hy) and _NUMBER.fullmatch(hm)):
        return None
    try:
        start = int(hijri.month_start(int(hy), int(hm), hijri.DEFAULT_CALENDAR))
    except ValueError:  # outside the month table: no such page
        return None
    return hijri.DEFAULT_CALENDAR, start, start


def mosque_month(today: date, mosque: str, lang: str, month: str, now_s: float | None = None) -> bytes:
    return mosque_page.render(today, mosque, lang, now_s=now_s, month=month)


def mosque_imsakiya(today: date, mosque: str, lang: str, hy: str | None = None, now_s: float | None = None) -> bytes:
    if hy is not None and not _NUMBER.fullmatch(hy):
        raise PageNotFound(f"no Ramadan of year {hy[:10]!r}")
    return imsakiya.render_mosque(today, mosque, lang, None if hy is None else int(hy), now_s=now_s)


def moon(today: date, hy: str, hm: str, lang: str = words.DEFAULT_LANGUAGE) -> bytes:
    if not (_NUMBER.fullmatch(hy) and _NUMBER.fullmatch(hm)):
        raise PageNotFound(f"no crescent page for {hy[:10]}-{hm[:10]}")
    return moon_page.render(today, int(hy), int(hm), lang)


def sitemap_page(today: date, part: str | None = None) -> bytes:
    if part is not None and not _NUMBER.fullmatch(part):
        raise PageNotFound(f"no sitemap file {part[:10]!r}")
    return sitemap.render(listed_paths(today), None if part is None else int(part))


def robots_page(today: date) -> bytes:
    return sitemap.robots()


PAGES: list[Page] = [
    Page("/", index_page),  # links this Hijri month's crescent page
    *(Page(f"/{lang}/", functools.partial(home_page, lang=lang)) for lang in words.LANGUAGES
      if lang != words.DEFAULT_LANGUAGE),
    # "today" on city pages is the city's date: rendered on request they take the clock (now_s)
    Page("/city/{city}/", city_page, clock_dependent=True),  # this month and the next
    Page("/city/{city}/{lang}/", city_page, clock_dependent=True),
    # before /city/{city}/{lang}/{method}/ and its months: "imsakiya" is not a method
    Page("/city/{city}/{lang}/imsakiya/", imsakiya_page, clock_dependent=True),
    Page("/city/{city}/{lang}/imsakiya/{calendar}/", imsakiya_page, clock_dependent=True),
    Page("/city/{city}/{lang}/imsakiya/{calendar}/{method}/", imsakiya_page, clock_dependent=True),
    Page("/city/{city}/{lang}/{method}/", city_page, clock_dependent=True),
    Page("/city/{city}/{lang}/{method}/{month}/", city_month, clock_dependent=True),
    # the mosque builder (issue 27) before the mosques' pages: "new" is never a mosque's id (mosques.RESERVED_IDS)
    Page(builder.PATH, builder_page, today_dependent=False),
    Page(builder.PATH + "{lang}/", builder_page, today_dependent=False),
    Page("/mosque/{mosque}/", mosque, clock_dependent=True),  # the mosque's date, as a city's
    Page("/mosque/{mosque}/{lang}/", mosque, clock_dependent=True),
    # the notice board (issue 36): the mosque's Ramadan timetable ("imsakiya" is no month) and any month of its page
    Page("/mosque/{mosque}/{lang}/imsakiya/", mosque_imsakiya, clock_dependent=True),
    Page("/mosque/{mosque}/{lang}/imsakiya/{hy}/", mosque_imsakiya, clock_dependent=True),
    Page("/mosque/{mosque}/{lang}/{month}/", mosque_month, clock_dependent=True),
    Page("/moon/{hy}-{hm}/", moon, today_dependent=False, hijri_days=moon_hijri_days),
    Page("/moon/{hy}-{hm}/{lang}/", moon, today_dependent=False, hijri_days=moon_hijri_days),
    # follows today: its month pages move with the month, its crescent pages with the year
    Page(sitemap.SITEMAP, sitemap_page, media_type="application/xml", listed=False),
    Page(sitemap.PART, sitemap_page, media_type="application/xml", listed=False),  # only past 50,000 pages
    Page(sitemap.ROBOTS, robots_page, media_type="text/plain", today_dependent=False, listed=False),
    # the widget's one-line embed and the screen's service worker (scripts, not pages; docs/site.md)
    Page(screen.WIDGET_SCRIPT, screen.widget_script, media_type="text/javascript", today_dependent=False, listed=False),
    Page(screen.SERVICE_WORKER, screen.service_worker, media_type="text/javascript", today_dependent=False,
         listed=False, headers=screen.SERVICE_WORKER_HEADERS),
]
# The mosque screen and the website widget: their query is /v1/prayer-times' (generator/site/screen.py).
QUERY_PAGES: list[QueryPage] = [
    QueryPage(f"/{kind}/", functools.partial(screen.parse, kind), screen.render,
              {"Content-Security-Policy": screen.content_security_policy(kind), "Referrer-Policy": "no-referrer"})
    for kind in ("screen", "widget")
] + [QueryPage(builder.QR_PATH, builder.qr_parse, builder.qr_render,
               {"Content-Security-Policy": "default-src 'none'", "X-Content-Type-Options": "nosniff"},
               media_type="image/svg+xml", cost_params=lambda text: {}, reads_host=True)]  # one kind of render
BY_ROUTE = {page.route: page for page in PAGES}
# A mosque's screen is the screen's query page (in the scope of its service worker): its short address redirects.


def mosque_screen(query: list[tuple[str, str]], mosque: str) -> str | None:
    """Where ``/mosque/<id>/screen/`` leads: the mosque's screen (`mosque_page.screen_location`), or, when the address
    gives the screen's own options (``?lang=ur``, ``lang2``, ``notice``…: issue 36, the trial's Urdu address led to
    English), the same screen with them, re-encoded (the screen checks them: a bad value is its 400, naming it)."""
    location = mosque_page.screen_location(mosque)
    own = {p.name for p in screen.SCREEN_PARAMETERS} | {screen.NOTE_NAME}
    given = [(name, value) for name, value in query if name in own]
    if location is None or not given:
        return location
    lang = next((value for name, value in given if name == "lang"), mosques.find(mosque).languages[0])
    items = [(screen.MOSQUE_NAME, mosques.find(mosque).id), ("lang", lang), *((n, v) for n, v in given if n != "lang")]
    return "/screen/?" + urlencode(items, quote_via=quote, safe="")


REDIRECTS = {mosques.SCREEN_PATH.replace("{id}", "{mosque}"): mosque_screen}


def default_years(today: date) -> tuple[int, int]:
    """Return the Gregorian years a full build pre-renders (build.py's default): this year ±1."""
    return today.year - 1, today.year + 1


def listed_paths(today: date) -> list[str]:
    """Return the address of every page /sitemap.xml lists: the HTML pages a full build pre-renders
    for ``today`` (every city, this year ±1) whose kind is `Page.listed`, in plan order."""
    return [route.format(**parameters) for route, parameters in html_pages(*default_years(today), today)
            if BY_ROUTE[route].listed]


def static_pages(first_year: int, last_year: int, today: date,
                 cities: tuple[str, ...] | None = None) -> list[tuple[str, dict]]:
    """Return the (route, path parameters) of every page to pre-render for the years (inclusive);
    the city pages of ``cities`` only, when given (catalogue ids).  robots.txt and the sitemap
    (with its numbered files when it needs an index) are always whole: the same bytes as the app's."""
    files = sitemap.part_count(listed_paths(today))
    return (html_pages(first_year, last_year, today, cities) + [(sitemap.ROBOTS, {}), (sitemap.SITEMAP, {})]
            + [(sitemap.PART, {"part": str(n)}) for n in range(1, files + 1) if files > 1])


def html_pages(first_year: int, last_year: int, today: date,
               cities: tuple[str, ...] | None = None) -> list[tuple[str, dict]]:
    """Return the (route, path parameters) of the HTML pages to pre-render (see `static_pages`)."""
    out: list[tuple[str, dict]] = [("/", {})] + [(f"/{lang}/", {}) for lang in words.LANGUAGES
                                                 if lang != words.DEFAULT_LANGUAGE]
    out += [(screen.WIDGET_SCRIPT, {}), (screen.SERVICE_WORKER, {})]
    out += [(builder.PATH, {})] + [(builder.PATH + "{lang}/", {"lang": lang}) for lang in words.LANGUAGES
                                   if lang != words.DEFAULT_LANGUAGE]
    catalogue = responses.api_json("cities", {"all": "1"}, today)["cities"]
    methods = responses.api_json("methods", {}, today)["methods"]
    for city in sorted(catalogue, key=lambda c: c["id"]):
        city_id = city["id"]
        if cities is not None and city_id not in cities:
            continue
        method = timetable.city_default_method(methods, city_id)
        out.append(("/city/{city}/", {"city": city_id}))
        out += [("/city/{city}/{lang}/", {"city": city_id, "lang": lang}) for lang in words.LANGUAGES
                if lang != words.DEFAULT_LANGUAGE]
        months = timetable.month_window(timetable.city_date(city, responses.now_s(today)))
        for lang in words.LANGUAGES:
            out.append(("/city/{city}/{lang}/imsakiya/", {"city": city_id, "lang": lang}))
            out += [("/city/{city}/{lang}/{method}/{month}/",
                     {"city": city_id, "lang": lang, "method": method, "month": f"{year:04d}-{month:02d}"})
                    for year, month in months]
    for mosque_id in mosque_page.listed_mosques(today):
        out.append(("/mosque/{mosque}/", {"mosque": mosque_id}))
        out += [("/mosque/{mosque}/{lang}/", {"mosque": mosque_id, "lang": lang}) for lang in words.LANGUAGES
                if lang != words.DEFAULT_LANGUAGE]
    for hy, hm in hijri_months(first_year, last_year, today):
        out.append(("/moon/{hy}-{hm}/", {"hy": str(hy), "hm": str(hm)}))
        out += [("/moon/{hy}-{hm}/{lang}/", {"hy": str(hy), "hm": str(hm), "lang": lang}) for lang in words.LANGUAGES
                if lang != words.DEFAULT_LANGUAGE]
    return out


def hijri_months(first_year: int, last_year: int, today: date) -> list[tuple[int, int]]:
    """Return the Hijri (year, month) pairs overlapping the Gregorian years, under the default reckoning."""
    months: list[tuple[int, int]] = []
    for year in range(first_year, last_year + 1):
        for month in responses.api_json("hijri", {"year": year}, today)["months"]:
            if (month["year"], month["month"]) not in months and moon_page.FIRST_HY <= month["year"] <= moon_page.LAST_HY:
                months.append((month["year"], month["month"]))
    return months


_ERROR_WORDS = {400: ("bad_request", "bad_request_text"), 404: ("not_found", "not_found_text"),
                429: ("too_many", "too_many_text"), 500: ("server_error", "server_error_text"), 503: ("busy", "busy_text")}


def language_of_path(path: str) -> str | None:
    """The language a page's path names (``/ar/…``, ``/city/najaf/fa/``, ``/mosque/new/ur/``), if any; an
    API path (``/v1/…``) names none: its errors are JSON."""
    if path.startswith("/v1/"):
        return None
    return next((part for part in path.split("/")[:6] if part in words.LANGUAGES), None)


def error_page(path: str, status: int = 404, lang: str | None = None,
               detail: "str | QueryError | None" = None) -> bytes:
    """Return the HTML of the 400, 404, 429 or 503 page, in ``lang`` or the language the path names (else
    English).  ``detail`` is the 400's error: a `QueryError` is said in the page's language (its code's
    glossary row, generator/words/error_words.py), with its English sentence after it only when its code
    has no words of its own; a plain string (an error without a code) is shown as it is, in English."""
    lang = lang or language_of_path(path) or words.DEFAULT_LANGUAGE
    title, text = _ERROR_WORDS[status]
    w = {**words.WORDS[lang], "not_found": words.WORDS[lang][title], "not_found_text": words.WORDS[lang][text]}
    reason = english = None
    if isinstance(detail, QueryError):
        reason = error_words.sentence(detail, lang)
        english = None if lang == "en" or error_words.has_words(detail) else str(detail)[:300]
    elif detail is not None:
        english = detail[:300]
    return render_page("not_found.html.j2", lang=lang, dir=words.direction(lang), w=w,
                       **head.error_head(lang, w["not_found"], w["not_found_text"]), path=path[:200],
                       reason=reason, detail=english)


def not_found_page(path: str) -> bytes:
    """Return the HTML of the 404 page for a request path."""
    return error_page(path, 404)
