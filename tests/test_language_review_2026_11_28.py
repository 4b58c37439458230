"""The words, names, notes and dates of the language review of 2026-11-28 (issue 33;
shared/reference/language_review_2026-11-28/ar.md, fa.md, ur.md): each test names the finding it covers and asserts
the reviewer's own proposed text, or a fact the reviewer cites, on the surface the reviewer read.
(The findings on midnight, authorities and forecasts: tests/test_authority_midnight.py and
tests/test_authorities_named.py.)
"""
from __future__ import annotations

import json
import re
from datetime import date, datetime, timezone

import icalendar
from conftest import call

from generator.site import builder, mosque_page, routes, timetable

NOW_S = datetime(2026, 11, 28, 12, tzinfo=timezone.utc).timestamp()
TODAY = date(2026, 11, 28)


def test_ur_15_the_imsak_note_says_the_precaution_is_recommended():
    """UR-15 (W): «احتیاط یہ ہے کہ …» is how an Urdu risala words an obligatory precaution, contradicting "eating is
    allowed until dawn"; the reviewer's text: «… امساک کے وقت سے کھانا پینا چھوڑ دینا احتیاطِ مستحب ہے۔»."""
    ramadan = datetime(2027, 2, 15, 12, tzinfo=timezone.utc).timestamp()  # Ramadan 1448 under pakistan
    body = call("prayer-times.ics", ramadan, city="karachi", lang="ur", days=7, calendar="pakistan", ramadan=1)
    notes = {str(e["DESCRIPTION"]) for e in icalendar.Calendar.from_ical(body).walk("VEVENT")
             if "امساک" in str(e["SUMMARY"])}
    assert notes and all("امساک کے وقت سے کھانا پینا چھوڑ دینا احتیاطِ مستحب ہے۔" in n for n in notes), notes
    assert not any("احتیاط یہ ہے" in n for n in notes)


def test_fa_02_asr_and_isha_are_headed_as_their_fadhila_times():
    """FA-02 (W): «عصر ۱۴:۳۳» beside «اذان ظهر ۱۱:۵۲» told Iranians who pray dhuhr and asr together at noon that they
    prayed asr before its time; the computed times are the start of the fadhila: «فضیلت عصر», «فضیلت عشا»."""
    html = timetable.render(TODAY, "tehran", "fa", now_s=NOW_S).decode()
    heads = re.findall(r'<th scope="col" class="time">([^<]*)</th>', html)
    assert "فضیلت عصر" in heads and "فضیلت عشا" in heads and "عصر" not in heads and "عشا" not in heads, heads


def test_ur_05_the_builders_default_method_is_not_said_to_prevail_in_karachi():
    """UR-5 (E): «(اس مقام پر رائج)» said Karachi's Shia mosques follow the Tehran default; it is what the service
    sets for the place: «(اس مقام کے لیے طے شدہ)»."""
    html = builder.render(TODAY, "ur").decode()
    assert "(اس مقام کے لیے طے شدہ)" in html and "رائج" not in html


def test_ur_30_32_the_error_pages_lead_in_urdu_words_for_a_web_address():
    """UR-30 (E), UR-32 (E), UR-37: «غلط پتہ» reads as a postal address and «یہ صفحہ … استعمال نہیں کر سکتا» is a
    calque; the 429 text's «اس پتے سے» read as "from this page's address"."""
    bad = routes.error_page("/screen/", 400, "ur", "city: unknown city id").decode()
    assert "غلط لنک" in bad and "اس لنک کی ایک ترتیب درست نہیں:" in bad and "پتہ" not in bad
    many = routes.error_page("/ur/", 429).decode()
    assert "آپ کے کنکشن (آئی پی ایڈریس) سے ایک منٹ میں" in many and "اس پتے سے" not in many
    missing = routes.error_page("/city/nowhere/ur/", 404).decode()
    assert "اس لنک پر کوئی صفحہ موجود نہیں۔" in missing


def test_ar_e4_no_arabic_event_title_puts_a_second_colon_in_the_band(client):
    """E4 (E): «اليوم: عاشوراء: استشهاد الإمام الحسين (ع)» (the screen's band on Ashura): the titles use « — »."""
    events = client.get("/v1/events").json()["events"]
    assert not [e["title"]["ar"] for e in events if ":" in e["title"]["ar"]]
    ashura = next(e for e in events if e["id"] == "ashura")
    assert ashura["title"]["ar"] == "عاشوراء — استشهاد الإمام الحسين (ع)"


def test_fa_25_ur_33_ar_g1_the_mosque_page_dates_and_sources_in_the_pages_language():
    """FA-25 (E): a Qom mosque's page had no Solar Hijri date and printed «(2026-11-23)» in ASCII digits; UR-33 (E):
    «(انگریزی میں)» stood above a source written in Urdu; G1 (E): English sources on the Arabic page were not said
    to be English.  The Toronto centre's sources were read on 23 November 2026 = 2 Azar 1405 (the Solar Hijri year
    1405 began on 21 March 2026)."""
    fa = mosque_page.render(TODAY, "jaffari-toronto", "fa", now_s=NOW_S).decode()
    assert "شنبه ۷ آذر ۱۴۰۵ — " in fa and " — ۲۸ نوامبر ۲۰۲۶" in fa  # 28 Nov 2026 = 7 Azar 1405, Shamsi first
    sources = re.search(r'<section class="sources".*?</section>', fa, re.S).group(0)
    assert "(۲ آذر ۱۴۰۵)" in sources and "2026-11-23" not in sources and "(به انگلیسی)" in sources
    ar = re.search(r'<section class="sources".*?</section>', mosque_page.render(TODAY, "jaffari-toronto", "ar",
                                                                              now_s=NOW_S).decode(), re.S).group(0)
    assert "(بالإنجليزية) <span lang=\"en\" dir=\"ltr\">" in ar and "(٢٣ تشرين الثاني ٢٠٢٦)" in ar
    ur = mosque_page.render(TODAY, "jaffari-toronto", "ur", now_s=NOW_S).decode()
    assert "<h2 id=\"h-sources\">ان اوقات کے ماخذ</h2>" in ur


