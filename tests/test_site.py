"""The site's renderers, routes and serving, in process (the browser checks are tests/test_site_browser.py)."""
from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

import orjson
import pytest
from conftest import call
from markupsafe import escape

import build
from generator import site
from generator.output import static_paths
from generator.api import BY_NAME, render
from generator.query import Query
from generator.astronomy import coastline
from generator.output import moon_map_svg as moon_map
from generator.words import page_words as words
from generator.site import imsakiya, index, responses, routes, timetable, urls

TODAY = date(2026, 3, 20)  # a fixed "today": this month March 2026, next April
NATIVE_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")
# A page naming the Institute of Geophysics prints its midnight, sunset to fajr (its printed tables; issue 33):
# the API gives it for midnight=sunsetToFajr (its own default stays the SPEC's maghrib to fajr).
INSTITUTE_MIDNIGHT = "sunsetToFajr"
CELL = re.compile(r"M(\d+) (\d+)h(\d+)v\d+h-\d+z")


def api(name: str, **query) -> dict:
    return orjson.loads(call(name, responses.now_s(TODAY), **query))


@pytest.fixture
def pages_client(client, tmp_path, monkeypatch):
    """The app's test client with an empty static root, so every page is rendered."""
    import runtime.app

    monkeypatch.setattr(runtime.app, "static_root", tmp_path.resolve())
    runtime.app.cache.clear()
    runtime.app.cache._bytes = 0
    return client


# --- the timetable --------------------------------------------------------------------


def test_city_page_shows_this_month_and_the_next_with_the_api_times():
    html = timetable.render(TODAY, "london").decode()
    assert '<html lang="en" dir="ltr">' in html
    tables = re.findall(r'<table class="timetable" data-year="(\d+)" data-month="(\d+)">(.*?)</table>', html, re.DOTALL)
    assert [(y, m) for y, m, _ in tables] == [("2026", "03"), ("2026", "04")]
    for year, month, body in tables:
        # London's page shows the Imam Ali Foundation's printed London table by default (issue 19)
        days = api("prayer-times", city="london", year=year, month=int(month), method="ImamAliFoundation")["days"]
        assert {d["source"] for d in days} == {"printed"}
        rows = re.findall(r'<tr data-date="([\d-]+)".*?</tr>', body, re.S)
        assert rows == [d["date"] for d in days]
        assert len(rows) == calendar.monthrange(int(year), int(month))[1]
        shown = re.findall(r'<td data-time="(\w+)">([^<]*)</td>', body)
        expected = [(name, day["local"][name]) for day in days for name in words.TIMES]
        assert shown == expected


def test_rtl_page_uses_its_language_digits_and_both_reckonings():
    html = timetable.render(TODAY, "tehran", "fa").decode()
    assert '<html lang="fa" dir="rtl">' in html
    march = api("prayer-times", city="tehran", year=2026, month=3, midnight=INSTITUTE_MIDNIGHT)["days"]
    first_row = re.search(r'<tr data-date="2026-03-01".*?</tr>', html, re.S).group(0)
    times = re.findall(r'<td data-time="(\w+)">([^<]*)</td>', first_row)
    assert {name: text.translate(NATIVE_DIGITS) for name, text in times} == march[0]["local"]
    assert not re.search(r"[0-9]", "".join(text for _, text in times))
    cells = dict(re.findall(r'<td data-calendar="(\w+)"[^>]*>([^<]*)</td>', first_row))
    for calendar_name, cell in cells.items():  # the first row names the Hijri month
        hijri_day = api("hijri", date="2026-03-01", calendar=calendar_name)
        assert cell == f"{words.digits(hijri_day['hijri']['day'], 'fa')} {hijri_day['monthName']['fa']}"
    assert set(cells) == {"moonsighting", "iran"}
    assert "تهران" in html and "اوقات شرعی" in html


def test_events_are_marked_on_their_days_under_the_city_reckoning():
    # Tehran follows Iran's calendar: 21 Ramadan 1447 (Imam Ali's martyrdom) under calendar=iran.
    event = next(e for e in api("events", hy=1447, calendar="iran")["events"] if e["id"] == "martyrdom-imam-ali")
    html = timetable.render(TODAY, "tehran", "en").decode()
    row = re.search(rf'<tr data-date="{event["gregorian"]}".*?</tr>', html, re.S).group(0)
    assert event["title"]["en"] in row
    assert timetable.city_calendar({"country": "IR"}) == "iran"
    assert timetable.city_calendar({"country": "IQ"}) == "moonsighting"


# Instants around midnight in a city's zone (IANA tzdata: Tehran UTC+03:30, New York UTC-05:00 in winter,
# Sydney UTC+11:00 in its summer), with the date its clocks show.
CITY_CLOCKS = [
    ("tehran", "2026-03-20T20:29:00+00:00", "2026-03-20"), ("tehran", "2026-03-20T20:31:00+00:00", "2026-03-21"),
    ("new-york", "2026-03-01T04:59:00+00:00", "2026-02-28"), ("new-york", "2026-03-01T05:01:00+00:00", "2026-03-01"),
    ("sydney", "2026-01-31T12:59:00+00:00", "2026-01-31"), ("sydney", "2026-01-31T13:01:00+00:00", "2026-02-01"),
]


