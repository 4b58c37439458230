"""The Jinja2 environment of the site: templates under ``templates/``, autoescaped, strict.

Every value a template prints is escaped (autoescape on for every template, including
the inlined CSS and JS), and an undefined name is an error rather than an empty string.
Output is deterministic: the same context gives the same bytes.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jinja2

TEMPLATES = Path(__file__).resolve().parent / "templates"
ASSETS = Path(__file__).resolve().parent / "assets"


@functools.cache
def environment() -> jinja2.Environment:
    """Return the site's Jinja2 environment (templates, then assets such as site.css, site_search.js)."""
    from generator.site import urls

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(TEMPLATES), str(ASSETS)]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["builder_url"] = urls.builder_url  # every page's header links the mosque builder
    env.globals["public_origin"] = urls.CONFIGURED_ORIGIN  # feed links' origin (feed_links.js; None: the reader's)
    return env


def render_page(template: str, **context: Any) -> bytes:
    """Return the UTF-8 bytes of ``template`` rendered with ``context``."""
    return environment().get_template(template).render(**context).encode("utf-8")


def render_localised_page(template: str, lang: str, **context: Any) -> bytes:
    """`render_page` with the language's words, direction and separator in the context."""
    from generator.words import page_words as words

    return render_page(template, lang=lang, dir=words.direction(lang), sep=words.SEPARATOR[lang], w=words.WORDS[lang],
                       **context)
