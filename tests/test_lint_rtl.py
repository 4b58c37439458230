"""Right-to-left lint (tests/rtl_lint.py) over every page, feed and word of a small build in ar, fa and ur.

The oracle is the written convention of each script, as docs/decisions.md ("Names and digits")
and docs/site.md ("The right-to-left lint") state it: the letter forms and digits of Arabic,
Persian and Urdu (Unicode 15.1 chart U+0600–U+06FF: ي U+064A / ی U+06CC, ك U+0643 / ک U+06A9,
ه U+0647 / ہ U+06C1 / ھ U+06BE, ٠–٩ U+0660–0669 / ۰–۹ U+06F0–06F9), the Arabic decimal separator
٫ U+066B, and the bidi isolates of UAX #9 (LRI U+2066 … PDI U+2069).  The lint is checked to
fail on a known-bad string of each kind first.

The build is small: six cities (Iran, Iraq, Pakistan, Europe, the Arctic with polar days,
Tirana), two months from a fixed day, one crescent page, the four feeds under both
reckonings, rendered in process through the site's renderers and the app's routes.
"""
from __future__ import annotations

import csv
import json
from datetime import date
from pathlib import Path

import pytest
from rtl_lint import lint_html, lint_ics, lint_svg, lint_text

from generator.calendars import events
from generator.words import glossary
from generator.site import imsakiya, index, moon_page, timetable

ROOT = Path(__file__).resolve().parent.parent
RTL = ("ar", "fa", "ur")
TODAY = date(2026, 6, 1)  # June and July 2026: Muharram 1448 (Ashura), the midnight sun at Tromsø
CITIES = ("tehran", "karbala", "karachi", "london", "tromso", "tirana")
MOON_MONTH = (1448, 1)


# --- the lint fails on what it must refuse ------------------------------------------------------


@pytest.mark.parametrize("lang, text, problem", [
    ("fa", "ولادت امام علي (ع)", "Arabic yeh"),               # ي in Persian
    ("fa", "مكه", "Arabic kaf"),                              # ك in Persian
    ("ur", "شهادت امام حسین", "Arabic heh"),                  # ه in Urdu
    ("ur", "حضرت فاطمة", "teh marbuta"),                      # ة in Urdu
    ("ar", "الإمام علی", "Persian/Urdu yeh"),                 # ی in Arabic
    ("ar", "سنة ۶۱ للهجرة", "Extended Arabic-Indic digit"),   # Persian digits in Arabic
    ("fa", "سال ٦١ هجری", "Arabic-Indic digit"),              # Arabic digits in Persian
    ("ur", "ساعت 04:35", "ASCII digit"),
    ("ar", "الأوقات من واجهة JSON", "Latin word"),
    ("fa", "۳۵.۶۹° شمالی", "decimal separator"),
    ("ur", "ساعت ۳۵,۶۹", "decimal separator"),
    ("ar", "أوقات الصلاة · لندن", "middle dot"),
    ("fa", "شب رؤیت -۱", "signed number"),
    ("ar", "الأوقات (\u2066Asia/Baghdad)", "unbalanced"),
    ("ur", "اعلان فرمایا: 'جس کا میں مولا ہوں'", "quotation mark"),
])
def test_the_lint_refuses_each_kind_of_error(lang, text, problem):
    """Each rule fails on a known-bad string (the rules: tests/rtl_lint.py)."""
    found = lint_text(text, lang)
    assert any(problem in p for p in found), found


def test_the_lint_accepts_isolated_ids_and_native_numbers():
    assert lint_text("توقيت بغداد (\u2066Asia/Baghdad\u2069)؛ ٣٣٫٣٢° شمالاً", "ar") == []
    assert lint_text("شب رؤیت \u2066-۱\u2069", "fa") == []
    assert lint_text("نمازِ فجر — لندن، ۵:۱۲ صبح", "ur") == []


def test_the_page_lint_refuses_bare_file_names_and_foreign_text_without_direction():
    bad = '<html lang="ur" dir="rtl"><body><p>کیلنڈر: <a href="/v1/night.ics">night.ics</a></p>' \
          '<a lang="en" href="/">English</a></body></html>'
    problems = lint_html(bad, "ur")
    assert any("Latin word" in p and "night" in p for p in problems)
    assert any("without dir" in p for p in problems)
    good = '<html lang="ur" dir="rtl"><body><p>کیلنڈر: <a href="/v1/night.ics" dir="ltr">night.ics</a></p>' \
           '<a lang="en" dir="ltr" href="/">English</a></body></html>'
    assert lint_html(good, "ur") == []


def test_the_feed_lint_reads_folded_escaped_text():
    body = ("BEGIN:VCALENDAR\r\nSUMMARY;LANGUAGE=fa:نماز صبح · لندن\r\n"
            "DESCRIPTION;LANGUAGE=fa:ساعت 04:35\\nروش محاسبه\r\n END\r\nEND:VCALENDAR\r\n").encode()
    problems = lint_ics(body, "fa")
    assert any("middle dot" in p for p in problems) and any("ASCII digit" in p for p in problems)
    assert any("Latin word" in p and "END" in p for p in problems)  # the folded continuation is read


