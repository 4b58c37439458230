"""A lint for right-to-left text (ar, fa, ur): letter forms, digits, separators and bidi isolation.

Rules, with the reasons in docs/site.md ("The right-to-left lint"):

1. Letter forms and digits of the language (`generator.words.glossary.LETTER_RULES`): no Persian or
   Urdu letters and no Extended digits in Arabic; no Arabic ي ك, no Urdu letters and no
   Arabic-Indic digits in Persian; no Arabic ي ك ة ه and no Arabic-Indic digits in Urdu.
2. No ASCII digit and no Latin letter in right-to-left text unless it is isolated: inside
   LRI … PDI (U+2066 … U+2069), or inside an element with a ``dir`` attribute or a ``<bdi>``
   (ids, URLs, and the English label of such a link).  Attribute values that are addresses
   or data (href, datetime, data-*, …) are not text and are not read.
3. The decimal separator between digits is ٫ (U+066B), never "." or ",".
4. No "·" in Arabic-script text: Persian and Urdu write zero as a dot (۰); items are
   separated by " — ".
5. A sign before a number (+3, −0.13) is isolated, so it stays in front; every LRI/RLI/FSI
   has its PDI.
6. An element in another language (``lang`` attribute) is linted as that language, and
   when that language runs the other way it must say so with ``dir``.
7. Quotations are marked « … », as Arabic, Persian and Urdu print them, not with ASCII ' or ".
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

from generator.words.glossary import LETTER_RULES, letter_form_errors

RTL = ("ar", "fa", "ur")
LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
_ISOLATED_RUN = re.compile(f"[{LRI}{RLI}{FSI}][^{LRI}{RLI}{FSI}{PDI}]*{PDI}")
_NATIVE_DIGIT = "[\u0660-\u0669\u06f0-\u06f9]"
_BAD_DECIMAL = re.compile(f"{_NATIVE_DIGIT}[.,]{_NATIVE_DIGIT}")
_SIGNED_NUMBER = re.compile(f"(?<![\\w{LRI}])[+\\-\u2212]{_NATIVE_DIGIT}")
_TEXT_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr", "use", "path", "rect"})


def lint_text(text: str, lang: str) -> list[str]:
    """Return the problems of one piece of right-to-left ``text`` in ``lang`` (empty when none)."""
    if lang not in RTL:
        return []
    problems = [f"letter form: {rule}" for rule in letter_form_errors(text, lang)]
    opened = sum(text.count(mark) for mark in (LRI, RLI, FSI))
    if opened != text.count(PDI):
        problems.append("unbalanced bidi isolates (LRI/RLI/FSI without PDI)")
    bare = _ISOLATED_RUN.sub(" ", text)
    if re.search("[0-9]", bare):
        problems.append("ASCII digit outside an isolate")
    latin = re.findall("[A-Za-z]+", bare)
    if latin:
        problems.append(f"Latin word outside an isolate: {latin[0]!r}")
    if _BAD_DECIMAL.search(text):
        problems.append("decimal separator must be ٫")
    if "\u00b7" in text and not any("middle dot" in p for p in problems):
        problems.append("middle dot · as a separator (use ' — ')")
    if _SIGNED_NUMBER.search(bare):
        problems.append("signed number not isolated")
    if re.search("['\"]", bare):
        problems.append("ASCII quotation mark (quote with « »)")
    return problems


class _PageText(HTMLParser):
    """Collects (language, text, isolated) of every text node and text attribute of a page."""

    def __init__(self, page_lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None, bool]] = [("", page_lang, False)]  # tag, lang, isolated
        self.runs: list[tuple[str, str, bool, str]] = []  # lang, text, isolated, where
        self.problems: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        _, parent_lang, isolated = self.stack[-1]
        lang = attributes.get("lang") or parent_lang
        if tag == "html":
            lang = attributes.get("lang", lang)
        own_direction = attributes.get("dir")
        if lang != parent_lang and tag != "html" and (lang in RTL) != (parent_lang in RTL) and own_direction is None:
            self.problems.append(f"<{tag} lang={lang}> inside {parent_lang} text without dir")
        isolated = isolated or tag == "bdi" or (own_direction is not None and tag != "html")
        for name in _TEXT_ATTRIBUTES:
            if attributes.get(name):
                self.runs.append((lang, attributes[name], isolated, f"<{tag} {name}>"))
        if tag in ("style", "script"):
            self.skip += 1
        if tag not in _VOID:
            self.stack.append((tag, lang, isolated))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if tag in ("style", "script"):
            self.skip -= 1
        for depth in range(len(self.stack) - 1, 0, -1):  # tolerate optional end tags
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break

    def handle_data(self, data: str) -> None:
        if self.skip or not data.strip():
            return
        tag, lang, isolated = self.stack[-1]
        self.runs.append((lang, data, isolated, f"<{tag}>"))


def lint_html(html: str, lang: str) -> list[str]:
    """Return the problems of a rendered page in ``lang``: each names where and what."""
    parser = _PageText(lang)
    parser.feed(html)
    problems = list(parser.problems)
    for run_lang, text, isolated, where in parser.runs:
        if isolated:
            text = LRI + text + PDI  # an isolated element: its content keeps its own direction
        problems += [f"{where} {text.strip()[:60]!r}: {p}" for p in lint_text(text, run_lang)]
    return problems


_ICS_TEXT_PROPERTIES = ("SUMMARY", "DESCRIPTION", "NAME", "X-WR-CALNAME", "X-WR-CALDESC")


def ics_texts(body: bytes) -> list[tuple[str, str]]:
    """Return (property, unescaped value) of every TEXT property of a feed that people read."""
    unfolded = re.sub(r"\r\n[ \t]", "", body.decode("utf-8"))
    out = []
    for line in unfolded.split("\r\n"):
        name, _, value = line.partition(":")
        prop = name.split(";", 1)[0]
        if prop in _ICS_TEXT_PROPERTIES:
            value = re.sub(r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)
            out.append((prop, value))
    return out


def lint_ics(body: bytes, lang: str) -> list[str]:
    """Return the problems of the readable text of a feed in ``lang``."""
    return [f"{prop} {value[:60]!r}: {p}" for prop, value in ics_texts(body) for p in lint_text(value, lang)]


def lint_svg(svg: str, lang: str) -> list[str]:
    """Return the problems of the text of a stand-alone SVG in ``lang`` (titles and legend lines)."""
    return lint_html(svg, lang)


assert set(LETTER_RULES) == set(RTL)
