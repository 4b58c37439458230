"""A city's printable timetable: this month and the next, in one language and one method.

Everything shown comes from the API, asked in process (`generator.site.responses`):
/v1/prayer-times (``local`` HH:mm, per month), /v1/hijri (forward month maps under both
reckonings), /v1/events (the Hijri years touched, under the page's reckoning), /v1/cities
and /v1/methods.  The page only lays them out: digits and names in the page's language.

Events are placed by the city's own reckoning: ``iran`` for cities in Iran, ``moonsighting``
elsewhere (docs/site.md); both reckonings' Hijri dates are shown on every row.
"""
from __future__ import annotations

from datetime import date

from generator import feed_words, hijri, hijri_names
from generator import page_words as words
from generator.site import responses, urls
from generator.site.page import PageNotFound
from generator.site.templating import render_localised_page

CALENDARS = ("moonsighting", "iran")
MONTHS_SHOWN = 2  # this month and the next
LAST_YEAR = 2100  # the API's last Gregorian year (SPEC 8)


def city_calendar(city: dict) -> str:
    """Return the reckoning a city's events follow: Iran's official calendar in Iran, else sighting."""
    return "iran" if city["country"] == "IR" else "moonsighting"


def months_from(today: date, count: int = MONTHS_SHOWN) -> list[tuple[int, int]]:
    """Return (year, month) of the month of ``today`` and the ``count - 1`` following ones (up to 2100)."""
    index = today.year * 12 + today.month - 1
    return [(year, month + 1) for year, month in (divmod(index + k, 12) for k in range(count)) if year <= LAST_YEAR]


def render(today: date, city_id: str, lang: str = words.DEFAULT_LANGUAGE, method: str | None = None) -> bytes:
    """Return the HTML of a city's timetable page (`PageNotFound` for an unknown city, language or method)."""
    catalogue = {c["id"]: c for c in responses.api_json("cities", {"all": "1"}, today)["cities"]}
    methods = responses.api_json("methods", {}, today)["methods"]
    default_method = next(m["id"] for m in methods if m["default"])
    method = method or default_method
    if city_id not in catalogue or lang not in words.LANGUAGES or method not in {m["id"] for m in methods}:
        raise PageNotFound(f"no timetable for city {city_id!r}, language {lang!r}, method {method!r}")
    city = catalogue[city_id]
    calendar = city_calendar(city)
    w = words.WORDS[lang]
    name = city["names"][lang]
    title = w["timetable_title"].format(city=name)
    months = [month_table(today, city, lang, method, calendar, year, month) for year, month in months_from(today)]
    meta = months[0]["meta"]
    return render_localised_page(
        "city.html.j2",
        lang,
        title=title,
        canonical=urls.city_url(city_id, lang, method),
        alternates=[{"lang": other, "href": urls.city_url(city_id, other, method)} for other in words.LANGUAGES],
        languages=[{"lang": other, "name": words.LANGUAGE_NAMES[other], "href": urls.city_url(city_id, other, method),
                    "current": other == lang} for other in words.LANGUAGES],
        methods=[{"id": m["id"], "label": m["label"][lang], "href": urls.city_url(city_id, lang, m["id"]),
                  "current": m["id"] == method} for m in methods],
        method_label=next(m["label"][lang] for m in methods if m["id"] == method),
        place=w["place"].format(lat=words.number(meta["lat"], lang), lng=words.number(meta["lng"], lang),
                                tz=meta["tz"], qibla=words.number(meta["qibla"], lang)),
        times=[{"id": t, "name": words.TIME_NAMES[lang][t]} for t in words.TIMES],
        calendars=[{"id": c, "label": words.CALENDAR_LABELS[lang][c]} for c in CALENDARS],
        calendar_note=w["calendar_note"].format(calendar=words.CALENDAR_LABELS[lang][calendar]),
        months=months,
        feeds=[{"name": feed, "href": responses.api_url(feed, {"city": city_id, "lang": lang, "method": method})}
               for feed in ("prayer-times.ics", "night.ics")],
    )


