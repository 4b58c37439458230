"""Hijri month names, weekday names and formatted dates in en, ar, fa and ur (from the glossary).

Written by us, as a reader of each language expects them (docs/decisions.md):

* Month names follow each community's usage: Arabic as the Najaf office of the marja whose
  sightings the service follows writes them (ربيع الآخر, جمادى الأولى/الآخرة), Persian as on Iran's official calendar (with the
  zero-width non-joiner, ربیع‌الاول), Urdu with the customary honorifics of Pakistani and
  Indian calendars (محرم الحرام, رمضان المبارک).  English uses common transliterations.
* Digits: ar uses Arabic-Indic digits (٠–٩, U+0660..0669), fa and ur the Extended
  Arabic-Indic digits (۰–۹, U+06F0..06F9; Urdu fonts draw ۴ ۶ ۷ in their Urdu forms), as on
  printed Hijri calendars in those languages; en uses ASCII digits.
* Formatted date: day, month name, year and the era mark of the language:
  "1 Ramadan 1446 AH", "١ رمضان ١٤٤٦ هـ", "۱ رمضان ۱۴۴۶ ه‍.ق", "۱ رمضان المبارک ۱۴۴۶ھ".
  After a day number Arabic puts ذو in the genitive ("٢٥ ذي القعدة"), while the month's
  name alone (``monthName``, headings) stays "ذو القعدة" (glossary ``hijri_month_in_date``).
"""
from __future__ import annotations

from generator.words import glossary
from generator.words.locale import DIGITS, LANGUAGES, native  # noqa: F401  (re-exported for callers)

MONTHS = glossary.sequence("hijri_month")
# Monday first, as Python's date.weekday() (0 = Monday).
WEEKDAYS = glossary.sequence("weekday")

# The month names that change after a day number, by language and two-digit month ("11").
_IN_DATE = glossary.group("hijri_month_in_date")
_ERA = glossary.term("hijri_date")


def native_digits(number: int, lang: str) -> str:
    """Return ``number`` written with the digits of ``lang``."""
    return native(number, lang)


def month_names(month: int) -> dict[str, str]:
    """Return the name of Hijri month ``month`` (1 = Muharram) in every language."""
    return {lang: MONTHS[lang][month - 1] for lang in LANGUAGES}


def month_in_date(month: int, lang: str) -> str:
    """Return the name of Hijri month ``month`` as written after a day number ("٢٥ ذي القعدة")."""
    return _IN_DATE[lang].get(f"{month:02d}", MONTHS[lang][month - 1])


def weekday_names(weekday: int) -> dict[str, str]:
    """Return the weekday name (0 = Monday, as ``date.weekday()``) in every language."""
    return {lang: WEEKDAYS[lang][weekday] for lang in LANGUAGES}


def term_form(lang: str) -> str:
    """Return the written-out Hijri date's template in ``lang`` ({d} {m} {y}, with the era mark), for scripts."""
    return _ERA[lang]


def formatted(year: int, month: int, day: int) -> dict[str, str]:
    """Return the Hijri date written out in every language (see the module docstring)."""
    return {
        lang: _ERA[lang].format(
            d=native_digits(day, lang), m=month_in_date(month, lang), y=native_digits(year, lang)
        )
        for lang in LANGUAGES
    }
