"""The four languages and how each writes: digits, decimal separator, direction.

One place for what every page, feed and API label shares (docs/decisions.md, "Names and
digits"):

* ar writes Arabic-Indic digits (٠–٩, U+0660..0669); fa and ur the Extended
  Arabic-Indic digits (۰–۹, U+06F0..06F9; Urdu fonts draw ۴ ۶ ۷ in their Urdu forms), as
  printed calendars and timetables in those languages do; en writes ASCII digits.
* The decimal separator is the Arabic decimal separator ٫ (U+066B) in all three
  Arabic-script languages: Urdu print uses it as Persian and Arabic do, and a full stop
  would read as the digit zero ۰ beside Extended digits.
* ar, fa and ur are written right to left.
"""
from __future__ import annotations

LANGUAGES = ("en", "ar", "fa", "ur")
DEFAULT_LANGUAGE = "en"
RTL = frozenset({"ar", "fa", "ur"})

DIGITS = {
    "en": "0123456789",
    "ar": "٠١٢٣٤٥٦٧٨٩",
    "fa": "۰۱۲۳۴۵۶۷۸۹",
    "ur": "۰۱۲۳۴۵۶۷۸۹",
}
DECIMAL_SEPARATOR = {"en": ".", "ar": "\u066b", "fa": "\u066b", "ur": "\u066b"}

_TO_NATIVE = {lang: str.maketrans("0123456789", digits) for lang, digits in DIGITS.items()}


def native(text: object, lang: str) -> str:
    """Return ``text`` with its ASCII digits written in the digits of ``lang``."""
    return str(text).translate(_TO_NATIVE[lang])


def decimal(value: float, places: int, lang: str) -> str:
    """Return ``value`` with ``places`` decimals, in the digits and decimal separator of ``lang``."""
    return native(f"{value:.{places}f}".replace(".", DECIMAL_SEPARATOR[lang]), lang)


def direction(lang: str) -> str:
    """Return the writing direction of ``lang``: "rtl" or "ltr"."""
    return "rtl" if lang in RTL else "ltr"