def test_fa_25_an_urdu_source_is_not_called_english():
    """UR-33 (E): a source the committee wrote in Urdu («مسجد کمیٹی کا نظام الاوقات») is not marked English."""
    item = mosque_page.source_item({"about": "مسجد کمیٹی کا نظام الاوقات", "read": "2026-11-28"}, "ur")
    assert not item["english"] and item["marker"] is None and item["read"] == "۲۸ نومبر ۲۰۲۶"
    english = mosque_page.source_item({"about": "The committee's timetable", "read": "2026-11-28"}, "ur")
    assert english["english"] and english["marker"] == "(انگریزی میں)"


def test_ar_d1_d15_ur_08_the_builders_words_for_its_preview(client):
    """D1 (E): the preview's jamaat head is «جماعة الفجر», from a whole phrase, not «الإقامة» + «الفجر»; D15 (E): the
    Jumu'ah and Eid slots are joined by the language's separator, not « · » (a Persian zero in Arabic script); UR-8
    (E): a 429 in the preview says the builder's own Urdu sentence, not «قبول نہیں کیا گیا: more than 100 cost
    units…»."""
    import json

    html = client.get("/mosque/new/ar/").text
    config = json.loads(re.search(r'<script type="application/json" id="builder-config">(.*?)</script>', html,
                                  re.S)[1])
    assert config["words"]["jamaatOf"].replace("{prayer}", "الفجر") == "جماعة الفجر"
    assert config["words"]["sep"] == " — " and config["words"]["comma"] == "، "
    script = html  # the builder's script is inline
    assert 'W.jamaat + " " + W.prayers' not in script and 'parts.join(" · ")' not in script
    assert "response.status === 429" in script.split("async function preview")[1].split("function ")[0]


def test_fa_06_irans_clock_is_named_after_iran_on_mashhads_page():
    """FA-06 (S): «وقت تهران (Asia/Tehran)» on the Mashhad page read as if its table were at Tehran's horizon, the
    opposite of «به افق مشهد»; Iran has one clock, «وقت رسمی ایران»."""
    html = timetable.render(TODAY, "mashhad", "fa", now_s=NOW_S).decode()
    place = re.search(r'<p class="place">(.*?)</p>', html, re.S).group(1)
    assert "وقت رسمی ایران" in place and "وقت تهران" not in place, place


def test_fa_09_the_imsakiya_says_when_the_fast_begins_and_not_the_timetables_columns():
    """FA-09 (S), UR-4 (S): the imsakiya repeated the timetable's note on its «رؤیت» and «تقویم ایران» columns, which
    it has not, and had no line that the fast begins at the dawn adhan, imsak a precaution (every Iranian imsakiya
    carries it); a regional reckoning is named by its committee in the header (Karachi: the Central Ruet-e-Hilal
    Committee), not by the «پاکستان» label of a column the imsakiya has not (gallery review UR2-18, UR2-33)."""
    from generator.site import imsakiya

    tehran = imsakiya.render(TODAY, "tehran", "fa", now_s=NOW_S).decode()
    assert "روزه از اذان صبح آغاز می‌شود" in tehran and "«تقویم ایران» طبق تقویم رسمی ایران" not in tehran
    karachi = imsakiya.render(TODAY, "karachi", "ur", now_s=NOW_S).decode()
    assert "مہینے کی تاریخیں مرکزی رویتِ ہلال کمیٹی پاکستان کے اعلان" in karachi and "«پاکستان»:" not in karachi
    assert "احتیاطِ مستحب" in karachi and "«نجف اشرف» نجف اشرف میں" not in karachi


def test_fa_13_irans_civic_days_as_its_official_calendar_names_them():
    """FA-13 (S): the official calendar names 20 Jumada al-Thani «روز زن» with «روز مادر», 13 Jumada al-Thani «روز
    تکریم مادران و همسران شهدا» and 1 Dhu al-Hijja «روز ازدواج» (the reviewer's text); shown under the iran
    reckoning only (Tehran's page of November-December 2026: 30 Nov = 20 Jumada al-Thani 1448 there)."""
    html = timetable.render(TODAY, "tehran", "fa", now_s=NOW_S).decode()
    assert "ولادت حضرت فاطمه زهرا (س)، روز زن و مادر" in html
    assert "وفات حضرت ام‌البنین (س) — روز تکریم مادران و همسران شهدا" in html
    london = timetable.render(TODAY, "london", "fa", now_s=NOW_S).decode()
    assert "روز زن و مادر" not in london and "ولادت حضرت فاطمه زهرا (س)" in london


def test_ur2_28_the_moon_page_names_the_evening_of_the_29th_not_a_sighting():
    """Gallery review, second pass (docs/reviews/gallery-2026-11-28-second-ur.md), UR2-28: «رویت کی شام» reads in
    Urdu as the evening the crescent is seen, so a reader took Ramadan 1448 to begin on 8 February while the same page
    forecast the 9th.  The evening meant is the 29th of Sha'ban's, when the crescent is looked for."""
    from generator.site import moon_page

    page = moon_page.render(date(2026, 11, 30), 1448, 9, "ur").decode()
    assert "رویت کی شام" not in page
    assert "انتیس تاریخ کی شام (چاند دیکھنے کی شام):" not in page  # "the 29th" of no month (third pass, UR3-05)
    assert "۲۹ شعبان المعظم کی شام (چاند دیکھنے کی شام):" in page


