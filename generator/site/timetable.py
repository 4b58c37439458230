"""A city's printable timetable: this month and the next, in one language and one method.

Everything shown comes from the API, asked in process (`generator.site.responses`):
/v1/prayer-times (``local`` HH:mm, per month), /v1/hijri (forward month maps under both
reckonings), /v1/events (the Hijri years touched, under the page's reckoning), /v1/cities,
/v1/methods and /v1/qibla.  The page only lays them out: digits and names in the page's language.

"Today" is the city's own date (its zone), not UTC: at the instant ``now_s`` when the page
is rendered on request, at noon UTC of ``today`` when build.py pre-renders it; the page's
script moves the mark and the card when the reader's clock says the city's date is another
day (docs/site.md).

Events are placed by the city's own reckoning and the page opens on its own method (data/place_defaults.csv,
generator.prayer.place_defaults: ``iran`` for cities in Iran, ``pakistan`` and ``india`` there, the Imam Ali Foundation's
tables in the UK; the SPEC's defaults where no source was found); the Hijri dates of moonsighting and iran are shown
on every row, and of the city's own first when it is another (`page_calendars`).
"""
from __future__ import annotations

import re
from datetime import date, datetime, timezone
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import orjson
from markupsafe import Markup

from generator.calendars import hijri
from generator.prayer import place_defaults
from generator.prayer.jamaat import RAMADAN
from generator.prayer.methods import METHODS
from generator.words import feed_words, hijri_names
from generator.words import page_words as words
from generator.calendars import shamsi
from generator.places import timezones
from generator.site import head, qibla_svg, responses, urls
from generator.site.page import PageNotFound
from generator.site.templating import render_localised_page

CALENDARS = hijri.CALENDARS  # every reckoning a page may follow (its events, its imsakiya)
SHOWN_CALENDARS = ("moonsighting", "iran")  # the Hijri columns of every timetable
MONTHS_SHOWN = 2  # this month and the next
# One-month pages linked from a city's page, as offsets from the city's month: the month before
# and the month after the two shown (pre-rendered; any other month is rendered on request).
# The two shown months link to the city's page itself.
MONTH_PAGES = (-1, MONTHS_SHOWN)
FIRST_YEAR, LAST_YEAR = 1900, 2100  # the API's Gregorian years (SPEC 8)
FEEDS = ("prayer-times", "night")  # the city feeds, /v1/<feed>.ics
# Each month's table links its /v1/prayer-times.csv (issue 9); False leaves the link out.
PRAYER_TIMES_CSV = True
_MONTH_PART = re.compile(r"([0-9]{4})-([0-9]{2})", re.ASCII)


def city_calendar(city: dict) -> str:
    """Return the reckoning a city's events follow: its place's (data/place_defaults.csv: Iran's official
    calendar in Iran), else sighting."""
    return place_defaults.for_place(city.get("id"), city.get("country")).calendar


def city_community(city: dict) -> str | None:
    """Return the community whose events a city's pages and feeds show (its country's, issue 33: the place's own
    wins; data/events_local.csv), or None (the catalogue)."""
    return place_defaults.community(city.get("country"))


def city_offered(city: dict) -> tuple[str, ...]:
    """Return the other reckonings a city's community keeps (data/place_defaults.csv: Lebanon's Fadlallah office)."""
    return place_defaults.for_place(city.get("id"), city.get("country")).offered


