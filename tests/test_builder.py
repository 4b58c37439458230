"""The mosque builder's page and its QR codes (issue 27), in process; the builder in Chromium is test_builder_browser.py.

References:

* the API's own declarations, read from its OpenAPI document (/v1/openapi.json): every field the builder names by a
  parameter (``data-name``) is a /v1/prayer-times parameter, every jamaat rule a mosque profile may set is reachable
  from the form, and a field's limits (maxlength, min, max) are the document's;
* the data/mosques reader (generator.prayer.mosques, itself tested against hand-written files): the page's limits
  for names, announcement, address, addresses of the web and sources are the reader's;
* zbar (Debian's zbar-tools, an independent decoder) reads /qr.svg, rasterised by Chromium's screenshot in
  test_builder_browser.py; here the SVG is checked by its modules against segno's own matrix of the same text;
* hostile queries of /qr.svg (scripts, data and file addresses, fragments, control characters, lengths, repeated
  and unknown parameters) are 400 pages, never 5xx.
"""
from __future__ import annotations

import re
import urllib.parse
from html.parser import HTMLParser

import pytest

from generator.prayer import mosques
from generator.prayer import jamaat


class Fields(HTMLParser):
    """The form controls of a page: {id: attributes}."""

    def __init__(self):
        super().__init__()
        self.controls: dict[str, dict] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag in ("input", "select", "textarea") and attributes.get("id"):
            self.controls[attributes["id"]] = {"tag": tag, **attributes}


def controls(client, path: str) -> dict[str, dict]:
    response = client.get(path)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    parser = Fields()
    parser.feed(response.text)
    return parser.controls


@pytest.fixture(scope="module")
def openapi(client):
    document = client.get("/v1/openapi.json").json()
    return {p["name"]: p for p in document["paths"]["/prayer-times"]["get"]["parameters"]}


@pytest.mark.parametrize("lang", ["en", "ar", "fa", "ur"])
def test_every_named_field_is_a_prayer_times_parameter_with_its_limits(client, openapi, lang):
    found = controls(client, "/mosque/new/" if lang == "en" else f"/mosque/new/{lang}/")
    named = {c["data-name"]: c for c in found.values() if "data-name" in c}
    assert set(named) <= set(openapi), set(named) - set(openapi)
    for name, control in named.items():
        schema = openapi[name]["schema"]
        if "maxLength" in schema and control["tag"] != "select" and control.get("type") not in ("hidden", "number"):
            assert int(control["maxlength"]) == schema["maxLength"], name
        if "enum" in schema:
            options = set(schema["enum"])
            assert control["tag"] == "select" and options, name
        for bound in ("minimum", "maximum"):
            if bound in schema and control.get("type") == "number":
                assert float(control[bound[:3]]) == schema[bound], (name, bound)
    # every rule a profile may set: the five prayers' rows compose jamaat, jamaatRound, jamaatWeekly
    rows = {prayer for prayer in ("fajr", "dhuhr", "asr", "maghrib", "isha")
            if {f"j-{part}-{prayer}" for part in ("kind", "value", "round", "weekly")} <= set(found)}
    assert len(rows) == 5
    composed = {jamaat.JAMAAT, jamaat.ROUND, jamaat.WEEKLY}
    # issue 36: the summer-time and Ramadan rows (a row's "Days" select names the parameter it writes)
    page = client.get("/mosque/new/" if lang == "en" else f"/mosque/new/{lang}/").text
    days = re.search(r'<select class="s-when">(.*?)</select>', page, re.S)[1]
    seasons = set(re.findall(r'<option value="(\w+)">', days))
    assert seasons == {jamaat.DST, jamaat.RAMADAN_RULES}
    # and each row its own rounding (mosque trial of 28 November: the Ramadan rule had inherited 06:15 for 06:11)
    rounding = re.search(r'<select class="s-round">(.*?)</select>', page, re.S)[1]
    assert re.findall(r'<option value="(\d*)">', rounding)[:2] == ["", "1"]  # the usual rule's, then none
    composed |= {jamaat.ROUND_DST, jamaat.ROUND_RAMADAN}
    assert set(mosques.JAMAAT_KEYS) == composed | seasons | (set(named) & set(mosques.JAMAAT_KEYS))
    assert {"method", "asr", "highLatitudeRule", "midnight", "tune", "elevation", "imsak"} <= set(named)


def test_the_page_limits_are_the_profile_readers(client):
    found = controls(client, "/mosque/new/")
    assert int(found["f-name-en"]["maxlength"]) == mosques.MAX_NAME_CHARS == 60
    # issue 36: an announcement's box cuts nothing (the trial's box silently stopped at 120); its count beside it
    # names the reader's limits of a line and of a slide, and the reader refuses a longer text naming its field
    assert "maxlength" not in found["f-ann-0-ur"]
    page = client.get("/mosque/new/").text
    assert f'data-line="{mosques.MAX_ANNOUNCEMENT_CHARS}" data-slide="{mosques.A.MAX_SLIDE_CHARS}"' in page
    assert (mosques.MAX_ANNOUNCEMENT_CHARS, mosques.A.MAX_SLIDE_CHARS) == (120, 600)
    assert int(found["f-address"]["maxlength"]) == mosques.MAX_ADDRESS_CHARS
    assert int(found["f-website"]["maxlength"]) == mosques.MAX_URL_CHARS
    assert int(found["f-source-about"]["maxlength"]) == mosques.MAX_SOURCE_CHARS
    assert (int(found["f-notice"]["min"]), int(found["f-notice"]["max"])) == mosques.SCREEN_MINUTES["notice"]
    # one character past the reader's limit is refused by the reader itself
    profile = {"names": {"en": "x" * 61}, "place": {"city": "birmingham"}, "times": {"method": "Jafari"},
               "reckoning": "moonsighting", "languages": ["en"], "sources": [{"about": "a", "read": "2026-11-26"}]}
    with pytest.raises(mosques.ProfileError, match="names.en: at most 60"):
        mosques.parse(profile, "x", "test")