def test_fa_05_r13_the_imsakiya_leads_with_the_solar_hijri_date_in_irans_official_time():
    """FA-05 (S), gallery review R-13 (S): the Persian imsakiya's span and month start led with the Gregorian date
    («۸ فوریه ۲۰۲۷ – ۹ مارس ۲۰۲۷», «آغاز ماه: ۸ فوریه ۲۰۲۷») and put «خورشیدی» after «تاریخ»; the reviewer's text is
    «۱۹ بهمن ۱۴۰۵ (۸ فوریه ۲۰۲۷)» (his own conversion: Ramadan 1448 begins 8 February 2027 under Iran's calendar),
    the Solar Hijri column first, and the times said to be «به وقت رسمی ایران» (FA-06)."""
    from generator.site import imsakiya

    html = imsakiya.render(TODAY, "tehran", "fa", now_s=NOW_S).decode()
    meta = re.search(r'<p class="imsakiya-meta no-print">(.*?)</p>', html, re.S).group(1)
    assert meta.startswith("۱۹ بهمن ۱۴۰۵ – "), meta
    assert "(۸ فوریه ۲۰۲۷ – " in meta and "اوقات به وقت رسمی ایران" in meta, meta
    assert "): ۱۹ بهمن ۱۴۰۵ (۸ فوریه ۲۰۲۷)." in html and "آغاز ماه (" in html  # LANG4-06: the source first
    heads = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', html)
    assert heads.index("خورشیدی") < heads.index("میلادی"), heads  # the Gregorian column named so (fa LANG3-18)
    london = imsakiya.render(TODAY, "london", "en", now_s=NOW_S).decode()
    assert "official time" not in london and "Month start: " in london


def test_fa_06_a_qom_feed_gives_its_times_in_irans_official_time_not_qoms():
    """FA-06 (S) in the feeds: «ساعت ۰۵:۲۵ به وقت قم» on a Qom feed read as Qom's own clock; Iran has one
    (Asia/Tehran), which Iranian tables call «به وقت رسمی ایران»."""
    body = call("prayer-times.ics", NOW_S, city="qom", lang="fa", days=7).decode()
    summaries = [str(e["DESCRIPTION"]) for e in icalendar.Calendar.from_ical(body).walk("VEVENT")]
    assert summaries and all("به وقت رسمی ایران" in s and "به وقت قم" not in s for s in summaries), summaries[:2]


def test_fa_18_r02_the_widget_and_screen_lead_with_the_solar_hijri_date_and_irans_official_time():
    """FA-18 (S), gallery review R-02 (S): «دوشنبه ۳۰ نوامبر ۲۰۲۶ — ۹ آذر ۱۴۰۵ — ۲۰ جمادی‌الثانی ۱۴۴۸» on the widget;
    the reviewer's order is «دوشنبه ۹ آذر ۱۴۰۵» / «۲۰ جمادی‌الثانی ۱۴۴۸» / «۳۰ نوامبر ۲۰۲۶» (the weekday with the Solar
    Hijri date; 30 November 2026 = 9 Azar 1405, the reviewer's conversion), and the times «به وقت رسمی ایران»."""
    from generator.site import screen

    now = datetime(2026, 11, 30, 6, 30, tzinfo=timezone.utc).timestamp()
    for kind in ("widget", "screen"):
        query = screen.parse(kind, [("city", "tehran"), ("lang", "fa")], now)
        html = screen.render(query, date(2026, 11, 30)).decode()
        dates = [t for t in re.findall(r'class="(shamsi|hijri-date|hijri|gregorian)"[^>]*>([^<]*)<', html) if t[1]]
        assert [name for name, _ in dates][:1] == ["shamsi"] and dates[0][1] == "دوشنبه ۹ آذر ۱۴۰۵", (kind, dates)
        assert dates[-1] == ("gregorian", "۳۰ نوامبر ۲۰۲۶"), (kind, dates)
        assert 'class="official-time">اوقات به وقت رسمی ایران</' in html, kind  # the screen: on the method's line
    karachi = screen.render(screen.parse("widget", [("city", "karachi"), ("lang", "ur")], now), date(2026, 11, 30))
    assert b'class="official-time"' not in karachi


# --- S findings of the gallery reviews of 2026-11-28 (docs/reviews/gallery-2026-11-28-{ar,fa,ur}.md) taken ----------

def test_gallery_ar_f5_f7_f8_the_arabic_screen_says_jamaa_and_the_time_in_brackets():
    """Gallery review ar F5 (S): a Karbala mosque heads the column «الجماعة», not «الإقامة»; F7 (S): «الهاتف
    النقال», not the Gulf «الجوال»; F8 (S): «المتبقي لصلاة العيد (٧:٣٠ ص)», not «… الساعة ٧:٣٠ ص». (F6, «أول وقت
    الفضيلة», is not taken: it overflows the row; the asr and isha rows keep «وقت الفضيلة».)"""
    from generator.site import screen

    now = datetime(2026, 11, 30, 7, tzinfo=timezone.utc).timestamp()
    query = screen.parse("screen", [("city", "karbala"), ("lang", "ar"),
                                    ("jamaat", "fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib")], now)
    html = screen.render(query, date(2026, 11, 30)).decode()
    assert '<th scope="col" class="jamaat">الجماعة</th>' in html and ">الإقامة<" not in html
    assert html.count('<small class="fadhila">وقت الفضيلة</small>') == 2
    assert "يرجى إغلاق الهاتف النقال أو وضعه على الصامت" in html and "الجوال" not in html
    assert '"until_eid":"المتبقي لصلاة العيد ({time})"' in html and "الساعة {time}" not in html
    builder_html = builder.render(TODAY, "ar").decode()
    assert "بلا وقت جماعة" in builder_html and "بلا وقت إقامة" not in builder_html