@pytest.mark.parametrize("city, instant, local", CITY_CLOCKS)
def test_today_is_the_city_date_not_the_utc_date(city, instant, local):
    now_s = datetime.fromisoformat(instant).timestamp()
    html = timetable.render(date.fromisoformat(instant[:10]), city, now_s=now_s).decode()
    marked = re.findall(r'<tr data-date="([\d-]+)"[^>]*aria-current="date"', html)
    assert marked == [local]
    tables = re.findall(r'<table class="timetable[^"]*" data-year="(\d+)" data-month="(\d+)">', html)
    assert tables[0] == (local[:4], local[5:7]), "the page starts at the city's month"
    card = re.search(r'<section class="today-card[^"]*"[^>]*data-date="([\d-]+)"(.*?)</section>', html, re.DOTALL)
    assert card[1] == local
    api_times = api("prayer-times", city=city, date=local, midnight=INSTITUTE_MIDNIGHT)["days"][0]["local"]
    assert dict(re.findall(r'<li data-time="(\w+)"><span class="name">[^<]*</span> <span class="time">([^<]*)</span>',
                           card[2])) == api_times


def test_today_card_carries_the_instants_for_the_next_time():
    html = timetable.render(TODAY, "london").decode()
    data = orjson.loads(re.search(r'<script type="application/json" id="day-instants">(.*?)</script>', html, re.S)[1])
    assert data["tz"] == "Europe/London"
    for iso in ("2026-03-20", "2026-03-25"):  # the last of Ramadan 1447 in London's reckoning, then Shawwal
        day = api("prayer-times", city="london", date=iso, method="ImamAliFoundation")["days"][0]
        ramadan = api("hijri", date=iso, calendar="moonsighting")["hijri"]["month"] == 9
        # in Ramadan the count-down skips sunset: the Shia fast ends at maghrib (gallery review 4, AR4-01)
        expected = [None if ramadan and t == "sunset" else int(datetime.fromisoformat(day[t].replace("Z", "+00:00"))
                    .timestamp()) for t in words.TIMES]
        assert data["days"][iso] == expected, iso
        assert (iso in data["ramadan"]) == ramadan and ramadan == (iso == "2026-03-20")
    assert data["iftar"] == "Iftar (Maghrib)"
    assert len(data["days"]) == 31 + 30


def test_persian_pages_show_the_solar_hijri_date():
    """1 Farvardin 1405 = 21 March 2026 (Nowruz, Iran's Calendar Center table; tests/test_shamsi.py)."""
    html = timetable.render(TODAY, "tehran", "fa").decode()
    row = re.search(r'<tr data-date="2026-03-21".*?</tr>', html, re.S)[0]
    assert '<td data-shamsi class="start">۱ فروردین</td>' in row
    first = re.search(r'<tr data-date="2026-03-01".*?</tr>', html, re.S)[0]
    assert "<td data-shamsi>۱۰ اسفند</td>" in first
    assert "<td data-shamsi" not in timetable.render(TODAY, "tehran", "ar").decode()


def test_city_page_links_feeds_as_webcal_and_https_and_draws_the_qibla():
    html = timetable.render(TODAY, "london", "ur").decode()
    feeds = re.findall(r'<a class="(webcal|https)" href="([^"]+)" data-path="([^"]+)">', html)
    # prayer times, the last third of the night, and the events the place's community keeps (issue 33)
    assert [kind for kind, _, _ in feeds] == ["webcal", "https"] * 3
    assert all(href == path and href.startswith("/v1/") for _, href, path in feeds)
    assert feeds[-1][1] == "/v1/events.ics?calendar=moonsighting&amp;community=GB&amp;lang=ur"
    bearing = api("qibla", city="london")["qibla"]
    assert f'data-bearing="{bearing}"' in html and f'transform="rotate({bearing} 50 50)"' in html
    assert 'href="/city/london/ur/imsakiya/"' in html


def test_each_month_links_its_csv(pages_client, monkeypatch):
    """Every month of a city page links /v1/prayer-times.csv for the same city, method and month (issue 9)."""
    html = timetable.render(TODAY, "london").decode()
    links = re.findall(r'<a href="(/v1/prayer-times\.csv\?[^"]+)" class="csv-link">', html)
    assert links == ["/v1/prayer-times.csv?city=london&amp;method=ImamAliFoundation&amp;month=3&amp;year=2026",
                     "/v1/prayer-times.csv?city=london&amp;method=ImamAliFoundation&amp;month=4&amp;year=2026"]
    response = pages_client.get(links[0].replace("&amp;", "&"))
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    monkeypatch.setattr(timetable, "PRAYER_TIMES_CSV", False)
    assert "prayer-times.csv" not in timetable.render(TODAY, "london").decode()


