"""The index page: what the service is, the city picker, the maps, the feeds, and every endpoint.

The endpoint list is the OpenAPI document the app serves (/v1/openapi.json, asked in
process), so the page cannot drift from the API: each path with its summary, its
parameters (type, range or values, required, description) and a working example.
Examples are fixed queries (fixed dates, so the links keep their answers); a path
without one here gets its required parameters' examples, and a test asks every
example link and expects 200.
"""
from __future__ import annotations

import re
import urllib.parse
from datetime import date

from markupsafe import Markup, escape

from generator.words import collation, hijri_names
from generator.words import page_words as words
from generator.site import head, responses, urls
from generator.site.page import PageNotFound
from generator.site.templating import render_localised_page, render_page

_CODE = re.compile(r"`([^`]*)`")

EXAMPLES = {  # path -> query of its example link
    "/prayer-times": {"city": "karbala", "year": "2026", "month": "3", "method": "Jafari"},
    "/prayer-times.csv": {"city": "karbala", "year": "2026", "month": "3", "method": "Jafari"},
    "/methods": {},
    "/qibla": {"lat": "51.51", "lng": "-0.13"},
    "/cities": {"q": "کربلا"},
    "/hijri": {"date": "2026-03-20", "calendar": "iran"},
    "/moon-visibility": {"hy": "1447", "hm": "10", "city": "najaf"},
    "/moon-visibility.svg": {"hy": "1447", "hm": "10", "evening": "0"},
    "/events": {"hy": "1447", "importance": "major"},
    "/eclipses": {"from": "2026", "to": "2027"},
    "/day-status": {"date": "2026-03-20", "calendar": "iran"},
    "/openapi.json": {},
    "/events.ics": {"lang": "en"},
    "/prayer-times.ics": {"city": "karbala"},
    "/fasting.ics": {"calendar": "iran"},
    "/night.ics": {"city": "karbala"},
}
FEEDS = (  # (path, query, what it is)
    ("/events.ics", {}, "Islamic events (all-day), about 14 months around today"),
    ("/fasting.ics", {}, "Recommended fasting days: Ayyam al-Bid and the emphasised fasts"),
    ("/prayer-times.ics", {"city": "karbala"}, "The five daily prayers for a city (set city=, method=, lang=, offsets=)"),
    ("/night.ics", {"city": "karbala"}, "The start of the last third of each night for a city"),
)
EXAMPLE_CITIES = ("karbala", "najaf", "mashhad", "qom", "tehran", "london", "karachi", "beirut")


def render(today: date) -> bytes:
    """Return the HTML of the index page."""
    document = responses.api_json("openapi.json", {}, today)
    operations = [operation(path, item["get"]) for path, item in document["paths"].items()
                  if "get" in item and "security" not in item["get"]]  # what a reader can open: no edit secret
    catalogue = responses.api_json("cities", {"all": "1"}, today)["cities"]
    by_id = {c["id"]: c for c in catalogue}
    now = responses.api_json("hijri", {"date": today.isoformat()}, today)["hijri"]
    following = (now["year"], now["month"] + 1) if now["month"] < 12 else (now["year"] + 1, 1)
    w = words.WORDS["en"]
    return render_page(
        "index.html.j2",
        lang="en",
        dir="ltr",
        w=w,
        **head.page_head("en", document["info"]["title"], home_description(len(catalogue), "en"), home_url),
        info=document["info"],
        info_description=code_spans(document["info"].get("description", "")),
        version=document["info"]["version"],
        server=document["servers"][0]["url"],
        operations=operations,
        feeds=[{"path": path, "href": responses.api_url(path[1:], query), "what": what} for path, query, what in FEEDS],
        cities=sorted(({"id": c["id"], "name": c["names"]["en"], "href": urls.city_url(c["id"])} for c in catalogue),
                      key=lambda c: (c["name"].casefold(), c["id"])),
        example_cities=[{"name": by_id[c]["names"]["en"],
                         "links": [{"lang": lang, "name": words.LANGUAGE_NAMES[lang], "href": urls.city_url(c, lang)}
                                   for lang in words.LANGUAGES]}
                        for c in EXAMPLE_CITIES if c in by_id],
        moons=[{"name": f"{m['en']} {y}", "href": urls.moon_url(y, n), "hy": y, "hm": n}
               for y, n, m in ((now["year"], now["month"], hijri_names.month_names(now["month"])),
                               (*following, hijri_names.month_names(following[1])))],
        languages_list=[{"lang": lang, "name": words.LANGUAGE_NAMES[lang]} for lang in words.LANGUAGES],
    )


