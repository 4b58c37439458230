"""The qibla as a picture: an inline SVG compass card with the bearing of /v1/qibla drawn on it.

Pure drawing: the bearing (degrees clockwise from true north, as the API gives it) turns an
arrow about the card's centre; north is up and the card is never mirrored in right-to-left
pages (a compass is not text).  viewBox 0..100 with the centre at (50, 50), SVG rotation
being clockwise in its y-down frame like a compass bearing.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from generator.words import page_words as words

CENTRE, RADIUS = 50, 44  # viewBox units


def compass(bearing_deg: float, lang: str) -> Markup:
    """Return an <svg> compass showing the qibla at ``bearing_deg`` from true north, titled in ``lang``."""
    p = words.PAGE_WORDS[lang]
    title = f"{p['qibla_title']}: {words.number(bearing_deg, lang)}°"
    ticks = "".join(
        f'<line x1="50" y1="{50 - RADIUS}" x2="50" y2="{50 - RADIUS + (7 if deg % 90 == 0 else 4)}" '
        f'transform="rotate({deg} 50 50)"/>' for deg in range(0, 360, 30))
    return Markup(
        f'<svg class="qibla" viewBox="0 0 100 100" width="120" height="120" role="img" '
        f'data-bearing="{bearing_deg}"><title>{escape(title)}</title>'
        f'<circle cx="{CENTRE}" cy="{CENTRE}" r="{RADIUS}" fill="#fff" stroke="#555" stroke-width="1.5"/>'
        f'<g stroke="#555" stroke-width="1.5">{ticks}</g>'
        f'<text x="50" y="22" text-anchor="middle" font-size="10" font-weight="bold" fill="#1a1a1a">'
        f'{escape(p["north"])}</text>'
        f'<g class="needle" transform="rotate({bearing_deg} 50 50)">'
        f'<line x1="50" y1="50" x2="50" y2="15" stroke="#0b5394" stroke-width="3" stroke-linecap="round"/>'
        f'<path d="M50 9 L56 19 L44 19 Z" fill="#0b5394"/>'
        f'<rect x="46.5" y="2.5" width="7" height="7" fill="#1a1a1a" transform="rotate({-bearing_deg} 50 6)"/></g>'
        f'<circle cx="50" cy="50" r="3" fill="#1a1a1a"/></svg>'
    )