def test_month_pages_and_their_links():
    html = timetable.render(TODAY, "beirut", "ar").decode()
    assert 'href="/city/beirut/ar/Tehran/2026-02/" rel="prev"' in html
    assert 'href="/city/beirut/ar/Tehran/2026-05/" rel="next"' in html
    month = routes.city_month(TODAY, "beirut", "ar", "Tehran", "2026-05").decode()
    assert f'<link rel="canonical" href="{urls.absolute("/city/beirut/ar/Tehran/2026-05/")}">' in month
    assert re.findall(r'data-year="(\d+)" data-month="(\d+)"', month) == [("2026", "05")]
    assert 'href="/city/beirut/ar/" rel="prev"' in month  # April is on the city's page
    assert 'rel="next"' not in month  # the window ends with the month after the two shown
    assert 'rel="next"' in routes.city_month(TODAY, "beirut", "ar", "Tehran", "2026-02").decode()
    assert 'rel="prev"' not in routes.city_month(TODAY, "beirut", "ar", "Tehran", "2026-02").decode()
    assert "2026-09" in routes.city_month(TODAY, "beirut", "ar", "Tehran", "2026-09").decode()  # any month on request
    for bad in ("2026-13", "1899-12", "2026-1", "abcd-ef"):
        with pytest.raises(site.PageNotFound):
            routes.city_month(TODAY, "beirut", "ar", "Tehran", bad)


def test_a_mosque_month_page_names_its_month_and_links_the_months_around_it():
    """/mosque/<id>/<lang>/<YYYY-MM>/ (issue 36): any month of the API's years, its own canonical address, its table
    that month's /v1/prayer-times?mosque=<id> (dates), links to the months either side (this month: the mosque's
    page) and to its Ramadan timetable; the page of this month links back by the same rule."""
    html = routes.mosque_month(TODAY, "jaffari-toronto", "ur", "2026-07").decode()
    assert f'<link rel="canonical" href="{urls.absolute("/mosque/jaffari-toronto/ur/2026-07/")}">' in html
    assert re.findall(r'data-year="(\d+)" data-month="(\d+)"', html) == [("2026", "07")]
    api = orjson.loads(call("prayer-times", 0, mosque="jaffari-toronto", year=2026, month=7))
    assert re.findall(r'<tr data-date="([0-9-]+)"', html) == [day["date"] for day in api["days"]]
    assert 'href="/mosque/jaffari-toronto/ur/2026-06/" rel="prev"' in html
    assert 'href="/mosque/jaffari-toronto/ur/2026-08/" rel="next"' in html
    assert 'href="/mosque/jaffari-toronto/ur/imsakiya/"' in html
    main = routes.mosque(TODAY, "jaffari-toronto", "en").decode()  # March 2026 on the mosque's date
    assert 'href="/mosque/jaffari-toronto/en/2026-02/" rel="prev"' in main
    assert 'href="/mosque/jaffari-toronto/en/2026-04/" rel="next"' in main
    april = routes.mosque_month(TODAY, "jaffari-toronto", "en", "2026-04").decode()
    assert 'href="/mosque/jaffari-toronto/" rel="prev"' in april  # March is the mosque's page itself
    assert 'rel="next"' not in routes.mosque_month(TODAY, "jaffari-toronto", "en", "2100-12").decode()
    for bad in ("2026-13", "1899-12", "2026-1", "abcd-ef"):
        with pytest.raises(site.PageNotFound):
            routes.mosque_month(TODAY, "jaffari-toronto", "en", bad)


def test_a_mosques_ramadan_timetable_without_jamaat_rules_is_the_imsakiya_of_its_place():
    """A mosque that publishes no jamaat (jaffari-toronto) gets the imsakiya's columns only, on its own reckoning
    and place: every row's times equal /v1/prayer-times?mosque=<id> of that date (asked here by date)."""
    html = routes.mosque_imsakiya(TODAY, "jaffari-toronto", "en", "1447").decode()
    assert "<td data-jamaat" not in html and "<td data-slots" not in html
    assert f'<link rel="canonical" href="{urls.absolute("/mosque/jaffari-toronto/en/imsakiya/1447/")}">' in html
    rows = re.findall(r'<tr data-date="([0-9-]+)"[^>]*>(.*?)</tr>', html, re.DOTALL)
    month = orjson.loads(call("hijri", 0, hy=1447, hm=9, calendar="moonsighting"))
    assert [d for d, _ in rows] == list(month["days"].values())
    for day, cells in rows:
        local = orjson.loads(call("prayer-times", 0, mosque="jaffari-toronto", date=day))["days"][0]["local"]
        assert dict(re.findall(r'<td data-time="(\w+)">([0-9:]+)</td>', cells)) == \
            {t: local[t] for t in ("imsak", "fajr", "sunrise", "dhuhr", "maghrib", "midnight")}, day


