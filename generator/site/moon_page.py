"""A Hijri month's crescent-visibility page: world maps of the sighting evening and its neighbours.

The five evenings −2..+2 around the sighting evening are five /v1/moon-visibility grids
(``res`` 5), asked in process and drawn by `generator.output.moon_map_svg`; the page adds the
legend, the conjunction and the month start (from the same answers), in one language.
"""
from __future__ import annotations

from datetime import date

from generator.calendars import hijri
from generator.words import hijri_names
from generator.output import moon_map_svg as moon_map
from generator.words import page_words as words
from generator.site import head, responses, urls
from generator.site.page import PageNotFound
from generator.site.templating import render_localised_page

EVENINGS = (-2, -1, 0, 1, 2)
RES_DEG = 5  # 1,872 cells per map: a page of five maps stays near 200 kB
FIRST_HY, LAST_HY = hijri.API_FIRST_YEAR, hijri.API_LAST_YEAR  # 1317..1523 (SPEC 2.1)


def render(today: date, hy: int, hm: int, lang: str = words.DEFAULT_LANGUAGE) -> bytes:
    """Return the HTML of the crescent page of Hijri month hy/hm (`PageNotFound` outside the API's range)."""
    if lang not in words.LANGUAGES or not (FIRST_HY <= hy <= LAST_HY and 1 <= hm <= 12):
        raise PageNotFound(f"no crescent page for {hy}-{hm} in language {lang!r}")
    grids = [responses.api_json("moon-visibility", {"hy": hy, "hm": hm, "evening": e, "res": RES_DEG}, today)
             for e in EVENINGS]
    w = words.WORDS[lang]
    p = words.PAGE_WORDS[lang]
    catalogue = {c["id"]: c for c in responses.api_json("cities", {"all": "1"}, today)["cities"]}
    marks = [{"id": c, "name": catalogue[c]["names"][lang], "lat": catalogue[c]["lat"], "lng": catalogue[c]["lng"]}
             for c in words.MAP_CITIES if c in catalogue]
    meta = grids[EVENINGS.index(0)]["meta"]
    month_name = hijri_names.MONTHS[lang][hm - 1]  # standing alone (a map's caption)
    # After «هلال» the name is in the genitive: Arabic «هلال ذي القعدة» (the in-date forms; the same elsewhere)
    month_of = hijri_names.month_in_date(hm, lang)
    year = words.digits(hy, lang)
    maps = []
    for offset, grid in zip(EVENINGS, grids):
        label = moon_map.evening_label(grid["meta"]["evening"], offset, lang)
        query = {"hy": hy, "hm": hm, "evening": offset, "res": RES_DEG}
        maps.append({
            "offset": offset,
            "label": label,
            "svg": moon_map.map_svg(grid, f"{month_name} {year}{words.SEPARATOR[lang]}{label}"),
            "counts": [{"digit": d, "count": words.digits(grid["counts"]["digits"][str(d)], lang)}
                       for d in moon_map.DIGITS],
            "json": responses.api_url("moon-visibility", query),
            "svg_url": responses.api_url("moon-visibility.svg", {**query, "lang": lang}),
        })
    previous = (hy, hm - 1) if hm > 1 else (hy - 1, 12)
    following = (hy, hm + 1) if hm < 12 else (hy + 1, 1)
    begun = date.fromisoformat(meta["monthBegins"]["date"]) <= today
    intro = w["moon_intro"].format(
        month=month_of, year=year,
        conjunction=conjunction_text(meta["conjunction"], lang),
        sighting=moon_map.date_text(meta["sightingEvening"], lang),
        previous_month=hijri_names.month_in_date(previous[1], lang),  # «۲۹ شعبان کی شام» (ur UR3-05)
        start=w["moon_began" if begun else "moon_begins"].format(
            begins=moon_map.date_text(meta["monthBegins"]["date"], lang),
            source=words.source_text(meta["monthBegins"]["source"], "moonsighting", lang, ahead=not begun)),
    )  # the maps' reckoning: the Sistani office's; the tense of the start by the page's date (issue 33, UR-29)
    return render_localised_page(
        "moon.html.j2",
        lang,
        **head.page_head(lang, w["moon_title"].format(month=month_of, year=year),
                         w["description.moon"].format(month=month_of, year=year),
                         lambda other: urls.moon_url(hy, hm, other)),
        intro=intro,
        legend=[{"digit": d, "meaning": words.VISIBILITY[lang][d]} for d in moon_map.DIGITS],
        coast_defs=moon_map.coast_defs(marks),
        p=p,
        point_answers=[{"name": mark["name"], "href": responses.api_url("moon-visibility", {"hy": hy, "hm": hm,
                                                                                          "city": mark["id"]})}
                       for mark in marks],
        maps=maps,
        coastlines=w["coastlines"].format(res=words.digits(RES_DEG, lang)),
        previous=urls.moon_url(*previous, lang) if previous[0] >= FIRST_HY else None,
        next=urls.moon_url(*following, lang) if following[0] <= LAST_HY else None,
    )


def conjunction_text(instant: str | None, lang: str) -> str:
    """Return a UTC instant "2026-03-19T01:23:09Z" as "19 March 2026, 01:23" in ``lang``."""
    if instant is None:
        return "—"
    return words.WORDS[lang]["date_time"].format(date=moon_map.date_text(instant[:10], lang),
                                                 time=words.digits(instant[11:16], lang))
