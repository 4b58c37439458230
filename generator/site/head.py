"""What a page says about itself in its ``<head>``: for search engines and link previews (issue 21).

Every page of the site (and any later one: a screen, a widget) gets its head from `page_head`:

* ``<title>`` and ``<meta name="description">``, both in the page's language (glossary terms);
* ``<link rel="canonical">``: the page's own canonical address, absolute (`urls.absolute`);
* ``<link rel="alternate" hreflang>``: the same page in each of the four languages, itself
  included, and ``x-default`` = the English page; every page of the set lists the same set, so
  the alternates are reciprocal as search engines require;
* OpenGraph (ogp.me): ``og:type`` website, ``og:site_name``, ``og:title``, ``og:description``,
  ``og:url`` (= the canonical URL), ``og:locale`` and an ``og:locale:alternate`` per other language.

An error page (404, 429, 503) has a title, a description and ``robots: noindex``, and no canonical
URL or alternates: it is the answer of no address (`error_head`).  The template side is
``templates/head.html.j2``, which ``base.html.j2`` includes; a page with its own layout includes
it the same way with the ``head`` this module returns.
"""
from __future__ import annotations

from typing import Callable

from generator.words import page_words as words
from generator.site import urls

# og:locale is language_TERRITORY (ogp.me); these are the territories of the locales Facebook
# and most link-preview readers know for each language (Arabic: its pan-Arab ar_AR).
OG_LOCALES = {"en": "en_US", "ar": "ar_AR", "fa": "fa_IR", "ur": "ur_PK"}
X_DEFAULT = "x-default"  # the hreflang of the page for readers of no listed language: the English one


def page_head(lang: str, title: str, description: str, href: Callable[[str], str]) -> dict:
    """Return the template context of a page's head and its language switcher.

    ``href(other)`` is the site path of this same page in language ``other`` (its canonical form);
    the result has ``title``, ``head`` (for head.html.j2) and ``languages`` (the switcher)."""
    return {
        "title": title,
        "head": {
            "title": title,
            "description": description,
            "robots": None,
            "canonical": urls.absolute(href(lang)),
            "alternates": [{"lang": other, "href": urls.absolute(href(other))} for other in words.LANGUAGES]
            + [{"lang": X_DEFAULT, "href": urls.absolute(href(words.DEFAULT_LANGUAGE))}],
            "site_name": words.WORDS[lang]["site"],
            "locale": OG_LOCALES[lang],
            "locale_alternates": [OG_LOCALES[other] for other in words.LANGUAGES if other != lang],
        },
        "languages": [{"lang": other, "name": words.LANGUAGE_NAMES[other], "href": href(other),
                       "dir": words.direction(other), "current": other == lang} for other in words.LANGUAGES],
    }


def error_head(lang: str, title: str, description: str) -> dict:
    """Return the head context of an error page: not to be indexed, no canonical address, no switcher."""
    return {"title": title,
            "head": {"title": title, "description": description, "robots": "noindex", "canonical": None,
                     "alternates": [], "site_name": words.WORDS[lang]["site"], "locale": OG_LOCALES[lang],
                     "locale_alternates": []},
            "languages": []}