def _twelve_hour(hhmm: str) -> str:
    """ar and ur pages print 12-hour times without the AM/PM word (docs/site.md): by the C library's strftime."""
    return datetime.strptime(hhmm, "%H:%M").strftime("%I:%M").lstrip("0")


def test_imsakiya_shows_the_current_ramadan_until_its_last_day():
    """On 20 March 2026 Ramadan 1447 is not over under the sighting reckoning (/v1/hijri: 30 Ramadan)."""
    assert api("hijri", date="2026-03-20")["hijri"]["month"] == 9
    html = routes.imsakiya_page(TODAY, "london", "en").decode()
    assert "Ramadan 1447" in html and '<tr data-date="2026-02-19"' in html


@pytest.mark.parametrize("lang, city, calendar", [("en", "london", "moonsighting"), ("fa", "tehran", "iran"),
                                                  ("ur", "karachi", "iran")])
def test_imsakiya_equals_the_api_and_marks_the_nights_of_qadr_on_their_eves(lang, city, calendar):
    """On 1 April 2026 (Shawwal 1447 under both reckonings) the coming Ramadan is 1448's, from February 2027."""
    default = timetable.city_calendar(next(c for c in api("cities", all=1)["cities"] if c["id"] == city))
    html = routes.imsakiya_page(date(2026, 4, 1), city, lang, None if calendar == default else calendar).decode()
    method = timetable.city_default_method(api("methods")["methods"], city)  # London: its printed table
    month = api("hijri", hy=1448, hm=9, calendar=calendar)
    rows = re.findall(r'<tr data-date="([\d-]+)"( class="[^"]*")?[^>]*>\s*<th scope="row">([^<]*)</th>(.*?)</tr>',
                      html, re.DOTALL)
    assert [iso for iso, *_ in rows] == list(month["days"].values())
    assert [int(day.translate(NATIVE_DIGITS)) for _, _, day, _ in rows] == [int(d) for d in month["days"]]
    for iso, classes, _, cells in rows:
        midnight = {"midnight": INSTITUTE_MIDNIGHT} if method == "Tehran" else {}  # London: the table's own
        local = api("prayer-times", city=city, date=iso, method=method, **midnight)["days"][0]["local"]
        shown = {k: v.translate(NATIVE_DIGITS) for k, v in re.findall(r'<td data-time="(\w+)">([^<]*)</td>', cells)}
        assert shown == {k: local[k] if lang in ("en", "fa") else _twelve_hour(local[k]) for k in imsakiya.TIMES}
    qadr = [int(day.translate(NATIVE_DIGITS)) for _, classes, day, _ in rows if "qadr" in classes]
    assert qadr == [18, 20, 22]
    assert next(m["label"][lang] for m in api("methods")["methods"] if m["id"] == method) in html


def test_imsakiya_addresses():
    assert urls.imsakiya_url("london", "en", "moonsighting", "moonsighting") == "/city/london/en/imsakiya/"
    assert urls.imsakiya_url("london", "en", "iran", "moonsighting") == "/city/london/en/imsakiya/iran/"
    assert urls.imsakiya_url("london", "ar", "iran", "moonsighting", "Jafari") == \
        "/city/london/ar/imsakiya/iran/Jafari/"
    for args in (("london", "en", "tabular"), ("london", "de"), ("nowhere", "en"), ("london", "en", "iran", "Nope")):
        with pytest.raises(site.PageNotFound):
            routes.imsakiya_page(TODAY, *args)


def test_home_pages_in_arabic_persian_and_urdu(pages_client):
    for lang in ("ar", "fa", "ur"):
        response = pages_client.get(f"/{lang}/")
        assert response.status_code == 200, lang
        html = response.text
        assert f'<html lang="{lang}" dir="rtl">' in html
        assert html.index('id="city-search"') < html.index('id="h-api"'), "find your city first"
        assert words.digits(len(api("cities", all=1)["cities"]), lang) in html
        assert f'href="/city/karbala/{lang}/"' in html
    assert pages_client.get("/de/").status_code == 404
    english = pages_client.get("/").text
    assert "`" not in english, "no literal backticks: `code` spans are <code>"
    assert "<code>local</code>" in english
    assert '<bdi lang="fa">فارسی</bdi>' in english


def test_moon_maps_carry_a_graticule_and_the_reference_cities():
    """Markers at x = lng + 180, y = 70 - lat (the maps' projection) for the catalogue's coordinates."""
    html = routes.moon(TODAY, "1447", "9", "fa").decode()
    cities = {c["id"]: c for c in api("cities", all=1)["cities"]}
    for city in words.MAP_CITIES:
        x, y = round(cities[city]["lng"] + 180, 2), round(70 - cities[city]["lat"], 2)
        assert f'<circle cx="{x:g}" cy="{y:g}" r="1.3"/>' in html, city
        assert f">{cities[city]['names']['fa']}</text>" in html
        assert f"/v1/moon-visibility?city={city}&amp;hm=9&amp;hy=1447" in html
    assert html.count('<use href="#overlay"/>') == 5
    assert "M30 0v130" in html and "M0 40h360" in html  # 150° W meridian, 30° N parallel


