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

A mosque's own timetable (`render_mosque`, issue 36) is the same rows asked with ``mosque=<id>``, with its
jamaat columns (its Ramadan rule: maghrib's jamaat is the iftar jamaat) and Friday's Jumu'ah.
"""
from __future__ import annotations

from datetime import date

from generator.calendars import events, hijri
from generator.words import feed_words, hijri_names
from generator.words import page_words as words
from generator.calendars import shamsi
from generator.site import head, mosque_page, qr_code, responses, timetable, urls
from generator.site.page import PageNotFound
from generator.site.templating import render_localised_page

RAMADAN = 9
TIMES = ("imsak", "fajr", "sunrise", "dhuhr", "maghrib", "midnight")
QADR_NIGHTS = (19, 21, 23)  # the nights of Qadr, by the Ramadan day they begin the eve of
EID_NIGHT = "night-of-eid-al-fitr"  # begins at the sunset of Ramadan's last day (its overlay row)


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
    queries_of = lambda year, month: timetable.prayer_query(city_id, method, year=year, month=month)  # noqa: E731
    month, days, queries, by_date = ramadan_answers(today, hy, calendar, queries_of)
    w, p = words.WORDS[lang], words.PAGE_WORDS[lang]
    rows = ramadan_rows(days, by_date, local_today, lang, [{"id": t, "kind": "time"} for t in TIMES])
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
        **month_words(month, days, local_today, calendar, lang),
        span=timetable.lead_span_text(days[1], days[max(days)], lang),
        other_calendar={"href": urls.imsakiya_url(city_id, lang, other, own_calendar, method,
                                                  shared["default_method"]),
                        "text": p["imsakiya_other_calendar"].format(calendar=words.CALENDAR_BASES[lang][other])},
        method_label=method_label,
        times=[{"id": t, "kind": "time", "name": column_name(t, lang)} for t in TIMES],
        shamsi_column=lang == "fa",
        rows=rows,
        note=p["imsakiya_note"].format(tz=words.isolate(meta["tz"], lang), method=method_label),
        official_time=words.OFFICIAL_TIME[lang].get(meta["tz"]),
        # not the timetable's note on its two Hijri columns, which the imsakiya has not (review fa FA-09, ur UR-4),
        # nor the regional reckoning's sentence, which explained a column label this page has not and repeated the
        # header (gallery review UR2-18, UR2-33); that the fast begins at fajr, imsak a precaution
        calendar_note=None,
        imsak_note=feed_words.IMSAK_NOTE[lang],
        midnight_note=timetable.midnight_note(method, city_id, lang),
        api=[responses.api_url("prayer-times", q) for q in queries]
        + [responses.api_url("hijri", {"hy": hy, "hm": RAMADAN, "calendar": calendar})],
        data_calendar=calendar,
        data_method=method,
        data_mosque=None,
        city_link_text=None,
        sources=None,
        print_head=None,
    )


def month_words(month: dict, days: dict[int, date], local_today: date, calendar: str, lang: str) -> dict[str, str]:
    """The header's line on whose dates these are (``calendar_text``) and the footer's month start (``source``).
    A month not begun on the page's date and not announced is a forecast in both: the header said "dates by the
    committee's announcement" above a table no announcement had made (gallery review UR2-33, 28 November)."""
    p = words.PAGE_WORDS[lang]
    ahead = days[1] > local_today
    header = p["imsakiya_calendar_forecast" if words.unannounced_forecast(month["source"], ahead) else "imsakiya_calendar"]
    return {"calendar_text": header.format(calendar=words.CALENDAR_BASES[lang][calendar]),
            "source": p["imsakiya_source"].format(begins=timetable.lead_date_text(days[1], lang),
                                                  source=words.source_text(month["source"], calendar, lang, ahead))
            + " " + p["imsakiya_eid_night"]}


def ramadan_answers(today: date, hy: int, calendar: str, query_of) -> tuple[dict, dict[int, date], list[dict], dict]:
    """The API's answers for Ramadan of ``hy``: /v1/hijri's month, its days (Ramadan day -> date), the
    /v1/prayer-times queries of the Gregorian months it spans (``query_of(year, month)``) and their days by date."""
    month = responses.api_json("hijri", {"hy": hy, "hm": RAMADAN, "calendar": calendar}, today)
    days = {int(d): date.fromisoformat(iso) for d, iso in month["days"].items()}
    spans = sorted({(day.year, day.month) for day in days.values()})
    queries = [query_of(y, m) for y, m in spans]
    by_date = {d["date"]: d for q in queries for d in responses.api_json("prayer-times", q, today)["days"]}
    return month, days, queries, by_date


def ramadan_rows(days: dict[int, date], by_date: dict, local_today: date, lang: str, columns: list[dict]) -> list[dict]:
    """The table's rows, one per Ramadan day: its dates, and per column (``kind`` "time": the adhan's ``local``;
    "jamaat": ``jamaatLocal``, blank on a day without one; "slots": the day's Jumu'ah times) the API's time."""
    p = words.PAGE_WORDS[lang]
    rows = []
    last_day = max(days)  # its evening begins the night of Eid
    eid_night = eid_night_title(lang)
    for ramadan_day in sorted(days):
        gregorian = days[ramadan_day]
        answer = by_date[gregorian.isoformat()]
        jamaat = answer.get("jamaatLocal", {})
        qadr = ramadan_day + 1 if ramadan_day + 1 in QADR_NIGHTS else None
        cells = []
        for column in columns:
            if column["kind"] == "time":
                text = words.clock(answer["local"][column["id"]], lang)
            elif column["kind"] == "jamaat":
                text = words.clock(jamaat[column["id"]], lang) if jamaat.get(column["id"]) else ""
            else:  # the Jumu'ah slots of a Friday
                text = feed_words.join_list([words.clock(t, lang) for t in jamaat.get("jumuah") or []], lang)
            cells.append({"id": column["id"], "kind": column["kind"], "text": text})
        rows.append({
            "iso": gregorian.isoformat(),
            "ramadan_day": words.digits(ramadan_day, lang),
            "day": f"{words.digits(gregorian.day, lang)} {words.GREGORIAN_MONTHS[lang][gregorian.month - 1]}",
            "weekday": hijri_names.WEEKDAYS[lang][gregorian.weekday()],
            "shamsi": timetable.shamsi_text(shamsi.from_gregorian(gregorian), lang) if lang == "fa" else None,
            "today": gregorian == local_today,
            "classes": " ".join(name for name, on in (("today", gregorian == local_today),
                                                      ("friday", gregorian.weekday() == 4),
                                                      ("qadr", qadr), ("eid-eve", ramadan_day == last_day)) if on),
            "times": cells,
            "polar": answer.get("polar"),
            "qadr": p["qadr_eve"].format(night=words.digits(qadr, lang)) if qadr else None
            # the month's last day: the night of Eid begins at its sunset, marked as the Qadr nights are, the footer
            # saying when (gallery reviews UR7-03, UR8-01, FA7-01: the imsakiya marked the Qadr nights and not «چاند رات»)
            or (eid_night if ramadan_day == last_day else None),
        })
    return rows


def eid_night_title(lang: str) -> str:
    """The night of Eid al-Fitr as a row marks it: its title (data/events_local.csv)."""
    return next(e for e in events.overlay() if e["id"] == EID_NIGHT)["title"][lang]


MOSQUE_PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")  # the jamaat columns, after their adhan where it has one


def column_name(time: str, lang: str) -> str:
    """A Ramadan table's column head: the fast's two ends say so, as Ramadan tables print them: maghrib's with
    «(افطار)», imsak's with the end of suhoor where the language says it («امساک (اختتامِ سحری)»; gallery review
    2026-11-28 ur UR2-18; the Persian imsakiya's «امساک» alone, as Iran's print it)."""
    if time == "maghrib":
        return f"{words.TIME_NAMES[lang][time]} ({feed_words.IFTAR[lang]})"
    if time == "imsak":
        return words.WORDS[lang]["imsakiya_imsak_column"]
    return words.TIME_NAMES[lang][time]


def render_mosque(today: date, mosque_id: str, lang: str, hy: int | None = None, now_s: float | None = None) -> bytes:
    """Return the HTML of a mosque's own Ramadan timetable (issue 36): the city imsakiya's rows asked with the
    mosque's query (``mosque=<id>``: its place, method, jamaat rules and reckoning), with its jamaat times (its
    Ramadan rule where it has one, so maghrib's jamaat is its iftar jamaat) and its Jumu'ah on Fridays; Ramadan of
    ``hy``, else the current or coming one on the mosque's date.  `PageNotFound` for an unknown mosque, language
    or year."""
    if lang not in words.LANGUAGES:
        raise PageNotFound(f"no language {lang[:10]!r}")
    if hy is not None and not hijri.API_FIRST_YEAR <= hy <= hijri.API_LAST_YEAR:
        raise PageNotFound(f"no Ramadan of year {hy}")
    asked = hy
    m = mosque_page.profile(today, mosque_id)
    tz, calendar = m["place"]["tz"], m["reckoning"]
    local_today = timetable.city_date({"tz": tz}, responses.now_s(today) if now_s is None else now_s)
    hy = hy or timetable.ramadan_year(today, local_today, calendar)
    if hy is None:
        raise PageNotFound("no Ramadan within the API's years")
    queries_of = lambda year, month: {"mosque": mosque_id, "year": year, "month": month}  # noqa: E731
    month, days, queries, by_date = ramadan_answers(today, hy, calendar, queries_of)
    ruled = [t for t in MOSQUE_PRAYERS if any(by_date[d.isoformat()].get("jamaatLocal", {}).get(t)
                                              for d in days.values())]
    fridays = any(by_date[d.isoformat()].get("jamaatLocal", {}).get("jumuah") for d in days.values())
    w, p = words.WORDS[lang], words.PAGE_WORDS[lang]
    columns = []
    for t in TIMES + ("asr", "isha"):
        if t in TIMES:
            columns.append({"id": t, "kind": "time", "name": column_name(t, lang)})
        if t in ruled:
            columns.append({"id": t, "kind": "jamaat", "name": feed_words.JAMAAT_SUMMARY[lang].format(
                prayer=feed_words.PRAYER_NAMES[lang][t])})
    columns.sort(key=lambda c: _COLUMN_ORDER.index(c["id"]))  # asr's and isha's jamaat after maghrib's, by the day
    if fridays:
        columns.append({"id": "jumuah", "kind": "slots", "name": w["screen.jumuah"]})
    rows = ramadan_rows(days, by_date, local_today, lang, columns)
    name = mosque_page.name(m, lang)
    if lang in words.RTL:  # a name in either script keeps its own direction inside right-to-left text
        name = feed_words.FSI + name + feed_words.PDI
    year_text = words.digits(hy, lang)
    title = w["mosque.imsakiya_title"].format(year=year_text, mosque=name)
    page_head = head.page_head(lang, title, w["description.mosque_imsakiya"].format(year=year_text, mosque=name),
                               lambda other: urls.mosque_imsakiya_url(mosque_id, other, asked))
    return render_localised_page(
        "imsakiya.html.j2",
        lang,
        **page_head,
        p=p,
        city_href=urls.mosque_url(mosque_id, lang),
        city_link_text=name,
        city_name=name,
        month_name=f"{month['monthName'][lang]} {year_text}",
        **month_words(month, days, local_today, calendar, lang),
        span=timetable.lead_span_text(days[1], days[max(days)], lang),
        other_calendar=None,
        method_label=None,
        times=columns,
        shamsi_column=lang == "fa",
        rows=rows,
        note=w["times_note"].format(tz=words.isolate(tz, lang)),
        official_time=words.OFFICIAL_TIME[lang].get(tz),
        calendar_note=None,
        midnight_note=None,
        imsak_note=feed_words.IMSAK_NOTE[lang],
        sources=[mosque_page.source_item(source, lang) for source in m["sources"]],
        sources_heading=w["mosque.sources"],
        api=[responses.api_url("prayer-times", q) for q in queries]
        + [responses.api_url("hijri", {"hy": hy, "hm": RAMADAN, "calendar": calendar})],
        data_calendar=calendar,
        data_method=None,
        data_mosque=mosque_id,
        # printed for the notice board: the mosque's name and a QR code of its page at the top, as its month
        print_head={"name": name, "address": m.get("address"), "caption": w["screen.qr"],
                    "qr": qr_code.svg(urls.absolute(urls.mosque_url(mosque_id, lang)))},
    )


_COLUMN_ORDER = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha", "midnight")
