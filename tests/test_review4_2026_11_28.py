"""The fourth gallery pass of 28 November (issue 33; /work/briefs/review4-{ar,fa,ur}.md, gallery g3): the findings
taken by words33c that a test can tell, each against the reader's own proposed words or an independent source named
in its docstring.  (The clock change is tests/test_clock_change.py; the screen's authority bracket is measured in
tests/test_screen_legibility_browser.py.)"""

from __future__ import annotations

import re
from datetime import date

from generator.prayer import place_defaults
from generator.site import mosque_page


def _card(html: str) -> str:
    start = html.index('class="today-card')
    return html[start:html.index("</section>", start)]


def test_ar4_05_a_centre_placed_by_coordinates_keeps_the_nights_every_community_keeps():
    """Gallery review 4, ar AR4-05: the Toronto centre's card on 9 Muharram 1448 (Thursday 25 June 2026 under the
    Najaf reckoning it keeps) named Tasua but not the night of Ashura, which every Shia community keeps
    (docs/decisions.md "Each community's events": the rows for every community, `*`, in data/events_local.csv).  The
    centre is placed by coordinates; its zone, America/Toronto, is Canada's in the tz database's zone.tab (`CA
    +4339-07923 America/Toronto`), so its page now keeps Canada's community: the catalogue and the nights.
    The reader's words: «ليلة العاشر من المحرم — تبدأ عند غروب الشمس»; on Ashura «ليلة الحادي عشر …»."""
    assert place_defaults.place_community({"lat": 43.8417, "lng": -79.4608, "tz": "America/Toronto"}) == "CA"
    assert place_defaults.place_community({"city": "karbala", "tz": "Asia/Baghdad"}) == "IQ"
    tasua = _card(mosque_page.render(date(2026, 6, 25), "jaffari-toronto", "ar").decode())
    assert "تاسوعاء — يوم أبي الفضل العباس (ع)" in tasua
    assert "ليلة العاشر من المحرم — تبدأ عند غروب الشمس" in tasua
    ashura = _card(mosque_page.render(date(2026, 6, 26), "jaffari-toronto", "ar").decode())
    assert "ليلة الحادي عشر من المحرم — تبدأ عند غروب الشمس" in ashura
    ordinary = _card(mosque_page.render(date(2026, 6, 24), "jaffari-toronto", "ar").decode())
    assert "ليلة" not in " ".join(re.findall(r'<p class="slots">(.*?)</p>', ordinary))


def test_ar4_04_ur4_01_lang4_08_the_mosque_cards_and_notes_in_the_readers_words():
    """Gallery review 4: ar AR4-04, the abstaining on Ashura is an act of mourning («حزناً», as the rulings put it
    «على وجه الحزن»), with Toronto's own asr (5:28, the reader's figure); ur UR4-01 and fa LANG4-08, the midnight note
    without «API» / «رابط برنامه‌نویسی», the readers' proposed words."""
    ashura = _card(mosque_page.render(date(2026, 6, 26), "jaffari-toronto", "ar").decode())
    assert "يُستحب في يوم عاشوراء الإمساك عن الطعام والشراب حزناً إلى ما بعد العصر (٥:٢٨)، من غير نية الصوم." in ashura
    urdu = mosque_page.render(date(2026, 11, 30), "jaffari-toronto", "ur").decode()
    assert "نصف شب: مغرب اور اگلی فجر کے عین درمیان (اس سروس کا طے شدہ حساب)؛" in urdu and "API\u2069 کا طے شدہ" not in urdu


def test_ar4_08_ar4_09_ur4_04_error_page_builder_and_screen_words(client):
    """Gallery review 4: ar AR4-08, the 429 page's «من هذا العنوان» read as the page's address printed under it (the
    400 and 404 pages use «العنوان» so): now «من جهازك أو شبكتك»; ar AR4-09, «إلى حدّ وقت الصلاة» named no edge (the
    jamaat moves both ways, docs/decisions.md "Jamaat"): «إلى أقرب وقتٍ ممكن داخل وقت الصلاة»; ur UR4-04, no adhan
    for sunrise or midnight: the screen's column head «وقت», as the Persian screen's."""
    from generator.site import routes

    page = routes.error_page("/ar/", 429).decode()
    assert "تجاوزت الطلبات الواردة من جهازك أو شبكتك الحدَّ المسموح به في الدقيقة." in page
    assert "من هذا العنوان" not in page
    builder = client.get("/mosque/new/ar/").text
    assert "تُنقل الجماعة إلى أقرب وقتٍ ممكن داخل وقت الصلاة" in builder and "حدّ وقت الصلاة" not in builder
    screen = client.get("/screen/?city=karachi&lang=ur").text
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", screen)
    assert "وقت" in heads and "اذان" not in heads, heads


def test_lang4_05_the_second_day_of_eid_says_holiday_once():
    """Gallery review 4, fa LANG4-05: Tehran's row of 2 Shawwal 1447 (Sunday 22 March 2026: Eid al-Fitr was Saturday
    21 March in Iran's official calendar, as the reader read it) said «تعطیل به مناسبت عید سعید فطر (روز دوم) — تعطیل
    رسمی».  The reader's words: «روز دوم عید سعید فطر — تعطیل رسمی»."""
    from generator.site import timetable

    html = timetable.render(date(2026, 3, 21), "tehran", "fa").decode()
    row = re.search(r'<tr data-date="2026-03-22".*?</tr>', html, re.S).group(0)
    assert "روز دوم عید سعید فطر — تعطیل رسمی" in row and "تعطیل به مناسبت" not in html


def _vevents(ics: str) -> list[dict]:
    """The feed's events as {SUMMARY, DESCRIPTION} (lines unfolded, RFC 5545 3.1; text unescaped)."""
    text = re.sub(r"\r\n[ \t]", "", ics)
    out = []
    for block in re.findall(r"BEGIN:VEVENT\r\n(.*?)END:VEVENT", text, re.S):
        fields = dict(re.findall(r"^([A-Z-]+)(?:;[^:]*)?:(.*)$", block, re.M))
        out.append({k: fields.get(k, "").replace("\\n", "\n").replace("\\,", ",").replace("\\;", ";")
                    for k in ("SUMMARY", "DESCRIPTION")})
    return out


def test_lang4_07_a_community_feed_dates_a_night_as_the_night_of_its_day(client):
    """Gallery review 4, fa LANG4-07: in Tehran's community feed the night of Ashura's event (on its eve, 9 Muharram)
    opened its description with the bare «۱۰ محرم ۱۴۴۹ ه‍.ق», which is the day of Ashura.  The reader's words:
    «شبِ ۱۰ محرم ۱۴۴۹ ه‍.ق».  The feed without community keeps the SPEC's line (the catalogue's Qadr night: «۱۹
    رمضان …» bare)."""
    community = _vevents(client.get("/v1/events.ics?calendar=iran&community=IR&lang=fa").text)
    ashura_night = [e for e in community if e["SUMMARY"].startswith("شب عاشورا")]
    assert ashura_night and all(e["DESCRIPTION"].startswith("شبِ ۱۰ محرم ") for e in ashura_night), ashura_night
    tasua = [e for e in community if e["SUMMARY"].startswith("تاسوعای حسینی")]
    assert tasua and all(e["DESCRIPTION"].startswith("۹ محرم ") for e in tasua), tasua
    spec = _vevents(client.get("/v1/events.ics?calendar=iran&lang=fa").text)
    qadr = [e for e in spec if "۱۹ رمضان" in e["DESCRIPTION"].split("\n")[0]]
    assert qadr and not any(e["DESCRIPTION"].startswith("شبِ") for e in spec), qadr
