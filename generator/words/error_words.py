"""A 400's reason in the reader's language (issue 33): the glossary rows ``error.<code>``.

A `QueryError` carries its English sentence and a stable ``code`` with ``args``
(generator/errors.py).  Here the code's row of the reader's language is filled with the args:
numbers in the language's digits, lists joined with its comma, ids and codes (``Europe/London``,
``fajr``) kept as written and isolated left-to-right inside right-to-left text.  English is the
error's own sentence, so the API's ``error`` and an English page never differ; a test checks the
English rows against the sentences the code raises (tests/test_errors.py).

An error whose code has no row here is said with ``error.invalid`` (the value of a named
parameter is not accepted) and its English sentence is shown after it as a detail.
"""
from __future__ import annotations

from generator.errors import GENERIC_CODE, QueryError
from generator.words import glossary
from generator.words.locale import LANGUAGES, RTL, native

LRI, PDI = glossary.LRI, glossary.PDI
TEMPLATES: dict[str, dict[str, str]] = glossary.group("error")  # {lang: {code: sentence with {args}}}
LIST_COMMA = glossary.term("list.comma")
# A prayer or time named in an error (``fajr``, ``midnight``): a prayer by its name (the feeds' «صبح», not the
# timetable column's «اذان صبح»: the sentences say "the adhan of …" themselves), another time by its column's name.
_COLUMNS, _PRAYERS = glossary.group("column"), glossary.group("prayer")
TIME_NAMES: dict[str, dict[str, str]] = {lang: {**_COLUMNS[lang], **_PRAYERS[lang]} for lang in _COLUMNS}


def argument(value: object, lang: str) -> str:
    """One argument as ``lang`` writes it: digits of the language, lists with its comma, a prayer's or
    time's name as its timetable column says it, other ids isolated as written."""
    if isinstance(value, (list, tuple)):
        return LIST_COMMA[lang].join(argument(item, lang) for item in value)
    if lang != "en" and isinstance(value, str) and value in TIME_NAMES[lang]:
        return TIME_NAMES[lang][value]
    if isinstance(value, bool):
        value = str(value).lower()
    if isinstance(value, (int, float)):
        text = str(int(value)) if float(value).is_integer() else str(value)
        if lang not in RTL:
            return text
        return f"{LRI}{native(text, lang)}{PDI}" if text.startswith("-") else native(text, lang)
    text = str(value)
    return f"{LRI}{text}{PDI}" if lang in RTL and text else text


def has_words(error: QueryError) -> bool:
    """Whether the error's code has its own sentence in every language."""
    return error.code != GENERIC_CODE and error.code in TEMPLATES["en"]


def reason(error: QueryError, lang: str) -> str:
    """The error's reason (without the parameter's name) in ``lang``; English is the error's own sentence."""
    if lang == "en" or lang not in LANGUAGES:
        return error.message
    code = error.code if has_words(error) else GENERIC_CODE
    args = {name: argument(value, lang) for name, value in error.arguments.items()}
    return TEMPLATES[lang][code].format_map(args)


def english(error: QueryError) -> str:
    """The English row of the error's code filled with its args (equal to ``error.message`` when the row is right)."""
    return TEMPLATES["en"][error.code].format_map({name: argument(value, "en") for name, value in error.arguments.items()})


def sentence(error: QueryError, lang: str) -> str:
    """The whole message in ``lang``: the parameter's name (as written in the address), then the reason."""
    name = f"{LRI}{error.parameter}{PDI}" if lang in RTL else error.parameter
    return f"{name}: {reason(error, lang)}"


def script_table(lang: str) -> dict[str, str]:
    """The rows a page's script needs to say an API error in ``lang`` (the builder): {code: sentence}."""
    return dict(TEMPLATES[lang])