# --- every page, feed and word of the small build -------------------------------------------------


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("city", CITIES)
def test_city_pages_pass_the_lint(city, lang):
    html = timetable.render(TODAY, city, lang).decode()
    assert lint_html(html, lang) == []


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("city", ("tehran", "karachi", "tromso"))
def test_imsakiya_and_month_pages_pass_the_lint(city, lang):
    """Issue 13's pages: the Ramadan imsakiya (1448, February-March 2027) and a one-month page."""
    assert lint_html(imsakiya.render(TODAY, city, lang).decode(), lang) == []
    assert lint_html(timetable.render_month(TODAY, city, lang, "Jafari", "2026-08").decode(), lang) == []


@pytest.mark.parametrize("lang", RTL)
def test_home_pages_pass_the_lint(lang):
    assert lint_html(index.render_home(TODAY, lang).decode(), lang) == []


def test_the_polar_city_page_has_polar_days_to_lint():
    html = timetable.render(TODAY, "tromso", "ar").decode()
    assert "<sup title=" in html and "حُسب الوقت على خط العرض" in html


@pytest.mark.parametrize("lang", RTL)
def test_crescent_pages_pass_the_lint(lang):
    html = moon_page.render(TODAY, *MOON_MONTH, lang).decode()
    assert lint_html(html, lang) == []


@pytest.mark.parametrize("lang", RTL)
def test_the_crescent_map_svg_passes_the_lint(client, lang):
    response = client.get(f"/v1/moon-visibility.svg?hy={MOON_MONTH[0]}&hm={MOON_MONTH[1]}&evening=0&lang={lang}")
    assert response.status_code == 200
    assert lint_svg(response.text, lang) == []


FEEDS = (
    "/v1/events.ics?calendar=moonsighting", "/v1/events.ics?calendar=iran", "/v1/events.ics?importance=major",
    "/v1/fasting.ics?calendar=moonsighting", "/v1/fasting.ics?calendar=iran",
    "/v1/prayer-times.ics?city=karachi", "/v1/prayer-times.ics?city=karbala&offsets=fajr:15,maghrib:0",
    "/v1/prayer-times.ics?city=tromso&days=90", "/v1/prayer-times.ics?city=tehran&clock=12",
    "/v1/night.ics?city=london", "/v1/night.ics?city=tehran&clock=24",
    "/v1/prayer-times.ics?city=london&name=Al-Noor%20Mosque%202&offsets=isha:5",  # a Latin masjid name, isolated
)


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("feed", FEEDS)
def test_feeds_pass_the_lint(client, feed, lang):
    response = client.get(f"{feed}&lang={lang}")
    assert response.status_code == 200, response.text
    assert lint_ics(response.content, lang) == []


def test_every_glossary_term_passes_the_lint():
    """Every word the pages and feeds print comes from the glossary; each one is checked here."""
    problems = [f"{term_id} {lang}: {p}" for term_id, texts in glossary.terms().items() for lang in RTL
                for p in lint_text(texts[lang].replace("{", "").replace("}", ""), lang)
                if not p.startswith("Latin word")]  # placeholder names; their values are linted in the pages
    assert problems == []


