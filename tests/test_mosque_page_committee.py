"""Issue 36, the committee's smaller items on the mosque page (mosque trial of 28 November 2026,
shared/reference/mosque_trial_2026-11-28/REPORT.md):

* D15: "Jamaat times change tomorrow: Fajr" without the new time.  The trial's TV said, on Sat 28 Nov 2026 19:00,
  "Jamaat times change tomorrow: Fajr 06:40" for the committee's fajr 10 minutes after the adhan rounded up to 5
  (Leicester's fajr adhan 06:24 on the 28th → 06:35, 06:26 on the 29th → 06:40, worked here).
* D17: the calendar links lacked the Ramadan suhoor/iftar option the API has (ramadan=1).
* D14: public addresses from PUBLIC_ORIGIN, never the address the page happens to be read on.
"""
from __future__ import annotations

import json
import re
import subprocess
import tempfile
from datetime import date, datetime, timezone
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit
from zoneinfo import ZoneInfo

import icalendar
import pytest
from conftest import call

LONDON = ZoneInfo("Europe/London")
JAMAAT = {"jamaat": "fajr:10,dhuhr:13:15,asr:dhuhr,maghrib:5,isha:maghrib", "jamaatRound": "fajr:5"}
EVENING_28_NOV = datetime(2026, 11, 28, 19, tzinfo=timezone.utc).timestamp()


@pytest.fixture(scope="module")
def leicester():
    """The Leicester committee's profile (English and Urdu; the Sistani office's printed table), served beside the
    shipped profiles; the pages' cached answers cleared before and after."""
    from generator.prayer import mosques
    from generator.site import responses
    from test_mosques import _fixture_data, _write

    data = _fixture_data()
    data.update(place={"city": "leicester"}, times={"method": "ImamAliFoundation"}, jamaat=JAMAAT,
                languages=["en", "ur"])
    profile = mosques.read(_write(Path(tempfile.mkdtemp(prefix="committee-")), "leicester-committee", data))
    served = {**mosques.load(), profile.id: profile}
    patch = pytest.MonkeyPatch()
    patch.setattr(mosques, "by_id", lambda: served)
    responses._body.cache_clear()
    yield profile.id
    patch.undo()
    responses._body.cache_clear()


def _page(mosque: str, lang: str, now_s: float = EVENING_28_NOV) -> str:
    from generator.site import mosque_page

    day = datetime.fromtimestamp(now_s, timezone.utc).date()
    return mosque_page.render(day, mosque, lang, now_s=now_s).decode()


def test_the_mosque_page_names_tomorrows_new_time_and_todays_in_four_languages(leicester):
    """The adhan (the printed table: 06:23 on 27 Nov in REPORT's table, which the service matched on 365 days) is
    06:24 on 28 Nov and 06:26 on the 29th: +10, up to 5 → 06:35 today and 06:40 tomorrow, the TV's "Fajr 06:40" (REPORT m6), now with today's beside it.  Arabic and Urdu
    write 12-hour clocks in their digits, Persian 24-hour (the pages' own clocks: docs/site.md)."""
    days = json.loads(call("prayer-times", EVENING_28_NOV, city="leicester", method="ImamAliFoundation",
                           year=2026, month=11))["days"]
    adhan = {d["date"]: d["local"]["fajr"] for d in days}
    assert (adhan["2026-11-27"], adhan["2026-11-28"], adhan["2026-11-29"]) == ("06:23", "06:24", "06:26")
    expected = {"en": "Jamaat times change tomorrow: Fajr 06:40 (today 06:35)",
                "ar": "تتغير أوقات الجماعة غداً: الفجر ٦:٤٠ (اليوم ٦:٣٥)",
                "fa": "اوقات نماز جماعت فردا تغییر می\u200cکند: صبح ۰۶:۴۰ (امروز ۰۶:۳۵)",
                "ur": "کل جماعت کے اوقات بدلیں گے: فجر ۶:۴۰ (آج ۶:۳۵)"}
    for lang, text in expected.items():
        found = re.findall(r'<p class="changes">(.*?)</p>', _page(leicester, lang), re.S)
        assert found == [text], (lang, found)


def test_the_mosque_page_offers_the_ramadan_calendar_and_it_has_iftar_at_maghrib(leicester):
    """The page's calendar links include the prayer times with ramadan=1 (webcal and https), in the page's language;
    that feed, read in Ramadan 1447, has an iftar event at the printed Leicester maghrib of 20 Feb 2026, 17:46
    (REPORT, Task 1), and an imsak event before the printed fajr 05:56."""
    html = _page(leicester, "ur")
    hrefs = set(re.findall(r'<a class="(?:webcal|https)" href="([^"]+)"', html))
    ramadan = [h for h in hrefs if "ramadan=1" in h]
    assert len(ramadan) == 1 and "اوقاتِ نماز، رمضان میں امساک اور افطار کے ساتھ" in html
    query = dict(parse_qsl(urlsplit(ramadan[0].replace("&amp;", "&")).query))
    assert query == {"mosque": leicester, "lang": "ur", "ramadan": "1"}
    now = datetime(2026, 2, 19, 12, tzinfo=timezone.utc).timestamp()
    feed = icalendar.Calendar.from_ical(call("prayer-times.ics", now, **{**query, "lang": "en"}))
    on_20 = {str(e["SUMMARY"]).split(" · ")[0]: e["DTSTART"].dt.astimezone(LONDON).strftime("%H:%M") for e in feed.walk("VEVENT")
             if e["DTSTART"].dt.astimezone(LONDON).date() == date(2026, 2, 20)}
    assert on_20.get("Iftar") == "17:46", on_20
    imsak = next(v for k, v in on_20.items() if k.startswith("Imsak"))
    assert imsak < "05:56"