def month_table(today: date, city: dict, lang: str, method: str, calendar: str, year: int, month: int) -> dict:
    """Return one month's rows (Gregorian day, weekday, both Hijri dates, times, events) for the template."""
    query = {"city": city["id"], "year": year, "month": month, "method": method}
    prayer = responses.api_json("prayer-times", query, today)
    maps = {c: responses.api_json("hijri", {"year": year, "month": month, "calendar": c}, today) for c in CALENDARS}
    events_by_day = events_on_days(today, maps[calendar], calendar, lang)
    rows = []
    for i, day in enumerate(prayer["days"]):
        iso = day["date"]
        gregorian = date.fromisoformat(iso)
        hijri_cells = {c: hijri_cell(maps[c]["days"][iso], first_row=i == 0, lang=lang) for c in CALENDARS}
        rows.append({
            "iso": iso,
            "day": words.digits(gregorian.day, lang),
            "weekday": hijri_names.WEEKDAYS[lang][gregorian.weekday()],
            "friday": gregorian.weekday() == 4,
            "today": gregorian == today,
            "hijri": [{"calendar": c, **hijri_cells[c]} for c in CALENDARS],
            "times": [{"id": t, "text": words.digits(day["local"][t], lang)} for t in words.TIMES],
            "polar": day.get("polar"),
            "events": events_by_day.get(iso, []),
        })
    hijri_months = [f"{m['monthName'][lang]} {words.digits(m['year'], lang)}" for m in maps[calendar]["months"]]
    caption = words.WORDS[lang]["month_caption"].format(
        month=words.GREGORIAN_MONTHS[lang][month - 1], year=words.digits(year, lang))
    return {
        "id": f"{year:04d}-{month:02d}",
        "caption": caption,
        "hijri_caption": " – ".join(hijri_months),
        "rows": rows,
        "meta": prayer["meta"],
        "api": responses.api_url("prayer-times", query),
    }


def hijri_cell(hijri: dict, *, first_row: bool, lang: str) -> dict:
    """Return the text of a Hijri date cell: the day, with the month's name on its 1st and on the first row."""
    day = words.digits(hijri["day"], lang)
    named = first_row or hijri["day"] == 1
    text = f"{day} {hijri_names.MONTHS[lang][hijri['month'] - 1]}" if named else day
    return {"text": text, "month_start": hijri["day"] == 1}


def events_on_days(today: date, hijri_map: dict, calendar: str, lang: str) -> dict[str, list[dict]]:
    """Return the events falling in a forward Hijri map's days, by Gregorian date, under ``calendar``.

    A night is shown on its eve (`eveGregorian`, the row on whose evening it begins), its
    title followed by "begins at sunset".  A map ending on the last day of Dhu al-Hijja
    may hold the eve of a night of the next Hijri year, so that year is asked too.
    """
    years = {m["year"] for m in hijri_map["months"]}
    if hijri_map["months"][-1]["month"] == 12:
        years.add(hijri_map["months"][-1]["year"] + 1)
    days: dict[str, list[dict]] = {}
    for hy in sorted(years):
        if not hijri.API_FIRST_YEAR <= hy <= hijri.API_LAST_YEAR:
            continue  # the events of AH 1316 and 1524 are not served (SPEC 2.1)
        for event in responses.api_json("events", {"hy": hy, "calendar": calendar}, today)["events"]:
            night = event.get("night", False)
            shown_on = event["eveGregorian"] if night else event["gregorian"]
            if shown_on in hijri_map["days"]:
                title = event["title"][lang]
                if night:
                    title += words.SEPARATOR[lang] + feed_words.NIGHT_BEGINS[lang]
                days.setdefault(shown_on, []).append(
                    {"title": title, "major": event["importance"] == "major", "type": event["type"], "night": night})
    return days
