"""Errors in the reader's language (issue 33): the API's 400 carries a stable code, and the pages say it in ar, fa, ur.

References, independent of the code under test:
- the expected Arabic, Persian and Urdu sentences below are written out in full here (with the digits each
  language writes: Arabic-Indic ٠–٩ for ar, Extended Arabic-Indic ۰–۹ for fa and ur, as printed timetables do);
- "no English on an ar/fa/ur surface" is read from the served HTML: every run of Latin letters outside an isolate
  (LRI … PDI, <bdi>, lang="en"/dir="ltr" elements, URLs) must be a name or code of the allow-list;
- the codes the source raises are read from the source itself (the AST), so a code without words fails here.
"""
from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest

from generator.errors import QueryError
from generator.words import error_words

ROOT = Path(__file__).resolve().parents[1]
LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"  # the Unicode isolates (UAX #9)


def test_numbers_and_names_are_said_in_the_readers_digits_and_words():
    """A bound's numbers in each language's digits (a signed one isolated, so its sign stays before it), a prayer
    by its timetable column's name, and the English sentence exactly the API's."""
    lat = QueryError("lat", "must be a number from -90 to 90", "number_range", {"low": -90.0, "high": 90.0})
    assert error_words.sentence(lat, "en") == "lat: must be a number from -90 to 90"
    assert error_words.reason(lat, "ar") == f"يجب أن يكون عدداً من {LRI}-٩٠{PDI} إلى ٩٠"
    assert error_words.reason(lat, "fa") == f"باید عددی از {LRI}-۹۰{PDI} تا ۹۰ باشد"
    assert error_words.reason(lat, "ur") == f"{LRI}-۹۰{PDI} سے ۹۰ تک کا کوئی عدد ہونا چاہیے"
    tune = QueryError("tune", "minutes for fajr must be a whole number from -60 to 60", "minutes_range",
                      {"name": "fajr", "low": -60, "high": 60})
    assert error_words.english(tune) == tune.message
    assert error_words.reason(tune, "fa").startswith("دقیقه‌های صبح باید")  # the prayer's name in Persian
    assert error_words.reason(tune, "ar").startswith("دقائق الفجر يجب")


