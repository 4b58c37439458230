"""Alphabetical order of names in ar, fa and ur, as each language's readers look them up.

Python's ``sorted`` on text is code-point order: in Persian and Urdu every پ چ ژ ک گ (and Urdu
ٹ ڈ ڑ) falls after و, and in Arabic every «ال…» name forms one block before ب.  A reader looks
for کربلا under ک and for البصرة under ب (language review of 2026-11-26, docs/site.md).

The order of each language is data (data/alphabets.csv, sources in data/SOURCES.md): its
letters in order, a letter's other forms after ``=`` (they sort as that letter: the hamza seats
in Arabic, ک/ك in Persian), Urdu's aspirates (بھ … گھ) as letters of their own after their base
letter, and the article to leave out at the head of a word (Arabic ال).  Why not ICU: PyICU
has no wheel for any Python (it builds against a system libicu and a C++ compiler, which a fresh
clone's ``make serve`` cannot count on), and the one ICU wheel on PyPI (icu4py) has no collator;
the pure-Python UCA (pyuca, 2017) has the root order only, not the Persian or Urdu tailorings
(where و comes before ه), so they would still have to be written here.

A key compares letter by letter; a space, a ZWNJ or a hyphen is lower than any letter (so
«نجف» before «نجف آباد», «خرم‌آباد» before «خرمشهر»); harakat and other combining marks are
skipped; anything else (a bracket, a Latin letter) sorts after the letters.  English sorts by
case-folded text.
"""
from __future__ import annotations

import csv
import functools
import unicodedata
from pathlib import Path

from generator.words.locale import RTL

ALPHABETS_PATH = Path(__file__).resolve().parents[2] / "data" / "alphabets.csv"
_SEPARATORS = frozenset(" \u200c\u200d-\u00a0")
_TATWEEL = "\u0640"


@functools.cache
def _alphabet(lang: str) -> tuple[dict[str, int], str]:
    """Return ({letter or aspirate digraph or other form: rank}, article) of ``lang``."""
    with ALPHABETS_PATH.open(encoding="utf-8", newline="") as handle:
        rows = {row["lang"]: row for row in csv.DictReader(handle)}
    row = rows[lang]
    ranks: dict[str, int] = {}
    for rank, letter in enumerate(row["order"].split(), start=2):  # 0: end of name, 1: a separator
        for form in letter.split("="):
            if form in ranks:
                raise ValueError(f"data/alphabets.csv ({lang}): {form!r} twice")
            ranks[form] = rank
    return ranks, row["article"]


def sort_key(name: str, lang: str) -> tuple:
    """Return the key that puts ``name`` in the alphabetical order of ``lang`` (module docstring)."""
    if lang not in RTL:
        return (name.casefold(), name)
    ranks, article = _alphabet(lang)
    others = len(ranks) + 2
    base = "".join(ch for ch in unicodedata.normalize("NFC", name)
                   if ch != _TATWEEL and not unicodedata.combining(ch))
    if article:  # the article at the head of each word is not sorted: البصرة under ب
        base = " ".join(word[len(article):] if word.startswith(article) and len(word) > len(article) + 1 else word
                        for word in base.split(" "))
    key: list[int] = []
    i = 0
    while i < len(base):
        pair = base[i:i + 2]
        if len(pair) == 2 and pair in ranks:  # an Urdu aspirate (بھ) is one letter
            key.append(ranks[pair])
            i += 2
            continue
        ch = base[i]
        if ch in _SEPARATORS:
            key.append(1)
        elif ch in ranks:
            key.append(ranks[ch])
        else:
            key.append(others + ord(ch))
        i += 1
    return (tuple(key), name)


def sorted_names(items, lang: str, name=lambda item: item):
    """Return ``items`` in the alphabetical order of ``lang`` by ``name(item)``."""
    return sorted(items, key=lambda item: sort_key(name(item), lang))