def test_every_event_city_and_method_name_passes_the_lint():
    problems = []
    for event in events.catalogue():
        for lang in RTL:
            for field in ("title", "details"):
                problems += [f"{event['id']} {field} {lang}: {p}" for p in lint_text(event[field][lang], lang)]
        problems += [f"{event['id']} iran title fa: {p}" for p in lint_text(events.title(event, "iran")["fa"], "fa")]
    with (ROOT / "data" / "cities.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            problems += [f"city {row['id']} {lang}: {p}" for lang in RTL for p in lint_text(row[lang], lang)]
    for method in json.loads((ROOT / "data" / "methods.json").read_text(encoding="utf-8"))["methods"]:
        problems += [f"method {method['id']} {lang}: {p}" for lang in RTL for p in lint_text(method["label"][lang], lang)]
    assert problems == []


def test_urdu_has_details_for_every_event():
    assert len(events.catalogue()) == 73
    assert all(event["details"]["ur"] for event in events.catalogue())


# --- the words behind the lint: clock, reckoning titles, glossary checks, coordinates -------------


def _descriptions(body: bytes) -> list[str]:
    from rtl_lint import ics_texts

    return [value for prop, value in ics_texts(body) if prop == "DESCRIPTION"][1:]  # [0] is the calendar's


NATIVE = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")


AR_HALVES = {"AM": "ص", "PM": "م"}  # CLDR ar dayPeriods am/pm
FA_HALVES = {"AM": "ق.ظ.", "PM": "ب.ظ."}  # CLDR fa dayPeriods am/pm


def ur_period(hour: int, prayer: str) -> str:
    """The Urdu part of the day of a prayer's time (issue 29: not the clock hour's, which put maghrib and isha in
    «سہ پہر» in a London winter): fajr صبح, dhuhr دوپہر, asr سہ پہر (دوپہر before 15:00), maghrib and isha شام
    (رات from 20:00), as the Urdu reader of 26 November wrote them."""
    if prayer == "fajr":
        return "صبح"
    if prayer == "dhuhr" or (prayer == "asr" and hour < 15):
        return "دوپہر"
    if prayer == "asr":
        return "سہ پہر"
    return "شام" if 12 <= hour < 20 else "رات"


@pytest.mark.parametrize("lang, clock, marks", [("ar", None, AR_HALVES), ("ur", None, ur_period),
                                                ("ar", "24", None), ("fa", None, None), ("fa", "12", FA_HALVES)])
def test_feed_times_follow_the_language_clock(client, lang, clock, marks):
    """Feed times against the JSON API's local HH:mm, turned into 12-hour by Python's own strftime("%I:%M %p").

    Oracle: /v1/prayer-times `local` (HH:mm) and the C library's 12-hour conversion; the words
    are Unicode CLDR's (ar ص/م, fa ق.ظ./ب.ظ.; data/SOURCES-FEEDS.md) and, in Urdu, the prayer's part of the day.
    """
    from datetime import datetime

    query = f"city=karachi&lang={lang}&days=7" + (f"&clock={clock}" if clock else "")
    feed = client.get(f"/v1/prayer-times.ics?{query}")
    assert feed.status_code == 200
    first = feed.text.split("DTSTART:")[1][:8]  # the window's first day, from the feed itself
    day = f"{first[:4]}-{first[4:6]}-{first[6:]}"
    local = client.get(f"/v1/prayer-times?city=karachi&date={day}").json()["days"][0]["local"]
    descriptions = [d.translate(NATIVE) for d in _descriptions(feed.content)]
    for prayer in ("fajr", "dhuhr", "asr", "maghrib", "isha"):
        hhmm = local[prayer]
        if marks is None:
            expected = hhmm
        else:
            twelve = datetime.strptime(hhmm, "%H:%M").strftime("%I:%M %p")
            word = marks(int(hhmm[:2]), prayer) if callable(marks) else marks[twelve[-2:]]
            expected = f"{twelve[:5].lstrip('0')} {word}"
        assert any(expected in d for d in descriptions), (prayer, expected)


def test_an_unknown_clock_is_a_400(client):
    response = client.get("/v1/night.ics?city=london&clock=13")
    assert response.status_code == 400 and response.json()["error"].startswith("clock:")


def test_iranian_civic_days_only_under_the_iran_reckoning():
    """Iran's official calendar prints "ولادت امام علی (ع) و روز پدر" (data/SOURCES-EVENTS.md); elsewhere: the occasion."""
    by_id = {e["id"]: e for e in events.catalogue()}
    assert events.title(by_id["birth-imam-ali"], "iran")["fa"] == "ولادت امام علی (ع) و روز پدر"
    assert events.title(by_id["birth-imam-ali"], "moonsighting")["fa"] == "ولادت امام علی (ع)"
    assert events.title(by_id["eid-al-fitr-second-day"], "moonsighting")["fa"] == "روز دوم عید سعید فطر"
    for event in events.catalogue():
        assert "تعطیل" not in events.title(event, "moonsighting")["fa"]
        assert {k: v for k, v in events.title(event, "iran").items() if k != "fa"} == \
            {k: v for k, v in events.title(event, "moonsighting").items() if k != "fa"}


def test_the_glossary_refuses_a_bad_row(tmp_path, monkeypatch):
    good = "id,en,ar,fa,ur,note\nx.y,Fajr,الفجر,صبح,فجر,a note\n"
    for bad, message in (
        ("x.y,Fajr,الفجر,صبح,,a note", "no ur text"),
        ("x.y,Fajr,الفجر,صبح,فجر,", "no note"),
        ("x.y,{city} time,توقيت {city},وقت {shahr},{city} کا وقت,a note", "placeholders differ"),
        ("x.y,Fajr,الفجر,صبح,فجر ي,a note", "Arabic yeh"),
        ("x.y,at 5,في 5,ساعت ۵,۵ بجے,a note", "ASCII digits"),
    ):
        path = tmp_path / "glossary.csv"
        path.write_text(good.splitlines()[0] + "\n" + bad + "\n", encoding="utf-8")
        monkeypatch.setattr(glossary, "GLOSSARY_PATH", path)
        with pytest.raises(glossary.GlossaryError, match=message):
            glossary.terms.__wrapped__()
    path.write_text(good, encoding="utf-8")
    assert glossary.terms.__wrapped__()["x.y"]["ar"] == "الفجر"


def test_coordinates_name_the_hemisphere():
    from generator.words import page_words as words

    assert words.coordinate(-33.87, "lat", "en") == "33.87° S" and words.coordinate(-0.13, "lng", "en") == "0.13° W"
    # in right-to-left text each figure and its sign isolated left to right (review 7, ur UR7-05: the sign stood on
    # either side of the figures of one line)
    assert words.coordinate(33.32, "lat", "ar") == "\u2066٣٣٫٣٢°\u2069 شمالاً"
    assert words.coordinate(44.37, "lng", "ur") == "\u2066۴۴٫۳۷°\u2069 مشرقی"
