"""Pages people find (issue 21): head tags, sitemap.xml and robots.txt, over the app.

References, each independent of the code under test:

* Head tags are read back with Python's own ``html.parser``, and checked against the rules of
  Google's "Tell Google about localized versions of your page" (every page of a set lists every
  version, itself included, with absolute URLs; ``x-default`` for no matching language), of
  ``rel=canonical`` (RFC 6596: one absolute URL, here the page's own address in its short form),
  and of the Open Graph protocol (ogp.me: og:title, og:type, og:url, og:description, og:locale as
  language_TERRITORY).  The expected absolute URLs are written from the documented origin
  (``PUBLIC_ORIGIN``, default ``http://127.0.0.1:8000``) and the request path, not from our helpers.
* A description is "in the page's language" when its letters are of that language's script by
  Unicode character names (unicodedata) and use that language's own letters: Persian ی and ک, never
  Arabic ي/ك; Urdu's ہ/ے; Arabic none of those (the rules of docs/site.md, "The right-to-left lint").
* The sitemap is parsed with ``xml.etree`` and checked against the Sitemaps 0.9 protocol
  (sitemaps.org/protocol.html): root ``urlset`` (or ``sitemapindex``) in the namespace
  ``http://www.sitemaps.org/schemas/sitemap/0.9``, one ``<loc>`` per ``<url>``, an absolute URL of
  the site's own origin, entity-escaped, at most 50,000 URLs and 50 MiB per file.
* robots.txt is read by Python's ``urllib.robotparser`` (what a crawler would conclude).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
import urllib.parse
import urllib.robotparser
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.site import sitemap, urls
from generator.site.page import PageNotFound

ROOT = Path(__file__).resolve().parent.parent
ORIGIN = os.environ.get("PUBLIC_ORIGIN", "http://127.0.0.1:8000")  # deploy/README.md's default
NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
LANGS = ("en", "ar", "fa", "ur")
OG_TERRITORY = re.compile(r"(en|ar|fa|ur)_[A-Z]{2}")


def _short(prefix: str, lang: str) -> str:
    return prefix if lang == "en" else f"{prefix}{lang}/"


# (kind, lang, the page's canonical path): every page kind in every language
PAGES = [
    *(("home", lang, _short("/", lang)) for lang in LANGS),
    *(("city", lang, _short(f"/city/{city}/", lang)) for lang, city in
      (("en", "london"), ("ar", "karbala"), ("fa", "tehran"), ("ur", "karachi"))),
    *(("city-method", lang, f"/city/najaf/{lang}/Jafari/") for lang in LANGS),
    *(("month", lang, f"/city/beirut/{lang}/Tehran/2026-05/") for lang in LANGS),
    *(("imsakiya", lang, f"/city/{city}/{lang}/imsakiya/") for lang, city in
      (("en", "london"), ("ar", "karbala"), ("fa", "mashhad"), ("ur", "lahore"))),
    ("imsakiya-other", "en", "/city/london/en/imsakiya/iran/Jafari/"),
    *(("moon", lang, _short("/moon/1447-9/", lang)) for lang in LANGS),
    # pages shown from their query (issue 21): the canonical query is the /v1/prayer-times parameters in
    # their canonical form, sorted, then lang; every value percent-encoded (RFC 3986); the midnight of the method
    # the page names, the Institute's (issue 33)
    *((kind, lang, f"/{kind}/?city={city}&method=Tehran&midnight=sunsetToFajr&tz={tz}&lang={lang}")
      for kind in ("screen", "widget") for lang, city, tz in
      (("en", "london", "Europe%2FLondon"), ("ar", "karbala", "Asia%2FBaghdad"), ("fa", "tehran", "Asia%2FTehran"),
       ("ur", "karachi", "Asia%2FKarachi"))),
]


class Head(HTMLParser):
    """The <html lang> and the <title>, meta and link elements of a page's <head>, as a parser sees them."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.lang, self.title, self.metas, self.links, self._in_title, self._in_body = None, "", [], [], False, False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        elif tag == "body":
            self._in_body = True
        elif self._in_body:
            return
        elif tag == "title":
            self._in_title = True
        elif tag == "meta":
            self.metas.append(attrs)
        elif tag == "link":
            self.links.append(attrs)

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    def meta(self, key: str, value: str) -> list[str]:
        return [m.get("content") for m in self.metas if m.get(key) == value]

    def canonical(self) -> list[str]:
        return [link["href"] for link in self.links if link.get("rel") == "canonical"]

    def alternates(self) -> dict[str, str]:
        pairs = [(link["hreflang"], link["href"]) for link in self.links if link.get("rel") == "alternate"]
        assert len(pairs) == len(dict(pairs)), f"an hreflang listed twice: {pairs}"
        return dict(pairs)