def test_feed_links_use_the_configured_public_origin_never_the_readers_host(tmp_path):
    """feed_links.js as the pages inline it, run in node with a stand-in document: with PUBLIC_ORIGIN set the links
    are on it (webcal://times.example.org/…, https://times.example.org/…) even when the page is read on the app's own
    port; unset, on the host the page is read on, as before."""
    from generator.site import templating

    template = templating.environment().get_template("feed_links.js")
    stub = """
const links = {webcal: [{dataset: {path: "/v1/prayer-times.ics?mosque=x"}}],
               https: [{dataset: {path: "/v1/prayer-times.ics?mosque=x"}}]};
global.document = {querySelectorAll: (s) => links[s.split(".")[1]]};
global.location = {protocol: "http:", host: "10.0.0.5:8000"};
"""
    out = {}
    for origin in ("https://times.example.org", None):
        script = tmp_path / "links.js"
        script.write_text(stub + template.render(public_origin=origin)
                          + "\nprocess.stdout.write(JSON.stringify([links.webcal[0].href, links.https[0].href]));")
        out[origin] = json.loads(subprocess.run(["node", str(script)], capture_output=True, text=True, check=True,
                                                timeout=30).stdout)
    assert out["https://times.example.org"] == ["webcal://times.example.org/v1/prayer-times.ics?mosque=x",
                                               "https://times.example.org/v1/prayer-times.ics?mosque=x"]
    assert out[None] == ["webcal://10.0.0.5:8000/v1/prayer-times.ics?mosque=x",
                         "http://10.0.0.5:8000/v1/prayer-times.ics?mosque=x"]


def test_a_mosque_pages_canonical_og_url_and_qr_are_on_public_origin(leicester, monkeypatch):
    """With PUBLIC_ORIGIN=https://times.example.org (set as the app reads it at start: generator.site.urls), the
    mosque page's canonical, og:url and the printed QR's target name that origin, and no address of the page names
    port 8000 or the test host; the inlined feed script carries the origin."""
    from generator.site import qr_code, responses, templating, urls

    origin = "https://times.example.org"
    monkeypatch.setattr(urls, "PUBLIC_ORIGIN", origin)
    monkeypatch.setattr(urls, "CONFIGURED_ORIGIN", origin)
    monkeypatch.setitem(templating.environment().globals, "public_origin", origin)
    drawn = []
    real_svg = qr_code.svg
    monkeypatch.setattr(qr_code, "svg", lambda text, *a, **k: drawn.append(text) or real_svg(text, *a, **k))
    responses._body.cache_clear()
    html = _page(leicester, "en")
    assert f'<link rel="canonical" href="{origin}/mosque/{leicester}/">' in html
    assert f'<meta property="og:url" content="{origin}/mosque/{leicester}/">' in html
    assert drawn == [f"{origin}/mosque/{leicester}/"]
    assert ":8000" not in html and "testserver" not in html
    assert f'"{origin}"' in html  # feed_links.js's origin


@pytest.mark.parametrize("lang", ["ar", "fa", "ur"])
def test_a_latin_mosque_name_does_not_turn_a_right_to_left_heading_left_to_right(leicester, lang):
    """Gallery review of 28 November (second pass), AR2-05: ``<h1><bdi>…</bdi></h1>`` is ``dir=auto``, whose first
    strong letter was the Latin name's, so the whole Arabic heading was laid out left to right and a phone's second
    line read «Centre: أوقات الصلاة».  The Unicode Bidirectional Algorithm (UAX #9, rule P2/P3 for dir=auto) is the
    reference: the heading must take the page's direction, the name alone isolated (FSI … PDI)."""
    page = _page(leicester, lang)
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    assert heading and "<bdi" not in heading.group(1) and "dir=\"ltr\"" not in heading.group(0)
    assert re.search(r'<html[^>]*dir="rtl"', page)
    assert "\u2068" in heading.group(1) and "\u2069" in heading.group(1)  # the name isolated inside the RTL heading


def test_the_builders_outputs_are_on_public_origin(monkeypatch):
    """Mosque trial D14, the builder's part: its screen and widget addresses, feed links, QR codes and edit link were
    built from ``location.origin`` (the address the builder happened to be read on: port 8000 behind a proxy).  The
    page now carries PUBLIC_ORIGIN in its config, and the script takes every output's origin from it (the reader's
    own only when the operator set none)."""
    import json as json_module

    from generator.site import builder, urls

    def config_of(html: str) -> dict:
        found = re.search(r'<script type="application/json" id="builder-config">(.*?)</script>', html, re.S)
        return json_module.loads(found.group(1))

    assert config_of(builder.render(date(2026, 11, 28), "en").decode())["publicOrigin"] is None
    monkeypatch.setattr(urls, "CONFIGURED_ORIGIN", "https://times.example.org")
    assert config_of(builder.render(date(2026, 11, 28), "ur").decode())["publicOrigin"] == "https://times.example.org"
    script = (Path(__file__).resolve().parent.parent / "generator" / "site" / "assets" / "builder.js").read_text()
    # every output reads ORIGIN/HOST; location.origin is read once, as the fallback
    assert script.count("location.origin") == 1 and "location.host" not in script
    assert "const ORIGIN = config.publicOrigin || location.origin;" in script
