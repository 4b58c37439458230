"""A city's Ramadan imsakiya: one printable A4 page for the current or coming Ramadan.

Every number is the API's, asked in process: the month's days from /v1/hijri?hy=&hm=9 under
the chosen reckoning (``moonsighting``: Sistani's office, then computed; ``iran``: Iran's
official calendar; ``pakistan``, ``india``: the day their Shia keep, then computed), the times from /v1/prayer-times (the Gregorian months the Ramadan
spans, ``local`` HH:mm, on the page's clock: 12-hour in ar and ur like the timetable), so the
page equals /v1/prayer-times day by day.  Columns: the
Ramadan day, the Gregorian day and weekday (and the Solar Hijri day in Persian), imsak,
fajr, sunrise, dhuhr, maghrib, midnight.  The Nights of Qadr (19, 21, 23 Ramadan) begin at
maghrib of the day before, so they are marked on that row (their eve).

"This Ramadan" is decided on the city's date, like the timetable's today: Ramadan of the
current Hijri year until its last day, then next year's.
"""
from __future__ import annotations

from datetime import date

from generator.words import feed_words, hijri_names
from generator.words import page_words as words
from generator.site import head, responses, shamsi, timetable, urls
from generator.site.page import PageNotFound
from generator.site.templating import render_localised_page

RAMADAN = 9
TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "maghrib", "midnight")
QADR_NIGHTS = (19, 21, 23)  # the nights of Qadr, by the Ramadan day they begin the eve of


def render(today: date, city_id: str, lang: str, calendar: str | None = None, method: str | None = None,
           now_s: float | None = None) -> bytes:
    """Return the HTML of a city's imsakiya (`PageNotFound` for an unknown city, language, reckoning or method)."""
    shared = timetable.page_context(today, city_id, lang, method)
    city, method = shared["city"], shared["method"]
    own_calendar = timetable.city_calendar(city)
    calendar = calendar or own_calendar
    if calendar not in timetable.CALENDARS:
        raise PageNotFound(f"no reckoning {calendar[:20]!r}")
    local_today = timetable.city_date(city, responses.now_s(today) if now_s is None else now_s)
    hy = timetable.ramadan_year(today, local_today, calendar)
    if hy is None:
        raise PageNotFound("no Ramadan within the API's years")
    month = responses.api_json("hijri", {"hy": hy, "hm": RAMADAN, "calendar": calendar}, today)
    days = {int(d): date.fromisoformat(iso) for d, iso in month["days"].items()}
    spans = sorted({(day.year, day.month) for day in days.values()})
    queries = [timetable.prayer_query(city_id, method, year=y, month=m) for y, m in spans]
    by_date = {d["date"]: d for q in queries for d in responses.api_json("prayer-times", q, today)["days"]}
    w, p = words.WORDS[lang], words.PAGE_WORDS[lang]
    rows = []
    for ramadan_day in sorted(days):
        gregorian = days[ramadan_day]
        answer = by_date[gregorian.isoformat()]
        qadr = ramadan_day + 1 if ramadan_day + 1 in QADR_NIGHTS else None
        rows.append({
            "iso": gregorian.isoformat(),
            "ramadan_day": words.digits(ramadan_day, lang),
            "day": f"{words.digits(gregorian.day, lang)} {words.GREGORIAN_MONTHS[lang][gregorian.month - 1]}",
            "weekday": hijri_names.WEEKDAYS[lang][gregorian.weekday()],
            "shamsi": timetable.shamsi_text(shamsi.from_gregorian(gregorian), lang) if lang == "fa" else None,
            "today": gregorian == local_today,
            "classes": " ".join(name for name, on in (("today", gregorian == local_today),
                                                      ("friday", gregorian.weekday() == 4), ("qadr", qadr)) if on),
            "times": [{"id": t, "text": words.clock(answer["local"][t], lang)} for t in TIMES],
            "polar": answer.get("polar"),
            "qadr": p["qadr_eve"].format(night=words.digits(qadr, lang)) if qadr else None,
        })
    name = city["names"][lang]
    year_text = words.digits(hy, lang)
    method_label = next(m["label"][lang] for m in shared["methods"] if m["id"] == method)
    title = p["imsakiya_title"].format(year=year_text, city=name)
    meta = responses.api_json("prayer-times", queries[0], today)["meta"]
    other = next(c for c in timetable.SHOWN_CALENDARS if c != calendar)
    href = lambda lang_: urls.imsakiya_url(city_id, lang_, calendar, own_calendar, method,  # noqa: E731
                                           shared["default_method"])
    return render_localised_page(
        "imsakiya.html.j2",
        lang,
        **head.page_head(lang, title, w["description.imsakiya"].format(year=year_text, city=name, method=method_label),
                         href),
        p=p,
        city_href=urls.city_url(city_id, lang, method, shared["default_method"]),
        city_name=name,
        month_name=f"{month['monthName'][lang]} {year_text}",
        calendar_text=p["imsakiya_calendar"].format(calendar=words.CALENDAR_BASES[lang][calendar]),
        span=f"{timetable.date_text(days[1], lang)} – {timetable.date_text(days[max(days)], lang)}",
        other_calendar={"href": urls.imsakiya_url(city_id, lang, other, own_calendar, method,
                                                  shared["default_method"]),
                        "text": p["imsakiya_other_calendar"].format(calendar=words.CALENDAR_BASES[lang][other])},
        method_label=method_label,
        times=[{"id": t, "name": words.TIME_NAMES[lang][t]} for t in TIMES],
        shamsi_column=lang == "fa",
        rows=rows,
        note=p["imsakiya_note"].format(tz=words.isolate(meta["tz"], lang), method=method_label),
        source=p["imsakiya_source"].format(
            begins=timetable.date_text(days[1], lang),
            source=words.source_text(month["source"], calendar, lang, ahead=days[1] > local_today)),
        # not the timetable's note on its two Hijri columns, which the imsakiya has not (review fa FA-09, ur UR-4):
        # the sentence on its own reckoning when regional, and that the fast begins at fajr, imsak a precaution
        calendar_note=timetable.region_note(calendar, lang, city_id),
        imsak_note=feed_words.IMSAK_NOTE[lang],
        midnight_note=timetable.midnight_note(method, city_id, lang),
        api=[responses.api_url("prayer-times", q) for q in queries]
        + [responses.api_url("hijri", {"hy": hy, "hm": RAMADAN, "calendar": calendar})],
        data_calendar=calendar,
        data_method=method,
    )