def _get(client, path: str) -> Head:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    return Head(response.text)


def _script_of(text: str, lang: str) -> None:
    """Assert ``text`` is written in ``lang``'s script and letters (see the module docstring)."""
    letters = [c for c in text if c.isalpha()]
    arabic = [c for c in letters if unicodedata.name(c, "").startswith("ARABIC")]
    if lang == "en":
        assert len(letters) > 30 and not arabic, text
        return
    outside_isolates = re.sub("\u2066[^\u2069]*\u2069", "", text)  # a Latin run ("A4") only isolated, LRI … PDI
    assert len(arabic) > 30 and all(unicodedata.name(c, "").startswith("ARABIC")
                                    for c in outside_isolates if c.isalpha()), text
    own = {"fa": "یک", "ur": "ہے", "ar": "ةي"}[lang]
    foreign = {"fa": "يكہےھ", "ur": "يكةه", "ar": "یکہےھپچژگ"}[lang]
    assert any(c in own for c in text) and not any(c in foreign for c in text), (lang, text)


@pytest.mark.parametrize("kind,lang,path", PAGES, ids=[f"{k}-{lang}" for k, lang, _ in PAGES])
def test_every_page_kind_has_its_head_in_its_language(client, kind, lang, path):
    head = _get(client, path)
    assert head.lang == lang
    # rel=canonical: exactly one, absolute, the page's own address
    assert head.canonical() == [ORIGIN + path]
    # a description, in the page's language; OpenGraph repeats the title and the description
    descriptions = head.meta("name", "description")
    assert len(descriptions) == 1 and descriptions[0].strip()
    _script_of(descriptions[0], lang)
    assert head.title.strip() and head.meta("property", "og:title") == [head.title]
    assert head.meta("property", "og:description") == descriptions
    assert head.meta("property", "og:url") == [ORIGIN + path]
    assert head.meta("property", "og:type") == ["website"]
    [locale] = head.meta("property", "og:locale")
    assert OG_TERRITORY.fullmatch(locale) and locale.startswith(lang + "_")
    others = head.meta("property", "og:locale:alternate")
    assert sorted(o[:2] for o in others) == sorted(set(LANGS) - {lang})
    assert not head.meta("name", "robots"), "a page people should find is never noindex"
    # hreflang: the four languages and x-default (the English page), itself included, absolute
    alternates = head.alternates()
    assert set(alternates) == {*LANGS, "x-default"}
    assert alternates[lang] == ORIGIN + path and alternates["x-default"] == alternates["en"]
    assert all(href.startswith(ORIGIN + "/") for href in alternates.values())


@pytest.mark.parametrize("kind,lang,path", [p for p in PAGES if p[1] == "ar"], ids=lambda v: str(v))
def test_hreflang_sets_are_reciprocal(client, kind, lang, path):
    """Each version lists the same set, and names itself canonical: no one-way alternate."""
    alternates = _get(client, path).alternates()
    for other in LANGS:
        other_path = alternates[other].removeprefix(ORIGIN)
        head = _get(client, other_path)
        assert head.alternates() == alternates, other_path
        assert head.canonical() == [alternates[other]] and head.lang == other


@pytest.mark.parametrize("spelling,canonical", [
    ("/city/london/en/", "/city/london/"),
    ("/city/karbala/fa/Tehran/", "/city/karbala/fa/"),  # Tehran: the default where no printed table serves
    ("/city/london/fa/ImamAliFoundation/", "/city/london/fa/"),  # London's default: the table printed for it
    ("/city/karbala/ar/imsakiya/moonsighting/", "/city/karbala/ar/imsakiya/"),  # Iraq's own reckoning
])
def test_other_spellings_name_the_short_address_canonical(client, spelling, canonical):
    head = _get(client, spelling)
    assert head.canonical() == [ORIGIN + canonical] and head.meta("property", "og:url") == [ORIGIN + canonical]


@pytest.mark.parametrize("path,lang", [("/city/atlantis/", "en"), ("/city/atlantis/fa/", "fa"),
                                       ("/moon/1447-13/ar/", "ar"), ("/city/london/ur/Nowhere/", "ur")])
def test_error_pages_are_not_indexed(client, path, lang):
    response = client.get(path)
    assert response.status_code == 404 and response.headers["content-type"] == "text/html; charset=utf-8"
    head = Head(response.text)
    assert head.lang == lang and head.meta("name", "robots") == ["noindex"]
    assert not head.canonical() and not head.alternates()
    [description] = head.meta("name", "description")
    _script_of(description, lang) if lang != "en" else None
    assert description.strip()