def test_gallery_ar_f11_f14_fa_r09_ur2_8_the_imsakiya_and_error_pages_in_the_readers_words():
    """Gallery review ar F11b (S): «بداية الشهر حسب {calendar}» with no colon after the preposition; F11c (S): «ليالي
    القدر (ليالي ١٩ و٢١ و٢٣ من شهر رمضان)»; ar F14 and fa R-09 (= FA-12, S): the 400 lead «تعذّر على الصفحة قراءة
    أحد معاملات هذا العنوان:» and «یکی از پارامترهای این نشانی نادرست است:»; fa R-09 (= FA-31): the 429 text «در یک
    دقیقهٔ گذشته از نشانی IP شما بیش از حد مجاز درخواست رسیده است.»; ur UR2-8: «لنک سے date ہٹا دیں», not «پتے سے»."""
    from generator.site import imsakiya

    html = imsakiya.render(TODAY, "karbala", "ar", now_s=NOW_S).decode()
    assert "بداية الشهر حسب " in html and "بداية الشهر حسب:" not in html
    assert "ليالي القدر (ليالي ١٩ و٢١ و٢٣ من شهر رمضان)" in html
    assert "تعذّر على الصفحة قراءة أحد معاملات هذا العنوان:" in routes.error_page("/screen/", 400, "ar", "x").decode()
    assert "یکی از پارامترهای این نشانی نادرست است:" in routes.error_page("/screen/", 400, "fa", "x").decode()
    many = routes.error_page("/fa/", 429).decode()
    assert "در یک دقیقهٔ گذشته از نشانی" in many and "آماده می‌کند" not in many
    missing = routes.error_page("/ar/nothing/", 404).decode()
    assert "تجد قائمة المدن وتوثيق الواجهة البرمجية في الصفحة الرئيسية." in missing
    from generator.words import glossary

    assert "لنک سے {name} ہٹا دیں" in glossary.term("error.screen_follows_today")["ur"]


def test_gallery_fa_r05_fa_19_fa_31_persian_notes_without_a_marja_a_calque_or_arithmetic():
    """Gallery review fa R-05 (S): «چنان‌که مرجعِ این روش محاسبه تعریف کرده است» reads «مرجع» as a marja' taqlid; FA-19
    (S): «تا در وقت نماز بماند» is a calque, «تا پیش از پایان وقت ادا شود» the fiqh phrase; FA-31 (S): the night
    feed's «مغرب به‌علاوهٔ دو سوم فاصله» → «(پس از گذشتن دو سوم از فاصلهٔ اذان مغرب تا اذان صبح)»."""
    html = timetable.render(TODAY, "tehran", "fa", now_s=NOW_S).decode()
    assert "چنان‌که نهادِ تعریف‌کنندهٔ این روش محاسبه آن را تعریف کرده است" in html and "مرجعِ این روش" not in html
    from generator.words import glossary

    assert glossary.term("page.screen.moved_end")["fa"].startswith("نماز جماعت زودتر برگزار می‌شود تا پیش از پایان وقت ادا شود")
    body = call("night.ics", NOW_S, city="tehran", lang="fa").decode()
    description = str(icalendar.Calendar.from_ical(body).get("X-WR-CALDESC"))
    assert "(پس از گذشتن دو سوم از فاصلهٔ اذان مغرب تا اذان صبح)" in description, description


def test_gallery_ur2_18_ur2_5_the_urdu_imsakiya_heads_say_sehri_and_iftar():
    """Gallery review ur UR2-18 (S): under «نظام الاوقاتِ سحر و افطار» the columns «امساک … مغرب» did not say which is
    the end of sehri and which is iftar: «امساک (اختتامِ سحری)», «مغرب (افطار)» (the reviewer's text; the mosque's
    Ramadan table already had «(افطار)»); UR2-5: «یہ اعداد JSON API سے لیے گئے ہیں:», not «یہی اعداد JSON API سے:».
    The Persian keeps «امساک» alone, as Iranian imsakiyas print it."""
    from generator.site import imsakiya

    html = imsakiya.render(TODAY, "karachi", "ur", now_s=NOW_S).decode()
    heads = re.findall(r'<th scope="col" class="time"[^>]*>([^<]*)</th>', html)
    assert "امساک (اختتامِ سحری)" in heads and "مغرب (افطار)" in heads, heads
    tehran = imsakiya.render(TODAY, "tehran", "fa", now_s=NOW_S).decode()
    assert "امساک" in re.findall(r'<th scope="col" class="time"[^>]*>([^<]*)</th>', tehran)
    page = timetable.render(TODAY, "karachi", "ur", now_s=NOW_S).decode()
    assert "یہ اعداد ⁦JSON API⁩ سے لیے گئے ہیں:" in page and "یہی اعداد" not in page


def test_fa_05_r08_a_nights_eve_in_the_persian_feed_is_its_solar_hijri_date_first():
    """FA-05 (S), gallery review R-08 (S): «از غروب آفتاب روز ۲۳ ژانویه ۲۰۲۷ آغاز می‌شود.» made an Iranian convert the
    date in the head; the reviewer's order is the Solar Hijri date with the Gregorian in brackets. Reference: the Solar
    Hijri date counted here from Nowruz 1404 = 21 March 2025 (Iran's Calendar Center; tests/test_shamsi.py's table),
    six months of 31 days then five of 30; the Arabic feed keeps its Gregorian date."""
    months = ("فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور", "مهر", "آبان", "آذر", "دی", "بهمن", "اسفند")
    persian = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")

    def solar(day: date) -> str:
        left = (day - date(2025, 3, 21)).days
        for month, length in enumerate([31] * 6 + [30] * 5 + [29]):
            if left < length:
                return f"{left + 1} {months[month]} 1404".translate(persian)
            left -= length
        raise AssertionError(day)

    body = call("events.ics", datetime(2025, 11, 28, 12, tzinfo=timezone.utc).timestamp(), lang="fa", calendar="iran")
    seen = 0
    for event in icalendar.Calendar.from_ical(body).walk("VEVENT"):
        line = re.search(r"از غروب آفتاب روز (.*?) آغاز می‌شود\.", str(event.get("DESCRIPTION", "")))
        if line is None:
            continue
        eve = event.decoded("DTSTART")  # a night's event is on its eve, the day its sunset begins it
        eve = eve.date() if isinstance(eve, datetime) else eve
        if date(2025, 3, 21) <= eve < date(2026, 3, 21):
            text = line.group(1)
            assert text.startswith(f"{solar(eve)} ("), (text, eve)  # then the Gregorian date in brackets
            assert re.fullmatch(rf".*\({str(eve.day).translate(persian)} \S+ {str(eve.year).translate(persian)}\)", text), text
            seen += 1
    assert seen, "a night within 1404 in the feed"