def test_the_builder_pages_say_what_they_are(client):
    page = client.get("/mosque/new/fa/").text
    assert '<html lang="fa" dir="rtl">' in page and 'rel="canonical"' in page and "/mosque/new/fa/" in page
    assert client.get("/mosque/new/en/").status_code == 404  # English is /mosque/new/ itself
    assert client.get("/mosque/new/xx/").status_code == 404
    home = client.get("/ur/").text  # every page's header links the builder in its language
    assert 'class="for-mosques" href="/mosque/new/ur/"' in home
    assert 'class="for-mosques" href="/mosque/new/"' in client.get("/city/london/").text


def test_new_is_no_mosques_id(tmp_path):
    path = tmp_path / "new.json"
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(mosques.ProfileError, match="id: 'new' is the address of a page"):
        mosques.read(path)


def _modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules of segno's SVG path (``M x y.5 h n`` runs, relative moves)."""
    path = re.search(r'<path[^>]*stroke="#000"[^>]*d="([^"]+)"', svg).group(1)
    dark, x, y = set(), 0.0, 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[0-9.]+)(?:[ ,](-?[0-9.]+))?", path):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            dark |= {(int(x) + k, int(y)) for k in range(int(float(a)))}
            x += float(a)
    return dark


def test_qr_codes_are_the_addresses_given(client):
    """The SVG's dark modules are segno's matrix of the address (its quiet zone of 4 modules), nothing else."""
    import segno

    address = "https://times.example.org/mosque/abcdefgh23456/screen/"  # the host the request was sent to
    response = client.get("/qr.svg", params={"text": address}, headers={"Host": "times.example.org"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    assert response.headers["content-security-policy"] == "default-src 'none'"
    matrix = segno.make(address, error="m", micro=False).matrix
    expected = {(x + 4, y + 4) for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark}
    assert _modules(response.text) == expected
    feed = "webcal://127.0.0.1:8000/v1/prayer-times.ics?mosque=abcdefgh23456&lang=ur&alarm=10"  # PUBLIC_ORIGIN's
    assert client.get("/qr.svg", params={"text": feed}).status_code == 200


@pytest.mark.parametrize("address", [
    "https://evil.example/mosque/x/", "webcal://evil.example/v1/x.ics", "http://127.0.0.1:8001/screen/",
    "http://127.0.0.1:8000/v1/../../login?phish=1", "http://127.0.0.1:8000/v1/%2e%2e/%2E%2E/login",
    "http://127.0.0.1:8000/screen/./x", "http://127.0.0.1:8000/v1/..%5c..%5clogin", "http://127.0.0.1:8000/v1/\\..",
    "https://[zz]/screen/", "https://[/screen/", "http://[::1/v1/", "http://127.0.0.1:8000:80/v1/",
])
def test_qr_codes_draw_only_this_services_own_addresses(client, address):
    """Issue 34 (../shared/reference/reliability_2026-11-28/REPORT.md, section C): zbarimg read back foreign hosts and
    dot-segment paths from /qr.svg, and a bracketed host that is no IP address was a 500 (urlsplit's ValueError).
    Own hosts are PUBLIC_ORIGIN's (the test app's default, 127.0.0.1:8000, generator/site/urls.py) and the request's
    Host (TestClient's: testserver); any other host, a dot segment or an unreadable address is a 400 page naming
    ``text``, never a 5xx."""
    response = client.get("/qr.svg", params={"text": address})
    assert response.status_code == 400, (address, response.status_code)
    assert response.headers["content-type"].startswith("text/html") and "text" in response.text


def test_qr_codes_draw_the_host_the_request_was_sent_to_and_only_for_that_request(client):
    """The builder links the host it is read on (docs/decisions.md): a request sent to that host gets its code; the
    same address asked of another host is refused even after it was drawn once (the check runs before the cache)."""
    address = "https://mirror.example/screen/?mosque=abcdefgh23456"
    assert client.get("/qr.svg", params={"text": address}, headers={"Host": "mirror.example"}).status_code == 200
    assert client.get("/qr.svg", params={"text": address}).status_code == 400
    assert client.get("/qr.svg", params={"text": address.replace("https", "webcal")},
                      headers={"Host": "Mirror.Example"}).status_code == 200


@pytest.mark.parametrize("query", [
    "text=javascript:alert(1)", "text=data:text/html,<script>", "text=file:///etc/passwd", "text=https://evil.example/",
    "text=https://x.example/mosque/new/%23edit=abc.secret", "text=https://x.example/screen/%23frag",
    "text=https://x.example/screen/%0d%0aSet-Cookie:a", "text=" + "https://x.example/v1/" + "a" * 2100,
    "text=https://x.example/v1/&text=https://x.example/v1/", "text=https://x.example/v1/&other=1", "",
    "text=", "text=%ff%fe", "text=https://user@x.example/v1/", "text=https://x.example:99999999/v1/",
    "text=" + urllib.parse.quote("https://xn--ab-.example/v1/\u202e"),
])
def test_hostile_qr_queries_are_400_pages(client, query):
    response = client.get("/qr.svg?" + query)
    assert response.status_code == 400, (query, response.status_code)
    assert response.headers["content-type"].startswith("text/html") and "text" in response.text