def test_the_host_header_never_reaches_a_url(client):
    """A page's absolute URLs come from the setting, whatever Host a client sends (cache poisoning)."""
    response = client.get("/city/london/", headers={"host": "evil.example"})
    assert response.status_code == 200 and "evil.example" not in response.text
    assert Head(response.text).canonical() == [ORIGIN + "/city/london/"]
    for path in ("/sitemap.xml", "/robots.txt"):
        response = client.get(path, headers={"host": "evil.example", "x-forwarded-host": "evil.example"})
        assert response.status_code == 200 and b"evil.example" not in response.content


def _origin_run(value: str) -> subprocess.CompletedProcess:
    code = ("from datetime import date; from generator.site import routes; "
            "print(routes.city_page(date(2026, 3, 20), 'london').decode()); print(routes.robots_page(None).decode())")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PUBLIC_ORIGIN": value})


def test_public_origin_is_a_setting_checked_at_start():
    done = _origin_run("https://times.example.org")
    assert done.returncode == 0, done.stderr
    assert '<link rel="canonical" href="https://times.example.org/city/london/">' in done.stdout
    assert "Sitemap: https://times.example.org/sitemap.xml" in done.stdout
    done = _origin_run("https://times.example.org/")  # a value that is not an origin stops the build and the app
    assert done.returncode != 0 and "PUBLIC_ORIGIN must be" in done.stderr
    for bad in ("https://times.example.org/shia", "times.example.org", "HTTPS://X.ORG", "javascript:alert(1)",
                "https://user@x.org", "https://x.org:99999", "https://x.org:0", "https://x.org?a=1",
                "https://x.org#a", "https://x.org\n", "https://-x.org", "ftp://x.org", ""):
        with pytest.raises(ValueError, match="PUBLIC_ORIGIN must be"):
            urls.public_origin(bad)
    for good in ("https://times.example.org", "http://127.0.0.1:8000", "http://[::1]:8107", "https://x.org:443"):
        assert urls.public_origin(good) == good


def _parse_urlset(body: bytes) -> list[str]:
    root = ET.fromstring(body)
    assert root.tag == NS + "urlset"
    locs = []
    for url in root:
        assert url.tag == NS + "url" and [child.tag for child in url] == [NS + "loc"]
        locs.append(url[0].text)
    assert 0 < len(locs) <= 50_000 and len(body) <= 50 * 1024 * 1024
    return locs