def test_fa_05_r06_a_persian_month_table_is_headed_by_its_solar_hijri_months():
    """FA-05 (S), gallery review R-06 (S): «نوامبر ۲۰۲۶ — آبان ۱۴۰۵ – آذر ۱۴۰۵ — …» led with the Gregorian month, and the
    mosque page's «نوامبر ۲۰۲۶ — جمادی‌الاول ۱۴۴۸ – …» had no Solar Hijri month at all; the reviewer's order is «آبان –
    آذر ۱۴۰۵ (نوامبر ۲۰۲۶) — جمادی‌الاول – جمادی‌الثانی ۱۴۴۸». Reference: 1 November 2026 is 10 Aban 1405 and
    30 November 9 Azar 1405 (the reviewer's «دوشنبه ۹ آذر ۱۴۰۵» for 30 November), so November spans Aban and Azar."""
    for html in (timetable.render(TODAY, "tehran", "fa", now_s=NOW_S).decode(),
                 mosque_page.render(TODAY, "jaffari-toronto", "fa", now_s=NOW_S).decode()):
        heads = re.findall(r'<h2 id="h-[^"]*">([^<]*)<span class="hijri-caption">', html)
        assert "آبان ۱۴۰۵ – آذر ۱۴۰۵ (نوامبر ۲۰۲۶) " in heads, heads
    arabic = timetable.render(TODAY, "karbala", "ar", now_s=NOW_S).decode()
    assert "تشرين الثاني ٢٠٢٦ " in re.findall(r'<h2 id="h-[^"]*">([^<]*)<span class="hijri-caption">', arabic)


def test_ur3_01_the_city_pages_today_card_says_ashuras_abstaining():
    """Gallery review, third pass (docs/reviews/gallery-2026-11-28-third-ur.md), UR3-01 (W): on Ashura morning the
    Karachi page's today card (what a 390-px phone shows first) said nothing of abstaining until after asr; the line
    was only in the month table's events column, off the screen.  Reference: the reader's calendar, Ashura 1448 kept
    in Karachi on Friday 26 June 2026 (the Central Ruet-e-Hilal Committee's Muharram), and the reader's own text."""
    now = datetime(2026, 6, 26, 5, tzinfo=timezone.utc).timestamp()  # 10:00 in Karachi (UTC+5)
    html = timetable.render(date(2026, 6, 26), "karachi", "ur", now_s=now).decode()
    card = re.search(r'<section class="today-card.*?</section>', html, re.S).group(0)
    practice = re.search(r'<p class="card-event practice">([^<]*)</p>', card)
    assert practice and "عصر" in practice.group(1) and "روزے کی نیت کے بغیر" in practice.group(1), card
    assert "عاشور" in card  # the day itself named on the card


# --- The third gallery pass's remaining S findings (docs/site.md "Remaining S findings, 28 November (words33b)") -----

def test_lang3_08_the_band_of_a_tehran_screen_names_irans_civic_day_as_the_city_table_does():
    """Gallery review fa LANG3-08 (third pass): on 30 November 2026 (20 Jumada II 1448 on Iran's calendar) the band
    said «امروز: ولادت حضرت فاطمه زهرا (س)» where the city table and the feed say «…، روز زن و مادر», the title Iran's
    official calendar gives the day (Women's and Mothers' Day).  The band reads /v1/day-status' titles, which now
    follow /v1/events' under ``calendar=iran``; under the SPEC's default reckoning the title is the catalogue's."""
    iran = json.loads(call("day-status", NOW_S, date="2026-11-30", calendar="iran"))
    assert [e["title"]["fa"] for e in iran["events"]] == ["ولادت حضرت فاطمه زهرا (س)، روز زن و مادر"]
    assert iran["events"][0]["title"]["en"] == "Birth of Fatima al-Zahra (a)"  # English unchanged
    najaf = json.loads(call("day-status", NOW_S, date="2026-12-01"))  # 20 Jumada II under the Sistani office's months
    assert [e["title"]["fa"] for e in najaf["events"]] == ["ولادت حضرت فاطمه زهرا (س)"]


def test_lang3_04_the_mosque_pages_card_names_the_centres_tasua():
    """Gallery review fa LANG3-04 (ur UR3-02, ar AR2-04): on Thursday 25 June 2026, 9 Muharram 1448 by the Sistani
    office's months (1 Muharram = 17 June 2026, its announcement in data/announced_month_starts.csv), the Toronto
    centre's card said only the dates; the reader's text names the day «تاسوعای حسینی»."""
    now = datetime(2026, 6, 25, 20, 30, tzinfo=timezone.utc).timestamp()  # 16:30 in Toronto
    html = mosque_page.render(date(2026, 6, 25), "jaffari-toronto", "fa", now_s=now).decode()
    card = re.search(r'<section class="today-card.*?</section>', html, re.S).group(0)
    assert "۹ محرم ۱۴۴۸" in card and '<p class="slots">تاسوعای حسینی</p>' in card, card
    ashura = mosque_page.render(date(2026, 6, 26), "jaffari-toronto", "ar", now_s=now + 86400 - 6 * 3600).decode()
    card = re.search(r'<section class="today-card.*?</section>', ashura, re.S).group(0)
    assert "عاشوراء" in card and "من غير نية الصوم" in card, card


