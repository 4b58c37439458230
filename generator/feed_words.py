"""The words of the four ICS feeds in en, ar, fa and ur: calendar names, summaries, descriptions.

Written by us, as a reader of each language expects them (docs/decisions.md):

* Prayer names follow each community's usage: Arabic "صلاة الفجر", Persian as on Iran's
  timetables ("نماز صبح", "اوقات شرعی"), Urdu with the izafat ("نمازِ فجر").  A jamaat time
  (a prayer with an offset) is the iqama in Arabic ("إقامة صلاة الفجر"), "نماز جماعت صبح" in
  Persian and "فجر کی جماعت" in Urdu.
* Numbers are written with the digits of the language, as `generator.hijri_names` does for
  Hijri dates (Arabic-Indic for ar, Extended Arabic-Indic for fa and ur).
* Nothing here is counted ("3 minutes"), so no number–noun agreement is needed in any
  language; an offset shows as the calculated time beside the jamaat time.

Every template is filled with `str.format`; the values put in are our own strings or
catalogue text, and the feed builder escapes the result (`generator.feeds.Text`).
"""
from __future__ import annotations

from generator import hijri_names
from generator.locale import DEFAULT_LANGUAGE, LANGUAGES, native  # noqa: F401  (re-exported for callers)
SEPARATOR = " · "

PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")
PRAYER_NAMES = {
    "en": {"fajr": "Fajr", "dhuhr": "Dhuhr", "asr": "Asr", "maghrib": "Maghrib", "isha": "Isha"},
    "ar": {"fajr": "الفجر", "dhuhr": "الظهر", "asr": "العصر", "maghrib": "المغرب", "isha": "العشاء"},
    "fa": {"fajr": "صبح", "dhuhr": "ظهر", "asr": "عصر", "maghrib": "مغرب", "isha": "عشا"},
    "ur": {"fajr": "فجر", "dhuhr": "ظہر", "asr": "عصر", "maghrib": "مغرب", "isha": "عشاء"},
}
PRAYER_SUMMARY = {"en": "{prayer}", "ar": "صلاة {prayer}", "fa": "نماز {prayer}", "ur": "نمازِ {prayer}"}
JAMAAT_SUMMARY = {
    "en": "{prayer} jamaat",
    "ar": "إقامة صلاة {prayer}",
    "fa": "نماز جماعت {prayer}",
    "ur": "{prayer} کی جماعت",
}

LOCAL_TIME = {
    "en": "{time} {city} time",
    "ar": "{time} بتوقيت {city}",
    "fa": "ساعت {time} به وقت {city}",
    "ur": "{city} کے وقت کے مطابق {time}",
}
METHOD_LINE = {
    "en": "Calculation method: {method}",
    "ar": "طريقة الحساب: {method}",
    "fa": "روش محاسبه: {method}",
    "ur": "طریقۂ حساب: {method}",
}
JAMAAT_LINE = {
    "en": "Jamaat time; the calculated {prayer} time is {time}",
    "ar": "وقت الإقامة؛ الوقت المحسوب لصلاة {prayer} هو {time}",
    "fa": "وقت نماز جماعت؛ وقت شرعی {prayer}: {time}",
    "ur": "جماعت کا وقت؛ {prayer} کا حساب شدہ وقت {time} ہے",
}
POLAR_LINE = {
    "en": "Computed at latitude {lat}°, the nearest latitude where the sun rises and sets that day",
    "ar": "حُسب الوقت على خط العرض {lat}°، أقرب خط عرض تشرق فيه الشمس وتغرب في ذلك اليوم",
    "fa": "محاسبه در عرض جغرافیایی {lat} درجه، نزدیک‌ترین عرضی که خورشید در آن روز طلوع و غروب می‌کند",
    "ur": "عرض البلد {lat}° پر حساب کیا گیا، جو قریب ترین عرض البلد ہے جہاں اس دن سورج طلوع و غروب ہوتا ہے",
}
PRAYER_CALENDAR = {
    "en": "Prayer times",
    "ar": "أوقات الصلاة",
    "fa": "اوقات شرعی",
    "ur": "اوقاتِ نماز",
}
PRAYER_CALENDAR_DESCRIPTION = {
    "en": "Fajr, dhuhr, asr, maghrib and isha in {city}",
    "ar": "الفجر والظهر والعصر والمغرب والعشاء في {city}",
    "fa": "اوقات نماز صبح، ظهر، عصر، مغرب و عشا در {city}",
    "ur": "{city} میں فجر، ظہر، عصر، مغرب اور عشاء کے اوقات",
}

