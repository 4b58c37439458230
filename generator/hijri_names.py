"""Hijri month names, weekday names and formatted dates in en, ar, fa and ur.

Written by us, as a reader of each language expects them (docs/decisions.md):

* Month names follow each community's usage: Arabic as printed in Iraq and the Gulf
  (ربيع الثاني, جمادى الأولى/الثانية), Persian as on Iran's official calendar (with the
  zero-width non-joiner, ربیع‌الاول), Urdu with the customary honorifics of Pakistani and
  Indian calendars (محرم الحرام, رمضان المبارک).  English uses common transliterations.
* Digits: ar uses Arabic-Indic digits (٠–٩, U+0660..0669), fa and ur the Extended
  Arabic-Indic digits (۰–۹, U+06F0..06F9; Urdu fonts draw ۴ ۶ ۷ in their Urdu forms), as on
  printed Hijri calendars in those languages; en uses ASCII digits.
* Formatted date: day, month name, year and the era mark of the language:
  "1 Ramadan 1446 AH", "١ رمضان ١٤٤٦ هـ", "۱ رمضان ۱۴۴۶ ه‍.ق", "۱ رمضان المبارک ۱۴۴۶ھ".
"""
from __future__ import annotations

from generator.locale import DIGITS, LANGUAGES, native  # noqa: F401  (re-exported for callers)

MONTHS = {
    "en": (
        "Muharram", "Safar", "Rabi' al-Awwal", "Rabi' al-Thani", "Jumada al-Ula", "Jumada al-Thaniyah",
        "Rajab", "Sha'ban", "Ramadan", "Shawwal", "Dhu al-Qa'dah", "Dhu al-Hijjah",
    ),
    "ar": (
        "محرم", "صفر", "ربيع الأول", "ربيع الثاني", "جمادى الأولى", "جمادى الثانية",
        "رجب", "شعبان", "رمضان", "شوال", "ذو القعدة", "ذو الحجة",
    ),
    "fa": (
        "محرم", "صفر", "ربیع‌الاول", "ربیع‌الثانی", "جمادی‌الاول", "جمادی‌الثانی",
        "رجب", "شعبان", "رمضان", "شوال", "ذی‌القعده", "ذی‌الحجه",
    ),
    "ur": (
        "محرم الحرام", "صفر المظفر", "ربیع الاول", "ربیع الثانی", "جمادی الاول", "جمادی الثانی",
        "رجب المرجب", "شعبان المعظم", "رمضان المبارک", "شوال المکرم", "ذوالقعدہ", "ذوالحجہ",
    ),
}

# Monday first, as Python's date.weekday() (0 = Monday).
WEEKDAYS = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "ar": ("الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت", "الأحد"),
    "fa": ("دوشنبه", "سه‌شنبه", "چهارشنبه", "پنجشنبه", "جمعه", "شنبه", "یکشنبه"),
    "ur": ("پیر", "منگل", "بدھ", "جمعرات", "جمعہ", "ہفتہ", "اتوار"),
}

_ERA = {"en": "{d} {m} {y} AH", "ar": "{d} {m} {y} هـ", "fa": "{d} {m} {y} ه\u200d.ق", "ur": "{d} {m} {y}ھ"}


def native_digits(number: int, lang: str) -> str:
    """Return ``number`` written with the digits of ``lang``."""
    return native(number, lang)


def month_names(month: int) -> dict[str, str]:
    """Return the name of Hijri month ``month`` (1 = Muharram) in every language."""
    return {lang: MONTHS[lang][month - 1] for lang in LANGUAGES}


def weekday_names(weekday: int) -> dict[str, str]:
    """Return the weekday name (0 = Monday, as ``date.weekday()``) in every language."""
    return {lang: WEEKDAYS[lang][weekday] for lang in LANGUAGES}


def formatted(year: int, month: int, day: int) -> dict[str, str]:
    """Return the Hijri date written out in every language (see the module docstring)."""
    return {
        lang: _ERA[lang].format(
            d=native_digits(day, lang), m=MONTHS[lang][month - 1], y=native_digits(year, lang)
        )
        for lang in LANGUAGES
    }