def test_lang3_09_15_16_persian_heads_titles_and_the_midnight_note_without_a_marja():
    """Gallery review fa LANG3-09: the screen's and widget's column over sunrise, midnight and the fadhila rows is
    «وقت», not «اذان»; LANG3-15: «مرجع» on the mosque page's midnight note reads as a marja' taqlid; LANG3-16: the
    page's title leads with «اوقات شرعی», and another marja's office is «دفتر آیت‌الله فضل‌الله»."""
    from generator.site import screen

    now = datetime(2026, 11, 30, 6, 30, tzinfo=timezone.utc).timestamp()
    for kind in ("screen", "widget"):
        html = screen.render(screen.parse(kind, [("city", "tehran"), ("lang", "fa")], now), date(2026, 11, 30)).decode()
        heads = re.findall(r'<th scope="col"[^>]*>([^<]*)<', html)
        assert heads[:3] == ["نماز", "وقت", "جماعت"], (kind, heads)
    page = mosque_page.render(date(2026, 11, 30), "jaffari-toronto", "fa", now_s=now).decode()
    # «آن» for an institute, and no «رابط برنامه‌نویسی» (gallery review 4, LANG4-08)
    assert "مرجع" not in page and "از نهادی که این روش محاسبه به نام آن است، تعریفی برای نیمه‌شب شرعی نیافتیم." in page
    assert "(محاسبهٔ پیش‌فرض این سامانه)" in page and "رابط برنامه‌نویسی است" not in page
    assert re.search(r"<title>اوقات شرعی — ⁨Jaffari Community Centre⁩</title>", page)
    assert "تاریخ‌های قمری و روزهای عید طبق رؤیت هلالِ اعلام‌شده از سوی دفتر حضرت آیت‌الله العظمی سیستانی در نجف اشرف است." in page
    assert "قمری (دفتر آیت‌الله فضل‌الله)" in builder.render(TODAY, "fa").decode()


def test_lang3_14_lang3_13_the_persian_moon_page_says_what_each_cell_holds_and_which_month():
    """Gallery review fa LANG3-14: «(هر خانه: مساعدترِ این دو)» is telegraphic and «شهرهای راهنما» says nothing of the
    crescent; LANG3-13 (in part): «پیش‌بینی می‌شود ماه …» first reads as "the moon"; «این ماه قمری» says the month."""
    from generator.site import moon_page

    page = moon_page.render(date(2026, 11, 30), 1448, 9, "fa").decode()
    assert "(در هر خانه، نتیجهٔ مساعدترِ این دو معیار آمده است)" in page and "هلال در چند شهر" in page
    assert "پیش‌بینی می‌شود این ماه قمری طبق اعلام" in page and "(هر خانه:" not in page


def test_lang3_19_the_persian_builders_labels_without_calques():
    """Gallery review fa LANG3-19 (FA-19/26/27/30, R-10): the reader's texts for the jamaat-outside choices, the
    prayer-in-progress view (from the start of each jamaat, as screen.js shows it), the announcement's dates
    («مشخص کنید», not the English "give" «بدهید»; «انتخاب نکنید», not the colloquial «نزنید»; «تا پایانِ روزِ»), and a
    reminder, not a warning, before each prayer (FA-27)."""
    html = builder.render(TODAY, "fa").decode()
    for text in ("نماز جماعت در آن روزها جابه‌جا شود تا در وقت ادا شود",
                 "ساعت تغییر نکند و این نکته روی نمایشگر، ابزارک و تقویم‌ها نوشته شود",
                 "از آغاز هر جماعت (مدت به دقیقه؛ خالی: نمایش داده نشود)",
                 "تاریخ‌ها یا روزهای آن را مشخص کنید", "اگر هیچ‌کدام را انتخاب نکنید: هر روز", "تا پایانِ روزِ (اختیاری)",
                 "یادآوری پیش از هر نماز", "بدون یادآوری", "از هر دستگاهی (تلفن یا رایانه)", "گرد کردن به بالا (به مضربِ)"):
        assert text in html, text
    for calque in ("نزنید", "روزهایش را بدهید", "خودِ آن روز هم", "هشدار پیش از", "صفحهٔ آرام", "از هر تلفنی"):
        assert calque not in html, calque


def test_ur3_03_one_urdu_spelling_of_ashura_in_karachis_rows():
    """Gallery review ur UR3-03 (third pass): the Ashura cell read «عاشورا: شہادتِ امام حسین (ع)» beside «عاشور کے
    دن …» and the eve's «شبِ عاشور»; a Karachi/Lucknow print is uniform: «یومِ عاشور», «یومِ عاشور کو …», «شبِ عاشور»,
    and Tasua «۹ محرم الحرام (تاسوعا)» (the reader's texts).  Rows of 25 and 26 June 2026 (9 and 10 Muharram 1448 by
    the Central Ruet-e-Hilal Committee's Muharram, as the reader's table had them)."""
    today = date(2026, 6, 20)
    table = timetable.month_table(today, today, {"id": "karachi", "country": "PK"}, "ur", "Tehran", "pakistan", 2026, 6)
    rows = {r["iso"]: [e["title"] for e in r["events"]] for r in table["rows"]}
    assert any(t.startswith("۹ محرم الحرام (تاسوعا)") for t in rows["2026-06-25"]), rows["2026-06-25"]
    assert any(t.startswith("شبِ عاشور") for t in rows["2026-06-25"]), rows["2026-06-25"]
    ashura = rows["2026-06-26"]
    assert any(t.startswith("یومِ عاشور: شہادتِ امام حسین (ع)") for t in ashura), ashura
    assert any(t.startswith("یومِ عاشور کو عصر (") for t in ashura), ashura
    assert not any("عاشورا" in t or "عاشور کے دن" in t for t in rows["2026-06-25"] + ashura)