NIGHT_CALENDAR = {
    "en": "Last third of the night",
    "ar": "الثلث الأخير من الليل",
    "fa": "ثلث آخر شب",
    "ur": "رات کا آخری تہائی",
}
NIGHT_SUMMARY = NIGHT_CALENDAR
NIGHT_CALENDAR_DESCRIPTION = {
    "en": "When the last third of each night begins in {city}: maghrib plus two thirds of the time to the next fajr",
    "ar": "بداية الثلث الأخير من كل ليلة في {city}: المغرب مضافًا إليه ثلثا المدة حتى الفجر التالي",
    "fa": "آغاز ثلث آخر هر شب در {city}: مغرب به‌علاوهٔ دو سوم فاصله تا اذان صبح بعد",
    "ur": "{city} میں ہر رات کے آخری تہائی حصے کا آغاز: مغرب کے بعد اگلی فجر تک کے وقفے کا دو تہائی",
}
NIGHT_DESCRIPTION = {  # the whole last third is sahar, preferred for Salat al-Layl (data/SOURCES-FEEDS.md)
    "en": "From {start} to fajr at {fajr}, {city} time: sahar, the preferred time for Salat al-Layl",
    "ar": "من {start} حتى الفجر {fajr} بتوقيت {city}: وقت السحر، أفضل أوقات صلاة الليل",
    "fa": "از ساعت {start} تا اذان صبح ساعت {fajr} به وقت {city}: وقت سحر، بهترین وقت نماز شب",
    "ur": "{city} کے وقت کے مطابق {start} سے فجر {fajr} تک: وقتِ سحر، نمازِ شب کا افضل وقت",
}

# Hijri reckonings: as a calendar title suffix, and as the phrase "dates follow …".
RECKONING_TITLE = {
    "moonsighting": {"en": "moon sighting", "ar": "رؤية الهلال", "fa": "رؤیت هلال", "ur": "رؤیتِ ہلال"},
    "iran": {"en": "Iran's official calendar", "ar": "التقويم الرسمي في إيران", "fa": "تقویم رسمی ایران",
             "ur": "ایران کا سرکاری کیلنڈر"},
}
RECKONING_BASIS = {
    "moonsighting": {"en": "moon sighting", "ar": "رؤية الهلال", "fa": "رؤیت هلال", "ur": "رؤیتِ ہلال"},
    "iran": {"en": "Iran's official calendar", "ar": "التقويم الرسمي في إيران", "fa": "تقویم رسمی ایران",
             "ur": "ایران کے سرکاری کیلنڈر"},
}
DATES_FOLLOW = {
    "en": "Dates follow {basis}; the calendar is refreshed daily and follows announced sightings.",
    "ar": "التواريخ وفق {basis}، ويُحدَّث التقويم يوميًا ليتبع إعلانات رؤية الهلال.",
    "fa": "تاریخ‌ها بر پایهٔ {basis} است و تقویم هر روز به‌روز می‌شود تا اعلام رؤیت هلال را دنبال کند.",
    "ur": "تاریخیں {basis} کے مطابق ہیں؛ یہ کیلنڈر روزانہ تازہ ہوتا ہے اور رؤیتِ ہلال کے اعلانات کی پیروی کرتا ہے۔",
}
SUNSET_NOTE = {
    "en": "A Hijri day begins at sunset: the night of an occasion is the evening before its date.",
    "ar": "يبدأ اليوم الهجري عند غروب الشمس، فليلة المناسبة هي مساء اليوم الذي يسبق تاريخها.",
    "fa": "روز قمری از غروب آفتاب آغاز می‌شود؛ شبِ هر مناسبت، شامگاهِ روزِ پیش از آن است.",
    "ur": "ہجری دن غروبِ آفتاب سے شروع ہوتا ہے، اس لیے کسی موقع کی رات اس کی تاریخ سے پہلے کی شام ہوتی ہے۔",
}
PREDICTED_NOTE = {
    "en": "Predicted date: it may move by a day when the crescent is sighted.",
    "ar": "تاريخ متوقَّع، قد يتغيّر يومًا واحدًا عند رؤية الهلال.",
    "fa": "تاریخ پیش‌بینی‌شده؛ ممکن است با رؤیت هلال یک روز جابه‌جا شود.",
    "ur": "متوقع تاریخ؛ رؤیتِ ہلال پر ایک دن آگے پیچھے ہو سکتی ہے۔",
}

EVENTS_CALENDAR = {
    "en": "Islamic events (Shia)",
    "ar": "المناسبات الإسلامية الشيعية",
    "fa": "مناسبت‌های مذهبی",
    "ur": "اسلامی ایام (شیعہ)",
}
MAJOR_EVENTS_CALENDAR = {
    "en": "Major Islamic events (Shia)",
    "ar": "أبرز المناسبات الإسلامية الشيعية",
    "fa": "مناسبت‌های مهم مذهبی",
    "ur": "اہم اسلامی ایام (شیعہ)",
}

