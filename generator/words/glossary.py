"""The reviewed glossary (data/glossary.csv): every word the pages, feeds and API labels print.

One row per term: ``id``, the text in ``en``, ``ar``, ``fa`` and ``ur``, and a ``note`` on its
usage and source.  A term is fixed once here, and `generator.words.hijri_names`,
`generator.words.feed_words` and `generator.words.page_words` build their tables from it.

Read once and checked at import (a bad row fails the build, not a reader):

* every row has all four languages and a note;
* the ``{placeholders}`` of a template are the same in every language;
* letter forms and digits of each language (`LETTER_RULES`): no Persian, Urdu or
  Extended-digit forms in Arabic; no Arabic ي ك or Urdu forms in Persian; no Arabic ي ك ة ه
  or Persian forms in Urdu; no ASCII digits in right-to-left text;
* ``·`` never appears in Arabic-script text (Persian and Urdu write zero as a dot, ۰).

A run of Latin letters in right-to-left text ("A4", "JSON", "GSHHS") is wrapped in the
Unicode isolates LRI … PDI when read, so it keeps its own direction inside the sentence
without the CSV carrying invisible characters.
"""
from __future__ import annotations

import csv
import functools
import re
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

GLOSSARY_PATH = Path(__file__).resolve().parents[2] / "data" / "glossary.csv"
from generator.words.locale import LANGUAGES, RTL

RTL_LANGUAGES = tuple(lang for lang in LANGUAGES if lang in RTL)
# Unicode bidi isolates (UAX #9): left-to-right, first-strong, and their end
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"

# Characters a language's text must not contain, with the reason (docs/site.md, "Glossary").
LETTER_RULES: dict[str, dict[str, str]] = {
    "ar": {
        "\u06cc": "Persian/Urdu yeh ی (Arabic writes ي)",
        "\u06a9": "keheh ک (Arabic writes ك)",
        "\u06c1": "Urdu heh goal ہ", "\u06be": "Urdu do-chashmi heh ھ", "\u06d2": "Urdu yeh barree ے",
        "\u06c3": "Urdu teh marbuta goal ۃ",
        "\u067e": "peh پ", "\u0686": "tcheh چ", "\u0698": "jeh ژ", "\u06af": "gaf گ",
        "\u0679": "tteh ٹ", "\u0688": "ddal ڈ", "\u0691": "rreh ڑ",
        **{chr(c): "Extended Arabic-Indic digit (Arabic writes ٠–٩)" for c in range(0x06F0, 0x06FA)},
    },
    "fa": {
        "\u064a": "Arabic yeh ي (Persian writes ی)", "\u0649": "alef maksura ى (Persian writes ی)",
        "\u0643": "Arabic kaf ك (Persian writes ک)",
        "\u06c1": "Urdu heh goal ہ", "\u06be": "Urdu do-chashmi heh ھ", "\u06d2": "Urdu yeh barree ے",
        "\u06c3": "Urdu teh marbuta goal ۃ",
        "\u0679": "tteh ٹ", "\u0688": "ddal ڈ", "\u0691": "rreh ڑ",
        **{chr(c): "Arabic-Indic digit (Persian writes ۰–۹)" for c in range(0x0660, 0x066A)},
    },
    "ur": {
        "\u064a": "Arabic yeh ي (Urdu writes ی)", "\u0649": "alef maksura ى (Urdu writes ی)",
        "\u0643": "Arabic kaf ك (Urdu writes ک)",
        "\u0629": "Arabic teh marbuta ة (Urdu writes ۃ or ت)",
        "\u0647": "Arabic heh ه (Urdu writes ہ or ھ)",
        **{chr(c): "Arabic-Indic digit (Urdu writes ۰–۹)" for c in range(0x0660, 0x066A)},
    },
}
_PLACEHOLDER = re.compile(r"\{[a-z_]*\}")
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[ ./-][A-Za-z0-9]+)*")
_ASCII_DIGIT = re.compile(r"[0-9]")