def test_ar3_07_ur3_05_the_moon_page_says_whose_29th_and_why_the_forecast_waits():
    """Gallery review ar AR3-07 and ur UR3-05 (third pass): the 7 February 2027 map showed Najaf "visible to the naked
    eye" while the page forecast 9 February, with no word why, and the Urdu «انتیس تاریخ» said "the 29th" of no month.
    The evening is 29 Sha'ban 1448 by the Sistani office's months (the Arabic reader's own count); the forecast's
    rule is the office's record (docs/hijri.md: every one of its 38 announcements since 1436 followed an evening when
    the crescent was in Yallop's zone A, "easily visible", somewhere over Iraq or Iran), said now in four languages."""
    from generator.site import moon_page

    expected = {
        "en": ("Sighting evening (the 29th of Sha&#39;ban): 7 February 2027.", "easily visible to the naked eye"),
        "ar": ("مساء الاستهلال (٢٩ شعبان): ٧ شباط ٢٠٢٧.", "مرئياً بالعين المجردة بسهولة في مكانٍ ما من العراق أو إيران"),
        "fa": ("شب رؤیت (غروب روز ۲۹ شعبان): ۷ فوریه ۲۰۲۷.", "به‌آسانی با چشم غیرمسلح دیده می‌شد"),  # LANG4-09
        "ur": ("۲۹ شعبان المعظم کی شام (چاند دیکھنے کی شام): ۷ فروری ۲۰۲۷۔", "ننگی آنکھ سے آسانی سے نظر آیا ہو"),  # UR4-03
    }
    for lang, (evening, why) in expected.items():
        page = moon_page.render(date(2026, 11, 30), 1448, 9, lang).decode()
        assert evening in page and why in page, lang


def test_ar2_02_06_07_10_the_arabic_words_of_the_second_pass_left_open():
    """Gallery review ar, second pass, still open in the third: AR2-02 «اليوم: يوم تاسوعاء» repeats itself, and Karbala
    keeps the ninth for al-Abbas (ع): «تاسوعاء — يوم أبي الفضل العباس (ع)»; AR2-06 «الواجهة البرمجية» is developer
    language: «(الحساب الافتراضي في هذه الخدمة)»; AR2-07 «الإقامة» beside «الجماعة» for one thing: the mosque page's
    title and note say «الجماعة»; AR2-10 the builder speaks to one person: «حدّدتَه», «اختر»."""
    tasua = json.loads(call("day-status", NOW_S, date="2026-06-25"))  # 9 Muharram 1448, the Sistani office's months
    assert [e["title"]["ar"] for e in tasua["events"]] == ["تاسوعاء — يوم أبي الفضل العباس (ع)"]
    now = datetime(2026, 11, 30, 6, 30, tzinfo=timezone.utc).timestamp()
    page = mosque_page.render(date(2026, 11, 30), "jaffari-toronto", "ar", now_s=now).decode()
    assert "لا ينشر المسجد مواعيد صلاة الجماعة؛" in page and "الإقامة" not in page
    from generator.words import glossary

    assert glossary.term("page.mosque.title")["ar"] == "{mosque}: أوقات الصلاة والجماعة"  # a mosque with jamaat times
    assert "(الحساب الافتراضي في هذه الخدمة)" in page and "الواجهة البرمجية" not in page
    html = builder.render(TODAY, "ar").decode()
    assert "في الأيام التي يقع فيها موعدٌ حدّدتَه خارج وقت الصلاة" in html
    assert "حدّدتموه" not in html and "اختاروا" not in html and "انظروا" not in html


def test_ar2_09_the_builders_adjustments_list_the_english_names_to_type():
    """Gallery review ar AR2-09 (second pass, still open; fa LANG3-19's «fajr:2» point): a Karbala committee must type
    English keys but was given two; it cannot guess «maghrib» or «magrib».  Every key the API accepts for ``tune``
    (/v1/prayer-times' own list, generator/api/prayer_times.TUNABLE) is now named beside its word, in ar, fa and ur."""
    from generator.api import prayer_times

    for lang in ("ar", "fa", "ur"):
        html = builder.render(TODAY, lang).decode()
        label = next(t for t in re.findall(r"<label[^>]*>(.*?)</label>", html, re.S) if "fajr:2" in t)
        for key in prayer_times.TUNABLE:
            assert f"\u2066{key}\u2069" in label, (lang, key, label)


def test_lang3_17_a_month_on_summer_time_says_so_in_the_pages_language():
    """Gallery review fa LANG3-17 (ur UR2-34): the only sentence on the clock was the Toronto centre's English source
    note.  A month table with a day on summer time now says the times include it: London's October 2026 (British
    Summer Time until Sunday 25 October, the last Sunday of October), Toronto's June; not London's December nor any
    Tehran month (Iran has kept no summer time since 1402 / 2023)."""
    # the Persian reworded after review 4 (LANG4-01: «… را در بر دارد» was a calque of "summer time included")
    note = ('<p class="note summer-time">ساعت‌ها به وقت رسمی محل است و در روزهایی که ساعت تابستانی برقرار است، '
            'به وقت تابستانی آمده است.</p>')
    assert note in timetable.render(date(2026, 10, 25), "london", "fa").decode()
    assert note in mosque_page.render(date(2026, 6, 25), "jaffari-toronto", "fa").decode()
    assert note not in timetable.render(date(2026, 12, 25), "london", "fa").decode()
    assert note not in timetable.render(date(2026, 6, 25), "tehran", "fa").decode()
    assert "اوقات مقامی سرکاری گھڑی کے مطابق ہیں؛ جن دنوں سمر ٹائم نافذ ہو" in timetable.render(date(2026, 10, 25), "london", "ur").decode()


