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
import re
from pathlib import Path

import pytest

from generator.errors import QueryError
from generator.words import error_words

ROOT = Path(__file__).resolve().parents[1]
LRI, PDI = "\u2066", "\u2069"


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
    text = re.sub(f"{LRI}[^{PDI}]*{PDI}", "", text)
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