def test_sitemap_lists_every_kind_of_page_by_its_canonical_absolute_url(client):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200 and response.headers["content-type"] == "application/xml; charset=utf-8"
    assert response.content.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    locs = _parse_urlset(response.content)
    assert len(locs) == len(set(locs))
    for loc in locs:
        parts = urllib.parse.urlsplit(loc)
        assert f"{parts.scheme}://{parts.netloc}" == ORIGIN and parts.path.endswith("/") and not parts.query
    paths = [loc.removeprefix(ORIGIN) for loc in locs]
    kinds = {
        "home": r"/((ar|fa|ur)/)?", "city": r"/city/[a-z0-9-]+/((ar|fa|ur)/)?",
        "imsakiya": r"/city/[a-z0-9-]+/(en|ar|fa|ur)/imsakiya/",
        # each city's default method: Tehran, the authority whose printed table serves it (issue 19), or the
        # Caucasian Muslims' Board's rule in Azerbaijan (issue 37)
        "month": r"/city/[a-z0-9-]+/(en|ar|fa|ur)/(Tehran|ImamAliFoundation|CaucasianMuslimsBoard)/[0-9]{4}-[0-9]{2}/",
        "moon": r"/moon/[0-9]{4}-[0-9]{1,2}/((ar|fa|ur)/)?",
        "builder": r"/mosque/new/((ar|fa|ur)/)?",  # the mosque builder (issue 27)
        "mosque": r"/mosque/(?!new/)[a-z0-9-]+/((ar|fa|ur)/)?",  # every profile of data/mosques/ (issue 20)
    }
    found = {kind: [p for p in paths if re.fullmatch(pattern, p)] for kind, pattern in kinds.items()}
    assert sum(len(v) for v in found.values()) == len(paths), "every listed page is one of the kinds"
    cities = len(client.get("/v1/cities", params={"all": "1"}).json()["cities"])
    assert len(found["home"]) == 4 and len(found["city"]) == 4 * cities and len(found["imsakiya"]) == 4 * cities
    assert len(found["month"]) == 4 * 2 * cities  # the month before and the month after the two shown
    assert 4 * 36 <= len(found["moon"]) <= 4 * 40  # the Hijri months overlapping this year ±1
    assert len(found["mosque"]) == 4 * len(client.get("/v1/mosques").json()["mosques"]) > 0
    assert len(found["builder"]) == 4
    # each listed page answers and names itself canonical (a sample of every kind)
    for kind, listed in found.items():
        for path in listed[:: max(1, len(listed) // 3)]:
            assert _get(client, path).canonical() == [ORIGIN + path], path


def test_sitemap_escapes_and_splits_by_the_protocol_limits():
    odd = ["/a&b/", "/c'd\"e/", "/<f>/"]
    locs = _parse_urlset(sitemap.urlset(odd))
    assert locs == [ORIGIN + p for p in odd]  # entity-escaped on the wire, the same URL once parsed
    assert b"&amp;" in sitemap.urlset(odd) and b"<f>" not in sitemap.urlset(odd)
    paths = [f"/city/c{i}/" for i in range(7)]
    index = ET.fromstring(sitemap.render(paths, max_urls=3))
    assert index.tag == NS + "sitemapindex"
    assert [s[0].text for s in index] == [f"{ORIGIN}/sitemap-{n}.xml" for n in (1, 2, 3)]
    parts = [_parse_urlset(sitemap.render(paths, n, max_urls=3)) for n in (1, 2, 3)]
    assert [len(p) for p in parts] == [3, 3, 1] and sum(parts, []) == [ORIGIN + p for p in paths]
    two_urls = len(sitemap.urlset(paths[:2]))  # the byte limit splits too: a file of exactly two URLs fits
    assert [len(p) for p in sitemap.parts(paths, max_bytes=two_urls)] == [2, 2, 2, 1]
    assert [len(p) for p in sitemap.parts(paths, max_bytes=two_urls - 1)] == [1] * 7
    for missing in (0, 4):
        with pytest.raises(PageNotFound):
            sitemap.render(paths, missing, max_urls=3)
    assert _parse_urlset(sitemap.render(paths)) == [ORIGIN + p for p in paths]  # under the limits: no index
    with pytest.raises(PageNotFound):
        sitemap.render(paths, 1)


def test_robots_txt_lets_crawlers_read_pages_not_answers(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response.headers["content-type"] == "text/plain; charset=utf-8"
    robots = urllib.robotparser.RobotFileParser()
    robots.parse(response.text.splitlines())
    for path in ("/", "/fa/", "/city/london/", "/city/karbala/ar/imsakiya/", "/moon/1447-9/ur/", "/sitemap.xml"):
        assert robots.can_fetch("Googlebot", ORIGIN + path), path
    for path in ("/v1/prayer-times?city=london", "/v1/prayer-times.ics?city=karbala", "/today/v1/night/city=x.ics"):
        assert not robots.can_fetch("Googlebot", ORIGIN + path), path
    assert robots.site_maps() == [ORIGIN + "/sitemap.xml"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(part=st.one_of(st.text(max_size=30), st.integers(-10**12, 10**12).map(str),
                      st.sampled_from(["0", "1", "2", "01", "%2e%2e", "..", "1.xml", "99999999999999999999"])))
def test_hostile_sitemap_and_robots_addresses_never_fail(client, part):
    """The new addresses under generated junk: a page, a 404 page, or a redirect; never a 5xx."""
    quoted = urllib.parse.quote(part, safe="")
    for path in (f"/sitemap-{quoted}.xml", f"/sitemap.xml/{quoted}", f"/robots.txt{quoted}", f"/sitemap{quoted}.xml"):
        response = client.get(path, follow_redirects=False)
        assert response.status_code in (200, 308, 404), (path, response.status_code)


def test_query_pages_name_their_canonical_query_and_escape_it(client):
    """A screen asked with its parameters in another order, another spelling and hostile announcement
    lines names the canonical query (sorted, percent-encoded: RFC 3986 leaves no <, >, " or & in a
    value), and the lines never reach the head as markup."""
    note = '"><script>alert(1)</script>&x'
    response = client.get("/screen/", params=[("lang", "ar"), ("note", note), ("city", "London"), ("method", "tehran")])
    assert response.status_code == 200
    head = Head(response.text)
    expected = (ORIGIN + "/screen/?city=london&method=Tehran&midnight=sunsetToFajr&tz=Europe%2FLondon&lang=ar&note="
                + urllib.parse.quote(note, safe=""))
    assert head.canonical() == [expected] and head.alternates()["ar"] == expected
    assert "<script>alert" not in response.text
