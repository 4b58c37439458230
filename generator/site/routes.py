"""The site's pages: their routes (Starlette paths), their renderers, and what build.py pre-renders.

Addresses are those of `generator.site.urls` (docs/site.md).  Path parts arrive as
strings; a renderer refuses what does not name a page with `PageNotFound` (404).
Pre-rendered: the index, every city in its four languages with the default method,
and the crescent pages (four languages) of every Hijri month overlapping the build's
years.  Other methods' pages are rendered on request (16 × 4 × 325 pages would be
20,800 files for little use) and cached by the runtime like any answer.
"""
from __future__ import annotations

import re
from datetime import date

from generator import page_words as words
from generator.site import index, moon_page, responses, timetable
from generator.site.page import Page, PageNotFound
from generator.site.templating import render_page

_NUMBER = re.compile(r"[0-9]{1,4}", re.ASCII)


def index_page(today: date) -> bytes:
    return index.render(today)


def city_page(today: date, city: str, lang: str = words.DEFAULT_LANGUAGE, method: str | None = None) -> bytes:
    return timetable.render(today, city, lang, method)


def moon(today: date, hy: str, hm: str, lang: str = words.DEFAULT_LANGUAGE) -> bytes:
    if not (_NUMBER.fullmatch(hy) and _NUMBER.fullmatch(hm)):
        raise PageNotFound(f"no crescent page for {hy[:10]}-{hm[:10]}")
    return moon_page.render(today, int(hy), int(hm), lang)


PAGES: list[Page] = [
    Page("/", index_page),  # links this Hijri month's crescent page
    Page("/city/{city}/", city_page),  # this month and the next
    Page("/city/{city}/{lang}/", city_page),
    Page("/city/{city}/{lang}/{method}/", city_page),
    Page("/moon/{hy}-{hm}/", moon, today_dependent=False),
    Page("/moon/{hy}-{hm}/{lang}/", moon, today_dependent=False),
]


def static_pages(first_year: int, last_year: int, today: date) -> list[tuple[str, dict]]:
    """Return the (route, path parameters) of every page to pre-render for the years (inclusive)."""
    out: list[tuple[str, dict]] = [("/", {})]
    for city in sorted(c["id"] for c in responses.api_json("cities", {"all": "1"}, today)["cities"]):
        out.append(("/city/{city}/", {"city": city}))
        out += [("/city/{city}/{lang}/", {"city": city, "lang": lang}) for lang in words.LANGUAGES
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


_ERROR_WORDS = {404: ("not_found", "not_found_text"), 429: ("too_many", "too_many_text"),
                503: ("busy", "busy_text")}


def error_page(path: str, status: int = 404, lang: str | None = None) -> bytes:
    """Return the HTML of the 404, 429 or 503 page, in ``lang`` or the language the path names (else English)."""
    lang = lang or next((part for part in path.split("/") if part in words.LANGUAGES), words.DEFAULT_LANGUAGE)
    title, text = _ERROR_WORDS[status]
    w = {**words.WORDS[lang], "not_found": words.WORDS[lang][title], "not_found_text": words.WORDS[lang][text]}
    return render_page("not_found.html.j2", lang=lang, dir=words.direction(lang), w=w, title=w["not_found"],
                       canonical=None, alternates=[], languages=[], path=path[:200])


def not_found_page(path: str) -> bytes:
    """Return the HTML of the 404 page for a request path."""
    return error_page(path, 404)