def test_ur2_7_ur2_35_the_urdu_builders_labels_in_the_readers_words():
    """Gallery review ur UR2-7 (old UR-11; still open in the third pass): «اوپر کی طرف راؤنڈ کریں» and «راؤنڈ نہ
    کریں» are calques, «اضافی منٹ» hides that a minus is allowed («کمی بیشی»), «ایونٹ» is English; «دفترِ فضل اللہ»
    names no marja'; UR2-35: «… وقت کی حد پر منتقل کیا جائے» says neither side of the bound.  The readers' texts."""
    html = builder.render(TODAY, "ur").decode()
    for text in ("وقت کو آگے کے پورے … منٹ پر لے جائیں (مثلاً ۵ منٹ چنیں تو ۱:۱۲ کا وقت ۱:۱۵ ہو جائے گا)", "جوں کا توں",  # UR5-06, UR6-01: an example in words (an arrow does not turn in a right-to-left line) "حساب شدہ اوقات میں کمی بیشی (منٹ):",
                 "کیلنڈر میں ہر وقت کا دورانیہ (منٹ)", "ہجری (دفترِ آیت اللہ فضل اللہ، بیروت)",
                 "جماعت نماز کے وقت کے اندر قریب ترین ممکن وقت پر کر دی جائے"):
        assert text in html, text
    for calque in ("راؤنڈ", "اضافی منٹ", "ایونٹ", "حد پر منتقل"):
        assert calque not in html, calque


def test_ar_a9_a10_d6_d7_d8_d11_d13_the_arabic_labels_the_third_pass_listed_as_still_open():
    """Outside review ar (shared/reference/language_review_2026-11-28/ar.md), listed as still present by the third
    gallery pass: A9 «خرائط إمكان رؤية هلال … في العالم»; A10 «(بعد ٢:٣٠)», not «(المتبقي …)»; D6 «يوم التغيير: كل
    يوم» contradicts itself: «يتغيّر الموعد» / «يومياً»; D7 one word for two things: «نصف الليل» for the
    high-latitude rule, «بلا قاعدة»; D8 what the UK tables' midnight does; D11 «حدث» is the English "event": «موعد
    في التقويم»; D13 «(المعتمدة في هذا المكان)», agreeing with «طريقة»."""
    html = builder.render(TODAY, "ar").decode()
    for text in ("يتغيّر الموعد", "يومياً", "نصف الليل", "بلا قاعدة", "مدة كل موعد في التقويم (بالدقائق)",
                 "منتصف ما بين الغروب وفجر اليوم نفسه (كما في جداول مؤسسة الإمام علي (ع) في لندن)",
                 "(المعتمدة في هذا المكان)"):
        assert text in html, text
    for old in ("يوم التغيير", "مدة كل حدث", "المعتمد محلياً", "كما في جداول بريطانيا المطبوعة"):
        assert old not in html, old
    page = timetable.render(TODAY, "karbala", "ar", now_s=NOW_S).decode()
    assert "خرائط إمكان رؤية هلال" in page and "في العالم" in page and "خرائط العالم" not in page
    assert 'data-hours="بعد {hours}:{minutes}"' in page  # the time left as «(بعد ٢:٣٠)» (time_left.js)
    # gallery review ar F16 (old A5): the qibla's bearing "clockwise" said as Arabic says it
    assert "من الشمال الحقيقي مع اتجاه دوران عقارب الساعة نحو الكعبة المشرفة" in page


def test_lang3_07_ar_f4_ur2_4_the_screens_hijri_line_in_each_readers_form():
    """Gallery reviews fa LANG3-07 (R-02, fa2-04), ar F4, ur UR2-4: the screen's «… — قمری (تقویم ایران)», «… —
    الهجري (النجف الأشرف)» and «… — ہجری (پاکستان)» read as a table's column head after the date.  Each reader's own
    form: «۲۰ جمادی‌الثانی ۱۴۴۸ (طبق تقویم رسمی ایران)», «… ١٤٤٨ هـ (حسب رؤية الهلال في النجف الأشرف)», «… ۱۴۴۸ ھ
    (رویت: پاکستان)»; the English screen is unchanged («· Hijri (Najaf)»).  Dates: 30 November 2026 is 20 Jumada II
    1448 in Iran's calendar and the 19th by the Sistani office's and Pakistan's months (the readers' own pages)."""
    from generator.site import screen

    now = datetime(2026, 11, 30, 6, 30, tzinfo=timezone.utc).timestamp()
    expected = {("tehran", "fa"): "۲۰ جمادی‌الثانی ۱۴۴۸ (طبق تقویم رسمی ایران)",
                ("karbala", "ar"): "١٩ جمادى الآخرة ١٤٤٨ هـ (حسب رؤية الهلال في النجف الأشرف)",
                ("karachi", "ur"): "۱۹ جمادی الثانی ۱۴۴۸ ھ (رویت: پاکستان)",
                ("london", "en"): "19 Jumada al-Thaniyah 1448 · Hijri (Najaf)"}
    for (city, lang), line in expected.items():
        html = screen.render(screen.parse("screen", [("city", city), ("lang", lang)], now), date(2026, 11, 30)).decode()
        shown = re.sub(r"<[^>]+>", "", re.search(r'<p class="hijri">(.*?)</p>', html).group(1))
        assert shown == line, (city, shown)
