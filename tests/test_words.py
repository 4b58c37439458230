"""The words the language review of 26 November found wrong in every language (issue 29, docs/site.md).

Each test states the rule a reader applies, written here from its source, not from our code:

* city lists in each language's alphabetical order (the alphabets below, written from the
  Persian and Urdu alphabets as their dictionaries order them and the Arabic hijāʾī order);
* no two catalogue cities with one displayed name in a language;
* an Urdu time written with the part of the day of its prayer, never the clock hour's;
* no unisolated ASCII minus, signed coordinate or IANA zone id in right-to-left feed text;
* one event per minute in a feed (imsak and suhoor-ends were two at the same instant).
"""
from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, timezone

import icalendar
import pytest
from conftest import call

from generator import cities

RTL = ("ar", "fa", "ur")
TODAY = date(2026, 11, 26)
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"

# --- Alphabetical order ----------------------------------------------------------------------
# Each alphabet as its readers learn it, one letter (or Urdu aspirate) after another; the forms
# after "=" are the same letter (hamza seats, Arabic and Persian forms of ک ه ی).
# Arabic: the hijāʾī order (ا ب ت ث ج ح خ د ذ ر ز س ش ص ض ط ظ ع غ ف ق ك ل م ن ه و ي); hamza seats
# and ة ى folded, the article ال not sorted (the Arabic reader: «البصرة» under ب).
# Persian: آ ا ب پ ت ث ج چ ح خ د ذ ر ز ژ س ش ص ض ط ظ ع غ ف ق ک گ ل م ن و ه ی (Persian dictionaries
# open with آ; و before ه).  Urdu: the 39 letters of Urdu primers, ا ب پ ت ٹ ث ج چ ح خ د ڈ ذ ر ڑ ز
# ژ س ش ص ض ط ظ ع غ ف ق ک گ ل م ن ں و ہ ھ ء ی ے, آ first, and the aspirates (بھ, پھ, …) as
# letters after their base letter, as Urdu dictionaries (and Pakistan's collation standard) sort them.
ALPHABETS = {
    "ar": "ء ا=أ=إ=آ=ٱ ب ت ث ج ح خ د ذ ر ز س ش ص ض ط ظ ع غ ف ق ك ل م ن ه=ة و=ؤ ي=ى=ئ",
    "fa": "آ ا ء=أ=إ=ؤ=ئ ب پ ت ث ج چ ح خ د ذ ر ز ژ س ش ص ض ط ظ ع غ ف ق ک گ ل م ن و ه=ة ی",
    "ur": "آ ا=أ ب بھ پ پھ ت تھ ٹ ٹھ ث ج جھ چ چھ ح خ د دھ ڈ ڈھ ذ ر رھ ڑ ڑھ ز ژ س ش ص ض ط ظ ع غ ف ق ک کھ "
          "گ گھ ل لھ م مھ ن نھ ں و=ؤ ہ=ۂ ھ ۃ ء ی=ئ ے=ۓ",
}


def _letters(name: str, lang: str) -> list[int]:
    """The letters of ``name`` as places in its alphabet; a space or ZWNJ is 0, before every letter."""
    place = {}
    for i, letter in enumerate(ALPHABETS[lang].split(), start=1):
        place.update({form: i for form in letter.split("=")})
    text = "".join(ch for ch in unicodedata.normalize("NFC", name) if not unicodedata.combining(ch))
    if lang == "ar":
        text = " ".join(w[2:] if w.startswith("ال") and len(w) > 3 else w for w in text.split(" "))
    out, i = [], 0
    while i < len(text):
        if text[i:i + 2] in place:
            out.append(place[text[i:i + 2]])
            i += 2
            continue
        out.append(0 if text[i] in " \u200c" else place.get(text[i], 1000))
        i += 1
    return out


def _home_cities(lang: str) -> list[str]:
    from generator.site import index

    html = index.render_home(TODAY, lang).decode()
    listed = html.split('<ul class="columns">', 1)[1].split("</ul>", 1)[0]
    return re.findall(r"<bdi>([^<]*)</bdi>", listed)


# What each reader looked for and did not find (language_review_2026-11-26): runs of the list as
# their alphabet orders them.
READERS_RUNS = {
    "ar": [("أبوجا", "أبوظبي", "أتلانتا", "أثينا", "أجمير", "الأحساء", "أحمد آباد", "إدمونتون", "إدنبرة"),
           ("بشكيك", "البصرة", "بعقوبة"), ("الكوت", "الكوفة", "كولكاتا")],
    "fa": [("قم", "قندهار", "کابل"), ("کراچی", "کرایست\u200cچرچ", "کربلا", "کرج"), ("بیروت", "بیشکک", "پاراچنار"),
           ("آگره", "آلماتی", "آمستردام", "آمل", "آنتاناناریوو", "آنتورپ", "آنکارا")],
    "ur": [("آبادان",), ("ابوجا", "ابوظہبی", "اٹلانٹا", "اجمیر"), ("کراچی", "کرائسٹ چرچ", "کربلا"),
           ("پشاور", "پورٹ لوئس", "پیرس", "تاشقند")],
}


@pytest.mark.parametrize("lang", RTL)
def test_the_home_list_follows_the_alphabet_of_its_language(lang):
    listed = _home_cities(lang)
    assert len(listed) == len(cities.load())
    keys = [_letters(name, lang) for name in listed]
    wrong = [(a, b) for a, b, ka, kb in zip(listed, listed[1:], keys, keys[1:]) if ka > kb]
    assert not wrong, f"{lang}: {len(wrong)} pairs out of order, e.g. {wrong[:5]}"
    for run in READERS_RUNS[lang]:
        at = [listed.index(name) for name in run]
        assert at == sorted(at) and at[-1] - at[0] == len(run) - 1, (lang, run, at)
    if lang == "ur":
        assert listed[0] == "آبادان"


def test_the_alphabet_test_fails_on_code_point_order():
    """The rule above rejects the order the home pages had (Python's code-point sort)."""
    for lang in RTL:
        listed = sorted(c["names"][lang] for c in cities.load())
        keys = [_letters(name, lang) for name in listed]
        assert any(ka > kb for ka, kb in zip(keys, keys[1:])), lang


# --- One name, one city ----------------------------------------------------------------------
@pytest.mark.parametrize("lang", ("en", *RTL))
def test_no_two_catalogue_cities_share_a_displayed_name(lang):
    seen: dict[str, str] = {}
    for city in cities.load():
        name = city["names"][lang]
        assert name not in seen, f"{lang}: {city['id']} and {seen[name]} are both «{name}»"
        seen[name] = city["id"]
