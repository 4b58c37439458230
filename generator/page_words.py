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
        "too_many": "Too many requests",
        "too_many_text": "More pages were asked for from this address than the server prepares for one visitor in a minute. Please try again in a minute.",
        "busy": "Server busy",
        "busy_text": "The server is preparing many pages at once. Please try again in a few seconds.",
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
        "too_many": "طلبات كثيرة جدًا",
        "too_many_text": "طُلبت من هذا العنوان صفحات أكثر مما يُعدّه الخادم لزائر واحد في الدقيقة. يرجى المحاولة مرة أخرى بعد دقيقة.",
        "busy": "الخادم مشغول",
        "busy_text": "يُعِدّ الخادم صفحات كثيرة في الوقت نفسه. يرجى المحاولة مرة أخرى بعد لحظات.",
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
        "too_many": "درخواست‌های بیش از حد",
        "too_many_text": "از این نشانی بیش از آنچه سرور در یک دقیقه برای یک بازدیدکننده آماده می‌کند صفحه خواسته شده است. لطفاً یک دقیقهٔ دیگر دوباره تلاش کنید.",
        "busy": "سرور مشغول است",
        "busy_text": "سرور هم‌زمان صفحه‌های زیادی آماده می‌کند. لطفاً چند لحظهٔ دیگر دوباره تلاش کنید.",
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
        "too_many": "بہت زیادہ درخواستیں",
        "too_many_text": "اس پتے سے اس سے زیادہ صفحات مانگے گئے جتنے سرور ایک منٹ میں ایک زائر کے لیے تیار کرتا ہے۔ براہِ کرم ایک منٹ بعد دوبارہ کوشش کریں۔",
        "busy": "سرور مصروف ہے",
        "busy_text": "سرور ایک ہی وقت میں بہت سے صفحات تیار کر رہا ہے۔ براہِ کرم چند لمحوں بعد دوبارہ کوشش کریں۔",
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
