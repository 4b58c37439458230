"""A mosque's page (``/mosque/<id>/``, ``/mosque/<id>/<lang>/``): today, the month with adhan and jamaat.

Everything shown comes from the API, asked in process (`generator.site.responses`):
/v1/mosques (the profile), /v1/prayer-times?mosque=<id> (``local`` and ``jamaatLocal``, per
month: the mosque's own times, jamaat rules, Jumu'ah and Eid slots) and /v1/hijri under the
mosque's reckoning.  The page lays them out: today's card (with "jamaat times change
tomorrow" when they do), the month's table (each prayer's adhan, and its jamaat when the mosque
has a rule), the Jumu'ah and Eid slots on their days, its announcements as text (those of its day, then those
to come, with their dates: `announcement_items`), and the links to
subscribe (the mosque's feeds, in the page's language), to its CSV and to its wall screen.

The notice board (issue 36): any month has its page (``/mosque/<id>/<lang>/<YYYY>-<MM>/``, `render` with
``month``), linked from the months either side and linking the mosque's Ramadan timetable
(`generator.site.imsakiya.render_mosque`); printed, the page is one A4 sheet headed by the mosque's name and a
QR code of its page (`generator.site.qr_code`), the sources as its footer (docs/site.md "The notice board").

"Today" is the mosque's own date (its zone), as on the city pages.  Rendered on request it is the
date at the request's clock; a pre-rendered file is built for a UTC day, and nginx and the app
serve it all that day (from ``_today/<UTC date>/``), while the mosque's date differs from it for
hours (Toronto: 00:00-05:00 UTC is the day before, issue 29).  So the page carries the card of
every day it can need (its month, and the days either side of its date when they are another
month's: `card_days`) and a script (assets/mosque.js) shows the card and marks the row of the
mosque's date from the reader's clock, as city.js does on the city pages.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

import orjson
from markupsafe import Markup

from generator.prayer import announcements, mosques, place_defaults
from generator.prayer.methods import DEFAULT_METHOD, METHODS, Midnight
from generator.words import feed_words, hijri_names
from generator.words import page_words as words
from generator.api import mosque_list
from generator.calendars import shamsi
from generator.site import head, qr_code, responses, timetable, urls
from generator.site.page import PageNotFound
from generator.site.templating import render_localised_page

# The calendars a mosque page offers: (label, endpoint, options); the prayer times again with the Ramadan events
# (imsak and iftar each day of Ramadan under the mosque's reckoning: feed_options.RAMADAN; mosque trial D17).
FEEDS = (("prayer-times", "prayer-times", {}), ("prayer-times_ramadan", "prayer-times", {"ramadan": 1}),
         ("night", "night", {}))
PRAYERS = ("fajr", "dhuhr", "asr", "maghrib", "isha")
COLUMNS = ("imsak", "fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha", "midnight")
NOTICE_MIN = 5  # the page's "jamaat times change tomorrow": moves of 5 minutes or more, or of a set time


def profile(today: date, mosque_id: str) -> dict:
    """Return the mosque as /v1/mosques lists it (`PageNotFound` for an unknown id); a hosted profile (listed
    or not) as it would be listed, read at this request (never from a day's cached answer)."""
    hosted = mosques.find(mosque_id)
    if hosted is not None and hosted.hosted:
        return {**mosque_list.listing(hosted), "listed": hosted.listed}
    found = next((m for m in responses.api_json("mosques", {}, today)["mosques"] if m["id"] == mosque_id), None)
    if found is None:
        raise PageNotFound(f"no mosque {mosque_id[:60]!r}")
    return found


def name(mosque: dict, lang: str) -> str:
    """The mosque's name in ``lang``, else in English."""
    return mosque["names"].get(lang) or mosque["names"][words.DEFAULT_LANGUAGE]


def place_name(today: date, mosque: dict, lang: str) -> str:
    """Where the mosque is, in ``lang``: its catalogue city's name, else its coordinates as the pages write
    them (hemisphere words, no sign to misplace in right-to-left text; a zone id is no place name)."""
    city = mosque["place"].get("city")
    if city is not None:
        return responses.catalogue_city(city, today)["names"][lang]
    return words.coordinates(mosque["place"]["lat"], mosque["place"]["lng"], lang)


def zone_text(today: date, mosque: dict, lang: str) -> str:
    """The mosque's zone as city pages name it ("Toronto time (America/Toronto)", `page_words.zone`): after the
    catalogue city the zone is named after, else the mosque's own catalogue city; else the zone id alone."""
    tz = mosque["place"]["tz"]
    catalogue = {c["id"]: c for c in responses.api_json("cities", {"all": "1"}, today)["cities"]}
    named = catalogue.get(tz.rsplit("/", 1)[-1].lower().replace("_", "-"))
    city = mosque["place"].get("city")
    if named is None and city is not None:
        named = responses.catalogue_city(city, today)
    return words.isolate(tz, lang) if named is None else words.zone(tz, named["names"][lang], lang)


def announcement_items(mosque: mosques.Mosque, local_today: date, lang: str) -> dict:
    """The mosque's announcements for its page (issue 36): those that apply on its local today, then those still to
    begin, each in the page's language where written (else the mosque's first language that has it: its ``lang``),
    its lines, and when it applies ("from 16 June 2026 to 26 June 2026", "every Thursday") in the page's language."""
    w = words.WORDS[lang]

    def item(k: int) -> dict:
        announcement = mosque.announcements[k]
        text_lang, text = announcement.in_language(lang, mosque.languages)
        when = []
        start = announcement.start and words.date_text(announcement.start.isoformat(), lang)
        end = announcement.end and words.date_text(announcement.end.isoformat(), lang)
        if start and end:
            when.append(w["mosque.ann_from_until"].format(**{"from": start, "until": end}))
        elif start or end:
            when.append(w["mosque.ann_from"].format(**{"from": start}) if start else
                        w["mosque.ann_until"].format(until=end))
        if announcement.weekdays:
            when.append(w["mosque.ann_every"].format(days=feed_words.join_list(
                [hijri_names.WEEKDAYS[lang][d] for d in announcement.weekdays], lang)))
        return {"lang": text_lang, "lines": text.split("\n"), "slide": announcement.kind == announcements.SLIDE,
                "when": words.SEPARATOR[lang].join(when)}

    return {"current": [item(k) for k in announcements.active_on(mosque.announcements, local_today)],
            "upcoming": [item(k) for k in announcements.upcoming(mosque.announcements, local_today)]}


def render(today: date, mosque: str, lang: str = words.DEFAULT_LANGUAGE, now_s: float | None = None,
           month: str | None = None) -> bytes:
    """Return the HTML of a mosque's page: its own date's month, or ``month`` ("YYYY-MM": the month's page,
    ``/mosque/<id>/<lang>/<YYYY>-<MM>/``); `PageNotFound` for an unknown mosque, language or month."""
    if lang not in words.LANGUAGES:
        raise PageNotFound(f"no language {lang[:10]!r}")
    month_page = month is not None
    shown_ym = timetable.month_of(month) if month_page else None
    m = profile(today, mosque)
    tz, calendar = m["place"]["tz"], m["reckoning"]
    local_today = timetable.city_date({"tz": tz}, responses.now_s(today) if now_s is None else now_s)
    shown_ym = shown_ym or (local_today.year, local_today.month)
    w, p = words.WORDS[lang], words.PAGE_WORDS[lang]
    title_name = name(m, lang)
    if lang in words.RTL:  # a name in either script keeps its own direction inside right-to-left text
        title_name = feed_words.FSI + title_name + feed_words.PDI
    month = month_rows(today, local_today, m, lang, shown_ym)
    ruled = [prayer for prayer in PRAYERS if any(prayer in row["jamaat"] for row in month["days"])]
    has_slots = any(row["slots"] for row in month["days"])
    today_row = next((row for row in month["days"] if row["today"]), None)
    cards = card_days(today, local_today, m, lang, month, ruled)
    place = w["place"].format(lat=words.coordinate(m["place"]["lat"], "lat", lang),
                              lng=words.coordinate(m["place"]["lng"], "lng", lang),
                              zone=zone_text(today, m, lang), qibla=words.degrees(month["qibla"], lang))
    has_jamaat = bool(ruled or has_slots)  # else the title promises only the prayer times (review of 26 November)
    title = w["mosque.title" if has_jamaat else "mosque.title_no_jamaat"].format(mosque=title_name)
    description = w["description.mosque" if has_jamaat else "description.mosque_no_jamaat"].format(
        mosque=title_name, place=place_name(today, m, lang))
    query = {"mosque": mosque, "year": shown_ym[0], "month": shown_ym[1]}
    own_month = shown_ym == (local_today.year, local_today.month)
    if month_page:  # the month's own page (its address names it, even for this month)
        title = f"{title}{words.SEPARATOR[lang]}{month['caption']}"
        page_head = head.page_head(lang, title, description,
                                   lambda other: urls.mosque_month_url(mosque, other, *shown_ym))
    else:
        page_head = head.page_head(lang, title, description, lambda other: urls.mosque_url(mosque, other))
    if not m.get("listed", True):  # a hosted profile no maintainer has listed: not for search results
        page_head["head"]["robots"] = "noindex"
    return render_localised_page(
        "mosque.html.j2", lang, **page_head,
        p=p, mosque_name=title_name, place=place, address=m.get("address"), website=m.get("website"),
        announcements=announcement_items(mosques.find(mosque), local_today, lang),
        times_note=w["times_note"].format(tz=words.isolate(tz, lang)),
        midnight_note=midnight_note(mosque, lang),
        reckoning_label=words.CALENDAR_LABELS[lang][calendar],
        reckoning=w["mosque.reckoning"].format(calendar=words.CALENDAR_BASES[lang][calendar]),
        columns=[{"id": t, "name": words.TIME_NAMES[lang][t], "jamaat": t in ruled,
                  # the jamaat column is named after the prayer ("نماز جماعت ظهر"), not its adhan column ("اذان ظهر")
                  "jamaat_name": feed_words.JAMAAT_SUMMARY[lang].format(prayer=feed_words.PRAYER_NAMES[lang][t])
                  if t in ruled else None} for t in COLUMNS],
        jamaat_word=w["screen.jamaat"], adhan_word=w["screen.adhan"], slots_word=w["mosque.slots"],
        has_slots=has_slots, no_jamaat=None if has_jamaat else w["mosque.no_jamaat"],
        month=month, today_row=today_row, changes=changes_tomorrow(month["days"], local_today, lang),
        card_days=Markup(orjson.dumps({"tz": tz, "days": cards}).decode().replace("<", "\\u003c")),
        feeds=[{"label": w[f"feed.{label}"],
                "href": responses.api_url(f"{feed}.ics", {"mosque": mosque, "lang": lang, **options})}
               for label, feed, options in FEEDS] + [timetable.events_feed(calendar, community(m), lang)],
        api=responses.api_url("prayer-times", query), csv=responses.api_url("prayer-times.csv", query),
        screen={"href": urls.screen_url(mosque, lang), "text": w["mosque.screen_link"]},
        sources=[source_item(source, lang) for source in m["sources"]],
        months_nav=months_nav(today, local_today, m, lang, shown_ym, own_month and not month_page),
        # the notice board (issue 36): the printed month carries a QR code of the mosque's page in its language
        qr=qr_code.svg(urls.absolute(urls.mosque_url(mosque, lang))),
        qr_caption=w["screen.qr"],
    )


def months_nav(today: date, local_today: date, m: dict, lang: str, shown: tuple[int, int],
               on_main: bool) -> dict:
    """The links beside the month: the months before and after it (any of the API's years: a month's page, or the
    mosque's page for its own month), the mosque's page from a month's page, and its Ramadan timetable."""
    w, p = words.WORDS[lang], words.PAGE_WORDS[lang]
    mosque = m["id"]

    def link(months: int) -> str | None:
        year, month = timetable.month_offset(*shown, months)
        if not timetable.FIRST_YEAR <= year <= timetable.LAST_YEAR:
            return None
        if (year, month) == (local_today.year, local_today.month):
            return urls.mosque_url(mosque, lang)
        return urls.mosque_month_url(mosque, lang, year, month)

    ramadan = timetable.ramadan_year(today, local_today, m["reckoning"])
    return {"previous": link(-1), "next": link(1), "previous_text": w["previous_month"], "next_text": w["next_month"],
            "main": None if on_main else urls.mosque_url(mosque, lang),
            "ramadan": None if ramadan is None else {
                "href": urls.mosque_imsakiya_url(mosque, lang),
                "text": p["imsakiya_link"].format(year=words.digits(ramadan, lang))}}


_ARABIC_SCRIPT = re.compile("[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")


def source_item(source: dict, lang: str) -> dict:
    """One source of the profile as the page prints it: its text marked English (and said to be, on an ar, fa or
    ur page) when it has no letter of the Arabic script, and the date it was read in the page's own writing
    (Persian: the Solar Hijri date) rather than ISO digits (issue 33; review ar G1, fa FA-25, ur UR-33)."""
    read = date.fromisoformat(source["read"])
    read_text = (timetable.shamsi_text(shamsi.from_gregorian(read), lang) if lang == "fa"
                 else timetable.date_text(read, lang))
    english = not _ARABIC_SCRIPT.search(source["about"])
    return {"about": source["about"], "url": source.get("url"), "read": read_text, "english": english,
            "marker": words.WORDS[lang]["mosque.source_in_english"] if english and lang != "en" else None}


def community(m: dict) -> str | None:
    """Return the community whose events the mosque's page and screen show: its city's country's (issue 33), else
    its zone's country's (`place_defaults.place_community`)."""
    return place_defaults.place_community(m["place"])


def month_rows(today: date, local_today: date, m: dict, lang: str, shown: tuple[int, int] | None = None) -> dict:
    """Return the mosque's month ``shown`` (default: that of ``local_today``): per day the adhan, jamaat and
    Jumu'ah/Eid slots."""
    year, month = shown or (local_today.year, local_today.month)
    # "Changes tomorrow" for a change a congregation needs to know (docs/decisions.md "Jamaat", jamaatNotice).
    query = {"mosque": m["id"], "year": year, "month": month, "jamaatNotice": NOTICE_MIN}
    answer = responses.api_json("prayer-times", query, today)
    hijri_map = responses.api_json("hijri", {"year": year, "month": month, "calendar": m["reckoning"]}, today)
    sep = words.SEPARATOR[lang]
    event_days = timetable.events_on_days(today, hijri_map, m["reckoning"], lang, community(m))
    rows = []
    for i, day in enumerate(answer["days"]):
        gregorian = date.fromisoformat(day["date"])
        jamaat = day.get("jamaatLocal", {})
        own_hijri = hijri_map["days"][day["date"]]
        day_parts = timetable.day_label(gregorian, own_hijri, lang)
        slots = []
        for key, label in (("jumuah", "screen.jumuah"), ("eid", "screen.eid")):
            if jamaat.get(key):
                times = feed_words.join_list([words.clock(t, lang) for t in jamaat[key]], lang)
                mark = "‡" if key in day.get("jamaatKept", ()) else ""  # kept outside its time (issue 33)
                slots.append(f"{words.WORDS[lang][label]}: {times}{mark}")
        rows.append({
            "iso": day["date"],
            "day": words.digits(gregorian.day, lang),
            "weekday": hijri_names.WEEKDAYS[lang][gregorian.weekday()],
            "hijri": timetable.hijri_cell(own_hijri, first_row=i == 0, lang=lang)["text"],
            "label": sep.join(day_parts),
            "label_parts": day_parts,  # each date unbroken (fa FA7-03)
            "friday": gregorian.weekday() == 4,
            "today": gregorian == local_today,
            "times": {t: words.clock(day["local"][t], lang) if day["local"][t] else "" for t in COLUMNS},
            "jamaat": {t: words.clock(jamaat[t], lang) if jamaat[t] else "" for t in PRAYERS if t in jamaat},
            "moved": set(day.get("jamaatMoved", ())) - set(day.get("jamaatMovedEnd", ())),
            "moved_end": set(day.get("jamaatMovedEnd", ())),
            # issue 33: asr/isha with no adhan of their own (prayed with dhuhr/maghrib), declared times kept or skipped
            "fadhila": set(day.get("jamaatCombined", ())),
            "kept": set(day.get("jamaatKept", ())),
            "skipped": set(day.get("jamaatSkipped", ())),
            "changed": list(day.get("jamaatChanged", ())),
            "slots": slots,
            # the day's own events and the nights beginning at its sunset, as the city page's card names them
            # (gallery reviews fa LANG3-04, ur UR3-02, ar AR2-04: the centre's Tasua and the night of Ashura unnamed)
            "events": [event["title"] for event in event_days.get(day["date"], []) if event["type"] != "practice"],
            # the day's practice the card says (issue 33: Ashura's abstaining until after asr, with its asr)
            "practice": [line["title"] for line in timetable.ashura_imsak(
                today, day["date"], m["reckoning"], day["local"]["asr"], lang, event_days)]
            # and that the clock changed last night, as the city page's card (gallery review 4, AR4-03, LANG4-01)
            + [line["title"] for line in timetable.clock_change_row(m["place"]["tz"], day["date"], lang)],
        })
    return {"days": rows, "qibla": answer["meta"]["qibla"], "year": year,
            "month": f"{month:02d}",
            "caption": timetable.month_heading(words.WORDS[lang]["month_caption"].format(
                month=words.GREGORIAN_MONTHS[lang][month - 1], year=words.digits(year, lang)),
                answer["days"][0]["date"], answer["days"][-1]["date"], lang),
            "hijri_caption": " – ".join(f"{x['monthName'][lang]} {words.digits(x['year'], lang)}"
                                        for x in hijri_map["months"]),
            "summer_time_note": timetable.summer_time_note(m["place"]["tz"], [r["iso"] for r in rows], lang),
            "moved_note": words.WORDS[lang]["mosque.moved_note"] if any(r["moved"] for r in rows) else None,
            "moved_end_note": words.WORDS[lang]["mosque.moved_end_note"] if any(r["moved_end"] for r in rows)
            else None,
            **{f"{mark}_note": words.WORDS[lang][f"mosque.{mark}_note"] if any(r[mark] for r in rows) else None
               for mark in ("fadhila", "kept", "skipped")}}


def card_days(today: date, local_today: date, m: dict, lang: str, month: dict, ruled: list[str]) -> dict:
    """The card of each day the page may have to show (mosque.js picks the mosque's date): every day of
    the month, and the days before and after ``local_today`` when they are in another month (a file
    built for a UTC day is served while the mosque's date is the day before or after)."""
    rows = list(month["days"])
    for other in (local_today - timedelta(days=1), local_today + timedelta(days=1)):
        if other.month != local_today.month:
            rows += [row for row in month_rows(today, other, m, lang)["days"] if row["iso"] == other.isoformat()]
    by_iso = {row["iso"]: row for row in rows}
    out = {}
    for iso in sorted(by_iso):
        row = by_iso[iso]
        after = by_iso.get((date.fromisoformat(iso) + timedelta(days=1)).isoformat())
        # asr/isha prayed with dhuhr/maghrib: marked ° as in the table (the page's note says why; issue 33)
        times = {t: text + ("°" if t in row["fadhila"] and text else "") for t, text in row["times"].items()}
        out[iso] = {"label": row["label"], "times": times,
                    "jamaat": {t: row["jamaat"].get(t, "") for t in ruled},
                    "slots": row["events"] + row["slots"] + row["practice"],
                    "changes": changes_of(after, lang, row) if after is not None else None}
    return out


def changes_of(tomorrow: dict | None, lang: str, today: dict | None = None) -> str | None:
    """"Jamaat times change tomorrow: Fajr 06:15 (today 06:30)" for tomorrow's row when it lists changes: each prayer
    with its new time, and today's beside it where today has one (issue 36, mosque trial D15: the screen named the
    new time, the page only the prayer)."""
    if tomorrow is None or not tomorrow["changed"]:
        return None
    w = words.WORDS[lang]
    items = []
    for n in tomorrow["changed"]:
        name = feed_words.PRAYER_NAMES[lang].get(n) or w["screen.jumuah"]
        new, before = tomorrow["jamaat"].get(n), (today or {}).get("jamaat", {}).get(n)
        if new and before:
            items.append(w["mosque.change_time"].format(prayer=name, time=new, before=before))
        else:  # no jamaat tomorrow or today (a skipped day, a slot list): the prayer named as before
            items.append(f"{name} {new}" if new else name)
    return w["screen.changes_tomorrow"].format(prayers=feed_words.join_list(items, lang))


def changes_tomorrow(rows: list[dict], local_today: date, lang: str) -> str | None:
    """Return "Jamaat times change tomorrow: …" when tomorrow's row (in this month) lists changes."""
    tomorrow = next((r for r in rows if date.fromisoformat(r["iso"]).toordinal() == local_today.toordinal() + 1), None)
    today = next((r for r in rows if r["iso"] == local_today.isoformat()), None)
    return changes_of(tomorrow, lang, today)


def screen_location(mosque: str) -> str | None:
    """Where ``/mosque/<id>/screen/`` leads: the screen in the mosque's first language (None: no such mosque)."""
    found = mosques.find(mosque)
    return None if found is None else urls.screen_url(found.id, found.languages[0])


def listed_mosques(today: date) -> list[str]:
    """The ids of the mosques served (their pages are pre-rendered and listed in the sitemap)."""
    return [m["id"] for m in responses.api_json("mosques", {}, today)["mosques"]]


def midnight_note(mosque_id: str, lang: str) -> str:
    """Which night the page's midnight halves, and whose it is: the mosque's own setting (``midnight`` in its
    times), else its method's authority's, else the API's default, said as such (issue 33; the Arabic reader of the
    gallery of 28 November took the Toronto page's maghrib-to-fajr midnight for the sunset-to-fajr one the city
    pages state, 7–8 minutes apart: the page now says which it prints)."""
    w = words.WORDS[lang]
    params = mosques.find(mosque_id).parameters
    if "midnight" in params:
        return w["midnight_note_mosque"].format(rule=w[f"midnight_rule.{Midnight(params['midnight']).value}"])
    preset = METHODS.get(str(params.get("method", DEFAULT_METHOD)))
    rule = preset.midnight if preset is not None else Midnight.MAGHRIB_TO_FAJR
    sourced = preset is not None and preset.authority_midnight == rule
    return w["midnight_note" if sourced else "midnight_note_unsourced"].format(rule=w[f"midnight_rule.{rule.value}"])