class GlossaryError(ValueError):
    """A glossary row breaks a rule; the message names the row, the language and the rule."""


def letter_form_errors(text: str, lang: str) -> list[str]:
    """Return the letter-form and digit rules of ``lang`` that ``text`` breaks (empty when none)."""
    rules = LETTER_RULES.get(lang, {})
    found = sorted({rules[ch] for ch in text if ch in rules})
    if lang in RTL_LANGUAGES and "\u00b7" in text:
        found.append("middle dot · (reads as the zero ۰ in Arabic script; use ' — ')")
    return found


def isolate_latin(text: str) -> str:
    """Return right-to-left ``text`` with each Latin run ("A4", "JSON API") wrapped in LRI … PDI.

    ``{placeholders}`` are left alone: the code that fills them isolates what it puts in.
    """
    parts = _PLACEHOLDER.split(text)
    holes = _PLACEHOLDER.findall(text)
    out = [_LATIN_RUN.sub(lambda m: LRI + m.group(0) + PDI, part) for part in parts]
    return "".join(part + hole for part, hole in zip(out, holes + [""]))


def _check(row: dict, line: int) -> None:
    term_id = row["id"]
    for lang in LANGUAGES:
        if not row.get(lang):
            raise GlossaryError(f"glossary line {line} ({term_id}): no {lang} text")
        errors = letter_form_errors(row[lang], lang)
        if errors:
            raise GlossaryError(f"glossary line {line} ({term_id}, {lang}): {'; '.join(errors)}")
    if not row.get("note"):
        raise GlossaryError(f"glossary line {line} ({term_id}): no note on usage and source")
    holes = {lang: sorted(_PLACEHOLDER.findall(row[lang])) for lang in LANGUAGES}
    if any(holes[lang] != holes["en"] for lang in LANGUAGES):
        raise GlossaryError(f"glossary line {line} ({term_id}): placeholders differ between languages: {holes}")
    for lang in RTL_LANGUAGES:
        outside_latin = _LATIN_RUN.sub("", _PLACEHOLDER.sub("", row[lang]))
        if _ASCII_DIGIT.search(outside_latin):
            raise GlossaryError(f"glossary line {line} ({term_id}, {lang}): ASCII digits in right-to-left text")


@functools.cache
def terms() -> Mapping[str, Mapping[str, str]]:
    """Return {term id: {language: text}} of every glossary row, read once and checked."""
    with GLOSSARY_PATH.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    out: dict[str, Mapping[str, str]] = {}
    for line, row in enumerate(rows, start=2):
        _check(row, line)
        if row["id"] in out:
            raise GlossaryError(f"glossary line {line}: {row['id']} defined twice")
        texts = {lang: isolate_latin(row[lang]) if lang in RTL_LANGUAGES else row[lang] for lang in LANGUAGES}
        out[row["id"]] = MappingProxyType(texts)
    return MappingProxyType(out)


def term(term_id: str) -> dict[str, str]:
    """Return {language: text} of one term (KeyError names the missing id)."""
    return dict(terms()[term_id])


def group(prefix: str) -> dict[str, dict[str, str]]:
    """Return {language: {key: text}} of the terms ``<prefix>.<key>``, in glossary order."""
    keys = [term_id[len(prefix) + 1:] for term_id in terms() if term_id.startswith(prefix + ".")]
    if not keys:
        raise KeyError(f"no glossary terms under {prefix!r}")
    return {lang: {key: terms()[f"{prefix}.{key}"][lang] for key in keys} for lang in LANGUAGES}


def sequence(prefix: str) -> dict[str, tuple[str, ...]]:
    """Return {language: texts} of the terms under ``prefix`` in glossary order (months, weekdays)."""
    return {lang: tuple(texts.values()) for lang, texts in group(prefix).items()}
