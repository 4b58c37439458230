"""City search across English, Arabic, Farsi and Urdu names.

A query and every name are folded the same way before comparing: case, Latin accents
and Arabic harakat removed, tatweel and ZWNJ removed, and the letters that the three
Arabic-script languages write differently mapped to one form (ي/ی/ى/ے, ك/ک, ة/ه/ۀ/ہ/ۃ/ھ,
the alef forms, hamza seats).  A city's names are its four catalogue names, its id and
its other spellings (data/city_aliases.csv: Meshed, Kerbala, Qum, …).  Results are ranked
exact, then a whole word of a name (so "کویت" finds "شهر کویت", Kuwait City, before
"کویته", Quetta), then a prefix of a name or of a word in it, then substring; ties by
shorter name, then id.
"""
from __future__ import annotations

import functools
import re
import unicodedata

from generator.places import cities

MAX_RESULTS = 10
MAX_QUERY_CHARS = 100

_LETTER_FORMS = str.maketrans(
    {
        "ي": "ی", "ى": "ی", "ے": "ی", "ې": "ی", "ئ": "ی",
        "ك": "ک",
        "ة": "ه", "ۀ": "ه", "ە": "ه", "ہ": "ه", "ۃ": "ه", "ھ": "ه",
        "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ٲ": "ا", "ٳ": "ا",
        "ؤ": "و",
        "ـ": None,  # tatweel
        "\u200c": None, "\u200d": None,  # zero-width (non-)joiner
        "-": " ", "_": " ", "'": "", "’": "", "`": "", ".": "", ",": " ", "،": " ",
    }
)
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Return ``text`` folded for matching (see the module docstring)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    # Drop combining marks: Latin accents and Arabic harakat, shadda, sukun, superscript alef.
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    stripped = unicodedata.normalize("NFC", stripped)  # re-compose what remains (e.g. Arabic hamza forms)
    return _SPACES.sub(" ", stripped.translate(_LETTER_FORMS)).strip()


@functools.cache
def _index() -> tuple[tuple[str, tuple[str, ...]], ...]:
    entries = []
    for city in cities.load():
        spellings = (*city["names"].values(), city["id"], *cities.aliases().get(city["id"], ()))
        names = {fold(name) for name in spellings}
        entries.append((city["id"], tuple(sorted(names))))
    return tuple(entries)


def has_letters(folded: str) -> bool:
    """True when a folded query holds at least one letter (``123`` or ``--`` names no city)."""
    return any(ch.isalpha() for ch in folded)


def _rank(query: str, name: str) -> int | None:
    if name == query:
        return 0
    if f" {query} " in f" {name} ":  # whole words
        return 1
    if name.startswith(query) or any(word.startswith(query) for word in name.split(" ")[1:]):
        return 2
    if query in name:
        return 3
    return None


def search(query: str, limit: int = MAX_RESULTS) -> list[dict]:
    """Return up to ``limit`` cities (SPEC 2.3 shape) whose names match ``query``, best first."""
    folded = fold(query)
    if not folded:
        return []
    scored = []
    for city_id, names in _index():
        ranks = [(r, len(name)) for name in names if (r := _rank(folded, name)) is not None]
        if ranks:
            scored.append((min(ranks), city_id))
    scored.sort()
    by_id = cities.by_id()
    return [{**by_id[city_id], "names": dict(by_id[city_id]["names"])} for _, city_id in scored[:limit]]