# Nights on their eves (issue 10).  Iran's official calendar (shared/reference/
# iran_hijri_month_starts.csv): 1 Ramadan 1448 = 8 Feb 2027, so the 19th night begins on the
# evening of 25 Feb 2027 (the example) and the 21st and 23rd on 27 Feb and 1 Mar.  The
# Sistani office announced 1 Ramadan 1447 = 19 Feb 2026 (shared/reference/announced_month_starts.csv),
# so Karbala's Qadr nights begin on the evenings of 8, 10 and 12 March 2026.
QADR_EVES = {
    ("tehran", date(2027, 2, 1)): ["2027-02-25", "2027-02-27", "2027-03-01"],
    ("karbala", date(2026, 3, 1)): ["2026-03-08", "2026-03-10", "2026-03-12"],
}
BEGINS_AT_SUNSET = {"en": "begins at sunset", "ar": "تبدأ عند غروب الشمس", "fa": "از غروب آفتاب",
                    "ur": "غروبِ آفتاب سے آغاز"}


@pytest.mark.parametrize("city, today", sorted(QADR_EVES))
@pytest.mark.parametrize("lang", sorted(BEGINS_AT_SUNSET))
def test_nights_are_shown_on_their_eves_row(city, today, lang):
    html = timetable.render(today, city, lang).decode()
    title = next(e["title"][lang] for e in api("events")["events"] if e["id"] == "night-of-qadr-19")
    shown = f"{title}{words.SEPARATOR[lang]}{BEGINS_AT_SUNSET[lang]}"
    rows = dict(re.findall(r'<tr data-date="([\d-]+)".*?<td class="events">(.*?)</td>\s*</tr>', html, re.S))
    night_rows = [day for day, cell in rows.items() if 'class="event major night"' in cell]
    assert night_rows == QADR_EVES[city, today]
    assert f'<span class="event major night" dir="auto">{escape(shown)}</span>' in rows[QADR_EVES[city, today][0]]
    day_after = (date.fromisoformat(QADR_EVES[city, today][0]) + timedelta(days=1)).isoformat()
    assert title not in rows[day_after]  # not on the Hijri date's own row, where Imam Ali's strike is
    struck = next(e["title"][lang] for e in api("events")["events"] if e["id"] == "imam-ali-struck")
    assert escape(struck) in rows[day_after]


def test_method_switcher_links_every_method_page():
    html = timetable.render(TODAY, "karachi", "ur", "Jafari").decode()
    methods = api("methods")["methods"]
    for method in methods:
        assert f'href="{urls.city_url("karachi", "ur", method["id"])}"' in html
    assert '<a href="/city/karachi/ur/Jafari/" aria-current="page">' in html
    assert f'<link rel="canonical" href="{urls.absolute("/city/karachi/ur/Jafari/")}">' in html


def test_names_are_escaped(monkeypatch):
    real = responses.api_json

    def hostile(name, query, today):
        answer = real(name, query, today)
        if name == "cities":
            for city in answer["cities"]:
                if city["id"] == "london":
                    city["names"] = {lang: '<script>alert("x")</script> & Co' for lang in words.LANGUAGES}
        return answer

    monkeypatch.setattr(responses, "api_json", hostile)
    html = timetable.render(TODAY, "london").decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; Co" in html
    assert b"<script>" not in routes.not_found_page("/<script>x</script>")


def test_unknown_city_language_or_method_is_not_found():
    for args in (("nowhere",), ("london", "de"), ("london", "en", "Nope")):
        with pytest.raises(site.PageNotFound):
            routes.city_page(TODAY, *args)


def test_renderers_are_deterministic():
    assert timetable.render(TODAY, "najaf", "ar") == timetable.render(TODAY, "najaf", "ar")
    assert routes.moon(TODAY, "1447", "9", "ur") == routes.moon(TODAY, "1447", "9", "ur")
    assert index.render(TODAY) == index.render(TODAY)


# --- the crescent maps -----------------------------------------------------------------


def _cells_per_zone(svg: str) -> dict[str, int]:
    return {d: len(CELL.findall(path)) for d, path in re.findall(r'<path class="z(\d)" fill="#\w+" d="([^"]*)"', svg)}


