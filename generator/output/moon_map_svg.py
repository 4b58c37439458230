"""Crescent-visibility world maps as SVG, drawn from the /v1/moon-visibility grid itself.

Projection: equirectangular (plate carrée), one SVG unit per degree, so the map's
``viewBox`` is the API's grid window: x = lng + 180 (0..360), y = 70 − lat (0..130).
Cell (r, c) of the API's ``rows`` is the square x = c·res, y = r·res of side res: one
subpath ``M x y h res v res h −res z`` in the path of its digit (class ``z<digit>``), so
the map holds exactly one square per grid cell (counting subpaths per class gives the
API's ``counts.digits``).  Coastlines (GSHHS crude, `generator.astronomy.coastline`) are drawn
on top, in tenths of a degree, then a light 30° graticule and the reference cities (Mecca,
Najaf, Tehran, London, Jakarta, Karachi, New York: `page_words.MAP_CITIES`), a dot and the city's
name in the page's language, so a reader finds their own region on the small maps.

Colours per digit (docs/site.md): 0 light grey (not visible), 1 dark green (easily
visible to the naked eye), 2 green (naked eye), 3 orange (optical aid to find, then naked
eye), 4 lavender (optical aid only); light to dark in the order of visibility, readable in
grey and distinct for the common colour-vision deficiencies.
"""
from __future__ import annotations


from markupsafe import Markup, escape

from generator.words import hijri_names
from generator.astronomy import coastline
from generator.words import page_words as words

NORTH_DEG, SOUTH_DEG, WEST_DEG = 70.0, -60.0, -180.0  # the API's grid window
WIDTH_DEG, HEIGHT_DEG = 360, 130
DIGITS = (0, 1, 2, 3, 4)
COLOURS = {0: "#ececec", 1: "#1b7837", 2: "#7fbc41", 3: "#fdb863", 4: "#b2abd2"}
COAST_ID = "coast"
OVERLAY_ID = "overlay"  # the graticule and the city marks, defined once per page
GRATICULE_STEP_DEG = 30
LABEL_SIZE = 6  # map units (degrees): ~10 px on a half-width map of a desktop page
# Where each reference city's name goes: (text-anchor, dx, dy) in map units, so neighbours
# (Mecca, Najaf, Tehran; Karachi) do not collide.
LABEL_PLACES = {"new-york": ("end", -2.5, 2), "london": ("middle", 0, -3), "mecca": ("end", -2.5, 3),
                "najaf": ("end", -2.5, -1), "tehran": ("start", 2.5, -1.5), "karachi": ("start", 2.5, 3),
                "jakarta": ("start", 2.5, 2)}
_LEGEND_ROW = 7  # SVG units per legend line in the stand-alone map


def cell_paths(rows: list[str], res_deg: int) -> dict[int, str]:
    """Return, per digit, the path data of its cells: one closed square subpath per grid cell."""
    parts: dict[int, list[str]] = {d: [] for d in DIGITS}
    for r, row in enumerate(rows):
        y = r * res_deg
        for c, digit in enumerate(row):
            parts[int(digit)].append(f"M{c * res_deg} {y}h{res_deg}v{res_deg}h-{res_deg}z")
    return {d: "".join(cells) for d, cells in parts.items()}


def coastline_path() -> str:
    """Return the path data of the coastlines in map units × 10 (integers; draw with scale(0.1))."""
    out = []
    for polygon in coastline.polygons():
        lats = [lat for _, lat in polygon["points"]]
        if max(lats) <= SOUTH_DEG or min(lats) >= NORTH_DEG:
            continue
        points = [(round((lng - WEST_DEG) * 10), round((NORTH_DEG - lat) * 10)) for lng, lat in polygon["points"]]
        x0, y0 = points[0]
        steps = [f"{x1 - x0} {y1 - y0}" for (x0, y0), (x1, y1) in zip(points, points[1:])]
        out.append(f"M{points[0][0]} {points[0][1]}l" + " ".join(steps) + "z")
    return "".join(out)


def overlay(marks: list[dict], height_deg: int = HEIGHT_DEG) -> str:
    """Return the SVG of the graticule (every 30°) and the city marks ({"id", "name", "lat", "lng"})."""
    meridians = "".join(f"M{lng - WEST_DEG:g} 0v{height_deg}" for lng in range(-150, 180, GRATICULE_STEP_DEG))
    parallels = "".join(f"M0 {NORTH_DEG - lat:g}h{WIDTH_DEG}" for lat in range(60, int(SOUTH_DEG) - 1,
                                                                              -GRATICULE_STEP_DEG))
    dots, labels = [], []
    for mark in marks:
        x, y = round(mark["lng"] - WEST_DEG, 2), round(NORTH_DEG - mark["lat"], 2)
        anchor, dx, dy = LABEL_PLACES.get(mark["id"], ("start", 2.5, 2))
        dots.append(f'<circle cx="{x:g}" cy="{y:g}" r="1.3"/>')
        labels.append(f'<text x="{x + dx:g}" y="{y + dy:g}" text-anchor="{anchor}">{escape(mark["name"])}</text>')
    return (f'<path class="graticule" d="{meridians}{parallels}" fill="none" stroke="#9a9a9a" stroke-width="0.3" '
            f'stroke-dasharray="1.5 1.5"/>'
            f'<g class="marks" fill="#fff" stroke="#1a1a1a" stroke-width="0.6">{"".join(dots)}</g>'
            f'<g class="labels" direction="ltr" font-size="{LABEL_SIZE}" fill="#1a1a1a" stroke="#fff" '
            f'stroke-width="1.2" paint-order="stroke" stroke-linejoin="round">{"".join(labels)}</g>')