FASTING_CALENDAR = {
    "en": "Recommended fasts",
    "ar": "الصيام المستحب",
    "fa": "روزه‌های مستحب",
    "ur": "مستحب روزے",
}
AYYAM_AL_BID_SUMMARY = {
    "en": "Ayyam al-Bid fast",
    "ar": "صيام الأيام البيض",
    "fa": "روزهٔ ایام‌البیض",
    "ur": "ایام البیض کا روزہ",
}
EMPHASISED_FAST_SUMMARY = {
    "en": "Recommended fast · {occasion}",
    "ar": "صيام مستحب مؤكد · {occasion}",
    "fa": "روزهٔ مستحب مؤکد · {occasion}",
    "ur": "مؤکد مستحب روزہ · {occasion}",
}
FASTING_CALENDAR_DESCRIPTION = {
    "en": "Ayyam al-Bid, the 13th, 14th and 15th of every Hijri month except Ramadan (whose fast is "
          "obligatory), and the emphasised recommended fasts of Mafatih al-Jinan: {days}. "
          "No fast is listed on a day when fasting is forbidden.",
    "ar": "الأيام البيض، أي الثالث عشر والرابع عشر والخامس عشر من كل شهر هجري عدا شهر رمضان "
          "(فصيامه واجب)، والصيام المستحب المؤكد في مفاتيح الجنان: {days}. "
          "ولا يُدرج صيام في يوم يحرم صومه.",
    "fa": "ایام‌البیض، یعنی روزهای سیزدهم، چهاردهم و پانزدهم هر ماه قمری جز ماه رمضان "
          "(که روزه‌اش واجب است)، و روزه‌های مستحب مؤکد در مفاتیح‌الجنان: {days}. "
          "در روزهایی که روزه گرفتن حرام است روزه‌ای درج نمی‌شود.",
    "ur": "ایام البیض، یعنی ہر ہجری مہینے کی تیرہ، چودہ اور پندرہ تاریخ، سوائے رمضان کے "
          "(جس کا روزہ واجب ہے)، اور مفاتیح الجنان کے مؤکد مستحب روزے: {days}۔ "
          "جن دنوں روزہ رکھنا حرام ہے ان میں کوئی روزہ درج نہیں کیا جاتا۔",
}
_LIST_JOIN = {"en": (", ", " and "), "ar": ("، ", " و"), "fa": ("، ", " و "), "ur": ("، ", " اور ")}

def join_list(items: list[str], lang: str) -> str:
    """Return "a, b and c" in ``lang``."""
    comma, last = _LIST_JOIN[lang]
    if len(items) < 2:
        return "".join(items)
    return comma.join(items[:-1]) + last + items[-1]


def hijri_day_month(month: int, day: int, lang: str) -> str:
    """Return a Hijri day and month without the year, e.g. "17 Rabi' al-Awwal", "١٧ ربيع الأول"."""
    return f"{hijri_names.native_digits(day, lang)} {hijri_names.MONTHS[lang][month - 1]}"


def titled(base: str, qualifier: str) -> str:
    """Return a calendar title with a qualifier: "Prayer times · London"."""
    return base + SEPARATOR + qualifier


# --- Nights (issue 10) ------------------------------------------------------------------------
# A night event (data/nights.csv) is listed on the civil day on whose evening it begins.  Kept
# together so the glossary work of issue 14 can move them as one block.  The Arabic, Persian
# and Urdu phrases need no agreement with the title: "تبدأ" agrees with ليلة / هجرة (both
# feminine, the only night titles), Persian and Urdu use a noun phrase.
NIGHT_BEGINS = {  # appended to a night's title (feed SUMMARY, timetable row)
    "en": "begins at sunset",
    "ar": "تبدأ عند غروب الشمس",
    "fa": "آغاز از غروب آفتاب",
    "ur": "غروبِ آفتاب سے آغاز",
}
NIGHT_BEGINS_ON = {  # a night's DESCRIPTION line; {date}: its eve, written as the site writes dates
    "en": "Begins at sunset on {date}.",
    "ar": "تبدأ عند غروب الشمس مساء {date}.",
    "fa": "از غروب آفتاب روز {date} آغاز می‌شود.",
    "ur": "{date} کو غروبِ آفتاب سے آغاز۔",
}
NIGHTS_NOTE = {  # the events calendar's DESCRIPTION, after SUNSET_NOTE
    "en": "Nights such as the Nights of Qadr are listed on the day on whose evening they begin.",
    "ar": "تُدرَج الليالي، كليالي القدر، في اليوم الذي تبدأ عند غروب شمسه.",
    "fa": "شب‌هایی مانند شب‌های قدر در روزی آمده‌اند که از غروبِ آن آغاز می‌شوند.",
    "ur": "شبِ قدر جیسی راتیں اس دن درج ہیں جس کی شام کو وہ شروع ہوتی ہیں۔",
}