def page_calendars(calendar: str, offered: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Return the Hijri columns of a page whose events follow ``calendar``: the two every page shows,
    after the page's own reckoning when it is another (a Karachi reader's ``pakistan``), then the other
    reckonings its community keeps (a Beirut reader's ``lebanon``, issue 37)."""
    shown = SHOWN_CALENDARS if calendar in SHOWN_CALENDARS else (calendar, *SHOWN_CALENDARS)
    return (*shown, *(c for c in offered if c not in shown))


def reckoning_choice(today: date, local_today: date, city_id: str, lang: str, calendar: str, offered: tuple[str, ...],
                     method: str, default_method: str) -> list[dict]:
    """Return, where a community keeps more than one calendar (``offered``: Lebanon's two, North America's Council
    by region, issue 37), each body by name with what follows its days: its Ramadan imsakiya, the events feed and
    the wall screen under its reckoning, the imsakiya and screen with the body's own times where a preset names the
    body's reckoning (`Method.reckoning`: the Fadlallah office's); empty for a community with one calendar."""
    if not offered:
        return []
    out = []
    for c in (calendar, *offered):
        year = ramadan_year(today, local_today, c)
        # a body with times of its own (a preset naming its reckoning: the Fadlallah office's) brings them
        times = next((m.id for m in METHODS.values() if m.reckoning == c), method)
        screen = {"city": city_id, "calendar": c, "lang": lang} | ({"method": times} if times != method else {})
        out.append({
            "body": feed_words.RECKONING_TITLE[c][lang],
            "times": words.WORDS[lang]["reckoning_choice_times"] if times != method else None,
            "imsakiya": {"href": urls.imsakiya_url(city_id, lang, c, calendar, times, default_method),
                         "text": words.WORDS[lang]["imsakiya_link"].format(year=words.digits(year, lang))}
            if year else None,
            "events": responses.api_url("events.ics", {"calendar": c, "lang": lang}),
            "screen": f"/screen/?{urlencode(screen)}",
        })
    return out


def calendar_note(calendar: str, lang: str, city_id: str, offered: tuple[str, ...] = ()) -> str:
    """Return the note on the page's reckonings, led by the sentence on its own when it is a regional one (the
    events then "dated by it": page.calendar_note_regional, gallery review UR2-2): where the
    reckoning is the city's by its country's row only, the variant saying the city's ulema may announce otherwise,
    if the glossary has one (``….elsewhere``: India, whose committee is Lucknow's; issue 33, review UR-2); then the
    sentence on each other reckoning the community keeps (``offered``: Lebanon's two calendars, issue 37)."""
    own = region_note(calendar, lang, city_id)
    if own:  # the page's own reckoning first, named once (gallery review UR2-2)
        note = words.WORDS[lang]["calendar_note_regional"].format(region=own, label=words.CALENDAR_LABELS[lang][calendar])
    else:
        note = words.WORDS[lang]["calendar_note"].format(calendar=words.CALENDAR_BASES[lang][calendar])
    sentences = [region_note(c, lang, city_id) for c in offered]
    return " ".join([note, *(s for s in sentences if s)])


def region_note(calendar: str, lang: str, city_id: str) -> str | None:
    """Return the sentence on a regional reckoning (None for another), as `calendar_note` adds it."""
    w = words.WORDS[lang]
    own = place_defaults.for_city(city_id)
    kept = own.listed == city_id and own.listed_calendar == calendar  # the city's own row names the reckoning
    regional = w.get(f"calendar_note_region.{calendar}")
    if not kept:
        regional = w.get(f"calendar_note_region.{calendar}.elsewhere", regional)
    return regional


def day_label(gregorian: date, own_hijri: dict, lang: str) -> list[str]:
    """The parts of a day's label (a page's today card: city and mosque pages): weekday and Gregorian date, then the
    Hijri date with its era mark as the API writes it (hijri_date: «۱۹ جمادی الثانی ۱۴۴۸ھ», gallery review UR2-4);
    in Persian the weekday and the Solar Hijri date first and the Gregorian last, as Iranian calendars print it
    (reviews fa S-1, FA-25)."""
    weekday = hijri_names.WEEKDAYS[lang][gregorian.weekday()]
    hijri_text = hijri_names.formatted(own_hijri["year"], own_hijri["month"], own_hijri["day"])[lang]
    if lang == "fa":
        return [f"{weekday} {shamsi_text(shamsi.from_gregorian(gregorian), lang)}", hijri_text, date_text(gregorian, lang)]
    return [f"{weekday} {date_text(gregorian, lang)}", hijri_text]


def city_date(city: dict, now_s: float) -> date:
    """Return the date on the city's clocks at the Unix time ``now_s``."""
    return datetime.fromtimestamp(now_s, timezone.utc).astimezone(ZoneInfo(city["tz"])).date()


def months_from(today: date, count: int = MONTHS_SHOWN) -> list[tuple[int, int]]:
    """Return (year, month) of the month of ``today`` and the ``count - 1`` following ones (up to 2100)."""
    return [ym for ym in (month_offset(today.year, today.month, k) for k in range(count)) if ym[0] <= LAST_YEAR]


def month_of(text: str) -> tuple[int, int]:
    """Return (year, month) of a month page's "YYYY-MM" (`PageNotFound` outside the API's years)."""
    found = _MONTH_PART.fullmatch(text)
    if not found or not (FIRST_YEAR <= int(found[1]) <= LAST_YEAR and 1 <= int(found[2]) <= 12):
        raise PageNotFound(f"no month {text[:10]!r}")
    return int(found[1]), int(found[2])


def month_offset(year: int, month: int, months: int) -> tuple[int, int]:
    """Return the (year, month) ``months`` months after year/month (negative: before)."""
    y, m = divmod(year * 12 + month - 1 + months, 12)
    return y, m + 1


def month_window(local_today: date) -> list[tuple[int, int]]:
    """Return the months with a one-month page linked (and pre-rendered) around the city's month."""
    months = [month_offset(local_today.year, local_today.month, k) for k in MONTH_PAGES]
    return [ym for ym in months if FIRST_YEAR <= ym[0] <= LAST_YEAR]


def month_link(city_id: str, lang: str, method: str, local_today: date, target: tuple[int, int],
               default_method: str) -> str | None:
    """Return where a link to month ``target`` goes: the city's page for the months it shows, a one-month
    page inside the window, else nowhere (None)."""
    if target in months_from(local_today):
        return urls.city_url(city_id, lang, method, default_method)
    return urls.month_url(city_id, lang, method, *target) if target in month_window(local_today) else None


def city_default_method(methods: list[dict], city_id: str) -> str:
    """Return the method a city's page shows by default: its place's (generator.prayer.place_defaults: the city's
    row, else the authority whose printed table serves the city, else its country's row), else the API's
    default (the SPEC's Tehran)."""
    method = place_defaults.for_city(city_id).method
    return method if any(m["id"] == method for m in methods) else next(m["id"] for m in methods if m["default"])


def prayer_query(city_id: str, method: str, **span) -> dict:
    """Return the /v1/prayer-times query of a page naming ``method`` at a city: its authority's midnight
    (`place_defaults.page_midnight`: the Institute's and the Sistani office's, sunset to fajr; issue 33)."""
    midnight = place_defaults.page_midnight(method, city_id)
    return {"city": city_id, **span, "method": method, **({"midnight": midnight} if midnight else {})}


def page_context(today: date, city_id: str, lang: str, method: str | None) -> dict:
    """Return what every page of a city shares (`PageNotFound` for an unknown city, language or method)."""
    catalogue = {c["id"]: c for c in responses.api_json("cities", {"all": "1"}, today)["cities"]}
    methods = responses.api_json("methods", {}, today)["methods"]
    default_method = city_default_method(methods, city_id)
    method = method or default_method
    if city_id not in catalogue or lang not in words.LANGUAGES or method not in {m["id"] for m in methods}:
        raise PageNotFound(f"no timetable for city {city_id!r}, language {lang!r}, method {method!r}")
    return {"city": catalogue[city_id], "method": method, "methods": methods, "default_method": default_method,
            "catalogue": catalogue}


def render(today: date, city_id: str, lang: str = words.DEFAULT_LANGUAGE, method: str | None = None,
           now_s: float | None = None) -> bytes:
    """Return the HTML of a city's timetable page (`PageNotFound` for an unknown city, language or method)."""
    shared = page_context(today, city_id, lang, method)
    local_today = city_date(shared["city"], responses.now_s(today) if now_s is None else now_s)
    return _render(today, local_today, shared, lang, months_from(local_today), month_page=None)


def render_month(today: date, city_id: str, lang: str, method: str, month: str, now_s: float | None = None) -> bytes:
    """Return the HTML of one month of a city's timetable ("YYYY-MM"), any month of the API's years."""
    ym = month_of(month)
    shared = page_context(today, city_id, lang, method)
    local_today = city_date(shared["city"], responses.now_s(today) if now_s is None else now_s)
    return _render(today, local_today, shared, lang, [ym], month_page=ym)


def _render(today: date, local_today: date, shared: dict, lang: str, shown: list[tuple[int, int]],
            month_page: tuple[int, int] | None) -> bytes:
    city, method, methods = shared["city"], shared["method"], shared["methods"]
    city_id = city["id"]
    calendar = city_calendar(city)
    offered = city_offered(city)
    w = words.WORDS[lang]
    p = words.PAGE_WORDS[lang]
    name = city["names"][lang]
    months = [month_table(today, local_today, city, lang, method, calendar, year, month) for year, month in shown]
    meta = months[0]["meta"]
    method_label = next(m["label"][lang] for m in methods if m["id"] == method)
    if month_page is None:
        title = w["timetable_title"].format(city=name)
        description = w["description.city"].format(city=name, method=method_label)
        href = lambda other: urls.city_url(city_id, other, method, shared["default_method"])  # noqa: E731
    else:
        month_name = f"{words.GREGORIAN_MONTHS[lang][month_page[1] - 1]} {words.digits(month_page[0], lang)}"
        title = p["month_page_title"].format(city=name, month=month_name)
        description = w["description.month"].format(city=name, month=month_name, method=method_label)
        href = lambda other: urls.month_url(city_id, other, method, *month_page)  # noqa: E731
    today_row = next((row for m in months for row in m["rows"] if row["today"]), None)
    qibla = responses.api_json("qibla", {"city": city_id}, today)["qibla"]
    default_method = shared["default_method"]
    previous = month_link(city_id, lang, method, local_today, month_offset(*shown[0], -1), default_method)
    following = month_link(city_id, lang, method, local_today, month_offset(*shown[-1], 1), default_method)
    ramadan = ramadan_year(today, local_today, calendar)
    crescent = crescent_links(today, local_today, city, lang)
    return render_localised_page(
        "city.html.j2",
        lang,
        **head.page_head(lang, title, description, href),
        p=p,
        city_name=name,
        methods=[{"id": m["id"], "label": m["label"][lang], "href": urls.city_url(city_id, lang, m["id"], shared["default_method"]),
                  "current": m["id"] == method} for m in methods],
        method_label=method_label,
        # a catalogue city's coordinates, as the API gives them: two decimals, «۶۷٫۰۰°» not «۶۷٫۰°» (UR2-5)
        place=w["place"].format(lat=words.coordinate(meta["lat"], "lat", lang, decimals=2),
                                lng=words.coordinate(meta["lng"], "lng", lang, decimals=2),
                                zone=words.zone(meta["tz"], zone_city_name(meta["tz"], city, shared["catalogue"], lang),
                                                lang),
                                qibla=words.degrees(meta["qibla"], lang)),
        times_note=w["times_note"].format(tz=words.isolate(meta["tz"], lang)),
        times=[{"id": t, "name": words.TIME_NAMES[lang][t]} for t in words.TIMES],
        calendars=[{"id": c, "label": words.CALENDAR_LABELS[lang][c]} for c in page_calendars(calendar, offered)],
        shamsi_column=lang == "fa",
        calendar_note=calendar_note(calendar, lang, city_id, offered),
        months=months,
        today_row=today_row if month_page is None else None,
        instants=Markup(orjson.dumps({
            "tz": meta["tz"], "days": {row["iso"]: row["instants"] for m in months for row in m["rows"]},
            # the days of Ramadan, on which the count-down names maghrib as iftar (AR4-01)
            "ramadan": [row["iso"] for m in months for row in m["rows"] if row["ramadan"]],
            "iftar": words.iftar_name(lang)}).decode()
                        .replace("<", "\\u003c")),
        qibla_svg=qibla_svg.compass(qibla, lang),
        qibla_text=p["qibla_text"].format(bearing=words.degrees(qibla, lang)),
        qibla_api=responses.api_url("qibla", {"city": city_id}),
        feeds=[{"label": w[f"feed.{feed}"], "href": responses.api_url(f"{feed}.ics", {"city": city_id, "lang": lang,
                                                                                     "method": method})}
               for feed in FEEDS] + [events_feed(calendar, city_community(city), lang)],
        imsakiya={"href": urls.imsakiya_url(city_id, lang, calendar, calendar, method, shared["default_method"]),
                  "text": p["imsakiya_link"].format(year=words.digits(ramadan, lang))} if ramadan else None,
        crescent=crescent,
        choice=reckoning_choice(today, local_today, city_id, lang, calendar, offered, method, default_method),
        main_href=urls.city_url(city_id, lang, method, shared["default_method"]) if month_page is not None else None,
        printed_note=printed_note(months, methods, lang),
        midnight_note=midnight_note(method, city_id, lang),
        asr_note=w.get(f"asr_note.{method}"),  # a method whose authority prints another asr (issue 37)
        defaults_note=w["place_defaults"].format(method=method_label, calendar=words.CALENDAR_BASES[lang][calendar])
        if method == default_method else None,
        previous={"href": previous, "text": w["previous_month"]} if previous else None,
        next={"href": following, "text": w["next_month"]} if following else None,
    )


def events_feed(calendar: str, community: str | None, lang: str) -> dict:
    """Return the link to the events feed a place's community keeps, under its reckoning (issue 33)."""
    query = {"lang": lang, "calendar": calendar} | ({"community": community} if community else {})
    return {"label": words.WORDS[lang]["feed.events"], "href": responses.api_url("events.ics", query)}


def midnight_note(method: str, city_id: str, lang: str) -> str:
    """Return the sentence saying which night the page's midnight halves, and whose definition it is, or that no
    source was found for the method's authority (issue 33)."""
    rule, sourced = place_defaults.page_night(method, city_id)
    w = words.WORDS[lang]
    return w["midnight_note" if sourced else "midnight_note_unsourced"].format(rule=w[f"midnight_rule.{rule.value}"])


def printed_note(months: list[dict], methods: list[dict], lang: str) -> str | None:
    """Return the sentence naming the printed table the page shows (its days' ``source``), or None."""
    table = next((m["table"] for m in months if m["table"]), None)
    if table is None:
        return None
    authority = next(m["label"][lang] for m in methods if m["id"] == table.split("/", 1)[0])
    return words.WORDS[lang]["printed_note"].format(authority=authority)


def ramadan_year(today: date, local_today: date, calendar: str) -> int | None:
    """Return the Hijri year of the current or coming Ramadan on the city's date (None past the API's years)."""
    now = responses.api_json("hijri", {"date": local_today.isoformat(), "calendar": calendar}, today)["hijri"]
    year = now["year"] if now["month"] <= 9 else now["year"] + 1
    return year if year <= hijri.API_LAST_YEAR else None


def crescent_links(today: date, local_today: date, city: dict, lang: str) -> dict | None:
    """Return the links to the coming Hijri month's crescent maps and to this city's point answer."""
    now = responses.api_json("hijri", {"date": local_today.isoformat()}, today)["hijri"]
    hy, hm = (now["year"], now["month"] + 1) if now["month"] < 12 else (now["year"] + 1, 1)
    if hy > hijri.API_LAST_YEAR:
        return None
    p = words.PAGE_WORDS[lang]
    month = f"{hijri_names.month_in_date(hm, lang)} {words.digits(hy, lang)}"  # after «هلال»: the genitive
    return {"href": urls.moon_url(hy, hm, lang), "text": p["crescent_link"].format(month=month),
            "json": responses.api_url("moon-visibility", {"hy": hy, "hm": hm, "city": city["id"]}),
            "json_text": p["point_answer"].format(city=city["names"][lang])}


def summer_time_note(tz: str, isos: list[str], lang: str) -> str | None:
    """Return the note that a month's times include summer time, when one of its days (at noon) is on it in ``tz``
    (gallery reviews fa LANG3-17, ur UR2-34: the clock was said only in a mosque's English source note), else None."""
    zone = ZoneInfo(tz)
    on_summer_time = any(datetime.fromisoformat(iso + "T12:00").replace(tzinfo=zone).dst() for iso in isos)
    return words.WORDS[lang]["summer_time_note"] if on_summer_time else None


def clock_change(tz: str, iso: str) -> tuple[int, str] | None:
    """Return how the zone ``tz``'s clock changed in the night before the day ``iso`` (`timezones.clock_change`) as
    (minutes, the old clock's HH:MM at the change: 02:00 for London's autumn change, 01:00 for its spring one, as a
    notice of the change says it), or None.  The same fact /v1/day-status gives a place as ``clockChange``."""
    change = timezones.clock_change(tz, (date.fromisoformat(iso) - date(1970, 1, 1)).days)
    if change is None:
        return None
    return change[2], timezones.reading_before(change)


def clock_change_row(tz: str, iso: str, lang: str) -> list[dict]:
    """Return the day row's (and so the today card's) line that the clock changed last night, or nothing."""
    text = clock_change_text(tz, iso, lang)
    return [{"title": text, "major": False, "type": "clock", "night": False}] if text else []


def clock_change_text(tz: str, iso: str, lang: str) -> str | None:
    """Return the words for the day's row and card that the clock changed last night (`clock_change`), or None."""
    change = clock_change(tz, iso)
    if change is None:
        return None
    minutes, at = change
    w = words.WORDS[lang]
    amount = (w["clock_hour"] if abs(minutes) == 60
              else w["clock_minutes"].format(minutes=words.digits(abs(minutes), lang)))
    return w["clock_forward" if minutes > 0 else "clock_back"].format(amount=amount, time=words.clock(at, lang))


def month_table(today: date, local_today: date, city: dict, lang: str, method: str, calendar: str, year: int,
                month: int) -> dict:
    """Return one month's rows (Gregorian day, weekday, both Hijri dates, times, events) for the template."""
    query = prayer_query(city["id"], method, year=year, month=month)
    prayer = responses.api_json("prayer-times", query, today)
    shown = page_calendars(calendar, city_offered(city))
    maps = {c: responses.api_json("hijri", {"year": year, "month": month, "calendar": c}, today) for c in shown}
    events_by_day = events_on_days(today, maps[calendar], calendar, lang, city_community(city))
    sep = words.SEPARATOR[lang]
    rows = []
    for i, day in enumerate(prayer["days"]):
        iso = day["date"]
        gregorian = date.fromisoformat(iso)
        hijri_cells = {c: hijri_cell(maps[c]["days"][iso], first_row=i == 0, lang=lang) for c in shown}
        shamsi_date = shamsi.from_gregorian(gregorian)
        weekday = hijri_names.WEEKDAYS[lang][gregorian.weekday()]
        own_hijri = maps[calendar]["days"][iso]
        label = day_label(gregorian, own_hijri, lang)
        rows.append({
            "iso": iso,
            "day": words.digits(gregorian.day, lang),
            "weekday": weekday,
            "label": sep.join(label),
            "label_parts": label,  # each date unbroken on a phone's card, a line break only at the separator (fa LANG3-12)
            "friday": gregorian.weekday() == 4,
            "today": gregorian == local_today,
            "shamsi": shamsi_cell(shamsi_date, first_row=i == 0, lang=lang),
            "hijri": [{"calendar": c, **hijri_cells[c]} for c in shown],
            "times": [{"id": t, "name": words.TIME_NAMES[lang][t], "text": words.clock(day["local"][t], lang)}
                      for t in words.TIMES],
            # the card's count-down: every time, but in Ramadan (the page's reckoning) not sunset, which is not the
            # fast's end for the Shia (iftar is at maghrib: gallery review 4, AR4-01)
            "instants": [None if t == "sunset" and own_hijri["month"] == RAMADAN else _unix_s(day[t])
                         for t in words.TIMES],
            "ramadan": own_hijri["month"] == RAMADAN,
            "polar": polar_text(day["polar"], lang) if "polar" in day else None,
            "events": events_by_day.get(iso, [])
            + ashura_imsak(today, iso, calendar, day["local"]["asr"], lang, events_by_day)
            + clock_change_row(prayer["meta"]["tz"], iso, lang),  # the clock changed last night (AR4-03, UR4-05)
        })
    hijri_months = [f"{m['monthName'][lang]} {words.digits(m['year'], lang)}" for m in maps[calendar]["months"]]
    caption = words.WORDS[lang]["month_caption"].format(
        month=words.GREGORIAN_MONTHS[lang][month - 1], year=words.digits(year, lang))
    hijri_caption = " – ".join(hijri_months)
    caption = month_heading(caption, prayer["days"][0]["date"], prayer["days"][-1]["date"], lang)
    polar_days = [day["polar"] for day in prayer["days"] if "polar" in day]
    return {
        "id": f"{year:04d}-{month:02d}",
        "polar_note": words.WORDS[lang]["polar_note"].format(lat=polar_latitude(polar_days[0], lang))
        if polar_days else None,
        "summer_time_note": summer_time_note(prayer["meta"]["tz"], [day["date"] for day in prayer["days"]], lang),
        "caption": caption,
        "hijri_caption": hijri_caption,
        "rows": rows,
        "meta": prayer["meta"],
        "table": next((day["table"] for day in prayer["days"] if day.get("source") == "printed"), None),
        "api": responses.api_url("prayer-times", query),
        "csv": responses.api_url("prayer-times.csv", query) if PRAYER_TIMES_CSV else None,
    }


def _unix_s(instant: str | None) -> int | None:
    """Return an API instant ("2026-03-01T02:23:00Z") as Unix seconds, for the page's script."""
    if instant is None:
        return None
    return int(datetime.fromisoformat(instant.replace("Z", "+00:00")).timestamp())


def date_text(day: date, lang: str) -> str:
    """Return "22 November 2026" in ``lang``."""
    return f"{words.digits(day.day, lang)} {words.GREGORIAN_MONTHS[lang][day.month - 1]} {words.digits(day.year, lang)}"


def month_heading(caption: str, first_iso: str, last_iso: str, lang: str) -> str:
    """Return a month table's heading before its Hijri months: the Gregorian month ("November 2026"); on a Persian
    page the Solar Hijri months it spans first and the Gregorian in brackets, «آبان ۱۴۰۵ – آذر ۱۴۰۵ (نوامبر ۲۰۲۶)»,
    as Iran's calendars print them (language review 2026-11-28 fa FA-05, gallery review R-06)."""
    if lang != "fa":
        return caption
    ends = (shamsi.from_gregorian(date.fromisoformat(first_iso)), shamsi.from_gregorian(date.fromisoformat(last_iso)))
    months = " – ".join(dict.fromkeys(f"{shamsi.MONTHS_FA[m - 1]} {words.digits(y, lang)}" for y, m, _ in ends))
    return f"{months} ({caption})"


def lead_date_text(day: date, lang: str) -> str:
    """Return a date as a sentence of the page gives it: "22 November 2026"; on a Persian page the Solar Hijri date
    first and the Gregorian in brackets, «۳۰ بهمن ۱۴۰۴ (۱۹ فوریه ۲۰۲۶)» (language review 2026-11-28 fa FA-05)."""
    return shamsi.leading(day, date_text(day, lang), lang)


def lead_span_text(first: date, last: date, lang: str) -> str:
    """Return a span of days: "19 February 2026 – 20 March 2026"; Persian: «۳۰ بهمن ۱۴۰۴ – ۲۹ اسفند ۱۴۰۴ (۱۹ فوریه
    ۲۰۲۶ – ۲۰ مارس ۲۰۲۶)», the Solar Hijri first (fa FA-05, gallery review R-13)."""
    gregorian = f"{date_text(first, lang)} – {date_text(last, lang)}"
    if lang != "fa":
        return gregorian
    solar = f"{shamsi_text(shamsi.from_gregorian(first), lang)} – {shamsi_text(shamsi.from_gregorian(last), lang)}"
    return f"{solar} ({gregorian})"


def shamsi_text(shamsi_date: tuple[int, int, int], lang: str) -> str:
    """Return a Solar Hijri date written out ("1 فروردین 1405", in the page's digits)."""
    year, month, day = shamsi_date
    return f"{words.digits(day, lang)} {shamsi.MONTHS_FA[month - 1]} {words.digits(year, lang)}"


def shamsi_cell(shamsi_date: tuple[int, int, int], *, first_row: bool, lang: str) -> dict:
    """Return a Solar Hijri cell: the day, with the month's name on its 1st and on the first row."""
    _, month, day = shamsi_date
    text = f"{words.digits(day, lang)} {shamsi.MONTHS_FA[month - 1]}" if first_row or day == 1 \
        else words.digits(day, lang)
    return {"text": text, "month_start": day == 1}


def zone_city_name(tz: str, city: dict, catalogue: dict, lang: str) -> str:
    """Return the name in ``lang`` of the city a zone is named after ("Asia/Baghdad": Baghdad), else of ``city``."""
    named = catalogue.get(tz.rsplit("/", 1)[-1].lower().replace("_", "-"))
    return (named or city)["names"][lang]


def polar_latitude(polar: dict, lang: str) -> str:
    """Return the latitude a polar day was computed at, one decimal, in the digits of ``lang``."""
    return feed_words.decimal(polar["latitude"], lang)


def polar_text(polar: dict, lang: str) -> str:
    """Return the sentence saying at which latitude a polar day was computed (the feeds' wording)."""
    return feed_words.POLAR_LINE[lang].format(lat=polar_latitude(polar, lang))


def hijri_cell(hijri: dict, *, first_row: bool, lang: str) -> dict:
    """Return the text of a Hijri date cell: the day, with the month's name on its 1st and on the first row."""
    day = words.digits(hijri["day"], lang)
    named = first_row or hijri["day"] == 1
    text = f"{day} {hijri_names.month_in_date(hijri['month'], lang)}" if named else day
    return {"text": text, "month_start": hijri["day"] == 1}


def events_on_days(today: date, hijri_map: dict, calendar: str, lang: str,
                   community: str | None = None) -> dict[str, list[dict]]:
    """Return the events falling in a forward Hijri map's days, by Gregorian date, under ``calendar``.

    A night is shown on its eve (`eveGregorian`, the row on whose evening it begins), its
    title followed by "begins at sunset".  A map ending on the last day of Dhu al-Hijja
    may hold the eve of a night of the next Hijri year, so that year is asked too.
    With ``community`` the events are the ones it keeps (/v1/events ``community``), a public holiday there
    saying so after its title.
    """
    years = {m["year"] for m in hijri_map["months"]}
    if hijri_map["months"][-1]["month"] == 12:
        years.add(hijri_map["months"][-1]["year"] + 1)
    days: dict[str, list[dict]] = {}
    for hy in sorted(years):
        if not hijri.API_FIRST_YEAR <= hy <= hijri.API_LAST_YEAR:
            continue  # the events of AH 1316 and 1524 are not served (SPEC 2.1)
        query = {"hy": hy, "calendar": calendar} | ({"community": community} if community else {})
        for event in responses.api_json("events", query, today)["events"]:
            night = event.get("night", False)
            shown_on = event["eveGregorian"] if night else event["gregorian"]
            if shown_on in hijri_map["days"]:
                title = event["title"][lang]
                if event.get("holiday"):
                    title += words.SEPARATOR[lang] + feed_words.PUBLIC_HOLIDAY[lang]
                if night:
                    title += words.SEPARATOR[lang] + feed_words.NIGHT_BEGINS[lang]
                days.setdefault(shown_on, []).append(
                    {"title": title, "major": event["importance"] == "major", "type": event["type"], "night": night})
    return days


def ashura_imsak(today: date, iso: str, calendar: str, asr: str | None, lang: str, events_by_day: dict) -> list[dict]:
    """Return the line a day row adds when /v1/day-status says the day's practice is to abstain until after asr
    (``flags.ashuraImsak``, data/day_rules.json), with the day's asr (``asr``: local HH:MM), or nothing.  Only a day
    with an event is asked (the rule is a catalogue day's), so a month page asks the API a few times at most."""
    if iso not in events_by_day or not asr:  # no asr that day (a polar day with highLatitudeRule=none): no line
        return []
    flags = responses.api_json("day-status", {"date": iso, "calendar": calendar}, today)["flags"]
    if not flags["ashuraImsak"]:
        return []
    text = words.WORDS[lang]["screen.ashura_imsak"].format(asr=words.clock(asr, lang))
    return [{"title": text, "major": False, "type": "practice", "night": False}]
