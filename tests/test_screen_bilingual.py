"""Bilingual mosque screens (issue 36): a mosque with two languages gets both on its one screen address.

The mosque trial of 2026-11-28 (shared/reference/mosque_trial_2026-11-28/REPORT.md, D2): with English and Urdu
ticked the screen showed English only, and ``/mosque/<id>/screen/?lang=ur`` redirected to English.  Here:

* the short address keeps the language (and the screen's other options) the address asks for, re-encoded;
* a mosque whose profile names two languages shows the other one beside each prayer's name and heading, and
  carries its words for the sentences' turn (docs/decisions.md, "Two languages on one screen"); ``lang2`` chooses
  another or ``none``; a query's screen (no profile) keeps one language unless ``lang2`` is given (the SPEC's
  answers and the existing screens are unchanged);
* a bad ``lang2`` is a 400 naming ``lang2``.

The expected names are written here from the languages themselves (Fajr = فجر, Maghrib = مغرب in Urdu; the
invented example profile tests/fixtures/mosques/example-mosque.json names "مثالی مسجد" and "Example Mosque").
"""
from __future__ import annotations

import html as html_lib
import json
import re

import pytest

from generator.site import routes



def _config(page: str) -> dict:
    return json.loads(html_lib.unescape(re.search(r'id="page-config">(.*?)</script>', page, re.DOTALL).group(1)))


def _row_names(page: str, time: str) -> str:
    row = re.search(rf'<tr data-time="{time}"[^>]*><th scope="row">(.*?)</th>', page, re.DOTALL).group(1)
    return row


def test_the_short_address_keeps_the_language_it_asks_for(client, example):
    """D2: /mosque/<id>/screen/?lang=en led to the first language's screen; now it leads to the asked one."""
    short = f"/mosque/{example.id}/screen/"
    assert client.get(short, follow_redirects=False).headers["location"] == f"/screen/?mosque={example.id}&lang=ur"
    asked = client.get(short + "?lang=en", follow_redirects=False)
    assert asked.status_code == 302 and asked.headers["location"] == f"/screen/?mosque={example.id}&lang=en"
    both = client.get(short + "?lang=en&lang2=none&notice=10&city=tehran", follow_redirects=False)
    # the screen's own options are kept (the profile stands for the place: city is not carried)
    assert both.headers["location"] == f"/screen/?mosque={example.id}&lang=en&lang2=none&notice=10"
    hostile = client.get(short + "?lang=%3Cscript%3E%0D%0AX:1", follow_redirects=False)
    assert hostile.headers["location"] == f"/screen/?mosque={example.id}&lang=%3Cscript%3E%0D%0AX%3A1"
    refused = client.get(hostile.headers["location"])
    assert refused.status_code == 400 and "lang" in refused.text
    assert routes.mosque_screen([("lang", "en")], "no-such-mosque") is None


def test_a_two_language_mosque_shows_both_on_its_one_screen(client, example):
    page = client.get(f"/screen/?mosque={example.id}&lang=ur").text
    assert 'class="screen bilingual"' in page
    fajr = _row_names(page, "fajr")
    assert fajr.startswith('<span class="first">فجر</span>') and '<span class="second" lang="en" dir="ltr">Fajr</span>' in fajr
    assert '<span class="second" lang="en" dir="ltr">Maghrib</span>' in _row_names(page, "maghrib")
    assert re.search(r'<h1 class="place" dir="auto">مثالی مسجد <span class="second" lang="en" dir="ltr">'
                     r'Example Mosque</span></h1>', page)
    # both announcements take turns in the band: the Urdu one first, the English one (escaped) in its turn
    assert '<p class="note" dir="auto" data-item="0">آج رات نماز عشا کے بعد دعائے کمیل</p>' in page
    assert ('<p class="note" lang="en" dir="ltr" data-turn="1" data-item="0" hidden>Tonight: &lt;script&gt;alert(1)&lt;/script&gt; '
            '&amp; dua Kumayl after isha</p>') in page
    config = _config(page)
    second = config["second"]
    assert second["lang"] == "en" and second["dir"] == "ltr"
    assert second["words"]["prayers"]["fajr"] == "Fajr" and second["words"]["weekdays"][4] == "Friday"
    assert config["words"]["prayers"]["fajr"] == "فجر"
    # English first: Urdu second, right to left
    english = client.get(f"/screen/?mosque={example.id}&lang=en").text
    assert '<span class="second" lang="ur" dir="rtl">فجر</span>' in _row_names(english, "fajr")
    assert _config(english)["second"]["lang"] == "ur"


def test_lang2_chooses_another_language_or_none(client, example):
    one = client.get(f"/screen/?mosque={example.id}&lang=ur&lang2=none").text
    assert 'class="second"' not in one and "second" not in _config(one)
    persian = client.get(f"/screen/?mosque={example.id}&lang=en&lang2=fa").text
    assert '<span class="second" lang="fa" dir="rtl">صبح</span>' in _row_names(persian, "fajr")
    assert _config(persian)["shamsiMonths"]  # the Persian turn writes the Solar Hijri date
    # the canonical address keeps a chosen pair and leaves the profile's own out
    assert f'href="http://127.0.0.1:8000/screen/?mosque={example.id}&amp;lang=en&amp;lang2=fa"' in persian
    assert f'rel="canonical" href="http://127.0.0.1:8000/screen/?mosque={example.id}&amp;lang=ur"' in \
        client.get(f"/screen/?mosque={example.id}&lang=ur&lang2=en").text


def test_a_query_screen_keeps_one_language_unless_asked(client):
    plain = client.get("/screen/?city=karachi&lang=ur").text
    assert 'class="screen"' in plain and 'class="second"' not in plain and "second" not in _config(plain)
    pair = client.get("/screen/?city=karachi&lang=ur&lang2=en").text
    assert '<span class="second" lang="en" dir="ltr">Isha</span>' in _row_names(pair, "isha")
    assert "lang2=en" in re.search(r'rel="canonical" href="([^"]+)"', pair).group(1)


@pytest.mark.parametrize("query", ["lang=ur&lang2=ur", "lang=en&lang2=de", "lang=en&lang2="])
def test_a_bad_lang2_is_a_400_naming_it(client, query):
    answer = client.get(f"/screen/?city=karachi&{query}")
    assert answer.status_code == 400 and "lang2" in answer.text


def test_the_widget_takes_no_second_language(client):
    answer = client.get("/widget/?city=karachi&lang=ur&lang2=en")
    assert answer.status_code == 400 and "lang2" in answer.text