def _decode(svg: str, res: int, rows: int, columns: int) -> list[str]:
    grid = [["?"] * columns for _ in range(rows)]
    for digit, path in re.findall(r'<path class="z(\d)" fill="#\w+" d="([^"]*)"', svg):
        for x, y, side in CELL.findall(path):
            assert int(side) == res
            assert grid[int(y) // res][int(x) // res] == "?"
            grid[int(y) // res][int(x) // res] = digit
    return ["".join(row) for row in grid]


@pytest.mark.parametrize("res", [5, 2])
def test_svg_endpoint_draws_one_cell_per_grid_cell(res):
    grid = api("moon-visibility", hy=1447, hm=10, evening=0, res=res)
    canonical = BY_NAME["moon-visibility.svg"].parse(Query.of({"hy": "1447", "hm": "10", "res": str(res)}), 0.0)
    svg = render("moon-visibility.svg", canonical.params).decode()
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    assert _decode(svg, res, len(grid["rows"]), len(grid["rows"][0])) == grid["rows"]
    counts = _cells_per_zone(svg)
    assert {d: counts.get(d, 0) for d in "01234"} == grid["counts"]["digits"]
    assert BY_NAME["moon-visibility.svg"].media_type == "image/svg+xml"


def test_svg_endpoint_parameters(client):
    ok = client.get("/v1/moon-visibility.svg?hy=1447&hm=9&evening=-1&lang=fa")
    assert ok.status_code == 200 and ok.headers["content-type"] == "image/svg+xml; charset=utf-8"
    assert 'xml:lang="fa"' in ok.text and "رمضان" in ok.text
    for bad in ("city=najaf&hy=1447&hm=9", "hy=1447&hm=9&lang=de", "hy=1447&hm=9&res=3", "hy=1447&hm=9&x=1"):
        response = client.get(f"/v1/moon-visibility.svg?{bad}")
        assert response.status_code == 400, bad
        assert "error" in response.json()


def test_arabic_moon_page_names_dhu_al_qadah_in_the_genitive(client):
    """«هلال ذي القعدة», never «هلال ذو القعدة»: after هلال the month is in the genitive, as careful Najaf print writes
    it (glossary hijri_month_in_date; the 2026-11-25 language review, finding ar E); a map's caption keeps ذو."""
    html = client.get("/moon/1447-11/ar/").text
    title = re.search(r"<title>([^<]*)</title>", html)[1]
    description = re.search(r'<meta name="description" content="([^"]*)"', html)[1]
    assert "هلال ذي القعدة" in title and "هلال ذي القعدة" in description
    assert "هلال ذو القعدة" not in html


def test_moon_page_maps_are_the_five_evenings_grids():
    html = routes.moon(TODAY, "1447", "10").decode()
    figures = re.findall(r'<figure class="map[^"]*" id="evening(-?\d)" data-evening="-?\d">(.*?)</figure>', html, re.DOTALL)
    assert [int(e) for e, _ in figures] == [-2, -1, 0, 1, 2]
    for evening, figure in figures:
        grid = api("moon-visibility", hy=1447, hm=10, evening=evening, res=5)
        assert _decode(figure, 5, 26, 72) == grid["rows"]
        assert '<use href="#coast"/>' in figure
    assert html.count('id="coast"') == 1
    for lang in words.LANGUAGES:  # the legend in each language
        page = routes.moon(TODAY, "1447", "10", lang).decode()
        assert all(meaning in page for meaning in words.VISIBILITY[lang].values())
        assert f'<html lang="{lang}" dir="{words.direction(lang)}">' in page


@pytest.mark.parametrize("hy, hm, lang", [("1316", "12", "en"), ("1524", "1", "en"), ("1447", "13", "en"),
                                          ("1447", "0", "en"), ("14x7", "1", "en"), ("1447", "9", "de")])
def test_moon_pages_outside_the_api_range_are_not_found(hy, hm, lang):
    with pytest.raises(site.PageNotFound):
        routes.moon(TODAY, hy, hm, lang)


def test_coastline_comes_from_the_package_and_is_small():
    polygons = coastline.polygons()
    assert 100 < len(polygons) < 400
    assert sum(len(p["points"]) for p in polygons) < 6000
    caspian = [p for p in polygons if p["level"] == coastline.LAKE and 46 < p["points"][0][0] < 56
               and 36 < p["points"][0][1] < 48]
    assert caspian, "the Caspian Sea is drawn"
    assert len(moon_map.coastline_path()) < 20_000


# --- the index -----------------------------------------------------------------------


def test_index_lists_every_openapi_path_with_a_working_example(client):
    html = index.render(TODAY).decode()
    document = api("openapi.json")
    for path, item in document["paths"].items():
        if "get" not in item or "security" in item["get"]:  # writes and what needs an edit secret (issue 27)
            continue
        assert f"<code>GET /v1{path}</code>" in html, path
        example = index.operation(path, item["get"])["example"]
        assert f'href="{example.replace("&", "&amp;")}"' in html
        assert client.get(example).status_code == 200, example
        for parameter in item["get"]["parameters"]:
            assert f"<code>{parameter['name']}</code>" in html
    assert "/v1/moon-visibility.svg" in html
    assert client.get(index.operation("/moon-visibility.svg", {})["example"]).status_code == 200
    for feed in ("events.ics", "fasting.ics", "prayer-times.ics?city=karbala", "night.ics?city=karbala"):
        assert f'class="webcal" href="/v1/{feed}"' in html
    assert 'id="city-search"' in html and "/v1/cities?q=" in html
    assert html.count('<a href="/city/') >= 325


# --- routes, static pages and serving ----------------------------------------------------


def test_static_pages_and_their_files():
    pages = site.static_pages(2026, 2026, TODAY)
    routes_known = {page.route for page in site.pages()}
    assert all(route in routes_known for route, _ in pages)
    files = [site.file_path(route, params) for route, params in pages]
    assert len(files) == len(set(files))
    assert files[0] == "index.html"
    assert "city/london/index.html" in files and "city/london/fa/index.html" in files
    assert "city/london/en/index.html" not in files  # English is /city/<id>/
    assert "moon/1447-9/index.html" in files and "moon/1447-9/ur/index.html" in files
    assert {"ar/index.html", "fa/index.html", "ur/index.html"} <= set(files)
    assert "city/london/ur/imsakiya/index.html" in files and "city/london/en/imsakiya/index.html" in files
    # London's pages show its printed table (ImamAliFoundation) by default; Karbala's the API's default
    assert "city/london/fa/ImamAliFoundation/2026-02/index.html" in files
    assert "city/london/fa/ImamAliFoundation/2026-05/index.html" in files
    assert "city/london/fa/ImamAliFoundation/2026-03/index.html" not in files  # shown by /city/london/fa/
    assert "city/karbala/fa/Tehran/2026-02/index.html" in files
    cities = len(api("cities", all=1)["cities"])
    moon_months = len(routes.hijri_months(2026, 2026, TODAY))
    assert {"widget.js", "screen/sw.js"} <= set(files)  # the widget's embed and the screen's service worker
    builder_files = {"mosque/new/index.html", "mosque/new/ar/index.html", "mosque/new/fa/index.html",
                     "mosque/new/ur/index.html"}  # the mosque builder in four languages (issue 27)
    assert builder_files <= set(files) and "mosque/new/en/index.html" not in files
    assert files[-2:] == ["robots.txt", "sitemap.xml"]  # and no sitemap index below 50,000 pages
    mosques = len(api("mosques")["mosques"])  # each profile's page in four languages (issue 20)
    assert "mosque/jaffari-toronto/index.html" in files and "mosque/jaffari-toronto/ur/index.html" in files
    assert len(files) == 4 + 2 + 4 + 4 * cities * (1 + 1 + len(timetable.MONTH_PAGES)) + 4 * moon_months + 4 * mosques + 2
    assert 12 <= moon_months <= 14


def test_build_writes_pages_incrementally(tmp_path):
    job = (build.PAGES, ("/moon/{hy}-{hm}/{lang}/", {"hy": "1447", "hm": "9", "lang": "ar"}),
           responses.now_s(TODAY), str(tmp_path))
    name, relatives, size, changed, _ = build.render_one(job)
    assert (name, relatives, changed) == ("pages", ["moon/1447-9/ar/index.html"], True)  # fixed by its month
    relative = relatives[0]
    assert (tmp_path / relative).read_bytes() == routes.moon(TODAY, "1447", "9", "ar")
    assert (tmp_path / (relative + ".gz")).is_file() and (tmp_path / (relative + ".br")).is_file()
    assert build.render_one(job)[3] is False


def test_pages_are_served_with_headers_and_404s(pages_client):
    response = pages_client.get("/city/london/")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["cache-control"] == "public, max-age=300"
    assert response.headers["access-control-allow-origin"] == "*"
    etag = response.headers["etag"]
    assert pages_client.get("/city/london/", headers={"If-None-Match": etag}).status_code == 304
    assert pages_client.head("/city/london/").status_code == 200
    moon = pages_client.get("/moon/1447-9/fa/")
    assert moon.status_code == 200 and moon.headers["cache-control"] == "public, max-age=86400"
    for path in ("/city/nowhere/", "/city/london/xx/", "/city/london/en/Nope/", "/moon/1447-13/", "/moon/a-b/",
                 "/city/..%2F..%2Fetc/",
                 # the notice board's addresses (issue 36): a month, a Ramadan year, a language, a mosque that are none
                 "/mosque/jaffari-toronto/en/2026-13/", "/mosque/jaffari-toronto/en/1899-12/",
                 "/mosque/jaffari-toronto/en/next/", "/mosque/jaffari-toronto/xx/2026-03/",
                 "/mosque/nowhere/en/2026-03/", "/mosque/jaffari-toronto/en/imsakiya/1316/",
                 "/mosque/jaffari-toronto/en/imsakiya/99999/", "/mosque/jaffari-toronto/en/imsakiya/1447x/",
                 "/mosque/nowhere/ur/imsakiya/"):
        missing = pages_client.get(path)
        assert missing.status_code == 404, path
        assert missing.headers["content-type"] == "text/html; charset=utf-8"
    assert pages_client.get("/city/london").status_code == 200  # redirected to the slash form


def test_pre_rendered_page_is_served_first(pages_client, tmp_path):
    """A page that follows today is read only from today's (UTC) folder of _today/, never from its
    stable name, which a late build may have left from an earlier day (issue 11)."""
    from datetime import datetime, timezone

    today = datetime.now(timezone.utc).date().isoformat()
    for relative, body in ((f"_today/{today}/city/najaf/index.html", b"<!doctype html><title>pre-rendered</title>"),
                           ("city/najaf/index.html", b"<!doctype html><title>an earlier day</title>")):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_bytes(body)
    static_paths.write_manifest(tmp_path, {  # as build.py writes them: the app serves only what the manifest names
        relative: (static_paths.content_hash(body), len(body)) for relative, body in (
            (f"_today/{today}/city/najaf/index.html", b"<!doctype html><title>pre-rendered</title>"),
            ("city/najaf/index.html", b"<!doctype html><title>an earlier day</title>"))})
    assert pages_client.get("/city/najaf/").content == b"<!doctype html><title>pre-rendered</title>"


def test_city_pages_are_rendered_with_the_request_clock(pages_client, monkeypatch):
    """Rendered on request, a city page's today is the city's date at the request's instant: Tehran is UTC+03:30
    (Iran's zone without DST since 2022, IANA tzdata), so at 21:00 UTC on 20 March it is already 21 March there."""
    import time as real_time
    from types import SimpleNamespace

    import runtime.app

    instant = 1774040400.0  # 2026-03-20T21:00:00Z
    clock = {name: getattr(real_time, name) for name in ("monotonic", "perf_counter", "thread_time")}
    monkeypatch.setattr(runtime.app, "time", SimpleNamespace(time=lambda: instant, **clock))
    tehran = pages_client.get("/city/tehran/fa/").text
    london = pages_client.get("/city/london/").text
    assert re.findall(r'<tr data-date="([\d-]+)"[^>]*aria-current="date"', tehran) == ["2026-03-21"]
    assert re.findall(r'<tr data-date="([\d-]+)"[^>]*aria-current="date"', london) == ["2026-03-20"]


# --- words -------------------------------------------------------------------------------


def test_words_cover_every_language_and_digits_follow_the_decisions():
    for table in (words.WORDS, words.TIME_NAMES, words.VISIBILITY, words.SOURCES, words.CALENDAR_LABELS,
                  words.CALENDAR_BASES):
        keys = {frozenset(table[lang]) for lang in words.LANGUAGES}
        assert len(keys) == 1
    assert words.digits("04:35", "ar") == "٠٤:٣٥" and words.digits("04:35", "fa") == "۰۴:۳۵"
    assert words.digits("04:35", "ur") == "۰۴:۳۵" and words.digits("04:35", "en") == "04:35"
    assert words.number(-0.13, "en") == "-0.13"
    assert words.number(-0.13, "fa") == "\u2066-۰٫۱۳\u2069"  # isolated so the sign stays in front
    assert words.number(2, "ar", signed=True) == "\u2066+٢\u2069"


def test_a_mosque_page_says_which_midnight_it_prints(client):
    """Gallery review of 28 November (ar F1): the Toronto page printed 23:29, the middle of maghrib and fajr, beside
    city pages that state sunset to fajr, and said nothing of it.  Reference: the profile file itself
    (data/mosques/jaffari-toronto.json: method custom, no midnight), so the API's default night, maghrib to fajr
    (docs/decisions.md "Rounding"), unsourced; the printed midnight of 30 November is that night's middle, from the
    same API answer's maghrib and the next day's fajr (instants), within the minute's rounding."""
    import json
    from datetime import datetime, timedelta
    from pathlib import Path

    profile = json.loads((Path(__file__).resolve().parents[1] / "data/mosques/jaffari-toronto.json").read_text())
    assert "midnight" not in profile["times"] and profile["times"]["method"] == "custom"
    page = client.get("/mosque/jaffari-toronto/").text
    assert "Midnight: half-way from maghrib to the next fajr, the API&#39;s default" in page
    assert "نصف ما بين المغرب والفجر" in client.get("/mosque/jaffari-toronto/ar/").text
    days = {d["date"]: d for d in client.get("/v1/prayer-times?mosque=jaffari-toronto&year=2026&month=11").json()["days"]}
    december = client.get("/v1/prayer-times?mosque=jaffari-toronto&date=2026-12-01").json()["days"][0]

    def at(text: str) -> datetime:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))

    middle = at(days["2026-11-30"]["maghrib"]) + (at(december["fajr"]) - at(days["2026-11-30"]["maghrib"])) / 2
    assert abs(at(days["2026-11-30"]["midnight"]) - middle) <= timedelta(seconds=60)
