"""The words of the site's pages in en, ar, fa and ur, and the digits each language writes.

Every text is a term of the reviewed glossary (`generator.glossary`, data/glossary.csv),
written as a reader of each language expects it (docs/site.md):

* Digits follow docs/decisions.md ("Names and digits"): Arabic-Indic for ar, Extended
  Arabic-Indic for fa and ur, ASCII for en, for every number on a page (dates, times,
  years), as printed timetables in those languages do.
* Prayer names are the feeds' (`generator.feed_words`) plus imsak, sunrise, sunset and
  midnight; Persian uses the column names of Iran's official timetables.
* Gregorian month names: Arabic uses the Iraqi and Levantine names (كانون الثاني …), those
  of the largest Arabic-speaking Shia communities; Persian and Urdu use their usual
  transliterations.
"""
from __future__ import annotations

from generator import feed_words, glossary
from generator.locale import DECIMAL_SEPARATOR, DEFAULT_LANGUAGE, LANGUAGES, RTL, direction  # noqa: F401
from generator.locale import native as digits  # noqa: F401  (pages call it digits)

LRI, PDI = glossary.LRI, glossary.PDI
# Between items on a line.  Not "·" in Arabic script: Persian and Urdu write zero as a dot (۰).
SEPARATOR = {"en": " · ", "ar": " — ", "fa": " — ", "ur": " — "}
LANGUAGE_NAMES = {"en": "English", "ar": "العربية", "fa": "فارسی", "ur": "اردو"}


def number(value: float | int, lang: str, *, signed: bool = False) -> str:
    """Return a (possibly signed, decimal) number in the digits and decimal separator of ``lang``.

    ``signed`` writes "+" before positive numbers.  In right-to-left text a number with a
    sign is isolated left-to-right (LRI … PDI), so the sign stays before the digits.
    """
    text = f"{value:+}" if signed else str(value)
    text = digits(text.replace(".", DECIMAL_SEPARATOR[lang]), lang)
    return f"{LRI}{text}{PDI}" if lang in RTL and text[0] in "+-" else text


# Times in the timetable: the feeds' clock of each language (12-hour for ar and ur, as printed
# timetables in Iraq and Pakistan; 24-hour for fa and en), without the before/after-noon word:
# the column names the prayer, as on printed timetables.
DEFAULT_CLOCK = feed_words.DEFAULT_CLOCK


def clock(hhmm: str, lang: str) -> str:
    """Return a local "HH:mm" as a timetable cell of ``lang`` shows it (see `DEFAULT_CLOCK`)."""
    return feed_words.clock_text(hhmm, lang, DEFAULT_CLOCK[lang], marked=False)


def isolate(text: str, lang: str) -> str:
    """Return left-to-right ``text`` (an id such as "Asia/Tehran") isolated inside right-to-left text."""
    return f"{LRI}{text}{PDI}" if lang in RTL else text


COORDINATE_WORDS = glossary.group("coordinate")


def coordinate(value_deg: float, axis: str, lang: str) -> str:
    """Return a latitude (``axis`` "lat") or longitude ("lng") with its hemisphere word: "35.69° N", "٣٥٫٦٩° شمالاً"."""
    hemisphere = {"lat": ("north", "south"), "lng": ("east", "west")}[axis][value_deg < 0]
    return COORDINATE_WORDS[lang][hemisphere].format(deg=number(abs(value_deg), lang))


def zone(tz: str, city_name: str, lang: str) -> str:
    """Return a time zone as a reader names it: "Baghdad time (Asia/Baghdad)", "توقيت بغداد (Asia/Baghdad)".

    ``city_name`` is the name, in ``lang``, of the city the zone is named after when it is in
    the catalogue, else of the page's own city: both keep the zone's clock.
    """
    return WORDS[lang]["zone"].format(city=city_name, tz=isolate(tz, lang))


TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight")
TIME_NAMES = glossary.group("column")
GREGORIAN_MONTHS = glossary.sequence("gregorian_month")
# Short labels of the two reckonings (columns of the timetable) and what they are (its notes).
CALENDAR_LABELS = glossary.group("reckoning.label")
WORDS = glossary.group("page")
# The grid digits of /v1/moon-visibility (docs/decisions.md), as the map legend says them.
VISIBILITY = {lang: {int(digit): text for digit, text in texts.items()} for lang, texts in glossary.group("visibility").items()}
# How a month start was obtained (/v1/hijri `source`).
SOURCES = glossary.group("source")


def date_text(iso: str, lang: str) -> str:
    """Return a Gregorian date written out in ``lang`` ("19 March 2026")."""
    from datetime import date

    day = date.fromisoformat(iso)
    return f"{digits(day.day, lang)} {GREGORIAN_MONTHS[lang][day.month - 1]} {digits(day.year, lang)}"


# --- Words of the issue-13 pages (today's card, imsakiya, qibla, feeds, home pages in four languages).
# Kept apart so they can move into the glossary (issue 14) as they are.

PAGE_WORDS = {
    "en": {
        "csv_link": "this month as CSV (for a spreadsheet)",
        "crescent_link": "The crescent of {month}: world maps",
        "today_card": "Today",
        "next_prayer": "Next",
        "next_in": "in {hours}:{minutes}",
        "shamsi": "Solar Hijri",
        "qibla_title": "Qibla",
        "qibla_text": "Face {bearing}° from true north (clockwise), towards the Kaaba in Mecca.",
        "north": "N",
        "subscribe": "Subscribe in a calendar app",
        "subscribe_link": "subscribe",
        "download_link": "download",
        "feed_names": {"prayer-times.ics": "Prayer times", "night.ics": "The last third of the night"},
        "imsakiya_link": "Ramadan timetable (imsakiya) {year}",
        "imsakiya_title": "Ramadan {year} imsakiya for {city}",
        "imsakiya_calendar": "Ramadan dates by: {calendar}",
        "imsakiya_other_calendar": "The same by {calendar}",
        "ramadan_day": "Ramadan",
        "qadr_eve": "Eve of the Night of Qadr ({night})",
        "imsakiya_note": "Times are local clock times in {tz}; method: {method}. Numbers from the JSON API:",
        "imsakiya_source": "Month start: {begins} ({source}). The Nights of Qadr (19, 21, 23 Ramadan) begin at "
                           "maghrib of the marked day.",
        "months_nav": "Months",
        "this_month": "This month and the next",
        "month_page_title": "Prayer times in {city}, {month}",
        "home_title": "Prayer times and the Hijri calendar for Shia Muslims",
        "home_intro": "Printable monthly prayer timetables for {count} cities, a Ramadan timetable (imsakiya), "
                      "crescent-visibility maps and calendar feeds, free.",
        "find_city": "Find your city",
        "find_city_label": "City name, in any of",
        "all_cities": "All {count} cities",
        "examples": "Often opened",
        "moon_maps": "Crescent visibility",
        "developers": "For developers: the JSON API",
        "developers_text": "Every number on these pages comes from a free JSON API; its reference is on the English "
                           "home page.",
        "api_reference": "API reference",
        "map_cities": "Reference cities",
        "point_answer": "The crescent for {city} evening by evening (JSON)",
    },
    "ar": {
        "csv_link": "هذا الشهر بصيغة \u2066CSV\u2069 (لجداول البيانات)",
        "crescent_link": "هلال {month}: خرائط العالم",
        "today_card": "اليوم",
        "next_prayer": "التالي",
        "next_in": "بعد {hours}:{minutes}",
        "shamsi": "الهجري الشمسي",
        "qibla_title": "القبلة",
        "qibla_text": "اتجه {bearing}° من الشمال الحقيقي (باتجاه عقارب الساعة) نحو الكعبة المشرفة.",
        "north": "ش",
        "subscribe": "الاشتراك في تطبيق التقويم",
        "subscribe_link": "اشتراك",
        "download_link": "تنزيل",
        "feed_names": {"prayer-times.ics": "أوقات الصلاة", "night.ics": "الثلث الأخير من الليل"},
        "imsakiya_link": "إمساكية شهر رمضان {year}",
        "imsakiya_title": "إمساكية شهر رمضان {year} في {city}",
        "imsakiya_calendar": "أيام الشهر حسب: {calendar}",
        "imsakiya_other_calendar": "الإمساكية نفسها حسب {calendar}",
        "ramadan_day": "رمضان",
        "qadr_eve": "ليلة القدر ({night})",
        "imsakiya_note": "الأوقات بالتوقيت المحلي ({tz})؛ طريقة الحساب: {method}. الأرقام من واجهة \u2066JSON\u2069:",
        "imsakiya_source": "بداية الشهر: {begins} ({source}). ليالي القدر (١٩ و٢١ و٢٣ رمضان) تبدأ عند مغرب "
                           "اليوم المعلَّم.",
        "months_nav": "الأشهر",
        "this_month": "هذا الشهر والذي يليه",
        "month_page_title": "أوقات الصلاة في {city}، {month}",
        "home_title": "أوقات الصلاة والتقويم الهجري للمسلمين الشيعة",
        "home_intro": "جداول شهرية لأوقات الصلاة قابلة للطباعة لـ{count} مدينة، وإمساكية شهر رمضان، وخرائط "
                      "رؤية الهلال، وتقاويم للاشتراك، مجاناً.",
        "find_city": "ابحث عن مدينتك",
        "find_city_label": "اسم المدينة، بإحدى اللغات",
        "all_cities": "كل المدن ({count})",
        "examples": "الأكثر فتحاً",
        "moon_maps": "رؤية الهلال",
        "developers": "للمبرمجين: واجهة \u2066JSON\u2069",
        "developers_text": "كل الأرقام في هذه الصفحات من واجهة \u2066JSON\u2069 مجانية؛ مرجعها في الصفحة الرئيسية الإنجليزية.",
        "api_reference": "مرجع الواجهة البرمجية",
        "map_cities": "مدن مرجعية",
        "point_answer": "الهلال في {city} مساءً بعد مساء (\u2066JSON\u2069)",
    },
    "fa": {
        "csv_link": "این ماه به صورت \u2066CSV\u2069 (برای صفحه‌گسترده)",
        "crescent_link": "هلال {month}: نقشه‌های جهان",
        "today_card": "امروز",
        "next_prayer": "وقت بعدی",
        "next_in": "{hours}:{minutes} دیگر",
        "shamsi": "خورشیدی",
        "qibla_title": "قبله",
        "qibla_text": "رو به {bearing}° از شمال جغرافیایی (در جهت حرکت عقربه‌های ساعت)، به سوی کعبه.",
        "north": "ش",
        "subscribe": "اشتراک در برنامهٔ تقویم",
        "subscribe_link": "اشتراک",
        "download_link": "دریافت",
        "feed_names": {"prayer-times.ics": "اوقات شرعی", "night.ics": "ثلث آخر شب"},
        "imsakiya_link": "جدول اوقات ماه رمضان {year}",
        "imsakiya_title": "اوقات شرعی ماه رمضان {year} — {city}",
        "imsakiya_calendar": "روزهای ماه طبق: {calendar}",
        "imsakiya_other_calendar": "همین جدول طبق {calendar}",
        "ramadan_day": "رمضان",
        "qadr_eve": "شب قدر ({night})",
        "imsakiya_note": "ساعت‌ها به وقت محلی ({tz})؛ روش محاسبه: {method}. اعداد از رابط \u2066JSON\u2069:",
        "imsakiya_source": "آغاز ماه: {begins} ({source}). شب‌های قدر (۱۹، ۲۱ و ۲۳ رمضان) از مغرب روز "
                           "علامت‌خورده آغاز می‌شوند.",
        "months_nav": "ماه‌ها",
        "this_month": "این ماه و ماه بعد",
        "month_page_title": "اوقات شرعی {city}، {month}",
        "home_title": "اوقات شرعی و تقویم قمری برای شیعیان",
        "home_intro": "جدول ماهانهٔ اوقات شرعی برای {count} شهر، قابل چاپ، جدول ماه رمضان، نقشه‌های رؤیت هلال "
                      "و تقویم‌های اشتراکی، رایگان.",
        "find_city": "شهر خود را پیدا کنید",
        "find_city_label": "نام شهر، به یکی از این زبان‌ها",
        "all_cities": "همهٔ شهرها ({count})",
        "examples": "پربازدید",
        "moon_maps": "رؤیت هلال",
        "developers": "برای برنامه‌نویسان: رابط \u2066JSON\u2069",
        "developers_text": "همهٔ اعداد این صفحه‌ها از یک رابط \u2066JSON\u2069 رایگان است؛ راهنمای آن در صفحهٔ اصلی انگلیسی است.",
        "api_reference": "راهنمای رابط برنامه‌نویسی",
        "map_cities": "شهرهای راهنما",
        "point_answer": "هلال در {city}، شب به شب (\u2066JSON\u2069)",
    },
    "ur": {
        "csv_link": "یہ مہینہ \u2066CSV\u2069 میں (اسپریڈشیٹ کے لیے)",
        "crescent_link": "{month} کا ہلال: دنیا کے نقشے",
        "today_card": "آج",
        "next_prayer": "اگلا وقت",
        "next_in": "{hours}:{minutes} میں",
        "shamsi": "ہجری شمسی",
        "qibla_title": "قبلہ",
        "qibla_text": "حقیقی شمال سے {bearing}° (گھڑی کی سمت میں) کعبہ کی طرف رخ کریں۔",
        "north": "ش",
        "subscribe": "کیلنڈر ایپ میں سبسکرائب کریں",
        "subscribe_link": "سبسکرائب",
        "download_link": "ڈاؤن لوڈ",
        "feed_names": {"prayer-times.ics": "اوقاتِ نماز", "night.ics": "رات کا آخری تہائی حصہ"},
        "imsakiya_link": "رمضان {year} کا نظام الاوقات (امساکیہ)",
        "imsakiya_title": "{city} — رمضان {year} کا امساکیہ",
        "imsakiya_calendar": "مہینے کے دن بمطابق: {calendar}",
        "imsakiya_other_calendar": "یہی جدول بمطابق {calendar}",
        "ramadan_day": "رمضان",
        "qadr_eve": "شبِ قدر ({night})",
        "imsakiya_note": "اوقات مقامی گھڑی ({tz}) کے مطابق؛ طریقۂ حساب: {method}۔ اعداد \u2066JSON API\u2069 سے:",
        "imsakiya_source": "مہینے کا آغاز: {begins} ({source})۔ شبہائے قدر (۱۹، ۲۱، ۲۳ رمضان) نشان زدہ دن کی "
                           "مغرب سے شروع ہوتی ہیں۔",
        "months_nav": "مہینے",
        "this_month": "یہ مہینہ اور اگلا",
        "month_page_title": "{city} کے اوقاتِ نماز، {month}",
        "home_title": "شیعہ مسلمانوں کے لیے اوقاتِ نماز اور ہجری تقویم",
        "home_intro": "{count} شہروں کے قابلِ طباعت ماہانہ اوقاتِ نماز، رمضان کا امساکیہ، ہلال کی رؤیت کے نقشے "
                      "اور کیلنڈر فیڈز، مفت۔",
        "find_city": "اپنا شہر تلاش کریں",
        "find_city_label": "شہر کا نام، ان میں سے کسی زبان میں",
        "all_cities": "تمام شہر ({count})",
        "examples": "زیادہ دیکھے گئے",
        "moon_maps": "ہلال کی رؤیت",
        "developers": "ڈویلپرز کے لیے: \u2066JSON API\u2069",
        "developers_text": "ان صفحات کے تمام اعداد ایک مفت \u2066JSON API\u2069 سے ہیں؛ اس کا حوالہ انگریزی صفحۂ اول پر ہے۔",
        "api_reference": "\u2066API\u2069 کا حوالہ",
        "map_cities": "حوالہ شہر",
        "point_answer": "{city} میں ہلال، شام بہ شام (\u2066JSON\u2069)",
    },
}

# The reference cities marked on the crescent maps (catalogue ids), west to east.
MAP_CITIES = ("new-york", "london", "mecca", "najaf", "tehran", "karachi", "jakarta")