def coast_defs(marks: list[dict] = ()) -> Markup:
    """Return an invisible <svg> defining the coastline and the overlay once, for the maps of a page to <use>."""
    return Markup(
        f'<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false"><defs>'
        f'<path id="{COAST_ID}" d="{coastline_path()}" transform="scale(0.1)" fill="none" stroke="#1a1a1a" '
        f'stroke-width="3" stroke-linejoin="round"/><g id="{OVERLAY_ID}">{overlay(list(marks))}</g></defs></svg>'
    )


def reference_marks(lang: str) -> list[dict]:
    """Return the reference cities to mark, from the catalogue /v1/cities serves, named in ``lang``."""
    from generator.places import cities

    catalogue = cities.by_id()
    return [{"id": c, "name": catalogue[c]["names"][lang], "lat": catalogue[c]["lat"], "lng": catalogue[c]["lng"]}
            for c in words.MAP_CITIES if c in catalogue]


def map_svg(grid: dict, title: str, *, coast: str = "use", placement: str = "", marks: list[dict] = ()) -> Markup:
    """Return an <svg> of one grid (the /v1/moon-visibility body), titled ``title``.

    ``coast="use"`` references the page's `coast_defs`; ``coast="inline"`` draws the coastline
    itself and the overlay of ``marks`` (for a stand-alone document).  ``placement`` adds attributes (x, y, width, height)
    when the map is nested in a larger SVG.
    """
    res = grid["meta"]["res"]
    paths = cell_paths(grid["rows"], res)
    cells = "".join(f'<path class="z{d}" fill="{COLOURS[d]}" d="{paths[d]}"/>' for d in DIGITS if paths[d])
    height = len(grid["rows"]) * res
    if coast == "inline":
        coast_svg = (f'<path class="coast" d="{coastline_path()}" transform="scale(0.1)" fill="none" '
                     f'stroke="#1a1a1a" stroke-width="3" stroke-linejoin="round"/>{overlay(list(marks), height)}')
    else:
        coast_svg = f'<use href="#{COAST_ID}"/><use href="#{OVERLAY_ID}"/>'

    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg"{placement} viewBox="0 0 {WIDTH_DEG} {height}" role="img">'
        f'<title>{escape(title)}</title>'
        f'<g class="cells" shape-rendering="crispEdges">{cells}</g>{coast_svg}</svg>'
    )


def month_title(hy: int, hm: int, lang: str) -> str:
    """Return "<Hijri month name> <year>" in ``lang``."""
    return f"{hijri_names.MONTHS[lang][hm - 1]} {words.digits(hy, lang)}"


def standalone_svg(grid: dict, lang: str) -> bytes:
    """Return a stand-alone SVG document of one grid: the map, a title line and the legend in ``lang``.

    This is the body of /v1/moon-visibility.svg.
    """
    meta = grid["meta"]
    rtl = lang in words.RTL
    map_height = len(grid["rows"]) * meta["res"]
    title = (f"{month_title(meta['hy'], meta['hm'], lang)}{words.SEPARATOR[lang]}"
             f"{evening_label(meta['evening'], meta['eveningOffset'], lang)}")
    body = map_svg(grid, title, coast="inline", placement=f' x="0" y="0" width="{WIDTH_DEG}" height="{map_height}"',
                   marks=reference_marks(lang))
    # text-anchor "start" is the right end of a right-to-left line
    x_text, x_swatch, x_title = (WIDTH_DEG - 9, WIDTH_DEG - 7, WIDTH_DEG - 3) if rtl else (9, 3, 3)
    anchor = "start"
    lines = [f'<text x="{x_title}" y="{map_height + 6}" font-size="4.5" font-weight="bold" '
             f'text-anchor="{anchor}">{escape(title)}</text>']
    for i, digit in enumerate(DIGITS):
        y = map_height + 8 + i * _LEGEND_ROW
        count = words.digits(grid["counts"]["digits"][str(digit)], lang)
        lines.append(f'<rect x="{x_swatch}" y="{y + 1}" width="4" height="4" fill="{COLOURS[digit]}" stroke="#555" '
                     f'stroke-width="0.3"/><text x="{x_text}" y="{y + 4.6}" font-size="4" text-anchor="{anchor}">'
                     f'{escape(words.VISIBILITY[lang][digit])} ({count})</text>')
    total_height = map_height + 10 + len(DIGITS) * _LEGEND_ROW
    document = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH_DEG} {total_height}" width="1080" '
        f'height="{total_height * 3}" xml:lang="{lang}" font-family="{SVG_FONTS[lang]}">'
        f'<rect width="100%" height="100%" fill="#fff"/>{body}'
        f'<g direction="{words.direction(lang)}">{"".join(lines)}</g></svg>\n'
    )
    return document.encode("utf-8")


SVG_FONTS = {"en": "Noto Sans, DejaVu Sans, sans-serif", "ar": "Noto Naskh Arabic, Noto Sans Arabic, serif",
             "fa": "Vazirmatn, Noto Naskh Arabic, sans-serif", "ur": "Noto Nastaliq Urdu, Noto Naskh Arabic, serif"}


def evening_label(evening_iso: str, offset: int, lang: str) -> str:
    """Return "Evening of <date>" and its distance from the sighting evening, in ``lang``."""
    w = words.WORDS[lang]
    when = date_text(evening_iso, lang)
    named = {-2: "before_2", -1: "before_1", 1: "after_1", 2: "after_2"}  # in words, not a signed number
    if offset == 0:
        relation = w["sighting_evening"]
    elif offset in named:
        relation = w[f"evening_offset.{named[offset]}"]
    else:
        relation = w["evening_offset"].format(offset=words.number(offset, lang, signed=True))
    return f"{w['evening'].format(date=when)} ({relation})"


date_text = words.date_text  # the pages' one way of writing a Gregorian date
