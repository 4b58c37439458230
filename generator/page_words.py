"""The words of the site's pages in en, ar, fa and ur, and the digits each language writes.

Written by us, as a reader of each language expects them (docs/site.md):

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

from generator import feed_words
from generator.locale import DECIMAL_SEPARATOR, DEFAULT_LANGUAGE, LANGUAGES, RTL, direction  # noqa: F401
from generator.locale import native as digits  # noqa: F401  (pages call it digits)

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
    return f"\u2066{text}\u2069" if lang in RTL and text[0] in "+-" else text


TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "sunset", "maghrib", "isha", "midnight")
TIME_NAMES = {
    "en": {**feed_words.PRAYER_NAMES["en"], "imsak": "Imsak", "sunrise": "Sunrise", "sunset": "Sunset",
           "midnight": "Midnight"},
    "ar": {**feed_words.PRAYER_NAMES["ar"], "imsak": "الإمساك", "sunrise": "الشروق", "sunset": "الغروب",
           "midnight": "منتصف الليل"},
    "fa": {"imsak": "امساک", "fajr": "اذان صبح", "sunrise": "طلوع آفتاب", "dhuhr": "اذان ظهر", "asr": "عصر",
           "sunset": "غروب آفتاب", "maghrib": "اذان مغرب", "isha": "عشا", "midnight": "نیمه‌شب شرعی"},
    "ur": {**feed_words.PRAYER_NAMES["ur"], "imsak": "امساک", "sunrise": "طلوعِ آفتاب", "sunset": "غروبِ آفتاب",
           "midnight": "نصف شب"},
}

GREGORIAN_MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "ar": ("كانون الثاني", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول", "تشرين الأول",
           "تشرين الثاني", "كانون الأول"),
    "fa": ("ژانویه", "فوریه", "مارس", "آوریل", "مه", "ژوئن", "ژوئیه", "اوت", "سپتامبر", "اکتبر", "نوامبر",
           "دسامبر"),
    "ur": ("جنوری", "فروری", "مارچ", "اپریل", "مئی", "جون", "جولائی", "اگست", "ستمبر", "اکتوبر", "نومبر",
           "دسمبر"),
}

# Short labels of the two reckonings (columns of the timetable) and what they are (its notes).
CALENDAR_LABELS = {
    "en": {"moonsighting": "Hijri (sighting)", "iran": "Hijri (Iran)"},
    "ar": {"moonsighting": "الهجري (الرؤية)", "iran": "الهجري (إيران)"},
    "fa": {"moonsighting": "قمری (رؤیت)", "iran": "قمری (تقویم ایران)"},
    "ur": {"moonsighting": "ہجری (رؤیت)", "iran": "ہجری (ایران)"},
}

WORDS = {
    "en": {
        "site": "Shia prayer times and Hijri calendar",
        "timetable_title": "Prayer times in {city}",
        "month_caption": "{month} {year}",
        "date": "Date",
        "day": "Day",
        "events": "Events",
        "method": "Calculation method",
        "other_methods": "Other methods",
        "language": "Language",
        "place": "{lat}°, {lng}° · time zone {tz} · qibla {qibla}° from true north",
        "times_note": "Times are local clock times (HH:mm) in {tz}, from the JSON API:",
        "calendar_note": "Hijri dates: “sighting” follows the announcements of the office of Grand Ayatollah "
                         "Sistani (Najaf), “Iran” follows Iran's official calendar; months not yet announced are "
                         "computed. Events are placed by the {calendar} dates.",
        "print_note": "Printing this page gives one A4 page per month.",
        "today": "today",
        "moon_title": "Crescent visibility for {month} {year}",
        "moon_intro": "Where the new crescent of {month} {year} can be seen, evening by evening, under the "
                      "Yallop and Odeh criteria (each cell: the more favourable of the two). Conjunction "
                      "(new moon): {conjunction} UTC. Sighting evening: {sighting}. The month begins on {begins} "
                      "under the sighting reckoning ({source}).",
        "evening": "Evening of {date}",
        "evening_offset": "sighting evening {offset}",
        "sighting_evening": "the sighting evening",
        "legend": "Legend",
        "cells": "{count} cells",
        "previous_month": "Previous month",
        "next_month": "Next month",
        "map_data": "Map data:",
        "coastlines": "Coastlines: GSHHS (crude), equirectangular projection, 70° N to 60° S; cells of {res}°.",
        "home": "Home",
        "not_found": "Page not found",
        "not_found_text": "There is no page at this address. The city list and the API are on the home page.",
    },
    "ar": {
        "site": "أوقات الصلاة والتقويم الهجري للشيعة",
        "timetable_title": "أوقات الصلاة في {city}",
        "month_caption": "{month} {year}",
        "date": "التاريخ",
        "day": "اليوم",
        "events": "المناسبات",
        "method": "طريقة الحساب",
        "other_methods": "طرق أخرى",
        "language": "اللغة",
        "place": "{lat}°، {lng}°؛ المنطقة الزمنية {tz}؛ القبلة {qibla}° من الشمال الحقيقي",
        "times_note": "الأوقات بالتوقيت المحلي ({tz}) بصيغة ساعة:دقيقة، من واجهة JSON:",
        "calendar_note": "التاريخ الهجري: «الرؤية» حسب إعلانات مكتب سماحة المرجع السيد السيستاني (النجف)، "
                         "و«إيران» حسب التقويم الرسمي الإيراني؛ والأشهر التي لم يُعلن عنها بعدُ محسوبة. "
                         "المناسبات موضوعة حسب تاريخ {calendar}.",
        "print_note": "طباعة هذه الصفحة تعطي صفحة A4 واحدة لكل شهر.",
        "today": "اليوم",
        "moon_title": "إمكانية رؤية هلال {month} {year}",
        "moon_intro": "أين يمكن رؤية هلال {month} {year}، مساءً بعد مساء، حسب معياري يالوب وعودة "
                      "(لكل خلية أفضل المعيارين). الاقتران (المحاق): {conjunction} بالتوقيت العالمي. مساء "
                      "الاستهلال: {sighting}. يبدأ الشهر في {begins} حسب الرؤية ({source}).",
        "evening": "مساء {date}",
        "evening_offset": "مساء الاستهلال {offset}",
        "sighting_evening": "مساء الاستهلال",
        "legend": "دليل الألوان",
        "cells": "{count} خلية",
        "previous_month": "الشهر السابق",
        "next_month": "الشهر التالي",
        "map_data": "بيانات الخريطة:",
        "coastlines": "السواحل: GSHHS (دقة منخفضة)، إسقاط متساوي المسافات، من ٧٠° شمالاً إلى ٦٠° جنوباً؛ "
                      "خلايا بحجم {res}°.",
        "home": "الرئيسية",
        "not_found": "الصفحة غير موجودة",
        "not_found_text": "لا توجد صفحة بهذا العنوان. قائمة المدن والواجهة البرمجية في الصفحة الرئيسية.",
    },
    "fa": {
        "site": "اوقات شرعی و تقویم قمری شیعه",
        "timetable_title": "اوقات شرعی {city}",
        "month_caption": "{month} {year}",
        "date": "تاریخ",
        "day": "روز",
        "events": "مناسبت‌ها",
        "method": "روش محاسبه",
        "other_methods": "روش‌های دیگر",
        "language": "زبان",
        "place": "{lat}°، {lng}°؛ منطقهٔ زمانی {tz}؛ قبله {qibla}° از شمال جغرافیایی",
        "times_note": "ساعت‌ها به وقت محلی ({tz}) و به صورت ساعت:دقیقه‌اند، از رابط JSON:",
        "calendar_note": "تاریخ قمری: «رؤیت» طبق اعلام دفتر حضرت آیت‌الله العظمی سیستانی (نجف) و «تقویم ایران» "
                         "طبق تقویم رسمی ایران است؛ ماه‌هایی که هنوز اعلام نشده‌اند محاسبه شده‌اند. "
                         "مناسبت‌ها طبق تاریخ {calendar} آمده‌اند.",
        "print_note": "چاپ این صفحه برای هر ماه یک صفحهٔ A4 می‌دهد.",
        "today": "امروز",
        "moon_title": "رؤیت‌پذیری هلال {month} {year}",
        "moon_intro": "هلال ماه {month} {year} کجا دیده می‌شود، شب به شب، طبق معیارهای یالوپ و عوده "
                      "(هر خانه: مساعدترینِ این دو). مقارنه (ماه نو): {conjunction} به وقت جهانی. شب رؤیت: "
                      "{sighting}. آغاز ماه طبق رؤیت: {begins} ({source}).",
        "evening": "غروب {date}",
        "evening_offset": "شب رؤیت {offset}",
        "sighting_evening": "شب رؤیت",
        "legend": "راهنما",
        "cells": "{count} خانه",
        "previous_month": "ماه قبل",
        "next_month": "ماه بعد",
        "map_data": "داده‌های نقشه:",
        "coastlines": "خطوط ساحلی: GSHHS (تفکیک کم)، تصویر استوانه‌ای هم‌فاصله، از ۷۰° شمالی تا ۶۰° جنوبی؛ "
                      "خانه‌های {res} درجه‌ای.",
        "home": "صفحهٔ اصلی",
        "not_found": "صفحه پیدا نشد",
        "not_found_text": "در این نشانی صفحه‌ای نیست. فهرست شهرها و رابط برنامه‌نویسی در صفحهٔ اصلی است.",
    },
    "ur": {
        "site": "شیعہ اوقاتِ نماز اور ہجری تقویم",
        "timetable_title": "{city} کے اوقاتِ نماز",
        "month_caption": "{month} {year}",
        "date": "تاریخ",
        "day": "دن",
        "events": "مناسبتیں",
        "method": "طریقۂ حساب",
        "other_methods": "دوسرے طریقے",
        "language": "زبان",
        "place": "{lat}°، {lng}°؛ ٹائم زون {tz}؛ قبلہ حقیقی شمال سے {qibla}°",
        "times_note": "اوقات مقامی گھڑی ({tz}) کے مطابق گھنٹہ:منٹ میں ہیں، JSON API سے:",
        "calendar_note": "ہجری تاریخ: «رؤیت» آیت اللہ العظمیٰ سیستانی کے دفتر (نجف) کے اعلانات کے مطابق اور «ایران» "
                         "ایران کی سرکاری تقویم کے مطابق ہے؛ جن مہینوں کا ابھی اعلان نہیں ہوا وہ حساب سے ہیں۔ "
                         "مناسبتیں {calendar} کی تاریخوں کے مطابق ہیں۔",
        "print_note": "یہ صفحہ پرنٹ کرنے سے ہر مہینے کا ایک A4 صفحہ بنتا ہے۔",
        "today": "آج",
        "moon_title": "{month} {year} کے ہلال کی رؤیت",
        "moon_intro": "{month} {year} کا نیا چاند کہاں دیکھا جا سکتا ہے، شام بہ شام، یالپ اور عودہ کے معیار پر "
                      "(ہر خانہ: دونوں میں سے بہتر)۔ اقتران (نیا چاند): {conjunction} عالمی وقت۔ رؤیت کی شام: "
                      "{sighting}۔ رؤیت کے مطابق مہینہ {begins} کو شروع ہوتا ہے ({source})۔",
        "evening": "{date} کی شام",
        "evening_offset": "رؤیت کی شام {offset}",
        "sighting_evening": "رؤیت کی شام",
        "legend": "رنگوں کی وضاحت",
        "cells": "{count} خانے",
        "previous_month": "پچھلا مہینہ",
        "next_month": "اگلا مہینہ",
        "map_data": "نقشے کا ڈیٹا:",
        "coastlines": "ساحلی لکیریں: GSHHS (کم تفصیل)، مساوی فاصلہ اسطوانی ظلّ، ۷۰° شمال سے ۶۰° جنوب تک؛ "
                      "{res} درجے کے خانے۔",
        "home": "صفحۂ اول",
        "not_found": "صفحہ نہیں ملا",
        "not_found_text": "اس پتے پر کوئی صفحہ نہیں۔ شہروں کی فہرست اور API صفحۂ اول پر ہیں۔",
    },
}

# The grid digits of /v1/moon-visibility (docs/decisions.md), as the map legend says them.
VISIBILITY = {
    "en": {0: "Not visible", 1: "Easily visible to the naked eye", 2: "Visible to the naked eye",
           3: "May need optical aid to find, then visible to the naked eye", 4: "Visible with optical aid only"},
    "ar": {0: "غير مرئي", 1: "مرئي بالعين المجردة بسهولة", 2: "مرئي بالعين المجردة",
           3: "قد يحتاج إلى أداة بصرية لتحديد موقعه ثم يُرى بالعين المجردة", 4: "مرئي بأداة بصرية فقط"},
    "fa": {0: "دیده نمی‌شود", 1: "به‌آسانی با چشم غیرمسلح دیده می‌شود", 2: "با چشم غیرمسلح دیده می‌شود",
           3: "شاید برای یافتنش ابزار نوری لازم باشد، سپس با چشم غیرمسلح دیده می‌شود",
           4: "فقط با ابزار نوری دیده می‌شود"},
    "ur": {0: "نظر نہیں آتا", 1: "آنکھ سے آسانی سے نظر آتا ہے", 2: "آنکھ سے نظر آتا ہے",
           3: "ڈھونڈنے کے لیے دوربین کی ضرورت ہو سکتی ہے، پھر آنکھ سے نظر آتا ہے", 4: "صرف دوربین سے نظر آتا ہے"},
}

# How a month start was obtained (/v1/hijri `source`).
SOURCES = {
    "en": {"table": "announced or official", "computed": "computed", "tabular": "arithmetic estimate"},
    "ar": {"table": "معلن أو رسمي", "computed": "محسوب", "tabular": "تقدير حسابي"},
    "fa": {"table": "اعلام‌شده یا رسمی", "computed": "محاسبه‌شده", "tabular": "برآورد حسابی"},
    "ur": {"table": "اعلان شدہ یا سرکاری", "computed": "حساب شدہ", "tabular": "تخمینی حساب"},
}


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
        "find_city_label": "City name (in English, العربية, فارسی or اردو)",
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
        "csv_link": "هذا الشهر بصيغة CSV (لجداول البيانات)",
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
        "imsakiya_note": "الأوقات بالتوقيت المحلي ({tz})؛ طريقة الحساب: {method}. الأرقام من واجهة JSON:",
        "imsakiya_source": "بداية الشهر: {begins} ({source}). ليالي القدر (١٩ و٢١ و٢٣ رمضان) تبدأ عند مغرب "
                           "اليوم المعلَّم.",
        "months_nav": "الأشهر",
        "this_month": "هذا الشهر والذي يليه",
        "month_page_title": "أوقات الصلاة في {city}، {month}",
        "home_title": "أوقات الصلاة والتقويم الهجري للمسلمين الشيعة",
        "home_intro": "جداول شهرية لأوقات الصلاة قابلة للطباعة لـ{count} مدينة، وإمساكية شهر رمضان، وخرائط "
                      "رؤية الهلال، وتقاويم للاشتراك، مجاناً.",
        "find_city": "ابحث عن مدينتك",
        "find_city_label": "اسم المدينة (بالعربية أو فارسی أو اردو أو English)",
        "all_cities": "كل المدن ({count})",
        "examples": "الأكثر فتحاً",
        "moon_maps": "رؤية الهلال",
        "developers": "للمبرمجين: واجهة JSON",
        "developers_text": "كل الأرقام في هذه الصفحات من واجهة JSON مجانية؛ مرجعها في الصفحة الرئيسية الإنجليزية.",
        "api_reference": "مرجع الواجهة البرمجية",
        "map_cities": "مدن مرجعية",
        "point_answer": "الهلال في {city} مساءً بعد مساء (JSON)",
    },
    "fa": {
        "csv_link": "این ماه به صورت CSV (برای صفحه‌گسترده)",
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
        "imsakiya_note": "ساعت‌ها به وقت محلی ({tz})؛ روش محاسبه: {method}. اعداد از رابط JSON:",
        "imsakiya_source": "آغاز ماه: {begins} ({source}). شب‌های قدر (۱۹، ۲۱ و ۲۳ رمضان) از مغرب روز "
                           "علامت‌خورده آغاز می‌شوند.",
        "months_nav": "ماه‌ها",
        "this_month": "این ماه و ماه بعد",
        "month_page_title": "اوقات شرعی {city}، {month}",
        "home_title": "اوقات شرعی و تقویم قمری برای شیعیان",
        "home_intro": "جدول ماهانهٔ اوقات شرعی برای {count} شهر، قابل چاپ، جدول ماه رمضان، نقشه‌های رؤیت هلال "
                      "و تقویم‌های اشتراکی، رایگان.",
        "find_city": "شهر خود را پیدا کنید",
        "find_city_label": "نام شهر (فارسی، العربية، اردو یا English)",
        "all_cities": "همهٔ شهرها ({count})",
        "examples": "پربازدید",
        "moon_maps": "رؤیت هلال",
        "developers": "برای برنامه‌نویسان: رابط JSON",
        "developers_text": "همهٔ اعداد این صفحه‌ها از یک رابط JSON رایگان است؛ راهنمای آن در صفحهٔ اصلی انگلیسی است.",
        "api_reference": "راهنمای رابط برنامه‌نویسی",
        "map_cities": "شهرهای راهنما",
        "point_answer": "هلال در {city}، شب به شب (JSON)",
    },
    "ur": {
        "csv_link": "یہ مہینہ CSV میں (اسپریڈشیٹ کے لیے)",
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
        "imsakiya_note": "اوقات مقامی گھڑی ({tz}) کے مطابق؛ طریقۂ حساب: {method}۔ اعداد JSON API سے:",
        "imsakiya_source": "مہینے کا آغاز: {begins} ({source})۔ شبہائے قدر (۱۹، ۲۱، ۲۳ رمضان) نشان زدہ دن کی "
                           "مغرب سے شروع ہوتی ہیں۔",
        "months_nav": "مہینے",
        "this_month": "یہ مہینہ اور اگلا",
        "month_page_title": "{city} کے اوقاتِ نماز، {month}",
        "home_title": "شیعہ مسلمانوں کے لیے اوقاتِ نماز اور ہجری تقویم",
        "home_intro": "{count} شہروں کے قابلِ طباعت ماہانہ اوقاتِ نماز، رمضان کا امساکیہ، ہلال کی رؤیت کے نقشے "
                      "اور کیلنڈر فیڈز، مفت۔",
        "find_city": "اپنا شہر تلاش کریں",
        "find_city_label": "شہر کا نام (اردو، العربية، فارسی یا English)",
        "all_cities": "تمام شہر ({count})",
        "examples": "زیادہ دیکھے گئے",
        "moon_maps": "ہلال کی رؤیت",
        "developers": "ڈویلپرز کے لیے: JSON API",
        "developers_text": "ان صفحات کے تمام اعداد ایک مفت JSON API سے ہیں؛ اس کا حوالہ انگریزی صفحۂ اول پر ہے۔",
        "api_reference": "API کا حوالہ",
        "map_cities": "حوالہ شہر",
        "point_answer": "{city} میں ہلال، شام بہ شام (JSON)",
    },
}

# The reference cities marked on the crescent maps (catalogue ids), west to east.
MAP_CITIES = ("new-york", "london", "mecca", "najaf", "tehran", "karachi", "jakarta")