def _raised_codes() -> set[str]:
    """Every code passed to QueryError in the source (an f-string code of the screen/widget: both kinds)."""
    codes: set[str] = set()
    for path in [*ROOT.glob("generator/**/*.py"), *ROOT.glob("runtime/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "QueryError"):
                continue
            code = node.args[2] if len(node.args) > 2 else next((k.value for k in node.keywords if k.arg == "code"), None)
            if isinstance(code, ast.Constant):
                codes.add(code.value)
            elif isinstance(code, ast.JoinedStr):
                tail = "".join(part.value for part in code.values if isinstance(part, ast.Constant))
                codes.update({"screen" + tail, "widget" + tail})
    return codes


def test_every_code_the_source_raises_has_words_in_every_language():
    codes = _raised_codes()
    assert len(codes) >= 25, codes  # query.py, params.py, location, dates, cities, the screen's
    for lang in ("en", "ar", "fa", "ur"):
        missing = codes - set(error_words.TEMPLATES[lang])
        assert not missing, (lang, missing)


# Latin words a right-to-left page may show outside an isolate: the service's name for the API, codes of the
# address (parameter names and values a reader types), the zone database's name.
ALLOWED_LATIN = {"API", "IANA", "JSON", "ICS", "QR", "tz", "auto", "lat", "lng", "city", "date", "year", "month",
                 "elevation", "tune", "method", "lang", "note", "qr", "feed", "page"}


def _visible_latin(page: str, path: str) -> list[str]:
    """The runs of Latin letters a reader sees in ``page``'s body outside isolates, but for the address asked for
    (``path``); an English element is English to its reader too (the old 400 page's reason was one)."""
    body = page.split("<body", 1)[1]
    body = re.sub(r"<(script|style)\b.*?</\1>", "", body, flags=re.S)
    body = body.replace(f"<code>{html.escape(path)}</code>", "")  # the address asked for, as typed
    body = re.sub(r"<bdi\b.*?</bdi>", "", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    text = re.sub(f"[{LRI}{RLI}{FSI}][^{PDI}]*{PDI}", "", text)  # any isolate: a name keeps its own direction
    return [word for word in re.findall(r"[A-Za-z]{2,}", text) if word not in ALLOWED_LATIN]


BAD_PAGES = [  # (address, the parameter it names)
    ("/screen/?city=karbala&date=2026-03-11", "date"),
    ("/screen/?lat=32.6&lng=44.0", "tz"),
    ("/widget/?lat=95&lng=44&tz=Asia/Baghdad", "lat"),
    ("/widget/?city=karbala&tune=fajr:99", "tune"),
    ("/screen/?city=karbala&elevation=99999", "elevation"),
    ("/widget/?city=karbala&extra=1", "extra"),
]


@pytest.mark.parametrize("lang", ["ar", "fa", "ur"])
@pytest.mark.parametrize("address,parameter", BAD_PAGES)
def test_a_bad_address_is_explained_in_the_pages_language(client, address, parameter, lang):
    """The 400 page of the screen and the widget says why in the reader's language (the old page printed the
    API's English sentence: «غير مقبول: date: the screen always shows the place's today…», language review
    2026-11-28, ar F2)."""
    response = client.get(f"{address}&lang={lang}")
    assert response.status_code == 400 and response.headers["content-type"].startswith("text/html")
    page = response.text
    assert f'lang="{lang}"' in page and 'dir="rtl"' in page
    assert f"{LRI}{parameter}{PDI}: " in html.unescape(page), page[-1500:]
    assert not _visible_latin(page, address.split("?")[0]), _visible_latin(page, address.split("?")[0])


def test_an_unknown_address_under_a_language_is_that_languages_404_page(client):
    """/ar/nothing-here/ was English JSON ({"error": "no such path: …"}, ar F1); an API path stays JSON."""
    for lang in ("ar", "fa", "ur"):
        response = client.get(f"/{lang}/nothing-here/")
        assert response.status_code == 404 and response.headers["content-type"].startswith("text/html")
        assert f'lang="{lang}"' in response.text and not _visible_latin(response.text, f"/{lang}/nothing-here/")
    api = client.get("/v1/ar/nothing/")
    assert api.status_code == 404 and api.json() == {"error": "no such path: /v1/ar/nothing/"}


def test_the_api_error_carries_its_code_parameter_and_args(client):
    body = client.get("/v1/qibla?lat=91&lng=0").json()
    assert body == {"error": "lat: must be a number from -90 to 90", "code": "number_range", "parameter": "lat",
                    "args": {"low": -90, "high": 90}}
    body = client.get("/v1/prayer-times?city=karbal").json()
    assert body["code"] == "unknown_city_close" and "karbala" in body["args"]["close"], body


def test_a_fault_on_a_page_under_a_language_is_that_languages_500_page():
    """A 500 on /ar/…, /city/x/fa/… is the page of that language (never English JSON); an API path stays JSON."""
    import asyncio

    from starlette.requests import Request

    from runtime import app as runtime_app

    def fault(path: str):
        scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "headers": [], "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "scheme": "http"}
        return asyncio.run(runtime_app.server_error(Request(scope), RuntimeError("a defect")))

    page = fault("/city/karbala/ar/")
    text = page.body.decode()
    assert page.status_code == 500 and page.media_type.startswith("text/html")
    assert 'lang="ar"' in text and "تعذّر على الخادم إعداد هذه الصفحة" in text
    assert not _visible_latin(text, "/city/karbala/ar/")
    api = fault("/v1/qibla")
    assert api.status_code == 500 and api.body == b'{"error":"internal error"}'


# --- No English sentence on any ar/fa/ur surface (issue 33) ----------------------------------------------------------
# Every human surface in each right-to-left language, as served: the place of each language (its reckoning's own
# city), a mosque that combines prayers (Jumu'ah, Eid) on the screen and the widget, the example mosque's page, the
# builder, the moon page, the 400/404/429/500 pages (above and here), and the text a calendar shows of the feeds.
PLACE = {"ar": "karbala", "fa": "tehran", "ur": "lucknow"}
MOSQUE_RULES = "jamaat=fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib&jumuah=13:15,14:00&eid=07:30,09:00"


def _surfaces(lang: str) -> list[str]:
    city = PLACE[lang]
    return [f"/city/{city}/{lang}/", f"/city/{city}/{lang}/imsakiya/", f"/moon/1448-9/{lang}/",
            f"/mosque/jaffari-toronto/{lang}/", f"/mosque/new/{lang}/",
            f"/screen/?city={city}&lang={lang}&{MOSQUE_RULES}", f"/widget/?city={city}&lang={lang}&{MOSQUE_RULES}"]


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _surface_latin(page: str, path: str, lang: str) -> list[str]:
    """`_visible_latin` of a whole page, less what is English by design and said so: the language switcher (each
    language's own name, hreflang), the API's addresses and web addresses shown as themselves, and a source the
    profile gives in English where the page says so before it (page.mosque.source_in_english)."""
    from generator.words import glossary

    marker = html.escape(glossary.term("page.mosque.source_in_english")[lang])
    page = re.sub(r'<a\b[^>]*\bhreflang="[^"]*"[^>]*>[^<]*</a>', "", page)
    page = re.sub(r'<a\b[^>]*\bclass="api-link"[^>]*>[^<]*</a>', "", page)
    page = re.sub(r'<a\b[^>]*>\s*https?://[^<]*</a>', "", page)
    page = re.sub(f'{re.escape(marker)} <span lang="en" dir="ltr">.*?</span>', "", page, flags=re.S)
    # the builder's languages of a mosque's name, each in its own language (its option, label and name field)
    page = re.sub(r'<(option|label|bdi)\b[^>]*\blang="en"[^>]*>English</\1>', "", page)
    return [w for w in _visible_latin(page, path) if w not in {"SVG"}]  # the moon maps' format, a code


@pytest.mark.parametrize("lang", ["ar", "fa", "ur"])
def test_no_english_sentence_on_any_right_to_left_surface(client, lang):
    """The readers of 28 November found English behind localised leads on the builder, the 400/404/429 pages and
    unknown /ar/… addresses (ar D2, F1, F2; fa FA-11, FA-22, FA-28; ur UR-7, UR-31): every surface a reader of ar, fa
    or ur opens shows Latin words only inside an isolate (a name or code kept in its own direction) or from the
    allow-list of codes above; the 429 page (its words are the app's, served by the limiter) likewise."""
    from generator.site import routes

    for path in _surfaces(lang):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        latin = _surface_latin(response.text, path.split("?")[0], lang)
        assert not latin, (path, latin)
        # what the screen's and the widget's script write comes from the words in the page's config (screen.js)
        config = re.search(r'<script type="application/json" id="page-config">(.*?)</script>', response.text, re.S)
        if config is not None:
            words = json.loads(html.unescape(config.group(1)))["words"]
            periods = words.pop("eventPeriods", {})  # Urdu's part-of-day words; its "events" map prayers to their keys
            written = _strings(words) + _strings(periods.get("words", {}))
            latin = [w for text in written for w in re.findall(r"[A-Za-z]{2,}", re.sub(rf"{LRI}[^{PDI}]*{PDI}|\{{\w+\}}", "", text))
                     if w not in ALLOWED_LATIN]  # less the placeholders the script fills ({prayer})
            assert written and not latin, (path, latin)
    many = routes.error_page(f"/{lang}/", 429).decode()
    assert not _visible_latin(many, f"/{lang}/"), _visible_latin(many, f"/{lang}/")


@pytest.mark.parametrize("lang", ["ar", "fa", "ur"])
def test_no_english_sentence_in_the_text_a_calendar_shows_of_the_feeds(client, lang):
    """The feeds' SUMMARY, DESCRIPTION, LOCATION and the calendar's name and description, as a calendar app shows
    them, in ar, fa and ur: Latin words only inside an isolate (the query's options line, a zone id) or codes."""
    import icalendar

    city = PLACE[lang]
    for path in (f"/v1/prayer-times.ics?city={city}&lang={lang}&{MOSQUE_RULES}", f"/v1/events.ics?lang={lang}",
                 f"/v1/night.ics?city={city}&lang={lang}"):
        response = client.get(path)
        assert response.status_code == 200, (path, response.text[:200])
        calendar = icalendar.Calendar.from_ical(response.content)
        texts = [str(calendar.get(k, "")) for k in ("X-WR-CALNAME", "X-WR-CALDESC")]
        texts += [str(e.get(k, "")) for e in calendar.walk("VEVENT") for k in ("SUMMARY", "DESCRIPTION", "LOCATION")]
        for text in texts:
            shown = re.sub(f"{LRI}[^{PDI}]*{PDI}", "", text)
            shown = re.sub(r"https?://\S+", "", shown)
            latin = [w for w in re.findall(r"[A-Za-z]{2,}", shown) if w not in ALLOWED_LATIN]
            assert not latin, (path, latin, text[:300])