def home_url(lang: str) -> str:
    """Return the address of the home page in ``lang`` (English is the index, /)."""
    return "/" if lang == words.DEFAULT_LANGUAGE else f"/{lang}/"


def home_description(cities: int, lang: str) -> str:
    """Return the meta description of the index (en) and the home pages (ar, fa, ur)."""
    return words.WORDS[lang]["description.home"].format(count=words.digits(cities, lang))


def render_home(today: date, lang: str) -> bytes:
    """Return the home page in ar, fa or ur: find your city first, then the maps, then a pointer to the API."""
    if lang not in words.LANGUAGES or lang == words.DEFAULT_LANGUAGE:
        raise PageNotFound(f"no home page in {lang!r}")
    p = words.PAGE_WORDS[lang]
    catalogue = responses.api_json("cities", {"all": "1"}, today)["cities"]
    by_id = {c["id"]: c for c in catalogue}
    now = responses.api_json("hijri", {"date": today.isoformat()}, today)["hijri"]
    following = (now["year"], now["month"] + 1) if now["month"] < 12 else (now["year"] + 1, 1)
    return render_localised_page(
        "home.html.j2",
        lang,
        p=p,
        **head.page_head(lang, p["home_title"], home_description(len(catalogue), lang), home_url),
        intro=p["home_intro"].format(count=words.digits(len(catalogue), lang)),
        list_or_next=words.LIST_OR_NEXT[lang], list_or=words.LIST_OR[lang],  # the search label's languages
        all_cities=p["all_cities"].format(count=words.digits(len(catalogue), lang)),
        cities=sorted(({"name": c["names"][lang], "href": urls.city_url(c["id"], lang)} for c in catalogue),
                      key=lambda c: (collation.sort_key(c["name"], lang), c["href"])),  # the language's alphabet
        example_cities=[{"name": by_id[c]["names"][lang], "href": urls.city_url(c, lang)}
                        for c in EXAMPLE_CITIES if c in by_id],
        moons=[{"name": f"{hijri_names.MONTHS[lang][n - 1]} {words.digits(y, lang)}", "href": urls.moon_url(y, n, lang)}
               for y, n in ((now["year"], now["month"]), following)],
        feeds=[{"path": path, "href": responses.api_url(path[1:], query)} for path, query, _ in FEEDS],
    )


def code_spans(text: str) -> Markup:
    """Return OpenAPI prose with its `code` spans as <code> (escaped), not literal backticks."""
    parts = _CODE.split(text)
    return Markup("").join(Markup("<code>{}</code>").format(part) if i % 2 else escape(part)
                           for i, part in enumerate(parts))


def operation(path: str, get: dict) -> dict:
    """Return one endpoint for the template: path, summary, parameters and its example link."""
    parameters = [{"name": p["name"], "required": p.get("required", False),
                   "description": code_spans(p.get("description", "")),
                   "schema": schema_text(p.get("schema", {}))} for p in get.get("parameters", [])]
    query = EXAMPLES.get(path)
    if query is None:
        query = {p["name"]: str(p["example"]) for p in get.get("parameters", [])
                 if p.get("required") and "example" in p and p.get("in", "query") == "query"}
    filled = path  # a path parameter (/mosques/{id}) takes its example
    for p in get.get("parameters", []):
        if p.get("in") == "path":
            filled = filled.replace("{" + p["name"] + "}", str(p.get("example", p["name"])))
    example = responses.api_url(filled[1:], query)
    return {"path": path, "summary": code_spans(get.get("summary", "")), "parameters": parameters,
            "example": example, "example_text": urllib.parse.unquote(example)}


def schema_text(schema: dict) -> str:
    """Return a JSON schema as a short phrase: "integer 1..12", "one of: en, ar", "date"."""
    if "enum" in schema:
        return "one of: " + ", ".join(str(v) for v in schema["enum"])
    kind = schema.get("type", "")
    if schema.get("format") == "date":
        return "date YYYY-MM-DD"
    if "minimum" in schema or "maximum" in schema:
        return f"{kind} {schema.get('minimum', '')}..{schema.get('maximum', '')}"
    if "maxLength" in schema:
        return f"{kind}, at most {schema['maxLength']} characters"
    return str(kind)
